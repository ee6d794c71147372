"""The view a page shows, shareable: display names (aliases) edited in the page, and the page
settings in the URL query string, so a colleague with the same files opens the same view.

A page declares its settings once as ``{query parameter: Setting(widget key, ...)}`` and calls
:func:`load_url` before its widgets and :func:`write_url` after them. Settings whose options
come from the data (language pair, baseline, selected metrics) wait until a run offers the
URL's value among the options (e.g. after the colleague's upload): the widget helpers of
:mod:`dashboard.components` take it from :func:`pending` then; until then the URL keeps it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from dashboard import state
from dashboard.aliases import clean_aliases

_PENDING_KEY = "_url_pending"


@dataclass(frozen=True, kw_only=True)
class Setting:
    """One page setting kept in the URL: the widget ``key`` it fills, how a query value is
    read (``parse``; a list of values for ``many``) and, for fixed choices, the ``options``
    a value must be among (``None``: options come from the data, see :func:`pending`) -- or,
    for a free value such as a seed, ``valid``: whether a value read is acceptable (it is
    then set at once, like a fixed choice)."""

    key: str
    parse: Callable[[str], object] = str
    options: Sequence | None = None
    many: bool = False
    valid: Callable[[object], bool] | None = None


#: The aliases setting every page can share: a JSON object {name: alias}.
ALIASES = Setting(key=state.ALIASES_KEY, parse=lambda text: clean_aliases(json.loads(text)))


def current_aliases() -> dict[str, str]:
    """The session's display names ``{name: alias}``."""
    return dict(st.session_state.get(state.ALIASES_KEY) or {})


def _encode(value) -> str | list[str]:
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def load_url(page: str, settings: Mapping[str, Setting]) -> None:
    """On the page's first run in this session, take its settings from the URL: fixed-choice
    settings and aliases are set at once (a value that cannot be read or is not an option is
    ignored); data-dependent ones wait in :func:`pending`."""
    flag = f"_url_loaded__{page}"
    if st.session_state.get(flag):
        return
    st.session_state[flag] = True
    waiting = st.session_state.setdefault(_PENDING_KEY, {})
    for param, setting in settings.items():
        if param not in st.query_params:
            continue
        try:
            raw = st.query_params.get_all(param) if setting.many else st.query_params[param]
            value = [setting.parse(v) for v in raw] if setting.many else setting.parse(raw)
        except (ValueError, TypeError, AttributeError, RecursionError):
            continue  # a hand-edited URL (5,000-deep JSON too): keep the page's own value
        if setting.valid is not None:
            if setting.valid(value):
                st.session_state[setting.key] = value
        elif setting.options is None and setting.key != state.ALIASES_KEY:
            waiting[setting.key] = value
        elif setting.options is None or (
            all(v in setting.options for v in value) if setting.many else value in setting.options
        ):
            st.session_state[setting.key] = value


def pending(key: str, options: Sequence) -> object | None:
    """The URL's value for widget ``key`` once it is valid among ``options`` (every value of
    a list setting), else ``None``; taken once (later runs keep the user's choice)."""
    waiting = st.session_state.get(_PENDING_KEY) or {}
    if key not in waiting:
        return None
    value, allowed = waiting[key], set(options)
    valid = all(v in allowed for v in value) if isinstance(value, list) else value in allowed
    if not valid:
        return None
    del waiting[key]
    return value


def write_url(settings: Mapping[str, Setting]) -> None:
    """Put the page's current settings in the URL (a value still waiting for its data: the
    URL's own), changing only the parameters that differ."""
    waiting = st.session_state.get(_PENDING_KEY) or {}
    for param, setting in settings.items():
        value = waiting.get(setting.key, st.session_state.get(setting.key))
        if value is None or value == {}:
            if param in st.query_params:
                del st.query_params[param]
            continue
        encoded = _encode(value)
        now = st.query_params.get_all(param) if isinstance(encoded, list) else None
        if (now if isinstance(encoded, list) else st.query_params.get(param)) != encoded:
            st.query_params[param] = encoded


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
