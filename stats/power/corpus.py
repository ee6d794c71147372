r"""Power of the paired bootstrap and approximate randomization for corpus metrics (BLEU,
chrF, TER) with segments resampled, from per-segment sufficient statistics
(:class:`~stats.mt.sufficient.SegmentStatistics`).

Definition
----------
A corpus metric is not a mean of segment scores, so the effect cannot be added segment by
segment. It is injected into the system's statistics instead: the system's **matching n-gram
counts** (BLEU: clipped matches of every order; chrF: matching character and word n-grams) or
its **edit counts** (TER) are multiplied, in every segment, by the factor

.. math:: c = \frac{S_A + \delta}{S_B} \quad (\text{TER, lower is better: } c = \frac{S_A - \delta}{S_B})

with :math:`S_A`, :math:`S_B` the baseline's and the system's corpus scores on all observed
segments and :math:`\delta` the hypothesised effect (positive = system better). The three
metrics are homogeneous of degree one in these counts (BLEU's geometric mean of precisions,
chrF's F-score of precision and recall, TER's edits over reference length; the brevity
penalty and lengths are untouched), so the system's corpus score on all segments becomes
exactly :math:`S_A + \delta`, while the segment-to-segment variation of the pair is the
observed one (at :math:`\delta = S_B - S_A`, :math:`c = 1`: the observed data). Power at
:math:`n` = the share of ``n_simulations`` test sets of :math:`n` segments drawn with
replacement from the observed segments (each segment's pair of statistics kept together) on
which the test of :mod:`stats.mt.randomized` (``paired-bootstrap``: Koehn's count of resamples
where the system does not win; ``approximate-randomization``: segment swaps; both
:math:`p = (c+1)/(R+1)`) rejects at :math:`\alpha`. The MDE at :math:`n` is the ``power``
quantile of each simulated test set's critical effect (vectorised bisection), as in
:mod:`stats.power.paired`.

All simulated test sets of one size are resampled with one matrix of ``n_resamples`` bootstrap
counts (or swap masks): the resampled sums of every test set come from one matrix product per
chunk of simulations, in float32 when the statistics are integers small enough to be summed
exactly. Segment scores (metric ``'mean'``) go to :func:`stats.power.paired_power`.

References
----------
Card et al. (2020), EMNLP, https://aclanthology.org/2020.emnlp-main.745/ ;
Koehn (2004), EMNLP, https://aclanthology.org/W04-3250/ ;
Graham, Mathur & Baldwin (2014), WMT, https://aclanthology.org/W14-3333/ .
"""

from __future__ import annotations

import numpy as np

from stats._core.errors import StatsInputError
from stats._core.random import common_seed, resample_counts, rng_and_seed
from stats._core.validation import check_positive_int
from stats.mt.sufficient import SegmentStatistics

from . import engine as power_engine
from .engine import PowerResult

__all__ = ["CORPUS_TESTS", "corpus_power", "corpus_sample_size"]

#: tests with segments resampled; ``'sacrebleu-paired-bs'`` is sacreBLEU's ``paired_bs``
#: (Moses' bootstrap-hypothesis-difference-significance.pl): absolute resampled differences
#: shifted by their mean, counted when strictly above the absolute observed difference
CORPUS_TESTS = ("paired-bootstrap", "approximate-randomization", "sacrebleu-paired-bs")

_CORPUS_BISECTIONS = 12


def _scaled_columns(data: SegmentStatistics) -> np.ndarray:
    """Columns of the statistics the effect multiplies (module notes)."""
    d = data.stats.shape[2]
    opts = dict(data.options)
    cols = np.zeros(d, dtype=bool)
    if data.metric == "bleu":
        order = int(opts.get("max_ngram_order", 4))
        cols[2 : 2 + order] = True
    elif data.metric == "chrf":
        cols[2::3] = True
    elif data.metric == "ter":
        cols[0] = True
    return cols


