"""sacreBLEU's metric options on the command line, under sacreBLEU's own names and defaults
(``sacrebleu --help``), from the one table the dashboard reads too
(:data:`stats.mt.sacrebleu_options.SACREBLEU_OPTIONS`): BLEU's ``--tokenize``/``--lowercase``/``--smooth-*``, chrF's
``--chrf-*`` and TER's ``--ter-*``. Used by ``randomized`` and ``accuracy``."""

from __future__ import annotations

import argparse

from stats.mt.sacrebleu_options import SACREBLEU_OPTIONS
from stats.mt.tokenize_options import TOKENIZERS

#: sacreBLEU 2.6's tokenizers (from an import-light module: ``--help`` loads no sacreBLEU)
TOKENIZER_CHOICES = TOKENIZERS


def add_sacrebleu_options(parser: argparse.ArgumentParser, *, lp: bool = False) -> None:
    """Add the sacreBLEU metric options (a group of their own); with ``lp``, also ``--lp``."""
    g = parser.add_argument_group(
        "sacreBLEU metric options (--ref/--hyp text; names and defaults as sacrebleu's)"
    )
    if lp:
        g.add_argument(
            "--lp",
            metavar="LP",
            help="the language pair, whose target language "
            "sets the default tokenizer (default: read from the file names)",
        )
    for option in SACREBLEU_OPTIONS:
        flags = [option.flag] + ([option.short] if option.short else [])
        label = {"bleu": "BLEU", "chrf": "chrF", "ter": "TER"}[option.metric]
        if option.name == "tokenize":
            g.add_argument(
                *flags,
                choices=TOKENIZER_CHOICES,
                metavar="TOK",
                help="BLEU tokenizer: " + ", ".join(TOKENIZER_CHOICES) + " (default: zh, "
                "ja-mecab or ko-mecab for a zh/ja/ko target from --lp or the file names, "
                "else 13a; the WMT22/WMT23 organisers' released automatic scores used char for "
                "Japanese)",
            )
        elif isinstance(option.default, bool):
            g.add_argument(*flags, action="store_true", help=f"{label}: {option.words}")
        elif option.choices:
            g.add_argument(
                *flags,
                choices=list(option.choices),
                default=option.default,
                help=f"{label} {option.words} (default {option.default})",
            )
        else:
            kind = float if option.name == "smooth_value" else int
            g.add_argument(
                *flags,
                type=kind,
                default=option.default,
                metavar="V" if kind is float else "N",
                help=f"{label} {option.words}"
                + (f" (default {option.default})" if option.default is not None else ""),
            )


def metric_options(args: argparse.Namespace) -> dict[str, dict]:
    """sacreBLEU constructor keyword arguments per text metric, from parsed arguments (BLEU's
    ``tokenize`` only when given: the language pair decides otherwise)."""
    out: dict[str, dict] = {"bleu": {}, "chrf": {}, "ter": {}}
    for option in SACREBLEU_OPTIONS:
        value = getattr(args, option.flag[2:].replace("-", "_"))  # argparse's dest
        if option.name == "tokenize" and value is None:
            continue
        out[option.metric][option.name] = value
    return out
