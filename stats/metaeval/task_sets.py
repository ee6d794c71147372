r"""Task sets: metrics ranked by a weighted average over many meta-evaluation tasks, as the WMT
metrics findings of 2023-2025 rank them (mt-metrics-eval's ``TaskSet`` semantics).

A *task* is one meta-evaluation: language pair (several, comma-separated, for pairwise accuracy
pooled over them), level, correlation, grouping, gold scores, references and whether human
translations count as systems. Running a task gives each metric's correlation and, from the
PERM-BOTH permutations (:mod:`stats.metaeval.perm_both.core`), the *draws*: for every pair of metrics
:math:`(a, b)` and resample :math:`r`, the permuted difference :math:`d^{(t)}_{ab,r} =
c(\tilde a^{(r)}) - c(\tilde b^{(r)})`.

Each correlation is first moved to :math:`[0, 1]` with its range :math:`[lo_t, hi_t]`
(:math:`[-1, 1]` for correlations, :math:`[0, 1]` for accuracies), then averaged with the task
weights :math:`w_t` (:func:`assign_weights` spreads them over attribute values as MTME's
``AssignWeights``):

.. math::

    \bar c_m = \sum_t w_t\, \frac{c^{(t)}_m - lo_t}{hi_t - lo_t},

over the metrics present in every task (``TaskSetResults.AverageCorrs``). Whether metric
:math:`a` is better than :math:`b` on the average is tested with the tasks' draws combined
resample by resample (``AverageCorrMatrix``):

.. math::

    p_{ab} = \frac{1}{R} \sum_{r=1}^{R} \mathbb{1}\Bigl[\sum_t w_t
        \frac{d^{(t)}_{ab,\,r \bmod R_t}}{hi_t - lo_t} \ge \bar c_a - \bar c_b\Bigr],

where a task whose pair stopped early (:math:`R_t < R`) repeats its draws, and "at least" has
a relative tolerance of :math:`10^{-12}` (as :func:`stats.metaeval.perm_both.core.perm_both`). Clusters are
read from these p-values (:func:`stats.pairwise.clusters.significance_clusters`), and the average of
the per-task cluster ranks, :math:`\sum_t w_t\, \mathrm{rank}^{(t)}_m`, is a second ranking
(``AverageRanks``).

References
----------
M. Freitag et al. 2023. Results of WMT23 Metrics Shared Task. WMT.
https://aclanthology.org/2023.wmt-1.51/ ; M. Freitag et al. 2024. Are LLMs Breaking MT Metrics?
Results of the WMT24 Metrics Shared Task. WMT. https://aclanthology.org/2024.wmt-1.2/ ;
google-research/mt-metrics-eval, ``mt_metrics_eval/tasks.py`` (TaskSetResults).
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import numpy as np
import pandas as pd

from stats._core.choices import (
    CORRELATIONS,
    GROUPINGS,
    KENDALL_LIKE_THRESHOLD,
    LEVELS,
    SOFT_PAIRWISE_ACCURACY,
)
from stats._core.errors import StatsInputError
from stats._core.inputs import read_path
from stats._core.numbers import MAX_ABS_VALUE
from stats._core.results import StatisticPvalue
from stats._core.validation import check_alpha
from stats.pairwise.clusters import significance_clusters

#: largest task-set file read (bounded while read: a FIFO or /dev/zero is refused)
MAX_TASK_SET_BYTES = 16 * 2**20

__all__ = [
    "Task",
    "TaskOutcome",
    "TaskSet",
    "TaskSetResult",
    "assign_weights",
    "average_correlations",
    "average_pvalues",
    "average_confidence_intervals",
    "average_difference_spread",
    "average_ranks",
    "combine_tasks",
    "correlation_range",
    "read_task_set",
]

#: correlations whose values lie in [0, 1] (MTME's ``TaskResults.range``: accuracy, pce and
#: KendallWithTiesOpt other than variant 23); every other one lies in [-1, 1]
ZERO_ONE = frozenset({"acc23", "pairwise-accuracy", SOFT_PAIRWISE_ACCURACY})
ALL_CORRELATIONS = (*CORRELATIONS, SOFT_PAIRWISE_ACCURACY)
PERM_TESTS = ("scores", "pairs")
_TOL = 1e-12


def _is_numeric(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _finite(value) -> bool:
    """Whether a number is finite and within the one bound of numbers (files' and options':
    :data:`stats._core.numbers.MAX_ABS_VALUE`; an integer too large for a float is not)."""
    try:
        return math.isfinite(float(value)) and abs(float(value)) <= MAX_ABS_VALUE
    except OverflowError:
        return False


def _short(value, limit: int = 40) -> str:
    """``repr`` of a value cut to ``limit`` characters (a 5,000-digit weight stays one line)."""
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value) if value.bit_length() < 200 else f"an integer of {len(format(value, 'x'))*4} bits"
        return text
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def correlation_range(correlation: str) -> tuple[float, float]:
    """``(lo, hi)`` of a correlation's values: (0, 1) for accuracies, else (-1, 1)."""
    return (0.0, 1.0) if correlation in ZERO_ONE else (-1.0, 1.0)


