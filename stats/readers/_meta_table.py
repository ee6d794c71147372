"""The scores :func:`stats.readers.meta.read_meta_eval` reads (:class:`MetaEvalData`), their
aligned tables per language pair and gold type (:class:`MetaEvalTable`), and MTME's naming of
metrics and references (:func:`parse_metric_name`, :func:`is_human_system`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

import numpy as np

from stats._core.errors import StatsInputError

from ._common import name_list
from ._meta_rows import _LEVELS, _Scores
from ._meta_rr import RR_GOLD

__all__ = ["MetaEvalData", "MetaEvalTable", "is_human_system", "parse_metric_name"]


#: reference names MTME's data uses (``refA``, ``refB``, ..., ``refP``; also ``ref1``)
_REF_NAME = re.compile(r"ref[A-Z0-9]{0,3}")
#: systems that are human translations by their name (WMT's ``Human-A.0``, ``Human-B.0``)
_HUMAN_NAME = re.compile(r"(?i)human(?:[-_. ].*)?")


def _is_ref(part: str, all_refs) -> bool:
    return part in all_refs or bool(_REF_NAME.fullmatch(part))


def parse_metric_name(name: str, all_refs=()) -> tuple[str, frozenset | None]:
    """Base name and references of a metric named as MTME names them (``EvalSet.
    ParseMetricName``): ``NAME-refA``, ``NAME-refA.refB`` (both), ``NAME-src`` (none: source-
    based), ``NAME-all`` (every reference in ``all_refs``).

    The part after the last ``-`` names references only when it is ``src``, ``all`` or made
    of references of the data (names in ``all_refs``, or MTME's ``refA``, ``refB``, ...);
    otherwise it belongs to the name (``YiSi-2``, ``COMET-QE``, ``BERT-base-L2``), whose
    references are unknown (None), as is a name without ``-``.

    Examples
    --------
    >>> parse_metric_name("BLEU-refA")
    ('BLEU', frozenset({'refA'}))
    >>> parse_metric_name("YiSi-2")
    ('YiSi-2', None)
    >>> parse_metric_name("COMET-QE-src")
    ('COMET-QE', frozenset())
    """
    if "-" not in name:
        return name, None
    base, tail = name.rsplit("-", 1)
    if tail == "src":
        return base, frozenset()
    if tail == "all":
        return base, frozenset(all_refs)
    parts = tail.split(".")
    if base and all(_is_ref(r, all_refs) for r in parts):
        return base, frozenset(parts)
    return name, None


def is_human_system(system: str, all_refs=()) -> bool:
    """Whether ``system`` is a human translation: named like a reference of the data (MTME's
    ``references/``, ``refA``...) or as WMT names them (``Human-A.0``)."""
    return _is_ref(system, all_refs) or bool(_HUMAN_NAME.fullmatch(system))


@dataclass(frozen=True, kw_only=True)
class MetaEvalTable:
    """Aligned scores of one language pair for one gold type.

    Attributes
    ----------
    lp, gold_name : str
    systems : tuple of str
        The systems with gold scores, in file order.
    gold : ndarray, shape (n_systems, n_items), or None
        Segment-level gold scores, NaN where missing (None when only system-level files were
        given).
    metrics : dict or None
        Metric name -> (n_systems, n_items) array.
    gold_sys, metrics_sys : ndarray, dict or None
        System-level scores read from ``.sys.score`` files, when the gold and every metric have
        them (else None: system scores are the means of segment scores).
    files : tuple of str
    left_out : dict
        Metric -> why it is not in ``metrics`` (another reference, not primary, a system
        without its scores); nothing read is dropped without a reason here.
    notes : tuple of str
        Systems left out and why (no human score; human translations).
    """

    lp: str
    gold_name: str
    systems: tuple
    gold: np.ndarray | None
    metrics: dict | None
    gold_sys: np.ndarray | None
    metrics_sys: dict | None
    files: tuple
    left_out: dict = field(default_factory=dict)
    notes: tuple = ()

    @property
    def n_items(self) -> int:
        return 0 if self.gold is None else self.gold.shape[1]

    @property
    def metric_names(self) -> tuple:
        return tuple(self.metrics_sys if self.metrics_sys is not None else self.metrics)


@dataclass(frozen=True, kw_only=True)
class MetaEvalData:
    """Scores read by :func:`read_meta_eval`, by language pair."""

    pairs: dict
    files: tuple
    #: what each source was read as, one line per source
    #: ("NAME: read as WMT segment scores (8 fields), 17 LPs, 12 metrics")
    read_as: str = ""
    #: keep human translations as systems in every :meth:`table` (see :meth:`with_systems`)
    include_human: bool = False
    #: system names or shell patterns left out of every :meth:`table` (:meth:`with_systems`)
    exclude_systems: tuple = ()
    #: the domain every :meth:`table` keeps (:meth:`in_domain`); None: all segments
    domain: str | None = None

    def domains(self, lp: str) -> tuple:
        """The domain of each segment of ``lp`` (from MTME-layout segment files with a DOMAIN
        column), or ``()`` when the files name none."""
        return tuple(self.pairs[lp].item_domains or ())

    def in_domain(self, domain: str | None) -> MetaEvalData:
        """The same scores restricted to one domain in every :meth:`table`, as MTME's
        ``GetCorrelations(domain=...)``: the segments of that domain, and at system level the
        ``*.domain.score`` files' scores of that domain when the gold and every metric have
        them (else the means of the domain's segments). None: every segment.

        Raises
        ------
        StatsInputError
            No language pair names that domain (listing those named).
        """
        if domain is not None:
            named = sorted({d for p in self.pairs.values() for d in (p.item_domains or ())}
                           | {d for p in self.pairs.values()
                              for store in p.domain_level.values() for sc in store.values()
                              for per in sc.values.values() for d in per})  # fmt: skip
            if domain not in named:
                raise StatsInputError(
                    f"domain: {domain!r} is not a domain of these files ("
                    + (f"domains: {', '.join(named)}" if named else "they name no domain: "
                       "domains come from MTME-layout files with a DOMAIN column")
                    + ")"
                )
        return dataclasses.replace(self, domain=domain)

    def systems(self, lp: str | None = None) -> tuple:
        """Every system with a score (human or metric), overall or for ``lp``, as read."""
        found: dict = {}
        for key in [lp] if lp is not None else list(self.pairs):
            pair = self.pairs[key]
            for store in (pair.gold, pair.metrics):
                for level in _LEVELS:
                    for sc in store[level].values():
                        found.update(dict.fromkeys(sc.values))
        return tuple(found)

    def with_systems(
        self, *, include_human: bool = False, exclude_systems: Sequence[str] = ()
    ) -> MetaEvalData:
        """The same scores with a choice of systems that every :meth:`table` (so every
        analysis of them) applies: ``include_human`` keeps human translations other than the
        references as systems; ``exclude_systems`` (names or shell patterns,
        :func:`fnmatch.fnmatchcase`, e.g. ``'Human-*'``) leaves systems out, each named in the
        table's notes.

        Raises
        ------
        StatsInputError
            A name or pattern of ``exclude_systems`` that matches no system of the data.
        """
        patterns = tuple(str(p) for p in exclude_systems)
        known = self.systems()
        for p in patterns:
            if not any(fnmatchcase(s, p) for s in known):
                raise StatsInputError(
                    f"exclude_systems: {p!r} matches no system (systems: {name_list(known)})"
                )
        return dataclasses.replace(
            self, include_human=bool(include_human), exclude_systems=patterns
        )

    @property
    def language_pairs(self) -> tuple:
        return tuple(self.pairs)

    def gold_names(self, lp: str | None = None) -> tuple:
        """Gold score types (e.g. ``mqm``, ``da``) present, overall or for ``lp``."""
        lps = [lp] if lp is not None else list(self.pairs)
        names: dict = {}
        for key in lps:
            for level in _LEVELS:
                names.update(dict.fromkeys(self.pairs[key].gold[level]))
            if self.pairs[key].rr:
                names[RR_GOLD] = None
        return tuple(names)

    def choose_gold(self, gold: str | None = None) -> str:
        """``gold`` if present (case-insensitive), else the only gold type there is.

        Raises
        ------
        StatsInputError
            No gold scores, an unknown name, or several types and none chosen (listing them).
        """
        names = self.gold_names()
        if not names:
            raise StatsInputError(
                f"no human (gold) scores in {name_list(self.files)}: give human-scores/ files, "
                "HUMAN rows or a human column"
            )
        if gold is None:
            if len(names) > 1:
                raise StatsInputError(
                    f"several human score types ({', '.join(names)}); choose one with gold=NAME"
                )
            return names[0]
        match = [n for n in names if n.lower() == str(gold).lower()]
        if not match:
            raise StatsInputError(f"human score type {gold!r} not found; present: {', '.join(names)}")
        return match[0]

    def table(
        self,
        lp: str,
        *,
        gold: str | None = None,
        level: str = "seg",
        refs: Sequence[str] | None = None,
        close_refs: Sequence[str] = (),
        include_human: bool | None = None,
        primary: Sequence[str] | None = None,
        exclude: Sequence[str] = (),
    ) -> MetaEvalTable:
        """The aligned scores of ``lp`` for gold type ``gold`` (see :meth:`choose_gold`).

        Systems are those with at least one gold score (as MTME); a system that a metric uses as
        its reference (MTME's ``NAME-REF``) and does not score is left out, and so are human
        translations (systems named like a file in MTME's ``references/``, ``refA``, or as WMT
        names them, ``Human-A.0``), as MTME's default; systems with metric scores but no gold
        score are left out. Each is named in ``notes``. A metric left out is named in
        ``left_out`` with the reason. ``gold`` None: the language pair's only gold type.

        With ``refs`` (MTME's ``GetCorrelations``): only metrics whose references
        (:func:`parse_metric_name`) are among ``refs`` are kept, and the human translations
        named in ``refs`` or ``close_refs`` are never systems; ``include_human`` keeps the other
        human translations as systems (None: the data's own choice, :meth:`with_systems`).
        ``primary``: only metrics with these base names (when non-empty). ``exclude``: systems
        left out (e.g. WMT's published outliers), named in ``notes``; the systems matching the
        data's ``exclude_systems`` are left out too (:meth:`with_systems`).

        Raises
        ------
        StatsInputError
            Unknown language pair; no system with a gold score (naming the pair and gold); no
            metric left (with each one's reason).
        """
        if lp not in self.pairs:
            raise StatsInputError(
                f"language pair {lp!r} not found; present: {name_list(self.pairs)}"
            )
        own_golds = self.gold_names(lp)
        name = own_golds[0] if gold is None and len(own_golds) == 1 else self.choose_gold(gold)
        pair = self.pairs[lp]
        refs_of = pair.references
        seg_gold, sys_gold = pair.gold["seg"].get(name), pair.gold["sys"].get(name)
        seg_metrics, sys_metrics = pair.metrics["seg"], pair.metrics["sys"]
        in_domain = None
        if self.domain is not None:
            in_domain, sys_gold, sys_metrics = self._domain_parts(lp, name)
        use_sys = (
            level == "sys" and sys_gold is not None and bool(sys_metrics)
            and set(seg_metrics) <= set(sys_metrics)
        )
        if self.domain is not None and in_domain is None:
            if not use_sys:
                raise StatsInputError(
                    f"domain: the segment files of {lp!r} name no domains (MTME-layout files "
                    "with a DOMAIN column do), and no domain-level files give the human and "
                    f"every metric's {self.domain!r} scores"
                )
            seg_gold = None
        main_gold, main_metrics = (sys_gold, sys_metrics) if use_sys else (seg_gold, seg_metrics)
        if main_gold is None and name == RR_GOLD:
            raise StatsInputError(
                f"gold {RR_GOLD}: relative-ranking pairs give WMT's Kendall tau-like only "
                "(correlation kendall-like at level seg)"
            )
        if main_gold is None:
            raise StatsInputError(
                f"language pair {lp!r}: no segment-level human scores of type {name!r}"
            )
        if not main_metrics:
            raise StatsInputError(f"language pair {lp!r}: no segment-level metric scores")
        left_out: dict = {}
        notes: list = []
        with_gold = [s for s, v in main_gold.values.items() if not np.all(np.isnan(v))]
        if not with_gold:
            raise StatsInputError(
                f"language pair {lp!r}, gold {name!r}: no system has a human score "
                f"({main_gold.file}: every {name} score of {lp} is empty)"
            )
        scored = {s for sc in main_metrics.values() for s in sc.values}
        no_gold = sorted(scored - set(with_gold))
        if no_gold:
            notes.append(
                f"{lp}: system(s) {name_list(no_gold)} left out: metric scores but no {name} "
                "human score"
            )
        if refs is not None:
            wanted = set(refs)
            for m in main_metrics:
                r = parse_metric_name(m, refs_of)[1]
                if r is not None and not r <= wanted:
                    left_out[m] = (
                        f"uses reference(s) {', '.join(sorted(r))}, not "
                        f"{', '.join(sorted(wanted))}"
                    )
            if len(left_out) == len(main_metrics):
                raise StatsInputError(
                    f"language pair {lp!r}: no metric uses only the reference(s) "
                    f"{', '.join(sorted(wanted))}"
                )
        if primary:
            names = set(primary)
            for m in main_metrics:
                if m not in left_out and parse_metric_name(m, refs_of)[0] not in names:
                    left_out[m] = "not a primary metric"
        kept = {m: sc for m, sc in main_metrics.items() if m not in left_out}
        if include_human is None:
            include_human = self.include_human
        excluded = set(refs or ()) | set(close_refs)
        if self.exclude_systems:
            chosen = [s for s in with_gold if any(fnmatchcase(s, p) for p in self.exclude_systems)]
            if chosen:
                notes.append(f"{lp}: system(s) {name_list(chosen)} left out by choice")
            excluded |= set(chosen)
        if exclude:
            gone = [s for s in with_gold if s in set(exclude)]
            absent = [s for s in exclude if s not in set(with_gold)]
            notes.append(
                f"{lp}: system(s) {name_list(gone) if gone else 'none'} left out as outliers"
                + (f" ({name_list(absent)} not among its systems)" if absent else "")
            )
            excluded |= set(gone)
        for mname in kept:
            own: frozenset = parse_metric_name(mname, refs_of)[1] or frozenset()
            excluded |= {s for s in with_gold if s not in main_metrics[mname].values and s in own}
        # human translations are not evaluated, as MTME's default (include_human=False); the
        # references a metric may use (refs, close_refs) never are
        humans = [
            s for s in with_gold
            if s not in excluded and not include_human and is_human_system(s, refs_of)
        ]
        if humans:
            notes.append(
                f"{lp}: human translation(s) {name_list(humans)} left out as systems "
                "(include_human=True keeps them)"
            )
        systems = [s for s in with_gold if s not in excluded and s not in humans]
        if not systems:
            raise StatsInputError(
                f"language pair {lp!r}, gold {name!r}: no system left to evaluate (systems "
                f"with human scores: {name_list(with_gold)})"
            )
        for m, sc in kept.items():
            lacking = [s for s in systems if s not in sc.values]
            if lacking:
                left_out[m] = (
                    f"{sc.file}: no scores for system(s) {name_list(lacking)}, which have "
                    f"human scores in {main_gold.file}"
                )
        main_metrics = {m: sc for m, sc in kept.items() if m not in left_out}
        if not main_metrics:
            reasons = "; ".join(f"{m}: {r}" for m, r in left_out.items())
            raise StatsInputError(f"language pair {lp!r}: no metric left ({reasons})")

        def matrix(sc):
            return np.array([sc.values[s] for s in systems], dtype=float)

        def segments(sc):
            m = matrix(sc)
            return m if in_domain is None else m[:, in_domain]

        seg_ok = seg_gold is not None and all(s in seg_gold.values for s in systems) and all(
            m in seg_metrics and all(s in seg_metrics[m].values for s in systems)
            for m in main_metrics
        )
        used = [main_gold, *main_metrics.values()]
        return MetaEvalTable(
            lp=lp,
            gold_name=name,
            systems=tuple(systems),
            gold=segments(seg_gold) if seg_ok else None,
            metrics={m: segments(seg_metrics[m]) for m in main_metrics} if seg_ok else None,
            gold_sys=matrix(sys_gold)[:, 0] if use_sys else None,
            metrics_sys=(
                {m: matrix(sys_metrics[m])[:, 0] for m in main_metrics} if use_sys else None
            ),
            files=tuple(dict.fromkeys(sc.file for sc in used)),
            left_out=left_out,
            notes=tuple(notes),
        )

    def _domain_parts(self, lp: str, gold: str) -> tuple:
        """(segment mask of the chosen domain or None, its domain-level gold and metric
        scores as system-level stores) of ``lp``."""
        pair = self.pairs[lp]
        domain = self.domain

        def at_domain(store: dict) -> dict:
            return {
                n: _Scores(file=sc.file, values={s: [v[domain]] for s, v in sc.values.items()
                                                 if domain in v}, lines=dict(sc.lines))
                for n, sc in store.items()
                if any(domain in v for v in sc.values.values())
            }  # fmt: skip

        mask = None
        if pair.item_domains is not None:
            mask = np.array([d == domain for d in pair.item_domains], dtype=bool)
            if not mask.any():
                raise StatsInputError(
                    f"language pair {lp!r} has no segment of domain {domain!r} (domains: "
                    f"{', '.join(sorted(set(pair.item_domains)))})"
                )
        sys_gold = at_domain(pair.domain_level["gold"]).get(gold)
        sys_metrics = at_domain(pair.domain_level["metrics"])
        return mask, sys_gold, sys_metrics
