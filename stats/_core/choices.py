"""The fixed vocabularies of the package's options (test names, correlations, corrections, ...).

They live in this dependency-free module so that the command line can offer them as choices
without importing numpy, scipy or pandas (``python -m stats SUBCOMMAND --help`` stays fast).
The modules that implement them re-export them under the same names.
"""

#: randomized tests (:mod:`stats.mt.randomized`)
RANDOMIZED_TESTS = ("paired-bootstrap", "bootstrap", "approximate-randomization")

#: significance levels of the accuracy tables (:mod:`stats.human.accuracy`)
ALPHAS = (0.05, 0.01, 0.001)

#: criteria a judgement may carry, in the order the gold standard uses them
#: (:mod:`stats.readers.judgements`)
CRITERIA = ("adequacy", "fluency")

#: metrics computed from text with sacrebleu's statistics (:mod:`stats.analyses.mt_systems`)
TEXT_METRICS = ("bleu", "chrf", "ter")

#: multiple-comparison corrections (:mod:`stats.pairwise.multiple`)
CORRECTIONS = ("none", "holm", "bh")

#: meta-evaluation correlations, groupings and levels (:mod:`stats.metaeval.meta_eval`)
CORRELATIONS = (
    "pearson",
    "spearman",
    "kendall",
    "kendall-c",
    "kendall-like",
    "acc23",
    "pairwise-accuracy",
)
GROUPINGS = ("none", "item", "system")
LEVELS = ("seg", "sys")
KENDALL_LIKE_THRESHOLD = 25.0
#: the correlation coefficients among them (the rest count pairs: one pair is an answer)
CORRELATION_COEFFICIENTS = ("pearson", "spearman", "kendall", "kendall-c")
#: fewest items (cells with a gold score) a correlation coefficient is defined over; MTME
#: computes one over 2 (always +-1), ``min_group_size=2`` follows it
MIN_GROUP_SIZE = 3

#: the system-level soft pairwise accuracy (:mod:`stats.analyses.meta_significance`)
SOFT_PAIRWISE_ACCURACY = "soft-pairwise-accuracy"

#: power at which the Williams power line and ``williams --power`` report the smallest
#: detectable difference (:mod:`stats.power.williams`)
POWER = 0.8

#: tests whose power :mod:`stats.power` simulates on per-item scores (``power --test``)
POWER_TESTS = ("t", "signed-rank", "paired-bootstrap", "approximate-randomization")

#: scores a human ranking is made from: the organisers' z or raw DA (:mod:`stats.human.ranking`)
HUMAN_SCORES = ("z", "raw")
