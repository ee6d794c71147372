"""Vectorised BLEU and chrF sufficient statistics (n-gram counting and clipping with arrays).

The strings are pre-processed one by one with sacrebleu's own objects (its tokenizer, its
lowercasing, chrF's punctuation splitting), which is the only per-segment Python work; BLEU's
``13a`` (default) and ``none`` tokenizers are called once per distinct word instead, which
gives the same tokens (see :func:`_word_token_ids`), and chrF's whitespace removal is done on
the code points of all texts at once, which gives the same characters (see
:func:`_char_ids`). Every token (word or character) of the whole corpus -- all reference streams and
all systems -- is then mapped to an integer id, and n-grams get collision-free integer ids
order by order: the id of the n-gram starting at position :math:`i` is the rank of the pair
(id of the (n-1)-gram at :math:`i`, token id at :math:`i+n-1`) among all such pairs, so two
n-grams share an id exactly when their token sequences are equal. Counting is then
``np.unique`` over ``sequence * n_ids + ngram_id`` keys and clipping a ``searchsorted`` of the
hypothesis keys in the (sorted) reference keys. The references are processed once for all
systems.

Where the tokens of an n-gram of the highest order pack into one int64 (a few hundred distinct
characters for chrF's 6 orders, any word vocabulary for chrF++'s 2 word orders or BLEU's 4)
and, for BLEU, with one reference, the matches of all orders come instead from one compiled
pass (:mod:`stats.mt._ngrams_numba`: each sequence's packed keys sorted once, one merge of a
hypothesis and its reference for all orders, in threads), which gives the same counts with
a fraction of the work.

The statistics are those of sacrebleu's ``_extract_corpus_statistics``:

- BLEU, segment :math:`s`: :math:`(|h_s|, r_s, m_{s,1..N}, t_{s,1..N})` with clipped matches
  :math:`m_{s,n} = \\sum_g \\min(c_h(g), \\max_k c_{r_k}(g))` over the hypothesis n-grams
  :math:`g`, totals :math:`t_{s,n} = \\max(|h_s| - n + 1, 0)` and :math:`r_s` the reference
  length closest to :math:`|h_s|` (ties: the shorter);
- chrF, each order of character then word n-grams: (hypothesis count, reference count, matches)
  against each reference; with several references the reference with the best sentence
  chrF (the first on ties) is kept, and the hypothesis count is 0 for an order in which the
  reference has no n-gram, as sacrebleu does.

References: Papineni et al. (2002), https://aclanthology.org/P02-1040/ ; Popović (2015),
https://aclanthology.org/W15-3049/ ; Post (2018), https://aclanthology.org/W18-6319/ .
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

__all__ = ["bleu_statistics", "chrf_statistics"]


def _factorize(values) -> tuple[np.ndarray, int]:
    """Integer codes (0..k-1, equal values -> equal codes) and the number of distinct values."""
    import pandas as pd

    codes, uniques = pd.factorize(values, sort=False)
    return codes.astype(np.int64, copy=False), len(uniques)


def _flat_tokens(sequences: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
    """Token ids of all sequences concatenated, and the length of each sequence."""
    lengths = np.fromiter((len(s) for s in sequences), dtype=np.int64, count=len(sequences))
    flat = np.empty(int(lengths.sum()), dtype=object)
    flat[:] = [tok for seq in sequences for tok in seq]
    if flat.size == 0:
        return np.zeros(0, dtype=np.int64), lengths
    codes, _ = _factorize(flat)
    return codes, lengths


#: texts encoded at a time by :func:`_code_points`, and mapped to ids at a time by
#: :func:`_char_ids` (about 0.2 MB of UTF-32 for paragraphs; temporaries the allocator reuses)
_ENCODE_CHUNK = 64


def _code_points(texts: Sequence[str], total: int) -> np.ndarray:
    """The code points of the concatenated ``texts`` (``total`` characters), uint32.

    Encoded a few texts at a time into one array: each chunk's bytes are freed before the
    next is encoded, so the allocator hands the same memory back, where one string of the
    whole corpus and its encoding would be fresh pages (a page fault per 4 KB)."""
    codes = np.empty(total, dtype=np.uint32)
    at = 0
    for i in range(0, len(texts), _ENCODE_CHUNK):
        raw = "".join(texts[i : i + _ENCODE_CHUNK]).encode("utf-32-le", "surrogatepass")
        part = np.frombuffer(raw, dtype=np.uint32)
        codes[at : at + len(part)] = part
        at += len(part)
    return codes


def _char_ids(texts: Sequence[str], whitespace: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """chrF's characters of every text as dense ids (int32, ``0..k-1`` in code point order),
    each text's number of characters, and ``k``.

    The characters are those sacrebleu's ``extract_all_char_ngrams`` takes: the text as it is
    with ``whitespace``, else ``"".join(text.split())``, i.e. the text without the characters
    ``str.split()`` splits at (those ``str.isspace`` is true of, checked on each distinct code
    point of the corpus). The ids are written over the code points, in place, the texts of a
    chunk at a time (whitespace dropped, each text's kept count from a running count over its
    chunk): one array of the corpus's characters in all."""
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    codes = _code_points(texts, int(lengths.sum()))
    if codes.size == 0:
        return np.zeros(0, dtype=np.int32), lengths, 1
    present = np.zeros(int(codes.max()) + 1, dtype=bool)  # (bincount would copy to int64)
    present[codes] = True
    distinct = np.flatnonzero(present)
    n_present = len(distinct)
    if not whitespace:
        space = np.fromiter(
            (chr(c).isspace() for c in distinct.tolist()), dtype=bool, count=len(distinct)
        )
        distinct = distinct[~space]
    lut = np.full(len(present), -1, dtype=np.int32)
    lut[distinct] = np.arange(len(distinct), dtype=np.int32)
    ids = codes.view(np.int32)
    ends = np.cumsum(lengths)
    kept = lengths if len(distinct) == n_present else np.empty_like(lengths)
    at = 0  # ids written so far: never past the chunk being read
    for i in range(0, len(texts), _ENCODE_CHUNK):
        j = min(i + _ENCODE_CHUNK, len(texts))
        a, b = int(ends[i] - lengths[i]), int(ends[j - 1])
        part = lut[codes[a:b]]
        if kept is not lengths:  # whitespace to drop
            keep = part >= 0
            running = np.zeros(b - a + 1, dtype=np.int64)
            np.cumsum(keep, out=running[1:])
            local = ends[i:j] - a
            kept[i:j] = running[local] - running[local - lengths[i:j]]
            part = part[keep]
        ids[at : at + len(part)] = part
        at += len(part)
    return ids[:at], kept, max(len(distinct), 1)


