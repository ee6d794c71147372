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

import hashlib

#: One uploaded (or bundled sample) file: (display name, raw bytes).
Upload = tuple[str, bytes]
#: Several files, in upload order. Hashable and content-keyed for ``st.cache_data``.
Uploads = tuple[Upload, ...]


class UploadFiles(tuple[Upload, ...]):
    """:data:`Uploads` that carry their cache key: each file's name and a BLAKE2b digest of its
    bytes, computed once when made (:func:`uploads_from_widget`, the bundled samples).

    The caches of this layer (:func:`dashboard.data._cache.cache_data`) hash this key instead
    of every byte of every file at each call: a page's run calls a dozen cached functions with
    the same files, each of which Streamlit would otherwise copy and hash whole. The key still
    follows the content (identical files give identical keys), so two sessions with the same
    bytes share results. A plain tuple of the same pairs is hashed by its bytes, as Streamlit
    does, with the same results."""

    key: tuple[tuple[str, bytes], ...]

    def __new__(cls, files, key=None):
        self = super().__new__(cls, files)
        self.key = (
            key
            if key is not None
            else tuple(
                (name, hashlib.blake2b(data, digest_size=16).digest()) for name, data in self
            )
        )
        return self

    def __getnewargs__(self):  # a pickled copy (a cache's) keeps the key, not computed again
        return tuple(self), self.key


def uploads_from_widget(files) -> Uploads:
    """Turn ``st.file_uploader`` output (None, one UploadedFile, or a list) into :data:`Uploads`
    (an :class:`UploadFiles`)."""
    if files is None:
        return ()
    if not isinstance(files, (list, tuple)):
        files = [files]
    return UploadFiles((f.name, bytes(f.getvalue())) for f in files)
