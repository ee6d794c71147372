"""Randomness has one home (:mod:`stats._core.random`): every public function that draws
refuses a bad ``rng`` with the same one line, and nothing outside ``stats/_core`` makes its
own generator."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import stats
from stats import StatsInputError
from stats._core.random import check_rng, common_seed, rng_and_seed, seeded_rng

ROOT = Path(__file__).resolve().parents[1]

#: a bad ``rng`` and how the message shows it
BAD = {True: "True", -1: "-1", "x": "'x'"}
MESSAGE = "rng must be a numpy Generator, a non-negative int seed or None; got {}"


def _message(received: str) -> str:
    return MESSAGE.format(received)


def test_check_rng_accepts_a_generator_a_seed_or_none():
    gen = np.random.default_rng(3)
    assert check_rng(gen) is gen
    assert check_rng(5).random() == np.random.default_rng(5).random()
    assert check_rng(np.int64(5)).random() == np.random.default_rng(5).random()
    assert isinstance(check_rng(None), np.random.Generator)
    assert check_rng(0).integers(10) == np.random.default_rng(0).integers(10)


@pytest.mark.parametrize(
    "bad, shown",
    [
        (True, "True"),
        (False, "False"),
        (np.bool_(True), "np.True_"),
        (-1, "-1"),
        ("x", "'x'"),
        (1.0, "1.0"),
        (np.random.SeedSequence(1), "SeedSequence"),
        (np.random.RandomState(1), "RandomState"),
        (np.arange(100), "ndarray"),
        ([1, 2], "list"),
    ],
)
def test_check_rng_refuses_anything_else_in_one_line(bad, shown):
    with pytest.raises(StatsInputError) as info:
        check_rng(bad)
    assert str(info.value) == _message(shown)
    with pytest.raises(StatsInputError, match=r"^seed must be"):
        check_rng(bad, name="seed")


def test_seeds():
    gen, seed = rng_and_seed(7)
    assert seed == 7 and gen.random() == np.random.default_rng(7).random()
    gen = np.random.default_rng(1)
    assert rng_and_seed(gen) == (gen, None)
    assert rng_and_seed(None)[1] is None
    assert common_seed(9) == 9
    assert common_seed(np.random.default_rng(2)) == int(np.random.default_rng(2).integers(2**31))
    assert 0 <= common_seed(None) < 2**31
    expected = np.random.default_rng(np.random.SeedSequence(4, spawn_key=(1, 2))).random()
    assert seeded_rng(4, 1, 2).random() == expected
    assert seeded_rng(4).random() == np.random.default_rng(4).random()
    for bad in BAD:
        with pytest.raises(StatsInputError, match="^rng must be"):
            rng_and_seed(bad)
        with pytest.raises(StatsInputError, match="^rng must be"):
            common_seed(bad)


# ---- data for one call of every public function that draws -------------------------------


def _gold_and_metrics():
    gen = np.random.default_rng(0)
    gold = gen.normal(size=(4, 30)) + np.arange(4)[:, None]
    metrics = {
        "close": gold + gen.normal(0, 0.5, gold.shape),
        "noisy": gold + gen.normal(0, 2, gold.shape),
    }
    return gold, metrics


def _segment_statistics():
    from stats.mt.sufficient import statistics_from_scores

    gen = np.random.default_rng(1)
    frame = pd.DataFrame(gen.random((40, 3)), columns=["A", "B", "C"])
    return statistics_from_scores(frame, label="sim")


def _text_statistics():
    from stats import extract_statistics

    gen = np.random.default_rng(0)
    words = "the a cat dog sat on mat and ran far away home".split()
    refs = [" ".join(gen.choice(words, 12)) for _ in range(40)]

    def noisy(r, p):
        return " ".join(w if gen.random() > p else "x" for w in r.split())

    return extract_statistics(
        [refs], {"A": [noisy(r, 0.4) for r in refs], "B": [noisy(r, 0.3) for r in refs]}
    )


def _judgements():
    gen = np.random.default_rng(5)
    quality = {"A": 0.8, "B": 0.5, "C": 0.0}
    segments = np.arange(1, 41).astype(str)
    rows = [
        (s, g, f"w{a}", "adequacy", 50 + 10 * (q + gen.normal(0, 1)))
        for a in range(4)
        for s, q in quality.items()
        for g in gen.choice(segments, 15, replace=False)
    ]
    return pd.DataFrame(rows, columns=["system", "segment", "annotator", "criterion", "score"])


def _qe():
    from stats.readers.qe_wmt import read_qe_submissions, read_qe_wmt_gold
    from tests._qe_wmt_data import generate

    d = generate()
    subs = read_qe_submissions(
        [(f"{t}/predictions.txt", text.encode()) for t, text in d["submissions"].items()]
    )
    return subs, read_qe_wmt_gold(d["gold"].encode(), name="gold.tsv")


def _autorank_scores():
    gen = np.random.default_rng(6)
    return pd.DataFrame(
        {"system": np.repeat(list("ABC"), 20), "document": np.tile(np.arange(10), 6),
         "m": gen.random(60) + np.repeat([0.5, 0.2, 0.0], 20)}
    )  # fmt: skip


def _qe_language_pair():
    from stats.qe.wmt import language_pair_data

    subs, gold = _qe()
    predictions, g, _ = next(iter(language_pair_data(subs, gold).values()))
    return predictions, g


def _word_level():
    from stats.readers.qe_word import read_word_gold, read_word_submissions

    gold = "BAD BAD BAD OK OK OK OK OK OK OK\nOK BAD OK OK BAD OK\n"
    tags = [["BAD", "BAD", "OK", "BAD"] + ["OK"] * 6, ["OK", "OK", "OK", "OK", "BAD", "OK"]]
    sub = "".join(
        f"en-de\tS\tmt\t{s}\t{i}\tw\t{t}\n" for s, row in enumerate(tags) for i, t in enumerate(row)
    )
    return (
        read_word_submissions([("s.txt", sub.encode())]),
        read_word_gold(gold.encode(), name="test.en-de.tags"),
    )


def _paired_scores():
    gen = np.random.default_rng(0)
    base = gen.normal(70, 15, 60)
    return base, base + gen.normal(1, 10, 60)


def _calls():
    """``module.function`` -> a call of it with ``rng``, on data it accepts."""
    from stats.human.accuracy import significance_accuracy
    from stats.metaeval.meta_eval import meta_correlation
    from stats.metaeval.perm_both.core import perm_both
    from stats.metaeval.perm_both.engine import resampling
    from stats.metaeval.perm_both.pairs import perm_both_pairs
    from stats.metaeval.perm_both.pooled import perm_both_pooled_accuracy
    from stats.metaeval.perm_both.spa import perm_both_soft_pairwise
    from stats.metaeval.soft_pairwise import soft_pairwise_accuracy
    from stats.mt.automatic_ranking import autorank_bootstrap
    from stats.mt.baseline_table import systems_table
    from stats.mt.randomized import (
        approximate_randomization,
        bootstrap,
        paired_bootstrap,
        pairwise_significance,
    )
    from stats.power.corpus import corpus_power, corpus_sample_size
    from stats.power.human import domain_power, domain_sample_size
    from stats.power.paired import paired_power, paired_sample_size
    from stats.power.perm_both import perm_both_power, perm_both_sample_size
    from stats.power.williams import williams_power_simulation
    from stats.qe.wmt import bootstrap_correlations, compare_qe_systems, qe_pair_tests
    from stats.qe.word import compare_word_level

    gold, metrics = _gold_and_metrics()
    x, y = _paired_scores()
    pooled_gold = {"en-de": [1.0, 2.0, 3.0, 4.0], "en-ja": [2.0, 1.0, 3.0]}
    pooled = {
        "en-de": {"a": [1.0, 2.0, 3.0, 4.0], "b": [2.0, 1.0, 4.0, 3.0]},
        "en-ja": {"a": [2.0, 1.0, 3.0], "b": [1.0, 2.0, 3.0]},
    }
    small = {"n_resamples": 10}
    power = {"n_simulations": 10}
    calls = {
        "stats.mt.randomized.paired_bootstrap": lambda rng: paired_bootstrap(x, y, **small, rng=rng),
        "stats.mt.randomized.bootstrap": lambda rng: bootstrap(x, y, **small, rng=rng),
        "stats.mt.randomized.approximate_randomization": lambda rng: approximate_randomization(
            x, y, **small, rng=rng
        ),
        "stats.mt.randomized.pairwise_significance": lambda rng: pairwise_significance(
            _segment_statistics(), test="paired-bootstrap", **small, rng=rng
        ),
        "stats.mt.baseline_table.systems_table": lambda rng: systems_table(
            _segment_statistics(), **small, rng=rng
        ),
        "stats.metaeval.meta_eval.meta_correlation": lambda rng: meta_correlation(
            metrics["close"], gold, **small, rng=rng
        ),
        "stats.metaeval.soft_pairwise.soft_pairwise_accuracy": lambda rng: soft_pairwise_accuracy(
            metrics, gold, **small, rng=rng
        ),
        "stats.metaeval.perm_both.core.perm_both": lambda rng: perm_both(
            metrics, gold, **small, rng=rng
        ),
        "stats.metaeval.perm_both.pairs.perm_both_pairs": lambda rng: perm_both_pairs(
            metrics, gold, **small, rng=rng
        ),
        "stats.metaeval.perm_both.pooled.perm_both_pooled_accuracy": (
            lambda rng: perm_both_pooled_accuracy(pooled, pooled_gold, **small, rng=rng)
        ),
        "stats.metaeval.perm_both.spa.perm_both_soft_pairwise": (
            lambda rng: perm_both_soft_pairwise(
                metrics, gold, n_permutations=10, **small, rng=rng
            )
        ),
        "stats.metaeval.perm_both.engine.resampling": lambda rng: resampling(
            n_resamples=10, early_stopping=False, block_size=10, return_draws=False, rng=rng,
            progress=None,
        ),
        "stats.human.accuracy.significance_accuracy": lambda rng: significance_accuracy(
            _judgements(), {"sim": _segment_statistics()}, **small, rng=rng
        ),
        "stats.power.paired.paired_power": lambda rng: paired_power(
            x, y, effect=1, n=20, **power, rng=rng
        ),
        "stats.power.paired.paired_sample_size": lambda rng: paired_sample_size(
            x, y, effect=2, **power, rng=rng
        ),
        "stats.power.corpus.corpus_power": lambda rng: corpus_power(
            _text_statistics(), baseline="A", system="B", effect=1, n=20, **power,
            n_resamples=40, rng=rng,  # 10 resamples cannot reach alpha 0.05: refused
        ),
        "stats.power.corpus.corpus_sample_size": lambda rng: corpus_sample_size(
            _text_statistics(), baseline="A", system="B", effect=10, **power, n_resamples=40,
            rng=rng,
        ),
        "stats.power.human.domain_power": lambda rng: domain_power(
            {"news": (x, y), "social": (y, x)}, effect=1, n=20, **power, rng=rng
        ),
        "stats.power.human.domain_sample_size": lambda rng: domain_sample_size(
            {"news": (x, y), "social": (y, x)}, effect=2, **power, n_max=200, rng=rng
        ),
        "stats.power.perm_both.perm_both_power": lambda rng: perm_both_power(
            metrics["close"], metrics["noisy"], gold, effect=0.1, n=20, **power, **small,
            rng=rng,
        ),
        "stats.power.perm_both.perm_both_sample_size": lambda rng: perm_both_sample_size(
            metrics["close"], metrics["noisy"], gold, effect=0.1, **power, **small, n_max=60,
            rng=rng,
        ),
        "stats.power.williams.williams_power_simulation": lambda rng: williams_power_simulation(
            n=20, r_human_a=0.9, r_human_b=0.8, r_a_b=0.85, **small, rng=rng
        ),
        "stats.qe.wmt.bootstrap_correlations": lambda rng: bootstrap_correlations(
            *_qe_language_pair(), **small, rng=rng
        ),
        "stats.qe.wmt.qe_pair_tests": lambda rng: qe_pair_tests(
            *_qe_language_pair(), **small, rng=rng
        ),
        "stats.qe.wmt.compare_qe_systems": lambda rng: compare_qe_systems(*_qe(), **small, rng=rng),
        "stats.mt.automatic_ranking.autorank_bootstrap": lambda rng: autorank_bootstrap(
            _autorank_scores(), metrics=["m"], n_resamples=20, rng=rng
        ),
        "stats.qe.word.compare_word_level": lambda rng: compare_word_level(
            *_word_level(), **small, rng=rng
        ),
    }
    # the file-to-result workflows check ``rng`` before reading anything
    for where in _drawing_functions():
        if where.startswith("stats.analyses."):
            calls[where] = _workflow_call(where)
    return calls


def _workflow_call(where: str):
    module, name = where.rsplit(".", 1)
    func = getattr(importlib.import_module(module), name)
    required = [
        p.name
        for p in inspect.signature(func).parameters.values()
        if p.default is inspect.Parameter.empty
    ]
    return lambda rng: func(**dict.fromkeys(required), rng=rng)


def _drawing_functions() -> list[str]:
    """Every public function of :mod:`stats` (not the CLI, not private modules) with ``rng``."""
    found = []
    for info in pkgutil.walk_packages(stats.__path__, "stats."):
        if info.name.startswith("stats.cli") or "._" in info.name:
            continue
        module = importlib.import_module(info.name)
        for name, func in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(func):
                continue
            if func.__module__ == info.name and "rng" in inspect.signature(func).parameters:
                found.append(f"{info.name}.{name}")
    return sorted(found)


def test_every_drawing_function_has_a_call_here():
    assert sorted(_calls()) == _drawing_functions()


pytestmark = pytest.mark.filterwarnings("ignore::stats.DegenerateInputWarning")


@pytest.mark.parametrize("bad", list(BAD))
def test_every_drawing_function_refuses_a_bad_rng_with_the_same_line(bad):
    wrong = {}
    for where, call in _calls().items():
        try:
            call(bad)
        except StatsInputError as error:
            if str(error) != _message(BAD[bad]):
                wrong[where] = str(error)
        else:
            wrong[where] = "accepted"
    assert not wrong, wrong


def _same(a, b) -> bool:
    """``a`` and ``b`` hold the same values (NaN equal to NaN), through results' fields."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.random.Generator):
        return a.bit_generator.state == b.bit_generator.state
    if isinstance(a, pd.DataFrame | pd.Series | pd.Index):
        return a.equals(b)
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if dataclasses.is_dataclass(a):
        a, b = vars(a), vars(b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float | np.floating) and np.isnan(a):
        return bool(np.isnan(b))
    return bool(a == b)


