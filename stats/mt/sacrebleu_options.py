"""One table of sacreBLEU's metric options, read by the CLI (``--tokenize``, ``--chrf-*``,
``--ter-*``) and by the dashboard's "sacreBLEU options" expander: each option's name in
sacreBLEU's constructor, its default there, its command-line flag and what it means in words.

Also: sacreBLEU's own signature of a metric with given options (:func:`sacrebleu_signature`, from
sacreBLEU's metric object, never formatted here), the options in words (:func:`describe_options`),
and where BLEU's tokenizer differs from the one the WMT22/WMT23 organisers' released automatic
scores used for a target language (:func:`wmt_tokenizer_note`).

Import-light: sacreBLEU is imported only by :func:`sacrebleu_signature` (``--help`` loads none of it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "SACREBLEU_OPTIONS",
    "WMT_RELEASED_TOKENIZERS",
    "SacrebleuOption",
    "sacrebleu_defaults",
    "describe_options",
    "non_default_options",
    "sacrebleu_signature",
    "wmt_released_tokenizer",
    "wmt_tokenizer_note",
]


@dataclass(frozen=True)
class SacrebleuOption:
    """One option of sacreBLEU's ``BLEU``/``CHRF``/``TER`` constructor."""

    metric: str  #: 'bleu', 'chrf' or 'ter'
    name: str  #: the constructor's keyword (``smooth_method``)
    default: object  #: the constructor's default (tests pin it against sacreBLEU's)
    flag: str  #: sacrebleu's command-line flag (``--smooth-method``)
    short: str | None  #: its short flag (``-s``), if any
    words: str  #: what it does, for help texts, notes and reports
    choices: tuple = ()  #: the allowed values of a choice option
    low: int | None = None  #: the smallest value of an integer option (its widget's range)
    high: int | None = None


#: sacreBLEU 2.6's options of BLEU, chrF and TER with their constructor defaults
#: (``inspect.signature(sacrebleu.metrics.BLEU)`` etc.; tests/mt/test_sacrebleu_options.py
#: pins them) and the flags of ``sacrebleu --help``. ``tokenize=None`` is sacreBLEU's
#: "by target language" (:func:`stats.mt.tokenize_options.default_tokenizer`).
SACREBLEU_OPTIONS: tuple[SacrebleuOption, ...] = (
    SacrebleuOption("bleu", "tokenize", None, "--tokenize", "-tok", "tokenizer"),
    SacrebleuOption("bleu", "lowercase", False, "--lowercase", "-lc", "lowercase the data"),
    SacrebleuOption("bleu", "smooth_method", "exp", "--smooth-method", "-s", "smoothing",
           choices=("exp", "floor", "add-k", "none")),  # fmt: skip
    SacrebleuOption("bleu", "smooth_value", None, "--smooth-value", "-sv",
           "smoothing value for floor (0.1) and add-k (1)"),  # fmt: skip
    SacrebleuOption("chrf", "char_order", 6, "--chrf-char-order", "-cc", "character n-gram order",
           low=1, high=10),  # fmt: skip
    SacrebleuOption("chrf", "word_order", 0, "--chrf-word-order", "-cw", "word n-gram order (2 = chrF++)",
           low=0, high=4),  # fmt: skip
    SacrebleuOption("chrf", "beta", 2, "--chrf-beta", None, "recall weight beta", low=1, high=5),
    SacrebleuOption("chrf", "whitespace", False, "--chrf-whitespace", None,
           "keep whitespace in character n-grams"),  # fmt: skip
    SacrebleuOption("chrf", "lowercase", False, "--chrf-lowercase", None, "lowercase the data"),
    SacrebleuOption("chrf", "eps_smoothing", False, "--chrf-eps-smoothing", None,
           "eps smoothing (chrF++.py/NLTK/Moses) instead of effective order"),  # fmt: skip
    SacrebleuOption("ter", "case_sensitive", False, "--ter-case-sensitive", None,
           "keep case (default: lowercase)"),  # fmt: skip
    SacrebleuOption("ter", "normalized", False, "--ter-normalized", None,
           "basic normalization and tokenization"),  # fmt: skip
    SacrebleuOption("ter", "no_punct", False, "--ter-no-punct", None, "remove punctuation"),
    SacrebleuOption("ter", "asian_support", False, "--ter-asian-support", None,
           "tokenize Asian characters"),  # fmt: skip
)

