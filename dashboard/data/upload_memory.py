"""The memory an upload needs to be read, checked against what the session has left before any
page reads it.

Pages read their uploads in the server's process (in the session's script thread; the QE page's
WMT submissions are the exception, read in a child process whose memory is watched: see
:mod:`dashboard.data.qe_wmt`). A large upload there could take the server past the session's
memory cap (:data:`dashboard.components.SESSION_MAX_MEMORY`): the readers' own parse-memory
check holds a file against the whole cap, not knowing what the session already holds, and some
readers have none. So :func:`dashboard.components.file_input` asks :func:`refusal` first, once per
new upload: its estimate is the upload's text (an archive's or a gzip stream's unpacked bytes,
counted from its listing or by unpacking it a chunk at a time, never held) times the measured
factor of the page's readers (:data:`READ_FACTORS`), plus what the session's uploads already
hold; past the cap the upload is refused in one line naming the file, its size, the estimate
and the cap, before a reader sees it. A small file costs a length and ``bytes.isascii``: no
child process, no parsing.
"""

from __future__ import annotations

import io
import zipfile
import zlib

from dashboard.data import Uploads

#: peak memory of reading an upload the way the page does, in multiples of its text, by the
#: upload key of :func:`dashboard.components.file_input` (or the kind of
#: :func:`dashboard.components.check_upload_memory`): the largest figure of
#: ``benchmarks/upload_memory.py`` over the page's readers, each on a plain file and on one with
#: a bad last value (the careful path), rounded up, plus one. Measured on 4 MB files at load
#: 15-18 on 2 cores (judgements at 16-20 MB too: 30x): segment scores 13.6x
#: long, 14.7x wide, 5.6x WMT ``*.seg.score``; system outputs and reference (BLEU statistics)
#: 13.5x; meta-evaluation long text 11.9x, wide CSV 14.4x, WMT segment scores 5.4x; judgements
#: 36x, WMT DA segment files 24x, MQM error spans 19.5x (the gold standard is computed as they
#: are read); QE long 9.3x, wide 11.4x; WMT25 automatic scores (a zip, unpacked) 2.8x. What the
#: reading keeps is counted (the parsed table, the statistics), not the bytes held before it
#: starts (the session's uploads, counted apart)
_SCORES, _TEXT, _META, _HUMAN = 16, 15, 16, 37
READ_FACTORS = {
    "mt_scores": _SCORES,
    "power_scores": _SCORES,
    "human_scores_upload": _SCORES,
    "mt_refs": _TEXT,
    "mt_hyps": _TEXT,
    "power_refs": _TEXT,
    "power_hyps": _TEXT,
    "human_ref_upload": _TEXT,
    "human_hyp_upload": _TEXT,
    "mt_explore_source": _TEXT,
    "metrics_upload": _META,
    "board_upload": _META,
    "human_judgements_upload": _HUMAN,
    "qe_tables": 13,
    "autorank_upload": 4,
    # WMT25 system outputs, references and systems metadata (JSON read into Python strings and
    # dicts): outputs 7.9x at 7.5 MB and 15.5x at 1.5 MB, references 2.7x at 0.6 MB (generated
    # in the published layouts, tests/_wmt25_texts.py); the metadata is a small JSON file
    "autorank_outputs_upload": _SCORES,
    "autorank_references_upload": _SCORES,
    "autorank_metadata_upload": _SCORES,
}
#: layouts whose reading is measured far below their uploader's factor, by the end of a file's
#: name (an archive's members, gzip's ``.gz`` aside): WMT segment and system score files read
#: as meta-evaluation scores (5.4-5.6x, ``benchmarks/upload_memory.py``), plus one
NAME_FACTORS = ((".seg.score", 7), (".sys.score", 7))
#: upload keys whose files are read in a child process that holds the session's cap while it
#: reads (the QE page's WMT submissions: :mod:`dashboard.data._qe_wmt_work`)
READ_IN_A_CHILD = frozenset({"qe_upload", "qe_folder"})
#: extra bytes per character of decoded text that is not ASCII (Python holds a string of any
#: character beyond Latin-1 at 2 or 4 bytes a character; the factors are measured on ASCII)
NON_ASCII_EXTRA = 3
_CHUNK = 1 << 20
_GZIP = b"\x1f\x8b"
_ZIP = b"PK\x03\x04"


def _size_text(nbytes: float) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= scale:
            return f"{nbytes / scale:,.1f} {unit}"
    return f"{nbytes:,.0f} bytes"


