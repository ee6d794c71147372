"""The task sets and metadata of the WMT metrics shared tasks 2023-2025, recorded as facts.

Source of every value below: google-research/mt-metrics-eval at commit
68a481aea1a787392d55af8f76ac8ef40c5f4664 (2026-04-23): ``mt_metrics_eval/tasks.py``
(``WMT23``, ``WMT24``, ``WMT25``: the task lists and weights of the findings' main tables) and
``mt_metrics_eval/meta_info.py`` (``DATA``: standard reference and gold per test set and
language pair; primary and baseline metrics). The findings papers: WMT23
https://aclanthology.org/2023.wmt-1.51/ (Table 1: pairwise accuracy over all language pairs,
then system- and segment-level Pearson and segment-level acc23 per language pair), WMT24
https://aclanthology.org/2024.wmt-1.2/ and WMT25 (soft pairwise accuracy at system level and
tie-calibrated acc23 by item per language pair, uniform weights).
"""

from __future__ import annotations

from dataclasses import dataclass

from stats._core.errors import StatsInputError

from .task_sets import Task, TaskSet

__all__ = ["PRESETS", "TEST_SETS", "KnownTestSet", "known_test_set", "per_language_pair", "preset"]

_SOURCE = "mt-metrics-eval tasks.py {} (commit 68a481a)"


@dataclass(frozen=True)
class KnownTestSet:
    """Standard reference and gold (by level) of one language pair of a known test set."""

    std_ref: str
    std_gold: dict
    primary_metrics: frozenset = frozenset()
    baseline_metrics: frozenset = frozenset()
    outlier_systems: frozenset = frozenset()


WMT23_BASELINES = frozenset(
    {
        "BERTscore",
        "BLEU",
        "BLEURT-20",
        "chrF",
        "COMET",
        "CometKiwi",
        "docWMT22CometDA",
        "docWMT22CometKiwiDA",
        "f200spBLEU",
        "MS-COMET-QE-22",
        "prismRef",
        "prismSrc",
        "Random-sysname",
        "YiSi-1",
    }
)
WMT23_PRIMARIES = (
    frozenset(
        {
            "Calibri-COMET22",
            "Calibri-COMET22-QE",
            "cometoid22-wmt22",
            "eBLEU",
            "embed_llama",
            "GEMBA-MQM",
            "KG-BERTScore",
            "MaTESe",
            "MEE4",
            "MetricX-23",
            "MetricX-23-QE",
            "mre-score-labse-regular",
            "mbr-metricx-qe",
            "sescoreX",
            "tokengram_F",
            "XCOMET-Ensemble",
            "XCOMET-QE-Ensemble",
            "XLsim",
        }
    )
    | WMT23_BASELINES
)
WMT24_BASELINES = frozenset(
    {
        "BERTScore",
        "BLEU",
        "BLEURT-20",
        "chrF",
        "COMET-22",
        "CometKiwi",
        "PrismRefMedium",
        "PrismRefSmall",
        "spBLEU",
        "YiSi-1",
        "sentinel-cand-mqm",
        "sentinel-ref-mqm",
        "sentinel-src-mqm",
    }
)
WMT24_PRIMARIES = (
    frozenset(
        {
            "BLCOM_1",
            "bright-qe",
            "chrfS",
            "damonmonli",
            "gemba_esa",
            "MEE4",
            "metametrics_mt_mqm_hybrid_kendall",
            "metametrics_mt_mqm_qe_kendall.seg.s",
            "MetricX-24-Hybrid",
            "MetricX-24-Hybrid-QE",
            "XCOMET",
            "XCOMET-QE",
            "XLsimMqm",
        }
    )
    | WMT24_BASELINES
)
WMT25_PRIMARIES = frozenset(
    {
        "EnsembleSlick",
        "GEMBA-v2",
        "MetricX-25",
        "Polycand-2",
        "Q_Relative-MQM",
        "SEGALE-QE",
        "TASER-No-Ref",
        "UvA-MT",
        "comet-multi",
        "hw-tsc",
        "mr7_2_1",
        "rankedCOMET",
    }
)
WMT25_BASELINES = frozenset(
    {
        "BERTScore",
        "BLEU",
        "COMET22",
        "COMETKiwi22",
        "YiSi-1",
        "chrF",
        "sentinel-cand",
        "spBLEU",
    }
)


def _gold(name: str) -> dict:
    return {"sys": name, "seg": name}


def _info(ref, gold, prim, base, outliers=()) -> KnownTestSet:
    return KnownTestSet(ref, _gold(gold), prim | base, base, frozenset(outliers))


