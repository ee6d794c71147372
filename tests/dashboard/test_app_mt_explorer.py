"""AppTest tests of the segment explorer on "MT systems" (dashboard/sections/mt_explorer.py): the
table equals :func:`stats.segment_contributions` sorted by |contribution|, the length slider
and the search filter it, a source upload is shown, a source of another length is one error."""

from __future__ import annotations

import numpy as np

from stats import segment_contributions
from stats.mt.sufficient import extract_statistics, statistics_from_scores
from stats.readers.segments import read_parallel, read_segment_scores
from tests._data import MT, mt_sample_head
from tests.dashboard.helpers import assert_no_exception, frame_with

PAGE = "views/mt_systems.py"
SYSTEMS = ("Aurora", "Cirrus", "Delta", "Harbor")


def _explorer(at):
    return frame_with(at, "contribution")


def _upload_head(at, n=60):
    ref, hyps = mt_sample_head(n, SYSTEMS)
    at.file_uploader(key="mt_refs").set_value([("ref.txt", ref.encode(), "text/plain")])
    at.file_uploader(key="mt_hyps").set_value(
        [(f"{s}.txt", h.encode(), "text/plain") for s, h in hyps.items()]
    ).run()
    assert_no_exception(at)
    return ref, hyps


def test_table_equals_the_stats_contributions_and_filters(fresh_run):
    at = fresh_run(PAGE)
    ref, hyps = _upload_head(at)
    at.selectbox(key="mt_explore_a").set_value("Aurora").run()
    at.selectbox(key="mt_explore_b").set_value("Delta").run()
    assert_no_exception(at)
    assert not at.error
    table = _explorer(at)
    refs, hyp = read_parallel([ref.encode()], [(f"{s}.txt", h.encode()) for s, h in hyps.items()])
    want = segment_contributions(extract_statistics(refs, hyp), "Aurora", "Delta")
    assert len(table) == 60
    assert list(table.columns) == [
        "segment",
        "reference",
        "hypothesis A",
        "hypothesis B",
        "length",
        "contribution",
    ]
    np.testing.assert_allclose(
        table["contribution"].to_numpy(), want.contributions.loc[table["segment"]].to_numpy()
    )
    assert (np.diff(np.abs(table["contribution"].to_numpy())) <= 0).all()  # largest first
    first = table.iloc[0]
    i = int(first["segment"]) - 1
    assert first["reference"] == refs[0][i] and first["hypothesis A"] == hyp["Aurora"][i]
    assert first["hypothesis B"] == hyp["Delta"][i]
    assert first["length"] == len(refs[0][i].split())

    lo, hi = at.slider(key="mt_explore_length").value
    at.slider(key="mt_explore_length").set_value((lo, lo + (hi - lo) // 2)).run()
    short = _explorer(at)
    assert 0 < len(short) < 60 and short["length"].max() <= lo + (hi - lo) // 2
    word = refs[0][0].split()[0]
    at.slider(key="mt_explore_length").set_value((lo, hi))
    at.text_input(key="mt_explore_search").input(word).run()
    found = _explorer(at)
    texts = found[["segment", "reference", "hypothesis A", "hypothesis B"]].agg(" ".join, axis=1)
    assert len(found) >= 1 and texts.str.lower().str.contains(word.lower()).all()


def test_source_upload_and_mismatch(fresh_run):
    at = fresh_run(PAGE)
    _upload_head(at, n=20)
    source = "".join(f"source sentence {i}\n" for i in range(1, 21)).encode()
    at.file_uploader(key="mt_explore_source").set_value([("src.txt", source, "text/plain")]).run()
    assert_no_exception(at)
    table = _explorer(at)
    assert list(table.columns[:3]) == ["segment", "source", "reference"]
    assert (table["source"] == "source sentence " + table["segment"]).all()
    at.file_uploader(key="mt_explore_source").set_value(
        [("src.txt", source[: source.index(b"\n") + 1], "text/plain")]
    ).run()
    assert_no_exception(at)
    assert len(at.error) == 1
    assert (
        at.error[0]
        .value.strip()
        .endswith(
            "src.txt has 1 lines but ref.txt has 20; the source text needs one line per segment"
        )
    )


def test_segment_scores_give_the_score_difference(fresh_run):
    at = fresh_run(PAGE)
    at.radio(key="mt_source").set_value("Segment scores").run()
    at.selectbox(key="mt_explore_a").set_value("Cirrus").run()
    at.selectbox(key="mt_explore_b").set_value("Aurora").run()
    assert_no_exception(at)
    table = _explorer(at)
    assert list(table.columns) == ["segment", "contribution"]
    frame = read_segment_scores(MT / "segment_scores.tsv", metric="chrF")
    diff = (frame["Cirrus"] - frame["Aurora"]).loc[table["segment"]]
    np.testing.assert_allclose(table["contribution"].to_numpy(), diff.to_numpy(), atol=1e-12)
    assert statistics_from_scores(frame).n_segments == len(table)