class _NgramIndex:
    """Collision-free integer ids of the n-grams of orders 1..max_order of many sequences."""

    def __init__(self, tokens: np.ndarray, lengths: np.ndarray):
        self.tokens = tokens
        self.lengths = lengths
        n_seq = len(lengths)
        self.seq_of = np.repeat(np.arange(n_seq, dtype=np.int64), lengths)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
        self.pos = np.arange(len(tokens), dtype=np.int64) - np.repeat(starts, lengths)
        self.vocab = int(tokens.max()) + 1 if len(tokens) else 1
        self._ids = tokens  # ids of the (n-1)-grams starting at each position
        self._order = 1

    def next_order(self) -> tuple[np.ndarray, np.ndarray, int]:
        """``(sequence, ngram_id, n_ids)`` of every n-gram of the next order (1, 2, ...)."""
        n = self._order
        if n > 1:
            m = max(len(self.tokens) - n + 1, 0)
            pairs = self._ids[:m] * self.vocab + self.tokens[n - 1 : n - 1 + m]
            self._ids, n_ids = _factorize(pairs) if m else (pairs, 0)
        else:
            n_ids = self.vocab
        self._order += 1
        m = len(self._ids)
        valid = self.pos[:m] + n <= self.lengths[self.seq_of[:m]]
        return self.seq_of[:m][valid], self._ids[valid], max(n_ids, 1)


