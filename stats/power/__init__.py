"""Statistical power and sample size: could a test have seen the difference, and how many
segments, items or raters would it take?

- per-item scores of two systems (:mod:`.paired`): paired t, signed-rank, paired bootstrap,
  approximate randomization, by simulation, with the paired t's noncentral-t closed form;
- corpus metrics (BLEU, chrF, TER) from segment statistics (:mod:`.corpus`): paired bootstrap
  and approximate randomization with segments resampled;
- human rankings by domain (:mod:`.human`): signed-rank per domain, Stouffer-combined, with
  the number of items per domain;
- two metrics against humans: the Williams test (:mod:`.williams`).

Definition (every simulated power): power at n = the share of simulated data sets of n items,
drawn with replacement from the observed items with the difference shifted to the
hypothesised effect, on which the test rejects at alpha (Card et al., EMNLP 2020; Graham,
Haddow & Koehn, EMNLP 2020).
"""

from ._engine import DEFINITION, PowerResult
from .corpus import corpus_power, corpus_sample_size
from .human import domain_power
from .paired import (
    PAIRED_TESTS,
    normal_mde,
    paired_power,
    paired_sample_size,
    paired_t_mde,
    paired_t_power,
)
from .williams import (
    WilliamsPowerResult,
    median_detectable_difference,
    williams_detectable_difference,
    williams_grid_power,
    williams_power,
    williams_power_simulation,
)

__all__ = [
    "DEFINITION",
    "PAIRED_TESTS",
    "PowerResult",
    "WilliamsPowerResult",
    "corpus_power",
    "corpus_sample_size",
    "domain_power",
    "median_detectable_difference",
    "normal_mde",
    "paired_power",
    "paired_sample_size",
    "paired_t_mde",
    "paired_t_power",
    "williams_detectable_difference",
    "williams_grid_power",
    "williams_power",
    "williams_power_simulation",
]
