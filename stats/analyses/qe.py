"""Quality estimation from files (Graham, ACL 2015): loading, post-edit rate, evaluation,
rescaling, the post-edit reference rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from stats._core.errors import StatsInputError
from stats.metaeval.williams import WilliamsResult
from stats.qe.graham import (
    QEEvaluationResult,
    RescaleResult,
    compare_gold_representations,
    evaluate_qe,
    post_edit_rate,
    rescaling_curve,
    rescaling_experiment,
)

from ..readers import source_name
from ..readers.qe import QEData, read_post_edit, read_qe, split_qe_files
from ._inputs import FileInput, Files, _named, _recorded


@dataclass(frozen=True, kw_only=True)
class QEInput:
    """Parsed QE files: predictions and gold labels (``data``), the optional post-editing table
    (``post_edit``: time, words and further gold representations per sentence) and the files'
    display names."""

    data: QEData
    post_edit: pd.DataFrame | None
    data_files: tuple[str, ...]
    gold_file: str | None
    post_edit_file: str | None


@dataclass(frozen=True, kw_only=True)
class QEAnalysis:
    """A QE evaluation: ``data`` is what was evaluated (converted to seconds per word when
    ``rate``), ``result`` the evaluation; ``post_edit_test`` is the Williams test of post-edit
    rate vs post-edit time against the column ``post_edit_reference`` of the post-editing
    table (Graham 2015, Table 1), None without one."""

    input: QEInput
    data: QEData
    result: QEEvaluationResult
    rate: bool
    post_edit_test: WilliamsResult | None
    post_edit_reference: str | None
    warnings: tuple[str, ...]


def load_qe(
    files: Files,
    *,
    gold: FileInput | None = None,
    post_edit: FileInput | None = None,
    layout: str = "auto",
    allow_constant: bool = False,
    find_roles: bool | None = None,
) -> QEInput:
    """Read QE predictions, gold labels and an optional post-editing table.

    Parameters
    ----------
    files : Files
        Prediction files (one long or wide file, or WMT submission files), possibly with the
        gold-label file and the post-editing table among them (see ``find_roles``).
    gold, post_edit : FileInput, optional
        The gold-label file (for WMT submissions) and the post-editing table
        (``SID TIME WORDS [HTER ...]``), when given separately.
    layout : {'auto', 'long', 'wmt', 'wide'}
        Layout of the prediction files, as in :func:`stats.readers.qe.read_qe`.
    allow_constant : bool
        Keep systems with constant predictions (their r is NaN).
    find_roles : bool, optional
        Recognise a gold-label file and a post-editing table among ``files`` by their content
        (:func:`stats.readers.qe.split_qe_files`). Default: when ``gold`` is not given and
        there are several files.

    Raises
    ------
    StatsInputError
        No file; two gold-label files or two post-editing tables (one among ``files``, one
        given separately); anything the readers reject.
    """
    if not files:
        raise StatsInputError("files: no QE file given")
    pairs = [_named(f) for f in files]
    sources, names = [s for s, _ in pairs], [source_name(s, n) for s, n in pairs]
    gold_src, gold_name = _named(gold) if gold is not None else (None, None)
    post, post_name = None, None
    if post_edit is not None:
        post_src, post_name = _named(post_edit)
        post = read_post_edit(post_src, name=post_name)
        post_name = source_name(post_src, post_name)
    if find_roles is None:
        find_roles = gold is None and len(files) > 1
    if find_roles:
        found, gold_found, post_found = split_qe_files(sources, names=names)
        sources, names = [b for b, _ in found], [n for _, n in found]
        if gold_found is not None:
            if gold is not None:
                raise StatsInputError(f"{gold_found[1]}: a second gold-label file (gold)")
            gold_src, gold_name = gold_found
        if post_found is not None:
            if post is not None:
                raise StatsInputError(f"{post_found[1]}: a second post-editing table (post_edit)")
            post = read_post_edit(post_found[0], name=post_found[1])
            post_name = post_found[1]
    data = read_qe(
        sources if len(sources) > 1 else sources[0],
        gold_src,
        format=layout,
        name=names if len(names) > 1 else names[0],
        gold_name=gold_name,
        allow_constant=allow_constant,
    )
    if gold_src is not None and gold_name is None:
        gold_name = source_name(gold_src)
    return QEInput(
        data=data,
        post_edit=post,
        data_files=tuple(names),
        gold_file=gold_name,
        post_edit_file=post_name,
    )


def qe_evaluated_data(inp: QEInput, *, rate: bool = False) -> QEData:
    """The labels and predictions to evaluate: as read, or with ``rate`` converted to
    post-edit rate (seconds per word) with the WORDS of the post-editing table.

    Raises
    ------
    StatsInputError
        ``rate`` without a post-editing table; a sentence without a word count (the table's
        file named).
    """
    if not rate:
        return inp.data
    if inp.post_edit is None:
        raise StatsInputError("rate needs a post-editing table (for the word counts)")
    try:
        return post_edit_rate(inp.data, inp.post_edit["words"])
    except StatsInputError as exc:  # name the file the word counts came from
        raise StatsInputError(f"{inp.post_edit_file}: {exc}") from None


def post_edit_reference(
    table: pd.DataFrame, reference: str | None = None, *, name: str | None = None
) -> str | None:
    """The reference column of a post-editing table (as read by
    :func:`stats.readers.qe.read_post_edit`) for the PER-vs-PET test.

    ``reference`` given: that column (case-insensitive), else :class:`~stats.StatsInputError`
    naming the file ``name`` and the columns found. Not given: ``hter`` when present, else the
    first column after SID, TIME and WORDS, else None (there is nothing to test against).
    """
    others = [c for c in table.columns if c not in ("time", "words")]
    if reference is None:
        return "hter" if "hter" in others else (others[0] if others else None)
    if reference.lower() not in others:
        raise StatsInputError(
            f"{name or 'post_edit'}: no reference column {reference!r}; found "
            f"{', '.join(others) or 'none'}"
        )
    return reference.lower()


def qe_analysis(
    inp: QEInput,
    *,
    rate: bool = False,
    sd_ratio: float = 0.5,
    alternative: str = "greater",
    reference: str | None = None,
) -> QEAnalysis:
    """Evaluate QE systems (Graham 2015): Pearson/Spearman/MAE/RMSE with ranks, MAE/RMSE after
    rescaling to ``sd_ratio`` x the gold SD, Williams tests of all pairs, prediction
    correlations (:func:`stats.qe.graham.evaluate_qe`), and with a post-editing table the Williams
    test of post-edit rate vs post-edit time against its reference column
    (:func:`post_edit_reference` chooses it from ``reference``).

    ``rate`` converts labels and predictions to post-edit rate first (a post-editing table is
    needed). The rescaling of :attr:`QEAnalysis.result` uses ``sd_ratio``; see also
    :func:`qe_rescaling` for other values.
    """
    with _recorded() as messages:
        data = qe_evaluated_data(inp, rate=rate)
        result = evaluate_qe(data, sd_ratio=sd_ratio, alternative=alternative)
        test, ref = None, None
        if inp.post_edit is not None:
            pe = inp.post_edit
            ref = post_edit_reference(pe, reference, name=inp.post_edit_file)
            if ref is not None:
                test = compare_gold_representations(
                    post_edit_rate(pe["time"], pe["words"]), pe["time"], pe[ref]
                )
    return QEAnalysis(
        input=inp,
        data=data,
        result=result,
        rate=bool(rate),
        post_edit_test=test,
        post_edit_reference=ref,
        warnings=tuple(messages),
    )


def qe_rescaling(inp: QEInput, *, sd_ratio: float = 0.5, rate: bool = False) -> RescaleResult:
    """MAE/RMSE before and after shifting the predictions to the gold mean and rescaling them to
    ``sd_ratio`` x the gold SD (:func:`stats.qe.graham.rescaling_experiment`)."""
    return rescaling_experiment(qe_evaluated_data(inp, rate=rate), sd_ratio=sd_ratio)


def qe_rescaling_curve(inp: QEInput, *, rate: bool = False) -> pd.DataFrame:
    """MAE and RMSE of every system for lambda = 0.05, 0.10, ..., 1.50 (long table,
    :func:`stats.qe.graham.rescaling_curve`)."""
    return rescaling_curve(qe_evaluated_data(inp, rate=rate))