@dataclass(frozen=True, kw_only=True)
class Task:
    """One meta-evaluation of a task set (keys named as ``meta-eval``'s options).

    Attributes
    ----------
    lp : str
        Language pair; several comma-separated for ``pairwise-accuracy`` pooled over them.
    level, correlation, grouping, epsilon, tie_calibration, threshold
        As ``python -m stats meta-eval``.
    gold : str or None
        Human score type (None: the standard one of a known test set, else the only one).
    refs, close_refs : tuple of str or None
        References a metric may use (None: the standard one) and references close to them;
        human translations named like either are never systems.
    include_human : bool
        Keep the other human translations as systems.
    primary_only : bool
        Only primary metrics (when the test set names them).
    perm_test : str
        ``scores`` (PERM-BOTH swaps segment scores) or ``pairs`` (MTME's item-pair
        permutation).
    weight : float or None
        Relative weight (None: uniform, or from the task set's ``weight_by``).
    """

    lp: str
    level: str = "seg"
    correlation: str = "pearson"
    grouping: str = "none"
    gold: str | None = None
    refs: tuple | None = None
    close_refs: tuple = ()
    include_human: bool = False
    primary_only: bool = True
    epsilon: float | None = None
    tie_calibration: bool = False
    threshold: float = KENDALL_LIKE_THRESHOLD
    perm_test: str = "scores"
    weight: float | None = None

    def __post_init__(self):
        where = f"task {self.lp!r}"
        for name, value, choices in (
            ("level", self.level, LEVELS),
            ("correlation", self.correlation, ALL_CORRELATIONS),
            ("grouping", self.grouping, GROUPINGS),
            ("perm_test", self.perm_test, PERM_TESTS),
        ):
            if value not in choices:
                raise StatsInputError(
                    f"{where}: {name} must be one of {', '.join(choices)}; got {value!r}"
                )
        if not isinstance(self.lp, str) or not self.lp.strip():
            raise StatsInputError(f"task: lp must be a language pair; got {self.lp!r}")
        if "," in self.lp and self.correlation != "pairwise-accuracy":
            raise StatsInputError(
                f"{where}: several language pairs pool only pairwise-accuracy; got "
                f"{self.correlation!r}"
            )
        if (
            self.correlation in ("pairwise-accuracy", SOFT_PAIRWISE_ACCURACY)
            and self.level != "sys"
        ):
            raise StatsInputError(f"{where}: {self.correlation} is system-level: level 'sys'")
        if self.weight is not None and not (
            _is_numeric(self.weight) and _finite(self.weight) and self.weight >= 0
        ):
            raise StatsInputError(
                f"{where}: weight must be a number >= 0 (at most 1e150); got {_short(self.weight)}"
            )
        if self.epsilon is not None and not (
            _is_numeric(self.epsilon) and _finite(self.epsilon) and self.epsilon >= 0
        ):
            raise StatsInputError(
                f"{where}: epsilon must be a number >= 0 (at most 1e150); got {_short(self.epsilon)}"
            )
        if not (_is_numeric(self.threshold) and _finite(self.threshold)):
            raise StatsInputError(
                f"{where}: threshold must be a number within +-1e150; got {_short(self.threshold)}"
            )
        for name in ("include_human", "primary_only", "tie_calibration"):
            if not isinstance(getattr(self, name), bool):
                raise StatsInputError(
                    f"{where}: {name} must be true or false; got {_short(getattr(self, name))}"
                )
        if self.gold is not None and not isinstance(self.gold, str):
            raise StatsInputError(f"{where}: gold must be a name; got {_short(self.gold)}")
        for name in ("refs", "close_refs"):
            value = getattr(self, name)
            if value is None and name == "refs":
                continue
            if not isinstance(value, tuple) or not all(isinstance(r, str) for r in value):
                raise StatsInputError(
                    f"{where}: {name} must be a reference name or a list of them; got "
                    f"{_short(value)}"
                )

    @property
    def lps(self) -> tuple:
        return tuple(s.strip() for s in self.lp.split(","))

    @property
    def range(self) -> tuple[float, float]:
        return correlation_range(self.correlation)

    @property
    def name(self) -> str:
        """``attr=value`` of the attributes that differ from the defaults (MTME's task name)."""
        parts = [f"lp={self.lp}", f"level={self.level}", f"correlation={self.correlation}"]
        for f in fields(self):
            if f.name in ("lp", "level", "correlation", "weight"):
                continue
            value = getattr(self, f.name)
            if value != f.default:
                parts.append(f"{f.name}={value}")
        return " ".join(parts)

    @property
    def label(self) -> str:
        """Short column header: ``en-de seg acc23-tc item``."""
        corr = self.correlation + ("-tc" if self.tie_calibration else "")
        grouping = "" if self.grouping == "none" else f" {self.grouping}"
        lp = "all lps" if "," in self.lp else self.lp
        return f"{lp} {self.level} {corr}{grouping}"

    def attribute(self, attr: str):
        if attr not in {f.name for f in fields(self)}:
            raise StatsInputError(
                f"weight_by: unknown task attribute {attr!r}; one of "
                f"{', '.join(f.name for f in fields(self))}"
            )
        return getattr(self, attr)


