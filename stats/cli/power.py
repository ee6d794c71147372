"""``power``: could the test have seen the difference, and how many segments would it take?

Examples::

    python -m stats power --scores esa.tsv --baseline A --system B --effect 1 2 \\
        --n 100 200 500 --test signed-rank
    python -m stats power --ref ref.txt --hyp A.txt B.txt --baseline A --system B \\
        --effect 1 --n 500 1000 2000 --test paired-bootstrap
    python -m stats power --metrics scores.tsv --system COMET --baseline BLEU \\
        --effect 0.05 0.1 --n 100 500 --test perm-both

``--metrics`` takes what ``meta-eval --data`` takes (metric and human scores): PERM-BOTH power
of metric ``--system`` over metric ``--baseline`` against the humans, the effect a difference
in the ``--correlation`` (Pearson r by default; ``--grouping``, ``--epsilon``,
``--tie-calibration`` and ``--threshold`` as ``meta-eval``; segment level;
:func:`stats.power.perm_both_power`).

JSON output: the settings, ``power`` (one value per ``--n``, in order, for the first
``--effect``, counting rejections in the effect's direction), ``mde`` (the effect detected
with ``--power`` (80%) power at each n), ``mc_error`` (the Monte Carlo standard error of each
power), ``size`` (the rejection rate at effect 0 at each n, the test's real size under the
simulation's null, with ``size_mc_error``), ``sample_size`` (items needed for ``--power`` at
the first ``--effect``, with ``sample_size_mc_error``), ``curves`` (power and its error per
effect), ``effect_meaning`` (what the effect is for this test), ``notes`` (warnings, also
printed on standard error), the definition, and what the input was read as. ``--scores`` takes what
``randomized --scores`` takes.
"""

from __future__ import annotations

import argparse
import sys

from stats._core.choices import CORRELATIONS, KENDALL_LIKE_THRESHOLD, POWER_TESTS
from stats._core.errors import StatsInputError
from stats.escape import tsv_comment

from ._common import (
    add_jobs,
    add_lower_is_better,
    add_segment_correlation_options,
    add_system_outputs,
    check_alpha_option,
    check_scores_only,
    check_two_systems,
    dumps,
    lower_is_better_for,
    table_tsv,
)
from ._progress import progress_callback
from ._sacrebleu_options import add_sacrebleu_options, metric_options

DEFAULT_SEED = 12345


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "power",
        help="power and minimum detectable effect of a paired test, by simulation",
        description=(
            "Power at n = share of simulated data sets of n segments, drawn with replacement "
            "from the observed ones with the difference shifted to the hypothesised effect, "
            "on which the test rejects at alpha (Card et al., EMNLP 2020). Per-segment "
            "scores: t, signed-rank, paired-bootstrap, approximate-randomization; BLEU/chrF/"
            "TER from text: paired-bootstrap, approximate-randomization."
        ),
    )
    src = p.add_argument_group("input (--ref/--hyp, --scores, --human or --metrics)")
    add_system_outputs(src, wmt_scores=True)
    src.add_argument("--human", nargs="+", metavar="FILE",
                     help="human evaluation files as `human` reads them (Appraise ESA/DA "
                     "exports, MQM, DA segment files): the ranking's test, signed-rank by "
                     "domain with Stouffer's combination; --n is items per domain")
    src.add_argument("--metrics", nargs="+", metavar="FILE",
                     help="metric and human scores as `meta-eval --data` reads them: PERM-BOTH "
                     "power of metric --system over metric --baseline (effect: difference in "
                     "the --correlation with the humans, Pearson r by default)")
    src.add_argument("--gold", metavar="NAME",
                     help="with --metrics: the human score type when the files hold several")
    corr = [c for c in CORRELATIONS if c != "pairwise-accuracy"]  # segment level only
    src.add_argument("--correlation", choices=corr, default="pearson", metavar="NAME",
                     help="with --metrics: the correlation PERM-BOTH compares, as `meta-eval "
                     f"--correlation` ({', '.join(corr)}; default pearson)")
    add_segment_correlation_options(src, when="with --metrics: ")
    src.add_argument("--documents", nargs="+", default=[], metavar="FILE",
                     help="with --human: WMT documents files giving the domains")
    src.add_argument("--score-metric", metavar="NAME",
                     help="with --scores: which METRIC to use when the file holds several")
    add_lower_is_better(src, bare_flag=True)
    p.add_argument("--metric", choices=["bleu", "chrf", "ter"], default=None,
                   help="with --ref/--hyp: the corpus metric (default bleu)")
    p.add_argument("--baseline", required=True, metavar="NAME", help="the baseline system")
    p.add_argument("--system", required=True, metavar="NAME",
                   help="the system hypothesised better by --effect")
    p.add_argument("--effect", required=True, type=float, nargs="+", metavar="D",
                   help="hypothesised difference(s), system minus baseline in the metric's "
                   "points (positive = system better, also for lower-is-better metrics)")
    p.add_argument("--n", type=int, nargs="+", metavar="N",
                   help="sample sizes (segments per simulated data set); default five from a "
                   "tenth to twice the observed number")
    p.add_argument("--test", choices=[*POWER_TESTS, "perm-both"], default=None,
                   help="default: t for --scores, paired-bootstrap for --ref/--hyp, "
                   "perm-both for --metrics (its only test)")
    p.add_argument("--alpha", type=float, default=0.05, help="level of the test (default 0.05)")
    p.add_argument("--alternative", choices=["two-sided", "greater"], default="two-sided",
                   help="greater: H1 system better (default two-sided)")
    p.add_argument("--power", type=float, default=0.8,
                   help="power at which the minimum detectable effect is read (default 0.8)")
    p.add_argument("--simulations", type=int, default=1000, metavar="S",
                   help="simulated data sets per sample size (default 1000)")
    p.add_argument("--resamples", type=int, default=1000, metavar="R",
                   help="resamples of each bootstrap / randomization test (default 1000)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="K",
                   help=f"random seed (default {DEFAULT_SEED})")
    p.add_argument("--format", choices=["json", "tsv"], default="json")
    add_jobs(p)
    add_sacrebleu_options(p)
    p.set_defaults(func=run)


