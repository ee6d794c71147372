"""AppTest: the "Tests vs humans" page with sample data, controls, uploads (judgements, system
outputs, segment scores), reuse of the MT systems page's files, malformed files and
presentation mode."""

from __future__ import annotations

import pandas as pd
import pytest

from dashboard.state import MT_SHARED_INPUTS_KEY, PRESENTATION_KEY
from tests._data import MT
from tests.dashboard.conftest import REPO_ROOT
from tests.dashboard.helpers import assert_no_exception, files, frame_with, metric_values

HUMAN = REPO_ROOT / "sample_data" / "human"
PAGE = "views/human.py"


def _metric(at, label_start: str):
    return next(m for m in at.metric if m.label.startswith(label_start))


@pytest.fixture
def at(fresh_run):
    at = fresh_run(PAGE, timeout=180)
    assert_no_exception(at)
    return at


def test_sample_data_shows_gold_accuracy_agreement_and_annotators(at):
    assert at.title[0].value == "Tests vs humans"
    assert any("synthetic judgements" in i.value for i in at.info)
    assert len(at.get("plotly_chart")) == 5  # gold grids, accuracy, agreement, annotators, ranks
    assert _metric(at, "Systems compared").value == "8"
    assert _metric(at, "Judgements used").value == "6,800"
    assert _metric(at, "Pairs humans separate").value == "26 / 28"
    assert not at.error and not at.warning
    table = frame_with(at, "Metric")
    assert list(table["alpha"]) == ["0.05", "0.01", "0.001"]
    assert list(table["Metric"]) == ["BLEU"] * 3
    assert table["Approx. Rand.: Acc. (%)"].iloc[0].endswith("[71.8, 97.7]")
    assert table["Paired Bootst. Resamp.: Conc."].iloc[0] == 25
    assert any("random seed **12345**" in c.value for c in at.caption)
    annotators = frame_with(at, "sd")
    assert annotators["annotator"].nunique() == 25


def test_controls_change_alpha_tests_resamples_and_seed(at):
    at.radio(key="human_alpha").set_value(0.001).run()
    assert _metric(at, "Pairs humans separate").value == "15 / 28"
    at.multiselect(key="human_tests").set_value(["approximate-randomization"])
    at.number_input(key="human_resamples").set_value(500)
    at.number_input(key="human_seed").set_value(7).run()
    assert not at.exception
    table = frame_with(at, "Metric")
    assert [c for c in table.columns if c.endswith("Conc.")] == ["Approx. Rand.: Conc."]
    assert any("random seed **7**, 500 resamples" in c.value for c in at.caption)
    # 1/(500+1) ~ 0.002 is not below 0.001: the page says nothing can be significant there
    assert any(
        w.value.startswith("alpha 0.001: with 500 resamples the smallest attainable p-value")
        for w in at.warning
    )
    at.multiselect(key="human_tests").set_value([]).run()
    assert any("at least one metric and one test" in w.value for w in at.warning)


def test_segment_scores_source_offers_every_metric_in_the_file(at):
    at.radio(key="human_source").set_value("Segment scores").run()
    assert not at.exception
    assert at.multiselect(key="human_metrics").options == ["chrF", "SimCOMET"]
    assert at.multiselect(key="human_metrics").value == ["chrF", "SimCOMET"]
    table = frame_with(at, "Metric")
    assert list(table["Metric"]) == ["chrF", "SimCOMET"] * 3
    assert len(frame_with(at, "n_metrics")) == 3 * 3
    # declaring SimCOMET an error metric (lower is better) turns its conclusions around
    at.multiselect(key="human_lower").set_value(["SimCOMET"]).run()
    assert not at.exception
    table = frame_with(at, "Metric")
    acc = table.set_index(["alpha", "Metric"])["Approx. Rand.: Acc. (%)"]
    assert (
        float(acc[("0.05", "SimCOMET")].split()[0]) < 50 < float(acc[("0.05", "chrF")].split()[0])
    )


def test_upload_judgements_and_a_subset_of_systems(at):
    at.file_uploader(key="human_judgements_upload").set_value(
        files(HUMAN / "judgements.csv", mime="text/csv")
    ).run()
    assert _metric(at, "Judgements used").value == "6,800"
    at.file_uploader(key="human_ref_upload").set_value(files(MT / "reference.txt"))
    hyps = [MT / "hyp" / f"{s}.txt" for s in ("Aurora", "Cirrus", "Fjord", "Harbor")]
    at.file_uploader(key="human_hyp_upload").set_value(files(*hyps)).run()
    assert not at.exception and not at.error
    assert _metric(at, "Systems compared").value == "4"
    # the humans' verdicts are counted over the 6 pairs of the 4 compared systems (item 13)
    assert _metric(at, "Pairs humans separate").value.endswith(" / 6")
    assert any("not scored by every metric, left out" in w.value for w in at.warning)


