"""Options follow the rules files follow: every numeric option and
option value through the one number rule with the files' bound (1e150), and the command line's
messages right -- argument names become flags only where they are argument names, budget
messages name what the user controls, the same system twice is named as such."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from stats import StatsInputError
from stats._core.budget import check_budget
from stats._core.numbers import number_error, option_float, option_int
from stats.cli import build_parser, main
from stats.cli._common import flag_names
from stats.readers.mqm import parse_mqm_weights

ROOT = Path(__file__).resolve().parents[1]
SCORES = ROOT / "sample_data" / "mt" / "segment_scores.tsv"
POWER = ["power", "--scores", str(SCORES), "--baseline", "Aurora", "--system", "Borealis"]


def _one_line(capsys, code_or_exit) -> str:
    err = capsys.readouterr().err
    assert code_or_exit == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def _run(argv, capsys) -> str:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse's refusal of an option value
        code = exc.code
    return _one_line(capsys, code)


# ---- 1. one number rule for options ----


@pytest.mark.parametrize(
    ("text", "integer"),
    [("5_0", False), ("٥", False), ("５", False), ("0x10", True), ("１００", True), ("١٢", True),
     ("1,5", False), ("nan", False), ("inf", False), ("1e308", False), ("1e3", True),
     ("9" * 5000, True), ("1" + "0" * 151, True)],
)  # fmt: skip
def test_number_rule_of_options_refuses(text, integer):
    assert number_error(text, integer=integer) is not None
    with pytest.raises(argparse.ArgumentTypeError):
        (option_int if integer else option_float)(text)


def test_number_rule_of_options_accepts_plain_numbers():
    assert option_float(" 0.5 ") == 0.5 and option_float("-1e150") == -1e150
    assert option_float("2.5E-3") == 0.0025 and option_int("+12") == 12


def test_every_numeric_option_of_every_subcommand_follows_the_rule():
    parser = build_parser()
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)][0]
    checked = 0
    for name, sub in subs.choices.items():
        for action in sub._actions:
            assert action.type not in (int, float), (name, action.option_strings)
            checked += action.type in (option_int, option_float)
    assert checked > 30  # --effect, --n, --seed, --resamples, --alpha, ... of every subcommand


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--effect", "5_0"], "argument --effect: '5_0' is not a number"),
        (["--effect", "0.5", "--n", "１００"], "argument --n: '１００' is not an integer"),
        (["--effect", "0.5", "--seed", "١٢"], "argument --seed: '١٢' is not an integer"),
        (["--effect", "0.5", "--resamples", "0x10"], "argument --resamples: '0x10'"),
        (["--effect", "1e200"], "is beyond +-1e+150"),
        (["--effect", "nan"], "'nan' is not a finite number"),
        (["--effect", "0.5", "--alpha", "5_0e-2"], "argument --alpha"),
    ],
)
def test_cli_number_options_refused_in_one_line(extra, needle, capsys):
    assert needle in _run([*POWER, *extra], capsys)


def test_other_subcommands_number_options(capsys):
    assert "--resamples: '5_0'" in _run(
        ["randomized", "--scores", SCORES, "--resamples", "5_0"], capsys
    )
    assert "--jobs: must be a positive integer; got '٢'" in _run(
        ["randomized", "--scores", SCORES, "--jobs", "٢"], capsys
    )
    assert "--rescale-sd: '0x1p-1'" in _run(
        ["qe", "--data", SCORES, "--rescale-sd", "0x1p-1"], capsys
    )


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("Major:5_0", "'5_0' is not a number"),
        ("Major:٥", "'٥' is not a number"),
        ("Major:1e308 Minor:1e308", "beyond +-1e+150"),
        ("Major:inf", "not a finite number"),
        ("Major:5 major:6", "given twice"),
    ],
)
def test_mqm_weights_by_the_number_rule(spec, needle):
    with pytest.raises(StatsInputError, match="mqm_weights: ") as info:
        parse_mqm_weights(spec)
    assert needle in str(info.value)


def test_mqm_weights_sep_empty_is_one_line():
    with pytest.raises(StatsInputError, match="mqm_weights_sep: .*non-empty"):
        parse_mqm_weights("Major:5", sep="")
    assert parse_mqm_weights("Major:5;Minor:0.5", sep=";") == {"major": 5.0, "minor": 0.5}


@pytest.fixture(scope="module")
def mqm_file(tmp_path_factory):
    from tests.cli.test_cli_human_wmt import SYSTEMS, make

    out = tmp_path_factory.mktemp("mqm")
    texts = make.generate(11, systems=SYSTEMS, n_segments=30, n_domains=2, n_users=2)
    path = out / "en-de.mqm.tsv"
    path.write_text(texts["en-de.mqm.tsv"], encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--mqm-weights", "Major:1e308 Minor:1e308"], "--mqm-weights: 'Major:1e308'"),
        (["--mqm-weights", "Major:5_0"], "--mqm-weights: 'Major:5_0': the weight '5_0'"),
        (["--mqm-weights", "Major:5", "--mqm-weights-sep", ""], "--mqm-weights-sep: "),
    ],
)
def test_cli_mqm_weights_refused(mqm_file, extra, needle, capsys):
    assert needle in _run(["human", "--human", mqm_file, *extra], capsys)


# ---- 7. messages that are right ----


def test_flag_names_leave_paths_alone():
    assert flag_names("pe/post_edit.tsv: file not found") == "pe/post_edit.tsv: file not found"
    assert flag_names("C:\\pe\\post_edit.tsv, line 2") == "C:\\pe\\post_edit.tsv, line 2"
    assert flag_names("post_edit-v2.tsv: x") == "post_edit-v2.tsv: x"
    assert flag_names("post_edit needs SID") == "--post-edit needs SID"
    assert flag_names("n_resamples must be >= 1.") == "--resamples must be >= 1."
    # a file named like an argument, given by the user: left as it is
    assert flag_names("post_edit: is empty", ["post_edit"]) == "post_edit: is empty"
    assert flag_names("mqm_weights_sep: x") == "--mqm-weights-sep: x"


def test_cli_error_keeps_the_file_path(tmp_path, capsys):
    folder = tmp_path / "pe"
    folder.mkdir()
    post_edit = folder / "post_edit.tsv"
    post_edit.write_text("")
    err = _run(["qe", "--data", SCORES, "--post-edit", post_edit], capsys)
    assert str(post_edit) in err and "--post-edit.tsv" not in err


def test_budget_message_names_the_product_the_user_controls():
    with pytest.raises(StatsInputError) as info:
        check_budget(
            what="power", n_resamples=1000 * 1000, n_segments=10**5,
            resamples_of={"n_simulations": 1000, "n_resamples": 1000},
        )  # fmt: skip
    text = str(info.value)
    assert "n_simulations=1,000 x n_resamples=1,000" in text
    assert "reduce n_simulations x n_resamples to at most 100,000" in text
    assert "(n_resamples to at most 100 with n_simulations=1,000)" in text
    cli = flag_names(text)
    assert "reduce --simulations x --resamples to at most 100,000" in cli


def test_same_system_twice_is_named(capsys):
    argv = ["power", "--scores", SCORES, "--baseline", "Aurora", "--system", "Aurora"]
    err = _run([*argv, "--effect", "1"], capsys)
    assert "--baseline and --system name the same system 'Aurora'" in err


def test_a_pooled_task_prints_its_correlation(tmp_path, capsys):
    import json

    from tests._wmt_published import long_text

    data = tmp_path / "scores.tsv"
    data.write_text(long_text(lps=("de-en", "en-de"), humans=False))
    tasks = tmp_path / "ts.json"
    tasks.write_text(json.dumps({"tasks": [
        {"lp": ["de-en", "en-de"], "level": "sys", "correlation": "pairwise-accuracy"},
        {"lp": "de-en", "level": "seg", "correlation": "acc23", "tie-calibration": True},
    ]}))  # fmt: skip
    code = main(["rank", "--data", str(data), "--task-set", str(tasks), "--resamples", "10",
                 "--format", "tsv"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    line = next(ln for ln in out.splitlines() if ln.startswith("correlation:"))
    assert [c for c in line.split("\t")[1:] if c] == ["pairwise-accuracy", "acc23-tc"], line


def test_budget_message_of_a_computation_without_resamples():
    from stats import limited_budget
    from stats.human.paired import paired_ranking  # noqa: F401 (its check passes resamples_of={})

    with pytest.raises(StatsInputError) as info:
        check_budget(what="human ranking", n_systems=1000, n_segments=10**4, n_pairs=499_500,
                     pair_cost=10**5, resamples_of={})  # fmt: skip
    assert "n_resamples" not in str(info.value)
    assert str(info.value).endswith("reduce the number of systems or segments")
    with limited_budget(max_memory=10), pytest.raises(StatsInputError, match="reduce the number"):
        check_budget(what="h", n_systems=5, memory=100, resamples_of={})


def test_task_set_keys_in_a_message_stay_keys(tmp_path, capsys):
    import json

    from tests._wmt_published import long_text

    data = tmp_path / "scores.tsv"
    data.write_text(long_text(lps=("de-en",), humans=False))
    tasks = tmp_path / "ts.json"
    tasks.write_text(json.dumps({"tasks": [{"lp": "de-en", "corr": "x"}]}))
    err = _run(["rank", "--data", data, "--task-set", tasks, "--resamples", 10], capsys)
    assert "perm_test (or perm-test)" in err  # (the line is cut to 300 characters)
    assert "--perm-test" not in err and "--include-human" not in err
    keys = "accepted: include_human (or include-human), perm_test (or perm-test)"
    assert flag_names(keys) == keys
