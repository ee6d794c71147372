"""TER sufficient statistics, equal to sacrebleu's ``TER``, over all cores, cached on disk.

With numba installed (a dependency), the edits come from the compiled replica of sacreBLEU's
algorithm in :mod:`stats.mt._ter_numba` on sacreBLEU's own tokenization, in numba threads, in
pieces that report progress. Otherwise sacrebleu's TER (shift search + edit distance per segment) stays the implementation; the
segments are cut into chunks that worker processes and this process score (each builds its
own ``TER`` object with the same options; :func:`~stats._core.workers.run_chunks`), and the
per-segment statistics are put back in order, so the numbers are those of one sequential
``TER._extract_corpus_statistics`` call.

The statistics of each system are cached in a small on-disk cache keyed by a SHA-256 of the
sacrebleu version, the metric options, the references and the system's hypotheses, so a second
run (or a second dashboard session) on the same files reads them back. The cache directory is
``$MT_SIGNIFICANCE_CACHE`` when set (``off`` disables the cache), else
``$XDG_CACHE_HOME/mt-significance`` or ``~/.cache/mt-significance``.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from stats._core.cache import statistics_cache_dir

__all__ = ["default_jobs", "ter_statistics"]

#: below this many (system, segment) pairs the pool costs more than it saves
MIN_PARALLEL = 64
#: chunks per worker: smaller chunks balance the load of uneven segment lengths
CHUNKS_PER_JOB = 8


def default_jobs() -> int:
    """All cores: ``os.cpu_count()`` (1 when unknown)."""
    return os.cpu_count() or 1


def _digest(lines):
    h = hashlib.sha256()
    for line in lines:  # length-prefixed: no two different line lists hash alike
        data = line.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h


@functools.cache
def _code_digest() -> str:
    """SHA-256 of the sources of the modules that extract the statistics (``stats/mt``): a
    cached array is read back only by the code that wrote it, so a changed extraction (a
    fixed bug, a new release) never reads what an earlier one computed."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).resolve().parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _cache_keys(options: Mapping, references, hypotheses: Mapping, metric: str = "ter"
                ) -> dict[str, str]:
    import sacrebleu

    head = hashlib.sha256()
    head.update(f"{metric}|sacrebleu {sacrebleu.__version__}|code {_code_digest()}|".encode())
    head.update(json.dumps(sorted(options.items()), default=repr).encode())
    head.update(len(references).to_bytes(8, "little"))
    for stream in references:
        head.update(_digest(stream).digest())
    prefix = head.hexdigest()
    return {
        name: hashlib.sha256((prefix + _digest(lines).hexdigest()).encode()).hexdigest()
        for name, lines in hypotheses.items()
    }


def _cache_read(directory: Path | None, key: str, n_segments: int, metric: str = "ter",
                width: int = 2) -> np.ndarray | None:
    if directory is None:
        return None
    try:
        arr = np.load(directory / f"{metric}-{key}.npy", allow_pickle=False)
    except (OSError, ValueError):
        return None
    return arr if arr.shape == (n_segments, width) else None


def _cache_write(directory: Path | None, key: str, arr: np.ndarray, metric: str = "ter") -> None:
    if directory is None:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tmp = directory / f".{metric}-{key}.{os.getpid()}.tmp.npy"
        np.save(tmp, arr, allow_pickle=False)
        os.replace(tmp, directory / f"{metric}-{key}.npy")  # atomic: never a half file
    except OSError:
        pass  # a read-only or full cache only costs a recomputation


