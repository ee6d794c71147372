"""The dashboard's data layer: the only place with Streamlit caches (``st.cache_data`` /
``st.cache_resource``), one module per page.

- :mod:`~dashboard.data.metrics` -- "Metrics vs humans";
- :mod:`~dashboard.data.qe` -- "Quality estimation";
- :mod:`~dashboard.data.mt_systems` -- "MT systems" (also used by "Tests vs humans");
- :mod:`~dashboard.data.human` -- "Tests vs humans";
- :mod:`~dashboard.data.samples` -- the bundled sample files.

Conventions (every module follows them):

- Uploaded files enter as :data:`Uploads`: a tuple of ``(file name, file bytes)`` pairs, built by
  :func:`dashboard.components.file_input` with :func:`uploads_from_widget`. Cached functions take
  that tuple, so the cache key is the file *content*: two sessions never see each other's data
  (identical bytes give identical results), and a re-upload of the same file is a cache hit.
- Each cached function wraps one workflow of :mod:`stats.analyses` (or one :mod:`stats`
  computation) and returns its result objects / DataFrames (picklable). Tables for display
  are shaped by :mod:`dashboard.tables`, figures built by :mod:`dashboard.figures` (both pure,
  cheap, not cached).
- A long computation (about a second of work and more) runs in a child process through
  :func:`dashboard.data._isolated.isolated` (Stop ends it at once, the session's memory budget
  holds while it runs); shorter ones run in the script thread.
- Parse errors surface as :class:`stats.StatsInputError`; ``st.cache_data`` does not cache
  exceptions, and the pages turn them into ``st.error`` with
  :func:`dashboard.components.input_errors`.
- Sample data has the :data:`Uploads` shape too, so pages treat samples and uploads alike.
"""

from __future__ import annotations

#: One uploaded (or bundled sample) file: (display name, raw bytes).
Upload = tuple[str, bytes]
#: Several files, in upload order. Hashable and content-keyed for ``st.cache_data``.
Uploads = tuple[Upload, ...]


def uploads_from_widget(files) -> Uploads:
    """Turn ``st.file_uploader`` output (None, one UploadedFile, or a list) into :data:`Uploads`."""
    if files is None:
        return ()
    if not isinstance(files, (list, tuple)):
        files = [files]
    return tuple((f.name, bytes(f.getvalue())) for f in files)
