"""Agents behind one `Policy` interface: random, greedy, scripted per game, search, neural.

``make_policy(spec, game)`` builds any of them from a name:

| spec | policy |
|---|---|
| ``random`` | uniformly random legal action (`card_envs.agents.policy.RandomPolicy`) |
| ``greedy`` | best immediate score margin after the move (`card_envs.agents.greedy.GreedyPolicy`) |
| ``heuristic`` | the game's scripted agent (`SCRIPTED`) |
| a name in ``NAMED[game]`` | one of the game's further named scripted bots (`named_bots`), below |
| ``ismcts`` / ``ismcts:iterations=200,exploration=0.7,rollout_depth=20`` | information-set MCTS (`card_envs.agents.ismcts.ISMCTS`) |
| a path ending in ``.pt`` | a trained checkpoint (`card_envs.agents.neural.NeuralPolicy`), checked against the game; it observes with the observation options it was trained on (`card_envs.agents.policy.OwnObservationPolicy` where the game's differ) |
| ``openspiel:ismcts`` / ``openspiel:mcts:simulations=200,determinizations=4`` | OpenSpiel's IS-MCTS or determinized MCTS (`card_envs.agents.openspiel`; the ``openspiel`` extra) |
| ``sb3:<path>.zip`` | a model trained by sb3-contrib's MaskablePPO (``python -m card_envs.train.sb3``; `card_envs.agents.sb3.MaskablePolicy`), checked against the game by its sidecar ``model.json``; the most probable legal action, as a checkpoint; it observes with the observation options it was trained on, as a checkpoint |
| ``shipped:<env_id>`` | the game's shipped checkpoint (e.g. ``shipped:illimat_v0``; `card_envs.agents.shipped.checkpoint_path`), from any folder |

A game's named scripted bots (`NAMED`; batched, from observations, like ``heuristic``):

| game | spec | policy |
|---|---|---|
| dominion | ``bmu`` | Big Money Ultimate (`card_envs.agents.dominion.bots.BigMoneyUltimate`) |
| dominion | ``smithy_bm`` | Smithy-BM (`card_envs.agents.dominion.bots.SmithyBM`) |
| dominion | ``big_smithy`` | BigSmithy (`card_envs.agents.dominion.bots.BigSmithy`) |
| dominion | ``witch_bm`` | Witch-BM (`card_envs.agents.dominion.bots.WitchBM`) |
| dominion | ``catapult_bm`` | Catapult/Rocks-BM, the split-pile probe (`card_envs.agents.dominion.bots.CatapultRocksBM`) |
| dominion | ``townsfolk_bm`` | Townsfolk/Forts-BM, the tier-3 split-pile probe (`card_envs.agents.dominion.bots.TownsfolkFortsBM`) |
| dominion | ``best_bot`` | in each game the bot above that wins the bots' round-robin on its kingdom (`card_envs.agents.dominion.best.BestBot`) |
| illimat | ``lookahead`` | the scripted agent, wary of the next player's best harvest (`card_envs.agents.illimat.heuristic.IllimatLookahead`) |

They are accepted wherever a baseline name is (``python -m card_envs.evaluate`` players, ``--gauntlet``
opponents, ``python -m card_envs.train --opponents``); a bot whose card is not in the game's Supply plays
Big Money with what is there.

``greedy`` and ``ismcts`` are search policies (``needs_state = True``): match runners give them
the position through `card_envs.agents.ismcts.SearchPolicy.act_state`, which lets them see determinizations
only.
"""

from __future__ import annotations

import importlib
import math
from typing import Any

from card_envs.agents.ismcts import SearchPolicy
from card_envs.agents.policy import Policy, RandomPolicy, observing, observing_game
from card_envs.agents.sb3 import PREFIX as SB3
from card_envs.agents.shipped import checkpoint_path, is_checkpoint, shipped_names
from card_envs.core.game import Game

