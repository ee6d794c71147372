"""The ONLY module with Streamlit caches (``st.cache_data`` / ``st.cache_resource``).

Conventions (every section follows them):

- Uploaded files enter as :data:`Uploads`: a tuple of ``(file name, file bytes)`` pairs, built by
  :func:`dashboard.components.file_input` / :func:`uploads_from_widget`. Cached functions take
  that tuple, so the cache key is the file *content*: two sessions never see each other's data
  (identical bytes give identical results), and a re-upload of the same file is a cache hit.
- Cached functions return stats result objects / DataFrames (picklable); figures are built by
  the pages from those with :mod:`dashboard.figures` (cheap, not cached).
- Parse errors surface as :class:`stats.StatsInputError`; ``st.cache_data`` does not cache
  exceptions, and the pages turn them into ``st.error`` with :func:`dashboard.components.input_errors`.
- Sample data: :func:`sample_files` returns the bundled files of a ``sample_data/`` subdirectory
  in the same :data:`Uploads` shape, so pages treat samples and uploads alike.

Each page owns one section below (``# ---- <page> ----``); add functions only in yours.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import streamlit as st

from stats import DegenerateInputWarning, StatsInputError
from stats.correlation import (
    CorrelationResult,
    LeaveOneOutResult,
    correlate_with_human,
    leave_one_out,
)
from stats.readers.system_level import LanguagePairScores, SystemScores, read_system_scores
from stats.williams import WilliamsMatrixResult, williams_all_pairs

#: One uploaded (or bundled sample) file: (display name, raw bytes).
Upload = tuple[str, bytes]
#: Several files, in upload order. Hashable and content-keyed for ``st.cache_data``.
Uploads = tuple[Upload, ...]

REPO_ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DIR = REPO_ROOT / "sample_data"

# ---------------------------------------------------------------------------------------------
# ---- Shared: uploads and sample data ----
# ---------------------------------------------------------------------------------------------


def uploads_from_widget(files) -> Uploads:
    """Turn ``st.file_uploader`` output (None, one UploadedFile, or a list) into :data:`Uploads`."""
    if files is None:
        return ()
    if not isinstance(files, (list, tuple)):
        files = [files]
    return tuple((f.name, bytes(f.getvalue())) for f in files)


@st.cache_data(show_spinner=False)
def sample_files(subdir: str, patterns: tuple[str, ...] = ("*",)) -> Uploads:
    """Bundled sample files ``sample_data/<subdir>/<pattern>`` (sorted by name) as :data:`Uploads`.

    README files are skipped. Returns ``()`` when the directory does not exist.
    """
    folder = SAMPLE_DIR / subdir
    if not folder.is_dir():
        return ()
    paths = sorted({p for pattern in patterns for p in folder.glob(pattern) if p.is_file()})
    return tuple(
        (p.name, p.read_bytes())
        for p in paths
        if not p.name.lower().startswith("readme") and not p.name.startswith(".")
    )


# ---------------------------------------------------------------------------------------------
# ---- Metrics vs humans (helper E) ----
# ---------------------------------------------------------------------------------------------

#: Bundled sample for the metrics page (es-en_wide.csv repeats es-en and is left out).
METRICS_SAMPLE_FILES = ("human.tsv", "metrics.tsv")
CORRELATION_KINDS = ("pearson", "spearman", "kendall")


@dataclass(frozen=True, kw_only=True)
class LanguagePairTests:
    """Williams all-pairs tests of one language pair (and test set), for the all-LP overview.

    ``key`` names the panel: the LP, or ``"<lp> / <testset>"`` when an LP has several test sets.
    """

    key: str
    lp: str
    testset: str
    scores: LanguagePairScores
    williams: WilliamsMatrixResult


@dataclass(frozen=True, kw_only=True)
class LanguagePairAnalysis:
    """Everything the metrics page shows for the selected language pair: the tests plus
    correlations with humans, leave-one-out influence, and ``metric_corr`` mapping each
    correlation kind to the metric-metric matrix of the sign-aligned scores (rows/columns in
    ``williams.order``). ``warnings``: degenerate-input messages raised computing them."""

    key: str
    lp: str
    testset: str
    scores: LanguagePairScores
    correlation: CorrelationResult
    williams: WilliamsMatrixResult
    influence: LeaveOneOutResult
    metric_corr: dict
    warnings: tuple


@dataclass(frozen=True, kw_only=True)
class MetricsAnalysis:
    """All language pairs of an upload: ``analyses`` (key -> :class:`LanguagePairTests`, file
    order), per-LP problems in ``problems`` (key -> message; the LP is left out), ``warnings``
    (degenerate input)."""

    files: tuple
    analyses: dict
    problems: dict
    warnings: tuple


def _degenerate_messages(caught) -> tuple:
    return tuple(
        dict.fromkeys(
            str(w.message) for w in caught if issubclass(w.category, DegenerateInputWarning)
        )
    )


@st.cache_data(show_spinner=False, max_entries=32)
def load_system_scores(uploads: Uploads) -> SystemScores:
    """Parse system-level score files (WMT or wide format, any mix) -- cached on content."""
    return read_system_scores(*uploads)


@st.cache_data(show_spinner=False, max_entries=32)
def metrics_analysis(uploads: Uploads, alternative: str = "greater") -> MetricsAnalysis:
    """Williams all-pairs tests for every language pair (and test set) in ``uploads``.

    Cached on (file content, alternative): changing alpha, the selected LP, the baseline or the
    displayed correlation kind re-renders without recomputing. A file that cannot be read raises
    :class:`stats.StatsInputError`; a language pair that cannot be analysed (e.g. fewer than 4
    systems, a system without a human score) is reported in ``problems`` and the others are
    still analysed -- unless none is left, which raises the first problem. The per-LP details
    (correlations, influence) are computed on demand by :func:`metrics_lp_analysis`.
    """
    data = load_system_scores(uploads)
    analyses: dict[str, LanguagePairTests] = {}
    problems: dict[str, str] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateInputWarning)
        for lp in data.language_pairs:
            testsets = data.testsets(lp)
            for testset in testsets:
                key = lp if len(testsets) == 1 else f"{lp} / {testset}"
                try:
                    scores = data.language_pair(lp, testset=testset)
                    williams = williams_all_pairs(
                        scores.metrics, scores.human, alternative=alternative
                    )
                except StatsInputError as exc:
                    problems[key] = str(exc)
                    continue
                analyses[key] = LanguagePairTests(
                    key=key, lp=scores.lp, testset=scores.testset, scores=scores, williams=williams
                )
    if not analyses:
        raise StatsInputError(next(iter(problems.values())))
    return MetricsAnalysis(
        files=data.files,
        analyses=analyses,
        problems=problems,
        warnings=_degenerate_messages(caught),
    )


@st.cache_data(show_spinner=False, max_entries=64)
def metrics_lp_analysis(
    uploads: Uploads, key: str, alternative: str = "greater"
) -> LanguagePairAnalysis:
    """Correlations with humans (Pearson, Spearman, Kendall), leave-one-out influence and the
    metric-metric matrices of one language pair of :func:`metrics_analysis` (``key`` as there).

    Cached on (file content, key, alternative); only the LP on screen is computed.
    """
    tests = metrics_analysis(uploads, alternative).analyses[key]
    scores, williams = tests.scores, tests.williams
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateInputWarning)
        correlation = correlate_with_human(scores.metrics, scores.human)
        influence = leave_one_out(scores.metrics, scores.human)
    aligned = scores.metrics[list(williams.order)] * williams.sign
    metric_corr = {"pearson": williams.metric_corr}
    for kind in ("spearman", "kendall"):
        metric_corr[kind] = aligned.corr(method=kind)
    return LanguagePairAnalysis(
        key=key,
        lp=tests.lp,
        testset=tests.testset,
        scores=scores,
        correlation=correlation,
        williams=williams,
        influence=influence,
        metric_corr=metric_corr,
        warnings=_degenerate_messages(caught),
    )


def default_baseline(metrics: Sequence[str]) -> str | None:
    """The BLEU metric to compare against, or ``None`` when there is none.

    'BLEU' (any case) first, else the first BLEU variant -- a name containing 'bleu' *not*
    followed by 'rt' (sacreBLEU-13a, BLEU-4, mBLEU, ...; BLEURT is a different, trained
    metric). Only the BLEU family counts: with none, ``None`` is returned and the page picks
    its own fallback (the metrics page takes the metric with the lowest |r|, the one the
    others are tested against most usefully).
    """
    for name in metrics:
        if name.lower() == "bleu":
            return name
    return next((name for name in metrics if _BLEU_VARIANT.search(name)), None)


_BLEU_VARIANT = re.compile(r"bleu(?!rt)", re.IGNORECASE)


def correlation_table(analysis: LanguagePairAnalysis, kind: str = "pearson") -> pd.DataFrame:
    """One row per metric: r, rho, tau (signed), n, and the leave-one-out influence; rows
    ordered by ``|kind|`` with humans, highest first."""
    corr = analysis.correlation
    loo = analysis.influence
    table = pd.DataFrame(
        {
            "pearson": corr.pearson,
            "spearman": corr.spearman,
            "kendall": corr.kendall,
            "n": corr.n,
            "pearson_pvalue": corr.pearson_pvalue,
            "most_influential": loo.most_influential.reindex(corr.pearson.index),
            "pearson_without": loo.max_change.reindex(corr.pearson.index) + corr.pearson,
        }
    )
    table.index.name = "metric"
    order = table[kind].abs().sort_values(ascending=False, kind="stable", na_position="last")
    return table.loc[order.index]


def significance_summary(
    analyses: Mapping[str, LanguagePairTests | LanguagePairAnalysis],
    *,
    alpha: float,
    baseline: str | None,
) -> pd.DataFrame:
    """Per language pair: systems, metrics, pairs tested, share of pairs significantly
    different at ``alpha``, best metric, and the metrics significantly beating ``baseline``."""
    rows = []
    for key, a in analyses.items():
        w = a.williams
        m = len(w.order)
        n_pairs = m * (m - 1) // 2
        significant = w.significant(alpha)
        sig = significant.to_numpy()
        if baseline is not None and baseline in w.order:
            beats = list(significant.index[significant[baseline].to_numpy()])
            beats_text = ", ".join(beats) if beats else "none"
        else:
            beats, beats_text = [], "(baseline absent)"
        rows.append(
            {
                "language pair": key,
                "systems": w.n,
                "metrics": m,
                "pairs": n_pairs,
                "significant pairs": int(sig.sum()),
                "share significant": sig.sum() / n_pairs if n_pairs else float("nan"),
                "best |r|": w.order[0],
                "beat baseline": len(beats),
                "metrics significantly beating baseline": beats_text,
            }
        )
    return pd.DataFrame(rows).set_index("language pair")


# ---------------------------------------------------------------------------------------------
# ---- MT systems (helper B) ----
# ---------------------------------------------------------------------------------------------

# Imports for this section only (kept here so the sections stay independent).
from collections.abc import Callable  # noqa: E402

from stats.randomized import TESTS as _RANDOMIZED_TESTS  # noqa: E402
from stats.randomized import PairwiseSignificanceResult as _MTPairwise  # noqa: E402
from stats.randomized import RandomizedTestResult as _MTSingle  # noqa: E402
from stats.randomized import approximate_randomization as _mt_ar  # noqa: E402
from stats.randomized import bootstrap as _mt_bootstrap  # noqa: E402
from stats.randomized import paired_bootstrap as _mt_paired_bootstrap  # noqa: E402
from stats.randomized import pairwise_significance as _mt_pairwise  # noqa: E402
from stats.readers.segments import read_parallel as _mt_read_parallel  # noqa: E402
from stats.readers.segments import read_segment_scores as _mt_read_scores  # noqa: E402
from stats.readers.segments import score_file_metrics as _mt_score_file_metrics  # noqa: E402
from stats.sufficient import SegmentStatistics as _MTStatistics  # noqa: E402
from stats.sufficient import extract_statistics as _mt_extract  # noqa: E402
from stats.sufficient import statistics_from_scores as _mt_from_scores  # noqa: E402

#: The three randomized tests, in the paper's order.
MT_TESTS = _RANDOMIZED_TESTS

#: Text metrics offered on the MT systems page: label -> stats metric name.
MT_TEXT_METRICS = {"BLEU": "bleu", "chrF": "chrf", "TER": "ter"}
#: Display names of the three randomized tests (paper Figure 8 panel titles).
MT_TEST_LABELS = {
    "paired-bootstrap": "Paired bootstrap resampling",
    "bootstrap": "Bootstrap resampling",
    "approximate-randomization": "Approximate randomization",
}
#: Input kinds of the MT systems page.
MT_KIND_TEXT = "text"
MT_KIND_SCORES = "scores"
_MT_SINGLE = {
    "paired-bootstrap": _mt_paired_bootstrap,
    "bootstrap": _mt_bootstrap,
    "approximate-randomization": _mt_ar,
}


def mt_sample_text() -> tuple[Uploads, Uploads]:
    """The bundled MT sample: (reference, system outputs) as :data:`Uploads`."""
    return sample_files("mt", ("reference.txt",)), sample_files("mt/hyp", ("*.txt",))


def mt_sample_scores() -> Uploads:
    """The bundled segment scores of the MT sample (long format: chrF and SimCOMET)."""
    return sample_files("mt", ("segment_scores.tsv",))


def _one_score_file(scores: Uploads) -> tuple[str, bytes]:
    if len(scores) != 1:
        names = ", ".join(name for name, _ in scores) or "none"
        raise StatsInputError(
            "upload one segment-score file (SYSTEM SEGMENT SCORE [METRIC], or a wide CSV with "
            f"one column per system); got {len(scores)}: {names}"
        )
    return scores[0]


@st.cache_data(show_spinner=False, max_entries=16)
def mt_score_metrics(scores: Uploads) -> tuple[str, ...]:
    """Metric names in the METRIC column of the uploaded score file (``()`` if none)."""
    name, raw = _one_score_file(scores)
    return _mt_score_file_metrics(raw, name=name)


@st.cache_data(show_spinner=False, max_entries=16)
def mt_statistics(
    kind: str,
    references: Uploads,
    files: Uploads,
    metric: str,
    higher_is_better: bool = True,
    _progress: Callable[[float], None] | None = None,
) -> _MTStatistics:
    """Per-segment sufficient statistics of all systems, extracted once.

    ``kind`` ``"text"``: ``references`` and one output file per system in ``files``, ``metric``
    one of bleu/chrf/ter. ``kind`` ``"scores"``: one segment-score file in ``files``,
    ``metric`` the METRIC to use ("" when the file has no METRIC column). ``_progress`` (not
    part of the cache key) receives the fraction of systems done during extraction.
    """
    if kind == MT_KIND_TEXT:
        if not references:
            raise StatsInputError("upload the reference file (one segment per line)")
        if len(files) < 2:
            raise StatsInputError(
                f"upload one output file per system (at least two); got {len(files)}"
            )
        refs, hyps = _mt_read_parallel(references, files)
        return _mt_extract(refs, hyps, metric=metric, progress=_progress)
    name, raw = _one_score_file(files)
    frame = _mt_read_scores(raw, name=name, metric=metric or None)
    if frame.shape[1] < 2:
        raise StatsInputError(
            f"{name}: need at least two systems to compare; got {frame.shape[1]} "
            f"({', '.join(map(str, frame.columns))})"
        )
    label = frame.columns.name or metric or "mean score"
    return _mt_from_scores(frame, label=label, higher_is_better=higher_is_better)


@st.cache_data(show_spinner=False, max_entries=64)
def mt_pairwise(
    kind: str,
    references: Uploads,
    files: Uploads,
    metric: str,
    higher_is_better: bool,
    test: str,
    n_resamples: int,
    alternative: str,
    seed: int,
    _progress: Callable[[float], None] | None = None,
) -> _MTPairwise:
    """All-pairs randomized test (cached per input and setting). ``_progress`` (not part of
    the cache key) receives the fraction done while it runs."""
    data = mt_statistics(kind, references, files, metric, higher_is_better)
    return _mt_pairwise(
        data,
        test=test,
        n_resamples=n_resamples,
        alternative=alternative,
        rng=seed,
        progress=_progress,
    )


@st.cache_data(show_spinner=False, max_entries=64)
def mt_pair_tests(
    kind: str,
    references: Uploads,
    files: Uploads,
    metric: str,
    higher_is_better: bool,
    x: str,
    y: str,
    tests: tuple[str, ...],
    n_resamples: int,
    alternative: str,
    seed: int,
) -> dict[str, _MTSingle]:
    """The chosen tests for one pair (X, Y) with their pseudo-statistic distributions; with
    the same seed the p-values equal the all-pairs grid's."""
    data = mt_statistics(kind, references, files, metric, higher_is_better)
    return {
        t: _MT_SINGLE[t](
            x, y, data=data, alternative=alternative, n_resamples=n_resamples, rng=seed
        )
        for t in tests
    }