def assign_weights(tasks: Sequence[Task], attrs: Sequence[str], total: float = 1.0) -> list:
    """MTME's ``AssignWeights``: ``total`` spread evenly over the values of the first attribute
    (in order of first appearance), each share recursively over the next; the tasks that
    remain share theirs equally."""
    tasks = list(tasks)
    if not tasks:
        return []
    if not attrs:
        return [total / len(tasks)] * len(tasks)
    groups: dict = {}
    for i, t in enumerate(tasks):
        groups.setdefault(str(t.attribute(attrs[0])), []).append(i)
    out = [0.0] * len(tasks)
    for idx in groups.values():
        sub = assign_weights([tasks[i] for i in idx], attrs[1:], total / len(groups))
        for i, w in zip(idx, sub, strict=True):
            out[i] = w
    return out


def normalise_weights(raw: Sequence[float], where: str) -> tuple:
    """Weights divided by their sum, without overflow: scaled by the largest first (so
    ``1e308, 1e308`` are ``0.5, 0.5``).

    Examples
    --------
    >>> normalise_weights([1e308, 1e308], "task set")
    (0.5, 0.5)
    """
    values = [float(w) for w in raw]
    top = max(values, default=0.0)
    if not top > 0 or not math.isfinite(top):
        raise StatsInputError(f"{where}: the weights sum to {sum(values)}; need > 0")
    scaled = [w / top for w in values]
    total = math.fsum(scaled)
    return tuple(w / total for w in scaled)


