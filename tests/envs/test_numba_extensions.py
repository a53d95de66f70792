"""The batched engines' hand-written numba extensions: `numba_borrow.by_reference` (a named tuple
passed on as a pointer), `numba_copy.copy_run` (a memcpy between arrays), `numba_copy.zero_row`
(a memset of a row) and `numba_prefetch.prefetch_rows` (a hint to the cache)."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from card_envs.batch.numba_borrow import by_reference
from card_envs.batch.numba_copy import copy_run, zero_row
from card_envs.batch.numba_prefetch import prefetch_rows

Pair = namedtuple("Pair", "counts weights size")


@njit
def _bump(p, i):
    """A helper that calls another with the reference (the case numba copies every field for)."""
    p.counts[i] += 1
    return _total(p)


@njit
def _total(p):
    return p.counts.sum() + p.weights[0] + p.size


@njit
def _through_reference(pair, rows):
    p = by_reference(pair)
    last = 0.0
    for i in rows:
        last = _bump(p, i)
    return last


@njit
def _read_one(pair, name_index):
    p = by_reference(pair)
    return p.size if name_index == 0 else p.counts.shape[0]


def test_a_reference_reads_and_writes_the_tuples_arrays_through_helpers():
    pair = Pair(np.zeros(5, np.int64), np.full(3, 0.5), 7)
    assert _through_reference(pair, np.array([0, 3, 3], np.int64)) == 3 + 0.5 + 7
    assert pair.counts.tolist() == [1, 0, 0, 2, 0]  # the caller's arrays, written in place
    assert _read_one(pair, 0) == 7 and _read_one(pair, 1) == 5


def test_a_reference_refuses_an_unknown_field_and_a_plain_tuple():
    @njit
    def unknown(pair):
        return by_reference(pair).nothing

    @njit
    def plain(t):
        return by_reference(t)

    with pytest.raises(TypingError, match="nothing"):
        unknown(Pair(np.zeros(1), np.zeros(1), 1))
    with pytest.raises(TypingError):
        plain((np.zeros(1), 1))


@njit
def _copy(dst, dst_at, src, src_at, n):
    copy_run(dst, dst_at, src, src_at, n)


def test_copy_run_copies_exactly_the_run():
    src = np.arange(20, dtype=np.float32)
    dst = np.full(12, -1, np.float32)
    _copy(dst, 3, src, 5, 6)
    assert dst.tolist() == [-1, -1, -1, 5, 6, 7, 8, 9, 10, -1, -1, -1]
    _copy(dst, 0, src, 0, 0)  # an empty run writes nothing
    assert dst[0] == -1
    rows = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = np.zeros((3, 4), np.float32)

    @njit
    def by_rows(out, rows):
        for b in range(rows.shape[0]):
            copy_run(out[b], 1, rows[b], 0, 3)

    by_rows(out, rows)
    assert out.tolist() == [[0, 0, 1, 2], [0, 4, 5, 6], [0, 8, 9, 10]]


def test_copy_run_refuses_other_dtypes_and_strided_arrays():
    with pytest.raises(TypingError):
        _copy(np.zeros(4, np.float32), 0, np.zeros(4, np.float64), 0, 2)
    with pytest.raises(TypingError):
        _copy(np.zeros(4, np.float32), 0, np.zeros(8, np.float32)[::2], 0, 2)


@njit
def _zero_rows(out, rows):
    for b in rows:
        zero_row(out[b])


def test_zero_row_zeroes_exactly_its_row():
    for dtype in (np.float32, np.int8, np.int64):
        out = np.full((3, 5), 7, dtype)
        _zero_rows(out, np.array([1], np.int64))
        assert out.tolist() == [[7] * 5, [0] * 5, [7] * 5]


def test_zero_row_refuses_strided_and_2d_arrays():
    with pytest.raises(TypingError):
        _zero_rows(np.zeros((3, 8), np.float32)[:, ::2], np.array([0], np.int64))
    with pytest.raises(TypingError):
        njit(lambda a: zero_row(a))(np.zeros((2, 2), np.float32))


@njit
def _prefetch_then_sum(pair, lo, hi):
    prefetch_rows(pair, lo, hi)
    prefetch_rows(by_reference(pair), lo, hi)
    prefetch_rows((pair.counts, 3, pair.weights), lo, hi)  # a plain tuple; its integer is skipped
    return pair.counts.sum() + pair.weights.sum()


def test_prefetch_rows_emits_prefetches_and_changes_nothing():
    counts, weights = np.arange(40, dtype=np.int64).reshape(10, 4), np.ones((10, 3, 2))
    pair = Pair(counts, weights, 7)
    before = counts.copy(), weights.copy()
    for lo, hi in ((0, 10), (4, 4), (8, 10)):  # every row, no row, the last rows
        assert _prefetch_then_sum(pair, lo, hi) == counts.sum() + weights.sum()
    assert np.array_equal(counts, before[0]) and np.array_equal(weights, before[1])
    llvm = _prefetch_then_sum.inspect_llvm(_prefetch_then_sum.signatures[0])
    assert "call void @llvm.prefetch" in llvm  # a hint numba would drop silently is no hint


def test_prefetch_rows_refuses_strided_arrays_and_a_non_tuple():
    with pytest.raises(TypingError):
        _prefetch_then_sum(Pair(np.zeros((4, 8))[:, ::2], np.zeros((4, 2)), 1), 0, 2)
    with pytest.raises(TypingError):
        njit(lambda a: prefetch_rows(a, 0, 1))(np.zeros((2, 2)))
