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


# ---------------------------------------------------------------------------------------------
# ---- Tests vs humans (helper D) ----
# ---------------------------------------------------------------------------------------------
