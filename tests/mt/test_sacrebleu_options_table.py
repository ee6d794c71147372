"""The one table of sacreBLEU's options (stats.mt.sacrebleu_options): its defaults are
sacreBLEU's constructors' (read live), the CLI and the dashboard read it, the signature is
sacreBLEU's own string, and the WMT note appears exactly when the tokenizer differs from the
one the WMT22/WMT23 organisers' released automatic scores used (Japanese: char)."""

from __future__ import annotations

import inspect
import json

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

from stats.cli import build_parser, main
from stats.cli._sacrebleu_options import metric_options
from stats.mt.sacrebleu_options import (
    SACREBLEU_OPTIONS,
    describe_options,
    non_default_options,
    sacrebleu_defaults,
    sacrebleu_signature,
    wmt_tokenizer_note,
)

CLASSES = {"bleu": BLEU, "chrf": CHRF, "ter": TER}


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_defaults_are_sacrebleus(metric):
    params = inspect.signature(CLASSES[metric]).parameters
    for name, value in sacrebleu_defaults(metric).items():
        assert params[name].default == value, (metric, name)
    # every sacreBLEU option with a command-line flag is in the table
    skip = {"references", "trg_lang", "force", "max_ngram_order", "effective_order"}
    assert set(params) - skip == set(sacrebleu_defaults(metric))


def test_cli_defaults_come_from_the_table():
    args = build_parser().parse_args(["randomized", "--ref", "r", "--hyp", "a", "b"])
    got = metric_options(args)
    for metric in ("chrf", "ter"):
        assert got[metric] == sacrebleu_defaults(metric)
    assert "tokenize" not in got["bleu"]  # the language pair decides
    assert {k: v for k, v in sacrebleu_defaults("bleu").items() if k != "tokenize"} == got["bleu"]
    assert all(o.flag.startswith("--") for o in SACREBLEU_OPTIONS)


@pytest.mark.parametrize(
    ("metric", "options", "n_refs"),
    [
        ("bleu", {"tokenize": "char"}, 1),
        ("bleu", {"tokenize": "ja-mecab", "lowercase": True}, 2),
        ("chrf", {"word_order": 2}, 3),
        ("ter", {"case_sensitive": True}, 1),
    ],
)
def test_signature_is_sacrebleus_own(metric, options, n_refs):
    # as sacrebleu computes it when scoring (the references set num_refs)
    scorer = CLASSES[metric](**options)
    refs = [["a b c"] for _ in range(n_refs)]
    scorer.corpus_score(["a b c"], refs)
    assert sacrebleu_signature(metric, options, n_refs=n_refs) == scorer.get_signature().format()


def test_describe_and_non_default():
    words = describe_options("bleu", {"tokenize": "char"})
    assert "tokenizer: char" in words and "smoothing: exp" in words
    assert "word n-gram order (2 = chrF++): 2" in describe_options("chrf", {"word_order": 2})
    assert non_default_options("chrf", {"word_order": 0, "beta": 3}) == {"beta": 3}


def test_wmt_note_for_japanese_only():
    note = wmt_tokenizer_note("en-ja", "ja-mecab")
    # what the organisers released (their automatic-scores.tsv), not an "official" ranking
    assert "char" in note and "released automatic scores" in note and "official" not in note
    assert wmt_tokenizer_note("en-ja", "char") is None
    assert wmt_tokenizer_note("en-zh", "zh") is None
    assert wmt_tokenizer_note("en-de", "13a") is None
    assert wmt_tokenizer_note(None, "13a") is None


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_cli_notes_the_wmt_tokenizer(tmp_path, capsys):
    ref = _write(tmp_path / "generaltest2023.en-ja.ref.refA.ja", ["今日は良い天気です。"] * 3)
    a = _write(tmp_path / "generaltest2023.en-ja.hyp.ONLINE-B.ja", ["今日は良い天気。"] * 3)
    b = _write(tmp_path / "generaltest2023.en-ja.hyp.ONLINE-W.ja", ["今日は天気です。"] * 3)
    argv = ["randomized", "--ref", str(ref), "--hyp", str(a), str(b), "--resamples", "20"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert "tok:ja-mecab" in doc["signature"]
    assert "char" in doc["tokenizer_note"]
    assert err.count("note: BLEU tokenizer ja-mecab") == 1
    assert main([*argv, "--tokenize", "char"]) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert "tok:char" in doc["signature"] and "tokenizer_note" not in doc
    assert "note:" not in err