class _Corpus:
    """One chunk of simulated test sets: resampled sums of both systems and the test."""

    def __init__(self, data, a, b, idx, shared, test, alpha, alt, cols, tot):
        self.data, self.test, self.alpha, self.alt, self.cols = data, test, alpha, alt, cols
        self.sign = 1.0 if data.higher_is_better else -1.0
        self.s_a, self.s_b, self.tol = tot
        rows, n = idx.shape
        d = a.shape[1]
        ab = np.concatenate([a, b], axis=1)[idx]  # (rows, n, 2d)
        self.obs_a = ab[..., :d].sum(axis=1, dtype=np.float64)
        self.obs_b = ab[..., d:].sum(axis=1, dtype=np.float64)
        mat, r = shared
        self.r = r
        flat = np.ascontiguousarray(ab.transpose(1, 0, 2)).reshape(n, rows * 2 * d)
        prod = (mat @ flat).astype(np.float64).reshape(r, rows, 2 * d)
        self.ra, self.rb = prod[..., :d], prod[..., d:]
        if test != "approximate-randomization":
            self.score_a = data.score(self.ra)
            base_b = data.score(self.rb)
            twice = data.score(self._scale(self.rb, 2.0))
            # homogeneous (module notes): the scaled score is c times the score, checked here
            self.linear_b = base_b if np.allclose(twice, 2.0 * base_b, rtol=1e-12, atol=0) else None
        self.obs_score_a = data.score(self.obs_a)
        if test == "approximate-randomization":
            # pseudo systems: swapped segments exchange the two systems' statistics; only the
            # system's scaled columns move with the effect, so each pseudo system is a fixed
            # part plus c times a scaled part
            self.lines = _bleu_lines(data, self.obs_a, self.obs_b, self.ra, self.rb)
            if self.lines is None:
                unswapped_b = self.obs_b[None] - self.rb
                keep = ~cols
                self.fix_b = self.ra + np.where(keep, unswapped_b, 0.0)
                self.mov_b = np.where(cols, unswapped_b, 0.0)
                self.fix_a = self.obs_a[None] - self.ra + np.where(keep, self.rb, 0.0)
                self.mov_a = np.where(cols, self.rb, 0.0)
            del self.ra, self.rb

    def _scale(self, sums, c):
        factor = np.where(self.cols, np.asarray(c, dtype=float)[..., None], 1.0)
        return sums * factor

    def factor(self, e):
        target = self.s_a + self.sign * e
        return target / self.s_b

    def rejects(self, e):
        rows = self.obs_a.shape[0]
        e = np.broadcast_to(np.asarray(e, dtype=float), (rows,))
        c = self.factor(e)
        obs = self.sign * (self.data.score(self._scale(self.obs_b, c)) - self.obs_score_a)
        if self.test != "approximate-randomization":
            if self.linear_b is not None:
                score_b = self.linear_b * c[None, :]
            else:
                score_b = self.data.score(self._scale(self.rb, c[None, :]))
            pseudo = self.sign * (score_b - self.score_a)
            if self.test == "sacrebleu-paired-bs":
                size = np.abs(pseudo)
                count = (size - size.mean(axis=0) > np.abs(obs)).sum(axis=0)
                p = (count + 1.0) / (self.r + 1.0)
                return p < self.alpha, (p < self.alpha) & (obs > 0)
            below = (pseudo <= 0).sum(axis=0)
            above = (pseudo >= 0).sum(axis=0)
            if self.alt == "greater":
                p = (below + 1.0) / (self.r + 1.0)
                return p < self.alpha, p < self.alpha
            p = np.minimum(1.0, 2.0 * (np.minimum(below, above) + 1.0) / (self.r + 1.0))
            return p < self.alpha, (p < self.alpha) & (below <= above)
        if self.lines is not None:
            pseudo = self.sign * (self.lines[0](c) - self.lines[1](c))
        else:
            cc = c[None, :, None]
            pb = self.fix_b + cc * self.mov_b
            pa = self.fix_a + cc * self.mov_a
            pseudo = self.sign * (self.data.score(pb) - self.data.score(pa))
        if self.alt == "greater":
            count = (pseudo >= obs - self.tol).sum(axis=0)
        else:
            count = (np.abs(pseudo) >= np.abs(obs) - self.tol).sum(axis=0)
        p = (count + 1.0) / (self.r + 1.0)
        return p < self.alpha, (p < self.alpha) & (obs > 0)


