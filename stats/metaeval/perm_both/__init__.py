"""PERM-BOTH (Deutsch et al., 2021), as MTME runs it: the entry points (:mod:`.core` for two
metrics, :mod:`.pairs` for every pair, :mod:`.pooled` for pooled groups, :mod:`.spa` for soft
pairwise accuracy) and the compiled kernels they share.

Every public name of the modules below is importable from here (``stats.metaeval.perm_both.<name>``) and,
unless noted in :mod:`stats`, from the top (``stats.<name>``); names load on first use.
"""

from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the module defining it, imported on first access (:mod:`stats._core.lazy`)
_LAZY = {
    # core
    "PermBothResult": ".core",
    "perm_both": ".core",
    # pairs
    "perm_both_pairs": ".pairs",
    # pooled
    "perm_both_pooled_accuracy": ".pooled",
    # spa
    "perm_both_soft_pairwise": ".spa",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)
