"""All the state a shared link carries: every page's settings that change a number, and the
display names (aliases), in the URL query string, so a colleague who opens the link and
uploads the same files sees the same numbers (``?tokenize=char&resamples=1000&seed=7``).

Each page's settings are declared here once (:data:`PAGES`: ``{page: {query parameter:
Setting(widget key, ...)}}``); the page calls :func:`load_url` before its widgets and
:func:`write_url` after them. Fixed choices and free values with a ``valid`` check are set at
once; settings whose options come from the data (language pair, baseline, excluded systems)
or whose widget alone knows its range wait until the widget is drawn with the URL's value
among its options (e.g. after the colleague's upload): :func:`dashboard.components.persistent`
takes it from :func:`pending` then (:func:`acceptable` checks it against the widget's options
or range); until then the URL keeps it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import streamlit as st

from dashboard import state, tables
from dashboard.aliases import clean_aliases
from stats import RANDOMIZED_TESTS
from stats.human.accuracy import ALPHAS
from stats.mt.sacrebleu_options import SACREBLEU_OPTIONS

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


def acceptable(value, options: Sequence | None = None, *, low=None, high=None) -> bool:
    """Whether a URL value fits a widget: among its ``options`` (every value of a list), or
    a number within ``[low, high]``, or (no options, no range) any value."""
    if options is not None:
        allowed = list(options)
        return all(v in allowed for v in value) if isinstance(value, list) else value in allowed
    if low is not None or high is not None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return (low is None or value >= low) and (high is None or value <= high)
    return True


def take(key: str, options: Sequence | None = None, *, low=None, high=None) -> object | None:
    """The URL's value for widget ``key`` when :func:`acceptable` for the widget (taken once,
    as :func:`pending`), else ``None``."""
    waiting = st.session_state.get(_PENDING_KEY) or {}
    if key not in waiting or not acceptable(waiting[key], options, low=low, high=high):
        return None
    return waiting.pop(key)


def current_aliases() -> dict[str, str]:
    """The session's display names ``{name: alias}``."""
    return dict(st.session_state.get(state.ALIASES_KEY) or {})


def parse_bool(text: str) -> bool:
    """``True``/``False`` (as :func:`write_url` writes a checkbox), else ValueError."""
    low = text.strip().lower()
    if low not in ("true", "false"):
        raise ValueError(text)
    return low == "true"


# ---------------------------------------------------------------------------------------------
# ---- Every page's settings ----
# ---------------------------------------------------------------------------------------------

#: Resamples offered on the MT systems page.
MT_RESAMPLES = (200, 1000, 2000, 5000, 10000)
#: The range of :func:`dashboard.components.seed_input`.
SEED = {"parse": int, "valid": lambda v: 0 <= v < 2**32}
ALPHA = {"parse": float, "options": ALPHAS}
BOOL = {"parse": parse_bool, "valid": lambda v: isinstance(v, bool)}
#: radio labels of :func:`dashboard.components.alternative_input`
ALTERNATIVE = {"options": ["one-sided", "two-sided"]}
#: labels of :func:`dashboard.components.correction_input`
CORRECTION = {"options": list(tables.CORRECTION_LABELS)}


#: each sacreBLEU option's widget key on the MT systems page (kept as they were: shared URLs and
#: tests name them); BLEU's smoothing value is the CLI's only (sacreBLEU's defaults per method
#: apply there)
SACREBLEU_KEYS = {
    ("bleu", "tokenize"): "mt_opt_tokenize",
    ("bleu", "lowercase"): "mt_opt_lowercase",
    ("bleu", "smooth_method"): "mt_opt_smooth",
    ("chrf", "char_order"): "mt_opt_cc",
    ("chrf", "word_order"): "mt_opt_cw",
    ("chrf", "beta"): "mt_opt_beta",
    ("chrf", "whitespace"): "mt_opt_cws",
    ("chrf", "lowercase"): "mt_opt_clc",
    ("chrf", "eps_smoothing"): "mt_opt_ceps",
    ("ter", "case_sensitive"): "mt_opt_tcase",
    ("ter", "normalized"): "mt_opt_tnorm",
    ("ter", "no_punct"): "mt_opt_tpunct",
    ("ter", "asian_support"): "mt_opt_tasian",
}


def _sacrebleu_settings() -> dict[str, Setting]:
    """The MT systems page's sacreBLEU options (:mod:`dashboard.sections.mt_options`), one
    parameter each under sacreBLEU's names: ``tokenize``, ``lowercase``, ``chrf_word_order``...
    (checked by the widget, which knows each option's choices and range)."""
    out = {}
    for option in SACREBLEU_OPTIONS:
        key = SACREBLEU_KEYS.get((option.metric, option.name))
        if key is None:
            continue
        param = option.name if option.metric == "bleu" else f"{option.metric}_{option.name}"
        if isinstance(option.default, bool):
            out[param] = Setting(key=key, **BOOL)
        elif option.choices or option.name == "tokenize":
            out[param] = Setting(key=key)
        else:
            out[param] = Setting(key=key, parse=int)
    return out


