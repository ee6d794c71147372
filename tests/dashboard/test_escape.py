"""User-supplied names must print literally in Streamlit messages (no Markdown/KaTeX/HTML)."""

import re

from dashboard.components import escape_markdown


def _unescape(text: str) -> str:
    # CommonMark: a backslash before ASCII punctuation yields the punctuation itself
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def test_formatting_characters_are_escaped():
    raw = "**BOLD** _it_ $x^2$ <img src=x onerror=alert(1)> [link](u) `code` ~~s~~ a|b # h"
    out = escape_markdown(raw)
    for ch in "*_$<>[]`~|#":
        # every special character is preceded by a backslash
        assert all(out[i - 1] == "\\" for i, c in enumerate(out) if c == ch)
    assert _unescape(out) == raw  # renders back to exactly the user's text


def test_plain_messages_are_unchanged():
    msg = "human.tsv, line 3, column SCORE: 'abc' is not a number"
    assert escape_markdown(msg) == msg


def test_list_markers_and_shortcodes_are_inert():
    assert escape_markdown("- x") == "\\- x" and escape_markdown("12. x") == "12\\. x"
    assert escape_markdown("a - b") == "a - b"
    shown = escape_markdown(":material/warning: :smile:")
    assert ":material/warning:" not in shown and ":smile:" not in shown


def test_bare_links_are_broken_by_an_invisible_word_joiner():
    # GFM finds http://, www. and a@b.c in the text after escapes are resolved
    for raw in ("http://m.test/x", "HTTPS://m.test", "www.m.test", "me@m.test", "ftp://m.test"):
        shown = _unescape(escape_markdown(raw))
        assert "\u2060" in shown and shown.replace("\u2060", "") == raw