__all__ = ["NAMED", "Policy", "RandomPolicy", "SearchPolicy", "baseline_names", "checkpoint_path", "is_checkpoint",
           "make_policy", "named_bots", "named_bots_text", "opponent_names", "parse_spec", "policy_names",
           "shipped_names"]

# game name -> "module:Class" of its scripted agent, constructed with the Game.
SCRIPTED = {"three_piles": "card_envs.agents.three_piles.heuristic:ThreePilesHeuristic", "piles": "card_envs.agents.piles.heuristic:PilesHeuristic",
            "illimat": "card_envs.agents.illimat.heuristic:IllimatHeuristic", "dominion": "card_envs.agents.dominion.bots:DominionHeuristic",
            "split_the_hoard": "card_envs.agents.split_the_hoard.heuristic:SplitTheHoardHeuristic"}

# game name -> {spec: "module:Class"}: a game's further named scripted bots, constructed with the
# Game and acting from observations like the heuristic (see the module docstring's table).
NAMED = {
    "dominion": {"bmu": "card_envs.agents.dominion.bots:BigMoneyUltimate", "smithy_bm": "card_envs.agents.dominion.bots:SmithyBM",
                 "big_smithy": "card_envs.agents.dominion.bots:BigSmithy", "witch_bm": "card_envs.agents.dominion.bots:WitchBM",
                 "catapult_bm": "card_envs.agents.dominion.bots:CatapultRocksBM", "townsfolk_bm": "card_envs.agents.dominion.bots:TownsfolkFortsBM",
                 "best_bot": "card_envs.agents.dominion.best:BestBot"},
    "illimat": {"lookahead": "card_envs.agents.illimat.heuristic:IllimatLookahead"},
}

# name -> (module:Class constructed with (game, **options), {option: type}) for the search baselines.
SEARCH = {
    "greedy": ("card_envs.agents.greedy:GreedyPolicy", {}),
    "ismcts": ("card_envs.agents.ismcts:ISMCTS", {"iterations": int, "exploration": float, "rollout_depth": int}),
}


def policy_names(game: Game) -> list[str]:
    """The baselines that act in batches from observations (cheap enough for training's periodic
    evaluation): ``random`` and, where the game has one, ``heuristic``."""
    return ["random"] + (["heuristic"] if game.name in SCRIPTED else [])


def named_bots(game: Game) -> list[str]:
    """The game's further named scripted bots (`NAMED`), e.g. ``bmu`` for Dominion; [] for most games."""
    return list(NAMED.get(game.name, {}))


def opponent_names(game: Game) -> list[str]:
    """Every baseline that acts in batches from observations, as training's opponent pool takes
    them: `policy_names` and the game's `named_bots`."""
    return policy_names(game) + named_bots(game)


def named_bots_text() -> str:
    """One line for help texts: every game's named bots, e.g. ``dominion: bmu, smithy_bm, ...``."""
    return "; ".join(f"{game}: {', '.join(bots)}" for game, bots in NAMED.items())


def baseline_names(game: Game) -> list[str]:
    """Every baseline for ``game``: random, greedy, heuristic (where the game has one), the game's
    named bots (`named_bots`), ismcts (default options)."""
    return (["random", "greedy"] + (["heuristic"] if game.name in SCRIPTED else []) + named_bots(game)
            + ["ismcts"])


def _accepted(game: Game) -> str:
    options = ", ".join(f"{k}=<{t.__name__}>" for k, t in SEARCH["ismcts"][1].items())
    named = f", the {game.name} bots {named_bots(game)}" if named_bots(game) else ""
    env_id = f"{game.name}_v{game.version}"
    shipped = f", or its shipped checkpoint 'shipped:{env_id}'" if env_id in shipped_names() else ""
    return (f"{policy_names(game)} (batched baselines){named}, 'greedy', 'ismcts' or 'ismcts:{options}' "
            f"(search baselines), a checkpoint path ending in .pt{shipped}, a MaskablePPO model 'sb3:<path>.zip'")


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iterations=200,exploration=1"`` -> ``("ismcts", {"iterations": "200", ...})``."""
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip() or not value.strip():
                raise ValueError(f"bad option {item!r} in policy {spec!r}: options are key=value, "
                                 "separated by commas, e.g. 'ismcts:iterations=200'")
            if key.strip() in options:
                raise ValueError(f"option {key.strip()!r} is given twice in policy {spec!r}")
            options[key.strip()] = value.strip()
    return name.strip(), options


