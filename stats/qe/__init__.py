"""Quality estimation: Graham (ACL 2015) (:mod:`.graham`), the WMT20-24 sentence-level tasks
(:mod:`.wmt`) and word-level tags (:mod:`.word`).

Every public name of the modules below is importable from here (``stats.qe.<name>``) and,
unless noted in :mod:`stats`, from the top (``stats.<name>``); names load on first use.
"""

from typing import TYPE_CHECKING

from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the module defining it, imported on first access (:mod:`stats._core.lazy`)
_LAZY = {
    # graham
    "QEScoresResult": ".graham",
    "RescaleResult": ".graham",
    "QEEvaluationResult": ".graham",
    "qe_scores": ".graham",
    "shift_and_rescale": ".graham",
    "rescaling_experiment": ".graham",
    "rescaling_curve": ".graham",
    "qe_williams": ".graham",
    "prediction_correlations": ".graham",
    "post_edit_rate": ".graham",
    "compare_gold_representations": ".graham",
    "evaluate_qe": ".graham",
    # wmt
    "MEASURES": ".wmt",
    "POOLED_NOTE": ".wmt",
    "QELanguagePairResult": ".wmt",
    "QEComparisonResult": ".wmt",
    "bootstrap_correlations": ".wmt",
    "qe_pair_tests": ".wmt",
    "compare_qe_systems": ".wmt",
    "language_pair_data": ".wmt",
    "qe_clusters": ".wmt",
    # word
    "WORD_MEASURES": ".word",
    "word_scores_from_confusion": ".word",
    "align_word_tags": ".word",
    "WordLevelResult": ".word",
    "compare_word_level": ".word",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # the lazy names, for IDEs and type checkers (tests/test_imports.py)
    from .graham import (
        QEEvaluationResult,
        QEScoresResult,
        RescaleResult,
        compare_gold_representations,
        evaluate_qe,
        post_edit_rate,
        prediction_correlations,
        qe_scores,
        qe_williams,
        rescaling_curve,
        rescaling_experiment,
        shift_and_rescale,
    )
    from .wmt import (
        MEASURES,
        POOLED_NOTE,
        QEComparisonResult,
        QELanguagePairResult,
        bootstrap_correlations,
        compare_qe_systems,
        language_pair_data,
        qe_clusters,
        qe_pair_tests,
    )
    from .word import (
        WORD_MEASURES,
        WordLevelResult,
        align_word_tags,
        compare_word_level,
        word_scores_from_confusion,
    )
