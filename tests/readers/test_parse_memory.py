"""Parsing within the memory budget: a file whose text times
PARSE_MEMORY_FACTOR exceeds the budget is refused before it is parsed, naming the file; the
lazy line splitters give exactly what ``str.splitlines`` and ``io.StringIO`` give.
(benchmarks/parse_memory.py measures each reader's peak against the file's size.)"""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stats import StatsInputError, limited_budget
from stats.readers._common import PARSE_MEMORY_FACTOR, iter_splitlines, text_lines
from stats.readers.appraise import read_appraise
from stats.readers.qe_wmt import read_qe_submissions
from stats.readers.qe_word import read_word_submissions

_APPRAISE = "".join(f"u{k},sysA,{k},TGT,eng,deu,{50 + k},doc1\n" for k in range(20)).encode()
_QE = "".join(f"en-de\tm1\t{k}\t0.{k}\n" for k in range(20)).encode()
_WORD = "".join(f"en-de\tm1\tmt\t0\t{k}\tw{k}\tOK\n" for k in range(20)).encode()


@pytest.mark.parametrize(
    ("read", "data"),
    [(read_appraise, _APPRAISE), (read_qe_submissions, _QE), (read_word_submissions, _WORD)],
)
def test_a_file_over_the_memory_budget_is_refused_before_parsing(read, data):
    name = "big.tsv"
    with limited_budget(max_memory=PARSE_MEMORY_FACTOR * len(data) - 1):
        with pytest.raises(StatsInputError, match="reading big.tsv"):
            read(data, name=name) if read is read_appraise else read([data], names=[name])
    with limited_budget(max_memory=PARSE_MEMORY_FACTOR * len(data) + 1):
        got = read(data, name=name) if read is read_appraise else read([data], names=[name])
    assert got is not None


_CHARS = st.text(alphabet="ab \t,\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", max_size=30)


@given(_CHARS)
def test_iter_splitlines_is_splitlines(text):
    assert list(iter_splitlines(text)) == text.splitlines()


@given(_CHARS)
def test_text_lines_is_iterating_a_stringio(text):
    assert list(text_lines(text)) == list(io.StringIO(text))
