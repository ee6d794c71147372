"""Every limit against every reader and every CLI subcommand, from one table.

:data:`READERS` is the registry: one line per reader (or per format a reader tells apart),
naming how to build a small valid file whose first score cell and first name cell are given,
how to read it, and the CLI command that reads it. A new reader is added here in one line, and
then meets every limit of :data:`LIMITS` (score magnitude, non-finite values, field length,
lines, header columns, bytes) by the same shared path (``load_bytes``/``decode``/``read_table``
in :mod:`stats.readers._common`, :mod:`stats.readers._limits`).
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import stats.readers._archives as archives
import stats.readers._limits as limits
from stats import StatsInputError
from stats.cli import main
from stats.readers import (
    read_judgements,
    read_lines,
    read_meta_eval,
    read_post_edit,
    read_qe,
    read_qe_gold,
    read_segment_scores,
    read_system_scores,
)
from stats.readers.appraise import read_appraise
from stats.readers.da_segments import read_da_segment_scores
from stats.readers.documents import read_documents
from stats.readers.mqm import read_mqm
from stats.readers.mqm_google import read_mqm_averages, read_source_errors
from stats.readers.mt_text import read_mt_lines
from stats.readers.qe_wmt import read_qe_exclude, read_qe_submissions, read_qe_wmt_gold
from stats.readers.qe_word import read_word_gold, read_word_submissions
from stats.readers.wmt import read_da_system_scores
from stats.readers.wmt25 import read_wmt25_scores
from stats.readers.wmt25_metadata import read_wmt25_systems_metadata
from stats.readers.wmt25_outputs import read_wmt25_outputs
from stats.readers.wmt25_references import read_wmt25_references

ROOT = Path(__file__).resolve().parents[2]
REF = ROOT / "sample_data" / "mt" / "reference.txt"
SYSTEMS = ("sysA", "sysB", "sysC", "sysD")


def _rows(fmt, n_seg=4):
    """Rows of ``fmt`` over systems x segments; the first score cell is ``{score}`` and the
    first system name ``{name}``, both filled in by :func:`Case.text`."""
    out = []
    for k, s in enumerate(SYSTEMS):
        for j in range(1, n_seg + 1):
            out.append(fmt.format(s=s, j=j, v=f"{0.1 * k + 0.01 * j:.3f}", k=k))
    out[0] = fmt.format(s="{name}", j=1, v="{score}", k=0)
    return out


@dataclass(frozen=True)
class Case:
    """One reader (or format): ``template`` a file with ``{score}`` and ``{name}`` fields,
    ``file`` its name, ``read(path)`` the reader, ``cli(path)`` the command reading it.

    ``name``: what ``{name}`` holds in the valid file (a system, a document, a tag).
    ``companions``: other files the command needs, ``{file name: text}``, written beside it.
    They are kept within every lowered limit of :data:`LIMITS` (at most 3 lines, 2 fields on
    the first line, 40 bytes), so that the file refused is the one under test.
    ``skip``: ``{limit id: reason}`` for the limits that do not apply to the format. ``cli``
    None: no subcommand reads the format (the dashboard does).
    """

    id: str
    file: str
    template: str
    read: object
    cli: object
    name: str = "sysA"
    companions: dict = field(default_factory=dict)
    skip: dict = field(default_factory=dict)

    def text(self, score="0.5", name=None):
        name = self.name if name is None else name
        return self.template.replace("{score}", score).replace("{name}", name)


def _zip(name, text):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, text)
    return buf.getvalue()


_SEG_LONG = "SYSTEM\tSEGMENT\tSCORE\n" + "\n".join(_rows("{s}\t{j}\t{v}")) + "\n"
_WMT = (
    "METRIC\tLP\tTESTSET\tSYSTEM\tSCORE\n"
    + "\n".join(
        _rows("BLEU\tde-en\tt\t{s}\t{v}", 1)
        + [f"HUMAN\tde-en\tt\t{s}\t0.{k}" for k, s in enumerate(SYSTEMS)]
    )
    + "\n"
)
_SYS_SCORE = "\n".join(_rows("BLEU\tde-en\tnewstest\tnewstest\t{s}\t{v}", 1)) + "\n"
_DA_SYS = "RAW.SCR Z.SCR N SYS N.ALL\n" + "\n".join(_rows("70 {v} 100 {s} 100", 1)) + "\n"
_DA_SEG = "SYS SID RAW.SCR Z.SCR N\n" + "\n".join(_rows("{s} {j} 70 {v} 1")) + "\n"
_JUDGE = (
    "SYSTEM\tSEGMENT\tANNOTATOR\tCRITERION\tSCORE\n"
    + "\n".join(_rows("{s}\t{j}\tann1\tadequacy\t{v}"))
    + "\n"
)
_QE_LONG = "METRIC SID SCORE RANK HUMAN\n" + "\n".join(_rows("{s} {j} {v} {j} 0.{j}")) + "\n"
_QE_WIDE = (
    "sid,gold,{name},sysB,sysC\n"
    + "\n".join(
        f"{j},0.{j},{'{score}' if j == 1 else f'0.{j}1'},0.{j}2,0.{j}3" for j in range(1, 6)
    )
    + "\n"
)
_SEG_WIDE = (
    "SEGMENT,{name},sysB,sysC\n"
    + "\n".join(f"{j},{'{score}' if j == 1 else f'0.{j}1'},0.{j}2,0.{j}3" for j in range(1, 6))
    + "\n"
)
_META = (
    "METRIC\tLP\tTESTSET\tSYSTEM\tSEGMENT\tSCORE\n"
    + "\n".join(
        _rows("BLEU\tde-en\tt\t{s}\t{j}\t{v}")
        + _rows("HUMAN\tde-en\tt\t{s}\t{j}\t{v}")[1:]
        + ["HUMAN\tde-en\tt\tsysA\t1\t0.3"]
    )
    + "\n"
)

# ---- WMT22-25 human evaluation: Appraise exports (ESA, DA+SQM), MQM, documents file ----
_SPANS = '"[{{""start_i"": 0, ""end_i"": 2, ""severity"": ""minor""}}]"'
_APPRAISE_ESA = (
    "\n".join(_rows("ann1,{s},{j},TGT,eng,deu,{v},doc1," + _SPANS + ",1700000000,1700000060"))
    + "\n"
)
_APPRAISE_DA = (
    "user,system,segment,type,source,target,score,document\n"
    + "\n".join(_rows("ann1,{s},{j},TGT,eng,deu,{v},doc1"))
    + "\n"
)
_MQM = (
    "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    + "\n".join(
        _rows("{s}\tdoc1\t0\t{j}\trater1\tsrc {j}\ttgt {j}\tAccuracy/Mistranslation\tMinor")
    )
    + "\n"
)
#: Google's side files: per-segment averages (tab after the system, space before seg_id, as
#: newstest2021) and source errors (Google's MQM header, only Source error rows)
_MQM_AVG = "system mqm_avg_score seg_id\n" + "\n".join(_rows("{s}\t{v} {j}")) + "\n"
_MQM_SRC = (
    "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    + "\n".join(_rows("{s}\tdoc1\t0\t{j}\trater1\tsrc {j}\ttgt {j}\tSource error/-\tMinor"))
    + "\n"
)
_DOCUMENTS = "canary\tcanary-line\nnews\t{name}\n" + "news\tdoc1\n" * 3
#: one judgement (a companion file: within every lowered limit)
_APPRAISE_ONE = "ann1,sysA,1,TGT,eng,deu,0.5,doc1\n"

# ---- WMT20-24 QE: sentence-level submissions, gold (two layouts), exclude index ----
_QE_SUB = "\n".join(_rows("en-de\t{s}\t{j}\t{v}")) + "\n"
_QE_GOLD = "en-de\t{name}\t1\t{score}\n" + "".join(
    f"en-de\tgold\t{j}\t0.{j}\n" for j in range(2, 7)
)
_QE_GOLD_TABLE = (
    "index\toriginal\ttranslation\tscores\tmean\tz_scores\tz_mean\n"
    + "\n".join(
        f"{j}\t{'{name}' if j == 0 else f'source {j}'}\ttranslation {j}\t[70, 80]\t75\t"
        f"[0.1, 0.2]\t{'{score}' if j == 0 else f'0.{j}'}"
        for j in range(6)
    )
    + "\n"
)
_QE_EXCLUDE = "".join(
    f"en-de\t{j}\t{'{name}' if j == 1 else 'source'}\ttarget\n" for j in range(1, 6)
)
#: WMT21 submissions start with two header lines (disk footprint, parameters)
_QE_SUB_ONE = "1\n2\nen-de\tsysA\t1\t0.5\n"
_QE_GOLD_ONE = "1\n2\nen-de\tgold\t1\t0.5\n"

# ---- word-level QE: submissions, gold TSV (WMT22-23), plain tags (WMT20-21) ----
_WORD_SUB = "\n".join(_rows("en-de\t{s}\tmt\t{j}\t0\tw{j}\tOK")) + "\n"
_WORD_GOLD_TSV = "lp\tgold\tsegid\ttarget\ttokens\ttags\n" + "".join(
    f"en-de\tgold\t{j}\t{'{name}' if j == 1 else 'w'} x\tw{j} x\tOK BAD\n" for j in range(1, 6)
)
_WORD_TAGS = "{name} OK BAD OK\n" + "OK BAD OK OK\n" * 4
_WORD_SUB_ONE = "1\n2\nen-de\tsysA\tmt\t1\t0\tw\tOK\n"
_WORD_GOLD_ONE = "OK BAD\n"

# ---- MT outputs and references as plain text (sacreBLEU's reading) ----
_MT = "{name} sat on the mat .\n" + "A dog barked at the cat .\n" * 4

# ---- Graham (2015) QE: gold labels of a WMT14 submission, post-editing table ----
_QE14_GOLD = "{name}\t{score}\n" + "".join(f"{j}\t0.{j}\n" for j in range(2, 10))
_QE14_SUB_ONE = "sysA\t1\t0.5\t1\n"  # METHOD SEGMENT SCORE RANK
_POST_EDIT = "SID\tTIME\tWORDS\tHTER\n{name}\t{score}\t10\t0.1\n" + "".join(
    f"{j}\t{j}.5\t10\t0.{j}\n" for j in range(2, 7)
)
_QE_WIDE_ONE = "sid,gold,a\n1,0.5,0.5\n"

#: the reasons a limit does not apply to a format
_NO_SCORE = "no score in this format (names, categories or tags only)"
_SCORE_SKIPS = dict.fromkeys(("magnitude", "overflow", "infinite", "nan"), _NO_SCORE)

_RAND = ["randomized", "--resamples", "10", "--scores"]


def _one_file(reader):
    """``reader`` (which takes a sequence of files) on one path, under the reader's own name
    (the registry is keyed by it)."""

    def read(path):
        return reader([path])

    read.__name__ = reader.__name__
    return read


# ---- WMT25: automatic scores and system outputs, one SYSTEM.jsonl per system ----
#: ``{name}`` a document id, ``{score}`` a paragraph's metric value (written as JSON)
_WMT25_SCORES = "".join(
    '{"language_pair": "en-de_DE", "domain": "news", "document_id": "'
    + ("{name}" if j == 1 else f"d{j}")
    + '", "metric_scores": {"XCOMET-XL": ['
    + ("{score}" if j == 1 else f"0.{j}")
    + ", 0.5]}}\n"
    for j in range(1, 6)
)
_WMT25_OUTPUTS = "".join(
    '{"doc_id": "en-de_DE_#_news_#_' + ("{name}" if j == 1 else f"d{j}")
    + '", "hypothesis": "Ein Satz."}\n'
    for j in range(1, 6)
)
_NO_COLUMNS = "JSON lines: named fields, no header columns"
_WMT25_METADATA = (
    '{\n  "{name}": {"constrained": true,\n   "supported_lps": {"en-de_DE": "supported"}},\n'
    '  "B": {"lps": ["en-de_DE"]},\n  "C": {"lps": ["en-de_DE"]}\n}\n'
)
_WMT25_REFERENCES = "".join(
    '{"doc_id": "en-de_DE_#_news_#_' + ("{name}" if j == 1 else f"d{j}")
    + '", "collection_id": "general", "src_text": "A.", "refs": {"refA": {"ref": "Ein Satz."}}}\n'
    for j in range(1, 6)
)
_WIL = ["williams", "--scores"]

#: the registry: one line per reader or format (id, file name, template, reader, CLI command)
READERS = [
    Case("segments-long", "s.tsv", _SEG_LONG, read_segment_scores, lambda p: [*_RAND, p]),
    Case(
        "segments-headerless",
        "s.tsv",
        _SEG_LONG.split("\n", 1)[1],
        read_segment_scores,
        lambda p: [*_RAND, p],
    ),
    Case("segments-wide", "s.csv", _SEG_WIDE, read_segment_scores, lambda p: [*_RAND, p]),
    Case("system-wmt", "m.tsv", _WMT, read_system_scores, lambda p: [*_WIL, p]),
    Case(
        "system-sys-score",
        "BLEU.sys.score",
        _SYS_SCORE,
        read_system_scores,
        lambda p: ["williams", "--human", p, "--metrics", p],
    ),
    Case("system-zip", "m.zip", _WMT, read_system_scores, lambda p: [*_WIL, p]),
    Case(
        "da-system",
        "ad-sys-scores-de-en.csv",
        _DA_SYS,
        read_da_system_scores,
        lambda p: ["williams", "--human", p, "--metrics", p],
    ),
    Case(
        "da-segments",
        "ad-seg-scores-de-en.csv",
        _DA_SEG,
        read_da_segment_scores,
        lambda p: ["human", "--human", p],
    ),
    Case(
        "judgements",
        "j.tsv",
        _JUDGE,
        read_judgements,
        lambda p: ["accuracy", "--human", p, "--ref", REF, "--hyp", REF],
    ),
    Case("qe-long", "q.txt", _QE_LONG, read_qe, lambda p: ["qe", "--data", p]),
    Case("qe-wide", "q.csv", _QE_WIDE, read_qe, lambda p: ["qe", "--data", p]),
    Case(
        "meta-long",
        "meta.tsv",
        _META,
        read_meta_eval,
        lambda p: ["meta-eval", "--data", p, "--level", "seg", "--correlation", "pearson"],
    ),
    Case(
        "appraise-esa", "esa.csv", _APPRAISE_ESA, read_appraise, lambda p: ["human", "--human", p]
    ),
    Case(
        "appraise-da-sqm",
        "dasqm.csv",
        _APPRAISE_DA,
        read_appraise,
        lambda p: ["human", "--human", p],
    ),
    Case(
        "mqm",
        "mqm.en-de.tsv",
        _MQM,
        read_mqm,
        lambda p: ["human", "--human", p],
        skip=_SCORE_SKIPS,
    ),
    Case(
        "mqm-averages",
        "mqm_ted_ende.avg_seg_scores.tsv",
        _MQM_AVG,
        read_mqm_averages,
        lambda p: ["human", "--human", p],
    ),
    Case(
        "mqm-source-errors",
        "mqm_newstest2020_ende.source-errors.tsv",
        _MQM_SRC,
        read_source_errors,
        lambda p: ["human", "--human", p],
        skip=_SCORE_SKIPS,
    ),
    Case(
        "wmt25-scores",
        "sysA.jsonl",
        _WMT25_SCORES,
        _one_file(read_wmt25_scores),
        lambda p: ["autorank", "--scores", p],
        name="d1",
        skip={"columns": _NO_COLUMNS},
    ),
    Case(
        "wmt25-systems-metadata",
        "systems_metadata_updated3.json",
        _WMT25_METADATA,
        read_wmt25_systems_metadata,
        lambda p: ["autorank", "--scores", p.parent / "S.jsonl", "--systems-metadata", p],
        companions={"S.jsonl": "{}"},
        skip={**_SCORE_SKIPS, "columns": "one JSON object: named fields, no header columns"},
    ),
    Case(
        "wmt25-outputs",
        "sysA.jsonl",
        _WMT25_OUTPUTS,
        _one_file(read_wmt25_outputs),
        None,
        name="d1",
        skip={**_SCORE_SKIPS, "columns": _NO_COLUMNS},
    ),
    Case(
        "wmt25-references",
        "wmt25-genmt.jsonl",
        _WMT25_REFERENCES,
        read_wmt25_references,
        lambda p: ["autorank", "--scores", p.parent / "S.jsonl", "--outputs", p.parent / "O.jsonl",
                   "--references", p],  # fmt: skip
        name="d1",
        companions={"S.jsonl": "{}", "O.jsonl": "{}"},
        skip={**_SCORE_SKIPS, "columns": _NO_COLUMNS},
    ),
    Case(
        "documents",
        "en-de.docs",
        _DOCUMENTS,
        read_documents,
        lambda p: ["human", "--human", p, p.parent / "a.csv"],
        name="doc1",
        companions={"a.csv": _APPRAISE_ONE},
        skip={
            **_SCORE_SKIPS,
            "columns": "two fields by format (DOMAIN<TAB>DOCUMENT), each line checked by the "
            "reader; no header",
        },
    ),
    Case(
        "qe-wmt-submission",
        "sub.txt",
        _QE_SUB,
        read_qe_submissions,
        lambda p: ["qe", "--data", p, "--gold", p.parent / "g.txt"],
        companions={"g.txt": _QE_GOLD_ONE},
    ),
    Case(
        "qe-wmt-gold",
        "gold.txt",
        _QE_GOLD,
        read_qe_wmt_gold,
        lambda p: ["qe", "--data", p.parent / "s.txt", "--gold", p],
        name="gold",
        companions={"s.txt": _QE_SUB_ONE},
    ),
    Case(
        "qe-wmt-gold-table",
        "en-de.dev.tsv",
        _QE_GOLD_TABLE,
        read_qe_wmt_gold,
        lambda p: ["qe", "--data", p.parent / "s.txt", "--gold", p],
        name="source 0",
        companions={"s.txt": _QE_SUB_ONE},
    ),
    Case(
        "qe-wmt-exclude",
        "exclude.tsv",
        _QE_EXCLUDE,
        read_qe_exclude,
        lambda p: [
            "qe",
            "--data",
            p.parent / "s.txt",
            "--gold",
            p.parent / "g.txt",
            "--exclude",
            p,
        ],
        name="source",
        companions={"s.txt": _QE_SUB_ONE, "g.txt": _QE_GOLD_ONE},
        skip=_SCORE_SKIPS,
    ),
    Case(
        "qe-word-submission",
        "words.txt",
        _WORD_SUB,
        read_word_submissions,
        lambda p: ["qe", "--data", p, "--gold", p.parent / "gold.tags"],
        companions={"gold.tags": _WORD_GOLD_ONE},
        skip=_SCORE_SKIPS,
    ),
    Case(
        "qe-word-gold-tsv",
        "word-gold.tsv",
        _WORD_GOLD_TSV,
        read_word_gold,
        lambda p: ["qe", "--data", p.parent / "w.txt", "--gold", p],
        name="w",
        companions={"w.txt": _WORD_SUB_ONE},
        skip=_SCORE_SKIPS,
    ),
    Case(
        "qe-word-tags",
        "en-de.tags",
        _WORD_TAGS,
        read_word_gold,
        lambda p: ["qe", "--data", p.parent / "w.txt", "--gold", p],
        name="OK",
        companions={"w.txt": _WORD_SUB_ONE},
        skip=_SCORE_SKIPS,
    ),
    Case(
        "qe14-gold",
        "gold.labels",
        _QE14_GOLD,
        read_qe_gold,
        lambda p: ["qe", "--data", p.parent / "s.txt", "--gold", p],
        name="1",
        companions={"s.txt": _QE14_SUB_ONE},
        skip={
            "columns": "one or two fields (LABEL or SID LABEL) by format; other widths are "
            "refused by the reader"
        },
    ),
    Case(
        "qe-post-edit",
        "pe.tsv",
        _POST_EDIT,
        read_post_edit,
        lambda p: ["qe", "--data", p.parent / "q.csv", "--post-edit", p],
        name="1",
        companions={"q.csv": _QE_WIDE_ONE},
    ),
    Case(
        "text-lines",
        "source.txt",
        _MT,
        read_lines,
        None,
        name="The cat",
        skip={
            **_SCORE_SKIPS,
            "columns": "plain text has no header: a line is one segment, not fields",
        },
    ),
    Case(
        "mt-text-ref",
        "ref.txt",
        _MT,
        read_mt_lines,
        lambda p: ["randomized", "--resamples", "10", "--ref", p, "--hyp", *_hyps(p)],
        name="The cat",
        companions={"a.txt": "a\n", "b.txt": "b\n"},
        skip={
            **_SCORE_SKIPS,
            "columns": "plain text has no header: a line is one segment, not fields",
        },
    ),
    Case(
        "mt-text-hyp",
        "hyp.txt",
        _MT,
        read_mt_lines,
        lambda p: [
            "randomized",
            "--resamples",
            "10",
            "--ref",
            p.parent / "a.txt",
            "--hyp",
            p,
            p.parent / "b.txt",
        ],
        name="The cat",
        companions={"a.txt": "a\n", "b.txt": "b\n"},
        skip={
            **_SCORE_SKIPS,
            "columns": "plain text has no header: a line is one segment, not fields",
        },
    ),
]


def _hyps(p):
    return [p.parent / "a.txt", p.parent / "b.txt"]


def _write(tmp_path, case, **fill):
    for other, text in case.companions.items():
        (tmp_path / other).write_text(text)
    path = tmp_path / case.file
    text = case.text(**fill)
    if case.file.endswith(".zip"):
        path.write_bytes(_zip("inner/BLEU.tsv", text))
    else:
        path.write_text(text)
    return path


#: (id, what is put in the file or which limit is lowered, words the one line must hold)
LIMITS = [
    ("magnitude", {"score": "1e308"}, None, "too large"),
    ("overflow", {"score": "1e400"}, None, "1e400"),
    ("infinite", {"score": "inf"}, None, "inf"),
    ("nan", {"score": "nan"}, None, "nan"),
    ("field", {"name": "n" * (limits.MAX_FIELD_CHARS + 1)}, None, "characters"),
    ("lines", {}, ("MAX_LINES", 3), "lines is over the limit of 3 lines"),
    ("columns", {}, ("MAX_COLUMNS", 2), "over the limit of 2 columns"),
    ("bytes", {}, ("MAX_BYTES", 40), "over the input limit of 40 bytes"),
]


def _cells(*, cli: bool = False) -> list:
    """The (reader, limit) cells that apply: a limit in ``case.skip`` (with the reason it does
    not apply) is not generated, nor, for the CLI, a reader no subcommand reads (the dashboard
    does) -- cells that do not apply are not tests, not skips."""
    return [
        pytest.param(case, limit, id=f"{case.id}-{limit[0]}")
        for case in READERS
        for limit in LIMITS
        if limit[0] not in case.skip and not (cli and case.cli is None)
    ]


def test_every_left_out_cell_names_a_limit_and_why():
    for case in READERS:
        assert set(case.skip) <= {lim[0] for lim in LIMITS}, case.id
        assert all(reason.strip() for reason in case.skip.values()), case.id


def _lower(monkeypatch, lowered):
    if lowered is not None:
        monkeypatch.setattr(limits, *lowered)


@pytest.mark.parametrize("case, limit", _cells())
def test_every_reader_applies_every_limit(tmp_path, monkeypatch, case, limit):
    _, fill, lowered, words = limit
    path = _write(tmp_path, case, **fill)
    _lower(monkeypatch, lowered)
    with pytest.raises(StatsInputError) as exc:
        case.read(path)
    msg = str(exc.value)
    assert "\n" not in msg and words.lower() in msg.lower(), msg
    assert case.file in msg, msg


@pytest.mark.parametrize("case, limit", _cells(cli=True))
def test_every_cli_subcommand_applies_every_limit(tmp_path, monkeypatch, capsys, case, limit):
    _, fill, lowered, words = limit
    path = _write(tmp_path, case, **fill)
    _lower(monkeypatch, lowered)
    code = main([str(a) for a in case.cli(path)])
    _, err = capsys.readouterr()
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert words.lower() in err.lower(), err
    assert case.file in err, err


@pytest.mark.parametrize("case", READERS, ids=[c.id for c in READERS])
def test_every_registry_file_reads_when_within_the_limits(tmp_path, case):
    """The registry's files are valid: each limit test fails for its limit only."""
    assert case.read(_write(tmp_path, case)) is not None