def _bleu_lines(data: SegmentStatistics, obs_a, obs_b, ra, rb):
    """The two pseudo systems of approximate randomization as :class:`_BleuLine` (B's
    unswapped segments plus A's swapped ones, and the reverse), or None where sacreBLEU's fast
    path does not apply (the general scoring runs then)."""
    opts = dict(data.options)
    if data.metric != "bleu" or opts.get("smooth_method", "exp") == "add-k" or opts.get(
            "effective_order", False):
        return None
    order = int(opts.get("max_ngram_order", 4))
    matches = slice(2, 2 + order)
    keep = np.r_[0, 1, np.arange(2 + order, 2 + 2 * order)]  # lengths and totals
    ub = obs_b[None][..., matches] - rb[..., matches]
    ua = obs_a[None][..., matches] - ra[..., matches]
    m_b = (ra[..., matches], ub)  # A's matches swapped in stay; B's own move with c
    m_a = (ua, rb[..., matches])
    if not (np.all((m_b[0] > 0) | (m_b[1] > 0)) and np.all((m_a[0] > 0) | (m_a[1] > 0))):
        return None  # a match count 0 at some c: the general path
    fixed_b = ra[..., keep] + (obs_b[None][..., keep] - rb[..., keep])
    fixed_a = obs_a[None][..., keep] - ra[..., keep] + rb[..., keep]
    return _BleuLine(*m_b, fixed_b, order), _BleuLine(*m_a, fixed_a, order)


class _BleuLine:
    """BLEU of summed statistics whose matching n-gram counts are ``m0 + c * m1`` (one factor
    ``c`` per data set) and whose lengths and totals (``fixed``: sys len, ref len, totals) do
    not move: sacreBLEU's fast path (every order has a match, no add-k smoothing, no effective
    order; :func:`stats.mt.sufficient._bleu_from_sums`),
    :math:`\\mathrm{BP}\\,(\\prod_k 100\\,m_k/t_k)^{1/N}`, with the brevity penalty and the
    totals' product computed once: per factor, N products and one root instead of N logarithms
    and an exponential (the same BLEU to about 1e-15 relative; every test compares it with a
    tolerance of 1e-9)."""

    def __init__(self, m0, m1, fixed, order):
        self.order = order
        self.m0 = [np.ascontiguousarray(m0[..., k]) for k in range(order)]
        self.m1 = [np.ascontiguousarray(m1[..., k]) for k in range(order)]
        totals = fixed[..., 2 : 2 + order]
        scale = 100.0 ** order / np.prod(totals, axis=-1)
        sys_len, ref_len = np.trunc(fixed[..., 0]), np.trunc(fixed[..., 1])
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            bp = np.where(sys_len < ref_len, np.exp(1 - ref_len / sys_len), 1.0)
        self.scale, self.bp = scale, bp

    def __call__(self, c):
        c = np.asarray(c, dtype=float)[None, :]
        prod = self.m0[0] + c * self.m1[0]
        for k in range(1, self.order):
            prod *= self.m0[k] + c * self.m1[k]
        prod *= self.scale
        root = np.sqrt(np.sqrt(prod)) if self.order == 4 else prod ** (1.0 / self.order)
        return self.bp * root


def _shared(test, gen, r, size, dtype):
    if test != "approximate-randomization":
        return resample_counts(gen.integers(0, size, (r, size)), dtype), r
    return gen.integers(0, 2, (r, size)).astype(dtype), r


