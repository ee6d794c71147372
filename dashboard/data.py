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

from pathlib import Path

import streamlit as st

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


# ---------------------------------------------------------------------------------------------
# ---- MT systems (helper B) ----
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# ---- Quality estimation (helper C) ----
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# ---- Tests vs humans (helper D) ----
# ---------------------------------------------------------------------------------------------
