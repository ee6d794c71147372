"""The MT systems page's "sacreBLEU options" expander: every option of sacreBLEU's BLEU, chrF
and TER under sacreBLEU's names and defaults, drawn from the one table the CLI reads too
(:data:`stats.mt.sacrebleu_options.SACREBLEU_OPTIONS`). The chosen options travel with the metric name
(:func:`stats.mt.tokenize_options.metric_spec`), so they key every cached result of the page
and appear in the signature beside the p-values. :func:`wmt_note` says when BLEU's tokenizer
is not the one the WMT22/WMT23 organisers' released automatic scores used for the target
language, with a button that chooses theirs."""

from __future__ import annotations

import streamlit as st

from dashboard import components, page_run
from dashboard.url_state import SACREBLEU_KEYS
from stats.mt.sacrebleu_options import (
    SACREBLEU_OPTIONS,
    describe_options,
    non_default_options,
    wmt_released_tokenizer,
    wmt_tokenizer_note,
)
from stats.mt.tokenize_options import TOKENIZERS, metric_spec

#: the tokenizer choice that lets the language pair decide, as sacreBLEU's ``-l`` does
BY_LANGUAGE = "by language"
#: each shown option's widget key (declared with the page's URL settings)
WIDGET_KEYS = SACREBLEU_KEYS
_TOKENIZE_HELP = (
    "By language: zh for Chinese, ja-mecab for Japanese, ko-mecab for Korean targets (the "
    "language pair read from the file names, e.g. generaltest2023.en-ja.hyp.X.ja), else 13a, "
    "as sacreBLEU does. The WMT22/WMT23 organisers' released automatic scores used char for Japanese. The one used is "
    "in the signature. spm/flores need a model sacreBLEU downloads: put it in "
    "~/.sacrebleu/models first."
)


def _widget(option):
    key = WIDGET_KEYS[(option.metric, option.name)]
    label = f"{option.words[:1].upper()}{option.words[1:]} ({option.flag})"
    if option.name == "tokenize":
        return components.remembered(
            st.selectbox, "Tokenizer (--tokenize)", [BY_LANGUAGE, *TOKENIZERS], key=key,
            default=BY_LANGUAGE, help=_TOKENIZE_HELP,
        )  # fmt: skip
    if isinstance(option.default, bool):
        return bool(components.persistent(st.checkbox, label, key=key))
    if option.choices:
        return components.remembered(
            st.selectbox, label, list(option.choices), key=key, default=option.default
        )
    return int(
        components.number_setting(
            label, key=key, default=option.default, min_value=option.low,
            max_value=option.high, step=1,
        )
    )  # fmt: skip


def expander() -> dict[str, dict]:
    """Draw the options; return sacreBLEU constructor arguments per text metric (BLEU's
    ``tokenize`` only when chosen: the language pair decides otherwise)."""
    out: dict[str, dict] = {"bleu": {}, "chrf": {}, "ter": {}}
    with st.expander("sacreBLEU options", expanded=False, icon=":material/tune:"):
        columns = dict(zip(out, st.columns(3), strict=True))
        for metric, column in columns.items():
            with column:
                st.markdown(f"**{ {'bleu': 'BLEU', 'chrf': 'chrF', 'ter': 'TER'}[metric] }**")
                for option in SACREBLEU_OPTIONS:
                    if (option.metric, option.name) not in WIDGET_KEYS or option.metric != metric:
                        continue
                    value = _widget(option)
                    if not (option.name == "tokenize" and value == BY_LANGUAGE):
                        out[metric][option.name] = value
    return out


def _as_wmt(tokenizer: str) -> None:
    st.session_state[WIDGET_KEYS[("bleu", "tokenize")]] = tokenizer


def wmt_note(lp: str | None, tokenize: str | None) -> str | None:
    """Under the signature: a note when BLEU's tokenizer is not the one the WMT22/WMT23
    organisers' released automatic scores used for the target of ``lp`` (Japanese: char), with
    a button that chooses theirs
    (key ``mt_opt_as_wmt``). Returns the note (for the report) or ``None``."""
    note = wmt_tokenizer_note(lp, tokenize)
    if note is None:
        return None
    released = wmt_released_tokenizer(lp)
    st.info(
        f"BLEU tokenizer **{tokenize}**: the WMT22/WMT23 organisers' released automatic scores "
        f"used **{released}** for {components.escape_markdown(lp)}, so these BLEU scores, and "
        "possibly the ranking, differ from theirs.",
        icon=":material/info:",
    )
    st.button(
        "As WMT's released scores",
        key="mt_opt_as_wmt",
        on_click=_as_wmt,
        args=(released,),
        icon=":material/rule:",
        help=f"Sets the tokenizer (sacreBLEU options) to {released}.",
    )
    return note


