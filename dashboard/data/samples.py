"""The bundled sample files (``sample_data/``) as :data:`dashboard.data.Uploads`, so the pages
treat samples and uploads alike; and the analyses of the first page's sample kept on disk
between server starts (:func:`kept_for_sample`)."""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import platform
import tempfile
import time
from importlib import metadata
from pathlib import Path

from dashboard.data import UploadFiles, Uploads
from dashboard.data._cache import cache_data
from dashboard.resources import resource

SAMPLE_DIR = resource("sample_data")

#: The metrics page's sample under sample_data/metrics/ (es-en_wide.csv repeats es-en and is
#: left out).
METRICS_SAMPLE_FILES = ("human.tsv", "metrics.tsv")
#: The metrics page's segment-level sample under sample_data/meta/: MTME's layout, zipped.
META_SAMPLE_FILES = ("wmt-sample.zip",)
#: The QE page's samples: label -> glob patterns under sample_data/qe/.
QE_SAMPLES = {
    "HTER, 10 systems (hter_long.txt)": ("hter_long.txt",),
    "Effort 1/2/3: discrete vs continuous (effort_long.txt)": ("effort_long.txt",),
    "WMT submission files + gold (wmt/*.txt, wmt_gold.txt)": ("wmt/*.txt", "wmt_gold.txt"),
    "Post-edit time + post-editing table (pet_long.txt, post_edit.tsv)": (
        "pet_long.txt",
        "post_edit.tsv",
    ),
    "WMT23-style QE task: zipped submissions, gold, hallucination index, word tags (wmt23/)": (
        "wmt23/submissions.zip",
        "wmt23/gold_*.tsv",
        "wmt23/word/*/predictions.txt",
    ),
}


@cache_data(show_spinner=False)
def sample_files(subdir: str, patterns: tuple[str, ...] = ("*",)) -> Uploads:
    """Bundled sample files ``sample_data/<subdir>/<pattern>`` (sorted by name) as
    :data:`~dashboard.data.Uploads`.

    README files are skipped. Returns ``()`` when the directory does not exist.
    """
    folder = SAMPLE_DIR / subdir
    if not folder.is_dir():
        return ()
    paths = sorted({p for pattern in patterns for p in folder.glob(pattern) if p.is_file()})
    return UploadFiles(
        (p.name, p.read_bytes())
        for p in paths
        if not p.name.lower().startswith("readme") and not p.name.startswith(".")
    )


@cache_data(show_spinner=False)
def mt_sample_text() -> tuple[Uploads, Uploads]:
    """The MT sample: (reference, system outputs), sample_data/mt/reference.txt and
    sample_data/mt/hyp/*.txt."""
    return sample_files("mt", ("reference.txt",)), sample_files("mt/hyp", ("*.txt",))


@cache_data(show_spinner=False)
def mt_sample_scores() -> Uploads:
    """The segment scores of the MT sample (long format: chrF and SimCOMET),
    sample_data/mt/segment_scores.tsv."""
    return sample_files("mt", ("segment_scores.tsv",))


@cache_data(show_spinner=False)
def human_sample_judgements() -> Uploads:
    """The synthetic judgements, sample_data/human/judgements.tsv."""
    return sample_files("human", ("judgements.tsv",))


# ---------------------------------------------------------------------------------------------
# ---- The first page's sample analyses, kept on disk between server starts ----
# ---------------------------------------------------------------------------------------------

#: libraries whose versions are part of every key (their numbers are in the results)
_KEY_LIBRARIES = ("numpy", "scipy", "pandas", "pyarrow", "streamlit")


@functools.cache
def _code_fingerprint() -> str:
    """SHA-256 of every source file of ``stats`` and ``dashboard`` (paths and bytes), the
    Python and library versions: any change of the code or the libraries that compute the
    results gives other keys (the results kept before are never read again)."""
    import stats  # noqa: PLC0415

    h = hashlib.sha256(f"python {platform.python_version()}".encode())
    for name in _KEY_LIBRARIES:
        try:
            h.update(f"|{name} {metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"|{name} -".encode())
    for root in (Path(stats.__file__).parent, Path(__file__).resolve().parents[1]):
        for path in sorted(root.rglob("*.py")):
            data = path.read_bytes()
            h.update(f"|{path.relative_to(root.parent).as_posix()} {len(data)}|".encode())
            h.update(data)
    return h.hexdigest()


def _sample_cache_dir() -> Path | None:
    """``<statistics cache>/dashboard-samples`` (:func:`stats.statistics_cache_dir`:
    ``$MT_SIGNIFICANCE_CACHE``, else the user's cache directory); None when that cache is off."""
    from stats import statistics_cache_dir  # noqa: PLC0415

    root = statistics_cache_dir()
    return None if root is None else root / "dashboard-samples"


#: results kept for other code (another version, another checkout) are deleted after this long
_KEEP_OTHERS_S = 7 * 24 * 3600


def _forget_old(folder: Path, *, keep: str) -> None:
    """Delete the results of other code than ``keep`` (a fingerprint's prefix) not written for
    :data:`_KEEP_OTHERS_S` seconds: the folder holds a few versions, not every one."""
    now = time.time()
    for path in folder.glob("*.pickle"):
        try:
            if not path.name.startswith(keep + "-") and now - path.stat().st_mtime > _KEEP_OTHERS_S:
                path.unlink()
        except OSError:
            continue


def is_metrics_sample(uploads: Uploads) -> bool:
    """Whether ``uploads`` are the bundled system-level sample of "Metrics vs humans", byte for
    byte (what a user uploads is never kept on disk)."""
    return bool(uploads) and uploads == sample_files("metrics", METRICS_SAMPLE_FILES)


def kept_for_sample(func):
    """``func(uploads, ...)`` (a data-layer function of "Metrics vs humans", under its
    ``st.cache_data``) whose results for the bundled sample are kept on disk, so the first page
    of a newly started server reads them instead of computing them (and without importing the
    libraries that compute them). Every other input is computed on each call and never written.

    The key is a SHA-256 of the function's name, its arguments (the sample files' bytes among
    them) and :func:`_code_fingerprint`; files are written whole, then renamed (a reader never
    sees half a file), and one that cannot be read is computed again. Off with the statistics
    cache (``MT_SIGNIFICANCE_CACHE=off``)."""

    @functools.wraps(func)
    def wrapper(uploads, *args, **kwargs):
        folder = _sample_cache_dir() if is_metrics_sample(uploads) else None
        if folder is None:
            return func(uploads, *args, **kwargs)
        key = hashlib.sha256(func.__qualname__.encode())
        key.update(pickle.dumps((uploads, args, sorted(kwargs.items())), protocol=4))
        code = _code_fingerprint()
        key.update(code.encode())
        path = (
            folder
            / f"{code[:12]}-{func.__module__}.{func.__qualname__}-{key.hexdigest()[:32]}.pickle"
        )
        try:
            return pickle.loads(path.read_bytes())
        except Exception:  # noqa: BLE001 - none yet, or unreadable: computed again below
            pass
        result = func(uploads, *args, **kwargs)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=folder, delete=False, suffix=".tmp") as fh:
                fh.write(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(fh.name, path)
            _forget_old(folder, keep=code[:12])
        except OSError:  # a read-only or full disk: the result is simply not kept
            pass
        return result

    return wrapper
