"""Fuzz tests: seeded mutations of the sample files (:mod:`tests.fuzz._mutate`) and Hypothesis-
generated tables, through every reader and every CLI subcommand.

Each case must end in a valid result or in one :class:`~stats.StatsInputError` line (CLI: exit
status 2, one line on stderr), never in another exception, and within :data:`CASE_SECONDS`.
The size is bounded for CI: ``FUZZ_CASES`` cases per target (default 25) and at most
``FUZZ_SECONDS`` seconds per target (default 20); ``FUZZ_SEED`` moves the seeds. A long local
run: ``FUZZ_CASES=2000 FUZZ_SECONDS=600 pytest -n 2 tests/fuzz``.
"""

from __future__ import annotations

import io
import os
import time
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stats
from stats import StatsInputError
from stats import readers as R
from stats.cli import main
from stats.readers.da_segments import read_da_segment_scores
from tests._data import da_segment_text
from tests._wmt_data import document_level_text, segment_level_text, system_level_files
from tests.fuzz._mutate import HOSTILE_CELLS, mutate

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
CASES = int(os.environ.get("FUZZ_CASES", "25"))
SECONDS = float(os.environ.get("FUZZ_SECONDS", "20"))
SEED = int(os.environ.get("FUZZ_SEED", "0"))
CASE_SECONDS = 60.0  # one case on a loaded 2-core machine; a hang takes far longer
#: cases run in this process, per target (the long local run reports the total)
COUNTS: dict[str, int] = {}


@pytest.fixture(scope="module", autouse=True)
def _report_case_count(request):
    """After the module's tests in this process: how many fuzz cases ran (the local long run
    states this count)."""
    yield
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print(f"\nfuzz cases in this process: {sum(COUNTS.values())} {COUNTS}")


def head(path: Path, lines: int = 120) -> bytes:
    """The first ``lines`` lines of a sample file (keeps each case quick)."""
    return b"\n".join(path.read_bytes().split(b"\n")[:lines]) + b"\n"


def cases(target: str):
    """Seeded generators for ``target``, as many as ``FUZZ_CASES`` and ``FUZZ_SECONDS`` allow."""
    start = time.monotonic()
    base = sum(map(ord, target)) * 100_003 + SEED
    for i in range(CASES):
        if time.monotonic() - start > SECONDS:
            break
        COUNTS[target] = COUNTS.get(target, 0) + 1
        yield i, np.random.default_rng([base, i])


def check_reader(call, data: bytes, what: str) -> None:
    t0 = time.monotonic()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(data)
    except StatsInputError as exc:
        assert "\n" not in str(exc) and str(exc), f"{what}: {exc!r}"
    assert time.monotonic() - t0 < CASE_SECONDS, what


# ---- every reader on mutated sample files ----

