r"""The linear PERM-BOTH terms of acc23 at a fixed epsilon and of Kendall-like tau for long
groups (e.g. grouping ``none``), compiled.

:mod:`stats.metaeval.perm_both._linear` writes the permuted difference of these correlations as a constant
plus a linear function of the swaps; its coefficients are sums over the pairs of cells of a
group of the terms :math:`h_{00} = F_{st}(0, 0) - F_{st}(1, 1)` and
:math:`h_{10} = F_{st}(1, 0) - F_{st}(0, 1)`, with :math:`F_{st}(u, v)` the pair's term when
cell :math:`s` took metric :math:`u` and cell :math:`t` metric :math:`v`. Short groups build
them as (cells x cells) arrays; a long group's pairs do not fit at once, so here one compiled
pass visits them: :math:`O(n^2)` time per pair of metrics, once (not per resample), memory
:math:`O(n)`. The pair terms are the general path's own comparisons
(:func:`stats.metaeval.meta_eval._tau_counts`, :func:`stats.metaeval.meta_eval._kendall_like_counts`) and
are summed as integers, so the coefficients are exact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stats._core.jit import njit

if TYPE_CHECKING:
    from .engine import CorrelationSpec

#: correlations served
LONG = ("acc23", "kendall-like")


def _terms(g, xa, xb, acc23, eps, thr, lin):  # pragma: no cover - compiled
    """Unnormalised constant (returned) and per-cell coefficients (added to ``lin``) of one
    group: the valid cells' gold ``g`` and the two metrics' scores ``xa``, ``xb``."""
    n = len(g)
    const = 0
    for s in range(n):
        for t in range(s + 1, n):
            dg = g[s] - g[t]
            h00 = 0
            h10 = 0
            for c in range(4):  # h00 = F(0,0) - F(1,1), h10 = F(1,0) - F(0,1)
                if c == 0:
                    d = xa[s] - xa[t]
                elif c == 1:
                    d = xb[s] - xb[t]
                elif c == 2:
                    d = xb[s] - xa[t]
                else:
                    d = xa[s] - xb[t]
                f = 0
                if acc23:
                    g_tie = dg == 0
                    m_tie = abs(d) <= eps
                    con = (not g_tie) and (not m_tie) and ((dg > 0) == (d > 0))
                    f = 1 if (con or (g_tie and m_tie)) else 0
                elif abs(dg) >= thr:
                    f = 1 if ((dg > 0 and d > 0) or (dg < 0 and d < 0)) else -1
                if c == 0:
                    h00 += f
                elif c == 1:
                    h00 -= f
                elif c == 2:
                    h10 += f
                else:
                    h10 -= f
            const += h00
            lin[s] += h10 - h00
            lin[t] += -h10 - h00
    return const


def _counted(g, thr):  # pragma: no cover - compiled
    """Pairs of cells whose gold scores differ by at least ``thr`` (Kendall-like's pairs)."""
    n = len(g)
    out = 0
    for s in range(n):
        for t in range(s + 1, n):
            if abs(g[s] - g[t]) >= thr:
                out += 1
    return out


def compiled():
    """``(terms, counted)`` compiled, or None without numba."""
    return njit(_terms, _counted)


def applies(gold: np.ndarray, spec: CorrelationSpec) -> bool:
    """Whether the compiled terms of long groups serve this test (fixed-epsilon acc23 and
    kendall-like, with numba)."""
    return spec.correlation in LONG and not spec.tie_calibration and compiled() is not None


def pair_terms(g, xa, xb, correlation, eps, threshold):
    """``(const, lin)`` of one long group (valid cells only): integers as floats."""
    terms, _ = compiled()
    lin = np.zeros(len(g), dtype=np.int64)
    const = terms(g, xa, xb, correlation == "acc23", float(eps), float(threshold), lin)
    return float(const), lin.astype(float)


def counted_pairs(g, threshold) -> int:
    """Kendall-like's counted pairs of one long group (valid cells only)."""
    return int(compiled()[1](g, float(threshold)))
