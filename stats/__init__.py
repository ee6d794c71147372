"""Statistics for MT evaluation: correlation with humans and the Williams test
(Graham & Baldwin, EMNLP 2014), randomized significance tests (Graham, Mathur & Baldwin,
WMT 2014), quality-estimation evaluation (Graham, ACL 2015), the accuracy of the randomized
tests against a human gold standard, MTME's meta-evaluation and PERM-BOTH, WMT human rankings
and the WMT20-24 QE tasks.

UI-free: depends on numpy, scipy, pandas (and sacrebleu for BLEU/chrF/TER statistics).

What ``import stats`` exports (``stats.__all__``; names load on first use, so the import is
fast):

- every public name of the topic subpackages :mod:`stats.mt`, :mod:`stats.metaeval`,
  :mod:`stats.metaeval.perm_both`, :mod:`stats.pairwise`, :mod:`stats.human`, :mod:`stats.qe`
  and :mod:`stats.power`
  (each also importable from its subpackage, ``stats.qe.compare_qe_systems``); each name
  means one thing;
- every public name of the file-to-result workflows of :mod:`stats.analyses`
  (``stats.metrics_report``, ``stats.load_qe``, ...);
- the errors and budgets: :class:`StatsInputError`, :class:`DegenerateInputWarning`,
  :func:`check_budget`, :func:`limited_budget`.

The readers stay in :mod:`stats.readers` (``stats.readers.read_wmt_scores``). A function named
like its subpackage (``perm_both``) is ``stats.<name>``; ``stats.metaeval.perm_both`` is the
subpackage.
"""

from stats._core.budget import check_budget, limited_budget
from stats._core.errors import DegenerateInputWarning, StatsInputError
from stats._core.lazy import lazy_exports as _lazy_exports

from . import analyses as _analyses
from . import human as _human
from . import metaeval as _metaeval
from . import mt as _mt
from . import pairwise as _pairwise
from . import power as _power
from . import qe as _qe
from .metaeval import perm_both as _perm_both

#: public name -> the submodule defining it, imported on first access (:mod:`stats._core.lazy`),
#: gathered from the subpackages' own tables (one home per name); the first subpackage naming
#: a name keeps it
_LAZY: dict[str, str] = {}
for _package in (_mt, _metaeval, _perm_both, _pairwise, _human, _qe, _power, _analyses):
    _prefix = _package.__name__.removeprefix("stats")
    for _name, _source in _package._LAZY.items():
        _LAZY.setdefault(_name, _prefix + _source)
del _package, _prefix, _name, _source

__all__ = [
    # errors and warnings
    "DegenerateInputWarning",
    "StatsInputError",
    # work and memory budgets
    "check_budget",
    "limited_budget",
    # the statistics and the workflows, by subpackage
    *_LAZY,
]

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)
