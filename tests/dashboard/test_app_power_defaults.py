"""The Power page at its own defaults on WMT-size uploads: 12 systems x 557 segments
(segment scores and system outputs, BLEU paired bootstrap) and 2,000 segments x 16 systems
run, show the rate at effect 0 beside the curves, the sample size with its Monte Carlo error
and what "effect" means; a refusal names the page's own controls."""

from __future__ import annotations

import numpy as np

from tests.dashboard.helpers import assert_no_exception, frame_with


def _scores_file(tmp_path, systems: int, segments: int, seed: int = 0):
    """A long segment-score file (SYSTEM SEGMENT SCORE), ESA-like integers 0-100."""
    gen = np.random.default_rng(seed)
    base = np.clip(np.rint(gen.normal(75, 15, segments)), 0, 100)
    rows = ["SYSTEM\tSEGMENT\tSCORE"]
    for k in range(systems):
        s = np.clip(base + np.rint(gen.normal(k * 0.3, 8, segments)), 0, 100)
        rows += [f"sys{k:02d}\t{i}\t{v:g}" for i, v in enumerate(s)]
    path = tmp_path / f"scores_{systems}x{segments}.tsv"
    path.write_text("\n".join(rows) + "\n")
    return path


def _text_files(tmp_path, systems: int, segments: int, seed: int = 0):
    gen = np.random.default_rng(seed)
    vocab = np.array([f"w{i}" for i in range(300)])
    refs = [" ".join(gen.choice(vocab, gen.integers(8, 30))) for _ in range(segments)]
    ref = tmp_path / "newstest.ref.en"
    ref.write_text("\n".join(refs) + "\n")
    hyps = []
    for k in range(systems):
        p = 0.45 - 0.01 * k
        lines = [" ".join(w if gen.random() > p else str(gen.choice(vocab)) for w in r.split())
                 for r in refs]
        path = tmp_path / f"sys{k:02d}.txt"
        path.write_text("\n".join(lines) + "\n")
        hyps.append(path)
    return ref, hyps


def _upload(paths):
    return [(p.name, p.read_bytes(), "text/plain") for p in paths]


def _check_page(at, unit="segments"):
    assert_no_exception(at)
    table = frame_with(at, "rate at effect 0 (size)")
    assert (table["rate at effect 0 (size)"] < 0.15).all()
    texts = " ".join(m.value for m in at.markdown)
    assert "Sample size for 80% power at effect 0.5" in texts
    captions = " ".join(c.value for c in at.caption).lower()
    assert "effect = the mean per-item difference" in captions or "effect = the difference in" \
        in captions
    # sizes beyond the observed segments are said to be resampled
    assert any("resample the observed" in w.value for w in at.warning)
    assert len(at.get("plotly_chart")) == 2


def test_defaults_on_12_systems_x_557_segment_scores(fresh_run, tmp_path):
    at = fresh_run("views/power.py", timeout=240)
    at.file_uploader(key="power_scores").set_value(
        _upload([_scores_file(tmp_path, 12, 557)])).run(timeout=240)
    _check_page(at)
    assert not at.error


def test_defaults_on_2000_segments_x_16_systems_signed_rank(fresh_run, tmp_path):
    at = fresh_run("views/power.py", timeout=300)
    at.file_uploader(key="power_scores").set_value(
        _upload([_scores_file(tmp_path, 16, 2000, seed=1)])).run(timeout=300)
    at.selectbox(key="power_test").set_value("signed-rank").run(timeout=300)
    _check_page(at)
    assert not at.error


def test_defaults_on_12_systems_x_557_segments_of_text_and_refusal_in_page_words(
        fresh_run, tmp_path):
    ref, hyps = _text_files(tmp_path, 12, 557)
    at = fresh_run("views/power.py", timeout=300)
    at.radio(key="power_source").set_value(
        "System outputs + reference (BLEU, chrF, TER)").run(timeout=300)
    at.file_uploader(key="power_refs").set_value(_upload([ref])).run(timeout=300)
    at.file_uploader(key="power_hyps").set_value(_upload(hyps)).run(timeout=300)
    _check_page(at)
    assert not at.error
    # the budget's refusal names the page's controls, not the library's arguments
    at.session_state["power_simulations"] = 5000
    at.session_state["power_resamples"] = 5000
    at.run(timeout=300)
    message = " ".join(e.value for e in at.error)
    assert "Simulations per n = 5,000 x Resamples per test = 5,000" in message, message
    assert "n_simulations" not in message and "n_resamples" not in message
