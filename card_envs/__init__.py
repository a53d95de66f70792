"""card_envs: multi-agent RL environments (PettingZoo AEC) for pile card games.

    import card_envs
    env = card_envs.make("three_piles_v0")          # wrapped AEC env (order enforcing)
    raw = card_envs.raw_env("three_piles_v0", num_players=3)
    card_envs.list_envs()                           # ["three_piles_v0", ...]
    card_envs.parallel_env("three_piles_v0")        # the PettingZoo parallel API

Every env is also in PettingZoo's and Gymnasium's registries once ``card_envs`` is imported:
``pettingzoo.make("aec", "card_envs/three_piles-v0")``, ``pettingzoo.make("parallel", ...)`` (ids
``card_envs/<name>-v<version>``, the env id's version; PettingZoo also reads ``card_envs/three_piles_v0``
and resolves ``card_envs/three_piles`` to the latest version) and ``gymnasium.make("card_envs/ThreePiles-v0")``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from card_envs import checkout as _checkout
from card_envs.core import registry as _registry
from card_envs.core.registry import EnvSpec, list_envs, make_game, spec

__all__ = ["EnvSpec", "list_envs", "make", "make_game", "parallel_env", "pettingzoo_id", "raw_env", "register", "spec"]
__version__ = "0.1.0"

_checkout.install(Path(__file__).resolve().parent)  # a source checkout runs its own agents/, train/, evaluate/


def pettingzoo_id(env_id: str) -> str:
    """The id in PettingZoo's registry: ``three_piles_v0`` -> ``card_envs/three_piles-v0``."""
    name, _, version = env_id.rpartition("_v")
    return f"card_envs/{name}-v{version}"


def register(env_spec: EnvSpec) -> None:
    """Make ``env_spec.id`` known to `make`, `raw_env`, `make_game` and `list_envs` (whose ids the
    shared tests run, in each of ``env_spec.test_configs``), to PettingZoo's registry as
    `pettingzoo_id` (AEC and parallel) and, where it has a ``gym_id``, to
    ``gymnasium.make(env_spec.gym_id)``; ValueError if the id is taken. The games of the package
    are registered below; a game outside it registers itself the same way, in each process that
    uses it (docs/adding_a_game.md)."""
    import pettingzoo

    _registry.register(env_spec)
    pz_id, kwargs = pettingzoo_id(env_spec.id), {"env_id": env_spec.id}
    pettingzoo.register("aec", pz_id, entry_point="card_envs:make", kwargs=kwargs)
    pettingzoo.register("parallel", pz_id, entry_point="card_envs:parallel_env", kwargs=kwargs)
    if env_spec.gym_id:
        from card_envs.gym import register_all

        register_all({env_spec.id: env_spec.gym_id})


register(EnvSpec(
    "three_piles_v0", "card_envs.games.three_piles:ThreePilesGame", gym_id="card_envs/ThreePiles-v0",
    test_configs=({}, {"num_players": 3}, {"num_players": 4}, {"reward": "score"})))
register(EnvSpec("piles_v0", "card_envs.games.piles:PilesGame", gym_id="card_envs/Piles-v0",
                 test_configs=({}, {"num_players": 2}, {"reward": "score"})))
register(EnvSpec("illimat_v0", "card_envs.games.illimat:IllimatGame", gym_id="card_envs/Illimat-v0",
                 test_configs=({}, {"num_players": 3, "rounds": 2}, {"num_players": 4, "rounds": 2},
                               {"luminaries": False}, {"rounds": 1}, {"harmonic_convergence": True, "rounds": 1},
                               {"full_harvest": True, "rounds": 1},
                               {"harvest_features": True, "play_features": True, "threat_features": True,
                                "harmonic_convergence": True,
                                "rounds": 1})))
register(EnvSpec("split_the_hoard_v0", "card_envs.games.split_the_hoard:SplitTheHoardGame",
                 gym_id="card_envs/SplitTheHoard-v0",
                 test_configs=({}, {"num_players": 2}, {"num_players": 4}, {"num_players": 5},
                               {"class_powers": "tiebreak_only"})))
register(EnvSpec("dominion_v0", "card_envs.games.dominion:DominionGame", gym_id="card_envs/Dominion-v0",
                 test_configs=({}, {"num_players": 3, "kingdom": "T1-B"}, {"num_players": 4, "kingdom": "T2"},
                               {"kingdom": "random", "reward": "score"}, {"kingdom": "T3"},
                               {"num_players": 4, "kingdom": "T3"})))


def raw_env(env_id: str, **config: Any):
    """The unwrapped AEC env. `config` mixes game arguments (e.g. ``num_players``) and adapter
    arguments (``render_mode``, ``illegal_action``, ``illegal_reward``, ``auto_forced``,
    ``render_seat``; see `card_envs.aec.CardGameEnv`)."""
    from card_envs.aec import ADAPTER_ARGS, CardGameEnv

    adapter_config = {k: v for k, v in config.items() if k in ADAPTER_ARGS}
    game_config = {k: v for k, v in config.items() if k not in ADAPTER_ARGS}
    return CardGameEnv(make_game(env_id, **game_config), env_id, **adapter_config)


def make(env_id: str, **config: Any):
    """The AEC env wrapped in `card_envs.aec.OrderEnforcing`, a lighter subclass of PettingZoo's
    OrderEnforcingWrapper (errors on calls before reset, and on agent_iter loops that skip step)."""
    from card_envs.aec import OrderEnforcing

    return OrderEnforcing(raw_env(env_id, **config))


def parallel_env(env_id: str, **config: Any):
    """The env as a PettingZoo ``ParallelEnv``: `make`'s env through PettingZoo's
    ``turn_based_aec_to_parallel``. Each step takes an action per agent; only the acting agent's
    is played (its mask is the legal set; the others' masks are all zeros)."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    return turn_based_aec_to_parallel(make(env_id, **config))
