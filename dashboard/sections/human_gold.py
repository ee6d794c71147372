"""Sections of the "Tests vs humans" page that need only the human files: the gold standard's
grids and the findings-style rankings (WMT 2014-2020 rank-sum clusters, or WMT24's paired
ranking with rank ranges for Appraise and MQM files). Drawn both with and without MT outputs.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard import components, figures, tables
from dashboard.data import Uploads, human
from stats.human.gold import HumanGoldResult
from stats.human.paired import AVERAGES, PAIRED_TESTS, PairedRankingResult, ranking_latex

#: upload label of the judgements: every format the page reads
JUDGEMENTS_LABEL = (
    "Human judgements: Appraise ESA or DA+SQM export (CSV), MQM error spans (TSV), WMT "
    "documents file (DOMAIN<TAB>DOCUMENT, e.g. en-de.docs, for domains), published DA segment "
    "scores (SYS SID RAW.SCR Z.SCR N) or SYSTEM SEGMENT ANNOTATOR CRITERION SCORE (adequacy/"
    "fluency); several files are read as one set"
)

_TEST_LABELS = {
    "signed-rank": "Wilcoxon signed-rank, paired, by domain (WMT24)",
    "rank-sum": "Wilcoxon rank-sum, unpaired (WMT 2014-2020)",
}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def is_wmt(kinds: tuple[str, ...]) -> bool:
    """Whether the judgements are WMT22-25 files (Appraise export, MQM, Google's MQM side
    files)."""
    return any(k in ("appraise", "mqm", "mqm-averages", "mqm-source-errors") for k in kinds)


def block_picker(blocks: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """With WMT files of several language pairs (or protocols: ESA and MQM together), a
    picker of the one the gold standard and the tests are about; ``()`` with one. The
    rankings below cover every one."""
    if len(blocks) < 2:
        return ()
    labels = {f"{lp} ({protocol})": (protocol, lp) for protocol, lp in blocks}
    choice = components.remembered(
        st.selectbox,
        "Language pair of the gold standard and the tests",
        list(labels),
        key="human_lp",
        default=next(iter(labels)),
        help="These files hold "
        + ", ".join(labels)
        + ". The human rankings below cover every one; the gold standard, its grid and the "
        "accuracy of the tests are computed for the one chosen here.",
    )
    return labels[choice]


def signature_caption(signatures: dict[str, str]) -> str:
    """The caption naming BLEU's tokenizer and each text metric's sacreBLEU signature."""
    parts = []
    bleu = signatures.get("BLEU", "")
    tok = next((f.split(":", 1)[1] for f in bleu.split("|") if f.startswith("tok:")), None)
    if tok:
        parts.append(f"BLEU tokenizer: {tok}")
    parts += [f"sacrebleu signature ({n}): `{sig}`" for n, sig in signatures.items() if sig]
    return " · ".join(parts)


def show_gold(gold: HumanGoldResult, systems: list[str], alpha: float, *, wmt: bool) -> None:
    """The gold standard's significance grids and its p-value and score tables."""
    st.subheader("Human gold standard")
    if wmt:
        st.markdown(
            f"Cell (row, column) is coloured when the humans' paired test separates the row "
            f"system from the column system at p < {alpha:g}, the row system scoring higher "
            f"({components.escape_markdown(gold.warnings[0].removeprefix('gold standard: '))})."
        )
    else:
        st.markdown(
            f"Cell (row, column) is coloured when humans judge the row system significantly "
            f"better than the column system (one-sided Wilcoxon rank-sum on per-annotator z "
            f"scores, p < {alpha:g}). **Combined**: adequacy decides when significant; when "
            "adequacy is tied, the fluency test decides (paper Section 4)."
        )
    panels = {c: gold.pvalue[c].loc[systems, systems] for c in gold.criteria}
    panels["combined"] = gold.combined_pvalue(alpha).loc[systems, systems]
    if wmt:
        panels = {"combined": panels["combined"]}
    mean_z = {c: gold.scores[f"{c}_z"] for c in gold.criteria}
    components.abbreviation_legend(
        components.show_figure(
            figures.human_gold_grids(panels, alpha=alpha, mean_z=mean_z),
            key="human_gold_grids",
            filename=f"human_gold_standard_alpha_{alpha:g}",
        )
    )
    with st.expander("Gold p-value matrices and system scores", expanded=False):
        which = components.persistent(
            st.selectbox,
            "Matrix",
            list(panels),
            key="human_matrix_choice",
            format_func=lambda c: (
                figures.CRITERION_TITLES[c] + (f" (α = {alpha:g})" if c == "combined" else "")
            ),
        )
        components.show_table(
            panels[which],
            key="human_matrix_table",
            filename=f"human_pvalues_{which}",
            caption=(
                "Paired human test p-values (row scores higher than column)"
                if wmt
                else f"One-sided Wilcoxon rank-sum p-values, {which} (row better than column)"
            ),
        )
        components.show_table(
            gold.scores.loc[systems],
            key="human_scores_table",
            filename="human_system_scores",
            caption="Score, score and items per system"
            if wmt
            else "Mean raw score, mean standardised (z) score and number of judgements per system",
            float_format="{:.3f}",
        )