METRICS = {
    "lp": Setting(key="metrics_lp"),
    "alpha": Setting(key="metrics_alpha", **ALPHA),
    "test": Setting(key="metrics_alternative", **ALTERNATIVE),
    "correction": Setting(key="metrics_correction", **CORRECTION),
    "baseline": Setting(key="metrics_baseline"),
    "metrics": Setting(key="metrics_scatter", many=True),
    "kind": Setting(key="metrics_kind", options=list(tables.CORRELATION_KINDS)),
    "exclude": Setting(key="metrics_exclude", many=True),
    "reference_free": Setting(key="metrics_reference_free", many=True),
    "refset": Setting(key="metrics_refset"),
    "mad_outliers": Setting(key="metrics_outliers", **BOOL),
    "no_humans": Setting(key="metrics_no_humans", **BOOL),
    # segment level
    "seg_lp": Setting(key="meta_lp"),
    "gold": Setting(key="meta_gold"),
    "level": Setting(key="meta_level"),
    "grouping": Setting(key="meta_grouping"),
    "correlation": Setting(key="meta_correlation"),
    "ties": Setting(key="meta_ties"),
    "epsilon": Setting(key="meta_epsilon", parse=float),
    "threshold": Setting(key="meta_threshold", parse=float),
    "ci_resamples": Setting(key="meta_resamples", parse=int),
    "ci_seed": Setting(key="meta_seed", **SEED),
    "perm_resamples": Setting(key="meta_perm_resamples", parse=int),
    "perm_seed": Setting(key="meta_perm_seed", **SEED),
    "perm_correction": Setting(key="meta_correction", **CORRECTION),
    "include_human": Setting(key="meta_include_human", **BOOL),
    "exclude_systems": Setting(key="meta_exclude", many=True),
    "domain": Setting(key="meta_domain"),
    "aliases": ALIASES,
}

QE = {
    "alpha": Setting(key="qe_alpha", **ALPHA),
    "test": Setting(key="qe_alternative", **ALTERNATIVE),
    "systems": Setting(key="qe_hist_systems", many=True),
    "a": Setting(key="qe_scatter_a"),
    "b": Setting(key="qe_scatter_b"),
    "allow_constant": Setting(key="qe_allow_constant", **BOOL),
    "lp": Setting(key="qe_wmt_lp"),
    "resamples": Setting(key="qe_wmt_resamples", parse=int),
    "seed": Setting(key="qe_wmt_seed", **SEED),
    "correction": Setting(key="qe_wmt_correction", **CORRECTION),
    "aliases": ALIASES,
}

MT_SYSTEMS = {
    "metric": Setting(key="mt_metric", options=list(tables.TEXT_METRICS)),
    "score_metric": Setting(key="mt_score_metric"),
    "tests": Setting(key="mt_tests", many=True, options=list(RANDOMIZED_TESTS)),
    "resamples": Setting(key="mt_resamples", parse=int, options=MT_RESAMPLES),
    "seed": Setting(key="mt_seed", **SEED),
    "test": Setting(key="mt_alternative", **ALTERNATIVE),
    "alpha": Setting(key="mt_alpha", **ALPHA),
    "x": Setting(key="mt_pair_x"),
    "y": Setting(key="mt_pair_y"),
    "exclude": Setting(key="mt_exclude", many=True),
    "baseline": Setting(key="mt_table_baseline"),
    "table_test": Setting(key="mt_table_test"),
    "lower_is_better": Setting(key="mt_lower", **BOOL),
    **_sacrebleu_settings(),
    "aliases": ALIASES,
}

HUMAN = {
    "metrics": Setting(key="human_metrics", many=True),
    "tests": Setting(key="human_tests", many=True, options=list(RANDOMIZED_TESTS)),
    "alpha": Setting(key="human_alpha", **ALPHA),
    "resamples": Setting(key="human_resamples", parse=int, valid=lambda v: 100 <= v <= 100_000),
    "seed": Setting(key="human_seed", **SEED),
    "exclude": Setting(key="human_exclude", many=True),
    "outliers": Setting(key="human_outliers", **BOOL),
    "lp": Setting(key="human_lp"),
    "rank_test": Setting(key="human_rank_test"),
    "rank_correction": Setting(key="human_rank_correction", **CORRECTION),
    "aliases": ALIASES,
}

LEADERBOARD = {
    "task_set": Setting(key="board_task_set"),
    "input_format": Setting(key="board_input_format"),
    "gold": Setting(key="board_gold"),
    "resamples": Setting(key="board_resamples", parse=int, valid=lambda v: 100 <= v <= 10_000),
    "alpha": Setting(key="board_alpha", **ALPHA),
    "seed": Setting(key="board_seed", **SEED),
    "lp": Setting(key="board_lps", many=True),
    "refs": Setting(key="board_refs", many=True),
    "primary": Setting(key="board_primary"),
    "include_human": Setting(key="board_include_human", **BOOL),
}

#: the AutoRank page's choices
AUTORANK_RESAMPLES = (200, 1000, 2000, 5000)
AUTORANK_LEVELS = (0.9, 0.95, 0.99)

AUTORANK = {
    "lp": Setting(key="autorank_lp"),
    "metric_set": Setting(
        key="autorank_metric_set", options=["WMT25's choice (wmt25 preset)", "Choose metrics"]
    ),
    "metrics": Setting(key="autorank_metrics", many=True),
    "resamples": Setting(key="autorank_resamples", parse=int, options=AUTORANK_RESAMPLES),
    "level": Setting(key="autorank_level", parse=float, options=AUTORANK_LEVELS),
    "seed": Setting(key="autorank_seed", **SEED),
    "alpha": Setting(key="autorank_alpha", **ALPHA),
    "correction": Setting(key="autorank_correction", **CORRECTION),
    "aliases": ALIASES,
}

#: page -> its settings (the Power page keeps its own, on its page)
PAGES = {
    "metrics": METRICS,
    "qe": QE,
    "mt_systems": MT_SYSTEMS,
    "human": HUMAN,
    "leaderboard": LEADERBOARD,
    "autorank": AUTORANK,
}