#: test set -> language pair -> KnownTestSet (meta_info.DATA; language pairs with human scores)
TEST_SETS: dict = {
    "wmt23": {
        "en-de": _info("refA", "mqm", WMT23_PRIMARIES, WMT23_BASELINES, {"synthetic_ref"}),
        "he-en": _info("refB", "mqm", WMT23_PRIMARIES, WMT23_BASELINES),
        "zh-en": _info("refA", "mqm", WMT23_PRIMARIES, WMT23_BASELINES, {"synthetic_ref"}),
        **{
            lp: _info("refA", "da-sqm", WMT23_PRIMARIES, WMT23_BASELINES)
            for lp in ("cs-uk", "de-en", "en-cs", "en-ja", "en-zh", "ja-en")
        },
    },
    "wmt24": {
        "en-de": _info("refB", "mqm", WMT24_PRIMARIES, WMT24_BASELINES, {"MSLC"}),
        "en-es": _info("refA", "mqm", WMT24_PRIMARIES, WMT24_BASELINES, {"MSLC"}),
        "ja-zh": _info("refA", "mqm", WMT24_PRIMARIES, WMT24_BASELINES, {"MSLC"}),
        **{
            lp: _info("refA", "esa", WMT24_PRIMARIES, WMT24_BASELINES)
            for lp in ("cs-uk", "en-cs", "en-hi", "en-is", "en-ja", "en-ru", "en-uk", "en-zh")
        },
    },
    "wmt25": {
        "ja-zh_CN": _info("refA", "mqm", WMT25_PRIMARIES, WMT25_BASELINES),
        "en-ko_KR": _info("refA", "mqm", WMT25_PRIMARIES, WMT25_BASELINES),
        **{
            lp: _info("refA", "esa-human1", WMT25_PRIMARIES, WMT25_BASELINES)
            for lp in (
                "cs-de_DE",
                "cs-uk_UA",
                "en-ar_EG",
                "en-bho_IN",
                "en-zh_CN",
                "en-cs_CZ",
                "en-et_EE",
                "en-is_IS",
                "en-it_IT",
                "en-ja_JP",
                "en-mas_KE",
                "en-ru_RU",
                "en-sr_Cyrl_RS",
                "en-uk_UA",
            )
        },
    },
}

#: language pairs with several references, whose other human translations are systems
#: (tasks.py: ``lps_with_multiple_refs``)
_MULTI_REF = {"wmt23": {"he-en", "en-he"}, "wmt24": {"en-de"}, "wmt25": set()}
_LPS = {
    "wmt23": ["en-de", "he-en", "zh-en"],
    "wmt24": ["en-de", "en-es", "ja-zh"],
    "wmt25": sorted(
        [
            "cs-de_DE",
            "cs-uk_UA",
            "en-ar_EG",
            "en-bho_IN",
            "en-cs_CZ",
            "en-et_EE",
            "en-is_IS",
            "en-it_IT",
            "en-ja_JP",
            "en-ko_KR",
            "en-mas_KE",
            "en-ru_RU",
            "en-sr_Cyrl_RS",
            "en-uk_UA",
            "en-zh_CN",
            "ja-zh_CN",
        ]
    ),
}


def _acc23_item(lp: str, human: bool) -> Task:
    """Segment-level acc23 with tie calibration, by item, item-pair permutation."""
    return Task(
        lp=lp,
        level="seg",
        correlation="acc23",
        grouping="item",
        tie_calibration=True,
        include_human=human,
        perm_test="pairs",
    )


def _wmt23() -> TaskSet:
    lps, multi = _LPS["wmt23"], _MULTI_REF["wmt23"]
    tasks = [
        Task(
            lp=",".join(lps),
            level="sys",
            correlation="pairwise-accuracy",
            include_human=bool(multi & set(lps)),
            weight=len(lps),
        )
    ]
    for lp in lps:
        human = lp in multi
        tasks += [
            Task(lp=lp, level="sys", correlation="pearson", include_human=human, weight=1),
            Task(lp=lp, level="seg", correlation="pearson", include_human=human, weight=1),
            replace_weight(_acc23_item(lp, human), 1),
        ]
    return TaskSet.from_tasks(tasks, name="wmt23", source=_SOURCE.format("WMT23"), test_set="wmt23")


def replace_weight(task: Task, weight: float) -> Task:
    from dataclasses import replace

    return replace(task, weight=weight)


def _spa_acc(test_set: str) -> TaskSet:
    tasks = []
    for lp in _LPS[test_set]:
        human = lp in _MULTI_REF[test_set]
        tasks += [
            Task(lp=lp, level="sys", correlation="soft-pairwise-accuracy", include_human=human),
            _acc23_item(lp, human),
        ]
    return TaskSet.from_tasks(
        tasks, name=test_set, source=_SOURCE.format(test_set.upper()), test_set=test_set
    )


#: preset name -> builder
PRESETS = {"wmt23": _wmt23, "wmt24": lambda: _spa_acc("wmt24"), "wmt25": lambda: _spa_acc("wmt25")}


def per_language_pair(lps) -> TaskSet:
    """A task set for any data: per language pair, system-level Pearson and segment-level
    Kendall tau-b by item, uniform weights (not a findings' list)."""
    tasks = []
    for lp in lps:
        tasks += [
            Task(lp=lp, level="sys", correlation="pearson"),
            Task(lp=lp, level="seg", correlation="kendall", grouping="item"),
        ]
    return TaskSet.from_tasks(
        tasks,
        name="per-lp",
        source="sys Pearson + seg Kendall by item per language pair, uniform weights",
    )


def preset(name: str) -> TaskSet:
    """The task set of a WMT metrics findings (``wmt23``, ``wmt24``, ``wmt25``)."""
    key = str(name).lower()
    if key not in PRESETS:
        raise StatsInputError(
            f"unknown task set {name!r}: one of {', '.join(PRESETS)} or a .json/.toml file"
        )
    return PRESETS[key]()


def known_test_set(test_set: str | None, lp: str) -> KnownTestSet | None:
    """The standard reference and gold of ``lp`` in a known test set, else None."""
    return TEST_SETS.get(str(test_set).lower() if test_set else "", {}).get(lp)
