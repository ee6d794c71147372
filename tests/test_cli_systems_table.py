"""``python -m stats randomized`` with several metrics and ``--baseline``: the sacreBLEU-style
systems table in JSON and TSV, errors (exit 2, one line), today's output unchanged otherwise.

Golden source: sacreBLEU's ``PairedTest`` (sacrebleu 2.6.0, a project dependency) run live on
the same files and seed (12345, sacreBLEU's default): the table's p-values must be equal (the
draws are sacreBLEU's; see tests/test_systems_table.py for why μ and CI agree to 1e-4).
"""

from __future__ import annotations

import json

import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from stats.cli import main
from tests._data import write_mt_sample_head

SYSTEMS = ("Aurora", "Cirrus", "Delta", "Harbor")
ROW_KEYS = ["system", "metric", "score", "mean", "ci", "statistic", "pvalue", "significant"]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    d = tmp_path_factory.mktemp("mt")
    write_mt_sample_head(d, 80, SYSTEMS, ref_name="ref.txt")
    return d


def _run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _text_args(d, *extra):
    return ["randomized", "--ref", str(d / "ref.txt"),
            "--hyp", *[str(d / f"{s}.txt") for s in SYSTEMS], *extra]


def test_several_metrics_json_table_equals_sacrebleu(small, capsys, monkeypatch):
    code, out, err = _run(_text_args(small, "--metric", "bleu", "chrf", "ter", "--baseline",
                                     "Delta", "--resamples", "1000", "--jobs", "1"), capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert list(doc) == ["results", "table"]
    assert [b["metric"] for b in doc["results"]] == ["bleu", "chrf", "ter"]
    table = doc["table"]
    assert table["baseline"] == "Delta" and table["systems"] == ["Delta", "Aurora", "Cirrus",
                                                                  "Harbor"]
    assert table["metrics"] == ["BLEU", "chrF2", "TER"]
    assert table["test"] == "paired-bootstrap" and table["alternative"] == "two-sided"
    assert table["seed"] == 12345 and table["n_resamples"] == 1000 and table["alpha"] == 0.05
    assert len(table["rows"]) == 4 * 3 and all(list(r) == ROW_KEYS for r in table["rows"])

    refs = [(small / "ref.txt").read_text().splitlines()]
    hyps = {s: (small / f"{s}.txt").read_text().splitlines() for s in SYSTEMS}
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    _, gold = PairedTest(
        [(s, hyps[s]) for s in table["systems"]],
        {"BLEU": sacrebleu.BLEU(), "chrF": sacrebleu.CHRF(), "TER": sacrebleu.TER()},
        refs, test_type="bs", n_samples=1000,
    )()
    rows = {(r["system"], r["metric"]): r for r in table["rows"]}
    for key, label in zip(["BLEU", "chrF2", "TER"], table["metrics"], strict=True):
        for i, s in enumerate(table["systems"]):
            row, g = rows[(s, label)], gold[key][i]
            assert row["score"] == pytest.approx(g.score, abs=1e-9)
            assert row["mean"] == pytest.approx(g.mean, abs=1e-4)
            assert row["ci"] == pytest.approx(g.ci, abs=1e-4)
            assert row["pvalue"] == g.p_value  # None for the baseline
            assert row["significant"] is (g.p_value is not None and g.p_value < 0.05)


def test_baseline_with_one_metric_keeps_the_block_and_adds_the_table(small, capsys):
    plain = _text_args(small, "--metric", "chrf", "--resamples", "300", "--seed", "9")
    code, out, _ = _run(plain, capsys)
    assert code == 0 and "table" not in json.loads(out)
    code, with_table, err = _run([*plain, "--baseline", "Harbor"], capsys)
    assert code == 0, err
    doc = json.loads(with_table)
    assert list(doc)[-1] == "table"
    assert {k: v for k, v in doc.items() if k != "table"} == json.loads(out)
    assert doc["table"]["systems"][0] == "Harbor" and doc["table"]["metrics"] == ["chrF2"]
    assert doc["table"]["seed"] == 9


def test_default_baseline_is_the_first_system_and_ar_follows_test(small, capsys):
    code, out, err = _run(_text_args(small, "--metric", "bleu", "ter", "--test",
                                     "approximate-randomization", "--resamples", "400"), capsys)
    assert code == 0, err
    table = json.loads(out)["table"]
    assert table["baseline"] == "Aurora" and table["test"] == "approximate-randomization"
    assert table["n_resamples"] == 400 and table["n_ci_resamples"] == 1000
    # the shift-to-zero bootstrap has no sacreBLEU counterpart: the table uses the paired one
    code, out, _ = _run(_text_args(small, "--metric", "bleu", "--baseline", "Cirrus",
                                   "--test", "bootstrap", "--resamples", "200"), capsys)
    assert json.loads(out)["table"]["test"] == "paired-bootstrap"


def test_tsv_prints_blocks_then_the_table(small, capsys):
    code, out, err = _run(_text_args(small, "--metric", "bleu", "chrf", "--format", "tsv",
                                     "--resamples", "300", "--baseline", "Cirrus"), capsys)
    assert code == 0, err
    blocks = out.split("\n\n# metric=")
    assert out.startswith("# metric=bleu") and blocks[1].startswith("chrf")
    table = out[out.index("# systems table"):].splitlines()
    assert table[0].startswith("# systems table against baseline=Cirrus: test=paired-bootstrap")
    assert "seed=12345" in table[0] and "† p < 0.05" in table[1]
    assert table[2] == "system\tBLEU\tBLEU p\tchrF2\tchrF2 p"
    assert table[3].startswith("Cirrus\t") and table[3].endswith("\t-")
    harbor = next(line for line in table if line.startswith("Harbor\t")).split("\t")
    assert " ± " in harbor[1] and harbor[2].endswith("†")  # far worse than Cirrus


def test_unknown_baseline_one_line_exit_2(small, capsys):
    code, out, err = _run(_text_args(small, "--metric", "bleu", "chrf", "--baseline", "Nope"),
                          capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: baseline: unknown system 'Nope'; known systems: Aurora")


def test_scores_file_table(capsys):
    from tests._data import MT

    code, out, err = _run(["randomized", "--scores", str(MT / "segment_scores.tsv"),
                           "--score-metric", "SimCOMET", "--baseline", "Delta",
                           "--resamples", "200"], capsys)
    assert code == 0, err
    table = json.loads(out)["table"]
    assert table["metrics"] == ["SimCOMET"] and table["systems"][0] == "Delta"
    assert len(table["rows"]) == 8
