"""sacreBLEU's TER (Tercom's shift search with a beam edit distance), compiled with numba.

The algorithm is sacreBLEU's ``sacrebleu.metrics.lib_ter.translation_edit_rate`` step by
step, on integer word ids instead of strings, so the edits are the same numbers:

- the edit distance is sacreBLEU's ``BeamEditDistance``: rows of the hypothesis, columns of
  the reference, only the cells within ``beam`` of the pseudo-diagonal
  :math:`\\lfloor i\\,|r|/|h| \\rfloor` computed (the last row whole), ties resolved in the
  order substitution/match, deletion, insertion; the trace walked back from the last cell;
- a shift is searched among sacreBLEU's candidates in its order (hypothesis start, reference
  start, length up to 10, distance up to 50; the same three filters on the alignment and the
  error positions), each scored by the edit distance of the shifted hypothesis; the best by
  (gain, length, earliest start, earliest target); at most 1,000 candidates per segment, and
  a search that reaches that limit applies no shift, as in sacreBLEU.

sacreBLEU caches rows of the edit-distance matrix by hypothesis prefix; here the rows of the
current hypothesis are kept and a candidate recomputes only the rows after the prefix its
shift leaves unchanged, which gives the same cells. Only the compiled kernels live here; the
tokenisation is sacreBLEU's own ``TER`` pre-processing (:mod:`stats.mt._ter_parallel`).

Reference: Snover et al. (2006), https://aclanthology.org/2006.amta-papers.25/ ; sacreBLEU
2.x ``metrics/lib_ter.py`` (Post 2018).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["available", "ter_edits"]

try:  # numba is a dependency; without it (an odd install) sacreBLEU's own TER runs
    import numba
    from numba import njit
except ImportError:  # pragma: no cover
    numba = None

_INF = np.int64(10**16)  # sacreBLEU's _INT_INFINITY
_NOP, _SUB, _INS, _DEL, _UNDEF = 0, 1, 2, 3, 4
_MAX_SHIFT_SIZE = 10
_MAX_SHIFT_DIST = 50
_BEAM_WIDTH = 25
_MAX_SHIFT_CANDIDATES = 1000


def available() -> bool:
    """Whether the compiled TER can run (numba importable)."""
    return numba is not None


if numba is not None:

    @njit(cache=True, nogil=True)
    def _rows(h, r, n_h, n_r, p, src, dst, dst_op, ratio, beam):
        """Rows p+1..n_h of the beam edit distance into ``dst``; row p read from ``src``."""
        for i in range(p + 1, n_h + 1):
            prev = src if i - 1 == p else dst
            pseudo = np.int64(math.floor(i * ratio))
            min_j = max(0, pseudo - beam)
            max_j = min(n_r + 1, pseudo + beam)
            if i == n_h:
                max_j = n_r + 1
            hw = h[i - 1]
            for j in range(min_j, max_j):
                if j == 0:
                    dst[i, 0] = prev[i - 1, 0] + 1
                    dst_op[i, 0] = _DEL
                    continue
                best = _INF
                op = _UNDEF
                if hw == r[j - 1]:
                    c = prev[i - 1, j - 1]
                    o = _NOP
                else:
                    c = prev[i - 1, j - 1] + 1
                    o = _SUB
                if best > c:
                    best = c
                    op = o
                c = prev[i - 1, j] + 1
                if best > c:
                    best = c
                    op = _DEL
                c = dst[i, j - 1] + 1
                if best > c:
                    best = c
                    op = _INS
                dst[i, j] = best
                dst_op[i, j] = op

    @njit(cache=True, nogil=True)
    def _alignment(ops, n_h, n_r, trace, align, ref_err, hyp_err):
        """sacreBLEU's trace (walked back), flipped, and ``trace_to_alignment``."""
        i = n_h
        j = n_r
        k = 0
        while i > 0 or j > 0:
            op = ops[i, j]
            trace[k] = op
            k += 1
            if op == _SUB or op == _NOP:
                i -= 1
                j -= 1
            elif op == _INS:
                j -= 1
            elif op == _DEL:
                i -= 1
            else:
                return False
        pos_h = -1
        pos_r = -1
        for t in range(k - 1, -1, -1):
            op = trace[t]
            if op == _INS:  # _flip_trace
                op = _DEL
            elif op == _DEL:
                op = _INS
            if op == _NOP or op == _SUB:
                pos_h += 1
                pos_r += 1
                align[pos_r] = pos_h
                e = 1 if op == _SUB else 0
                hyp_err[pos_h] = e
                ref_err[pos_r] = e
            elif op == _INS:
                pos_h += 1
                hyp_err[pos_h] = 1
            else:
                pos_r += 1
                align[pos_r] = pos_h
                ref_err[pos_r] = 1
        return True

    @njit(cache=True, nogil=True)
    def _perform_shift(words, start, length, target, out):
        n = len(words)
        k = 0
        if target < start:
            for x in range(0, target):
                out[k] = words[x]
                k += 1
            for x in range(start, start + length):
                out[k] = words[x]
                k += 1
            for x in range(target, start):
                out[k] = words[x]
                k += 1
            for x in range(start + length, n):
                out[k] = words[x]
                k += 1
        elif target > start + length:
            for x in range(0, start):
                out[k] = words[x]
                k += 1
            for x in range(start + length, target):
                out[k] = words[x]
                k += 1
            for x in range(start, start + length):
                out[k] = words[x]
                k += 1
            for x in range(target, n):
                out[k] = words[x]
                k += 1
        else:
            for x in range(0, start):
                out[k] = words[x]
                k += 1
            for x in range(start + length, length + target):
                out[k] = words[x]
                k += 1
            for x in range(start, start + length):
                out[k] = words[x]
                k += 1
            for x in range(length + target, n):
                out[k] = words[x]
                k += 1

    @njit(cache=True, nogil=True)
    def _ter_pair(hyp, ref):
        """sacreBLEU's ``translation_edit_rate(hyp, ref)[0]`` on word ids."""
        n_h = len(hyp)
        n_r = len(ref)
        if n_r == 0:
            return np.int64(n_h)
        ratio = n_r / n_h if n_h > 0 else 1.0
        if _BEAM_WIDTH < ratio / 2:
            beam = np.int64(math.ceil(ratio / 2 + _BEAM_WIDTH))
        else:
            beam = np.int64(_BEAM_WIDTH)
        cur = np.full((n_h + 1, n_r + 1), _INF, dtype=np.int64)
        cur_op = np.full((n_h + 1, n_r + 1), _UNDEF, dtype=np.int8)
        for j in range(n_r + 1):
            cur[0, j] = j
            cur_op[0, j] = _INS
        tmp = cur.copy()
        tmp_op = cur_op.copy()
        h = hyp.copy()
        cand = np.empty(n_h, dtype=hyp.dtype)
        _rows(h, ref, n_h, n_r, 0, cur, cur, cur_op, ratio, beam)
        trace = np.empty(n_h + n_r + 1, dtype=np.int8)
        align = np.full(n_r, -2, dtype=np.int64)
        ref_err = np.zeros(n_r, dtype=np.int64)
        hyp_err = np.zeros(n_h, dtype=np.int64)
        shifts = 0
        checked = 0
        while True:
            pre = cur[n_h, n_r]
            _alignment(cur_op, n_h, n_r, trace, align, ref_err, hyp_err)
            found = False
            b_gain = np.int64(0)
            b_len = 0
            b_start = 0
            b_idx = 0
            stop = False
            for start_h in range(n_h):
                if stop:
                    break
                lo = max(0, start_h - _MAX_SHIFT_DIST)
                hi = min(n_r, start_h + _MAX_SHIFT_DIST + 1)
                for start_r in range(lo, hi):
                    if stop:
                        break
                    length = 0
                    while h[start_h + length] == ref[start_r + length] and length < _MAX_SHIFT_SIZE:
                        length += 1
                        # one candidate (start_h, start_r, length) of _find_shifted_pairs
                        skip = True
                        for x in range(start_h, start_h + length):
                            if hyp_err[x] != 0:
                                skip = False
                                break
                        if not skip:
                            skip = True
                            for x in range(start_r, start_r + length):
                                if ref_err[x] != 0:
                                    skip = False
                                    break
                        if not skip and start_h <= align[start_r] < start_h + length:
                            skip = True
                        if not skip:
                            prev_idx = -1
                            for offset in range(-1, length):
                                if start_r + offset == -1:
                                    idx = 0
                                elif 0 <= start_r + offset < n_r:
                                    idx = align[start_r + offset] + 1
                                else:
                                    break
                                if idx == prev_idx:
                                    continue
                                prev_idx = idx
                                _perform_shift(h, start_h, length, idx, cand)
                                p = min(start_h, idx)
                                _rows(cand, ref, n_h, n_r, p, cur, tmp, tmp_op, ratio, beam)
                                gain = pre - tmp[n_h, n_r]
                                checked += 1
                                better = not found
                                if found:
                                    if gain != b_gain:
                                        better = gain > b_gain
                                    elif length != b_len:
                                        better = length > b_len
                                    elif start_h != b_start:
                                        better = start_h < b_start
                                    else:
                                        better = idx < b_idx
                                if better:
                                    found = True
                                    b_gain = gain
                                    b_len = length
                                    b_start = start_h
                                    b_idx = idx
                            if checked >= _MAX_SHIFT_CANDIDATES:
                                stop = True
                                break
                        if n_h == start_h + length or n_r == start_r + length:
                            break
            if checked >= _MAX_SHIFT_CANDIDATES:
                break
            if not found or b_gain <= 0:
                break
            shifts += 1
            _perform_shift(h, b_start, b_len, b_idx, cand)
            h[:] = cand
            p = min(b_start, b_idx)
            _rows(h, ref, n_h, n_r, p, cur, cur, cur_op, ratio, beam)
        return shifts + cur[n_h, n_r]

    @njit(cache=True, nogil=True)
    def _ter_batch(words, h_start, h_len, r_start, r_len, which, out):
        for k in which:
            hs = h_start[k]
            rs = r_start[k]
            out[k] = _ter_pair(words[hs : hs + h_len[k]], words[rs : rs + r_len[k]])


