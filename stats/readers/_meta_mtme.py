"""MTME's on-disk layout for :func:`stats.readers.meta.read_meta_eval`: a directory, or a
``.zip`` / ``.tar.gz`` of one, with ``human-scores/LP.NAME.LEVEL.score`` and
``metric-scores/LP/METRIC-REF.LEVEL.score`` files (lines ``SYSTEM<TAB>SCORE``), and the
systems and references named by ``system-outputs/LP/`` and ``references/LP.REF.txt``.

Files with a DOMAIN column, read as MTME reads its three-field files (``data.py``'s
``ReadDomainScoreFile``: each line split on whitespace into ``DOMAIN SYSNAME SCORE``, ``None``
a missing score):

* ``*.domain.score`` (MTME's domain level): one score per system and domain;
* ``*.seg.score`` with three fields (NRC's MSLC23-24 files in MTME's folder layout: ``DOMAIN
  SYSNAME SCORE``): one line per segment in segment order, system by system, as MTME's
  two-field segment files (``ReadScoreFile``), the DOMAIN of each segment kept. Every system
  and file of a language pair must give a segment the same domain.

Document-level files (``*.doc.score``) are not used; the read-as line counts them.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path, PurePosixPath

import numpy as np

from stats._core.errors import DegenerateInputWarning, StatsInputError

from ._archives import archive_members, directory_files, read_regular_file
from ._arrow import LARGE_BLOCK, count_byte, plain_bytes
from ._common import decode
from ._meta_rows import _LEVELS, MISSING, _add, _Pair, _score, _Scores


def _archive_members(data: bytes, label: str) -> dict:
    """``{posix path: bytes}`` of the files of a zip or tar.gz archive (score files' bytes, the
    other files' names only), read under the shared archive limits (:mod:`._archives`)."""
    found = archive_members(data, label, want=lambda n: n.endswith(".score"))
    if found is None:
        raise StatsInputError(f"{label}: not a readable .zip or .tar.gz archive")
    names, members = found
    return {**dict.fromkeys(names, b""), **dict(members)}


def _directory_members(path: Path) -> dict:
    """``{posix path: loader}`` of the score files (and system-output names) under ``path``:
    regular files only, links never followed (:func:`._archives.directory_files`)."""
    out = {}
    for p in directory_files(path, os.fspath(path), sized=lambda n: n.endswith(".score")):
        parts = p.relative_to(path).parts
        if ("human-scores" in parts or "metric-scores" in parts
                or "system-outputs" in parts or "references" in parts):
            out[PurePosixPath(*parts).as_posix()] = p
    return out


def _score_lines(text: str, where: str, store: dict, name: str, gold: bool) -> None:
    """An MTME score file line by line (every error named by its line): two fields
    ``SYSTEM SCORE``, or three ``DOMAIN SYSTEM SCORE`` on every line."""
    width = None
    for line_no, ln in enumerate(text.splitlines(), start=1):
        if not ln.strip():
            continue
        fields = ln.split("\t") if "\t" in ln else ln.split()
        if width is None and len(fields) in (2, 3):
            width = len(fields)
        if len(fields) != width:
            raise StatsInputError(
                f"{where}, line {line_no}: expected SYSTEM<TAB>SCORE, or DOMAIN<TAB>SYSTEM<TAB>"
                f"SCORE on every line (as MTME's domain files and NRC's MSLC files), found "
                f"{len(fields)} fields" + (f" after lines of {width}" if width else "")
            )
        value = _score(fields[-1], where, line_no, gold=gold)
        sc = _add(store, name, where, fields[-2].strip(), value, line_no)
        if width == 3:
            sc.domains.setdefault(fields[-2].strip(), []).append(fields[0].strip())


def _fast_score_file(data: bytes, sc: _Scores, gold: bool) -> bool:
    """Fill ``sc`` from an MTME segment or system score file read by pyarrow's parser when the
    file is plain (``SYSTEM<TAB>SCORE`` on every line, no blank line, every score a finite
    number within the input bound, or a missing mark in a human-score file); False (nothing
    filled) for anything else, which the line-by-line reader then reads or names. ``data``:
    the decoded text as UTF-8, or the bytes of a plain file (:func:`~._arrow.plain_bytes`:
    the same lines and fields)."""
    from ._limits import MAX_ABS_VALUE

    if not data or b"\t" not in data or b"\n\n" in data or b"\r" in data or data[:1] == b"\n":
        return False
    n_lines = count_byte(data, b"\n") + (not data.endswith(b"\n"))
    tabs = count_byte(data, b"\t")
    if tabs not in (n_lines, 2 * n_lines):
        return False  # a line of other than two (or three) tab-separated fields
    names = ["system", "score"] if tabs == n_lines else ["domain", "system", "score"]
    missing = sorted({v for m in MISSING if m for v in (m, m.upper(), m.capitalize())})
    try:
        import pyarrow as pa
        from pyarrow import csv as pacsv

        table = pacsv.read_csv(
            pa.BufferReader(pa.py_buffer(data)),  # the bytes read in place, no copy
            read_options=pacsv.ReadOptions(column_names=names, use_threads=True,
                                           block_size=LARGE_BLOCK),
            parse_options=pacsv.ParseOptions(delimiter="\t", quote_char=False),
            convert_options=pacsv.ConvertOptions(
                check_utf8=False,  # (a plain file's bytes, or decoded text's: UTF-8)
                column_types={"domain": pa.string(), "score": pa.float64(),
                              "system": pa.dictionary(pa.int32(), pa.string())},
                null_values=missing if gold else [], strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        return False
    except (ValueError, pa.ArrowException):  # (ArrowInvalid is a ValueError)
        return False
    if table.num_rows != n_lines:
        return False
    values = np.array(table.column("score").to_numpy(), dtype=float)  # (a null is NaN)
    with np.errstate(invalid="ignore"):
        if (np.abs(values) > MAX_ABS_VALUE).any() or np.isinf(values).any():
            return False
    if not gold and np.isnan(values).any():
        return False
    system = table.column("system").unify_dictionaries()  # in order of first appearance
    uniques = system.chunk(0).dictionary.to_pylist() if system.num_chunks else []
    codes = np.concatenate([np.asarray(c.indices.to_numpy(), dtype=np.int64)
                            for c in system.chunks] or [np.zeros(0, dtype=np.int64)])
    if any(not u or u.strip() != u for u in uniques):
        return False  # an empty or padded system name: the line-by-line reader handles it
    domains = (np.asarray(table.column("domain").to_numpy(zero_copy_only=False), dtype=object)
               if "domain" in names else None)
    del table
    if domains is not None and any(not d.strip() for d in set(domains)):
        return False
    first = np.full(len(uniques), len(codes))
    np.minimum.at(first, codes, np.arange(len(codes)))
    # each system's rows in file order: one stable sort of the (narrowed) codes, then cut
    small = codes.astype(np.uint16) if len(uniques) < 2**16 else codes
    order = np.argsort(small, kind="stable")
    cuts = np.cumsum(np.bincount(codes, minlength=len(uniques)))[:-1]
    by_system = np.split(values[order], cuts)
    domain_parts = np.split(domains[order], cuts) if domains is not None else None
    for k, system in enumerate(uniques):
        sc.values[system] = by_system[k]  # (a float array: no Python float per row)
        sc.lines[system] = int(first[k]) + 1
        if domain_parts is not None:
            sc.domains[system] = [d.strip() for d in domain_parts[k].tolist()]
    return True


def _is_archive(label: str, data: bytes | None) -> bool:
    low = label.lower()
    if low.endswith((".zip", ".tar.gz", ".tgz", ".tar")):
        return True
    return data is not None and (data[:4] == b"PK\x03\x04" or data[:2] == b"\x1f\x8b")


def _domain_file(text: str, where: str, sc: _Scores, gold: bool) -> None:
    """A ``*.domain.score`` file as MTME's ReadDomainScoreFile reads it (``DOMAIN SYSNAME
    SCORE``, whitespace-separated), into ``sc.values[system][domain]``; a (system, domain)
    given twice is refused (MTME keeps the last).

    ``None`` is a missing score, as ``ReadDomainScoreFile`` reads it: in a human file the
    (system, domain) has no gold score (MTME's correlations filter it; a system with no gold
    score left is left out, named in the table's notes), and a warning names the file, its
    count and first lines; in a metric file it is refused, as MTME's ``CheckScores`` raises
    ("contains None elements")."""
    missing: list = []
    for line_no, ln in enumerate(text.splitlines(), start=1):
        if not ln.strip():
            continue
        fields = ln.split()
        if len(fields) != 3:
            raise StatsInputError(
                f"{where}, line {line_no}: expected DOMAIN SYSTEM SCORE (MTME's domain-level "
                f"files), found {len(fields)} fields"
            )
        domain, system, raw = fields
        value = _score(raw, where, line_no, gold=gold)
        if value != value:  # NaN: a missing human score
            missing.append(line_no)
        per = sc.values.setdefault(system, {})
        if domain in per:
            raise StatsInputError(
                f"{where}, line {line_no}: a second score of system {system!r} for domain "
                f"{domain!r}"
            )
        per[domain] = value
        sc.lines.setdefault(system, line_no)
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
        warnings.warn(
            f"{where}: {len(missing)} human score(s) None (line(s) {shown}): read as missing, "
            "as MTME's ReadDomainScoreFile reads None; those systems have no gold score for "
            "those domains",
            DegenerateInputWarning,
            stacklevel=2,
        )


def _item_domains(pairs: dict) -> None:
    """Each language pair's segment domains from its segment files with a DOMAIN column:
    every system of every such file must give each segment the same domain."""
    for pair in pairs.values():
        first = None  # (domains, file, system)
        for store in (pair.gold["seg"], pair.metrics["seg"]):
            for sc in store.values():
                for system, domains in sc.domains.items():
                    if first is None:
                        first = (domains, sc.file, system)
                        continue
                    if domains != first[0]:
                        n = min(len(domains), len(first[0]))
                        i = next((k for k in range(n) if domains[k] != first[0][k]), n)
                        theirs = first[0][i] if i < len(first[0]) else "(none)"
                        mine = domains[i] if i < len(domains) else "(none)"
                        raise StatsInputError(
                            f"{sc.file}: system {system!r} gives segment {i + 1} domain "
                            f"{mine!r}; {first[1]} (system {first[2]!r}) gives it {theirs!r}"
                        )
        if first is not None:
            pair.item_domains = tuple(first[0])


def _read_mtme(members: dict, label: str, pairs: dict, said: list | None = None) -> list:
    """Parse MTME score files from ``members`` (path -> bytes or Path) into ``pairs``;
    ``said`` (when given) gets what the reader noticed beyond two-field files (files with a
    DOMAIN column, domain-level files, document-level files not used)."""
    files = []
    with_domain, domain_level, doc_level = [], [], []
    for path in sorted(members):
        parts = PurePosixPath(path).parts
        if "system-outputs" in parts:
            i = parts.index("system-outputs")
            if len(parts) == i + 3:
                pair = pairs.setdefault(parts[i + 1], _Pair())
                pair.known_systems = (pair.known_systems or set()) | {
                    parts[i + 2].rsplit(".", 1)[0]
                }
            continue
        if "references" in parts and len(parts) >= 2 and parts[-2] == "references":
            toks = parts[-1].split(".")  # LP.REF.txt
            if len(toks) >= 3:
                pairs.setdefault(toks[0], _Pair()).references.add(toks[1])
            continue
        base = parts[-1]
        if not base.endswith(".score"):
            continue
        where = f"{label}:{path}" if label else path
        if "human-scores" in parts:
            toks = base.split(".")
            if len(toks) < 4:
                raise StatsInputError(
                    f"{where}: human score file name must be LP.NAME.LEVEL.score"
                )
            lp, name, level, gold = toks[0], ".".join(toks[1:-2]), toks[-2], True
        elif "metric-scores" in parts:
            if parts[-2] == "metric-scores":
                raise StatsInputError(
                    f"{where}: metric score files go in metric-scores/LP/, one folder per "
                    "language pair"
                )
            toks = base.rsplit(".", 2)
            if len(toks) != 3:
                raise StatsInputError(
                    f"{where}: metric score file name must be METRIC-REF.LEVEL.score"
                )
            lp, name, level, gold = parts[-2], toks[0], toks[1], False
        else:
            continue
        if level not in (*_LEVELS, "domain"):
            doc_level.append(where)
            continue  # the document level is not used (named in the read-as line)
        raw = members[path]
        data = read_regular_file(raw, where) if isinstance(raw, Path) else raw
        # a plain file's bytes are its text (plain_bytes): parsed as they are, decoded only
        # when read line by line
        text = None if plain_bytes(data) else decode(data, where)
        pair = pairs.setdefault(lp, _Pair())
        if level == "domain":
            text = decode(data, where) if text is None else text
            kept = pair.domain_level["gold" if gold else "metrics"]
            if name in kept:
                raise StatsInputError(f"{where}: {name} (domain) for {lp} is given twice")
            kept[name] = _Scores(file=where)
            _domain_file(text, where, kept[name], gold)
            if not kept[name].values:
                raise StatsInputError(f"{where}: file is empty")
            domain_level.append(where)
            files.append(where)
            continue
        store = (pair.gold if gold else pair.metrics)[level]
        if name in store:
            raise StatsInputError(f"{where}: {name} ({level}) for {lp} is given twice")
        store[name] = _Scores(file=where)
        if not _fast_score_file(data if text is None else text.encode("utf-8"), store[name], gold):
            _score_lines(decode(data, where) if text is None else text, where, store, name, gold)
        if not store[name].values:
            raise StatsInputError(f"{where}: file is empty")
        if store[name].domains:
            if level == "sys":
                raise StatsInputError(
                    f"{where}: a system-level file has SYSTEM SCORE lines; scores per domain "
                    "go in a *.domain.score file (DOMAIN SYSTEM SCORE)"
                )
            with_domain.append(where)
        if level == "sys":
            for s, v in store[name].values.items():
                if len(v) != 1:
                    raise StatsInputError(
                        f"{where}, line {store[name].lines[s]}: system {s!r} has {len(v)} "
                        "system-level scores; expected one line per system"
                    )
        files.append(where)
    if not files:
        raise StatsInputError(
            f"{label}: no MTME score files (human-scores/LP.NAME.LEVEL.score, "
            "metric-scores/LP/METRIC-REF.LEVEL.score)"
        )
    _item_domains(pairs)
    if said is not None:
        if with_domain:
            names = sorted({d for p in pairs.values() for d in (p.item_domains or ())})
            said.append(
                f"{len(with_domain)} segment file(s) with a DOMAIN column (DOMAIN SYSTEM SCORE, "
                f"as NRC's MSLC files; domains kept: {', '.join(names)})"
            )
        if domain_level:
            said.append(f"{len(domain_level)} domain-level file(s) (DOMAIN SYSTEM SCORE)")
        if doc_level:
            said.append(f"{len(doc_level)} document-level file(s) not used")
    return files
