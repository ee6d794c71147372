"""``--jobs N`` of the subcommands that extract text statistics (randomized, accuracy): the
output does not depend on the number of worker processes; a bad value is an argparse error."""

from __future__ import annotations

import pytest

from stats.cli import main
from tests._data import MT, write_mt_sample_head

SYSTEMS = ("Aurora", "Cirrus", "Delta")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    d = tmp_path_factory.mktemp("mt")
    return write_mt_sample_head(d, 30, SYSTEMS, ref_name="ref.txt")


def _out(capsys, argv):
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def test_randomized_ter_same_output_for_any_jobs(small, capsys, tmp_path, monkeypatch):
    ref, hyps = small
    argv = ["randomized", "--ref", str(ref), "--hyp", *map(str, hyps), "--metric", "ter",
            "--resamples", "100", "--seed", "5"]
    outputs = []
    for k, jobs in enumerate([[], ["--jobs", "1"], ["--jobs", "2"]]):
        monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", str(tmp_path / f"cache{k}"))  # recompute
        outputs.append(_out(capsys, [*argv, *jobs]))
    assert outputs[0] == outputs[1] == outputs[2]


def test_accuracy_accepts_jobs(capsys):
    argv = ["accuracy", "--human", str(MT.parent / "human" / "judgements.tsv"),
            "--ref", str(MT / "reference.txt"), "--hyp", *map(str, sorted((MT / "hyp").glob("*.txt"))),
            "--metric", "bleu", "--resamples", "50", "--seed", "3"]
    assert _out(capsys, [*argv, "--jobs", "1"]) == _out(capsys, argv)


@pytest.mark.parametrize("command", ["randomized", "accuracy"])
@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_bad_jobs_is_an_argparse_error(capsys, command, value):
    with pytest.raises(SystemExit) as exc:
        main([command, "--jobs", value])
    assert exc.value.code == 2
    assert "argument --jobs: must be a positive integer" in capsys.readouterr().err


def test_accuracy_passes_jobs_to_the_resampling(capsys, monkeypatch):
    """``accuracy --jobs N`` reaches every test's resampling threads (default: all cores)."""
    import os

    import stats.human.accuracy
    from stats.mt.randomized import pairwise_significance

    seen = []

    def spy(*args, **kwargs):
        seen.append(kwargs.get("jobs"))
        return pairwise_significance(*args, **kwargs)

    monkeypatch.setattr(stats.human.accuracy, "pairwise_significance", spy)
    argv = ["accuracy", "--human", str(MT.parent / "human" / "judgements.tsv"),
            "--ref", str(MT / "reference.txt"), "--hyp", *map(str, sorted((MT / "hyp").glob("*.txt"))),
            "--metric", "bleu", "--tests", "paired-bootstrap", "approximate-randomization",
            "--resamples", "50", "--seed", "3"]
    two = _out(capsys, [*argv, "--jobs", "2"])
    assert seen == [2, 2]
    seen.clear()
    default = _out(capsys, argv)
    assert seen == [os.cpu_count(), os.cpu_count()]
    assert two == default