def mt_system_table(result: _MTPairwise) -> pd.DataFrame:
    """Systems best first with score and bootstrap CI, indexed by system (cheap)."""
    level = round(result.confidence_level * 100)
    table = result.system_table().set_index("system")
    table.index.name = "system"
    return table.rename(
        columns={
            "score": result.label,
            "ci_low": f"{level}% CI low",
            "ci_high": f"{level}% CI high",
        }
    )


def mt_pvalue_table(results: Mapping[str, _MTPairwise]) -> pd.DataFrame:
    """One row per pair (better, worse) with the observed difference, its bootstrap CI and
    the p-value of every test, for export."""
    merged: pd.DataFrame | None = None
    for test, res in results.items():
        pairs = res.pairs().set_index(["better", "worse"])
        if merged is None:
            merged = pairs[["statistic", "diff_ci_low", "diff_ci_high"]].copy()
        merged[f"p ({MT_TEST_LABELS.get(test, test)})"] = pairs["pvalue"]
    if merged is None:
        return pd.DataFrame()
    return merged.reset_index()


# ---------------------------------------------------------------------------------------------
# ---- Quality estimation (helper C) ----
# ---------------------------------------------------------------------------------------------

from stats.qe import (  # noqa: E402
    QEEvaluationResult,
    RescaleResult,
    compare_gold_representations,
    evaluate_qe,
    post_edit_rate,
    rescaling_curve,
    rescaling_experiment,
)
from stats.readers.qe import QEData, read_post_edit, read_qe, split_qe_files  # noqa: E402
from stats.williams import WilliamsResult  # noqa: E402

