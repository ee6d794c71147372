"""Comments and docstrings explain the code as it is, never its history: no issue numbers, no
"as before", "used to be" or "older name" (the history is in the commit messages)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: phrases that narrate history rather than explain code
HISTORY = re.compile(
    r"\bissues? \d+|\bas before\b|\bolder name\b|\bused to (?:be|give|return)\b|\bformerly\b"
    r"|\bpreviously\b|\bwas renamed\b|\brenamed from\b|\(was\b",
    re.IGNORECASE,
)


def test_no_history_in_comments_or_docstrings():
    found = []
    for folder in ("stats", "dashboard", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if HISTORY.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