def test_an_archive_member_count_over_the_cap_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(archives, "MAX_MEMBERS", 5)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for i in range(6):
            zf.writestr(f"m{i}.tsv", _WMT)
    path = tmp_path / "many.zip"
    path.write_bytes(buf.getvalue())
    with pytest.raises(
        StatsInputError,
        match=r"many\.zip: the archive holds 6 entries, over the "
        r"limit of 5 entries",
    ):
        read_system_scores(path)


#: public readers that read every file through one of the registry's readers (the WMT
#: score-file readers at system level, as system-sys-score and system-wmt reach them)
READ_THROUGH = {
    "read_judgement_files": read_judgements,
    "read_parallel": read_mt_lines,
    "read_wmt_system_level": read_system_scores,
    "read_wide_system_scores": read_system_scores,
    "read_wmt_scores": read_system_scores,
}


def test_every_public_reader_is_in_the_registry():
    """A reader added to :mod:`stats.readers` without a registry line fails here."""
    import importlib
    import inspect
    import pkgutil

    import stats.readers as package

    found = set()
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"stats.readers.{info.name}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("read_") and fn.__module__ == module.__name__:
                found.add(name)
    registered = {c.read.__name__ for c in READERS}
    assert {fn.__name__ for fn in READ_THROUGH.values()} <= registered
    missing = sorted(found - registered - set(READ_THROUGH))
    assert not missing, f"readers without a line in READERS: {missing}"
