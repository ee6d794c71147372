"""Generate small WMT20-24-like quality-estimation (QE) files (seeded, synthetic).

Run from the repository root: ``python sample_data/make_qe_wmt_sample.py`` writes
``sample_data/qe/wmt23/``; tests call :func:`generate` for in-memory copies.

Layouts imitate the WMT23 QE task 1 files as published (no data of theirs is used):

* ``submissions/<team>/predictions.txt`` -- three header lines (disk footprint, number of
  parameters -- free text for one team --, ensemble size), then
  ``LP<TAB>METHOD<TAB>SEGMENT_NUMBER<TAB>SCORE``; one team's file has no header, one team
  submits two methods in one file, one team covers only some language pairs;
* ``gold_labels_task1_sentence.tsv`` -- a header, then ``lp<TAB>gold<TAB>segid<TAB>score``
  with ``hallucination`` as the score of the items with critical errors;
* ``gold_hallucinations_task1_sentence.tsv`` -- the index ``lp<TAB>segid`` of those items;
* ``gold_labels_task1_word.tsv`` -- ``lp, gold, segid, target, tokens, tags`` (OK/BAD);
* ``word/<team>/predictions.txt`` -- header lines, then
  ``LP METHOD TYPE SEGMENT_NUMBER WORD_INDEX WORD TAG``.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np

LPS = ("en-de", "zh-en", "en-mr")
#: (team, methods, noise of each method, language pairs covered, header lines)
TEAMS = (
    ("alpha", ("ALPHA-xl",), (0.4,), LPS, ("1.2GB", "550M", "1")),
    (
        "beta",
        ("BETA-base", "BETA-ens"),
        (0.7, 0.55),
        LPS,
        ("800MB", "about 300M (XLM-R base plus a regression head)", "3"),
    ),
    ("gamma", ("GAMMA",), (1.0,), LPS, None),
    ("delta", ("DELTA-mono",), (0.5,), ("en-de", "zh-en"), ("2GB", "1B", "1")),
)
WORDS = ("the", "house", "is", "small", "a", "cat", "sits", "on", "mat", "today", "very", "red")


def generate(seed: int = 2023, n: int = 40, hallucinations: int = 3) -> dict:
    """In-memory files: ``{"submissions": {team: text}, "gold": text, "exclude": text,
    "word_gold": text, "word_submissions": {team: text}, "zip": bytes, "truth": {...}}``.

    ``truth`` holds the arrays the files were written from:
    ``truth[lp] = (gold scores with NaN at hallucinations, {method: predictions})``.
    """
    rng = np.random.default_rng(seed)
    truth, gold_rows, excl_rows = {}, ["lp\tgold\tsegid\tscore"], ["lp\tsegid"]
    preds: dict[str, list[str]] = {t[0]: [] for t in TEAMS}
    word_gold = ["lp\tgold\tsegid\ttarget\ttokens\ttags"]
    word_preds: dict[str, list[str]] = {t[0]: [] for t in TEAMS}
    for lp in LPS:
        latent = rng.normal(size=n)
        g = np.round(70 + 15 * latent + rng.normal(scale=3, size=n), 2)
        g[rng.choice(n, size=4, replace=False)] = g[0]  # ties, as DA/MQM scores have
        hall = np.sort(rng.choice(n, size=hallucinations, replace=False))
        g_out = g.copy()
        g_out[hall] = np.nan
        methods = {}
        for sid in range(n):
            score = "hallucination" if sid in hall else f"{g[sid]:.2f}"
            gold_rows.append(f"{lp}\tgold\t{sid}\t{score}")
        excl_rows += [f"{lp}\t{sid}" for sid in hall]
        lengths = rng.integers(3, 8, size=n)
        bad_gold = [rng.random(m) < 0.3 for m in lengths]
        toks = [list(rng.choice(WORDS, size=m)) for m in lengths]
        for sid in range(n):
            tags = " ".join("BAD" if b else "OK" for b in bad_gold[sid])
            word_gold.append(
                f"{lp}\tgold\t{sid}\t{' '.join(toks[sid])}\t{' '.join(toks[sid])}\t{tags}"
            )
        for team, names, noises, lps, _ in TEAMS:
            if lp not in lps:
                continue
            for name, noise in zip(names, noises, strict=True):
                p = np.round(latent + rng.normal(scale=noise, size=n), 4)
                if name == "GAMMA":
                    p = np.round(p * 2) / 2  # coarse predictions: ties
                methods[name] = p
                preds[team] += [f"{lp}\t{name}\t{sid}\t{p[sid]:g}" for sid in range(n)]
                flip = noise / 2
                for sid in range(n):
                    for w, (tok, b) in enumerate(zip(toks[sid], bad_gold[sid], strict=True)):
                        tag = b ^ (rng.random() < flip)
                        word_preds[team].append(
                            f"{lp}\t{name}\tmt\t{sid}\t{w}\t{tok}\t{'BAD' if tag else 'OK'}"
                        )
        truth[lp] = (np.where(np.isnan(g_out), np.nan, g), methods)
    subs, wsubs = {}, {}
    for team, _, _, _, header in TEAMS:
        head = list(header) if header else []
        subs[team] = "\n".join(head + preds[team]) + "\n"
        wsubs[team] = "\n".join(list(header or ("0", "0", "1")) + word_preds[team]) + "\n"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for team, text in subs.items():
            info = zipfile.ZipInfo(f"submissions/{team}/predictions.txt", (2023, 1, 1, 0, 0, 0))
            zf.writestr(info, text)
    return {
        "submissions": subs,
        "gold": "\n".join(gold_rows) + "\n",
        "exclude": "\n".join(excl_rows) + "\n",
        "word_gold": "\n".join(word_gold) + "\n",
        "word_submissions": wsubs,
        "zip": buf.getvalue(),
        "truth": truth,
    }


def main() -> None:
    out = Path(__file__).resolve().parent / "qe" / "wmt23"
    data = generate()
    for team, text in data["submissions"].items():
        (out / "submissions" / team).mkdir(parents=True, exist_ok=True)
        (out / "submissions" / team / "predictions.txt").write_text(text, encoding="utf-8")
    for team, text in data["word_submissions"].items():
        (out / "word" / team).mkdir(parents=True, exist_ok=True)
        (out / "word" / team / "predictions.txt").write_text(text, encoding="utf-8")
    (out / "gold_labels_task1_sentence.tsv").write_text(data["gold"], encoding="utf-8")
    (out / "gold_hallucinations_task1_sentence.tsv").write_text(data["exclude"], encoding="utf-8")
    (out / "gold_labels_task1_word.tsv").write_text(data["word_gold"], encoding="utf-8")
    (out / "submissions.zip").write_bytes(data["zip"])


if __name__ == "__main__":
    main()