#: Bundled QE samples: label -> glob patterns under sample_data/qe/.
QE_SAMPLES = {
    "HTER, 10 systems (hter_long.txt)": ("hter_long.txt",),
    "Effort 1/2/3: discrete vs continuous (effort_long.txt)": ("effort_long.txt",),
    "WMT submission files + gold (wmt/*.txt, wmt_gold.txt)": ("wmt/*.txt", "wmt_gold.txt"),
    "Post-edit time + post-editing table (pet_long.txt, post_edit.tsv)": (
        "pet_long.txt",
        "post_edit.tsv",
    ),
}


@dataclass(frozen=True, kw_only=True)
class QEInput:
    """Parsed QE upload: predictions + gold (``data``), the optional post-editing table
    (``post_edit``: time, words and further gold representations per sentence) and file names."""

    data: QEData
    post_edit: pd.DataFrame | None
    data_files: tuple[str, ...]
    gold_file: str | None
    post_edit_file: str | None


@dataclass(frozen=True, kw_only=True)
class QEAnalysis:
    """Everything the QE page shows that does not depend on lambda.

    ``data`` is what was evaluated (converted to seconds per word when ``rate``);
    ``post_edit_test`` is the Williams test of post-edit rate vs post-edit time against
    ``post_edit_reference`` (paper Table 1), or None without a post-editing table.
    """

    input: QEInput
    data: QEData
    result: QEEvaluationResult
    rate: bool
    post_edit_test: WilliamsResult | None
    post_edit_reference: str | None
    warnings: tuple[str, ...]


