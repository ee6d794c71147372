"""The bundled sample files (``sample_data/``) as :data:`dashboard.data.Uploads`, so the pages
treat samples and uploads alike."""

from __future__ import annotations

import streamlit as st

from dashboard.data import Uploads
from dashboard.resources import resource

SAMPLE_DIR = resource("sample_data")

#: The metrics page's sample under sample_data/metrics/ (es-en_wide.csv repeats es-en and is
#: left out).
METRICS_SAMPLE_FILES = ("human.tsv", "metrics.tsv")
#: The metrics page's segment-level sample under sample_data/meta/: MTME's layout, zipped.
META_SAMPLE_FILES = ("wmt-sample.zip",)
#: The QE page's samples: label -> glob patterns under sample_data/qe/.
QE_SAMPLES = {
    "HTER, 10 systems (hter_long.txt)": ("hter_long.txt",),
    "Effort 1/2/3: discrete vs continuous (effort_long.txt)": ("effort_long.txt",),
    "WMT submission files + gold (wmt/*.txt, wmt_gold.txt)": ("wmt/*.txt", "wmt_gold.txt"),
    "Post-edit time + post-editing table (pet_long.txt, post_edit.tsv)": (
        "pet_long.txt",
        "post_edit.tsv",
    ),
    "WMT23-style QE task: zipped submissions, gold, hallucination index, word tags (wmt23/)": (
        "wmt23/submissions.zip",
        "wmt23/gold_*.tsv",
        "wmt23/word/*/predictions.txt",
    ),
}


@st.cache_data(show_spinner=False)
def sample_files(subdir: str, patterns: tuple[str, ...] = ("*",)) -> Uploads:
    """Bundled sample files ``sample_data/<subdir>/<pattern>`` (sorted by name) as
    :data:`~dashboard.data.Uploads`.

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


@st.cache_data(show_spinner=False)
def mt_sample_text() -> tuple[Uploads, Uploads]:
    """The MT sample: (reference, system outputs), sample_data/mt/reference.txt and
    sample_data/mt/hyp/*.txt."""
    return sample_files("mt", ("reference.txt",)), sample_files("mt/hyp", ("*.txt",))


@st.cache_data(show_spinner=False)
def mt_sample_scores() -> Uploads:
    """The segment scores of the MT sample (long format: chrF and SimCOMET),
    sample_data/mt/segment_scores.tsv."""
    return sample_files("mt", ("segment_scores.tsv",))


@st.cache_data(show_spinner=False)
def human_sample_judgements() -> Uploads:
    """The synthetic judgements, sample_data/human/judgements.tsv."""
    return sample_files("human", ("judgements.tsv",))
