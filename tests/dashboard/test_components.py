"""AppTest of shared components in a minimal script (AppTest.from_function): user-supplied
names in warnings and upload notes print literally (escaped Markdown/KaTeX/HTML)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.dashboard.helpers import assert_no_exception

EVIL = "**evil**_name_$x^2$<b>.tsv"


def _warnings_script():
    from dashboard import components

    components.show_warnings(["**BOLD** metric $x$ is constant", "**BOLD** metric $x$ is constant"])
    components.show_warnings({"x<b>y</b>": "no human scores"}, prefix="left out")


def _upload_script():
    from dashboard import components

    uploads, is_sample = components.file_input(
        "files", key="up", sample=(("sample_a.tsv", b"x"),), types=None
    )
    import streamlit as st

    st.write(f"{len(uploads)} {is_sample}")


def test_show_warnings_escapes_and_deduplicates():
    at = AppTest.from_function(_warnings_script).run()
    assert_no_exception(at)
    values = [w.value for w in at.warning]
    assert values == [
        r"\*\*BOLD\*\* metric \$x\$ is constant",
        r"x\<b\>y\</b\> left out: no human scores",
    ]


def test_file_input_escapes_sample_names_and_uses_the_upload():
    at = AppTest.from_function(_upload_script).run()
    assert_no_exception(at)
    assert r"sample\_a.tsv" in at.info[0].value
    at.file_uploader(key="up").set_value([(EVIL, b"data", "text/plain")]).run()
    assert at.markdown[-1].value == "1 False"
    assert not any("sample" in i.value for i in at.info)
    at.run()  # a plain rerun keeps the upload
    assert at.markdown[-1].value == "1 False"


def test_presentation_table_applies_column_config_and_escapes_text():
    import numpy as np
    import pandas as pd
    import streamlit as st

    from dashboard.components import presentation_table

    df = pd.DataFrame(
        {
            "pearson": [0.97123, np.nan],
            "n": [12, 12],
            "p": [1.5e-7, 0.2],
            "share": [0.09, 1.0],
            "system": ["**evil**", None],
            "hidden": [1, 2],
            "x": [1.23456, 2.0],
        },
        index=pd.Index(["a_b", "c"], name="metric"),
    )
    config = {
        "pearson": st.column_config.NumberColumn("Pearson r", format="%.4f"),
        "p": st.column_config.NumberColumn("p", format="%.2e"),
        "share": st.column_config.NumberColumn(format="percent"),
        "hidden": None,
        "system": "System",
    }
    styler = presentation_table(df, config)
    assert list(styler.data.columns) == ["Pearson r", "n", "p", "share", "System", "x"]
    assert styler.data["Pearson r"].dtype.kind == "f"  # numbers stay numbers (right-aligned)
    text = styler.to_string(delimiter="|")
    rows = text.splitlines()  # header, index-name row, then the data rows
    assert rows[2].split("|") == [
        "a\\_b",
        "0.9712",
        "12",
        "1.50e-07",
        "9.0%",
        r"\*\*evil\*\*",
        "1.235",
    ]
    # an undefined number prints as "–" (never blank, never a number), missing text as blank
    assert rows[3].split("|") == ["c", "–", "12", "2.00e-01", "100.0%", "", "2"]


def test_show_table_is_a_static_table_in_presentation_mode(fresh_run):
    from dashboard.state import PRESENTATION_KEY

    at = fresh_run()
    n_frames, n_static = len(at.dataframe), len(at.table)
    # static=True tables (the Williams clusters and the per-LP Williams summary, redrawn with
    # every alpha) are HTML always
    assert n_frames >= 2 and n_static == 2
    at.sidebar.toggle(key=PRESENTATION_KEY).set_value(True).run()
    assert_no_exception(at)
    assert len(at.table) == n_frames + n_static and len(at.dataframe) == 0


def _remembered_script():
    import streamlit as st

    from dashboard import components

    options = st.session_state.get("options", ["a", "b", "c"])
    components.remembered(st.selectbox, "one", options, key="one", default=options[-1])
    components.remembered_multiselect("many", options, key="many", default=options[:1])


def test_remembered_widgets_keep_choices_still_offered_else_the_default():
    at = AppTest.from_function(_remembered_script).run()
    assert_no_exception(at)
    assert at.selectbox(key="one").value == "c"
    assert at.multiselect(key="many").value == ["a"]
    at.selectbox(key="one").set_value("b")
    at.multiselect(key="many").set_value(["b", "c"]).run()
    at.session_state["options"] = ["b", "d"]  # other options, e.g. after another upload
    at.run()
    assert at.selectbox(key="one").value == "b"
    assert at.multiselect(key="many").value == ["b"]  # what is still offered is kept
    at.session_state["options"] = ["x", "y"]
    at.run()
    assert at.selectbox(key="one").value == "y"  # nothing left: the defaults
    assert at.multiselect(key="many").value == ["x"]
    at.multiselect(key="many").set_value([]).run()
    at.run()
    assert at.multiselect(key="many").value == []  # a selection the user emptied stays empty
    assert_no_exception(at)


def test_show_table_shows_every_row_of_a_table_up_to_25_rows(monkeypatch):
    # Streamlit's "auto" height stops at 10 rows: a 12-metric correlation table hid 2 rows
    # behind a scroll bar. Up to 25 rows the height fits them all (35 px a row, header included).
    import pandas as pd

    from dashboard import components
    from dashboard.components import outputs

    heights = []
    monkeypatch.setattr(outputs.st, "dataframe", lambda *a, **k: heights.append(k["height"]))
    monkeypatch.setattr(outputs, "table_downloads", lambda *a, **k: None)
    for rows in (3, 12, 25, 26):
        frame = pd.DataFrame({"metric": [f"m{i}" for i in range(rows)], "r": range(rows)})
        components.show_table(frame, key=f"t{rows}", filename=f"t{rows}", index=False)
    components.show_table(frame, key="fixed", filename="fixed", height=200)
    assert heights == [35 * 4 + 3, 35 * 13 + 3, 35 * 26 + 3, "auto", 200]


def test_presentation_mode_shows_what_a_slide_holds_and_says_so(monkeypatch):
    # the segment explorer's 500 rows made one presentation-mode slide 169,000 px tall
    import pandas as pd

    from dashboard import components
    from dashboard.components import outputs

    tables, captions, downloads = [], [], []
    monkeypatch.setattr(outputs, "presentation_mode", lambda: True)
    monkeypatch.setattr(outputs.st, "table", lambda data, **k: tables.append(data.data))
    monkeypatch.setattr(outputs.st, "caption", captions.append)
    monkeypatch.setattr(outputs, "table_downloads", lambda df, **k: downloads.append(df))
    n = components.PRESENTATION_MAX_ROWS
    for rows in (n, n + 1, 500):
        frame = pd.DataFrame({"segment": range(rows), "contribution": range(rows, 0, -1)})
        components.show_table(frame, key=f"t{rows}", filename=f"t{rows}", index=False)
    assert [len(t) for t in tables] == [n, n, n]
    assert tables[2]["segment"].tolist() == list(range(n))  # the first rows, in table order
    assert [len(d) for d in downloads] == [n, n + 1, 500]  # the downloads hold every row
    assert captions == [
        f"Presentation mode shows the first {n} of {rows} rows; the downloads below hold "
        "them all."
        for rows in (n + 1, 500)
    ]


def test_presentation_draws_a_wide_summary_transposed():
    """Three language pairs x eleven columns: on a slide the columns become rows (their
    headers could not stand in whole words side by side); a longer table stays as it is."""
    import pandas as pd

    from dashboard.components.outputs import presentation_table

    cols = ["systems", "metrics", "pairs", "significant pairs", "share significant", "best |r|",
            "beat baseline", "metrics significantly beating baseline"]  # fmt: skip
    frame = pd.DataFrame([[16, 30, 435, 200, 0.46, "COMET", 3, "a, b"]] * 3, columns=cols,
                         index=pd.Index(["en-de", "zh-en", "en-ru"], name="language pair"))
    out = presentation_table(frame, transpose=True).data
    assert list(out.columns) == ["en-de", "zh-en", "en-ru"]
    assert [str(r).replace(chr(92), "") for r in out.index] == cols  # Markdown escapes
    assert out.loc["share significant", "en-de"] == "0.46"
    unescaped = lambda t: [str(c).replace(chr(92), "") for c in t.data.columns]  # noqa: E731
    assert unescaped(presentation_table(frame)) == cols  # not asked: as it is
    long = pd.concat([frame] * 2)
    assert unescaped(presentation_table(long, transpose=True)) == cols


def test_presentation_headers_break_between_a_names_parts_only():
    """Presentation headers wrap at spaces and hyphens (the CSS) and, through a zero-width
    space, after a name's "_", "/" and a "." before a letter; never inside a word or a number."""
    import pandas as pd

    from dashboard.components.outputs import presentation_table

    cols = ["NLLB_MBR_3.3B", "team/run.v2", "p (Approximate randomization)", "α 0.05"]
    heads = list(presentation_table(pd.DataFrame([[1, 2, 3, 4]], columns=cols)).data.columns)
    parts = [h.replace(chr(92), "").split("\u200b") for h in heads]  # Markdown escapes
    assert parts == [["NLLB_", "MBR_", "3.3B"], ["team/", "run.", "v2"],
                     ["p (Approximate randomization)"], ["α 0.05"]]  # fmt: skip
