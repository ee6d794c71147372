"""Readers: files -> tidy :class:`pandas.DataFrame` objects, with :class:`~stats.StatsInputError`
naming the file, line and column for anything wrong.

Each input format lives in its own module and uses the plumbing in :mod:`._common`
(:func:`~._common.load_text`, :func:`~._common.read_table`, :func:`~._common.to_float`), so a
new format slots in as one more module exporting ``read_*`` functions.
"""

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
from .judgements import Judgements, read_judgements
from .qe import QEData, read_post_edit, read_qe, read_qe_gold
from .segments import (
    read_lines,
    read_parallel,
    read_segment_scores,
    system_name,
)
from .system_level import (
    HUMAN,
    LanguagePairScores,
    SystemScores,
    read_system_scores,
    read_wide_system_scores,
    read_wmt_system_level,
)

__all__ = [
    # plumbing
    "LINE",
    "Decoded",
    "RawTable",
    "Source",
    "decoded",
    "expand_sources",
    "load_bytes",
    "load_text",
    "name_list",
    "read_stream",
    "read_table",
    "source_name",
    "split_lines",
    "to_float",
    # what a file that fits no layout is said to look like
    "HUMAN_LAYOUTS",
    "none_fits",
    # quality estimation
    "QEData",
    "read_post_edit",
    "read_qe",
    "read_qe_gold",
    # human judgements
    "Judgements",
    "read_judgements",
    # system outputs and segment scores
    "read_lines",
    "read_parallel",
    "read_segment_scores",
    "system_name",
    # system-level scores
    "HUMAN",
    "LanguagePairScores",
    "SystemScores",
    "read_system_scores",
    "read_wide_system_scores",
    "read_wmt_system_level",
]

# ---- Segment-level meta-evaluation data (MTME layout, long, wide) ----
from ._meta_rr import RR_GOLD  # noqa: E402
from ._meta_table import is_human_system  # noqa: E402
from .meta import MetaEvalData, MetaEvalTable, is_meta_eval_source, read_meta_eval  # noqa: E402

__all__ += ["RR_GOLD", "MetaEvalData", "MetaEvalTable", "is_human_system", "is_meta_eval_source",
            "read_meta_eval"]  # fmt: skip

# ---- The WMT metrics task's own files (REFSET scores at every level, DA human scores) ----
from .wmt import WMTScoreTable, read_da_system_scores, read_wmt_scores  # noqa: E402

__all__ += ["WMTScoreTable", "read_da_system_scores", "read_wmt_scores"]

# ---- WMT22-25 human evaluations (Appraise ESA/DA+SQM exports, MQM error spans, documents) ----
from .appraise import is_appraise_export, read_appraise  # noqa: E402
from .documents import HumanRatings, attach_domains, read_documents  # noqa: E402
from .mqm import is_mqm_file, read_mqm  # noqa: E402
from .mqm_google import read_mqm_averages, read_source_errors  # noqa: E402

__all__ += ["HumanRatings", "attach_domains", "is_appraise_export", "is_mqm_file",
            "read_appraise", "read_documents", "read_mqm", "read_mqm_averages",
            "read_source_errors"]  # fmt: skip
