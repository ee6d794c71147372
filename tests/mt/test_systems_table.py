"""The sacreBLEU/WMT-style systems table (:func:`stats.systems_table`).

Golden source: sacreBLEU's own ``sacrebleu.significance.PairedTest`` (the code behind
``sacrebleu --paired-bs`` / ``--paired-ar``; sacrebleu is a project dependency, 2.6.0 when
this was written), called live on the same data and seed. Our resampling draws the segment
indices and swap masks exactly as sacreBLEU does (``rng.choice(n, (B, n))``,
``rng.integers(2, size=(R, n), dtype=bool)``), so the p-values must be EQUAL. The bootstrap
means and CI half-widths agree to 1e-4 only: sacreBLEU scores its resamples from float32
sums, and with NumPy 2 a float32 count times a Python float stays float32, so its resampled
BLEU/chrF/TER carry float32 rounding (about 6e-8 relative, 1e-5 on a 0-100 scale, observed
below 1e-5); we score the exact integer sums in float64. For segment-level scores, a mean
"metric" adapter runs the same PairedTest on scores that are multiples of 1/4 (exact in
float32), so there μ and CI must agree to 1e-12.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from stats import DegenerateInputWarning, StatsInputError, SystemsTableResult, systems_table
from stats.mt.sufficient import extract_statistics, statistics_from_scores
from tests._data import mt_sample_text

SYSTEMS = ("Cirrus", "Delta", "Fjord", "Glacier")
N = 60  # few segments: p-values between 0.001 and 1, so they say something
SEED = 12345  # sacreBLEU's default SACREBLEU_SEED


@pytest.fixture(scope="module")
def text():
    refs, hyps = mt_sample_text()
    return [r[:N] for r in refs], {k: hyps[k][:N] for k in SYSTEMS}


@pytest.fixture(scope="module")
def text_data(text):
    refs, hyps = text
    return [extract_statistics(refs, hyps, metric=m, jobs=1) for m in ("bleu", "chrf", "ter")]


def _sacrebleu(named, metrics, references, test_type, monkeypatch, n_samples=0):
    monkeypatch.setenv("SACREBLEU_SEED", str(SEED))
    pt = PairedTest(named, metrics, references, test_type=test_type, n_samples=n_samples,
                    n_ar_confidence=1000 if test_type == "ar" else -1)
    _, scores = pt()
    return scores


@pytest.mark.parametrize(
    ("test", "test_type", "n"),
    [("paired-bootstrap", "bs", 1000), ("approximate-randomization", "ar", 2000)],
)
@pytest.mark.parametrize("baseline", ["Cirrus", "Fjord"])
def test_text_metrics_equal_sacrebleu_paired_test(text, text_data, monkeypatch, test,
                                                  test_type, n, baseline):
    refs, hyps = text
    order = [baseline, *[s for s in SYSTEMS if s != baseline]]
    gold = _sacrebleu(
        [(s, hyps[s]) for s in order],
        {"BLEU": sacrebleu.BLEU(), "chrF": sacrebleu.CHRF(), "TER": sacrebleu.TER()},
        refs,
        test_type,
        monkeypatch,
        n_samples=n,
    )
    res = systems_table(text_data, baseline=baseline, test=test, n_resamples=n, rng=SEED)
    assert isinstance(res, SystemsTableResult)
    assert res.systems == tuple(order) and res.baseline == baseline
    assert res.metrics == ("BLEU", "chrF2", "TER")
    pvalues = []
    for key, label in zip(["BLEU", "chrF2", "TER"], res.metrics, strict=True):
        for i, s in enumerate(order):
            g = gold[key][i]
            assert res.score.at[s, label] == pytest.approx(g.score, abs=1e-9)
            assert res.mean.at[s, label] == pytest.approx(g.mean, abs=1e-4), (key, s)
            assert res.ci.at[s, label] == pytest.approx(g.ci, abs=1e-4), (key, s)
            if i == 0:
                assert np.isnan(res.pvalue.at[s, label]) and g.p_value is None
            else:
                assert res.pvalue.at[s, label] == g.p_value, (key, s)
                assert res.statistic.at[s, label] == pytest.approx(
                    abs(g.score - gold[key][0].score), abs=1e-9)
                pvalues.append(g.p_value)
    assert max(pvalues) > 0.05 and min(pvalues) < 0.05  # informative: both kinds of cell


class _MeanMetric:
    """A sacrebleu metric whose "hypotheses" are segment scores: statistics (score, 1), corpus
    score their mean; the duck type ``PairedTest`` calls."""

    class _Score:
        def __init__(self, score, name):
            self.score, self.name = score, name

    class _Signature:
        def update(self, key, value):
            pass

    def __init__(self, name):
        self.name = name

    def _extract_corpus_statistics(self, hypotheses, references):
        return [[float(h), 1.0] for h in hypotheses]

    def _compute_score_from_stats(self, stats):
        stats = np.asarray(stats, dtype=np.float64)
        return self._Score(float(stats[0] / stats[1]), self.name)

    def _aggregate_and_compute(self, stats):
        return self._compute_score_from_stats(np.sum(np.asarray(stats, dtype=np.float64), axis=0))

    def get_signature(self):
        return self._Signature()


@pytest.mark.parametrize(("test", "test_type"), [("paired-bootstrap", "bs"),
                                                 ("approximate-randomization", "ar")])
def test_segment_scores_equal_sacrebleu_paired_test(monkeypatch, test, test_type):
    rng = np.random.default_rng(3)
    base = rng.integers(0, 400, size=80)
    frame = pd.DataFrame(
        {name: (base + rng.integers(-60, 60 + shift, size=80)) / 4.0
         for name, shift in (("A", 0), ("B", 4), ("C", 80))}
    )
    gold = _sacrebleu([(c, list(frame[c])) for c in frame], {"COMET": _MeanMetric("COMET")},
                      None, test_type, monkeypatch, n_samples=1000)
    data = statistics_from_scores(frame, label="COMET")
    res = systems_table(data, test=test, n_resamples=1000, rng=SEED)
    for i, s in enumerate("ABC"):
        g = gold["COMET"][i]
        assert res.score.at[s, "COMET"] == pytest.approx(g.score, abs=1e-12)
        assert res.mean.at[s, "COMET"] == pytest.approx(g.mean, abs=1e-12)
        assert res.ci.at[s, "COMET"] == pytest.approx(g.ci, abs=1e-12)
        if i:
            assert res.pvalue.at[s, "COMET"] == g.p_value
    assert 0.05 < res.pvalue.at["B", "COMET"] < 1 and res.pvalue.at["C", "COMET"] < 0.05


@pytest.mark.parametrize("test", ["paired-bootstrap", "approximate-randomization"])
def test_chunks_threads_and_generator_do_not_change_the_table(text_data, test):
    a = systems_table(text_data[:2], test=test, n_resamples=300, n_ci_resamples=200, rng=5)
    b = systems_table(text_data[:2], test=test, n_resamples=300, n_ci_resamples=200, rng=5,
                      chunk_size=7, jobs=2)
    c = systems_table(text_data[:2], test=test, n_resamples=300, n_ci_resamples=200,
                      rng=np.random.default_rng(5))
    for name in ("pvalue", "mean", "ci", "statistic", "score"):
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name))
        pd.testing.assert_frame_equal(getattr(a, name), getattr(c, name))
    assert a.seed == 5 and c.seed is None
    assert a.n_ci_resamples == (300 if test == "paired-bootstrap" else 200)


def test_layout_significance_and_long_form(text_data):
    res = systems_table(text_data, baseline="Delta", n_resamples=200, rng=1)
    assert res.systems == ("Delta", "Cirrus", "Fjord", "Glacier")
    assert res.alternative == "two-sided" and res.test == "paired-bootstrap"
    assert res.higher_is_better == {"BLEU": True, "chrF2": True, "TER": False}
    assert res.n_segments == {"BLEU": N, "chrF2": N, "TER": N}
    assert res.signatures["BLEU"].startswith("nrefs:1")
    sig = res.significant(0.05)
    assert not sig.loc["Delta"].any()
    pd.testing.assert_frame_equal(sig, (res.pvalue < 0.05).fillna(False))
    long = res.long(0.05)
    assert list(long.columns) == ["system", "metric", "score", "mean", "ci", "statistic",
                                  "pvalue", "significant"]
    assert len(long) == 4 * 3
    row = long[(long.system == "Glacier") & (long.metric == "TER")].iloc[0]
    assert row.pvalue == res.pvalue.at["Glacier", "TER"]
    assert row.significant == bool(sig.at["Glacier", "TER"])
    assert res.min_pvalue == pytest.approx(1 / 201)


def test_input_errors(text_data):
    with pytest.raises(StatsInputError, match="baseline: unknown system 'Nope'.*Cirrus"):
        systems_table(text_data, baseline="Nope")
    with pytest.raises(StatsInputError, match="test must be one of"):
        systems_table(text_data, test="bootstrap")
    with pytest.raises(StatsInputError, match="n_resamples"):
        systems_table(text_data, n_resamples=0)
    with pytest.raises(StatsInputError, match="data: give at least one"):
        systems_table([])
    with pytest.raises(StatsInputError, match=r"data\[1\] must be a SegmentStatistics"):
        systems_table([text_data[0], "x"])
    with pytest.raises(StatsInputError, match="given twice: BLEU"):
        systems_table([text_data[0], text_data[0]])
    with pytest.raises(StatsInputError, match="other systems.*missing: Glacier"):
        systems_table([text_data[0], text_data[1].subset(["Cirrus", "Delta", "Fjord"])])
    with pytest.raises(StatsInputError, match="at least two systems"):
        systems_table(text_data[0].subset(["Cirrus"]))


def test_one_segment_is_nan_with_a_warning():
    data = statistics_from_scores(pd.DataFrame({"A": [1.0], "B": [2.0]}), label="x")
    with pytest.warns(DegenerateInputWarning, match="only 1 segment"):
        res = systems_table(data, n_resamples=50, rng=0)
    assert res.pvalue["x"].isna().all()


@pytest.mark.parametrize(("test", "test_type"), [("paired-bootstrap", "bs"),
                                                 ("approximate-randomization", "ar")])
def test_copy_of_the_baseline_has_p_one_where_sacrebleu_says_significant(text, monkeypatch,
                                                                         test, test_type):
    """A deliberate difference: sacreBLEU reports 1/(R+1) for a system identical to the
    baseline (no pseudo-statistic exceeds a zero difference); we report p = 1."""
    refs, hyps = text
    named = {"base": hyps["Delta"], "copy": list(hyps["Delta"]), "other": hyps["Cirrus"]}
    gold = _sacrebleu(list(named.items()), {"BLEU": sacrebleu.BLEU()}, refs, test_type,
                      monkeypatch, n_samples=500)
    assert gold["BLEU"][1].p_value == pytest.approx(1 / 501)
    res = systems_table(extract_statistics(refs, named, metric="bleu", jobs=1), test=test,
                        n_resamples=500, rng=SEED)
    assert res.pvalue.at["copy", "BLEU"] == 1.0 and not res.significant().at["copy", "BLEU"]
    assert res.pvalue.at["other", "BLEU"] == gold["BLEU"][2].p_value
