"""Labels shared by every page's tables: sides, corrections, p-value labels.

Pure: pandas in, pandas or strings out; no Streamlit, no caching."""

from __future__ import annotations

from stats.pairwise.grids import GridSignificance


def side_label(alternative: str) -> str:
    """The label of a test's ``alternative``: "one-sided" for ``"greater"``, else "two-sided"."""
    return "one-sided" if alternative == "greater" else "two-sided"


#: Multiple-comparison corrections (:data:`stats.pairwise.multiple.CORRECTIONS`) -> widget label.
CORRECTION_LABELS = {"none": "none", "holm": "Holm", "bh": "BH"}
_CORRECTION_NOTES = {
    "none": "raw p-values, no multiple-comparison correction",
    "holm": "p-values adjusted with Holm's method over the grid's pairs (family-wise error, "
    "Holm 1979)",
    "bh": "p-values adjusted with Benjamini-Hochberg over the grid's pairs (false discovery "
    "rate, Benjamini & Hochberg 1995)",
}


def correction_note(significance: GridSignificance) -> str:
    """The caption of a grid's p-values: which correction, the test's sidedness, and how the
    clusters were read (:class:`stats.pairwise.grids.GridSignificance`)."""
    return (
        f"Coloured by {_CORRECTION_NOTES[significance.correction]}; "
        f"{significance.test_note}. Dark lines separate the significance clusters at "
        f"α = {significance.alpha:g} (rank 1 top left; an item opens a new cluster when an "
        "item of the current cluster beats it significantly: the rule of the WMT22-25 metrics "
        "findings, MTME's AssignRanks; the WMT17-21 findings marked instead the winners, the "
        "items no other item significantly outperforms at raw p). An item whose statistic is "
        "undefined has no cluster."
    )


def p_label(correction: str) -> str:
    """How a grid's hover names its p-values: "p", or "p (Holm)" / "p (BH)" when adjusted."""
    return "p" if correction == "none" else f"p ({CORRECTION_LABELS[correction]})"
