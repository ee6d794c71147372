"""The settings a shared URL carries on the Quality estimation, MT systems, Tests vs humans and
AutoRank pages (``?alpha=0.01&tests=bootstrap&seed=7&aliases={...}``), declared once per page for
:func:`dashboard.view_state.load_url` and :func:`dashboard.view_state.write_url`. (The
Metrics page declares its own, beside its widgets.)

Fixed choices are checked against their options; seeds and resample counts against the ranges
their widgets accept; choices among the uploaded data (systems, score metrics) wait for the
data (:func:`dashboard.view_state.pending`).
"""

from __future__ import annotations

from dashboard import components, tables
from dashboard.view_state import ALIASES, Setting
from stats import RANDOMIZED_TESTS

#: Resamples offered on the MT systems page.
MT_RESAMPLES = (200, 1000, 2000, 5000, 10000)
#: The range of :func:`dashboard.components.seed_input`.
SEED = {"parse": int, "valid": lambda v: 0 <= v < 2**32}
ALPHA = {"parse": float, "options": components.ALPHAS}
ALTERNATIVE = {"options": list(components.ALTERNATIVES)}

QE = {
    "alpha": Setting(key="qe_alpha", **ALPHA),
    "test": Setting(key="qe_alternative", **ALTERNATIVE),
    "systems": Setting(key="qe_hist_systems", many=True),
    "a": Setting(key="qe_scatter_a"),
    "b": Setting(key="qe_scatter_b"),
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
    "aliases": ALIASES,
}

HUMAN = {
    "metrics": Setting(key="human_metrics", many=True),
    "tests": Setting(key="human_tests", many=True, options=list(RANDOMIZED_TESTS)),
    "alpha": Setting(key="human_alpha", **ALPHA),
    "resamples": Setting(key="human_resamples", parse=int, valid=lambda v: 100 <= v <= 100_000),
    "seed": Setting(key="human_seed", **SEED),
    "exclude": Setting(key="human_exclude", many=True),
    "outliers": Setting(
        key="human_outliers",
        parse=lambda t: t.lower() == "true",
        valid=lambda v: isinstance(v, bool),
    ),
    "aliases": ALIASES,
}

#: Resamples and interval levels offered on the AutoRank page.
AUTORANK_RESAMPLES = (200, 1000, 2000, 5000)
AUTORANK_LEVELS = (0.9, 0.95, 0.99)

AUTORANK = {
    "lp": Setting(key="autorank_lp"),
    "metric_set": Setting(key="autorank_metric_set",
                          options=["WMT25's choice (wmt25 preset)", "Choose metrics"]),
    "metrics": Setting(key="autorank_metrics", many=True),
    "resamples": Setting(key="autorank_resamples", parse=int, options=AUTORANK_RESAMPLES),
    "level": Setting(key="autorank_level", parse=float, options=AUTORANK_LEVELS),
    "seed": Setting(key="autorank_seed", **SEED),
    "alpha": Setting(key="autorank_alpha", **ALPHA),
    "correction": Setting(key="autorank_correction", options=["none", "holm", "bh"]),
    "aliases": ALIASES,
}