def _convert(spec: str, key: str, value: str, kind: type) -> Any:
    if kind is int and value.lower() == "none":
        return None
    try:
        converted = kind(value)
    except ValueError:
        raise ValueError(f"option {key}={value!r} of policy {spec!r} must be {kind.__name__}") from None
    if kind is float and not math.isfinite(converted):
        raise ValueError(f"option {key}={value!r} of policy {spec!r} must be a finite number")
    return converted


def make_policy(name: str, game: Game) -> Policy:
    """A policy by spec (see the module docstring); ValueError listing what is accepted otherwise."""
    if is_checkpoint(name):
        return _checkpoint_policy(name, game)
    if name.startswith(SB3):  # a MaskablePPO model (sb3-contrib, the benchmark extra): card_envs.agents.sb3
        from card_envs.agents.sb3 import load

        return load(name, game)
    if name.startswith("openspiel:"):  # OpenSpiel's search bots (the openspiel extra): card_envs.agents.openspiel
        from card_envs.agents.openspiel import openspiel_policy

        return openspiel_policy(*parse_spec(name.removeprefix("openspiel:")), game)
    base, options = parse_spec(name)
    if base in SEARCH:
        target, accepted = SEARCH[base]
        unknown = sorted(set(options) - set(accepted))
        if unknown:
            allowed = ", ".join(accepted) if accepted else "none"
            raise ValueError(f"unknown option(s) {unknown} for policy {base!r}; accepted options: {allowed}")
        module, cls = target.split(":")
        kwargs = {k: _convert(name, k, v, accepted[k]) for k, v in options.items()}
        return getattr(importlib.import_module(module), cls)(game, **kwargs)
    named = NAMED.get(game.name, {}) if game is not None else {}  # random needs no game
    if (base in ("random", "heuristic") or base in named) and options:
        raise ValueError(f"policy {base!r} takes no options, got {sorted(options)}")
    if base == "random":
        return RandomPolicy()
    target = SCRIPTED.get(game.name) if base == "heuristic" else named.get(base)
    if target is not None:
        module, cls = target.split(":")
        return getattr(importlib.import_module(module), cls)(game)
    raise ValueError(f"unknown policy {name!r} for {game.name}; available: {_accepted(game)}")


def _checkpoint_policy(path: str, game: Game) -> Policy:
    """The checkpoint's policy under ``game``'s rules, observing with the observation options it was
    trained on (`Game.observation_options`); ValueError where its network does not fit them. ``path``
    is a file or ``shipped:<env_id>`` (`checkpoint_path`)."""
    from card_envs.agents.neural import NeuralPolicy  # torch is imported only for checkpoints

    if not checkpoint_path(path).is_file():  # ValueError listing the shipped names for an unknown shipped: one
        raise ValueError(f"no checkpoint file at {path!r}")
    env_id = f"{game.name}_v{game.version}"
    policy = NeuralPolicy.from_checkpoint(path, env_id)
    trained = policy.checkpoint_info["game_config"]
    own = observing_game(game, trained)
    head = policy.network.policy_head
    first = next((m for m in policy.network.trunk if hasattr(m, "in_features")), head)
    if first.in_features != own.observation_size or head.out_features != own.num_actions:
        options = {k: trained[k] for k in game.observation_options if k in trained}
        raise ValueError(
            f"{path} was trained with game config {trained} (observation {first.in_features}, actions "
            f"{head.out_features}); this game {game.config}, observed with the checkpoint's options "
            f"{options}, has observation {own.observation_size}, actions {own.num_actions}")
    return observing(policy, game, own)
