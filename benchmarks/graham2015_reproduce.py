"""Reproduce Graham (ACL 2015) Table 3 from the paper's own data file.

    .venv/bin/python benchmarks/graham2015_reproduce.py --data PATH/task-1.2.csv

``PATH`` is a checkout of https://github.com/ygraham/mt-qe-eval as published: ``task-1.2.csv``
holds WMT-14 QE Task 1.2 (11 systems x 208 sentences, HTER gold) in the layout
``METRIC SID SCORE RANK HUMAN``, tab-separated. The script runs the CLI as a user would
(``python -m stats qe --data PATH``) and compares the RMSE of each system's original predictions
and of its predictions shifted and rescaled to the gold mean and half the gold standard deviation
with the paper's Table 3 (the rows its extracted text carries; ``tests/qe/test_qe_graham_tabs.py``
holds the same values and runs on the file when ``MT_STATS_GRAHAM2015_TASK12`` names it).
Prints every value compared and the number of mismatches at the paper's 3 decimals.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from tests.qe.test_qe_graham_tabs import GRAHAM_2015_TABLE_3  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, help="the paper's task-1.2.csv")
    args = ap.parse_args()
    run = subprocess.run([sys.executable, "-m", "stats", "qe", "--data", args.data],
                         capture_output=True, text=True, cwd=REPO_ROOT, check=False)
    if run.returncode:
        print(run.stderr.strip(), file=sys.stderr)
        return run.returncode
    print(run.stderr.strip())
    rows = {s["system"]: s for s in json.loads(run.stdout)["systems"]}
    bad = 0
    print(f"{'system':<20} {'RMSE paper':>10} {'ours':>6} {'rescaled paper':>14} {'ours':>6}")
    for system, (rmse, rescaled) in GRAHAM_2015_TABLE_3.items():
        ours = rows[system]
        a, b = round(ours["rmse"], 3), round(ours["rmse_rescaled"], 3)
        bad += (a != rmse) + (b != rescaled)
        print(f"{system:<20} {rmse:>10.3f} {a:>6.3f} {rescaled:>14.3f} {b:>6.3f}")
    print(f"{2 * len(GRAHAM_2015_TABLE_3)} values compared, {bad} differ at 3 decimals")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