@dataclass(frozen=True, kw_only=True)
class TaskSet:
    """Tasks and their weights (normalised to sum 1), with where the list comes from."""

    name: str
    tasks: tuple
    weights: tuple
    source: str = ""
    test_set: str | None = None

    @classmethod
    def from_tasks(cls, tasks, *, name="custom", weight_by=(), source="", test_set=None):
        tasks = tuple(tasks)
        if not tasks:
            raise StatsInputError(f"task set {name!r} has no tasks")
        given = [t.weight for t in tasks]
        if any(w is not None for w in given):
            if weight_by:
                raise StatsInputError(f"task set {name!r}: give weights or weight_by, not both")
            raw = [1.0 if w is None else float(w) for w in given]
        else:
            raw = assign_weights(tasks, list(weight_by))
        return cls(
            name=name,
            tasks=tasks,
            weights=normalise_weights(raw, f"task set {name!r}"),
            source=source,
            test_set=test_set,
        )

    def restricted(self, lps: Sequence[str]) -> TaskSet:
        """The tasks of the given language pairs only (pooled tasks keep the chosen ones)."""
        keep, weights = [], []
        for t, w in zip(self.tasks, self.weights, strict=True):
            chosen = [lp for lp in t.lps if lp in lps]
            if not chosen:
                continue
            keep.append(replace(t, lp=",".join(chosen)) if "," in t.lp else t)
            weights.append(w)
        if not keep:
            raise StatsInputError(f"task set {self.name!r} has no task for {', '.join(lps)}")
        return replace(
            self, tasks=tuple(keep), weights=normalise_weights(weights, f"task set {self.name!r}")
        )


_TASK_KEYS = {f.name for f in fields(Task)}
#: option spellings of ``meta-eval`` accepted as task keys
_ALIASES = {
    "tie-calibration": "tie_calibration",
    "close-refs": "close_refs",
    "include-human": "include_human",
    "primary-only": "primary_only",
    "perm-test": "perm_test",
}


#: the keys of a task-set file, with the option spellings accepted for them
_TOP_KEYS = ("name", "source", "test_set", "weight_by", "defaults", "tasks")
_TOP_ALIASES = {"test-set": "test_set", "weight-by": "weight_by"}


def _spellings(keys, aliases: Mapping[str, str]) -> str:
    """The accepted spellings of ``keys`` for a message: ``weight_by (or weight-by)``."""
    other = {v: k for k, v in aliases.items()}
    return ", ".join(f"{k} (or {other[k]})" if k in other else k for k in sorted(keys))


def _canonical(raw: Mapping, where: str, keys, aliases: Mapping[str, str]) -> dict:
    """``raw`` with its keys in their canonical spelling; an unknown key, or one key given in
    two spellings, is refused naming the accepted spellings."""
    out: dict = {}
    for k, v in raw.items():
        key = aliases.get(k, k)
        if key not in keys:
            raise StatsInputError(
                f"{where}: unknown key {_short(k)}; accepted: {_spellings(keys, aliases)}"
            )
        if key in out:
            raise StatsInputError(f"{where}: {key} is given twice (as {key} and as its option spelling)")
        out[key] = v
    return out


def _task_from_dict(raw, where: str, defaults: Mapping) -> Task:
    if not isinstance(raw, Mapping):
        raise StatsInputError(f"{where}: a task must be a table/object; got {type(raw).__name__}")
    spec = {**defaults, **_canonical(raw, where, _TASK_KEYS, _ALIASES)}
    for key in ("refs", "close_refs"):
        if isinstance(spec.get(key), str):
            spec[key] = (spec[key],)
        elif isinstance(spec.get(key), list):
            spec[key] = tuple(spec[key])
    if isinstance(spec.get("lp"), list):
        if not spec["lp"] or not all(isinstance(x, str) for x in spec["lp"]):
            raise StatsInputError(
                f"{where}: lp must be a language pair or a list of them; got {_short(spec['lp'])}"
            )
        spec["lp"] = ",".join(spec["lp"])
    if "lp" not in spec:
        raise StatsInputError(f"{where}: every task needs an 'lp'")
    if not isinstance(spec["lp"], str):
        raise StatsInputError(
            f"{where}: lp must be a language pair or a list of them; got {_short(spec['lp'])}"
        )
    try:
        return Task(**spec)
    except StatsInputError as exc:
        raise StatsInputError(f"{where}: {exc}") from None
    except TypeError as exc:
        raise StatsInputError(f"{where}: {exc}") from None