def test_same_compares_values_through_fields():
    frame = pd.DataFrame({"a": [1.0, np.nan]})
    assert _same({"x": (frame, np.array([np.nan]))}, {"x": (frame.copy(), np.array([np.nan]))})
    assert not _same(frame, frame.fillna(0))
    assert not _same([np.array([1, 2])], [np.array([1, 3])])
    assert _same(np.random.default_rng(2), np.random.default_rng(2))
    assert not _same(np.random.default_rng(2), np.random.default_rng(3))


def test_every_drawing_function_runs_with_a_good_rng():
    """An int seed gives the same result twice, and a Generator is taken as it is: the
    function draws from it, keeps it for later draws, or draws from copies of it (sacreBLEU's
    systems table: every metric from the same state), so another Generator changes the result."""
    not_reproducible, drew_nothing = [], []
    for where, call in _calls().items():
        if where.startswith("stats.analyses."):
            continue  # given no files: checked above only for refusing a bad rng
        first = call(7)
        assert first is not None, where
        if not _same(first, call(7)):
            not_reproducible.append(where)
        gen = np.random.default_rng(7)
        state = copy.deepcopy(gen.bit_generator.state)
        got = call(gen)
        if gen.bit_generator.state != state or getattr(got, "rng", None) is gen:
            continue
        if _same(got, call(np.random.default_rng(8))):
            drew_nothing.append(where)
    assert not not_reproducible, f"not reproducible from an int seed: {not_reproducible}"
    assert not drew_nothing, f"drew nothing from the Generator: {drew_nothing}"


def test_no_generator_made_outside_core():
    """``default_rng(`` only in :mod:`stats._core.random` (doctest lines aside)."""
    found = []
    for folder in ("stats", "dashboard"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.is_relative_to(ROOT / "stats" / "_core"):
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if "default_rng(" in line and not re.match(r"\s*(>>>|\.\.\.)", line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, found
