"""What every test's ``*Result`` shares with scipy.stats' results: it unpacks as
``(statistic, pvalue)``::

    statistic, pvalue = stats.williams_test(r_human_a=0.95, r_human_b=0.85, r_a_b=0.9, n=20)

The other fields stay attributes (``result.ci_low``, ``result.n``, ...), as in scipy.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["StatisticPvalue"]


class StatisticPvalue:
    """Mixin of the frozen ``*Result`` dataclasses whose first two fields are ``statistic``
    and ``pvalue``: iterating gives those two, so ``s, p = result`` works as with scipy."""

    __slots__ = ()
    statistic: Any
    pvalue: Any

    def __iter__(self) -> Iterator[Any]:
        yield self.statistic
        yield self.pvalue