@st.cache_data(show_spinner=False, max_entries=32)
def load_qe(uploads: Uploads, allow_constant: bool = False) -> QEInput:
    """Sort the uploaded files (predictions, gold file, post-editing table) and parse them --
    cached on content. Raises :class:`stats.StatsInputError` for anything unreadable."""
    if not uploads:
        raise StatsInputError("no file uploaded")
    data_files, gold, post = split_qe_files(
        [content for _, content in uploads], names=[name for name, _ in uploads]
    )
    sources = [content for content, _ in data_files]
    names = [name for _, name in data_files]
    qe = read_qe(
        sources if len(sources) > 1 else sources[0],
        gold[0] if gold else None,
        name=names if len(names) > 1 else names[0],
        gold_name=gold[1] if gold else None,
        allow_constant=allow_constant,
    )
    table = read_post_edit(post[0], name=post[1]) if post else None
    return QEInput(
        data=qe,
        post_edit=table,
        data_files=tuple(names),
        gold_file=gold[1] if gold else None,
        post_edit_file=post[1] if post else None,
    )


def _qe_evaluated_data(inp: QEInput, rate: bool) -> QEData:
    if rate and inp.post_edit is not None:
        try:
            return post_edit_rate(inp.data, inp.post_edit["words"])
        except StatsInputError as exc:  # name the file the word counts came from
            raise StatsInputError(f"{inp.post_edit_file}: {exc}") from None
    return inp.data


