"""sacreBLEU's metric options on the command line, under sacreBLEU's own names and defaults
(``sacrebleu --help``): BLEU's ``--tokenize``/``--lowercase``/``--smooth-*``, chrF's
``--chrf-*`` and TER's ``--ter-*``. Used by ``randomized`` and ``accuracy``."""

from __future__ import annotations

import argparse

from stats.mt._tokenize_options import TOKENIZERS

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
    g.add_argument(
        "--tokenize",
        "-tok",
        choices=TOKENIZER_CHOICES,
        metavar="TOK",
        help="BLEU tokenizer: " + ", ".join(TOKENIZER_CHOICES) + " (default: zh, "
        "ja-mecab or ko-mecab for a zh/ja/ko target from --lp or the file names, "
        "else 13a)",
    )
    g.add_argument("--lowercase", "-lc", action="store_true", help="BLEU: lowercase the data")
    g.add_argument(
        "--smooth-method",
        "-s",
        choices=["none", "floor", "add-k", "exp"],
        default="exp",
        help="BLEU smoothing (default exp)",
    )
    g.add_argument(
        "--smooth-value",
        "-sv",
        type=float,
        default=None,
        metavar="V",
        help="BLEU smoothing value for floor (0.1) and add-k (1)",
    )
    g.add_argument(
        "--chrf-char-order",
        "-cc",
        type=int,
        default=6,
        metavar="N",
        help="chrF character n-gram order (default 6)",
    )
    g.add_argument(
        "--chrf-word-order",
        "-cw",
        type=int,
        default=0,
        metavar="N",
        help="chrF word n-gram order (default 0; 2 = chrF++)",
    )
    g.add_argument(
        "--chrf-beta", type=int, default=2, metavar="B", help="chrF recall weight beta (default 2)"
    )
    g.add_argument(
        "--chrf-whitespace", action="store_true", help="chrF: keep whitespace in character n-grams"
    )
    g.add_argument("--chrf-lowercase", action="store_true", help="chrF: lowercase the data")
    g.add_argument(
        "--chrf-eps-smoothing",
        action="store_true",
        help="chrF: chrF++.py/NLTK/Moses eps smoothing instead of effective order",
    )
    g.add_argument(
        "--ter-case-sensitive", action="store_true", help="TER: keep case (default: lowercase)"
    )
    g.add_argument(
        "--ter-asian-support", action="store_true", help="TER: tokenize Asian characters"
    )
    g.add_argument("--ter-no-punct", action="store_true", help="TER: remove punctuation")
    g.add_argument(
        "--ter-normalized",
        action="store_true",
        help="TER: apply basic normalization and tokenization",
    )


def metric_options(args: argparse.Namespace) -> dict[str, dict]:
    """sacreBLEU constructor keyword arguments per text metric, from parsed arguments."""
    out = {
        "bleu": {
            "lowercase": bool(args.lowercase),
            "smooth_method": args.smooth_method,
            "smooth_value": args.smooth_value,
        },
        "chrf": {
            "char_order": int(args.chrf_char_order),
            "word_order": int(args.chrf_word_order),
            "beta": int(args.chrf_beta),
            "lowercase": bool(args.chrf_lowercase),
            "whitespace": bool(args.chrf_whitespace),
            "eps_smoothing": bool(args.chrf_eps_smoothing),
        },
        "ter": {
            "case_sensitive": bool(args.ter_case_sensitive),
            "asian_support": bool(args.ter_asian_support),
            "no_punct": bool(args.ter_no_punct),
            "normalized": bool(args.ter_normalized),
        },
    }
    if args.tokenize is not None:
        out["bleu"]["tokenize"] = args.tokenize
    return out
