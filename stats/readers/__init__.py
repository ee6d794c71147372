"""Readers: files -> tidy :class:`pandas.DataFrame` objects, with :class:`~stats.StatsInputError`
naming the file, line and column for anything wrong.

Each input format lives in its own module and uses the plumbing in :mod:`._common`
(:func:`~._common.load_text`, :func:`~._common.read_table`, :func:`~._common.to_float`), so a
new format slots in as one more module exporting ``read_*`` functions.

Names load on first use (:mod:`stats._core.lazy`): ``import stats.readers.wmt25`` loads
that reader, not every reader.
"""

from typing import TYPE_CHECKING

from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the module defining it, imported on first access
_LAZY = {
    "expand_sources": "._archives",
    "read_stream": "._archives",
    "LINE": "._common",
    "Decoded": "._common",
    "RawTable": "._common",
    "Source": "._common",
    "decoded": "._common",
    "load_bytes": "._common",
    "load_text": "._common",
    "name_list": "._common",
    "read_table": "._common",
    "source_name": "._common",
    "split_lines": "._common",
    "to_float": "._common",
    "HUMAN_LAYOUTS": "._layouts",
    "none_fits": "._layouts",
    "Judgements": ".judgements",
    "read_judgements": ".judgements",
    "QEData": ".qe",
    "read_post_edit": ".qe",
    "read_qe": ".qe",
    "read_qe_gold": ".qe",
    "read_lines": ".segments",
    "read_parallel": ".segments",
    "read_segment_scores": ".segments",
    "system_name": ".segments",
    "HUMAN": ".system_level",
    "LanguagePairScores": ".system_level",
    "SystemScores": ".system_level",
    "read_system_scores": ".system_level",
    "read_wide_system_scores": ".system_level",
    "read_wmt_system_level": ".system_level",
    "RR_GOLD": "._meta_rr",
    "is_human_system": "._meta_table",
    "MetaEvalData": ".meta",
    "MetaEvalTable": ".meta",
    "is_meta_eval_source": ".meta",
    "read_meta_eval": ".meta",
    "WMTScoreTable": ".wmt",
    "read_da_system_scores": ".wmt",
    "read_wmt_scores": ".wmt",
    "is_appraise_export": ".appraise",
    "read_appraise": ".appraise",
    "HumanRatings": ".documents",
    "attach_domains": ".documents",
    "read_documents": ".documents",
    "is_mqm_file": ".mqm",
    "read_mqm": ".mqm",
    "read_mqm_averages": ".mqm_google",
    "read_source_errors": ".mqm_google",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # the lazy names, for IDEs and type checkers (tests/test_imports.py)
    from ._archives import expand_sources, read_stream
    from ._common import (
        LINE,
        Decoded,
        RawTable,
        Source,
        decoded,
        load_bytes,
        load_text,
        name_list,
        read_table,
        source_name,
        split_lines,
        to_float,
    )
    from ._layouts import HUMAN_LAYOUTS, none_fits
    from ._meta_rr import RR_GOLD
    from ._meta_table import is_human_system
    from .appraise import is_appraise_export, read_appraise
    from .documents import HumanRatings, attach_domains, read_documents
    from .judgements import Judgements, read_judgements
    from .meta import MetaEvalData, MetaEvalTable, is_meta_eval_source, read_meta_eval
    from .mqm import is_mqm_file, read_mqm
    from .mqm_google import read_mqm_averages, read_source_errors
    from .qe import QEData, read_post_edit, read_qe, read_qe_gold
    from .segments import read_lines, read_parallel, read_segment_scores, system_name
    from .system_level import (
        HUMAN,
        LanguagePairScores,
        SystemScores,
        read_system_scores,
        read_wide_system_scores,
        read_wmt_system_level,
    )
    from .wmt import WMTScoreTable, read_da_system_scores, read_wmt_scores