#: The BLEU tokenizer of the WMT22 and WMT23 general-task organisers' released automatic scores
#: (scores/automatic-scores.tsv of wmt-conference/wmt22-news-systems and of
#: wmt-conference/wmt23-news-systems) per target language where it is not sacreBLEU's default:
#: ``char`` for Japanese. No signature is printed with those BLEU scores; ``char`` is what
#: reproduces them: sacreBLEU 2.6.0 on the outputs and reference the same repositories release
#: (txt/) matches every en-ja system's BLEU there to 1e-6 with ``char`` (13 systems in WMT22,
#: 16 in WMT23; WMT23 ONLINE-B 40.2305, WMT22 Online-B 41.1660) and none with ``ja-mecab``
#: (25.29 and 26.54) or ``zh``; every en-zh one with ``zh``, sacreBLEU's default. Not WMT's
#: official ranking (the organisers rank by human evaluation), and not the only organisers'
#: table: their separate "unofficial" automatic evaluation of WMT23 (scores/autoWMT23.tex in
#: the same repository) used ``ja-mecab``. Every other target: sacreBLEU's default (``13a``);
#: WMT22/23 had no Korean target.
WMT_RELEASED_TOKENIZERS = {"ja": "char"}


def sacrebleu_defaults(metric: str) -> dict:
    """sacreBLEU's default options of ``metric`` (``'bleu'``, ``'chrf'``, ``'ter'``)."""
    return {o.name: o.default for o in SACREBLEU_OPTIONS if o.metric == metric}


def non_default_options(metric: str, options: Mapping | None) -> dict:
    """The options that differ from sacreBLEU's defaults (``None`` values dropped)."""
    base = sacrebleu_defaults(metric)
    return {
        k: v
        for k, v in dict(options or {}).items()
        if v is not None and (k not in base or base[k] != v)
    }


def _target(lp: str | None) -> str:
    if lp and "-" in lp:
        from stats._core.language_pairs import target_language

        return (target_language(lp) or "").lower()
    return (lp or "").lower()


def wmt_released_tokenizer(lp: str | None) -> str | None:
    """The BLEU tokenizer of the WMT22/WMT23 organisers' released automatic scores
    (:data:`WMT_RELEASED_TOKENIZERS`) for the target of ``lp`` (``'en-ja'`` or ``'ja'``) when it
    differs from sacreBLEU's default; ``None`` otherwise."""
    return WMT_RELEASED_TOKENIZERS.get(_target(lp))


def wmt_tokenizer_note(lp: str | None, tokenize: str | None) -> str | None:
    """One line when BLEU's tokenizer ``tokenize`` differs from what the WMT22/WMT23 organisers'
    released automatic scores used for the target language of ``lp``; ``None`` when they agree
    or those scores used sacreBLEU's default."""
    released = wmt_released_tokenizer(lp)
    if released is None or tokenize == released:
        return None
    return (
        f"BLEU tokenizer {tokenize}: the WMT22/WMT23 organisers' released automatic scores "
        f"used {released} for {_target(lp)} targets, so these BLEU scores (and possibly the "
        f"ranking) differ from theirs; --tokenize {released} (on the page: \"As WMT's "
        "released scores\") scores as they did"
    )


def _value_words(option: SacrebleuOption, value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "by target language" if option.name == "tokenize" else "default"
    return str(value)


def describe_options(metric: str, options: Mapping | None = None) -> str:
    """The options of ``metric`` in words, every option named (``'tokenizer: char;
    lowercase the data: no; smoothing: exp; ...'``), sacreBLEU's defaults filled in."""
    values = {**sacrebleu_defaults(metric), **{k: v for k, v in dict(options or {}).items()}}
    parts = []
    for option in SACREBLEU_OPTIONS:
        if option.metric != metric:
            continue
        value = values.get(option.name)
        if option.name == "smooth_value" and value is None:
            continue
        parts.append(f"{option.words}: {_value_words(option, value)}")
    return "; ".join(parts)


def sacrebleu_signature(metric: str, options: Mapping | None = None, *, n_refs: int = 1) -> str:
    """sacreBLEU's signature of ``metric`` with ``options`` and ``n_refs`` references, as
    ``sacrebleu`` prints it: its metric object's ``get_signature().format()`` (BLEU's
    ``tokenize`` must be given; see :func:`stats.mt.tokenize_options.resolve_options`)."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    cls = {"bleu": BLEU, "chrf": CHRF, "ter": TER}[metric]
    scorer = cls(**dict(options or {}))
    scorer.num_refs = int(n_refs)  # what sacreBLEU sets when it reads the references
    return scorer.get_signature().format()
