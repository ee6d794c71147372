"""Statistics for MT evaluation: correlation with humans and the Williams test
(Graham & Baldwin, EMNLP 2014), randomized significance tests (Graham, Mathur & Baldwin,
WMT 2014), and quality-estimation evaluation (Graham, ACL 2015).

UI-free: depends on numpy, scipy, pandas (and sacrebleu for BLEU/chrF/TER statistics).
"""

from ._errors import DegenerateInputWarning, StatsInputError

__all__ = ["DegenerateInputWarning", "StatsInputError"]