def record_signature(data) -> None:
    """Put a metric's sacreBLEU signature (as sacreBLEU formats it, from the statistics) and
    its options in words into the page's report."""
    if data.signature:
        page_run.record_note(
            f"signature_{data.label}",
            "signature",
            f"{data.label}: {data.signature} ({describe_options(data.metric, dict(data.options))})",
        )


def record_table_signatures(result, metrics) -> None:
    """The systems table's metrics' signatures (sacreBLEU's strings, from the result) into the
    report, with their options in words, unless the page's metric put them there already (with
    the tokenizer resolved). Reads nothing more: after a Stop the result shown may be an
    earlier one (then only its signatures are stated)."""
    from stats.mt.tokenize_options import parse_metric_spec

    page_report = page_run.current_report()
    if page_report is None:
        return
    specs = dict(zip(result.metrics, metrics, strict=False))
    for label in result.metrics:
        key = f"signature_{label}"
        sig = result.signatures.get(label)
        if not sig or key in page_report.notes:
            continue
        words = ""
        if len(result.metrics) == len(metrics):
            name, options = parse_metric_spec(specs[label])
            words = f" ({describe_options(name, options)})"
        page_run.record_note(key, "signature", f"{label}: {sig}{words}")


def metric_notes(data, *, lp: str | None, order: str | None) -> None:
    """Under the page's metric: sacreBLEU's signature and the options in words, the WMT
    tokenizer note (BLEU) and the order of several references (a warning when it changes
    chrF); each also in the report."""
    if not data.signature:
        return
    st.caption(f"sacrebleu signature: `{data.signature}`")
    st.caption("Options: " + components.escape_markdown(describe_options(data.metric, dict(data.options))))
    record_signature(data)
    if data.metric == "bleu":
        note = wmt_note(lp, dict(data.options).get("tokenize"))
        if note:
            page_run.record_note("wmt_tokenizer", "note", note)
    if order and data.metric == "chrf" and "score equally" in order:
        components.show_warnings([order])
    elif order:
        st.caption(components.escape_markdown(order))
        page_run.record_note("reference_order", "note", order)


def spec(metric: str, options: dict[str, dict]) -> str:
    """The metric argument of the data layer: ``metric`` with its chosen options (only those
    that differ from sacreBLEU's defaults: the default metric keeps its plain name, so results
    cached before options existed stay valid)."""
    return metric_spec(metric, non_default_options(metric, options.get(metric, {})))


#: compiled TER: word-pair cost units |h| (|h| + |r|) per second on one core (measured on
#: generated sentences and paragraphs, stats/mt/_ter_numba.py; conservative), and the text
#: pre-processing's characters per second
_TER_COST_PER_S = 5e6
_CHARS_PER_S = 2e7


def ter_estimate(references, files) -> float | None:
    """Show, before TER's extraction starts, how long it should take from the text size
    (words of every output line against the first reference's); returns the seconds."""
    import os

    import numpy as np

    try:
        ref = references[0][1]
        ref_words = np.array([len(ln.split()) for ln in bytes(ref).split(b"\n")], dtype=float)
        cost, chars = 0.0, len(ref)
        for _, data in files:
            words = np.array([len(ln.split()) for ln in bytes(data).split(b"\n")], dtype=float)
            n = min(len(words), len(ref_words))
            cost += float((words[:n] * (words[:n] + ref_words[:n])).sum())
            chars += len(data)
    except (IndexError, TypeError, ValueError):
        return None  # the readers will say what is wrong with the files
    seconds = cost / _TER_COST_PER_S / max(1, min(os.cpu_count() or 1, 2)) + chars / _CHARS_PER_S
    st.caption(
        f"TER extraction, first run: about {max(seconds, 0.1):.1f} s for {len(files)} systems "
        f"× {len(ref_words):,} segments (estimated from the text size; a second run reads the "
        "cache)."
    )
    return seconds
