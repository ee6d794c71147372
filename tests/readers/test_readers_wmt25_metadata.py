"""WMT25's systems metadata (stats.readers.wmt25_metadata) and the organisers' team filter it
carries (``compute_autorank.py`` ranks, per language pair, only the systems whose record lists
the pair), on generated files in the published layouts (``systems_metadata_updated3.json``:
``supported_lps`` a mapping; ``systems_metadata.json``: ``lps`` a list)."""

from __future__ import annotations

import json

import pytest

from stats import StatsInputError
from stats.analyses import autorank_analysis, read_autorank_scores
from stats.mt.automatic_ranking import autorank, autorank_metrics
from stats.readers.wmt25_metadata import read_wmt25_systems_metadata
from tests._wmt25_data import generate

FILES = generate(11)  # 8 systems, 4 language pairs


def _record(lps, layout="updated3"):
    if layout == "updated3":
        return {"constrained": True, "description": "", "supported_lps": {lp: "supported" for lp in lps}}
    return {"constrained": False, "description": "", "lps": list(lps)}


@pytest.fixture(scope="module")
def scores():
    return read_autorank_scores(list(FILES.items()))


def test_both_published_layouts_read_alike(scores):
    for layout in ("updated3", "old"):
        meta = {s: _record(scores.lps, layout) for s in scores.systems}
        m = read_wmt25_systems_metadata(json.dumps(meta).encode(), name="meta.json")
        assert m.read_as == (
            f"read as WMT25 systems metadata: 8 systems, 4 language pairs "
            f"({'supported_lps' if layout == 'updated3' else 'lps'})"
        )
        assert all(m.registered(s, lp) for s in scores.systems for lp in scores.lps)


def test_filter_leaves_out_and_names_every_system_it_drops(scores):
    systems = list(scores.systems)
    lp = "en-cs_CZ"
    gone, partial = systems[0], systems[1]
    meta = {s: _record(scores.lps) for s in systems[2:]}
    meta[partial] = _record([x for x in scores.lps if x != lp])
    meta["NOT-SCORED"] = _record([lp])
    data = ("systems_metadata_updated3.json", json.dumps(meta).encode())
    result = autorank_analysis(scores, lps=[lp, "en-de_DE"], intervals=False, systems_metadata=data)
    ranked = result.pair(lp).point.systems
    assert gone not in ranked and partial not in ranked and len(ranked) == len(systems) - 2
    assert partial in result.pair("en-de_DE").point.systems  # its other pairs keep it
    notes = "\n".join(result.notes)
    assert f"{lp}: 1 system(s) not in the systems metadata, not ranked (the organisers' team filter): {gone}" in notes
    assert f"{lp}: 1 system(s) whose metadata does not list {lp}, not ranked there" in notes
    assert "have no automatic scores: NOT-SCORED" in notes
    assert "systems_metadata_updated3.json: read as WMT25 systems metadata: 8 systems" in notes
    # the left-out systems take no part in the robust scaling: AutoRank as on the other rows
    frame = scores.language_pair(lp)
    kept = frame[~frame["system"].isin([gone, partial])]
    plain = autorank(kept, metrics=autorank_metrics(lp), document="doc", lp=lp)
    assert result.pair(lp).point.autorank.to_dict() == plain.autorank.to_dict()
    unfiltered = autorank_analysis(scores, lps=[lp], intervals=False)
    assert unfiltered.pair(lp).point.autorank.to_dict() != plain.autorank.to_dict()
    assert any("give that file (systems_metadata, --systems-metadata)" in n for n in unfiltered.notes)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[1]", "expected a JSON object mapping each system to its record"),
        ("{}", "got an empty object"),
        ('{"A": 3}', "system 'A': expected an object"),
        ('{"A": {"constrained": true}}', "system 'A': no field supported_lps or lps"),
        ('{"A": {"supported_lps": ["en-de_DE"]}}', "field supported_lps: expected a mapping"),
        ('{"A": {"lps": [1]}}', "field lps: expected a list of language pairs"),
        ('{"A": {"lps": ["x"], "supported_lps": {"y": "supported"}}}', "supported_lps and lps list different"),
        ('{"A": {"lps": []}, "A": {"lps": []}}', "key 'A' given twice"),
        ('{"A": ', "not JSON"),
    ],
)
def test_bad_metadata_is_one_line(text, match):
    with pytest.raises(StatsInputError, match=match) as info:
        read_wmt25_systems_metadata(text.encode(), name="m.json")
    assert "m.json" in str(info.value) and "\n" not in str(info.value)