def read_task_set(path, *, text: str | bytes | None = None) -> TaskSet:
    """A task set from a JSON or TOML file::

        {"name": "mine", "test_set": "wmt24", "weight_by": ["lp"],
         "defaults": {"gold": "mqm"},
         "tasks": [{"lp": "en-de", "level": "seg", "correlation": "acc23",
                    "grouping": "item", "tie_calibration": true, "weight": 1}, ...]}

    Keys are ``meta-eval``'s options (``tie-calibration`` or ``tie_calibration``); weights
    default to uniform. ``text``: the file's content (an upload), ``path`` then only names it
    (its suffix ``.toml`` chooses TOML).

    Raises
    ------
    StatsInputError
        Unreadable file, bad syntax (with the line), an unknown key or value (with the task).
    """
    p = Path(path)
    try:
        if text is None:
            text = read_path(p, str(path), MAX_TASK_SET_BYTES).decode("utf-8-sig")
        elif isinstance(text, bytes):
            text = text.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise StatsInputError(f"{path}: cannot read the task set ({exc})") from None
    if p.suffix.lower() == ".toml":
        try:
            import tomllib
        except ImportError:  # Python 3.10
            raise StatsInputError(f"{path}: TOML task sets need Python 3.11+; write JSON") from None

        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise StatsInputError(f"{path}: not valid TOML ({exc})") from None
        except RecursionError:
            raise StatsInputError(f"{path}: TOML nested too deeply for a task set") from None
    else:
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StatsInputError(
                f"{path}, line {exc.lineno}: not valid JSON ({exc.msg})"
            ) from None
        except RecursionError:
            raise StatsInputError(f"{path}: JSON nested too deeply for a task set") from None
        except ValueError as exc:  # an integer of more digits than Python converts
            raise StatsInputError(f"{path}: not a usable JSON number ({exc})") from None
    if not isinstance(doc, Mapping):
        raise StatsInputError(f"{path}: expected an object with a 'tasks' list")
    doc = _canonical(doc, str(path), _TOP_KEYS, _TOP_ALIASES)
    if not isinstance(doc.get("tasks"), list):
        raise StatsInputError(f"{path}: expected an object with a 'tasks' list")
    defaults = doc.get("defaults", {})
    if not isinstance(defaults, Mapping):
        raise StatsInputError(f"{path}: 'defaults' must be an object")
    defaults = _canonical(defaults, f"{path}, defaults", _TASK_KEYS, _ALIASES)
    tasks = [
        _task_from_dict(t, f"{path}, task {i + 1}", defaults) for i, t in enumerate(doc["tasks"])
    ]
    weight_by = doc.get("weight_by", [])
    if isinstance(weight_by, str):
        weight_by = [weight_by]
    if not isinstance(weight_by, list) or not all(isinstance(a, str) for a in weight_by):
        raise StatsInputError(
            f"{path}: weight_by must be a task attribute or a list of them; got "
            f"{_short(weight_by)}"
        )
    test_set = doc.get("test_set")
    if test_set is not None and not isinstance(test_set, str):
        raise StatsInputError(f"{path}: test_set must be a name; got {_short(test_set)}")
    return TaskSet.from_tasks(
        tasks,
        name=str(doc.get("name", p.stem)),
        weight_by=weight_by,
        source=str(doc.get("source", path)),
        test_set=test_set,
    )


# ---------------------------------------------------------------------------------------------
# combining the tasks' results


