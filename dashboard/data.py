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
class LanguagePairAnalysis:
    """Everything the metrics page shows for one language pair (and test set).

    ``key`` names the panel: the LP, or ``"<lp> / <testset>"`` when an LP has several test sets.
    ``metric_corr`` maps each correlation kind to the metric-metric matrix of the sign-aligned
    scores, rows/columns in ``williams.order``.
    """

    key: str
    lp: str
    testset: str
    scores: LanguagePairScores
    correlation: CorrelationResult
    williams: WilliamsMatrixResult
    influence: LeaveOneOutResult
    metric_corr: dict


@dataclass(frozen=True, kw_only=True)
class MetricsAnalysis:
    """All language pairs of an upload: ``analyses`` by key (file order), per-LP problems in
    ``problems`` (key -> message; the LP is left out), ``warnings`` (degenerate input)."""

    files: tuple
    analyses: dict
    problems: dict
    warnings: tuple


@st.cache_data(show_spinner=False, max_entries=32)
def load_system_scores(uploads: Uploads) -> SystemScores:
    """Parse system-level score files (WMT or wide format, any mix) -- cached on content."""
    return read_system_scores(*uploads)


def _analyse_lp(
    data: SystemScores, lp: str, testset: str | None, key: str, alternative: str
) -> LanguagePairAnalysis:
    scores = data.language_pair(lp, testset=testset)
    williams = williams_all_pairs(scores.metrics, scores.human, alternative=alternative)
    aligned = scores.metrics[list(williams.order)] * williams.sign
    metric_corr = {"pearson": williams.metric_corr}
    for kind in ("spearman", "kendall"):
        metric_corr[kind] = aligned.corr(method=kind)
    return LanguagePairAnalysis(
        key=key,
        lp=scores.lp,
        testset=scores.testset,
        scores=scores,
        correlation=correlate_with_human(scores.metrics, scores.human),
        williams=williams,
        influence=leave_one_out(scores.metrics, scores.human),
        metric_corr=metric_corr,
    )


@st.cache_data(show_spinner=False, max_entries=32)
def metrics_analysis(uploads: Uploads, alternative: str = "greater") -> MetricsAnalysis:
    """Correlations, Williams all-pairs tests and leave-one-out influence for every language
    pair (and test set) in ``uploads``.

    Cached on (file content, alternative): changing alpha, the selected LP, the baseline or the
    displayed correlation kind re-renders without recomputing. A file that cannot be read raises
    :class:`stats.StatsInputError`; a language pair that cannot be analysed (e.g. fewer than 4
    systems, a system without a human score) is reported in ``problems`` and the others are
    still analysed -- unless none is left, which raises the first problem.
    """
    data = load_system_scores(uploads)
    analyses: dict[str, LanguagePairAnalysis] = {}
    problems: dict[str, str] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateInputWarning)
        for lp in data.language_pairs:
            testsets = data.testsets(lp)
            for testset in testsets:
                key = lp if len(testsets) == 1 else f"{lp} / {testset}"
                try:
                    analyses[key] = _analyse_lp(data, lp, testset, key, alternative)
                except StatsInputError as exc:
                    problems[key] = str(exc)
    if not analyses:
        raise StatsInputError(next(iter(problems.values())))
    messages = tuple(
        dict.fromkeys(
            str(w.message) for w in caught if issubclass(w.category, DegenerateInputWarning)
        )
    )
    return MetricsAnalysis(
        files=data.files, analyses=analyses, problems=problems, warnings=messages
    )


def default_baseline(metrics: Sequence[str]) -> str | None:
    """The BLEU-like metric to compare against: 'BLEU' (any case), else the first name
    containing 'bleu', else ``None``."""
    for name in metrics:
        if name.lower() == "bleu":
            return name
    return next((name for name in metrics if "bleu" in name.lower()), None)


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
    analyses: Mapping[str, LanguagePairAnalysis], *, alpha: float, baseline: str | None
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
        return post_edit_rate(inp.data, inp.post_edit["words"])
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
