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