J = SAMPLE / "human" / "judgements.tsv"
QE = SAMPLE / "qe"
MT = SAMPLE / "mt"
META = SAMPLE / "meta"
_WMT = system_level_files()
READERS = {
    "judgements tsv": (head(J), lambda d: R.read_judgements(d, name="j.tsv")),
    "judgements csv": (head(SAMPLE / "human" / "judgements.csv"), lambda d: R.read_judgements(d, name="j.csv")),
    "qe long": (head(QE / "hter_long.txt"), lambda d: R.read_qe(d, name="q.txt")),
    "qe wide": (head(QE / "hter_wide.csv"), lambda d: R.read_qe(d, name="q.csv")),
    "qe effort": (head(QE / "effort_long.txt"), lambda d: R.read_qe(d, name="e.txt")),
    "qe wmt + gold": (
        head(QE / "wmt" / "baseline.txt"),
        lambda d: R.read_qe([d, head(QE / "wmt" / "ALPHA-svr.txt")], head(QE / "wmt_gold.txt"),
                            name=["baseline.txt", "ALPHA-svr.txt"], gold_name="gold.txt"),
    ),
    "qe gold": (head(QE / "wmt_gold.txt"), lambda d: R.read_qe_gold(d, name="g.txt")),
    "post-edit": (head(QE / "post_edit.tsv"), lambda d: R.read_post_edit(d, name="pe.tsv")),
    "segment scores long": (head(MT / "segment_scores.tsv"), lambda d: R.read_segment_scores(d, name="s.tsv")),
    "segment scores wide": (head(MT / "segment_scores_wide.csv"), lambda d: R.read_segment_scores(d, name="s.csv")),
    "score file statistics": (head(MT / "segment_scores.tsv"), lambda d: stats.statistics_from_score_file(d, name="s.tsv")),
    "system scores": (
        head(SAMPLE / "metrics" / "metrics.tsv"),
        lambda d: R.read_system_scores(d, (SAMPLE / "metrics" / "human.tsv").read_bytes(),
                                       names=["m.tsv", "h.tsv"]),
    ),
    "system scores wide": (
        (SAMPLE / "metrics" / "es-en_wide.csv").read_bytes(),
        lambda d: R.read_wide_system_scores(d, name="w.csv"),
    ),
    "wmt system level": (head(SAMPLE / "metrics" / "metrics.tsv"), lambda d: R.read_wmt_system_level(d, name="m.tsv")),
    "meta wide": (head(META / "en-de_wide.csv", 200), lambda d: R.read_meta_eval(d, names=["m.csv"])),
    "meta zip": ((META / "wmt-sample.zip").read_bytes(), lambda d: R.read_meta_eval(d, names=["m.zip"])),
    "text lines": (head(MT / "reference.txt"), lambda d: R.read_lines(d, name="r.txt")),
    "wmt segment level": (
        segment_level_text().encode(),
        lambda d: R.read_wmt_scores(d, name="m.seg.score"),
    ),
    "wmt document level": (
        document_level_text().encode(),
        lambda d: R.read_wmt_scores(d, name="m.doc.score"),
    ),
    "wmt system level refset": (
        _WMT["chrF.sys.score"],
        lambda d: R.read_wmt_scores(d, name="chrF.sys.score"),
    ),
    "da system level": (
        _WMT["ad-sys-scores-cs-en.csv"],
        lambda d: R.read_da_system_scores(d, name="ad-sys-scores-cs-en.csv"),
    ),
    "da segment level": (
        da_segment_text(segments=20).encode(),
        lambda d: read_da_segment_scores(d, name="ad-seg-scores-de-en.csv"),
    ),
    "parallel": (
        head(MT / "hyp" / "Aurora.txt", 60),
        lambda d: R.read_parallel([(head(MT / "reference.txt", 60), "ref.txt")],
                                  [(d, "A.txt"), (head(MT / "hyp" / "Delta.txt", 60), "D.txt")]),
    ),
}


@pytest.mark.parametrize("target", list(READERS))
def test_readers_on_mutated_samples(target):
    data, call = READERS[target]
    for i, rng in cases(f"reader {target}"):
        check_reader(call, mutate(data, rng), f"{target} case {i}")


# ---- every CLI subcommand on mutated sample files ----

CLI = {
    "williams": ([("metrics.tsv", head(SAMPLE / "metrics" / "metrics.tsv", 300)),
                  ("human.tsv", (SAMPLE / "metrics" / "human.tsv").read_bytes())],
                 ["williams", "--metrics", "{0}", "--human", "{1}"]),
    "williams wide": ([("w.csv", (SAMPLE / "metrics" / "es-en_wide.csv").read_bytes())],
                      ["williams", "--metrics", "{0}"]),
    "qe": ([("q.csv", head(QE / "hter_wide.csv"))], ["qe", "--data", "{0}"]),
    "qe post-edit": ([("pet.txt", head(QE / "pet_long.txt")), ("pe.tsv", head(QE / "post_edit.tsv"))],
                     ["qe", "--data", "{0}", "--post-edit", "{1}"]),
    "randomized scores": ([("s.tsv", head(MT / "segment_scores.tsv", 400))],
                          ["randomized", "--scores", "{0}", "--resamples", "50", "--test",
                           "approximate-randomization"]),
    "randomized text": ([("ref.txt", head(MT / "reference.txt", 40)),
                         ("Aurora.txt", head(MT / "hyp" / "Aurora.txt", 40)),
                         ("Delta.txt", head(MT / "hyp" / "Delta.txt", 40))],
                        ["randomized", "--ref", "{0}", "--hyp", "{1}", "{2}", "--metric", "chrf",
                         "--resamples", "50"]),
    "accuracy": ([("j.tsv", head(J, 400)), ("s.tsv", head(MT / "segment_scores.tsv", 400))],
                 ["accuracy", "--human", "{0}", "--scores", "{1}", "--resamples", "50"]),
    "human": ([("ad-seg-scores-de-en.csv", da_segment_text(segments=30).encode())],
              ["human", "--human", "{0}"]),
    "williams wmt": ([("chrF.sys.score", _WMT["chrF.sys.score"]),
                      ("TER.sys.score", _WMT["TER.sys.score"]),
                      ("ad-sys-scores-cs-en.csv", _WMT["ad-sys-scores-cs-en.csv"])],
                     ["williams", "--metrics", "{0}", "{1}", "--human", "{2}", "--refset", "all"]),
    "meta-eval": ([("m.csv", head(META / "en-de_wide.csv", 200))],
                  ["meta-eval", "--data", "{0}", "--level", "seg", "--correlation", "pearson",
                   "--test", "perm-both", "--resamples", "20"]),
}


