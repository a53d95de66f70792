"""The batched engine's packing search (`card_envs.batch.illimat.groups.searched_packing`, with the
groups as bits up to 64 of them and listed per bit beyond) against the reference's
`groups.searched_packing`: the same (weight, mask) on random groups, weights with ties, required
bits and budgets small enough to stop the search part way (where only the reference's node order
gives its answer)."""

import numpy as np
import pytest

pytest.importorskip("numba")

from card_envs.batch.illimat import groups as G  # noqa: E402
from card_envs.games.illimat import groups  # noqa: E402


def _cases(n, seed, most_groups):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        n_bits = int(rng.integers(1, 30))
        size = int(rng.integers(1, 5))  # items a group holds at most
        drawn = {sum(1 << int(b) for b in rng.choice(n_bits, int(rng.integers(1, min(size, n_bits) + 1)), replace=False))
                 for _ in range(int(rng.integers(1, most_groups + 1)))}
        weights = rng.choice([0.2, 1.0, 1.6, 2.5, 3.1, 4.1], n_bits)  # few values: packings of equal weight
        required = int(sum(1 << int(b) for b in np.flatnonzero(rng.random(n_bits) < 0.15)))
        budget = int(rng.choice([1, 3, 12, 60, 400, 3_000]))
        yield sorted(drawn), weights, required, n_bits, budget


@pytest.mark.parametrize("most_groups, seed", [(12, 1), (64, 2), (200, 3)])
def test_searched_packing_answers_as_the_reference(most_groups, seed):
    w = G.new_work()
    searched = 0
    for found, weights, required, n_bits, budget in _cases(400, seed, most_groups):
        expected = groups.searched_packing(groups.by_bit(found, n_bits), list(weights), required, n_bits, budget)
        w.groups[:len(found)] = found
        got = G.searched_packing(len(found), weights, np.uint64(required), n_bits, budget, w)
        assert (got[0], int(got[1])) == expected, (found, weights, required, n_bits, budget)
        searched += len(found) > 64
    assert (searched > 0) == (most_groups > 64)  # the listed search asked where the bits cannot hold the groups