def cached_statistics(
    metric: str,
    options: Mapping,
    references: list[list[str]],
    hypotheses: Mapping[str, list[str]],
    width: int,
    compute: Callable[[dict[str, list[str]]], np.ndarray],
) -> np.ndarray:
    """Per-segment statistics (systems, segments, ``width``) of ``metric``, each system read
    from the cache when its (metric, options, sacrebleu version, references, output) were
    seen before by the same extraction code (:func:`_code_digest`); ``compute`` (the systems
    not found -> their array) makes the rest, which are then cached."""
    n_seg = len(references[0])
    names = list(hypotheses)
    directory = statistics_cache_dir()
    if directory is None:  # the cache off: no keys to hash (every line of every file)
        return compute(dict(hypotheses))
    keys = _cache_keys(options, references, hypotheses, metric)
    out = {name: _cache_read(directory, keys[name], n_seg, metric, width) for name in names}
    todo = [name for name in names if out[name] is None]
    if todo:
        fresh = compute({name: hypotheses[name] for name in todo})
        for j, name in enumerate(todo):
            out[name] = fresh[j]
            _cache_write(directory, keys[name], fresh[j], metric)
    return np.stack([out[name] for name in names])


def _score_chunk(options: dict, references: list[list[str]], hypotheses: list[list[str]]):
    """Worker: sacrebleu TER statistics of one chunk of segments for several systems, as
    ``TER._extract_corpus_statistics`` gives them (its per-segment steps: pre-processing, then
    ``_compute_segment_statistics`` against the cached references), each distinct
    pre-processed hypothesis of a segment scored once (systems often output the same)."""
    from sacrebleu.metrics import TER

    scorer = TER(**options, references=references)
    ref_cache = scorer._ref_cache
    seen: dict[tuple[int, str], list] = {}
    out = []
    # TER's shift search allocates many small lists and dicts, and no reference cycles: the
    # cyclic garbage collector's passes over them cost about 13% of the time and free nothing
    # (gc.collect() after sacrebleu's TER on 8 x 500 segments finds 0 objects)
    collecting = gc.isenabled()
    gc.disable()
    try:
        for lines in hypotheses:
            rows = []
            for i, hyp in enumerate(lines):  # sacrebleu's own loop over segments
                key = (i, scorer._preprocess_segment(hyp))
                if key not in seen:
                    seen[key] = scorer._compute_segment_statistics(key[1], ref_cache[i])
                rows.append(seen[key])
            out.append(np.asarray(rows, dtype=float).reshape(-1, 2))
    finally:
        if collecting:
            gc.enable()
    return out


#: modules the worker processes' fork server imports once (not each worker)
_PRELOAD = ("stats.mt._ter_parallel", "sacrebleu.metrics.ter")


def _longest_first(references: list[list[str]], hypotheses: list[list[str]], n_chunks: int
                   ) -> list[np.ndarray]:
    """Segment indices cut into ``n_chunks`` chunks of about equal estimated cost, the most
    expensive segments first: the pool hands out chunks in order, so the long segments start
    early and the last chunks to finish are short ones (less time with one worker idle).

    The cost of a segment is estimated by :math:`\\sum_k (|h_k| + |r|)^2` over the systems
    (lengths in characters, :math:`|r|` of the longest reference)."""
    n_seg = len(references[0])
    if n_chunks <= 1:
        return [np.arange(n_seg)]
    ref_len = np.max([[len(r) for r in stream] for stream in references], axis=0)
    hyp_len = np.array([[len(h) for h in lines] for lines in hypotheses], dtype=float)
    cost = ((hyp_len + ref_len) ** 2).sum(axis=0) + 1.0
    order = np.argsort(-cost, kind="stable")
    cum = np.cumsum(cost[order])
    cuts = np.searchsorted(cum, cum[-1] * np.arange(1, n_chunks) / n_chunks, side="right")
    return [chunk for chunk in np.split(order, cuts) if len(chunk)]


#: pieces of work for the progress callback (each a chance for the UI to stop the run)
PROGRESS_STEPS = 50


