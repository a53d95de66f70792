"""An illegal action under ``illegal_action="raise"`` names the legal actions, in every game: each
as its index and its words (``action_to_string``), as a person reading the error needs them."""

from __future__ import annotations

import numpy as np
import pytest

import card_envs


@pytest.mark.parametrize("env_id", card_envs.list_envs())
def test_the_error_names_the_legal_actions(env_id):
    env = card_envs.make(env_id, illegal_action="raise")
    env.reset(seed=3)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError) as error:
        env.step(illegal)
    game = env.unwrapped.game
    first = int(np.flatnonzero(mask)[0])
    assert f"{first} ({game.action_to_string(first)})" in str(error.value)
    assert f"{illegal} ({game.action_to_string(illegal)})" in str(error.value)
