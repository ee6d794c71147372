"""Reproduce the WMT20 metrics task's official system-level tables and human Wilcoxon grids.

    .venv/bin/python benchmarks/wmt20_reproduce.py --wmt20 PATH [--keep DIR]

``PATH`` is a checkout of https://github.com/WMT-Metrics-task/wmt20-metrics, as published (the
``*.sys.score.gz`` files of ``final-metric-scores/``, the DA files of
``manual-evaluation/DA/``, the organisers' outlier list ``manual-evaluation/outlier-systems-dict.pk``
and their tables in ``results/output/system-level/``). Nothing is converted by hand: the script
runs the CLI twice, as a user would, and compares what it prints with the organisers' files.

1. One ``python -m stats williams`` call: every reference (``--refset all``), the reference-free
   metrics named, human translations and the organisers' outliers left out, signed r. Compared
   with ``DA-<lp><ref>-cor-excloutl.csv`` (Pearson r, N, ``Winner``) and
   ``DA-<lp><ref>-sig-excloutl.csv`` (the organisers' one-sided Williams p of row > column from
   ``psych::r.test``, written when below 0.05 and the row's r is not lower; otherwise 0.12).
2. One ``python -m stats human`` call on the DA segment files ``ad-seg-scores-*.csv``, compared
   with ``adwilcox-<lp>.csv`` (one-sided Wilcoxon rank-sum p of row > column, 0.12 where not
   significant).

Prints the number of values compared and every mismatch. The outlier list is a pickle of a dict
of sets of names; it is read with an unpickler that accepts only those built-in types.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import subprocess
import sys
from pathlib import Path

import pandas as pd

INSIGNIFICANT = 0.12  # the organisers' placeholder for "not significant at 0.05"
REFERENCE_FREE = ("COMET-QE", "OpenKiwi-Bert", "OpenKiwi-XLMR", "YiSi-2")
REF_SUFFIX = {
    "newstest2020": "",
    "newstestB2020": "_B",
    "newstestM2020": "_M",
    "newstestP2020": "_P",
}


class _SetsOnly(pickle.Unpickler):
    def find_class(self, module, name):
        if module == "builtins" and name in ("set", "frozenset"):
            return {"set": set, "frozenset": frozenset}[name]
        raise pickle.UnpicklingError(f"outlier list: refusing {module}.{name}")


def official_outliers(root: Path) -> list[str]:
    with open(root / "manual-evaluation" / "outlier-systems-dict.pk", "rb") as fh:
        by_lp = _SetsOnly(fh).load()
    return sorted(set().union(*by_lp.values()))


def run_cli(args: list[str]) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "stats", *args, "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"python -m stats {args[0]} failed: {done.stderr.strip()}")
    for line in done.stderr.splitlines():
        print(f"  [{args[0]}] {line}")
    return json.loads(done.stdout)


# The organisers' tables name one metric otherwise than its published score file.
RENAMED = {"bleurt-combi": "bleurt-Yisi-combi"}


def table_name(block: dict) -> str:
    lp = block["lp"].split(" / ")[0].replace("-", "")
    # en-iu's published metric scores are for the full test set: its table is "eniu_full"
    # (the organisers' "eniu_news" table used scores of the news part, not published).
    full = "_full" if lp == "eniu" else ""
    return f"DA-{lp}{full}{REF_SUFFIX[block['refset']]}"


def renamed(block: dict) -> dict:
    """The block with the organisers' metric names (RENAMED) in every field compared."""

    def name(m):
        return RENAMED.get(m, m)

    out = dict(block)
    out["pearson"] = {name(m): r for m, r in block["pearson"].items()}
    out["winners"] = [name(m) for m in block["winners"]]
    out["williams_p"] = {
        name(a): {name(b): p for b, p in row.items()} for a, row in block["williams_p"].items()
    }
    return out


