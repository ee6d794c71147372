"""Display names (aliases) edited in a page: the table editor every page offers. The names
travel in the page's URL with its other settings (:mod:`dashboard.url_state`)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from dashboard import state
from dashboard.aliases import clean_aliases
from dashboard.url_state import current_aliases


def alias_editor(names: Sequence[str], *, key: str, label: str = "Display names") -> None:
    """A small editable table of ``names`` and their aliases, shown while the toggle ``label``
    (widget key ``f"{key}_open"``) is on; the edits are kept for the session
    (:func:`current_aliases`) and shown by every figure, table and export; aliases of names
    not listed here are kept as they are."""
    names = [str(n) for n in names]
    aliases = current_aliases()
    start = [aliases.get(n, "") for n in names]
    # a fresh table whenever the names or their aliases change (another upload, an alias from
    # a URL or from this table): its edits always apply to the aliases it shows
    editor_key = f"{key}_{abs(hash((tuple(names), tuple(start))))}"
    if not st.toggle(
        label,
        key=f"{key}_open",
        help="Rename metrics or systems in every "
        "figure, table and export of this session (and in the page's URL).",
    ):
        return
    with st.container():
        st.caption("Type a display name beside a name; clear it to use the name again.")
        edited = st.data_editor(
            pd.DataFrame({"name": names, "alias": start}),
            key=editor_key,
            hide_index=True,
            disabled=["name"],
            column_config={"alias": st.column_config.TextColumn("display name")},
            width="stretch",
        )
    new = dict(aliases)
    for name, before, after in zip(names, start, edited["alias"], strict=True):
        after = "" if after is None or pd.isna(after) else str(after).strip()
        if after != before:
            new.pop(name, None)
            new.update(clean_aliases({name: after}))
    if new != aliases:  # the figures below this editor are drawn with the new names
        st.session_state[state.ALIASES_KEY] = new