@st.cache_data(show_spinner=False, max_entries=32)
def qe_analysis(
    uploads: Uploads,
    allow_constant: bool = False,
    rate: bool = False,
    alternative: str = "greater",
) -> QEAnalysis:
    """Pearson/Spearman/MAE/RMSE with ranks, the Williams grid, prediction correlations and
    (with a post-editing table) the PER-vs-PET test -- cached on (content, options); the
    lambda slider does not recompute this (see :func:`qe_rescaling`)."""
    inp = load_qe(uploads, allow_constant)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateInputWarning)
        data = _qe_evaluated_data(inp, rate)
        result = evaluate_qe(data, alternative=alternative)
        test, reference = None, None
        if inp.post_edit is not None:
            extra = [c for c in inp.post_edit.columns if c not in ("time", "words")]
            if extra:
                reference = "hter" if "hter" in extra else extra[0]
                pe = inp.post_edit
                test = compare_gold_representations(
                    post_edit_rate(pe["time"], pe["words"]), pe["time"], pe[reference]
                )
    messages = tuple(
        dict.fromkeys(
            str(w.message) for w in caught if issubclass(w.category, DegenerateInputWarning)
        )
    )
    return QEAnalysis(
        input=inp,
        data=data,
        result=result,
        rate=bool(rate and inp.post_edit is not None),
        post_edit_test=test,
        post_edit_reference=reference,
        warnings=messages,
    )


