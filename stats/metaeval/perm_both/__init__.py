"""PERM-BOTH (Deutsch et al., 2021), as MTME runs it: the entry points (:mod:`.core` over
scores, :mod:`.pairs` over item pairs, :mod:`.pooled` for accuracy pooled over language pairs,
:mod:`.spa` for soft pairwise accuracy), the one resampling engine they share
(:mod:`.engine`: :class:`.engine.CorrelationSpec`, :class:`.engine.PermBothResult`) and the
compiled kernels (``_linear``, ``_long``, ``_ties``, ``_calibrated``, ``_calibrated_one``,
``_spa_numba``), each answering ``applies(gold, spec)``.

Every public name of the modules below is importable from here (``stats.metaeval.perm_both.<name>``) and,
unless noted in :mod:`stats`, from the top (``stats.<name>``); names load on first use.
"""

from typing import TYPE_CHECKING

from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the module defining it, imported on first access (:mod:`stats._core.lazy`)
_LAZY = {
    # core
    "perm_both": ".core",
    # engine
    "CorrelationSpec": ".engine",
    "PermBothResult": ".engine",
    # pairs
    "perm_both_pairs": ".pairs",
    # pooled
    "perm_both_pooled_accuracy": ".pooled",
    # spa
    "perm_both_soft_pairwise": ".spa",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # the lazy names, for IDEs and type checkers (tests/test_imports.py)
    from .core import perm_both
    from .engine import CorrelationSpec, PermBothResult
    from .pairs import perm_both_pairs
    from .pooled import perm_both_pooled_accuracy
    from .spa import perm_both_soft_pairwise
