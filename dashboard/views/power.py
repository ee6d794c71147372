"""Page "Power": could the test have seen the difference, and how many segments would it take?
Power curves (power against n for several effects) and the minimum detectable effect against
n, by simulation from the uploaded segment scores or system outputs (Card et al., EMNLP 2020).

Thin: reads widgets, calls dashboard.data.power (cached) and draws dashboard.figures.power.
"""

from __future__ import annotations

import contextlib
import math
from functools import partial

import pandas as pd
import streamlit as st

from dashboard import components, page_run
from dashboard.data import mt_systems, power, samples
from dashboard.figures.power import mde_curve, power_curves
from stats import POWER_TESTS, StatsInputError
from stats.power.corpus import CORPUS_TESTS

TEXT, SCORES = "System outputs + reference (BLEU, chrF, TER)", "Segment scores"
TEXT_METRICS = {"BLEU": "bleu", "chrF": "chrf", "TER": "ter"}
TEST_LABELS = {
    "t": "paired t",
    "signed-rank": "Wilcoxon signed-rank",
    "paired-bootstrap": "paired bootstrap",
    "approximate-randomization": "approximate randomization",
    "sacrebleu-paired-bs": "sacreBLEU paired_bs",
}

#: the library's argument names -> this page's controls (a refusal names what to change)
CONTROLS = {
    "n_simulations": "Simulations per n",
    "n_resamples": "Resamples per test",
}


@contextlib.contextmanager
def page_words():
    """A refusal in the words of this page's controls."""
    try:
        yield
    except StatsInputError as exc:
        text = str(exc)
        for name, label in CONTROLS.items():
            text = text.replace(f"{name}=", f"{label} = ").replace(name, label)
        text = text.replace("alpha=", "α = ")
        text = text.replace("or the sample sizes", "or the data (the sample sizes run to "
                            "twice the observed segments)")
        raise StatsInputError(text) from None


st.title("Power")
st.caption(
    "Was the test able to see a difference of this size at all, and how many segments would "
    "it take? Power at n = the share of simulated data sets of n segments, drawn with "
    "replacement from the observed ones under the test's own null shifted by the "
    "hypothesised effect, on which the test rejects at α in the effect's direction (Card "
    "et al., EMNLP 2020; Graham, Haddow & Koehn, EMNLP 2020). The dotted line is the "
    "rejection rate at effect 0: the test's real size, to compare with α."
)

source = components.persistent(st.radio, "Input", (SCORES, TEXT), horizontal=True,
                               key="power_source")
if source == TEXT:
    kind = mt_systems.KIND_TEXT
    references, files, is_sample = components.reference_and_outputs(
        ("Reference file(s): plain text, one segment per line",
         "System outputs: one file per system, aligned with the reference"),
        keys=("power_refs", "power_hyps"),
        helps=("Several files = several references per segment.", "Any extension."),
        sample=samples.mt_sample_text(),
        sample_note="Showing the bundled **synthetic sample data** (sample_data/mt). Upload "
        "a reference and your systems' outputs above to analyse them.",
        side_by_side=True,
    )
    components.ask_for_the_other_half(references, files)
else:
    kind = mt_systems.KIND_SCORES
    references = ()
    files, is_sample = components.file_input(
        "Segment scores: long SYSTEM SEGMENT SCORE [METRIC], or wide CSV (one column per "
        "system), or WMT metrics task segment-level files",
        key="power_scores",
        sample=samples.mt_sample_scores(),
        sample_note="Showing the bundled **synthetic sample data**: segment-level chrF and "
        "SimCOMET scores of 8 systems (sample_data/mt/segment_scores.tsv).",
    )

