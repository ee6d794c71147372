"""The MT systems page's "sacreBLEU options" expander: every option of sacreBLEU's BLEU, chrF
and TER under sacreBLEU's names and defaults. The chosen options travel with the metric name
(:func:`stats.mt._tokenize_options.metric_spec`), so they key every cached result of the page
and appear in the signature beside the p-values."""

from __future__ import annotations

import streamlit as st

from dashboard import components
from stats.mt._tokenize_options import TOKENIZERS, metric_spec

#: the tokenizer choice that lets the language pair decide, as sacreBLEU's ``-l`` does
BY_LANGUAGE = "by language"


def expander() -> dict[str, dict]:
    """Draw the options; return sacreBLEU constructor arguments per text metric."""
    with st.expander("sacreBLEU options", expanded=False, icon=":material/tune:"):
        b, c, t = st.columns(3)
        with b:
            st.markdown("**BLEU**")
            tok = components.remembered(
                st.selectbox,
                "Tokenizer (--tokenize)",
                [BY_LANGUAGE, *TOKENIZERS],
                key="mt_opt_tokenize",
                default=BY_LANGUAGE,
                help="By language: zh for Chinese, ja-mecab for Japanese, ko-mecab for Korean "
                "targets (the language pair read from the file names, e.g. "
                "generaltest2023.en-ja.hyp.X.ja), else 13a, as sacreBLEU does. The one used "
                "is in the signature. spm/flores need a model sacreBLEU downloads: put it in "
                "~/.sacrebleu/models first.",
            )
            lowercase = components.persistent(
                st.checkbox, "Lowercase (--lowercase)", key="mt_opt_lowercase"
            )
            smooth = components.remembered(
                st.selectbox,
                "Smoothing (--smooth-method)",
                ["exp", "floor", "add-k", "none"],
                key="mt_opt_smooth",
                default="exp",
            )
        with c:
            st.markdown("**chrF**")
            char_order = components.number_setting(
                "Character order (--chrf-char-order)",
                key="mt_opt_cc",
                default=6,
                min_value=1,
                max_value=10,
                step=1,
            )
            word_order = components.number_setting(
                "Word order (--chrf-word-order; 2 = chrF++)",
                key="mt_opt_cw",
                default=0,
                min_value=0,
                max_value=4,
                step=1,
            )
            beta = components.number_setting(
                "Beta (--chrf-beta)",
                key="mt_opt_beta",
                default=2,
                min_value=1,
                max_value=5,
                step=1,
            )
            c_ws = components.persistent(
                st.checkbox, "Whitespace (--chrf-whitespace)", key="mt_opt_cws"
            )
            c_lc = components.persistent(
                st.checkbox, "Lowercase (--chrf-lowercase)", key="mt_opt_clc"
            )
            c_eps = components.persistent(
                st.checkbox, "Eps smoothing (--chrf-eps-smoothing)", key="mt_opt_ceps"
            )
        with t:
            st.markdown("**TER**")
            t_case = components.persistent(
                st.checkbox, "Case-sensitive (--ter-case-sensitive)", key="mt_opt_tcase"
            )
            t_norm = components.persistent(
                st.checkbox, "Normalized (--ter-normalized)", key="mt_opt_tnorm"
            )
            t_punct = components.persistent(
                st.checkbox, "No punctuation (--ter-no-punct)", key="mt_opt_tpunct"
            )
            t_asian = components.persistent(
                st.checkbox, "Asian support (--ter-asian-support)", key="mt_opt_tasian"
            )
    bleu = {"lowercase": bool(lowercase), "smooth_method": smooth}
    if tok != BY_LANGUAGE:
        bleu["tokenize"] = tok
    return {
        "bleu": bleu,
        "chrf": {
            "char_order": int(char_order),
            "word_order": int(word_order),
            "beta": int(beta),
            "whitespace": bool(c_ws),
            "lowercase": bool(c_lc),
            "eps_smoothing": bool(c_eps),
        },
        "ter": {
            "case_sensitive": bool(t_case),
            "normalized": bool(t_norm),
            "no_punct": bool(t_punct),
            "asian_support": bool(t_asian),
        },
    }


def _non_default(metric: str, options: dict) -> dict:
    """The options that differ from sacreBLEU's defaults (the default metric keeps its plain
    name, so results cached before options existed stay valid)."""
    defaults = {
        "bleu": {"lowercase": False, "smooth_method": "exp"},
        "chrf": {
            "char_order": 6,
            "word_order": 0,
            "beta": 2,
            "whitespace": False,
            "lowercase": False,
            "eps_smoothing": False,
        },
        "ter": {
            "case_sensitive": False,
            "normalized": False,
            "no_punct": False,
            "asian_support": False,
        },
    }[metric]
    return {k: v for k, v in options.items() if defaults.get(k, object()) != v}


def spec(metric: str, options: dict[str, dict]) -> str:
    """The metric argument of the data layer: ``metric`` with its chosen options."""
    return metric_spec(metric, _non_default(metric, options.get(metric, {})))


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
