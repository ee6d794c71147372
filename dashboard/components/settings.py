"""Widgets that remember their values (across reruns, page switches and changed options),
seeds shown beside p-values, and the tests' settings (alpha, correction, alternative)."""

from __future__ import annotations

import streamlit as st

from dashboard import url_state
from dashboard.page_run import record_setting
from dashboard.tables.common import CORRECTION_LABELS
from stats.human.accuracy import ALPHAS


def persistent(widget, label: str, *args, key: str, **kwargs):
    """``widget(label, *args, key=key, **kwargs)`` (any Streamlit input widget) whose value
    survives page switches for this session: Streamlit drops the state of widgets that are not
    drawn, ``persist_state="session"`` keeps it. Every page setting is drawn through this: a
    value a shared URL holds for ``key`` (:func:`dashboard.url_state.take`) is set first when
    it fits the widget (among its options, within its range)."""
    options = args[0] if args else kwargs.get("options")
    shared = url_state.take(
        key,
        None if options is None else list(options),
        low=kwargs.get("min_value"),
        high=kwargs.get("max_value"),
    )
    if shared is not None:
        st.session_state[key] = shared
        kwargs.pop("value", None)  # the session state holds it (a default too makes Streamlit warn)
    value = widget(label, *args, key=key, persist_state="session", **kwargs)
    record_setting(key, label, value)
    return value


def number_setting(label: str, *, key: str, default, **kwargs):
    """A :func:`persistent` ``st.number_input`` starting at ``default``.

    The default goes in through the session state, as a value from a shared URL does
    (:mod:`dashboard.url_state`): a widget given both a ``value`` and a session-state value
    makes Streamlit log a warning with a stack trace on the server's console."""
    if key not in st.session_state:
        st.session_state[key] = default
    return persistent(st.number_input, label, key=key, **kwargs)


def remembered(widget, label: str, options, *, key: str, default, **kwargs):
    """A single-choice widget (``st.selectbox``, ``st.radio``) over ``options`` that keeps the
    session's choice while it is among ``options`` and shows ``default`` otherwise (first run,
    another upload, another language pair). Pass no ``index``: the value is set here."""
    options = list(options)
    if (shared := url_state.pending(key, options)) is not None:  # from a shared URL
        st.session_state[key] = shared
    elif st.session_state.get(key) not in options:
        st.session_state[key] = default
    return persistent(widget, label, options, key=key, **kwargs)


def remembered_multiselect(label: str, options, *, key: str, default, **kwargs) -> list:
    """``st.multiselect`` over ``options`` that keeps the session's choices still among them
    (e.g. after another upload) and shows ``default`` on the first run or when none of the
    earlier choices is left. A selection the user emptied stays empty."""
    options = list(options)
    if (shared := url_state.pending(key, options)) is not None:  # from a shared URL
        st.session_state[key] = shared
    stored = st.session_state.get(key)
    kept = [o for o in stored or () if o in options]
    if stored is None or (stored and not kept):
        kept = list(default)
    if kept != stored:
        st.session_state[key] = kept
    return persistent(st.multiselect, label, options, key=key, **kwargs)


# ---------------------------------------------------------------------------------------------
# ---- Randomness: seeds shown beside p-values ----
# ---------------------------------------------------------------------------------------------


def seed_input(key: str, *, default: int = 12345, label: str = "Random seed") -> int:
    """Integer seed widget (for resampling tests); pass the value as ``rng=`` to stats."""
    return int(
        number_setting(
            label,
            default=default,
            min_value=0,
            max_value=2**32 - 1,
            step=1,
            key=key,
            help="p-values from resampling depend on the seed; the same seed reproduces them.",
        )
    )


def seed_caption(seed: int | None, *, n_resamples: int | None = None) -> None:
    """The caption shown beside resampling p-values: seed (and number of resamples)."""
    record_setting("seed_used", "random seed", seed)
    if n_resamples is not None:
        record_setting("resamples_used", "resamples", n_resamples)
    parts = [
        f"random seed **{seed}**" if seed is not None else "random seed: none (not reproducible)"
    ]
    if n_resamples is not None:
        parts.append(f"{n_resamples:,} resamples")
    st.caption("p-values from " + ", ".join(parts) + ".")


# ---------------------------------------------------------------------------------------------
# ---- Test settings: significance level and alternative ----
# ---------------------------------------------------------------------------------------------


#: Radio labels of :func:`alternative_input` -> the stats ``alternative`` argument.
ALTERNATIVES = {"one-sided": "greater", "two-sided": "two-sided"}


def alpha_input(
    key: str,
    *,
    label: str = "Significance level α",
    help: str | None = None,
) -> float:
    """Horizontal radio for the significance level α, one of the levels of the papers' tables
    (:data:`stats.human.accuracy.ALPHAS`, shown as ``0.05``, ``0.01``, ...); its value survives page
    switches (:func:`persistent`), like the other settings here."""
    return persistent(
        st.radio,
        label,
        ALPHAS,
        horizontal=True,
        key=key,
        format_func=lambda a: f"{a:g}",
        help=help,
    )


def correction_input(key: str) -> str:
    """Horizontal radio beside α: the multiple-comparison correction of each grid (one of
    :data:`stats.pairwise.multiple.CORRECTIONS`; labels :data:`dashboard.tables.CORRECTION_LABELS`)."""
    return persistent(
        st.radio,
        "Multiple comparisons",
        list(CORRECTION_LABELS),
        horizontal=True,
        key=key,
        format_func=CORRECTION_LABELS.get,
        help="Adjust the p-values of each grid (all pairs of one language pair) before "
        "comparing them with α: Holm controls the family-wise error (Holm 1979), BH the false "
        "discovery rate (Benjamini & Hochberg 1995). The grids are coloured by the adjusted p.",
    )


def alternative_input(key: str, *, label: str, help: str | None = None) -> str:
    """Horizontal one-sided/two-sided radio; returns ``'greater'`` or ``'two-sided'``."""
    choice = persistent(st.radio, label, list(ALTERNATIVES), horizontal=True, key=key, help=help)
    return ALTERNATIVES[choice]
