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
    ``truth[lp] = (gold scores with NaN at hallucinations, {method: predictions})``;
    ``systems`` maps each method to its label ``team/method``.
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
        # each method as the readers label it from submissions/<team>/predictions.txt
        "systems": {m: f"{t[0]}/{m}" for t in TEAMS for m in t[1]},
    }


#: The WMT23 QE task 1 submissions folder as published (WMT-QE-Task/wmt-qe-2023-data,
#: submissions/T1_sentence/), with invented teams: (team, {folder: (method, language pairs,
#: header)}) where the folder is a language pair, "multilingual" or "" (the team folder
#: itself); methods that differ across one team's per-pair files (as two WMT23 teams'
#: do), a per-pair file holding a second pair's rows, files without the header lines.
WMT23_LPS = ("en-de", "en-mr", "zh-en", "he-en")
_H = ("42868104221", "10716932147", "4")
WMT23_TEAMS = (
    # a root file repeating the per-pair file, three empty files, metadata.txt and test.txt
    ("asmith-LabA", {"en-mr": ("ensembleTQ", ("en-mr",), _H), "": ("ensembleTQ", ("en-mr",), _H)}),
    (
        "bjones-LabB",
        {
            "en-de": ("Kiwi-Ens", ("en-de",), _H),
            "en-mr": ("Kiwi-Ens", ("en-mr",), _H),
            "zh-en": ("Kiwi-Ens-II", ("zh-en",), None),
            "he-en": ("Kiwi-Ens-II", ("he-en",), _H),
            "multilingual": ("Kiwi-Ens-II", ("he-en", "en-de", "en-mr", "zh-en"), _H),
        },
    ),
    ("baseline", {"": ("baseline", WMT23_LPS, ("2277430715", "569330715", "1"))}),
    ("cwu-LabC", {"en-de": ("labc_10", ("en-de", "he-en"), ("3264730349", "560145557", "12"))}),
    ("dkim-LabD", {lp: ("ensemble-awp", (lp,), _H) for lp in ("en-de", "zh-en")}),
    ("eli-LabE", {lp: ("ENSEMBLE-CROSS", (lp,), _H) for lp in ("en-de", "en-mr", "zh-en")}),
    (
        "fox-LabF",
        {
            "en-de": ("COMETTDAug", ("en-de",), _H),
            "en-mr": ("COMET-TDAug", ("en-mr",), None),
            "zh-en": ("COMET-TDAug", ("zh-en",), _H),
        },
    ),
    (
        "gao-LabG",
        {
            **{lp: ("score_ensemble", (lp,), _H) for lp in WMT23_LPS},
            "multilingual": ("score_ensemble", WMT23_LPS, _H),
        },
    ),
)
#: the WMT23 folder's empty files (one team's language pairs it did not submit)
WMT23_EMPTY = (
    "asmith-LabA/en-de/predictions.txt",
    "asmith-LabA/he-en/predictions.txt",
    "asmith-LabA/zh-en/predictions.txt",
)


def generate_wmt23_folder(seed: int = 23, n: int = 30, hallucinations: int = 2) -> dict:
    """A WMT23-like submissions folder in memory: ``{"files": {relative path: text}, "gold":
    text, "zip": the folder zipped as T1_sentence/..., "team_zips": {team: zip made inside
    the team folder}, "truth": {lp: (gold with NaN at hallucinations, {system label:
    predictions})}}``. System labels are ``team/method`` (``team/multilingual/method``)."""
    rng = np.random.default_rng(seed)
    gold_rows, truth, latent = ["lp\tgold\tsegid\tscore"], {}, {}
    for lp in WMT23_LPS:
        z = rng.normal(size=n)
        g = np.round(70 + 15 * z + rng.normal(scale=3, size=n), 2)
        hall = set(rng.choice(n, size=hallucinations, replace=False).tolist())
        gold_rows += [
            f"{lp}\tgold\t{i}\t{'hallucination' if i in hall else f'{g[i]:.2f}'}" for i in range(n)
        ]
        latent[lp] = z
        truth[lp] = (np.where([i in hall for i in range(n)], np.nan, g), {})
    files: dict[str, str] = {}
    preds: dict[tuple, np.ndarray] = {}
    for team, folders in WMT23_TEAMS:
        for folder, (method, lps, header) in folders.items():
            label = "/".join(
                [team, *(["multilingual"] if folder == "multilingual" else []), method]
            )
            rows = []
            for lp in lps:
                key = (label, lp)
                if key not in preds:  # a team's repeated file repeats its predictions
                    preds[key] = np.round(latent[lp] + rng.normal(scale=0.8, size=n), 6)
                    truth[lp][1][label] = preds[key]
                rows += [f"{lp}\t{method}\t{i}\t{float(preds[key][i])!r}" for i in range(n)]
            path = "/".join(p for p in (team, folder, "predictions.txt") if p)
            files[path] = "\n".join(list(header or ()) + rows) + "\n"
    for path in WMT23_EMPTY:
        files[path] = ""
    files["asmith-LabA/metadata.txt"] = "LabA\nensembleTQ: mean z-scores of three models.\n"
    files["asmith-LabA/test.txt"] = "-----------\n" + "\n".join(_H) + "\n" + "\n".join(_H) + "\n"
    stamp = (2023, 8, 1, 0, 0, 0)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for path in sorted(files):
            zf.writestr(zipfile.ZipInfo(f"T1_sentence/{path}", stamp), files[path])
    team_zips = {}
    for team, _ in WMT23_TEAMS:
        tb = io.BytesIO()
        with zipfile.ZipFile(tb, "w") as zf:
            for path in sorted(p for p in files if p.startswith(team + "/")):
                zf.writestr(zipfile.ZipInfo(path[len(team) + 1 :], stamp), files[path])
        team_zips[team] = tb.getvalue()
    return {
        "files": files,
        "gold": "\n".join(gold_rows) + "\n",
        "zip": buf.getvalue(),
        "team_zips": team_zips,
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