@dataclass(frozen=True, kw_only=True)
class TaskOutcome:
    """One task run: correlations, PERM-BOTH p-values and clusters, and the draws.

    Attributes
    ----------
    task : Task
    metrics : tuple of str
        Best first.
    correlations : Series
        Metric -> correlation (task's own scale).
    draws : ndarray, shape (n_resamples, n_pairs)
        Permuted differences :math:`c(\\tilde a) - c(\\tilde b)` of the pairs
        ``(metrics[i], metrics[j])``, ``i < j``, in ``np.triu_indices`` order.
    n_resamples_used : ndarray, shape (n_pairs,)
        Rows of ``draws`` each pair used (early stopping); the rest is ignored.
    pvalue : DataFrame
        Row better than column.
    rank : Series
        Cluster per metric.
    gold, refs : str, tuple
        What was taken (stated in the output).
    n_systems, n_items : int
    note : str
        How gold and references were chosen.
    display : dict
        Metric -> how it is displayed (primary, source-based).
    bootstrap : dict or None
        Metric -> the correlation in each bootstrap resample of the items (the same resampled
        items for every metric), when confidence intervals were asked for.
    """

    task: Task
    metrics: tuple
    correlations: pd.Series
    draws: np.ndarray
    n_resamples_used: np.ndarray
    pvalue: pd.DataFrame
    rank: pd.Series
    gold: str = ""
    refs: tuple = ()
    n_systems: int = 0
    n_items: int = 0
    note: str = ""
    display: dict = field(default_factory=dict)
    bootstrap: dict | None = None


def undefined_items(values: pd.Series) -> list:
    """The items whose value is NaN (they join no significance cluster)."""
    return [m for m, v in values.items() if isinstance(v, float) and math.isnan(v)]


def task_pvalues(metrics, draws, n_used, correlations) -> pd.DataFrame:
    """PERM-BOTH p-values of one task from its draws: share of a pair's draws at least its
    observed difference (row better than column)."""
    k = len(metrics)
    iu = np.triu_indices(k, 1)
    c = np.array([correlations[m] for m in metrics], dtype=float)
    delta = c[iu[0]] - c[iu[1]]
    rows = np.arange(draws.shape[0])[:, None]
    valid = rows < n_used[None, :]
    tol = _TOL * np.maximum(1.0, np.abs(delta))
    with np.errstate(invalid="ignore"):
        hit = (draws >= delta - tol) & valid
    p = hit.sum(axis=0) / np.maximum(n_used, 1)
    out = np.full((k, k), np.nan)
    # an undefined correlation makes every p-value against it undefined (never 0)
    out[iu] = np.where((n_used > 0) & ~np.isnan(delta), p, np.nan)
    return pd.DataFrame(out, index=list(metrics), columns=list(metrics))


def average_correlations(outcomes: Sequence[TaskOutcome], weights: Sequence[float]) -> pd.Series:
    """Weighted average of each metric's correlation moved to [0, 1] (module notes), over the
    metrics present in every task, best first (ties by name)."""
    common = [m for m in outcomes[0].metrics if all(m in o.correlations.index for o in outcomes)]
    values = {}
    for m in common:
        total = 0.0
        for o, w in zip(outcomes, weights, strict=True):  # task order, as MTME sums
            lo, hi = o.task.range
            total += (float(o.correlations[m]) - lo) / (hi - lo) * w
        values[m] = total
    order = sorted(values, key=lambda m: (math.isnan(values[m]), -np.nan_to_num(values[m]), m))
    return pd.Series({m: values[m] for m in order}, dtype=float, name="average")


def average_ranks(outcomes: Sequence[TaskOutcome], weights: Sequence[float]) -> pd.Series:
    """Weighted average of the per-task cluster ranks (MTME's ``AverageRanks``), over the
    metrics present in every task, lowest first."""
    common = [m for m in outcomes[0].metrics if all(m in o.rank.index for o in outcomes)]
    values = {
        m: sum(float(o.rank[m]) * w for o, w in zip(outcomes, weights, strict=True)) for m in common
    }
    order = sorted(values, key=lambda m: (math.isnan(values[m]), np.nan_to_num(values[m]), m))
    return pd.Series({m: values[m] for m in order}, dtype=float, name="average_rank")


