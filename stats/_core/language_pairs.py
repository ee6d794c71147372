"""Language pairs as WMT writes them (``en-de``, ``en-ja``, ``cs-uk``, ``en-de_DE``,
``eng-deu``; not ``ONLINE-W`` or ``gpt-4``): the pattern, and the target language, which the
readers read from file names and :mod:`stats.mt` reads BLEU's default tokenizer from."""

from __future__ import annotations

import re

__all__ = ["LANGUAGE_PAIR", "target_language"]

#: a language pair inside a name: groups 1 and 2 are the source and target languages
LANGUAGE_PAIR = re.compile(
    r"(?<![A-Za-z0-9])([a-z]{2,3})-([a-z]{2,3})(?:_[A-Z]{2})?(?![A-Za-z0-9])"
)


def target_language(lp: str | None) -> str | None:
    """The target language of a pair such as ``'en-ja'`` (``'ja'``); None for None or a
    string that is not a pair."""
    if not lp:
        return None
    m = LANGUAGE_PAIR.fullmatch(str(lp).strip())
    return m.group(2) if m else None
