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
drawn with replacement from the observed items under the test's own null (exactly at effect
0) shifted by the hypothesised effect, on which the test rejects at alpha in the effect's
direction (Card et al., EMNLP 2020; Graham, Haddow & Koehn, EMNLP 2020). Every result also
gives the rejection rate at effect 0 (the test's real size under that null) and, on request,
the sample size reaching the target power with its Monte Carlo error.
"""

from typing import TYPE_CHECKING

from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the module defining it, imported on first access (:mod:`stats._core.lazy`)
_LAZY = {
    # engine
    "DEFINITION": ".engine",
    "PowerResult": ".engine",
    "SampleSizeResult": ".engine",
    # corpus
    "CORPUS_TESTS": ".corpus",
    "corpus_power": ".corpus",
    "corpus_sample_size": ".corpus",
    # human
    "domain_power": ".human",
    "domain_sample_size": ".human",
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
    "perm_both_sample_size": ".perm_both",
    # williams
    "POWER": ".williams",
    "WilliamsPowerResult": ".williams",
    "median_detectable_difference": ".williams",
    "williams_detectable_difference": ".williams",
    "williams_grid_power": ".williams",
    "williams_power": ".williams",
    "williams_power_simulation": ".williams",
    "williams_sample_size": ".williams",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # the lazy names, for IDEs and type checkers (tests/test_imports.py)
    from .corpus import CORPUS_TESTS, corpus_power, corpus_sample_size
    from .engine import DEFINITION, PowerResult, SampleSizeResult
    from .human import domain_power, domain_sample_size
    from .paired import (
        POWER_TESTS,
        normal_mde,
        paired_power,
        paired_sample_size,
        paired_t_mde,
        paired_t_power,
    )
    from .perm_both import (
        DEFINITION_PERM_BOTH,
        perm_both_grid_mde,
        perm_both_power,
        perm_both_sample_size,
    )
    from .williams import (
        POWER,
        WilliamsPowerResult,
        median_detectable_difference,
        williams_detectable_difference,
        williams_grid_power,
        williams_power,
        williams_power_simulation,
        williams_sample_size,
    )
