"""A session's memory cap holds while every page reads: an upload whose reading would take the
session past its cap is refused before any reader sees it (dashboard.data.upload_memory,
asked by components.file_input once per new upload), in one line naming the file, its size,
the estimate and the cap; a normal file still reads. The estimate counts an archive's or a gzip
stream's unpacked bytes, not its compressed size, and the session's other uploads."""

from __future__ import annotations

import gzip
import io
import re
import zipfile
from pathlib import Path

import pytest

import dashboard.components
from dashboard import state
from dashboard.data import upload_memory
from tests.dashboard.helpers import assert_no_exception

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_data"
CAP = 4 * 2**20  #: the session cap the page tests lower to
_REFUSAL = re.compile(
    r"^(?P<name>\S+) \((?P<size>[\d.,]+ \w+)\) is not read: reading it needs about "
    r"(?P<need>[\d.,]+ \w+) of memory.*, over this session's cap of 4\.0 MiB; "
)


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def _grown(data: bytes, size: int) -> bytes:
    """``data`` repeated to at least ``size`` bytes (refused before it is parsed)."""
    return data * (size // len(data) + 1)


# ---- the estimate ----


def test_a_small_file_fits_and_a_large_one_is_refused_in_one_line():
    assert (
        upload_memory.refusal("mt_scores", (("a.tsv", b"x\t1\n" * 100),), held=0, cap=CAP) is None
    )
    big = b"SYSTEM\tSEGMENT\tSCORE\n" + b"sys\t1\t0.5\n" * 100_000  # 1.0 MB
    message = upload_memory.refusal("mt_scores", (("big.tsv", big),), held=0, cap=CAP)
    found = _REFUSAL.match(message)
    assert (
        found and found["name"] == "big.tsv" and found["size"] == f"{len(big) / 2**10:,.1f} KiB"
    ), message
    factor = upload_memory.READ_FACTORS["mt_scores"]
    assert found["need"] == f"{factor * len(big) / 2**20:,.1f} MiB"
    assert "\n" not in message


def test_what_the_session_holds_counts():
    data = b"x" * (CAP // 40)  # fits alone (1.6 MiB to read), not beside 3 MiB of uploads
    assert upload_memory.refusal("metrics_upload", (("a.tsv", data),), held=0, cap=CAP) is None
    message = upload_memory.refusal("metrics_upload", (("a.tsv", data),), held=3 * 2**20, cap=CAP)
    assert message and "beside 3.0 MiB held" in message


def test_archives_count_unpacked_and_text_that_is_not_ascii_counts_more():
    body = b"0.5\n" * 250_000  # 1 MB, compresses to a few KB
    for packed in (gzip.compress(body), _zip({"a/m.seg.score": body}),
                   _zip({"a/m.seg.score.gz": gzip.compress(body)})):  # fmt: skip
        assert len(packed) < 20_000
        assert upload_memory.unpacked_size(packed, 2**30) == len(body)
        assert upload_memory.refusal("board_upload", (("x.zip", packed),), held=0, cap=CAP)
    packed = _zip({"a/m.seg.score": body})  # declared sizes: counted exactly
    message = upload_memory.refusal("board_upload", (("x.zip", packed),), held=0, cap=CAP)
    assert message.startswith("x.zip (") and ", 1,000,000 bytes unpacked) is not" in message
    # two gzip members in one stream: both counted
    assert upload_memory.unpacked_size(gzip.compress(body) * 2, 2**30) == 2 * len(body)
    # a bomb's counting stops past what matters
    bomb = gzip.compress(b"\0" * 16 * 2**20)
    assert 2**20 < upload_memory.unpacked_size(bomb, 2**20) < 4 * 2**20
    message = upload_memory.refusal("board_upload", (("b.gz", bomb),), held=0, cap=CAP)
    assert message.startswith(f"b.gz ({len(bomb) / 2**10:,.1f} KiB, more than 1,"), message
    ascii_, other = b"a" * 600_000, "ä".encode() * 300_000
    assert upload_memory.estimate("mt_scores", "a", other, CAP) > upload_memory.estimate(
        "mt_scores", "a", ascii_, CAP
    )


def test_every_uploader_of_the_pages_has_a_factor_or_reads_in_a_child():
    keys = set()
    for path in [*(REPO / "dashboard" / "views").glob("*.py"),
                 *(REPO / "dashboard" / "sections").glob("*.py")]:  # fmt: skip
        text = path.read_text()
        for call in re.finditer(r"(file_input|reference_and_outputs)\((.*?)\n\s*\)", text, re.S):
            keys.update(re.findall(r'key="(\w+)"', call[2]))
            for pair in re.findall(r"keys=\(([^)]*)\)", call[2]):
                keys.update(re.findall(r'"(\w+)"', pair))
    assert len(keys) >= 10, keys
    missing = keys - set(upload_memory.READ_FACTORS) - upload_memory.READ_IN_A_CHILD
    assert not missing, missing


def test_the_session_kept_uploads_are_counted_but_the_uploader_s_own():
    session = {
        state.upload_store_key("a"): {"uploads": (("x", b"12345"),), "ids": ()},
        state.upload_store_key("b"): {"uploads": (("y", b"123"), ("z", b"1")), "ids": ()},
        "other": {"uploads": (("w", b"123456789"),)},
    }
    assert state.kept_upload_bytes(session) == 9
    assert state.kept_upload_bytes(session, other_than="a") == 4


# ---- each page, through its uploader ----


def _text(path: str) -> tuple[str, bytes]:
    p = SAMPLE / path
    return p.name, p.read_bytes()


def _wmt25() -> list[tuple[str, bytes]]:
    return [
        (p.name, p.read_bytes())
        for p in sorted((SAMPLE / "wmt25/automatic_scores").glob("*.jsonl"))
    ]


PAGE_CAP = 256 * 2**20  #: the session cap of the page tests (the samples' own runs fit in it,
#: their computations in isolated children included)


def _past_cap(key: str) -> int:
    """Bytes of text whose reading by uploader ``key`` needs more than :data:`PAGE_CAP`."""
    return PAGE_CAP // upload_memory.READ_FACTORS[key] + 100_000


#: page, settings before the first run (cheap runs of the sample), uploader key, the upload
#: refused (made from the sample, past the cap), a normal upload (the sample: its results
#: are cached from the first run)
PAGES = {
    "mt_systems": (
        "views/mt_systems.py",
        {"mt_source": "Segment scores", "mt_resamples": 200},
        "mt_scores",
        lambda n: [("big.tsv", _grown(_text("mt/segment_scores.tsv")[1], n))],
        [_text("mt/segment_scores.tsv")],
    ),
    "mt_systems text": (
        "views/mt_systems.py",
        {"mt_resamples": 200},
        "mt_refs",
        lambda n: [("big.ref.txt", _grown(_text("mt/reference.txt")[1], n))],
        [_text("mt/reference.txt")],
    ),
    "metrics": (
        "views/metrics.py",
        {},
        "metrics_upload",  # a zip: its unpacked size counts
        lambda n: [
            (
                "big.zip",
                _zip({"wmt/metrics-long.tsv": b"sys\t0.5\n" * (n // 8 + 1)}),
            )
        ],
        [_text("metrics/human.tsv"), _text("metrics/metrics.tsv")],
    ),
    "human": (
        "views/human.py",
        {"human_resamples": 200},
        "human_judgements_upload",
        lambda n: [("big.tsv", _grown(_text("human/judgements.tsv")[1], n))],
        [_text("human/judgements.tsv")],
    ),
    "leaderboard": (
        "views/leaderboard.py",
        {"board_resamples": 100},
        "board_upload",
        lambda n: [("big.tar.gz", gzip.compress(b"\0" * n))],  # counted unpacked
        [_text("meta/wmt-sample.zip")],
    ),
    "power": (
        "views/power.py",
        {"power_simulations": 100, "power_resamples": 100},
        "power_scores",
        lambda n: [("big.tsv", _grown(_text("mt/segment_scores.tsv")[1], n))],
        [_text("mt/segment_scores.tsv")],
    ),
    "autorank": (
        "views/autorank.py",
        {"autorank_resamples": 200},
        "autorank_upload",
        lambda n: [("big.jsonl", _grown(_wmt25()[0][1], n))],
        _wmt25(),
    ),
}


@pytest.mark.parametrize("page", list(PAGES))
def test_each_page_refuses_an_upload_past_the_session_cap_and_reads_a_normal_one(
    page, app_test, monkeypatch
):
    script, settings, key, make_big, normal = PAGES[page]
    big = make_big(_past_cap(key))
    monkeypatch.setattr(dashboard.components, "SESSION_MAX_MEMORY", PAGE_CAP)
    at = app_test(script, timeout=120)
    for name, value in settings.items():
        at.session_state[name] = value
    at.run()
    assert_no_exception(at)
    at.file_uploader(key=key).set_value([(n, d, "application/octet-stream") for n, d in big])
    at.run()
    assert_no_exception(at)
    errors = [e.value for e in at.error]
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"{big[0][0]} (") and "is not read" in errors[0], errors[0]
    assert "over this session's cap of 256.0 MiB" in errors[0], errors[0]
    # the refused bytes are not kept by the session
    assert state.kept_upload_bytes(at.session_state) == 0
    at.file_uploader(key=key).set_value([(n, d, "text/plain") for n, d in normal]).run()
    assert_no_exception(at)
    assert not [e.value for e in at.error], [e.value for e in at.error]
    assert state.kept_upload_bytes(at.session_state) == sum(len(d) for _, d in normal)


def test_wmt_score_files_count_at_their_own_measured_factor():
    """WMT ``*.seg.score`` files (5.4-5.6x measured) count at their own factor in the meta-
    evaluation uploaders (16x for their other layouts), alone, gzipped or in a zip; other
    names keep the uploader's factor."""

    body = b"sentBLEU\tde-en\tnewstest2020\tA\t1\t0.5\n" * 2000
    seg = upload_memory.estimate("metrics_upload", "sentBLEU.seg.score", body, CAP)
    assert seg == pytest.approx(7 * len(body))
    gz = upload_memory.estimate("metrics_upload", "sentBLEU.seg.score.gz", gzip.compress(body), CAP)
    assert gz == pytest.approx(7 * len(body))
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("wmt/sentBLEU.seg.score", body)
        archive.writestr("wmt/long.tsv", body)
    both = upload_memory.estimate("metrics_upload", "w.zip", packed.getvalue(), CAP)
    assert both == pytest.approx((7 + 16) * len(body))
    assert upload_memory.estimate("metrics_upload", "long.tsv", body, CAP) == 16 * len(body)