@st.cache_data(show_spinner=False, max_entries=128)
def qe_rescaling(
    uploads: Uploads, sd_ratio: float, allow_constant: bool = False, rate: bool = False
) -> RescaleResult:
    """MAE/RMSE before and after shifting to the gold mean and rescaling to ``sd_ratio`` x the
    gold SD (cheap; cached per lambda so moving the slider back and forth is instant)."""
    inp = load_qe(uploads, allow_constant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateInputWarning)  # reported by qe_analysis
        return rescaling_experiment(_qe_evaluated_data(inp, rate), sd_ratio=sd_ratio)


@st.cache_data(show_spinner=False, max_entries=32)
def qe_rescaling_curve(
    uploads: Uploads, allow_constant: bool = False, rate: bool = False
) -> pd.DataFrame:
    """MAE and RMSE of every system for lambda = 0.05, 0.10, ..., 1.50 (long table)."""
    inp = load_qe(uploads, allow_constant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateInputWarning)
        return rescaling_curve(_qe_evaluated_data(inp, rate))


def qe_rank_table(result: QEEvaluationResult, rescale: RescaleResult) -> pd.DataFrame:
    """The page's main table, one row per system in Pearson order: r, its rank, MAE, its rank,
    the rank change (MAE rank - r rank; positive = MAE ranks the system lower than r does),
    RMSE and its rank, Spearman, and MAE/RMSE after rescaling to ``rescale.sd_ratio``."""
    scores = result.scores
    order = list(result.order)
    ranks = scores.ranks.loc[order]
    table = pd.DataFrame(
        {
            "pearson": scores.statistic.loc[order],
            "rank_pearson": ranks["pearson"],
            "mae": scores.mae.loc[order],
            "rank_mae": ranks["mae"],
            "rank_change": ranks["mae"] - ranks["pearson"],
            "rmse": scores.rmse.loc[order],
            "rank_rmse": ranks["rmse"],
            "spearman": scores.spearman.loc[order],
            "mae_rescaled": rescale.mae_rescaled.loc[order],
            "rmse_rescaled": rescale.rmse_rescaled.loc[order],
        }
    )
    table.index.name = "system"
    return table