def ter_edits(pairs: list[tuple[list[int], list[int]]], *, threads: int = 1) -> np.ndarray:
    """sacreBLEU's TER edits of each (hypothesis ids, reference ids) pair, int64 array.

    ``threads`` threads share the pairs (the compiled kernel releases the GIL): pair ``k``
    goes to thread ``k % threads``, which balances the long and the short segments.
    """
    n = len(pairs)
    out = np.zeros(n, dtype=np.int64)
    if n == 0:
        return out
    h_len = np.fromiter((len(h) for h, _ in pairs), dtype=np.int64, count=n)
    r_len = np.fromiter((len(r) for _, r in pairs), dtype=np.int64, count=n)
    flat: list[int] = []
    for h, r in pairs:
        flat.extend(h)
        flat.extend(r)
    words = np.asarray(flat, dtype=np.int64)
    ends = np.cumsum(h_len + r_len)
    h_start = ends - h_len - r_len
    r_start = h_start + h_len
    threads = max(1, min(int(threads), n))
    args = (words, h_start, h_len, r_start, r_len)
    if threads == 1:
        _ter_batch(*args, np.arange(n, dtype=np.int64), out)
        return out
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads) as pool:
        parts = [
            pool.submit(_ter_batch, *args, np.arange(t, n, threads, dtype=np.int64), out)
            for t in range(threads)
        ]
        for part in parts:
            part.result()
    return out