with components.controls_expander("Controls"):
    c1, c2, c3 = st.columns(3)
    higher_is_better = True
    with c1:
        if kind == mt_systems.KIND_TEXT:
            label = components.persistent(st.selectbox, "Metric", list(TEXT_METRICS),
                                          key="power_metric")
            metric = TEXT_METRICS[label]
            tests = CORPUS_TESTS
        else:
            with components.input_errors():
                names = mt_systems.score_options(files).metrics
            metric = ""
            if names:
                metric = components.remembered(st.selectbox, "Metric (METRIC column)", names,
                                               key="power_score_metric", default=names[0])
            higher_is_better = not components.persistent(
                st.toggle, "Lower scores are better", key="power_lower")
            tests = POWER_TESTS
        test = components.remembered(st.selectbox, "Test", tests, key="power_test",
                                     default=tests[0], format_func=TEST_LABELS.get)
    inputs = (kind, references, files, metric, higher_is_better)
    with components.input_errors():
        systems = list(power.systems(*inputs))
    with c2:
        baseline = components.remembered(st.selectbox, "Baseline", systems,
                                         key="power_baseline", default=systems[0])
        others = [s for s in systems if s != baseline] or systems
        system = components.remembered(st.selectbox, "System", others, key="power_system",
                                       default=others[0])
        effects_text = components.persistent(
            st.text_input, "Effects (system − baseline, metric points)", key="power_effects",
            value="0.5, 1, 2",
            help="Comma-separated hypothesised differences; positive = the system is better.")
    with c3:
        n_simulations = int(components.number_setting(
            "Simulations per n", key="power_simulations", default=500, min_value=100,
            max_value=5000, step=100))
        n_resamples = int(components.number_setting(
            "Resamples per test", key="power_resamples", default=500, min_value=100,
            max_value=5000, step=100))
        alpha = components.alpha_input("power_alpha")
        seed = components.seed_input("power_seed")

try:
    effects = tuple(float(v) for v in effects_text.replace(";", ",").split(",") if v.strip())
except ValueError:
    st.error(f"Effects must be numbers separated by commas; got {effects_text!r}")
    st.stop()
if not effects:
    st.warning("Give at least one effect in the controls.", icon=":material/warning:")
    st.stop()

with components.input_errors(), page_words():
    analysis = page_run.run_long(
        partial(power.power_curves, *inputs, baseline, system, effects, None, test, alpha,
                n_simulations, n_resamples, seed),
        text=f"Simulating {n_simulations:,} data sets per sample size …",
        key="power_run",
    )

res = analysis.result
st.caption(
    f"{analysis.read_as}. {TEST_LABELS[res.test]} of {system} over {baseline}, α = "
    f"{res.alpha:g}, {res.alternative}; observed difference {res.observed_effect:+.3g}; "
    f"{res.n_simulations:,} simulations per n (Monte Carlo error ≤ "
    f"{float(res.mc_error.max()):.3f}). {res.effect_meaning[:1].upper()}"
    f"{res.effect_meaning[1:]}."
)
if math.isfinite(res.sample_size):
    sample_text = (
        f"Sample size for {res.target_power:.0%} power at effect {res.effects[0]:g}: about "
        f"**{res.sample_size:,.0f}** {res.unit} (Monte Carlo SE "
        f"{res.sample_size_mc_error:,.1f})."
    )
else:
    sample_text = (f"Sample size for {res.target_power:.0%} power at effect "
                   f"{res.effects[0]:g}: not reached.")
st.markdown(sample_text)
page_run.record_note("power_sample_size", "note", sample_text.replace("**", ""))
for note in res.notes:
    st.warning(note[:1].upper() + note[1:], icon=":material/warning:")
    page_run.record_note(f"power_{note[:60]}", "warning", note)
components.seed_caption(seed, n_resamples=res.n_resamples or None)
left, right = components.two_columns()
with left, st.container(key="power_curves_box"):
    components.show_figure(power_curves(res, title=f"Power: {system} vs {baseline}"),
                           key="power_curves", filename="power-curves")
with right, st.container(key="power_mde_box"):
    components.show_figure(mde_curve(res, title=f"Minimum detectable effect at "
                                     f"{res.target_power:.0%} power"),
                           key="power_mde", filename="power-mde")
table = res.table().pivot(index="n", columns="effect", values="power")
table.columns = [f"power at {c:g}" for c in table.columns]
table["MDE at 80%"] = pd.Series(res.mde, index=list(res.sizes))
table["rate at effect 0 (size)"] = pd.Series(res.size, index=list(res.sizes))
with st.container(key="power_table_box"):
    components.show_table(table, key="power_table", filename="power", float_format="%.3f")
st.caption(res.definition)