def compare_williams(root: Path, tol: float) -> tuple[int, int, int, list[str], list[str]]:
    outliers = official_outliers(root)
    doc = run_cli(
        [
            "williams",
            "--metrics", str(root / "final-metric-scores"),
            "--human", *map(str, sorted((root / "manual-evaluation" / "DA").glob("metrics-ad-sys-scores-*.csv"))),
            "--testset", "newstest2020",
            "--refset", "all",
            "--reference-free", *REFERENCE_FREE,
            "--exclude-systems", "Human-*", *outliers,
            "--no-sign-align",
        ]
    )  # fmt: skip
    tables = root / "results" / "output" / "system-level"
    n_r = n_p = n_w = 0
    problems: list[str] = []
    by_human_raw: set[str] = set()
    for block in map(renamed, doc["language_pairs"]):
        name = table_name(block)
        cor_path, sig_path = (
            tables / f"{name}-cor-excloutl.csv",
            tables / f"{name}-sig-excloutl.csv",
        )
        if not cor_path.exists():
            problems.append(f"{name}: no official table")
            continue
        cor = pd.read_csv(cor_path, sep="\t", index_col=0).drop(index="HUMAN_RAW", errors="ignore")
        if int(cor["N"].iloc[0]) != block["n"]:
            problems.append(f"{name}: N {block['n']} against official {int(cor['N'].iloc[0])}")
        for metric, r in cor["Pearson"].items():
            ours = block["pearson"].get(metric)
            if ours is None:
                problems.append(f"{name} {metric}: r missing (official {r})")
                continue
            n_r += 1
            if abs(ours - r) > tol:
                problems.append(f"{name} {metric}: r {ours!r} against official {r!r}")
        sig = pd.read_csv(sig_path, sep="\t", index_col=0)
        # The organisers count HUMAN_RAW among the competitors of their ``Winner`` column: a
        # metric that raw DA beats significantly is no winner there. Our winners are among the
        # metrics only, so they are compared with the official grid read the same way, and the
        # metrics beaten by HUMAN_RAW alone are counted apart. So are metrics with identical
        # scores (r23 = 1): the organisers' p is NaN there, which their rule reads as "beaten".
        others = sig.drop(index="HUMAN_RAW", errors="ignore")
        not_beaten = ((others == INSIGNIFICANT) | others.isna()).all(axis=0)
        official_winners = set(not_beaten.index[not_beaten]) & set(cor.index)
        ours_winners = set(block["winners"]) & set(cor.index)
        n_w += len(cor.index)
        if official_winners != ours_winners:
            problems.append(
                f"{name}: winners only official {sorted(official_winners - ours_winners)}, "
                f"only ours {sorted(ours_winners - official_winners)}"
            )
        by_human_raw.update(
            f"{name} {m}" for m in official_winners - set(cor.index[cor["Winner"].astype(bool)])
        )
        shared = [m for m in sig.index if m in block["williams_p"]]
        for a in shared:
            for b in shared:
                if a == b:
                    continue
                official = float(sig.at[a, b])
                ours = block["williams_p"][a].get(b)
                if math.isnan(official) and ours is None:  # identical scores: r23 = 1
                    continue
                if official != INSIGNIFICANT:
                    n_p += 1
                    if ours is None or abs(ours - official) > tol:
                        problems.append(f"{name} {a}>{b}: p {ours!r} against official {official!r}")
                elif ours is not None and ours <= 0.05:
                    n_p += 1
                    problems.append(f"{name} {a}>{b}: p {ours!r}, official not significant")
    return n_r, n_p, n_w, sorted(by_human_raw), problems


def compare_human(root: Path, tol: float) -> tuple[int, list[str]]:
    da = root / "manual-evaluation" / "DA"
    doc = run_cli(["human", "--human", *map(str, sorted(da.glob("ad-seg-scores-*.csv")))])
    n = 0
    problems: list[str] = []
    for block in doc["language_pairs"]:
        path = da / f"adwilcox-{block['lp'].replace('-', '')}.csv"
        if not path.exists():
            problems.append(f"{block['lp']}: no official Wilcoxon grid")
            continue
        grid = pd.read_csv(path, sep=r"\s+", index_col=0)
        order = {s: i for i, s in enumerate(block["systems"])}
        # en-de's grid names systems by their submission file, newstest2020.en-de.NAME.sgm
        prefix = f"newstest2020.{block['lp']}."
        names = {n: n.removeprefix(prefix).removesuffix(".sgm") for n in grid.index}
        grid = grid.rename(index=names, columns=names)
        for a in grid.index:
            for b in grid.columns:
                if a == b:
                    continue
                official = float(grid.at[a, b])
                ours = block["pvalues"].get(a, {}).get(b)
                if ours is None or (isinstance(ours, float) and math.isnan(ours)):
                    problems.append(f"{block['lp']} {a}>{b}: no p-value (official {official})")
                    continue
                n += 1
                # The organisers test a row only against the systems ranked below it (by mean
                # z): a row ranked lower gets 0.12 whatever its rank-sum p.
                below = order.get(a, -1) > order.get(b, -1)
                if official == INSIGNIFICANT:
                    if ours < 0.05 and not below:
                        problems.append(
                            f"{block['lp']} {a}>{b}: p {ours!r}, official not significant"
                        )
                elif abs(ours - official) > tol:
                    problems.append(
                        f"{block['lp']} {a}>{b}: p {ours!r} against official {official!r}"
                    )
    return n, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wmt20", type=Path, required=True, help="checkout of wmt20-metrics")
    parser.add_argument("--tol", type=float, default=1e-9)
    args = parser.parse_args()
    n_r, n_p, n_w, by_human_raw, problems = compare_williams(args.wmt20, args.tol)
    print(
        f"williams: {n_r} official Pearson r, {n_p} official significant Williams p and the "
        f"winner mark of {n_w} metrics compared; {len(problems)} differ"
    )
    print(
        f"  not winners officially only because HUMAN_RAW beats them or a metric with identical "
        f"scores gives NaN ({len(by_human_raw)}): " + ", ".join(by_human_raw)
    )
    for line in problems:
        print("  " + line)
    n_h, problems = compare_human(args.wmt20, args.tol)
    print(f"human: {n_h} Wilcoxon p compared; {len(problems)} differ")
    for line in problems[:50]:
        print("  " + line)
    if len(problems) > 50:
        print(f"  ... and {len(problems) - 50} more")


if __name__ == "__main__":
    main()