def _check(args: argparse.Namespace) -> None:
    check_alpha_option(args.alpha)
    check_two_systems(args.baseline, args.system, what="metric" if args.metrics else "system")
    if args.seed < 0:
        raise StatsInputError(f"--seed must be a non-negative integer; got {args.seed}")
    for flag, value, low in (("--simulations", args.simulations, 2), ("--resamples",
                             args.resamples, 1)):
        if value < low:
            raise StatsInputError(f"{flag} must be at least {low}; got {value}")
    if not 0 < args.power < 1:
        raise StatsInputError(f"--power must be between 0 and 1; got {args.power}")
    if args.n and min(args.n) < 2:
        raise StatsInputError(f"--n must be at least 2; got {min(args.n)}")
    given = [f for f, v in (("--scores", args.scores), ("--ref/--hyp", args.ref or args.hyp),
                            ("--human", args.human), ("--metrics", args.metrics)) if v]
    if len(given) > 1:
        raise StatsInputError(f"give one input: {' or '.join(given)}, not both")
    if args.metrics:
        if args.test not in (None, "perm-both"):
            raise StatsInputError(f"--metrics runs PERM-BOTH; got --test {args.test}")
        if (args.epsilon is not None or args.tie_calibration) and args.correlation != "acc23":
            raise StatsInputError("--epsilon and --tie-calibration apply to --correlation acc23 "
                                  "only")
        if args.threshold != KENDALL_LIKE_THRESHOLD and args.correlation != "kendall-like":
            raise StatsInputError("--threshold applies to --correlation kendall-like only")
        return
    moved = [f for f, on in (("--correlation", args.correlation != "pearson"),
                             ("--grouping", args.grouping != "none"),
                             ("--epsilon", args.epsilon is not None),
                             ("--tie-calibration", args.tie_calibration),
                             ("--threshold", args.threshold != KENDALL_LIKE_THRESHOLD)) if on]
    if moved:
        raise StatsInputError(f"{', '.join(moved)}: for --metrics (PERM-BOTH) only")
    if args.test == "perm-both":
        raise StatsInputError("--test perm-both is for --metrics (two metrics against humans)")
    if args.gold:
        raise StatsInputError("--gold is for --metrics")
    if args.human:
        if args.test not in (None, "signed-rank"):
            raise StatsInputError(
                f"--human runs the ranking's test (signed-rank by domain); got --test {args.test}"
            )
        return
    if args.scores and args.metric:
        raise StatsInputError("--metric is for --ref/--hyp; --scores uses the file's scores")
    if not args.scores:
        check_scores_only(args)
        if not args.hyp or not args.ref:
            raise StatsInputError(
                "no input: give --scores FILE, or --ref FILE and --hyp FILE [FILE ...]"
            )


#: the power functions' argument names the generic mapping does not know, as flags
_FLAGS = {"n_simulations": "--simulations", "n_max": "--n"}


def run(args: argparse.Namespace) -> str:
    try:
        return _run(args)
    except StatsInputError as exc:  # name the flags the user typed
        text = str(exc)
        for name, flag in _FLAGS.items():
            text = text.replace(f"{name}=", f"{flag} ").replace(name, flag)
        raise StatsInputError(text) from None


