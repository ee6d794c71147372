"""Pairwise significance machinery shared by the topics: what a grid of pairwise tests reports
beyond its raw p-values (:mod:`.grids`: the p-values adjusted for the grid's family, the
significance clusters read from them, the sidedness of the test), multiple-comparison
adjustment (:mod:`.multiple`) and significance clusters (:mod:`.clusters`). The grids of
:mod:`stats.metaeval` (Williams, PERM-BOTH), :mod:`stats.mt` (randomized tests),
:mod:`stats.qe`, :mod:`stats.human` and :mod:`stats.power` are read with it.

Every public name of the modules below is importable from here (``stats.pairwise.<name>``) and
from the top (``stats.<name>``); names load on first use.
"""

from typing import TYPE_CHECKING

from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the module defining it, imported on first access (:mod:`stats._core.lazy`)
_LAZY = {
    # clusters
    "separated_clusters": ".clusters",
    "significance_clusters": ".clusters",
    # grids
    "SIDEDNESS": ".grids",
    "SIDEDNESS_NOTES": ".grids",
    "GridSignificance": ".grids",
    "grid_significance": ".grids",
    # multiple
    "CORRECTIONS": ".multiple",
    "adjust_pvalues": ".multiple",
    "adjust_matrix": ".multiple",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # the lazy names, for IDEs and type checkers (tests/test_imports.py)
    from .clusters import separated_clusters, significance_clusters
    from .grids import SIDEDNESS, SIDEDNESS_NOTES, GridSignificance, grid_significance
    from .multiple import CORRECTIONS, adjust_matrix, adjust_pvalues