def paired_ranking_table(result: PairedRankingResult) -> pd.DataFrame:
    """The findings' ranking table: rank range, score, items, cluster (1 = top)."""
    frame = result.to_frame()
    top, bottom = frame["rank_top"], frame["rank_bottom"]
    rank = top.astype(str).where(top == bottom, top.astype(str) + "–" + bottom.astype(str))
    rank = rank.where(top.notna(), "–")  # no defined test: ranked nowhere
    return pd.DataFrame(
        {
            "rank": rank,
            "score": frame["score"].round(3),
            "items": frame["n_items"],
            "cluster": frame["cluster"],
        },
        index=frame.index,
    )


def show_rankings(
    judgements: Uploads, kinds: tuple[str, ...], alpha: float, excluded: tuple[str, ...] = ()
) -> None:
    """Findings-style rankings of the judgement files, one per language pair."""
    if not is_wmt(kinds):
        with components.input_errors():
            ranked = human.rankings(judgements, alpha)
        for ranking in ranked:
            st.markdown(
                f"**Human ranking, {components.escape_markdown(ranking.lp)}** (WMT findings "
                f"style): systems by mean {ranking.score} score; a line is drawn below a system "
                f"when every system above it significantly beats every system below it "
                f"(one-sided Wilcoxon rank-sum, p < {alpha:g})."
            )
            components.show_clustered_table(
                tables.human_ranking_table(ranking),
                cluster="cluster",
                key=f"human_ranking_{ranking.lp}",
                filename=f"human_ranking_{ranking.lp}",
                caption=f"Human ranking, {ranking.lp}: clusters at alpha = {alpha:g}",
            )
        return
    # the data's own protocol and source in the title; the WMT24 findings are the method only
    # (an MQM file of Google's TED annotations is not "WMT24 findings")
    st.subheader(
        "Human ranking: "
        + components.escape_markdown(
            ", ".join(dict.fromkeys(p for p, _ in human.blocks(judgements))) or "human scores"
        )
        + " (the WMT24 findings' method)"
    )
    c_test, c_avg, c_corr = st.columns(3)
    with c_test:
        test = components.persistent(
            st.selectbox,
            "Ranking test",
            list(PAIRED_TESTS),
            key="human_rank_test",
            format_func=_TEST_LABELS.get,
        )
    with c_avg:
        average = components.persistent(
            st.selectbox,
            "Average over domains",
            list(AVERAGES),
            key="human_rank_average",
            help="macro: mean of the system's domain means (WMT24); micro: mean of all items",
        )
    with c_corr:
        correction = components.persistent(
            st.selectbox,
            "Correction",
            ["none", "holm", "bh"],
            key="human_rank_correction",
            help="Adjust the grid's p-values (Holm or Benjamini-Hochberg) before ranks and "
            "clusters",
        )
    with components.input_errors():
        ranked = human.paired(judgements, alpha, test, average, correction, excluded)
        read = human.read_summary(judgements)
    st.caption("Read: " + " · ".join(components.escape_markdown(line) for line in read))
    for ranking in ranked:
        label = f"{ranking.protocol} {ranking.lp}"
        st.markdown(
            f"**{components.escape_markdown(label)}**: rank range = (1 + systems that beat it, "
            f"n − systems it beats); a line where every system above differs from every system "
            f"below (p ≤ {alpha:g}). {components.escape_markdown(_sentence(ranking.describe()))}."
        )
        slug = f"{ranking.protocol}_{ranking.lp}".replace(" ", "_").replace("+", "")
        components.show_clustered_table(
            paired_ranking_table(ranking),
            cluster="cluster",
            key=f"human_paired_{slug}",
            filename=f"human_ranking_{slug}",
            caption=f"Human ranking, {label}: {ranking.describe()}",
        )
        st.download_button(
            "Findings table (LaTeX)",
            ranking_latex(ranking),
            file_name=f"human_ranking_{slug}_findings.tex",
            mime="text/x-tex",
            key=f"human_paired_{slug}_findings_tex",
        )
        if len(ranking.domain_pvalue) > 1:
            with st.expander(f"Per-domain p-values, {label}", expanded=False):
                domain = components.persistent(
                    st.selectbox,
                    "Domain",
                    list(ranking.domain_pvalue),
                    key=f"human_paired_{slug}_domain",
                )
                components.show_table(
                    ranking.domain_pvalue[domain],
                    key=f"human_paired_{slug}_domain_table",
                    filename=f"human_pvalues_{slug}_{domain}",
                    caption=f"Two-sided Wilcoxon signed-rank p-values, {label}, domain {domain} "
                    "(before Stouffer's combination)",
                )