def test_outputs_without_their_reference_are_not_mixed_with_the_sample(at):
    hyps = [MT / "hyp" / f"{s}.txt" for s in ("Aurora", "Cirrus")]
    at.file_uploader(key="human_hyp_upload").set_value(files(*hyps)).run()
    assert not at.exception
    # the other half of the upload is the next step: a prompt, not an error
    prompt = "Now upload the reference file (one segment per line)."
    assert not at.error and prompt in [i.value for i in at.info]
    assert not at.get("plotly_chart")
    at.file_uploader(key="human_hyp_upload").set_value(None)
    at.file_uploader(key="human_ref_upload").set_value(files(MT / "reference.txt")).run()
    prompt = "Now upload one output file per system (at least two), aligned with the reference."
    assert not at.error and prompt in [i.value for i in at.info]


def test_malformed_judgements_show_an_error_not_a_traceback(at):
    bad = b"SYSTEM\tSEGMENT\tANNOTATOR\tCRITERION\tSCORE\nAurora\t1\tw1\tgrammar\t50\n"
    at.file_uploader(key="human_judgements_upload").set_value(
        [("bad.tsv", bad, "text/plain")]
    ).run()
    assert not at.exception
    assert len(at.error) == 1
    assert "bad.tsv, line 2, column CRITERION: unknown criterion 'grammar'" in at.error[0].value
    assert not at.get("plotly_chart")


def test_several_judgement_files_are_one_set_and_bad_outputs_are_errors(at):
    single = metric_values(at)  # the sample judgements.tsv as one file
    single_table = frame_with(at, "Metric")
    lines = (HUMAN / "judgements.tsv").read_text().splitlines()
    half = len(lines) // 2
    first = "\n".join(lines[:half]) + "\n"
    second = "\n".join([lines[0], *lines[half:]]) + "\n"
    at.file_uploader(key="human_judgements_upload").set_value(
        [("part1.tsv", first.encode(), "text/plain"), ("part2.tsv", second.encode(), "text/plain")]
    ).run()
    assert not at.exception and not at.error
    assert _metric(at, "Judgements used").value == f"{len(lines) - 1:,}"
    # two halves are the same analysis as the whole file
    assert metric_values(at) == single
    pd.testing.assert_frame_equal(frame_with(at, "Metric"), single_table)
    # the same judgements twice (TSV and CSV copies) are refused, naming the repeat
    at.file_uploader(key="human_judgements_upload").set_value(
        files(HUMAN / "judgements.tsv", HUMAN / "judgements.csv")
    ).run()
    assert not at.exception
    assert "repeats judgements.tsv" in at.error[0].value
    at.file_uploader(key="human_judgements_upload").set_value(None)
    short = b"only one line\n"
    at.file_uploader(key="human_ref_upload").set_value(files(MT / "reference.txt"))
    at.file_uploader(key="human_hyp_upload").set_value(
        [("Aurora.txt", short, "text/plain"), ("Cirrus.txt", short, "text/plain")]
    ).run()
    assert not at.exception
    assert "Aurora.txt has 1 lines but reference.txt has 500" in at.error[0].value


def test_excluded_annotators_are_shown(at):
    text = (HUMAN / "judgements.tsv").read_bytes() + b"Aurora\t1\tsolo\tadequacy\t55\n"
    at.file_uploader(key="human_judgements_upload").set_value([("j.tsv", text, "text/plain")]).run()
    assert not at.exception
    assert any("solo (a single judgement)" in w.value for w in at.warning)
    excluded = frame_with(at, "reason")
    assert excluded["annotator"].tolist() == ["solo"]


def test_reuses_the_mt_systems_pagefiles(app_test):
    at = app_test(PAGE, timeout=180)
    at.session_state[MT_SHARED_INPUTS_KEY] = {
        "scores": tuple((p.name, p.read_bytes()) for p in [MT / "segment_scores.tsv"])
    }
    at.run()
    assert not at.exception
    assert at.radio(key="human_source").value == "Files of the MT systems page"
    assert any("Using the files uploaded on the MT systems page" in i.value for i in at.info)
    assert at.multiselect(key="human_metrics").options == ["chrF", "SimCOMET"]