# ---------------------------------------------------------------------------------------------
# ---- Tests vs humans (helper D) ----
# ---------------------------------------------------------------------------------------------

# Imports for this section only (kept here so the sections stay independent).
import numpy as np  # noqa: E402

from stats.accuracy import TESTS, AccuracyResult, accuracy_from_pvalues  # noqa: E402
from stats.human import HumanGoldResult, human_gold_standard  # noqa: E402
from stats.randomized import PairwiseSignificanceResult  # noqa: E402
from stats.readers.judgements import read_judgement_files  # noqa: E402

#: The three randomized tests, in the order of the paper's tables.
HUMAN_TESTS = TESTS
#: Text metrics offered on the page: label -> stats metric name (as the MT systems page).
HUMAN_TEXT_METRICS = MT_TEXT_METRICS
#: Column labels of the paper's Tables 1-2.
HUMAN_TEST_LABELS = {
    "paired-bootstrap": "Paired Bootst. Resamp.",
    "bootstrap": "Bootst. Resamp.",
    "approximate-randomization": "Approx. Rand.",
}
HUMAN_ALPHAS = (0.05, 0.01, 0.001)
#: session_state key under which the MT systems page leaves its uploads for reuse here:
#: ``{"references": Uploads, "hypotheses": Uploads}`` or ``{"scores": Uploads}``.
MT_SHARED_INPUTS_KEY = "mt_shared_inputs"


def human_sample_judgements() -> Uploads:
    """The bundled synthetic judgements (sample_data/human/judgements.tsv)."""
    return sample_files("human", ("judgements.tsv",))