def _pair_columns(outcome: TaskOutcome, a: np.ndarray, b: np.ndarray):
    """Column of each pair (a, b) in the task's draws and its sign (+1 when a precedes b)."""
    pos = {m: i for i, m in enumerate(outcome.metrics)}
    k = len(outcome.metrics)
    i = np.array([pos[m] for m in a])
    j = np.array([pos[m] for m in b])
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    col = lo * k - lo * (lo + 1) // 2 + (hi - lo - 1)  # index in triu_indices(k, 1) order
    return col, np.where(i < j, 1.0, -1.0)


def average_pvalues(
    outcomes: Sequence[TaskOutcome], weights: Sequence[float], average: pd.Series
) -> pd.DataFrame:
    """p-values of "row better than column" on the weighted average, from the tasks' draws
    combined resample by resample (MTME's ``AverageCorrMatrix``; module notes)."""
    metrics = list(average.index)
    k = len(metrics)
    out = np.full((k, k), np.nan)
    if k < 2:
        return pd.DataFrame(out, index=metrics, columns=metrics)
    iu = np.triu_indices(k, 1)
    a, b = np.array(metrics, dtype=object)[iu[0]], np.array(metrics, dtype=object)[iu[1]]
    observed = average.to_numpy()[iu[0]] - average.to_numpy()[iu[1]]
    per_task = []
    parts = []
    for o in outcomes:
        col, sign = _pair_columns(o, a, b)
        per_task.append(o.n_resamples_used[col])
        parts.append((o, col, sign))
    lengths = np.array(per_task)  # tasks x pairs
    if (lengths <= 0).any():
        raise StatsInputError("average p-values need every task's draws (resamples >= 1)")
    max_draws = lengths.max(axis=0)
    R = int(max_draws.max())
    null = np.zeros((R, len(observed)))
    rows = np.arange(R)[:, None]
    for (o, col, sign), w, n in zip(parts, weights, lengths, strict=True):
        lo, hi = o.task.range
        tiled = o.draws[rows % n[None, :], col[None, :]]  # early-stopped pairs repeat draws
        null += w * sign * tiled / (hi - lo)
    tol = _TOL * np.maximum(1.0, np.abs(observed))
    with np.errstate(invalid="ignore"):
        hit = (null >= observed - tol) & (rows < max_draws[None, :])
    out[iu] = np.where(np.isnan(observed), np.nan, hit.sum(axis=0) / max_draws)
    return pd.DataFrame(out, index=metrics, columns=metrics)


def average_confidence_intervals(
    outcomes: Sequence[TaskOutcome],
    weights: Sequence[float],
    average: pd.Series,
    confidence_level: float = 0.95,
) -> pd.DataFrame | None:
    r"""Percentile bootstrap interval of each metric's weighted average: the tasks' bootstrap
    resamples (items resampled, the same items for every metric of a task, tasks drawn
    independently) combined resample by resample as the average is,
    :math:`\sum_t w_t (c^{(t,r)}_m - lo_t) / (hi_t - lo_t)`. None when a task has no
    bootstrap resamples (e.g. pairwise accuracy pooled over language pairs)."""
    if any(o.bootstrap is None for o in outcomes):
        return None
    n = min(len(next(iter(o.bootstrap.values()))) for o in outcomes)
    alpha = (1 - confidence_level) / 2
    rows = {}
    for m in average.index:
        total = _average_resamples(outcomes, weights, m, n)
        with np.errstate(invalid="ignore"):
            ok = total[~np.isnan(total)]
        rows[m] = (
            (np.quantile(ok, alpha), np.quantile(ok, 1 - alpha)) if ok.size else (np.nan, np.nan)
        )
    return pd.DataFrame.from_dict(rows, orient="index", columns=["low", "high"])


def _average_resamples(outcomes, weights, m, n: int) -> np.ndarray:
    """Metric ``m``'s weighted average in each of the first ``n`` bootstrap resamples."""
    total = np.zeros(n)
    for o, w in zip(outcomes, weights, strict=True):
        lo, hi = o.task.range
        total += w * (np.asarray(o.bootstrap[m][:n], dtype=float) - lo) / (hi - lo)
    return total