def _numba_compute(options: dict, references: list[list[str]], todo: dict[str, list[str]],
                   jobs: int, progress: Callable[[float], None] | None) -> np.ndarray:
    """TER statistics of the systems ``todo`` by the compiled kernel (:mod:`stats.mt._ter_numba`)
    on sacreBLEU's own pre-processing: each distinct (segment, tokenized hypothesis) once,
    against each reference; the best (fewest) edits over the references and the average
    reference length, as ``TER._compute_segment_statistics``."""
    from sacrebleu.metrics import TER

    from ._ter_numba import ter_edits

    scorer = TER(**options, references=references)
    vocab: dict[str, int] = {}

    def ids(words: list[str]) -> list[int]:
        return [vocab.setdefault(w, len(vocab)) for w in words]

    ref_ids = [[ids(words) for words in cache["ref_words"]] for cache in scorer._ref_cache]
    n_seg = len(references[0])
    prep = scorer._preprocess_segment
    distinct: dict[tuple[int, str], int] = {}
    where = np.empty((len(todo), n_seg), dtype=np.int64)
    uniq: list[tuple[int, list[int]]] = []
    for j, lines in enumerate(todo.values()):
        for i, hyp in enumerate(lines):
            key = (i, prep(hyp))
            if key not in distinct:
                distinct[key] = len(uniq)
                uniq.append((i, ids(key[1].split())))
            where[j, i] = distinct[key]
    pairs = [(h, r) for i, h in uniq for r in ref_ids[i]]
    owner = np.repeat(np.arange(len(uniq)), [len(ref_ids[i]) for i, _ in uniq])
    # work in pieces of about equal cost (|h| x beam per candidate ~ |h| (|h| + |r|))
    cost = np.array([len(h) * (len(h) + len(r)) + 1 for h, r in pairs], dtype=float)
    cum = np.cumsum(cost)
    steps = max(1, min(PROGRESS_STEPS, len(pairs)))
    cuts = np.searchsorted(cum, cum[-1] * np.arange(1, steps) / steps, side="right")
    bounds = [0, *cuts.tolist(), len(pairs)]
    edits = np.empty(len(pairs), dtype=np.int64)
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        if b > a:
            edits[a:b] = ter_edits(pairs[a:b], threads=jobs)
        if progress is not None:
            progress(float(cum[b - 1] / cum[-1]) if b > 0 else 0.0)
    best = np.full(len(uniq), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(best, owner, edits)
    n_refs = np.array([len(ref_ids[i]) for i, _ in uniq])
    ref_total = np.zeros(len(uniq), dtype=np.int64)
    np.add.at(ref_total, owner, [len(r) for _, r in pairs])
    per = np.stack([best.astype(float), ref_total / n_refs], axis=-1)  # sacreBLEU's float /
    return per[where]


def ter_statistics(
    options: Mapping,
    references: list[list[str]],
    hypotheses: Mapping[str, list[str]],
    *,
    jobs: int,
    progress: Callable[[float], None] | None = None,
) -> np.ndarray:
    """TER statistics (edits, average reference length), shape (systems, segments, 2), equal
    to sacrebleu's sequential ``TER._extract_corpus_statistics`` for each system."""
    options = dict(options)
    n_seg = len(references[0])
    computed = False

    def compute(todo: dict[str, list[str]]) -> np.ndarray:
        nonlocal computed
        computed = True
        from ._ter_numba import available

        if available():
            return _numba_compute(options, references, todo, jobs, progress)
        work = len(todo) * n_seg
        n_chunks = 1 if jobs <= 1 or work < MIN_PARALLEL else min(n_seg, jobs * CHUNKS_PER_JOB)
        chunks = _longest_first(references, list(todo.values()), n_chunks)
        tasks = [
            (options, [[r[i] for i in idx] for r in references],
             [[lines[i] for i in idx] for lines in todo.values()])
            for idx in chunks
        ]
        from stats._core.workers import run_chunks  # multiprocessing: only where it runs

        parts = run_chunks(_score_chunk, tasks, jobs, preload=_PRELOAD, progress=progress)
        out = np.empty((len(todo), n_seg, 2), dtype=float)
        for idx, part in zip(chunks, parts, strict=True):
            for j in range(len(todo)):  # loop over the chunks and systems, not segments
                out[j, idx] = part[j]
        return out

    out = cached_statistics("ter", options, references, hypotheses, 2, compute)
    if not computed and progress is not None:
        progress(1.0)
    return out