def corpus_power(
    data: SegmentStatistics,
    *,
    baseline: str,
    system: str,
    effect,
    n,
    test: str = "paired-bootstrap",
    alpha: float = 0.05,
    alternative: str = "two-sided",
    power: float = 0.8,
    n_simulations: int = 1000,
    n_resamples: int = 1000,
    rng=None,
    sample_size: bool = False,
    n_max: int = 100_000,
    progress=None,
    _mde: bool = True,
) -> PowerResult:
    r"""Simulated power of the paired bootstrap or approximate randomization on a corpus
    metric (BLEU, chrF, TER), and the minimum detectable effect, for each effect and number
    of segments.

    Power at :math:`n` for effect :math:`\delta` = the share of simulated test sets of
    :math:`n` segments, drawn with replacement from the observed segment statistics with the
    system's matching (TER: edit) counts multiplied by :math:`(S_A \pm \delta)/S_B`, on which
    the test rejects at ``alpha`` (module notes).

    Parameters
    ----------
    data : SegmentStatistics
        Per-segment statistics of at least the two systems (:func:`stats.extract_statistics`).
    baseline, system : str
        System names.
    effect : float or sequence of float
        Hypothesised corpus-score differences in the metric's points (positive = system
        better, also for TER).
    n : int or sequence of int
        Segments per simulated test set.
    test : {'paired-bootstrap', 'approximate-randomization', 'sacrebleu-paired-bs'}
        ``'sacrebleu-paired-bs'``: sacreBLEU's ``paired_bs`` p-value (always two-sided in
        effect; ``alternative`` is not used by it).
    alpha, alternative, power, n_simulations, n_resamples, rng
        As :func:`stats.power.paired_power`.

    Returns
    -------
    PowerResult

    References
    ----------
    Card et al. (2020), EMNLP, https://aclanthology.org/2020.emnlp-main.745/ ;
    Graham, Haddow & Koehn (2020), EMNLP, https://aclanthology.org/2020.emnlp-main.6/ .

    Examples
    --------
    >>> import numpy as np
    >>> from stats import extract_statistics
    >>> from stats.power import corpus_power
    >>> gen = np.random.default_rng(0)
    >>> words = "the a cat dog sat on mat and ran far away home".split()
    >>> refs = [" ".join(gen.choice(words, 12)) for _ in range(300)]
    >>> def noisy(r, p):
    ...     return " ".join(w if gen.random() > p else "x" for w in r.split())
    >>> data = extract_statistics([refs], {"A": [noisy(r, .4) for r in refs],
    ...                                  "B": [noisy(r, .35) for r in refs]})
    >>> res = corpus_power(data, baseline="A", system="B", effect=[2, 4], n=[100, 300],
    ...                    n_simulations=200, n_resamples=200, rng=1)
    >>> bool((res.power[1] >= res.power[0]).all() and res.mde[1] < res.mde[0])
    True
    """
    if not isinstance(data, SegmentStatistics):
        raise StatsInputError(
            f"data must be SegmentStatistics (stats.extract_statistics); got {type(data).__name__}"
        )
    if test not in CORPUS_TESTS:
        raise StatsInputError(f"test must be one of {', '.join(CORPUS_TESTS)}; got {test!r}")
    if data.metric == "mean":
        from .paired import paired_power

        sign = 1.0 if data.higher_is_better else -1.0
        seg = sign * data.stats[..., 0] / data.stats[..., 1]
        return paired_power(
            seg[data.index_of(baseline)], seg[data.index_of(system)], effect=effect, n=n,
            test=test, alpha=alpha, alternative=alternative, power=power,
            n_simulations=n_simulations, n_resamples=n_resamples, rng=rng,
            sample_size=sample_size, n_max=n_max, _mde=_mde,
        )
    alpha, alternative, power, n_simulations = power_engine.check_common(
        alpha, alternative, power, n_simulations
    )
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    power_engine.resampling_reachable(alpha, n_resamples, 2 if (
        test == "paired-bootstrap" and alternative == "two-sided") else 1)
    ia, ib = data.index_of(baseline), data.index_of(system)
    if ia == ib:
        raise StatsInputError(
            f"baseline and system are the same system twice ({system!r}): there is no "
            "difference to simulate from"
        )
    effects, sizes = power_engine.as_effects(effect), power_engine.as_sizes(n)
    a, b = data.stats[ia], data.stats[ib]
    d = a.shape[1]
    s_a, s_b = float(data.corpus_scores[ia]), float(data.corpus_scores[ib])
    sign = 1.0 if data.higher_is_better else -1.0
    if not (s_b > 0 and s_a > 0):
        raise StatsInputError(
            f"{data.label}: the effect is injected by scaling {system}'s counts, which needs "
            f"positive corpus scores; got {baseline} {s_a:g}, {system} {s_b:g}"
        )
    bad = [e for e in effects if s_a + sign * e <= 0]
    if bad:
        raise StatsInputError(
            f"effect {bad[0]:g} would give {system} a {data.label} of {s_a + sign * bad[0]:g}; "
            f"effects must leave it above 0"
        )
    if data.metric in ("bleu", "chrf"):  # scores of at most 100
        bad = [e for e in effects if s_a + e > 100]
        if bad:
            raise StatsInputError(
                f"effect {bad[0]:g} would give {system} a {data.label} of {s_a + bad[0]:g}, "
                f"outside the metric's range (0 to 100) with {baseline} at {s_a:.4g}"
            )
    if np.array_equal(data.stats[ia], data.stats[ib]):
        raise StatsInputError(
            f"{baseline} and {system} have the same {data.label} statistics in every segment "
            "(the same output twice?): there is no difference to simulate from"
        )
    integral = bool(np.all(data.stats[[ia, ib]] == np.round(data.stats[[ia, ib]])))
    big = float(np.abs(data.stats[[ia, ib]]).max(initial=0.0)) * max(sizes)
    dtype = np.float32 if integral and big < 2**24 else np.float64
    ab32 = (a.astype(dtype), b.astype(dtype))
    # one product per chunk: a float32 product (integer counts) counts a quarter of a float64
    # one (measured: 500 x 500 simulated BLEU tests of 4,000 segments, 0.85 s of one core,
    # some 14 times below what PRODUCT_SPEEDUP alone would count)
    from stats._core.budget import PRODUCT_SPEEDUP

    discount = PRODUCT_SPEEDUP * (4.0 if dtype == np.float32 else 1.0)
    power_engine.budget(f"{test} power ({data.label})", n_simulations, n_resamples, sizes, 2 * d,
                        discount)
    cols = _scaled_columns(data)
    tot = (s_a, s_b, 1e-9 * (abs(s_a) + abs(s_b)))
    # the critical-effect bracket: the system's score between ~0 and 3x the larger score
    lo = -(s_a * 0.999) if sign > 0 else -(3 * max(s_a, s_b) + 10)
    hi = (3 * max(s_a, s_b) + 10) if sign > 0 else s_a * 0.999
    gen, seed = rng_and_seed(rng)
    evals = (*effects, 0.0)  # the last: the size (rejection rate at effect 0)
    pw = np.zeros((len(evals), len(sizes)))
    mde = np.full(len(sizes), np.nan)
    tick = power_engine.ticker(progress, len(sizes) + bool(sample_size))
    previous, n_prev = float("nan"), 0
    for j, size in enumerate(sizes):  # loop over sizes; simulations and resamples are arrays
        tick(j)
        guess = _guess(previous, n_prev, size, s_a)
        shared = _shared(test, gen, n_resamples, size, dtype)
        step = power_engine.chunk_size(size, n_simulations, 2 * d)
        step = max(1, min(step, (1 << 22) // (n_resamples * 2 * d)))
        crit = []
        for start in range(0, n_simulations, step):
            rows = min(step, n_simulations - start)
            idx = gen.integers(0, a.shape[0], (rows, size))
            chunk = _Corpus(data, *ab32, idx, shared, test, alpha, alternative, cols, tot)
            for i, e in enumerate(evals):
                reject, favour = chunk.rejects(e)
                pw[i, j] += power_engine.directed(reject, favour, e, alternative).sum()
            if _mde:
                crit.append(_critical(chunk, rows, lo, hi, guess))
        if _mde:
            mde[j] = power_engine.mde_from_critical(np.concatenate(crit), power)
            previous, n_prev = mde[j], size
    pw /= n_simulations
    result = PowerResult(
        power=pw[:-1],
        mc_error=power_engine.mc_error(pw[:-1], n_simulations),
        mde=mde,
        effects=effects,
        sizes=sizes,
        test=test,
        alternative=alternative,
        alpha=alpha,
        target_power=power,
        n_simulations=n_simulations,
        n_resamples=n_resamples,
        seed=seed,
        n_observed=int(a.shape[0]),
        observed_effect=sign * (s_b - s_a),
        metric=data.label,
        unit="segments",
        definition=power_engine.DEFINITION_CORPUS,
        effect_meaning=EFFECT_CORPUS.format(label=data.label, system=system,
                                            kind="edit" if sign < 0 else "matching n-gram"),
    )
    if not _mde:
        return result
    tick(len(sizes))
    if sample_size:
        found = corpus_sample_size(
            data, baseline=baseline, system=system, effect=effects[0], test=test, alpha=alpha,
            alternative=alternative, power=power, n_simulations=n_simulations,
            n_resamples=n_resamples, n_max=n_max, rng=seed if seed is not None else gen,
            _known=dict(zip(sizes, pw[0], strict=True)),
            _n_cap=power_engine.search_cap(n_simulations, n_resamples, sizes, 2 * d, discount),
        )
        result = power_engine.with_sample_size(result, found)
    notes = power_engine.beyond_observed_note(sizes, a.shape[0], "segments")
    return power_engine.finish(result, size=pw[-1], notes=notes)


#: what "effect" means for a corpus metric
EFFECT_CORPUS = (
    "effect = the difference in corpus {label}, system minus baseline (positive = system "
    "better): {system}'s {kind} counts scaled in every segment so that its corpus score on the "
    "observed segments is the baseline's plus the effect (at effect 0 the two corpus scores "
    "are equal: the test's null)"
)


def _critical(chunk: _Corpus, rows: int, lo: float, hi: float, guess: float) -> np.ndarray:
    """Critical effects of a chunk; each step rescores, so the bracket starts at
    ``[0, 2 guess]`` (widened within ``[lo, hi]`` for the data sets it misses) and is halved
    :data:`_CORPUS_BISECTIONS` times (a 4,096th of it: far below the MDE's Monte Carlo
    error). A data set already rejecting in the system's favour at 0 counts as 0: the MDE,
    a quantile at the target power, lies above that share."""
    return power_engine.critical_effects(
        lambda e: chunk.rejects(e)[1], rows, 0.0, 2.0 * guess, steps=_CORPUS_BISECTIONS,
        limits=(max(lo, 0.0), hi),
    )


def _guess(previous: float, n_prev: int, size: int, s_a: float) -> float:
    """A first guess of the MDE at ``size``: the previous size's, scaled by sqrt(n_prev / n)
    (an MDE falls as 1 / sqrt(n)); a tenth of the baseline's score at first."""
    if np.isfinite(previous) and previous > 0:
        return previous * float(np.sqrt(n_prev / size))
    return max(abs(s_a) * 0.1, 1e-3)


def corpus_sample_size(
    data: SegmentStatistics,
    *,
    baseline: str,
    system: str,
    effect: float,
    test: str = "paired-bootstrap",
    alpha: float = 0.05,
    alternative: str = "two-sided",
    power: float = 0.8,
    n_simulations: int = 500,
    n_resamples: int = 500,
    n_max: int = 100_000,
    rng=None,
    _known=None,
    _n_cap: int | None = None,
) -> power_engine.SampleSizeResult:
    """Smallest number of segments at which :func:`corpus_power` for ``effect`` reaches
    ``power``, with its Monte Carlo error (one seed for every n;
    :func:`stats.power.engine.search_sample_size`); NaN with a note when ``n_max`` is not
    enough."""
    n_max = check_positive_int(n_max, "n_max", 3)
    seed = common_seed(rng)  # one seed for every n: common random numbers

    def power_at(size: int) -> float:
        res = corpus_power(
            data, baseline=baseline, system=system, effect=effect, n=size, test=test,
            alpha=alpha, alternative=alternative, power=power, n_simulations=n_simulations,
            n_resamples=n_resamples, rng=seed, _mde=False,
        )
        return float(res.power[0, 0])

    target = power_engine.check_common(alpha, alternative, power, 2)[2]
    return power_engine.sample_size_result(
        power_at, effect, target, n_simulations=n_simulations, n_min=2, n_max=n_max, test=test,
        known=_known, n_cap=_n_cap,
    )
