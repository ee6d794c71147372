"""Statistical power and sample size: could a test have seen the difference, and how many
segments, items or raters would it take?

- per-item scores of two systems (:mod:`.paired`): paired t, signed-rank, paired bootstrap,
  approximate randomization, by simulation, with the paired t's noncentral-t closed form;
- corpus metrics (BLEU, chrF, TER) from segment statistics (:mod:`.corpus`): paired bootstrap
  and approximate randomization with segments resampled;
- human rankings by domain (:mod:`.human`): signed-rank per domain, Stouffer-combined, with
  the number of items per domain;
- two metrics against humans: the Williams test (:mod:`.williams`) and PERM-BOTH
  (:mod:`.perm_both`, by simulation over items).

Definition (every simulated power): power at n = the share of simulated data sets of n items,
drawn with replacement from the observed items with the difference shifted to the
hypothesised effect, on which the test rejects at alpha (Card et al., EMNLP 2020; Graham,
Haddow & Koehn, EMNLP 2020).
"""

from typing import TYPE_CHECKING

from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the module defining it, imported on first access (:mod:`stats._core.lazy`)
_LAZY = {
    # engine
    "DEFINITION": ".engine",
    "PowerResult": ".engine",
    # corpus
    "CORPUS_TESTS": ".corpus",
    "corpus_power": ".corpus",
    "corpus_sample_size": ".corpus",
    # human
    "domain_power": ".human",
    # paired
    "POWER_TESTS": ".paired",
    "normal_mde": ".paired",
    "paired_power": ".paired",
    "paired_sample_size": ".paired",
    "paired_t_mde": ".paired",
    "paired_t_power": ".paired",
    # perm_both
    "DEFINITION_PERM_BOTH": ".perm_both",
    "perm_both_grid_mde": ".perm_both",
    "perm_both_power": ".perm_both",
    # williams
    "POWER": ".williams",
    "WilliamsPowerResult": ".williams",
    "median_detectable_difference": ".williams",
    "williams_detectable_difference": ".williams",
    "williams_grid_power": ".williams",
    "williams_power": ".williams",
    "williams_power_simulation": ".williams",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # the lazy names, for IDEs and type checkers (tests/test_imports.py)
    from .corpus import CORPUS_TESTS, corpus_power, corpus_sample_size
    from .engine import DEFINITION, PowerResult
    from .human import domain_power
    from .paired import (
        POWER_TESTS,
        normal_mde,
        paired_power,
        paired_sample_size,
        paired_t_mde,
        paired_t_power,
    )
    from .perm_both import DEFINITION_PERM_BOTH, perm_both_grid_mde, perm_both_power
    from .williams import (
        POWER,
        WilliamsPowerResult,
        median_detectable_difference,
        williams_detectable_difference,
        williams_grid_power,
        williams_power,
        williams_power_simulation,
    )