def average_difference_spread(
    outcomes: Sequence[TaskOutcome], weights: Sequence[float], metrics: Sequence[str]
) -> pd.DataFrame | None:
    """Standard deviation over the bootstrap resamples of the difference of two metrics'
    weighted averages, combined resample by resample as :func:`average_confidence_intervals`
    combines them (the same items for every metric of a task): each pair's standard error,
    from which a page states the minimum detectable effect. ``metrics`` x ``metrics``; None
    when a task has no bootstrap resamples."""
    if not outcomes or any(o.bootstrap is None for o in outcomes):
        return None
    n = min(len(next(iter(o.bootstrap.values()))) for o in outcomes)
    totals = np.column_stack([_average_resamples(outcomes, weights, m, n) for m in metrics])
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a pair without resamples: NaN
        spread = np.nanstd(totals[:, :, None] - totals[:, None, :], axis=0)
    return pd.DataFrame(spread, index=list(metrics), columns=list(metrics))


@dataclass(frozen=True, kw_only=True)
class TaskSetResult(StatisticPvalue):
    """A task set run: per-task outcomes and the global ranking.

    Attributes
    ----------
    statistic : Series
        Weighted average correlation per metric, best first (``average``).
    pvalue : DataFrame
        "Row better than column" on the average.
    rank : Series
        Cluster per metric at ``alpha``.
    average_rank : Series
    tasks : tuple of TaskOutcome
    weights : tuple of float
    task_set : TaskSet
    n_resamples, seed, alpha
    left_out : dict
        Metric read from the files but not ranked -> why (another reference, not primary, not
        in every task, ...).
    """

    statistic: pd.Series
    pvalue: pd.DataFrame
    rank: pd.Series
    average_rank: pd.Series
    tasks: tuple
    weights: tuple
    task_set: TaskSet
    n_resamples: int
    seed: int | None
    alpha: float
    notes: tuple = ()
    test_set: str | None = None
    confidence_interval: pd.DataFrame | None = None
    confidence_level: float = 0.95
    left_out: dict = field(default_factory=dict)
    significance: bool = True

    @property
    def average(self) -> pd.Series:
        return self.statistic

    def __iter__(self):  # unpacks like scipy's results
        return iter((self.statistic, self.pvalue))


def combine_tasks(
    outcomes,
    task_set: TaskSet,
    *,
    n_resamples: int,
    seed,
    alpha: float = 0.05,
    notes=(),
    test_set: str | None = None,
    confidence_level: float = 0.95,
    significance: bool = True,
) -> TaskSetResult:
    """The global ranking of a task set from its tasks' outcomes (module notes);
    ``significance=False``: the point ranking only (p-values undefined, no clusters)."""
    alpha = check_alpha(alpha)
    outcomes = tuple(outcomes)
    weights = task_set.weights
    average = average_correlations(outcomes, weights)
    if average.empty:
        raise StatsInputError(f"task set {task_set.name!r}: no metric is present in every task")
    if significance:
        pvalue = average_pvalues(outcomes, weights, average)
        undefined = undefined_items(average)
    else:
        k = len(average)
        pvalue = pd.DataFrame(np.full((k, k), np.nan), index=average.index, columns=average.index)
        undefined = list(average.index)
    rank = significance_clusters(pvalue, alpha=alpha, undefined=undefined)
    return TaskSetResult(
        statistic=average,
        pvalue=pvalue,
        rank=rank,
        average_rank=average_ranks(outcomes, weights),
        tasks=outcomes,
        weights=weights,
        task_set=task_set,
        n_resamples=n_resamples,
        seed=seed,
        alpha=alpha,
        notes=tuple(notes),
        test_set=test_set if test_set is not None else task_set.test_set,
        confidence_interval=average_confidence_intervals(
            outcomes, weights, average, confidence_level
        ),
        confidence_level=confidence_level,
        significance=significance,
    )
