"""Meta-evaluation of metrics against humans: correlations, the Williams test and its power
(Graham & Baldwin, EMNLP 2014), MTME's meta-evaluation statistics, soft pairwise accuracy,
PERM-BOTH (:mod:`stats.metaeval.perm_both`), significance grids and clusters, multiple
comparisons, outlier systems and the WMT23-25 task sets."""
