"""Generate synthetic WMT22-25-style human evaluation files (seeded, deterministic).

Invented ratings of the sample systems of ``sample_data/mt/`` in the formats the WMT general
MT task publishes, with what the organisers' scripts must drop:

* ``wmt_human/en-de.esa.csv``: an Appraise ESA export (no header; user, system, segment, TGT,
  eng, deu, score, document, completed, error spans, start, end), with quality-control
  (``BAD``) items, a tutorial document, an ``#incomplete`` document and repeated judgements
  (the last by end time is the one to keep);
* ``wmt_human/en-de.mqm.tsv``: MQM error spans (system, doc, doc_id, seg_id, rater, source,
  target, category, severity) of the same segments;
* ``wmt_human/en-de.docs``: the documents file (``DOMAIN<TAB>DOCUMENT`` per test-set line,
  line 0 the canary).

Segment ids are test-set lines (1..N; line 0 is the canary). Each system's ratings follow its
latent quality plus a domain effect and noise; about 10% of (system, segment) pairs are not
rated, so pairs of systems share only some items.

Run:  .venv/bin/python sample_data/make_wmt_human_sample.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

SYSTEMS = {
    "Aurora": 0.80, "Borealis": 0.76, "Cirrus": 0.72, "Delta": 0.66,
    "Ember": 0.62, "Fjord": 0.55, "Glacier": 0.50, "Harbor": 0.40,
}  # fmt: skip
DOMAINS = ("news", "social", "speech", "literary")
CATEGORIES = ("Accuracy/Mistranslation", "Accuracy/Omission", "Fluency/Grammar",
              "Fluency/Punctuation", "Style/Awkward", "Terminology/Inappropriate")  # fmt: skip


def generate(
    seed: int = 20240601,
    *,
    systems: dict[str, float] | None = None,
    n_segments: int = 120,
    n_domains: int = 4,
    n_users: int = 6,
    n_raters: int = 3,
) -> dict[str, str]:
    """The three files' texts by name (``en-de.esa.csv``, ``en-de.mqm.tsv``, ``en-de.docs``)."""
    rng = np.random.default_rng(seed)
    systems = dict(SYSTEMS if systems is None else systems)
    names = list(systems)
    quality = np.array([systems[s] for s in names])
    # documents of 3-8 segments, each in one domain
    doc_of, dom_of, d = [], [], 0
    while len(doc_of) < n_segments:
        size = int(rng.integers(3, 9))
        domain = DOMAINS[d % n_domains]
        doc_of += [f"{domain}_doc{d}"] * size
        dom_of += [domain] * size
        d += 1
    doc_of, dom_of = doc_of[:n_segments], dom_of[:n_segments]
    docs = ["canary\tcanary-guid-0000"] + [f"{m}\t{o}" for m, o in zip(dom_of, doc_of, strict=True)]
    dom_effect = {m: rng.normal(0, 4) for m in DOMAINS}
    sys_dom = rng.normal(0, 3, size=(len(names), len(DOMAINS)))
    rated = rng.random((len(names), n_segments)) > 0.1
    # ---- Appraise ESA export ----
    rows: list[list] = []
    clock = 1_700_000_000.0

    def row(user, system, seg, kind, score, document):
        nonlocal clock
        clock += float(rng.integers(5, 60))
        spans = [] if score > 90 else [{"start_i": 0, "end_i": 4, "severity": "minor"}]
        return [user, system, seg, kind, "eng", "deu", score, document, "True",
                json.dumps(spans), clock - 30, clock]  # fmt: skip

    users = [f"engdeu{u:02d}" for u in range(n_users)]
    segs = np.arange(1, n_segments + 1)
    for i, s in enumerate(names):
        for seg in segs:
            if not rated[i, seg - 1]:
                continue
            dom = DOMAINS.index(dom_of[seg - 1])
            mean = 45 + 35 * quality[i] + dom_effect[DOMAINS[dom]] + sys_dom[i, dom]
            for user in rng.choice(users, size=int(rng.integers(1, 3)), replace=False):
                score = int(np.clip(round(mean + rng.normal(0, 12)), 0, 100))
                rows.append(row(user, s, int(seg), "TGT", score, doc_of[seg - 1]))
    order = rng.permutation(len(rows))
    rows = [rows[k] for k in order]
    # repeats: an earlier judgement of the same item by the same user, and a later one
    for k in rng.choice(len(rows), size=max(2, len(rows) // 40), replace=False):
        first = list(rows[k])
        first[6] = int(rng.integers(0, 101))
        first[10], first[11] = first[10] - 1e5, first[11] - 1e5  # an earlier end time
        rows.append(first)
    # quality control, tutorial and #incomplete documents
    for k in range(max(3, len(rows) // 30)):
        rows.append(row(users[k % n_users], names[k % len(names)], int(rng.integers(1, n_segments + 1)),
                        "BAD", int(rng.integers(0, 40)), doc_of[k % n_segments]))  # fmt: skip
    for k in range(4):
        rows.append(row(users[k % n_users], names[k], k + 1, "TGT", 100, "tutorial_doc#tutorial"))
        rows.append(row(users[k % n_users], names[-1], k + 1, "TGT", 0, f"{doc_of[k]}#incomplete"))
    perm = rng.permutation(len(rows))
    esa = "".join(",".join(_csv(v) for v in rows[k]) + "\n" for k in perm)
    # ---- MQM error spans ----
    mqm = ["system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"]
    raters = [f"rater{r}" for r in range(1, n_raters + 1)]
    for i, s in enumerate(names):
        for seg in segs:
            if not rated[i, seg - 1]:
                continue
            doc = doc_of[seg - 1]
            for rater in rng.choice(raters, size=int(rng.integers(1, 3)), replace=False):
                n_err = int(rng.poisson(3 * (1 - quality[i])))
                base = f'{s}\t{doc}\t{seg}\t{seg}\t{rater}\tsource "{seg}"\ttarget {s} {seg}'
                if n_err == 0:
                    mqm.append(f"{base}\tNo-error\tno-error")
                for _ in range(n_err):
                    u = rng.random()
                    if u < 0.02:
                        cat, sev = "Non-translation!", "Major"
                    elif u < 0.04:
                        cat, sev = "Accuracy/Mistranslation", "Critical"
                    else:
                        cat = CATEGORIES[int(rng.integers(len(CATEGORIES)))]
                        sev = "Major" if u < 0.3 else "Minor" if u < 0.9 else "Neutral"
                    mqm.append(f"{base}\t{cat}\t{sev}")
    return {
        "en-de.esa.csv": esa,
        "en-de.mqm.tsv": "\n".join(mqm) + "\n",
        "en-de.docs": "\n".join(docs) + "\n",
    }


def _csv(value) -> str:
    text = str(value)
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text


def main() -> None:
    out = Path(__file__).resolve().parent / "wmt_human"
    out.mkdir(exist_ok=True)
    for name, text in generate().items():
        (out / name).write_text(text, encoding="utf-8")
        print(f"wrote {out / name} ({text.count(chr(10))} lines)")


if __name__ == "__main__":
    main()