@st.cache_data(show_spinner=False, max_entries=16)
def human_gold(judgements: Uploads) -> HumanGoldResult:
    """Read the judgements file(s) -- several files are one set of judgements (e.g. batches)
    -- and build the human gold standard (combined at 0.05; use
    :meth:`~stats.human.HumanGoldResult.combined_pvalue` for other levels). Exclusion
    messages are in ``result.warnings``."""
    if not judgements:
        raise StatsInputError("upload a judgements file (SYSTEM SEGMENT ANNOTATOR CRITERION SCORE)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateInputWarning)  # kept in result.warnings
        return human_gold_standard(read_judgement_files(*judgements), alpha=0.05)


def human_score_metrics(scores: Uploads) -> dict[str, str]:
    """Metrics of an uploaded segment-score file: display name -> the ``metric`` argument of
    :func:`mt_pairwise` (the METRIC value; ``""`` for a file without a METRIC column, shown as
    "mean score")."""
    names = mt_score_metrics(scores)
    return {n: n for n in names} if names else {"mean score": ""}


def human_statistics(
    kind: str,
    references: Uploads,
    files: Uploads,
    metric: str,
    *,
    higher_is_better: bool = True,
    progress: Callable[[float], None] | None = None,
):
    """Segment statistics of one metric (the MT systems page's cached :func:`mt_statistics`);
    call it before :func:`human_test` to show extraction progress on a first run."""
    return mt_statistics(kind, references, files, metric, higher_is_better, _progress=progress)


def human_test(
    kind: str,
    references: Uploads,
    files: Uploads,
    metric: str,
    test: str,
    n_resamples: int,
    seed: int,
    *,
    higher_is_better: bool = True,
    progress: Callable[[float], None] | None = None,
) -> PairwiseSignificanceResult:
    """One randomized test over all pairs, one-sided as in the paper: the MT systems page's
    cached :func:`mt_pairwise`, so the two pages share statistics and results for the same
    files and settings."""
    return mt_pairwise(
        kind,
        references,
        files,
        metric,
        higher_is_better,
        test,
        n_resamples,
        "greater",
        seed,
        _progress=progress,
    )


def human_accuracy(
    gold: HumanGoldResult,
    results: Mapping[tuple[str, str], PairwiseSignificanceResult],
    *,
    alphas: Sequence[float] = HUMAN_ALPHAS,
    n_resamples: int | None = None,
    seed: int | None = None,
) -> AccuracyResult:
    """Accuracy of every (metric, test) result against the gold standard (cheap: not cached).
    Messages about systems left out are in ``result.warnings``."""
    pvalues = {key: res.pvalue for key, res in results.items()}
    scores = {metric: res.scores for (metric, _), res in results.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # every message is also in result.warnings
        return accuracy_from_pvalues(
            gold, pvalues, alphas=alphas, scores=scores, n_resamples=n_resamples, seed=seed
        )


def human_paper_table(result: AccuracyResult) -> pd.DataFrame:
    """The accuracy table as laid out in the paper's Tables 1-2: one row per (alpha, metric),
    per test the number of correct conclusions ("Conc.") and "Acc. (%)" with its exact 95%
    CI, e.g. ``"80.3 [68.7, 89.1]"``."""
    t = result.table
    rows = []
    for a in result.alphas:
        for m in result.metrics:
            row = {"alpha": f"{a:g}", "Metric": m}
            for test in result.tests:
                hit = t[(t["alpha"] == a) & (t["metric"] == m) & (t["test"] == test)]
                label = HUMAN_TEST_LABELS.get(test, test)
                if hit.empty:
                    row[f"{label}: Conc."] = None
                    row[f"{label}: Acc. (%)"] = "–"
                    continue
                r = hit.iloc[0]
                row[f"{label}: Conc."] = int(r["correct"])
                row[f"{label}: Acc. (%)"] = (
                    f"{100 * r['accuracy']:.1f} [{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}]"
                )
            rows.append(row)
    return pd.DataFrame(rows)


def _conclusion_text(codes, a, b) -> np.ndarray:
    """Vectorised: "<a> better" (+1), "<b> better" (-1), "no significant difference" (0)."""
    codes = np.asarray(codes)
    a = np.asarray(a, dtype=object)
    b = np.asarray(b, dtype=object)
    return np.where(
        codes > 0, a + " better", np.where(codes < 0, b + " better", "no significant difference")
    )


def human_agreement_details(result: AccuracyResult, alpha: float) -> pd.DataFrame:
    """Hover text for :func:`dashboard.figures.agreement_heatmap` at ``alpha``: per cell
    "humans: ...; test: ...", same rows/columns as ``result.agreement_matrix(alpha)``."""
    ag = result.agreement[result.agreement["alpha"] == alpha]
    label = ag["metric"] + " / " + ag["test"]
    pair = ag["system_a"] + " vs " + ag["system_b"]
    a, b = ag["system_a"].to_numpy(dtype=object), ag["system_b"].to_numpy(dtype=object)
    text = (
        "humans: "
        + _conclusion_text(ag["gold"], a, b).astype(object)
        + "; test: "
        + _conclusion_text(ag["conclusion"], a, b).astype(object)
    )
    frame = pd.DataFrame({"row": label, "pair": pair, "text": text})
    out = frame.pivot(index="row", columns="pair", values="text")
    return out.reindex(index=pd.unique(label), columns=pd.unique(pair))


def human_agreement(result: AccuracyResult, alpha: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(outcome codes, hover text) for :func:`dashboard.figures.agreement_heatmap` at ``alpha``,
    rows labelled "metric · test label" (the paper's test names)."""
    outcome = result.agreement_matrix(alpha)
    details = human_agreement_details(result, alpha)
    names = {
        f"{m} / {t}": f"{m} · {HUMAN_TEST_LABELS.get(t, t)}"
        for m in result.metrics
        for t in result.tests
    }
    return outcome.rename(index=names), details.rename(index=names)


def human_disagreements(result: AccuracyResult, alpha: float) -> pd.DataFrame:
    """The pairs on which a test and the humans disagree at ``alpha``, readable."""
    from stats.accuracy import OUTCOMES

    ag = result.agreement[(result.agreement["alpha"] == alpha) & ~result.agreement["correct"]]
    a, b = ag["system_a"].to_numpy(dtype=object), ag["system_b"].to_numpy(dtype=object)
    return pd.DataFrame(
        {
            "metric": ag["metric"].to_numpy(),
            "test": ag["test"].to_numpy(),
            "pair": a + " vs " + b,
            "humans": _conclusion_text(ag["gold"], a, b),
            "test says": _conclusion_text(ag["conclusion"], a, b),
            "outcome": np.asarray(OUTCOMES, dtype=object)[ag["outcome"].to_numpy(dtype=int)],
        }
    )
