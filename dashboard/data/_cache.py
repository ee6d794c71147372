"""``st.cache_data`` as this layer uses it: files passed as :class:`dashboard.data.UploadFiles`
are hashed by their key (names and digests), not by all their bytes at every call."""

from __future__ import annotations

import streamlit as st

from dashboard.data import UploadFiles


def upload_files_key(files: UploadFiles) -> tuple:
    """What the caches hash for ``files``: each file's name and content digest."""
    return files.key


def cache_data(**kwargs):
    """``st.cache_data(**kwargs)`` with :func:`upload_files_key` for :class:`UploadFiles`."""
    return st.cache_data(hash_funcs={UploadFiles: upload_files_key}, **kwargs)
