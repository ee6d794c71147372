"""Session-state keys shared by more than one page, or by a page and :mod:`dashboard.components`.

A key used by one page only stays in that page (as its widget ``key=``).
"""

from __future__ import annotations

#: The sidebar presentation-mode toggle (drawn by dashboard/app.py, read by every page).
PRESENTATION_KEY = "presentation_mode"

#: Where the MT systems page leaves its uploads for the Tests vs humans page:
#: ``{"references": Uploads, "hypotheses": Uploads}`` or ``{"scores": Uploads}``.
MT_SHARED_INPUTS_KEY = "mt_shared_inputs"

#: The :class:`dashboard.report.PageReport` of the page now shown (made by app.py each full run,
#: filled by :mod:`dashboard.components`, bundled by the "Download report" button).
REPORT_KEY = "_page_report"

#: Display names of metrics and systems, ``{name: alias}``, for every page's figures, tables
#: and exports (:mod:`dashboard.url_state`).
ALIASES_KEY = "aliases"


_STORE_PREFIX = "_kept_uploads__"


def upload_store_key(key: str) -> str:
    """Where :func:`dashboard.components.file_input` keeps the uploads of the uploader ``key``
    (not a widget key, so Streamlit does not drop it when the page is left)."""
    return f"{_STORE_PREFIX}{key}"


def kept_upload_bytes(session_state, *, other_than: str = "") -> int:
    """Bytes of the uploads the session keeps (:func:`upload_store_key`), but those of the
    uploader ``other_than``."""
    skip = upload_store_key(other_than) if other_than else None
    return sum(
        len(data)
        for key, stored in list(session_state.items())
        if isinstance(key, str)
        and key.startswith(_STORE_PREFIX)
        and key != skip
        and isinstance(stored, dict)
        for _, data in stored.get("uploads", ())
    )
