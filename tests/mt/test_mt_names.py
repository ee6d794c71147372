"""Short system names and the language pair from MT output file names as WMT publishes them
(stats.readers.mt_names), and the reader that uses them."""

from __future__ import annotations

import pytest

from stats._core.language_pairs import target_language
from stats.readers import read_parallel
from stats.readers.mt_names import language_pair_from_names, short_system_names

WMT23 = [f"generaltest2023.en-de.hyp.{s}.de" for s in ("ONLINE-W", "AIRC", "Claude-3.5", "GPT4-5shot")]
WMT24 = [f"wmt24/system-outputs/en-de/{s}.txt" for s in ("ONLINE-W", "IOL_Research", "Aya23")]


def test_wmt23_names():
    assert list(short_system_names(WMT23).values()) == ["ONLINE-W", "AIRC", "Claude-3.5",
                                                        "GPT4-5shot"]


def test_wmt24_names():
    assert list(short_system_names(WMT24).values()) == ["ONLINE-W", "IOL_Research", "Aya23"]


@pytest.mark.parametrize(
    ("paths", "names"),
    [
        (["x.txt"], ["x"]),
        (["generaltest2023.en-de.hyp.ONLINE-W.de"], ["generaltest2023.en-de.hyp.ONLINE-W"]),
        (["A.txt", "B.txt"], ["A", "B"]),
        (["a.txt", "a.b.txt"], ["a", "a.b"]),  # every name keeps a part
        (["sys.de", "sys.ja"], ["de", "ja"]),  # only what differs
        (["en-de/x.txt", "en-cs/x.txt"], ["en-de/x", "en-cs/x"]),  # unique by directory
        (["C:\\wmt\\A.de", "C:\\wmt\\B.de"], ["A", "B"]),
    ],
)
def test_rules(paths, names):
    assert list(short_system_names(paths).values()) == names


@pytest.mark.parametrize(
    ("names", "lp"),
    [
        (WMT23, "en-de"),
        (WMT24, "en-de"),
        (["generaltest2023.en-ja.ref.refA.ja", *[n.replace("en-de", "en-ja") for n in WMT23]],
         "en-ja"),
        (["system-outputs/en-de_DE/x.txt"], "en-de"),
        (["ONLINE-W.txt", "gpt-4.txt", "Claude-3.5.txt"], None),
        (["a.en-de.txt", "b.en-cs.txt"], None),  # disagree: no guess
        ([], None),
    ],
)
def test_language_pair(names, lp):
    assert language_pair_from_names(names) == lp


def test_target_language():
    assert target_language("en-ja") == "ja" and target_language("x") is None
    assert target_language(None) is None


def test_reader_uses_short_names_and_any_extension():
    ref = ("generaltest2023.en-de.ref.refA.de", b"a b\nc d\n")
    hyps = [(n, b"a b\nc\n") for n in WMT23]
    _, got = read_parallel([ref], hyps)
    assert list(got) == ["ONLINE-W", "AIRC", "Claude-3.5", "GPT4-5shot"]
