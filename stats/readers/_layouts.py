"""What a file's first line looks like, in words, for the one-line refusal of a file that fits
none of the layouts a command reads (the layouts tried are named by the caller)."""

from __future__ import annotations

from ._common import file_kind, spells_number

#: the layouts ``meta-eval`` (:func:`stats.readers.meta.read_meta_eval`) tries on a text file
META_EVAL_LAYOUTS = (
    "long [METRIC] LP TESTSET SYSTEM SEGMENT SCORE",
    "wide CSV lp,system,segment,...",
    "WMT seg.score",
    "WMT DA SYS SEGID RAW.SCR Z.SCR N SID",
)
#: the layouts ``human`` (:func:`stats.analyses.human_wmt.read_human_ratings`) tries
HUMAN_LAYOUTS = (
    "Appraise CSV",
    "MQM TSV",
    "MQM averages",
    "DA SYS SID RAW.SCR Z.SCR",
    "documents",
    "judgements SYSTEM SEGMENT ANNOTATOR CRITERION SCORE",
)


def looks_like(first_line: str) -> str:
    """A short phrase naming what a first line looks like: a known kind of input (and where
    it goes), or its fields."""
    from .mqm import is_mqm_file
    from .mqm_google import is_mqm_averages
    from .wmt import detect_wmt_format

    fields = first_line.split("\t") if "\t" in first_line else first_line.split()
    fields = [f.strip() for f in fields]
    if is_mqm_file(first_line):
        return "MQM error spans (for human)"
    if is_mqm_averages(first_line):
        return "Google's MQM segment averages (for human)"
    kind = detect_wmt_format(fields)
    if kind == "da-sys":
        return "DA system-level scores (for rank, williams)"
    if kind == "wmt-sys":
        return "WMT system-level scores (for rank, williams)"
    if kind == "wmt-doc":
        return "WMT document-level scores"
    named = file_kind(fields)
    if named is not None:
        return named
    if not fields or not first_line.strip():
        return "an empty line"
    numbers = sum(spells_number(f) for f in fields)
    shown = " ".join(f[:20] for f in fields[:5]) + (" ..." if len(fields) > 5 else "")
    return f"{len(fields)} field(s), {numbers} of them numbers: {shown!r}"


def none_fits(label: str, line: int, first_line: str, layouts) -> str:
    """The one-line message for a file that fits none of ``layouts``."""
    return (
        f"{label}, line {line}: fits none of the layouts tried, it looks like "
        f"{looks_like(first_line)} (tried: {'; '.join(layouts)})"
    )
