"""Large WMT QE uploads in the published layouts (generated, seeded), for the server tests and
benchmarks/load.py: a zip of team folders (``submissions/<team>/predictions.txt``: three
header lines -- disk footprint, parameters, ensemble size -- then
``LP<TAB>METHOD<TAB>SEGMENT_NUMBER<TAB>SCORE``, as WMT23 task 1) and the gold file
(``lp<TAB>gold<TAB>segid<TAB>score``, as ``gold_labels_task1_sentence.tsv``)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

LPS = ("en-de", "zh-en", "en-mr", "he-en")


def write_qe_upload(
    folder: Path,
    *,
    segments: int,
    teams: int,
    lps: int = 3,
    seed: int = 0,
    bad_last_row: bool = False,
    tag: str = "",
) -> tuple[Path, Path]:
    """``(submissions zip, gold file)`` in ``folder``: ``teams`` teams of one method each, every
    one scoring ``segments`` segments of each of ``lps`` language pairs. ``bad_last_row``: the
    last row of the last team's file has a score that is not a number (a hostile upload: every
    row before it reads). ``tag`` goes into the file names."""
    rng = np.random.default_rng(seed)
    pairs = LPS[:lps]
    gold_rows = ["lp\tgold\tsegid\tscore"]
    latent = {}
    for lp in pairs:
        latent[lp] = rng.normal(size=segments)
        gold = np.round(70 + 15 * latent[lp] + rng.normal(scale=3, size=segments), 2)
        gold_rows += [f"{lp}\tgold\t{sid}\t{g:.2f}" for sid, g in enumerate(gold)]
    zpath = folder / f"submissions{tag}.zip"
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as zf:
        for t in range(teams):
            method = f"TEAM{t:02d}-ens"
            rows = ["1.2GB", "550M", "1"]
            for lp in pairs:
                pred = latent[lp] + rng.normal(scale=0.3 + 0.1 * t, size=segments)
                rows += [f"{lp}\t{method}\t{sid}\t{p:.6f}" for sid, p in enumerate(pred)]
            if bad_last_row and t == teams - 1:
                rows[-1] = rows[-1].rsplit("\t", 1)[0] + "\tn/a"
            info = zipfile.ZipInfo(
                f"submissions/team{t:02d}/predictions.txt", (2023, 1, 1, 0, 0, 0)
            )
            zf.writestr(info, "\n".join(rows) + "\n", compress_type=zipfile.ZIP_DEFLATED)
    gpath = folder / f"gold_labels_task1_sentence{tag}.tsv"
    gpath.write_text("\n".join(gold_rows) + "\n")
    return zpath, gpath
