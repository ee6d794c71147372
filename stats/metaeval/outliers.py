"""Outlier systems by the median absolute deviation, as the WMT findings leave them out of the
system-level metric correlations (WMT20 metrics task, Mathur et al. 2020).
"""

from __future__ import annotations

import numpy as np

from stats._core.errors import StatsInputError

__all__ = ["MAD_SCALE", "mad_outliers", "read_outliers_json"]

#: consistency constant of the MAD for normal data (R's ``mad``; :math:`1/\Phi^{-1}(3/4)`)
MAD_SCALE = 1.4826


def mad_outliers(values, *, threshold: float = 2.5) -> np.ndarray:
    r"""Which values are outliers by the robust z-score of the median absolute deviation.

    .. math::

        \mathrm{MAD} = \operatorname{median}_i |x_i - \operatorname{median}(x)|,
        \qquad
        \text{outlier}_i \iff \frac{|x_i - \operatorname{median}(x)|}{1.4826\,\mathrm{MAD}}
        > \text{threshold}

    The rule of the WMT20 metrics task (Mathur et al., 2020,
    https://aclanthology.org/2020.wmt-1.77/, following Leys et al., 2013,
    https://doi.org/10.1016/j.jesp.2013.03.013), applied there to the human scores of the
    systems of one language pair.

    Parameters
    ----------
    values : array_like, 1-D
        Finite scores, e.g. the human z-scores of a language pair's systems.
    threshold : float, default 2.5
        Robust z above which a value is an outlier.

    Returns
    -------
    ndarray of bool
        True for the outliers. All False when the MAD is 0 (over half the values are equal:
        no value is then farther out than the others in this scale).

    Raises
    ------
    StatsInputError
        ``values`` not 1-D, or not finite; ``threshold`` not a positive number.

    Examples
    --------
    The last system's human score is far from the others'.

    >>> from stats import mad_outliers
    >>> mad_outliers([0.1, 0.2, 0.15, 0.12, 0.18, -2.0]).tolist()
    [False, False, False, False, False, True]
    """
    x = np.asarray(values, dtype=float)
    if x.ndim != 1:
        raise StatsInputError(f"values must be 1-D; got shape {x.shape}")
    if not np.isfinite(x).all():
        raise StatsInputError("values must be finite numbers; got NaN or infinity")
    # np.isscalar narrows the annotation to numpy scalar types: only the checker needs the ignore
    if not (np.isscalar(threshold) and np.isfinite(threshold) and threshold > 0):  # type: ignore[operator]
        raise StatsInputError(f"threshold must be a positive number; got {threshold!r}")
    if x.size == 0:
        return np.zeros(0, dtype=bool)
    med = np.median(x)
    dev = np.abs(x - med)
    mad = MAD_SCALE * np.median(dev)
    if mad == 0:
        return np.zeros(x.shape, dtype=bool)
    return dev / mad > threshold


#: largest outliers.json read (bounded while read: a FIFO or /dev/zero is refused; WMT's files
#: are a few kilobytes)
MAX_OUTLIERS_BYTES = 16 * 2**20


def _outliers_bytes(source, name: str | None) -> tuple[bytes, str]:
    """The bytes of ``source`` (a path, bytes, JSON text, a binary file object or an upload
    ``(name, bytes)``), read through the bounded reader, and its display name."""
    import os

    from stats._core.inputs import read_path, read_stream, too_large

    if isinstance(source, tuple) and len(source) == 2 and isinstance(source[1], bytes):
        name, source = name or str(source[0]), source[1]
    if isinstance(source, (bytes, bytearray, memoryview)):
        label = name or "outliers.json"
        if len(source) > MAX_OUTLIERS_BYTES:
            raise too_large(label, MAX_OUTLIERS_BYTES, len(source))
        return bytes(source), label
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return _outliers_bytes(source.encode("utf-8"), name)
    if isinstance(source, (str, os.PathLike)):
        label = name or os.fspath(source)
        return read_path(source, label, MAX_OUTLIERS_BYTES), label
    if hasattr(source, "read"):
        label = name or str(getattr(source, "name", None) or "outliers.json")
        return read_stream(source, label, MAX_OUTLIERS_BYTES), label
    raise StatsInputError(
        f"outliers: expected a path, bytes or a file object; got {type(source).__name__}"
    )


def read_outliers_json(source, *, name: str | None = None) -> dict:
    """WMT's published outlier systems (``outliers.json`` of the WMT20 metrics task): an object
    ``{language pair: [system, ...]}``, as ``{lp: tuple of systems}``.

    ``source``: a path, the file's bytes / text, a binary file object or an upload
    ``(name, bytes)`` (``name`` names it in messages); read through the bounded reader (at
    most :data:`MAX_OUTLIERS_BYTES`; a FIFO or ``/dev/zero`` is refused, not waited for).

    Examples
    --------
    >>> read_outliers_json(b'{"cs-en": ["zlabs-nlp.1149", "CUNI-DocTransformer.1457"]}')
    {'cs-en': ('zlabs-nlp.1149', 'CUNI-DocTransformer.1457')}

    Raises
    ------
    StatsInputError
        Unreadable or too large file, not JSON, or not an object of lists of system names (one
        line naming the file and the language pair), a language pair given twice.
    """
    import json

    data, label = _outliers_bytes(source, name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise StatsInputError(
            f"{label}: not UTF-8 text ({exc.reason} at byte {exc.start + 1}); save it as UTF-8"
        ) from None
    if not text.strip():
        raise StatsInputError(f"{label}: the outliers file is empty")

    def no_twice(pairs):
        keys = [k for k, _ in pairs]
        twice = next((k for i, k in enumerate(keys) if k in keys[:i]), None)
        if twice is not None:
            raise StatsInputError(f"{label}: {twice!r} is given twice (give each key once)")
        return dict(pairs)

    try:
        doc = json.loads(text, object_pairs_hook=no_twice)
    except StatsInputError:
        raise
    except json.JSONDecodeError as exc:
        raise StatsInputError(f"{label}, line {exc.lineno}: not valid JSON ({exc.msg})") from None
    except (RecursionError, ValueError):
        raise StatsInputError(f"{label}: not usable JSON (nested too deeply or too large)") from None
    if not isinstance(doc, dict):
        raise StatsInputError(
            f"{label}: expected an object {{language pair: [system, ...]}}; got "
            f"{type(doc).__name__}"
        )
    out = {}
    for lp, systems in doc.items():
        if not isinstance(systems, list) or not all(isinstance(s, str) for s in systems):
            raise StatsInputError(
                f"{label}: {lp!r} must list system names; got {type(systems).__name__}"
            )
        out[str(lp)] = tuple(systems)
    return out
