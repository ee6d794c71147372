"""How much each segment moves the difference between two MT systems (the segment explorer of
MT-Telescope, Rei, Stewart, Farinha & Lavie, ACL 2021 demos,
https://aclanthology.org/2021.acl-demo.9/).

For corpus metrics (BLEU, chrF, TER) a segment's contribution is the change in the corpus score
difference when that segment is left out, computed from the sufficient statistics for every
segment at once; for segment-score metrics (the corpus score is the mean) it is the segment's
score difference.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats._core.errors import DegenerateInputWarning, StatsInputError

from .sufficient import SegmentStatistics

__all__ = ["SegmentContributions", "segment_contributions"]


@dataclass(frozen=True, kw_only=True)
class SegmentContributions:
    """Each segment's contribution to the difference between systems ``x`` and ``y``.

    Attributes
    ----------
    difference : float
        The corpus score difference :math:`D = S_x - S_y` on the metric's scale (for TER,
        lower is better: a negative D favours ``x``).
    contributions : Series
        Indexed by segment id: :math:`D - D_{-i}` for corpus metrics, :math:`x_i - y_i` for
        segment-score metrics (positive = the segment pushes the difference towards ``x``'s
        higher score).
    leave_one_out : Series
        :math:`D_{-i}`, the corpus score difference without segment ``i``.
    x, y : str
        The two systems.
    label, metric : str
        The metric's display name and kind (``'bleu'``, ``'chrf'``, ``'ter'``, ``'mean'``).
    higher_is_better : bool
    """

    difference: float
    contributions: pd.Series = field(repr=False)
    leave_one_out: pd.Series = field(repr=False)
    x: str
    y: str
    label: str
    metric: str
    higher_is_better: bool = True


def segment_contributions(data: SegmentStatistics, x: str, y: str) -> SegmentContributions:
    r"""Each segment's contribution to the corpus score difference of systems ``x`` and ``y``.

    With :math:`s_{ki}` the sufficient statistics of system :math:`k` on segment :math:`i`,
    :math:`T_k = \sum_i s_{ki}` and :math:`f` the metric's corpus score of summed statistics,

    .. math::

        D = f(T_x) - f(T_y), \qquad
        D_{-i} = f(T_x - s_{xi}) - f(T_y - s_{yi}), \qquad
        c_i = D - D_{-i}

    for BLEU, chrF and TER (all segments at once: one array of leave-one-out sums). For a
    segment-score metric (the corpus score is the mean of segment scores :math:`x_i`,
    :math:`y_i`) the contribution is the segment's score difference :math:`c_i = x_i - y_i`
    (then :math:`D - D_{-i} = (c_i - D) / (n - 1)`, an affine function of it).

    Parameters
    ----------
    data : SegmentStatistics
        From :func:`stats.mt.sufficient.extract_statistics` or
        :func:`stats.mt.sufficient.statistics_from_scores`.
    x, y : str
        Two different systems of ``data``.

    Returns
    -------
    SegmentContributions

    Warns
    -----
    DegenerateInputWarning
        One segment only: nothing is left when it is left out (:math:`D_{-i}` and the corpus
        metrics' contributions are NaN).

    Raises
    ------
    StatsInputError
        ``data`` is not SegmentStatistics; an unknown system; ``x == y``.

    References
    ----------
    Rei, Stewart, Farinha & Lavie (2021), MT-Telescope: An interactive platform for contrastive
    evaluation of MT systems, https://aclanthology.org/2021.acl-demo.9/
    """
    if not isinstance(data, SegmentStatistics):
        raise StatsInputError(f"data must be SegmentStatistics; got {type(data).__name__}")
    ix, iy = data.index_of(x), data.index_of(y)
    if ix == iy:
        raise StatsInputError(f"x and y must be two different systems; got {x!r} twice")
    pair = data.stats[[ix, iy]]  # (2, n, d)
    n = pair.shape[1]
    totals = pair.sum(axis=1)  # (2, d)
    full = data.score(totals)
    difference = float(full[0] - full[1])
    if n < 2:
        warnings.warn(
            "one segment only: leaving it out leaves nothing to score; leave-one-out "
            "differences are NaN",
            DegenerateInputWarning,
            stacklevel=2,
        )
        loo = np.full(n, np.nan)
    else:
        scores = data.score(totals[:, None, :] - pair)  # (2, n): every segment left out
        loo = scores[0] - scores[1]
    if data.metric == "mean":
        values = pair[0, :, 0] - pair[1, :, 0]
    else:
        values = difference - loo
    index = pd.Index(list(data.segment_ids) or [str(i + 1) for i in range(n)], name="segment")
    return SegmentContributions(
        difference=difference,
        contributions=pd.Series(values, index=index, name="contribution"),
        leave_one_out=pd.Series(loo, index=index, name="leave_one_out"),
        x=str(x),
        y=str(y),
        label=data.label,
        metric=data.metric,
        higher_is_better=data.higher_is_better,
    )
