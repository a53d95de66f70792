"""The terminal reward schemes (`card_envs.core.rewards`): one game's scores or a batch of them."""

import numpy as np
import pytest

from card_envs.core.rewards import rank_returns, score_returns


def test_rank_returns_of_two_and_four_players():
    assert rank_returns([3, 1]).tolist() == [1.0, -1.0]
    assert rank_returns([2, 2]).tolist() == [0.0, 0.0]
    assert rank_returns([5, 1, 5, 0]).tolist() == [2 / 3, -1 / 3, 2 / 3, -1.0]


def test_score_returns_are_own_score_less_the_others_mean():
    assert score_returns([6, 2, 1], 10).tolist() == pytest.approx([0.45, -0.15, -0.3])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_batch_of_games_returns_each_game_as_alone(n):
    scores = np.random.default_rng(n).integers(-5, 20, (300, n)).astype(np.int16)
    assert np.array_equal(rank_returns(scores), np.stack([rank_returns(row.tolist()) for row in scores]))
    assert np.array_equal(score_returns(scores, 17), np.stack([score_returns(row.tolist(), 17) for row in scores]))
    assert rank_returns(scores[:0]).shape == score_returns(scores[:0], 17).shape == (0, n)