def test_presentation_mode(at):
    at.sidebar.toggle(key=PRESENTATION_KEY).set_value(True).run()
    assert not at.exception
    # the agreement map's 28 pairs (8 systems): one slide per block of pairs, sized for the
    # projector's font; the four other charts unchanged
    from dashboard.figures import AGREEMENT_SLIDE, agreement_heatmap
    from dashboard.tables import HUMAN_TEST_LABELS

    pairs = [f"s{a} vs s{b}" for a in range(8) for b in range(a + 1, 8)]
    rows = [f"BLEU · {t}" for t in HUMAN_TEST_LABELS.values()]
    outcome = pd.DataFrame(0, index=rows, columns=pairs)
    per_block = agreement_heatmap(outcome, **AGREEMENT_SLIDE).layout.meta["pairs_per_block"]
    assert len(at.get("plotly_chart")) == 4 + -(-28 // per_block)


def test_files_uploaded_on_the_mt_systems_page_are_offered_here(fresh_run):
    at = fresh_run("views/mt_systems.py", timeout=180)
    at.file_uploader(key="mt_refs").set_value(files(MT / "reference.txt"))
    hyps = [MT / "hyp" / f"{s}.txt" for s in ("Aurora", "Borealis", "Ember")]
    at.file_uploader(key="mt_hyps").set_value(files(*hyps)).run()
    assert not at.exception
    at.switch_page(PAGE)
    at.run()
    assert not at.exception and not at.error
    assert at.radio(key="human_source").value == "Files of the MT systems page"
    assert _metric(at, "Systems compared").value == "3"
    assert any("Aurora.txt" in i.value for i in at.info)
    assert _metric(at, "Pairs humans separate").value.endswith(" / 3")
    # "most accurate" names every test that reaches the top accuracy, not just the first
    table = frame_with(at, "Metric")
    row = table[table["alpha"] == "0.05"].iloc[0]
    correct = row[[c for c in table.columns if c.endswith("Conc.")]].astype(int)
    best = _metric(at, "Most accurate")
    n_top = int((correct == correct.max()).sum())
    if n_top == len(correct):
        assert f"all {n_top} tests tie" in best.delta
    elif n_top > 1:
        assert best.delta.startswith(f"{n_top} tie")
    else:
        assert "tie" not in best.delta


def test_adequacy_only_judgements(at):
    lines = (HUMAN / "judgements.tsv").read_text().splitlines()
    text = "\n".join([lines[0], *[ln for ln in lines[1:] if "\tadequacy\t" in ln]]) + "\n"
    at.file_uploader(key="human_judgements_upload").set_value(
        [("adequacy.tsv", text.encode(), "text/plain")]
    ).run()
    assert not at.exception and not at.error
    assert len(at.get("plotly_chart")) == 5
    assert _metric(at, "Judgements used").value == f"{text.count(chr(10)) - 1:,}"
    assert set(frame_with(at, "sd")["criterion"]) == {"adequacy"}


def test_published_da_file_is_the_gold_standard_and_ranked(at):
    from tests._data import da_segment_text

    text = da_segment_text().encode()
    at.file_uploader(key="human_judgements_upload").set_value(
        [("ad-seg-scores-de-en.csv", text, "text/csv")]
    ).run()
    assert_no_exception(at)
    assert not at.error
    assert _metric(at, "Judgements used").value == "480"  # 8 systems x 60 segment scores
    tables = [t.value for t in at.table]
    ranking = next(t for t in tables if "cluster" in getattr(t, "columns", []))
    assert list(ranking.index)[0] == "Aurora"
    assert ranking["segments"].tolist() == [60] * 8
    assert any("Human ranking, de-en" in m.value for m in at.markdown)


def test_wmt_segment_files_of_several_language_pairs_take_the_judgements_pair(at):
    # published segment-level files (cs-en and en-de in each) beside organisers' DA file of
    # en-de: the language pair comes from the DA file's name, and every test runs on that block
    from stats.analyses import accuracy_from_results, human_gold, score_statistics
    from stats.mt.randomized import pairwise_significance
    from tests import _wmt_data as wmt
    from tests._data import da_segment_text

    da = [("ad-seg-scores-en-de.csv", da_segment_text(wmt.MT_SYSTEMS).encode(), "text/csv")]
    seg = [(n, b, "application/octet-stream") for n, b in wmt.segment_level_files().items()]
    at.file_uploader(key="human_judgements_upload").set_value(da)
    at.radio(key="human_source").set_value("Segment scores").run()
    at.file_uploader(key="human_scores_upload").set_value(seg).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert at.selectbox(key="human_score_lp").value == "en-de"
    assert at.selectbox(key="human_score_refset").value == wmt.TESTSET  # the test set's own
    at.multiselect(key="human_metrics").set_value(["COMET"])
    at.multiselect(key="human_tests").set_value(["approximate-randomization"])
    at.number_input(key="human_resamples").set_value(200).run()
    assert not at.exception and not at.error
    assert any("COMET, en-de, test set newstest2020" in c.value for c in at.caption)
    # the systems the humans judged: the human translation of en-de is not among them
    assert _metric(at, "Systems compared").value == str(len(wmt.MT_SYSTEMS))
    # the accuracy equals the workflow's on the en-de block of COMET
    files_ = tuple((n, b) for n, b, _ in seg)
    data = score_statistics(files_, metric="COMET", lp="en-de")
    test = pairwise_significance(
        data, test="approximate-randomization", n_resamples=200, alternative="greater",
        rng=12345,
    )
    want = accuracy_from_results(
        human_gold(tuple((n, b) for n, b, _ in da)),
        {("COMET", "approximate-randomization"): test},
        n_resamples=200,
        seed=12345,
    )
    table = frame_with(at, "Metric")
    conc = int(table[table["alpha"] == "0.05"]["Approx. Rand.: Conc."].iloc[0])
    assert conc == int(want.table.loc[want.table["alpha"] == 0.05, "correct"].iloc[0])
    # another language pair: the cs-en block (same systems, other scores)
    at.selectbox(key="human_score_lp").set_value("cs-en").run()
    assert not at.exception and not at.error
    assert any("COMET, cs-en" in c.value for c in at.caption)
