"""QE tables and judgements whose columns the parser reads straight as numbers and integer
ids (stats.readers._qe_plain.typed_table, the judgements' scores) read as the string columns
and the careful path read them: the same frames, the same refusals, for the spellings where
the parser and the number rule could part (leading zeros, signs, exponents, hexadecimal,
padding, long numbers)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from stats import StatsInputError
from stats.readers import _qe_plain, qe, read_post_edit, read_qe
from tests.readers._same import assert_same_outcome

ROWS = 120


def _outcome(read, data):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return read(data, name="f")
    except StatsInputError as exc:
        return str(exc)


def _three_ways(monkeypatch, read, data):
    """What the typed path, the string columns and the careful path read of ``data``."""
    typed = []
    real = _qe_plain.typed_table
    monkeypatch.setattr(_qe_plain, "typed_table",
                        lambda *a, **k: typed.append(real(*a, **k)) or typed[-1])
    fast = _outcome(read, data)
    monkeypatch.setattr(_qe_plain, "typed_table", lambda *a, **k: None)
    strings = _outcome(read, data)
    monkeypatch.setattr(qe, "plain_bytes", lambda *a, **k: False)
    careful = _outcome(read, data)
    monkeypatch.undo()
    return fast, strings, careful, any(t is not None for t in typed)


def _post_edit(ids, time=None, words=None):
    rng = np.random.default_rng(1)
    time = time or [f"{v:.2f}" for v in rng.random(len(ids)) * 60]
    words = words or [str(v) for v in rng.integers(1, 40, len(ids))]
    rows = "".join(f"{i}\t{t}\t{w}\n" for i, t, w in zip(ids, time, words, strict=True))
    return ("SID\tTIME\tWORDS\n" + rows).encode()


def _wide(ids, gold=None):
    rng = np.random.default_rng(2)
    gold = gold or [f"{v:.6f}" for v in rng.random(len(ids))]
    rows = "".join(f"{i},{g},{a:.6f},{b:.6f}\n"
                   for i, g, a, b in zip(ids, gold, rng.random(len(ids)), rng.random(len(ids)),
                                         strict=True))  # fmt: skip
    return ("sid,gold,A,B\n" + rows).encode()


def _long(ids, score=None):
    rng = np.random.default_rng(3)
    human = {i: f"{v:.6f}" for i, v in zip(ids, rng.random(len(ids)), strict=True)}
    score = score or [f"{v:.6f}" for v in rng.random(2 * len(ids))]
    rows = [f"{s}\t{i}\t{score[k * len(ids) + j]}\t1\t{human[i]}\n"
            for k, s in enumerate(("S1", "S2")) for j, i in enumerate(ids)]  # fmt: skip
    return ("METRIC\tSID\tSCORE\tRANK\tHUMAN\n" + "".join(rows)).encode()


PLAIN = [str(i) for i in range(1, ROWS + 1)]
SHUFFLED = [str(i) for i in np.random.default_rng(4).permutation(np.arange(ROWS))]
ZEROS = [f"{i:05d}" for i in range(1, ROWS + 1)]
NUMBERS = ["+1.5", "1e-3", ".5", "5.", "1E+02", "0"] * (ROWS // 6)


@pytest.mark.parametrize("layout", ["post-edit", "wide", "long"])
@pytest.mark.parametrize(
    "case",
    ["plain", "shuffled", "zeros", "numbers", "repeat", "hex", "padded", "long number",
     "negative", "nan", "huge", "big id"],
)
def test_typed_columns_read_as_strings_and_lines(monkeypatch, layout, case):
    ids, values = list(PLAIN), None
    if case == "shuffled":
        ids = list(SHUFFLED)
    elif case == "zeros":
        ids = list(ZEROS)
    elif case == "numbers":
        values = list(NUMBERS)
    elif case == "repeat":
        ids[7] = "007" if layout != "long" else ids[7]
        ids[9] = ids[8] if layout != "long" else ids[9]
    elif case == "hex":
        ids[5] = "0x10"
    elif case == "padded":
        ids[5] = " 6"
    elif case == "long number":
        values = ["0." + "0" * 400 + "1"] + ["0.5"] * (ROWS - 1)
    elif case == "negative":
        ids[5] = "-6"
    elif case == "nan":
        values = ["nan"] + ["0.5"] * (ROWS - 1)
    elif case == "huge":
        values = ["1e300"] + ["0.5"] * (ROWS - 1)
    elif case == "big id":
        ids[5] = "1" + "0" * 18
    if layout == "post-edit":
        data, read = _post_edit(ids, time=values), read_post_edit
    elif layout == "wide":
        data, read = _wide(ids, gold=values), read_qe
    else:
        data, read = _long(ids, score=values and values * 2), read_qe
    fast, strings, careful, typed = _three_ways(monkeypatch, read, data)
    assert_same_outcome(fast, strings)
    assert_same_outcome(fast, careful)
    if case in ("plain", "shuffled", "zeros", "numbers"):
        assert typed and not isinstance(fast, str)  # read by the typed path


@pytest.mark.parametrize(
    "score", ["+5", ".5", "5.", "1E+02", "nan", "inf", "1e400", "1e300", " 7", "0x10", "",
              "0." + "0" * 400 + "1", "x"],
)
def test_judgement_scores_parsed_as_numbers_read_as_lines(monkeypatch, score):
    from stats.readers import judgements, read_judgements

    rows = [f"S{k % 3}\t{k}\tw{k % 5}\tadequacy\t{k % 100}\n" for k in range(ROWS)]
    rows[40] = f"S1\t40\tw0\tadequacy\t{score}\n"
    data = ("SYSTEM\tSEGMENT\tANNOTATOR\tCRITERION\tSCORE\n" + "".join(rows)).encode()
    fast = _outcome(read_judgements, data)
    monkeypatch.setattr(judgements, "plain_bytes", lambda *a, **k: False)
    assert_same_outcome(fast, _outcome(read_judgements, data))


@pytest.mark.parametrize(
    "score", ["+5", ".5", "5.", "1E+02", "nan", "inf", "1e400", "1e300", "0x10", "None",
              "0." + "0" * 400 + "1", "x", "none", "NA"],
)
@pytest.mark.parametrize("sep", ["\t", " "])
def test_mqm_average_scores_parsed_as_numbers_read_as_lines(monkeypatch, score, sep):
    from stats.readers import mqm_google, read_mqm_averages

    rows = [sep.join(("None" if k == 7 and score == "x" else f"S{k % 3}", f"{-k / 50:.4f}",
                      str(k))) + "\n" for k in range(ROWS)]  # fmt: skip
    rows[40] = sep.join(("S1", score, "40")) + "\n"
    rows[41] = sep.join(("S2", "None", "41")) + "\n"
    data = (sep.join(("system", "mqm_avg_score", "seg_id")) + "\n" + "".join(rows)).encode()
    fast = _outcome(read_mqm_averages, data)
    monkeypatch.setattr(mqm_google, "plain_bytes", lambda *a, **k: False)
    assert_same_outcome(fast, _outcome(read_mqm_averages, data))