def run_cli(argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("target", list(CLI))
def test_cli_on_mutated_samples(target, tmp_path):
    inputs, template = CLI[target]
    for i, rng in cases(f"cli {target}"):
        k = int(rng.integers(len(inputs)))  # which input file to mutate
        paths = []
        for j, (name, data) in enumerate(inputs):
            path = tmp_path / f"{i}_{name}"
            path.write_bytes(mutate(data, rng) if j == k else data)
            paths.append(str(path))
        argv = [a.format(*paths) for a in template]
        t0 = time.monotonic()
        code, out, err = run_cli(argv)
        assert time.monotonic() - t0 < CASE_SECONDS, f"{target} case {i}"
        assert code in (0, 2), (target, i, code, err)
        if code == 2:
            assert err.count("\n") == 1 and "Traceback" not in err, (target, i, err)
        else:
            assert out.strip(), (target, i)
            # on success stderr holds only warnings and notes (what each file was read as)
            assert all(line.startswith(("warning: ", "note: ")) for line in err.splitlines()), (
                target,
                i,
                err,
            )


# ---- Hypothesis: tables built from hostile cells and arbitrary bytes ----

_CELL = st.one_of(
    st.sampled_from([c.decode("utf-8", "replace") for c in HOSTILE_CELLS if len(c) < 1000]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(max_size=12),
)
_HEADERS = [
    ["SYSTEM", "SEGMENT", "SCORE"],
    ["SYSTEM", "SEGMENT", "ANNOTATOR", "CRITERION", "SCORE"],
    ["METRIC", "SID", "SCORE", "RANK", "HUMAN"],
    ["sid", "gold", "A", "B"],
    ["system", "human", "BLEU", "chrF"],
    ["lp", "system", "segment", "human:mqm", "BLEU"],
]
_TABLE_READERS = [
    lambda d: R.read_segment_scores(d, name="t"),
    lambda d: R.read_judgements(d, name="t"),
    lambda d: R.read_qe(d, name="t"),
    lambda d: R.read_wide_system_scores(d, name="t"),
    lambda d: R.read_meta_eval(d, names=["t.csv"]),
]
_EXAMPLES = max(10, CASES)


@st.composite
def tables(draw):
    head_ = draw(st.sampled_from(_HEADERS))
    sep = draw(st.sampled_from(["\t", ",", " "]))
    rows = draw(st.lists(st.lists(_CELL, min_size=len(head_) - 1, max_size=len(head_) + 1),
                         min_size=0, max_size=8))
    text = "\n".join(sep.join(r) for r in [head_, *rows])
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le"]))
    return text.encode(encoding, errors="replace")


@settings(max_examples=_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=tables(), which=st.integers(0, len(_TABLE_READERS) - 1))
def test_hypothesis_tables(data, which):
    COUNTS["hypothesis tables"] = COUNTS.get("hypothesis tables", 0) + 1
    check_reader(_TABLE_READERS[which], data, f"reader {which}")


@settings(max_examples=_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.binary(max_size=3000), which=st.integers(0, len(_TABLE_READERS) - 1))
def test_hypothesis_bytes(data, which):
    COUNTS["hypothesis bytes"] = COUNTS.get("hypothesis bytes", 0) + 1
    check_reader(_TABLE_READERS[which], data, f"reader {which}")