def _gunzipped_size(stream, limit: int) -> tuple[int, bool]:
    """Bytes a gzip stream (every member) unpacks to, counted a chunk at a time, none kept, and
    whether it was counted to its end: counting stops past ``limit``. A stream that is not
    gzip after all counts as what it unpacked so far (the reader names what is wrong)."""
    total = 0
    inflate = zlib.decompressobj(wbits=31)
    try:
        while total <= limit:
            chunk = inflate.unconsumed_tail or stream.read(_CHUNK)
            if not chunk:
                return total, True
            total += len(inflate.decompress(chunk, _CHUNK))
            if inflate.eof:  # the next gzip member, if any
                rest = inflate.unused_data
                inflate = zlib.decompressobj(wbits=31)
                if rest:
                    total += len(inflate.decompress(rest, _CHUNK))
    except zlib.error:
        return total, True
    return total, False


def _unpacked(data: bytes, limit: float, weight=None, name: str = "") -> tuple[int, float, bool]:
    """(bytes the readers will decode from ``data``, the same with each file's bytes times
    ``weight(file name)`` (1 without ``weight``), whether it was counted to the end): counting
    stops once the weighted count is past ``limit``."""
    weight = weight or (lambda _name: 1.0)
    if data.startswith(_GZIP):
        w = weight(name.lower().removesuffix(".gz"))
        size, complete = _gunzipped_size(io.BytesIO(data), int(limit / w) + 1)
        return size, size * w, complete
    if not data.startswith(_ZIP):
        return len(data), len(data) * weight(name.lower()), True
    raw, total = 0, 0.0
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                if total > limit:
                    return raw, total, False
                member = info.filename.lower()
                if member.endswith((".gz", ".tgz")):
                    w = weight(member.removesuffix(".gz"))
                    with archive.open(info) as stream:
                        size, complete = _gunzipped_size(stream, int((limit - total) / w) + 1)
                    raw, total = raw + size, total + size * w
                    if not complete:
                        return raw, total, False
                else:
                    raw, total = raw + info.file_size, total + info.file_size * weight(member)
            return raw, total, True
    except (zipfile.BadZipFile, zlib.error, OSError, NotImplementedError, ValueError):
        return len(data), float(len(data)), True  # the reader refuses it in its own words


def unpacked_size(data: bytes, limit: int) -> int:
    """The bytes the readers will decode from ``data``: a gzip stream's unpacked size, a zip's
    members by their declared sizes (gzipped members, ``*.gz``, unpacked), anything else its
    own size. Counting stops once past ``limit`` (the answer is then over it)."""
    return _unpacked(data, limit)[0]


def _name_factor(name: str, factor: float) -> float:
    """The factor of a file named ``name`` (lower case) read by an uploader of ``factor``:
    :data:`NAME_FACTORS` where its layout is measured lower, ``factor`` otherwise."""
    for suffix, own in NAME_FACTORS:
        if name.endswith(suffix):
            return min(own, factor)
    return factor


def _measure(key: str, data: bytes, limit: float, name: str = "") -> tuple[float, int, bool]:
    """(the estimate of :func:`estimate`, the text counted, whether counted to the end)."""
    factor = READ_FACTORS.get(key, max(READ_FACTORS.values()))
    text, weighted, complete = _unpacked(
        data, max(limit, 0) + 1, lambda member: _name_factor(member, factor), name
    )
    if text == len(data) and not data.isascii():
        weighted += NON_ASCII_EXTRA * text
    return float(weighted), text, complete


def estimate(key: str, name: str, data: bytes, limit: float) -> float:
    """Memory reading ``data`` (the upload ``name`` of uploader ``key``) takes beyond its bytes:
    :data:`READ_FACTORS` times its unpacked text (:data:`NON_ASCII_EXTRA` more a byte when not
    ASCII). Counting an archive stops once the estimate is past ``limit``."""
    return _measure(key, data, limit, name)[0]


def refusal(key: str, uploads: Uploads, *, held: int, cap: float) -> str | None:
    """The one-line refusal of ``uploads`` (of uploader ``key``) when reading them would take
    the session past ``cap`` bytes, its other uploads holding ``held``; None when they fit (or
    when ``key``'s files are read in a child process that holds the cap itself:
    :data:`READ_IN_A_CHILD`). Files are counted in order; the first that passes the cap is
    named, with its size, the estimate and the cap."""
    if key in READ_IN_A_CHILD:
        return None
    used = float(held + sum(len(data) for _, data in uploads))  # every upload's bytes are held
    for name, data in uploads:
        need, text, complete = _measure(key, data, cap - used, name)
        if used + need > cap:
            others = f" beside {_size_text(used - len(data))} held" if used > len(data) else ""
            size = _size_text(len(data))
            if text != len(data):  # an archive or a gzip stream: what it unpacks to, too
                size += f", {'' if complete else 'more than '}{text:,} bytes unpacked"
            return (
                f"{name} ({size}) is not read: reading it needs about "
                f"{_size_text(need)} of memory{others}, over this session's cap of "
                f"{_size_text(cap)}; upload a smaller file, or split it (e.g. one language "
                "pair per file)"
            )
        used += need
    return None
