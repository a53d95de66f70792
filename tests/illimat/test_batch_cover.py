"""The batched engine's exact cover (`card_envs.batch.illimat.cover.covers`) against the reference's
`groups.coverable`, and its hand-written hash tables: the memo's answers, its count, and a walk's
positions cleared after each question."""

import numpy as np
import pytest

pytest.importorskip("numba")

from card_envs.batch.illimat import cover  # noqa: E402
from card_envs.games.illimat import groups  # noqa: E402


def _questions(n, seed):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        req, opt = np.zeros(cover.NUM_KINDS, np.int64), np.zeros(cover.NUM_KINDS, np.int64)
        for counts, items in ((req, rng.integers(1, 9)), (opt, rng.integers(0, 7))):
            np.add.at(counts, rng.integers(0, cover.NUM_KINDS, items), 1)
        yield int(rng.integers(1, 40)), req, opt


def test_covers_answers_as_the_reference_fresh_and_from_the_memo():
    memo = cover.new_memo()
    questions = list(_questions(600, seed=5))
    expected = [groups.coverable(t, tuple(map(int, r)), tuple(map(int, o))) for t, r, o in questions]
    assert 0 < sum(expected) < len(expected)  # both answers asked
    for _ in range(2):  # the second pass answers from the memo
        assert [cover.covers(t, r, o, memo) for t, r, o in questions] == expected
    # Some answered before any search (an item above the target; the required items one group; a
    # necessary condition fails), the others searched: the small ones without the memo, the
    # larger ones remembered.
    obvious = [cover._obvious(t, r) for t, r, o in questions]
    assert set(obvious) == {-1, 0, 1}
    plausible = [known < 0 and cover._plausible(t, r, o) for (t, r, o), known in zip(questions, obvious)]
    assert 0 < sum(plausible) < obvious.count(-1)
    searched = [(t, r, o) for (t, r, o), asked in zip(questions, plausible) if asked]
    large = [(t, r, o) for t, r, o in searched if r.sum() + o.sum() > cover.SMALL]
    assert 0 < len(large) < len(searched)
    for t, r, o in large:
        assert memo.table[cover._slot(memo.table, cover._key(t, r, o)), 1] != 0
    occupied = int(np.count_nonzero(memo.table[:, 1]))
    assert occupied == memo.count[0] >= len({(t, tuple(r), tuple(o)) for t, r, o in large})
    assert not memo.seen[:, 1].any()  # each walk's positions cleared after it (word 1 == 0: empty)


def test_covers_leaves_the_counts_it_was_given():
    memo = cover.new_memo()
    for target, req, opt in _questions(50, seed=6):
        before = req.copy(), opt.copy()
        cover.covers(target, req, opt, memo)
        assert (req == before[0]).all() and (opt == before[1]).all()