def _run(args: argparse.Namespace) -> str:
    from ..analyses import power_analysis

    _check(args)
    metric = args.metric or "bleu"
    progress = progress_callback(f"power: {args.simulations:,} simulations per size")
    common = dict(
        baseline=args.baseline, system=args.system, effect=args.effect, n=args.n,
        test=args.test, alpha=args.alpha, alternative=args.alternative, power=args.power,
        n_simulations=args.simulations, n_resamples=args.resamples, rng=args.seed, lp=args.lp,
    )
    if args.metrics:
        from ..analyses import metrics_power_analysis

        analysis = metrics_power_analysis(
            args.metrics, system=args.system, baseline=args.baseline, effect=args.effect, n=args.n,
            lp=args.lp, gold=args.gold, alpha=args.alpha, power=args.power,
            n_simulations=args.simulations, n_resamples=args.resamples, rng=args.seed,
            correlation=args.correlation, grouping=args.grouping, epsilon=args.epsilon,
            tie_calibration=args.tie_calibration, threshold=args.threshold,
            progress=progress,
        )
    elif args.human:
        from ..analyses import human_power_analysis

        analysis = human_power_analysis(
            args.human, documents=args.documents, baseline=args.baseline, system=args.system,
            effect=args.effect, n=args.n, lp=args.lp, alpha=args.alpha, power=args.power,
            n_simulations=args.simulations, rng=args.seed, progress=progress,
        )
    elif args.scores:
        names = ", ".join(map(str, args.scores))
        analysis = power_analysis(
            scores=args.scores, score_metric=args.score_metric,
            lower_is_better=lambda name: lower_is_better_for(args, name, source=names),
            testset=args.testset, refset=args.refset, progress=progress, **common,
        )
    else:
        if args.testset or args.refset:
            raise StatsInputError("--testset, --refset: only with --scores (WMT files)")
        analysis = power_analysis(
            references=args.ref, hypotheses=args.hyp, metric=metric, jobs=args.jobs,
            options=metric_options(args)[metric], progress=progress, **common,
        )
    if progress is not None:  # the sample size's search ends the run: the bar goes first
        progress(1.0)
    print(analysis.read_as, file=sys.stderr)  # what the input was read as, one line
    return _json(analysis) if args.format == "json" else _tsv(analysis)


def _json(analysis) -> str:
    res = analysis.result
    return dumps(
        {
            "baseline": analysis.baseline,
            "system": analysis.system,
            "metric": analysis.label,
            "test": res.test,
            "alternative": res.alternative,
            "alpha": res.alpha,
            "effect": list(res.effects),
            "n": list(res.sizes),
            "power": res.power[0].tolist(),
            "mc_error": res.mc_error[0].tolist(),
            "mde": res.mde.tolist(),
            "mde_power": res.target_power,
            "size": _list(res.size),
            "size_mc_error": _list(res.size_mc_error),
            "sample_size": _num(res.sample_size),
            "sample_size_mc_error": _num(res.sample_size_mc_error),
            "sample_size_effect": res.effects[0],
            "curves": [
                {"effect": e, "power": res.power[i].tolist(),
                 "mc_error": res.mc_error[i].tolist()}
                for i, e in enumerate(res.effects)
            ],
            "simulations": res.n_simulations,
            "resamples": res.n_resamples,
            "seed": res.seed,
            "observed_effect": res.observed_effect,
            "n_observed": res.n_observed,
            "definition": res.definition,
            "effect_meaning": res.effect_meaning,
            "notes": list(res.notes),
            "read_as": analysis.read_as,
        }
    )


def _list(values) -> list | None:
    return None if values is None else [_num(v) for v in values]


def _num(value):
    import math

    return float(value) if math.isfinite(value) else None


def _tsv(analysis) -> str:
    res = analysis.result
    rows = []
    for j, n in enumerate(res.sizes):
        row = {"n": n, "mde": res.mde[j], "size": res.size[j],
               "size_mc_error": res.size_mc_error[j]}
        for i, e in enumerate(res.effects):
            row[f"power@{e:g}"] = res.power[i, j]
            row[f"mc_error@{e:g}"] = res.mc_error[i, j]
        rows.append(row)
    cols = ["n", *[c for e in res.effects for c in (f"power@{e:g}", f"mc_error@{e:g}")], "mde",
            "size", "size_mc_error"]
    head = "\n".join(
        [
            tsv_comment(analysis.read_as),
            tsv_comment(
                f"{res.test} power of {analysis.system} over {analysis.baseline} "
                f"({analysis.label}), alpha {res.alpha:g}, {res.alternative}, "
                f"{res.n_simulations} simulations, seed {res.seed}; mde at "
                f"{res.target_power:.0%} power"
            ),
            tsv_comment(f"sample size for {res.target_power:.0%} power at effect "
                        f"{res.effects[0]:g}: {_sample_size_text(res)}"),
            tsv_comment(res.effect_meaning),
            tsv_comment(res.definition),
            *[tsv_comment(f"note: {note}") for note in res.notes],
            "",
        ]
    )
    return head + table_tsv(rows, cols, fmt="{:.4g}")


def _sample_size_text(res) -> str:
    import math

    if not math.isfinite(res.sample_size):
        return "not reached (see the notes)"
    err = res.sample_size_mc_error
    return f"{res.sample_size:,.0f}" + (
        f" (Monte Carlo SE {err:,.1f})" if math.isfinite(err) else "")