def _counts(seq: np.ndarray, ids: np.ndarray, n_ids: int):
    """Sorted unique ``seq * n_ids + id`` keys and their counts."""
    return np.unique(seq * np.int64(n_ids) + ids, return_counts=True)


def _clipped_matches(
    hyp_keys, hyp_counts, n_ids, ref_keys, ref_counts, ref_row_of_hyp_row, n_rows
) -> np.ndarray:
    """Per hypothesis sequence: sum over its n-grams of min(hyp count, ref count)."""
    rows = hyp_keys // n_ids
    if len(ref_keys) == 0:
        return np.zeros(n_rows, dtype=np.int64)
    lookup = ref_row_of_hyp_row[rows] * np.int64(n_ids) + hyp_keys % n_ids
    where = np.minimum(np.searchsorted(ref_keys, lookup), len(ref_keys) - 1)
    matched = np.where(ref_keys[where] == lookup, np.minimum(hyp_counts, ref_counts[where]), 0)
    return np.bincount(rows, weights=matched, minlength=n_rows).round().astype(np.int64)


def _max_over_streams(keys, counts, n_ids, n_segments):
    """Reference counts keyed by (segment, n-gram): the maximum over the reference streams."""
    seg_keys = (keys // n_ids) % n_segments * np.int64(n_ids) + keys % n_ids
    order = np.argsort(seg_keys, kind="stable")
    seg_keys = seg_keys[order]
    if len(seg_keys) == 0:
        return seg_keys, counts[order]
    first = np.flatnonzero(np.concatenate([[True], seg_keys[1:] != seg_keys[:-1]]))
    return seg_keys[first], np.maximum.reduceat(counts[order], first)


def warn_tokenized(scorer, hypotheses: dict[str, list[str]]) -> None:
    """sacrebleu's warning for hypotheses that look tokenized (100+ lines ending in ' .')."""
    if getattr(scorer, "_force", True):
        return
    log = logging.getLogger("sacrebleu")
    for lines in hypotheses.values():
        if sum(h.endswith(" .") for h in lines) >= 100:
            log.warning("That's 100 lines that end in a tokenized period ('.')")
            log.warning(
                "It looks like you forgot to detokenize your test data, which may hurt your score."
            )
            log.warning(
                "If you insist your data is detokenized, or don't care, you can suppress this "
                "message with the `force` parameter."
            )


#: below this many distinct strings, tokenizing in worker processes costs more than it saves
MIN_PARALLEL_TOKENIZE = 4000


def _tokenize_chunk(options: dict, texts: list[str]) -> list[str]:
    """Worker: sacrebleu BLEU pre-processing (lowercasing, tokenizer) of some strings."""
    from sacrebleu.metrics import BLEU

    prep = BLEU(**options)._preprocess_segment
    return [prep(t) for t in texts]


def _tokenized(scorer, options: dict, texts: list[str], jobs: int) -> list[list[str]]:
    """Tokens of every string by ``scorer``'s pre-processing; each distinct string once,
    over ``jobs`` worker processes when there are many."""
    distinct = list(dict.fromkeys(texts))
    if jobs > 1 and len(distinct) >= MIN_PARALLEL_TOKENIZE:
        from stats._core.workers import run_chunks  # multiprocessing: only where it runs

        bounds = np.linspace(0, len(distinct), 4 * jobs + 1).astype(int)
        tasks = [(options, distinct[a:b]) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
        done = run_chunks(_tokenize_chunk, tasks, jobs)
        processed = [line for part in done for line in part]
    else:
        prep = scorer._preprocess_segment
        processed = [prep(t) for t in distinct]
    split = dict(zip(distinct, (p.split() for p in processed), strict=True))
    return [split[t] for t in texts]


def _by_words(scorer, texts: list[str]) -> bool:
    """Whether ``scorer``'s pre-processing may be applied word by word (see
    :func:`_word_token_ids`): its tokenizer is sacrebleu's ``13a`` or ``none`` and no string
    holds a line break (13a joins the words around ``-\\n``)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer

    return type(scorer.tokenizer) in (Tokenizer13a, NoneTokenizer) and not any(
        "\n" in t for t in texts
    )


def _split_words(texts: list[str]) -> tuple[np.ndarray, list[str], np.ndarray]:
    """``str.split()`` of every text, factorized: the id of each word occurrence (ids in order
    of first appearance), the distinct words, and each text's number of words.

    pyarrow splits and hashes the words without a Python object per occurrence. Its
    ``utf8_split_whitespace`` splits at exactly the characters ``str.split()`` splits at
    (every Unicode code point checked), but leaves empty strings at the ends of a text and
    for an empty text, which are dropped (``str.split()`` gives none). Texts pyarrow cannot
    hold (lone surrogates) are split by Python instead.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        array = pa.array(texts, type=pa.large_string())
    except (UnicodeError, pa.ArrowException):
        import itertools

        import pandas as pd

        splits = list(map(str.split, texts))
        counts = np.fromiter(map(len, splits), dtype=np.int64, count=len(splits))
        words = np.empty(int(counts.sum()), dtype=object)
        words[:] = list(itertools.chain.from_iterable(splits))
        ids, uniques = pd.factorize(words, sort=False)
        return ids.astype(np.int64, copy=False), list(uniques), counts
    split = pc.utf8_split_whitespace(array)
    flat = pc.list_flatten(split)
    keep = pc.not_equal(pc.binary_length(flat), 0)
    parent = pc.list_parent_indices(split).filter(keep).to_numpy()
    encoded = pc.dictionary_encode(flat.filter(keep))
    ids = encoded.indices.to_numpy(zero_copy_only=False)  # int32
    counts = np.bincount(parent, minlength=len(texts)).astype(np.int64)
    return ids, encoded.dictionary.to_pylist(), counts


#: candidates for the separator of :func:`_tokenize_words` (private-use code points, which no
#: sacrebleu tokenizer rule touches); the first absent from the words is used
_SEPARATORS = tuple(chr(c) for c in range(0xE000, 0xE040))


def _tokenize_words(tokenizer, words: list[str]) -> tuple[np.ndarray, list[str]]:
    """The tokens of each of ``words`` (whitespace-free strings) by sacrebleu's ``13a`` or
    ``none`` tokenizer: how many each has, and all of them in order.

    One call on the words joined by a separator word (a private-use character absent from
    them) instead of one call per word: by the argument of :func:`_word_token_ids`, the tokens
    of a line are the concatenated tokens of its words, and the separator (no ASCII
    punctuation, digit, ``.`` or ``,``, entity or ``<skipped>``) is its own token, so the
    tokens between two separators are exactly one word's tokens. Where every candidate
    separator occurs in the words, one call per word."""
    import itertools

    text = "".join(words)
    sep = next((c for c in _SEPARATORS if c not in text), None)
    if sep is None:  # pragma: no cover - 64 private-use characters all in the text
        pieces = [tokenizer(w).split() for w in words]
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        return lengths, list(itertools.chain.from_iterable(pieces))
    tokens = tokenizer(f" {sep} ".join(words)).split()
    is_sep = np.fromiter((t == sep for t in tokens), dtype=bool, count=len(tokens))
    at = np.flatnonzero(is_sep)
    if len(at) != len(words) - 1:  # pragma: no cover - the argument above rules it out
        raise AssertionError("word separator lost in tokenization")
    bounds = np.concatenate([[-1], at, [len(tokens)]])
    lengths = np.diff(bounds) - 1
    return lengths.astype(np.int64), [t for t in tokens if t != sep]


def _word_token_ids(scorer, texts: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Token ids, each text's number of tokens and the token strings by id, as
    :func:`_flat_tokens` of ``scorer``'s pre-processing of ``texts``, with the tokenizer called
    once per distinct whitespace-separated word.

    Exact for sacrebleu's ``13a`` tokenizer (and ``none``): its entity and ``<skipped>``
    replacements involve no whitespace, its regular expressions look at two adjacent
    characters, none of which may be whitespace except as the character before ``.``/``,``
    (in ``([^0-9])([.,])``) or after them (in ``([.,])([^0-9])``) -- roles that the spaces
    it pads a word with play in the same way -- and no substitution turns whitespace into
    anything but whitespace; so the tokens of a line are the concatenated tokens of its
    words. Lowercasing (context-dependent for a final sigma) is applied to whole lines first,
    as sacrebleu does.
    """

    import pandas as pd

    if scorer.lowercase:
        texts = [t.lower() for t in texts]
    word_ids, distinct, words_per_line = _split_words(texts)
    if word_ids.size == 0:
        return (
            np.zeros(0, dtype=np.int64),
            np.zeros(len(texts), dtype=np.int64),
            np.zeros(0, dtype=object),
        )
    piece_len, pieces = _tokenize_words(scorer.tokenizer, distinct)  # each distinct word once
    flat = np.empty(int(piece_len.sum()), dtype=object)
    flat[:] = pieces
    piece_tokens, vocabulary = pd.factorize(flat, sort=False)  # tokens of each distinct word
    vocabulary = np.asarray(vocabulary, dtype=object)
    piece_tokens = piece_tokens.astype(_id_dtype(len(vocabulary)), copy=False)
    if (piece_len == 1).all():  # every word one token: the words' ids are the tokens'
        return piece_tokens[word_ids], words_per_line, vocabulary
    piece_start = np.cumsum(piece_len) - piece_len
    # every word occurrence -> its tokens, in order: the index of token p of occurrence k is
    # piece_start[word k] + (p - first token of k), a running sum of steps of 1 that jumps at
    # each occurrence's first token
    occ_len = piece_len[word_ids]
    occ_end = np.cumsum(occ_len)
    total = int(occ_end[-1])
    # tokens per line: the tokens of its words
    cum = np.concatenate([[0], occ_end])
    line_end = np.cumsum(words_per_line)
    lengths = cum[line_end] - cum[line_end - words_per_line]
    if total == 0:
        return np.zeros(0, dtype=piece_tokens.dtype), lengths, vocabulary
    first = piece_start[word_ids]
    used = occ_len > 0
    first, starts = first[used], (occ_end - occ_len)[used]
    index = np.ones(total, dtype=np.int64)
    index[starts[1:]] = first[1:] - (first[:-1] + occ_len[used][:-1] - 1)
    index[0] = first[0]
    np.cumsum(index, out=index)
    return piece_tokens[index], lengths, vocabulary


def _id_dtype(n_ids: int):
    """int32 for ids below 2**31 (half the memory of int64), else int64."""
    return np.int32 if n_ids < 2**31 else np.int64


def bleu_statistics(
    scorer,
    references: list[list[str]],
    hypotheses: dict[str, list[str]],
    *,
    options: dict | None = None,
    jobs: int = 1,
    warn: bool = True,
):
    """BLEU statistics, int64 array (systems, segments, 2 + 2 * max_ngram_order), of the
    sacrebleu ``BLEU`` object ``scorer`` (its tokenizer, lowercasing and n-gram order), built
    from ``options`` (workers rebuild it to tokenize in ``jobs`` processes; the compiled
    n-gram matching runs in ``jobs`` threads)."""
    order = int(scorer.max_ngram_order)
    n_refs, n_seg = len(references), len(references[0])
    n_sys = len(hypotheses)
    if warn:
        warn_tokenized(scorer, hypotheses)
    texts = [line for stream in references for line in stream]
    texts += [line for lines in hypotheses.values() for line in lines]
    if options is None:
        jobs = 1
    if _by_words(scorer, texts):
        tokens, lengths, _ = _word_token_ids(scorer, texts)
    else:
        tokens, lengths = _flat_tokens(_tokenized(scorer, dict(options or {}), texts, jobs))
    n_ref_rows = n_refs * n_seg
    ref_len = lengths[:n_ref_rows].reshape(n_refs, n_seg)
    hyp_len = lengths[n_ref_rows:].reshape(n_sys, n_seg)
    # closest reference length; on a tie the shorter one (sacrebleu's _get_closest_ref_len)
    diff = np.abs(hyp_len[:, None, :] - ref_len[None, :, :])  # (sys, ref, seg)
    key = diff * (int(ref_len.max()) + 1) + ref_len[None, :, :]
    closest = ref_len[key.argmin(axis=1), np.arange(n_seg)]
    out = np.zeros((n_sys, n_seg, 2 + 2 * order), dtype=np.int64)
    out[..., 0] = hyp_len
    out[..., 1] = closest
    n_hyp_rows = n_sys * n_seg
    for n in range(1, order + 1):
        out[..., 1 + order + n] = np.maximum(hyp_len - n + 1, 0)
    from stats.mt import _ngrams_numba

    tokens, n_ids = _dense(tokens)
    if n_refs == 1 and _ngrams_numba.fits(n_ids, order):  # all orders in one compiled pass
        hyp_rows = n_ref_rows + np.arange(n_hyp_rows, dtype=np.int64)
        ref_rows = np.tile(np.arange(n_seg, dtype=np.int64), n_sys)
        matches = _ngrams_numba.order_matches(
            tokens, lengths, n_ids, order, hyp_rows, ref_rows, threads=jobs
        )
        out[..., 2 : 2 + order] = matches.T.reshape(n_sys, n_seg, order)
        return out
    index = _NgramIndex(tokens.astype(np.int64, copy=False), lengths)
    ref_row_of_hyp_row = np.tile(np.arange(n_seg, dtype=np.int64), n_sys)
    for n in range(1, order + 1):  # loop over n-gram orders only
        seq, ids, n_ids = index.next_order()
        is_ref = seq < n_ref_rows
        keys, counts = _counts(seq[is_ref], ids[is_ref], n_ids)
        ref_keys, ref_counts = _max_over_streams(keys, counts, n_ids, n_seg)
        hyp_keys, hyp_counts = _counts(seq[~is_ref] - n_ref_rows, ids[~is_ref], n_ids)
        out[..., 1 + n] = _clipped_matches(
            hyp_keys, hyp_counts, n_ids, ref_keys, ref_counts, ref_row_of_hyp_row, n_hyp_rows
        ).reshape(n_sys, n_seg)
    return out


def _dense(tokens: np.ndarray) -> tuple[np.ndarray, int]:
    """Non-negative integer tokens renumbered 0..k-1 (a lookup table, no sort), and k."""
    if tokens.size == 0:
        return tokens, 1
    present = np.zeros(int(tokens.max()) + 1, dtype=bool)
    present[tokens] = True
    if present.all():  # already 0..k-1
        return tokens, len(present)
    rank = np.cumsum(present, dtype=_id_dtype(len(present))) - 1
    return rank[tokens], int(rank[-1]) + 1


def _order_statistics(tokens, lengths, n_ids, n_ref_rows, n_refs, n_seg, n_sys, max_order, jobs=1):
    """chrF (hyp, ref, match) counts against each reference: (orders, sys, seg, refs, 3);
    ``tokens`` are dense ids ``0..n_ids-1``."""
    from stats.mt import _ngrams_numba

    n_hyp_rows = n_sys * n_seg
    out = np.zeros((max_order, n_sys, n_seg, n_refs, 3), dtype=np.int64)
    ref_len = lengths[:n_ref_rows].reshape(n_refs, n_seg)
    hyp_len = lengths[n_ref_rows:].reshape(n_sys, n_seg)
    seg_of_row = np.tile(np.arange(n_seg, dtype=np.int64), n_sys)
    if _ngrams_numba.fits(n_ids, max_order):  # all orders in one compiled pass
        hyp_rows = np.tile(n_ref_rows + np.arange(n_hyp_rows, dtype=np.int64), n_refs)
        ref_rows = (np.arange(n_refs, dtype=np.int64)[:, None] * n_seg + seg_of_row).ravel()
        matches = _ngrams_numba.order_matches(
            tokens, lengths, n_ids, max_order, hyp_rows, ref_rows, threads=jobs
        )
        out[..., 2] = np.moveaxis(matches.reshape(max_order, n_refs, n_sys, n_seg), 1, 3)
    else:
        index = _NgramIndex(tokens.astype(np.int64), lengths)
        for n in range(1, max_order + 1):  # loop over n-gram orders only
            seq, ids, n_ids = index.next_order()
            is_ref = seq < n_ref_rows
            ref_keys, ref_counts = _counts(seq[is_ref], ids[is_ref], n_ids)
            hyp_keys, hyp_counts = _counts(seq[~is_ref] - n_ref_rows, ids[~is_ref], n_ids)
            for k in range(n_refs):  # loop over reference streams (usually 1)
                out[n - 1, :, :, k, 2] = _clipped_matches(
                    hyp_keys,
                    hyp_counts,
                    n_ids,
                    ref_keys,
                    ref_counts,
                    k * n_seg + seg_of_row,
                    n_hyp_rows,
                ).reshape(n_sys, n_seg)
    for n in range(1, max_order + 1):
        ref_total = np.maximum(ref_len - n + 1, 0)  # (refs, seg)
        hyp_total = np.maximum(hyp_len - n + 1, 0)  # (sys, seg)
        out[n - 1, ..., 1] = ref_total.T[None]
        # sacrebleu counts no hypothesis n-gram of an order the reference has none of
        out[n - 1, ..., 0] = np.where(ref_total.T[None] > 0, hyp_total[..., None], 0)
    return out


def chrf_statistics(
    scorer,
    references: list[list[str]],
    hypotheses: dict[str, list[str]],
    f_score,
    *,
    jobs: int = 1,
) -> np.ndarray:
    """chrF statistics, int64 array (systems, segments, 3 * (char_order + word_order)), of the
    sacrebleu ``CHRF`` object ``scorer``; ``f_score`` is the vectorised sentence chrF used to
    choose among several references; ``jobs`` threads run the compiled n-gram matching."""
    n_refs, n_seg = len(references), len(references[0])
    n_sys = len(hypotheses)
    n_ref_rows = n_refs * n_seg
    prep = scorer._preprocess_segment
    texts = [prep(line) for stream in references for line in stream]
    texts += [prep(line) for lines in hypotheses.values() for line in lines]
    chars, char_len, n_chars = _char_ids(texts, bool(scorer.whitespace))
    counts = (n_ref_rows, n_refs, n_seg, n_sys)
    parts = [_order_statistics(chars, char_len, n_chars, *counts, int(scorer.char_order), jobs)]
    if scorer.word_order > 0:
        words, word_len = _flat_tokens([scorer._remove_punctuation(t) for t in texts])
        words, n_words = _dense(words)
        parts.append(
            _order_statistics(words, word_len, n_words, *counts, int(scorer.word_order), jobs)
        )
    per_ref = np.concatenate(parts)  # (orders, sys, seg, refs, 3)
    per_ref = np.moveaxis(per_ref, 0, 3).reshape(n_sys, n_seg, n_refs, -1)
    if n_refs == 1:
        return per_ref[:, :, 0]
    best = np.argmax(f_score(per_ref), axis=-1)  # first best, as sacrebleu's strict '>'
    return np.take_along_axis(per_ref, best[..., None, None], axis=2)[:, :, 0]
