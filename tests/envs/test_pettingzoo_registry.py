"""Every env is in PettingZoo's own registry (``pettingzoo.make("aec" | "parallel", id)``), by the
documented ids, and what the registry builds passes PettingZoo's API tests."""

from __future__ import annotations

import pettingzoo
import pytest
from pettingzoo.test import api_test, parallel_api_test

import card_envs

ENV_IDS = card_envs.list_envs()


def test_every_env_has_an_aec_and_a_parallel_id():
    ids = {card_envs.pettingzoo_id(env_id) for env_id in ENV_IDS}
    assert {"card_envs/three_piles-v0", "card_envs/piles-v0", "card_envs/illimat-v0",
            "card_envs/split_the_hoard-v0", "card_envs/dominion-v0"} <= ids
    assert ids <= set(pettingzoo.aec_registry) and ids <= set(pettingzoo.parallel_registry)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_aec_env_from_pettingzoo_make_passes_api_test(env_id):
    env = pettingzoo.make("aec", card_envs.pettingzoo_id(env_id))
    assert env.unwrapped.metadata["name"] == env_id
    api_test(env, num_cycles=100)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_parallel_env_from_pettingzoo_make_passes_parallel_api_test(env_id):
    env = pettingzoo.make("parallel", card_envs.pettingzoo_id(env_id))
    assert isinstance(env, pettingzoo.ParallelEnv)
    parallel_api_test(env, num_cycles=100)


def test_arguments_aliases_and_unversioned_ids():
    """Game arguments pass through; PettingZoo's own spellings resolve; bad arguments get ours."""
    env = pettingzoo.make("aec", "card_envs/three_piles_v0", num_players=3)
    env.reset(seed=0)
    assert len(env.agents) == 3
    assert pettingzoo.make("parallel", "card_envs/piles").unwrapped.metadata["name"] == "piles_v0"
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_cycles'"):
        pettingzoo.make("aec", "card_envs/illimat-v0", max_cycles=10)
