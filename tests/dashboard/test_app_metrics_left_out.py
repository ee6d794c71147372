"""The Metrics vs humans page with WMT20-like published files (tests/_wmt20_like.py: 14 metric
files, 6 DA files, human translations most metrics did not score): one collapsed summary of what
was left out grouped by reason with counts, human translations left out by pattern, QE metrics
(REFSET src) preselected as reference-free, and the opening defaults (first language pair in the
findings' order, scatter of the best metric and BLEU)."""

from __future__ import annotations

from dashboard.data.metrics import findings_order
from dashboard.sections.left_out import headline, summarise
from tests._wmt20_like import write_wmt20_like
from tests.dashboard.helpers import assert_no_exception

WHERE = "language pair 'cs-en', test set 'newstest2020', reference 'newstest2020'"


def test_summarise_groups_by_reason_with_counts():
    messages = [
        f"{WHERE}: metric chrF has no score for Human-A.0, Human-B.0; it is left out of this block",
        f"{WHERE}: metric TER has no score for Human-A.0, Human-B.0; it is left out of this block",
        "language pair 'cs-en', test set 'newstest2020': metric COMET-QE has scores only for "
        "reference(s) src, not analysed; name it with --reference-free if it uses no reference",
        f"{WHERE}: system(s) with metric scores but no human score left out: A, B, C",
        "language pair(s) without human scores left out: xx-en, yy-en",
        "something else",
    ]
    groups = summarise(messages, {"zz-en": "language pair 'zz-en': no human scores in f.tsv"})
    assert [g.count for g in groups] == [2, 1, 3, 2, 1, 1]
    assert groups[0].lines == {
        "cs-en / newstest2020 / newstest2020": [
            "chrF (no score for Human-A.0, Human-B.0)",
            "TER (no score for Human-A.0, Human-B.0)",
        ]
    }
    assert headline(groups).startswith("Left out: 2 metrics without a score for every system; ")


def test_findings_order():
    keys = ["en-zh", "zh-en", "de-fr", "en-cs", "cs-en / newstestB2020", "cs-en / newstest2020"]
    assert findings_order(keys) == [
        "cs-en / newstest2020",
        "cs-en / newstestB2020",
        "zh-en",
        "en-cs",
        "en-zh",
        "de-fr",
    ]


def test_wmt20_like_files_open_with_one_summary(fresh_run, tmp_path):
    paths = write_wmt20_like(tmp_path)
    at = fresh_run()
    at.file_uploader(key="metrics_upload").set_value(
        [(p.name, p.read_bytes(), "text/plain") for p in paths]
    ).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert not at.warning, [w.value for w in at.warning]  # no box per metric
    assert at.checkbox(key="metrics_no_humans").value  # Human-* left out by default
    assert at.multiselect(key="metrics_reference_free").value == ["COMET-QE", "YiSi-2"]
    assert at.selectbox(key="metrics_lp").value == "cs-en"
    scatter = at.multiselect(key="metrics_scatter").value
    assert scatter[1] == "BLEU" and len(scatter) == 2
    # with the human translations in, their missing scores are one reason in one summary
    at.checkbox(key="metrics_no_humans").uncheck().run()
    assert not at.warning
    text = " ".join(m.value for m in at.markdown)
    assert "metrics without a score for every system" in text and "(53)" in text
    # what each file was read as (one line, the files' lines folded), controls, the Williams
    # pairs, the summary
    assert len(at.expander) <= 4
    assert sum(c.value.startswith("Read ") for c in at.caption) == 1


def test_report_lists_outliers_json_and_the_systems_left_out(fresh_run):
    # the meeting-room case: with outliers.json uploaded, the report's record lists that file
    # with its SHA-256 beside the score files, and says which systems were left out, and why
    import hashlib
    import json as _json

    from dashboard import report, state
    from tests.dashboard.test_app_metrics import SAMPLE as _SAMPLE
    from tests.dashboard.test_app_metrics import _upload

    at = fresh_run()
    _upload(at, _SAMPLE / "human.tsv", _SAMPLE / "metrics.tsv")
    outliers = _json.dumps({"es-en": ["online-A"]}).encode()
    at.file_uploader(key="metrics_outliers_file").set_value(
        [("outliers.json", outliers, "application/json")]
    ).run()
    assert not at.exception
    record = report.report_record(at.session_state[state.REPORT_KEY])
    listed = {f["name"]: f["sha256"] for v in record["inputs"].values() for f in v["files"]}
    assert listed["outliers.json"] == hashlib.sha256(outliers).hexdigest()
    assert {"human.tsv", "metrics.tsv"} <= set(listed)
    left = [n["text"] for n in record["notes"] if n["kind"] == "left out"]
    assert any("outliers.json" in t and "es-en: online-A" in t for t in left), left
    html = report.report_html(at.session_state[state.REPORT_KEY], record)
    assert "Left out, and why" in html and "online-A" in html


def test_a_warning_repeated_per_block_is_one_line_with_its_count():
    # WMT20: two references per language pair gave each published outlier's warning twice
    from dashboard.sections.left_out import fold_repeats

    msgs = [
        "language pair 'cs-en', test set 'newstest2020', reference 'A': outliers as published "
        "left out: zlabs-nlp.1149",
        "language pair 'cs-en', test set 'newstest2020', reference 'B': outliers as published "
        "left out: zlabs-nlp.1149",
        "language pair 'de-en', test set 'newstest2020': outliers as published left out: none",
        "something else",
    ]
    assert fold_repeats(msgs) == [
        "outliers as published left out: zlabs-nlp.1149 (×2: cs-en / newstest2020 / A, "
        "cs-en / newstest2020 / B)",
        "de-en / newstest2020: outliers as published left out: none",
        "something else",
    ]
