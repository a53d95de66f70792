"""OpenSpiel's search bots as card_envs players: the ``openspiel:<bot>`` specs.

``openspiel:ismcts`` is OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``),
which samples worlds through our states' ``resample_from_infostate`` (the engine's
``determinize``); ``openspiel:mcts`` is OpenSpiel's MCTS (``open_spiel.python.algorithms.mcts``)
searching ``determinizations`` sampled worlds, its root visit counts summed over them
(determinized MCTS, "perfect information Monte Carlo"). Both take options after a colon as every
spec does: ``openspiel:ismcts:simulations=200,uct_c=1.4``.

The Python bots, not pyspiel's C++ ``ISMCTSBot`` / ``MCTSBot``: in open_spiel 2.0.2 a C++ bot
stepping any Python game (OpenSpiel's own ``python_tic_tac_toe`` too) ends the process with a
segmentation fault, and the C++ ``State::ResampleFromInfostate`` is not one a Python game can
override, so the C++ IS-MCTS could not reach ours anyway.

A bot never sees the true position: `OpenSpielBotPolicy.act_state` hands it a determinization for
its seat (the engine's ``determinize``), which it cannot tell from the true state; IS-MCTS then
samples its worlds from that one, which gives the same worlds as sampling from the truth.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from card_envs.agents.policy import StatePolicy
from card_envs.core.game import Game, State

PREFIX = "openspiel:"

# bot -> {option: (type, default)}
BOTS: dict[str, dict[str, tuple[type, Any]]] = {
    "ismcts": {"simulations": (int, 100), "uct_c": (float, 2.0), "rollouts": (int, 1), "world_samples": (int, -1)},
    "mcts": {"simulations": (int, 100), "uct_c": (float, 2.0), "rollouts": (int, 1), "determinizations": (int, 4)},
}


def accepted() -> str:
    return "; ".join(f"{PREFIX}{bot}[:" + ",".join(f"{k}=<{t.__name__}>" for k, (t, _) in options.items()) + "]"
                     for bot, options in BOTS.items())


def check(bot: str, options: dict[str, str]) -> dict[str, Any]:
    """The bot's options, typed, over its defaults (``"ismcts"``, ``{"simulations": "50"}`` as
    `card_envs.agents.parse_spec` reads ``openspiel:ismcts:simulations=50``); ValueError naming the
    bots and their options otherwise."""
    spec = PREFIX + bot + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
    if bot not in BOTS:
        raise ValueError(f"unknown OpenSpiel bot {bot!r} in {spec!r}; accepted: {accepted()}")
    known = BOTS[bot]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(f"unknown option(s) {unknown} for {PREFIX}{bot}; accepted: {', '.join(known)}")
    values = {k: default for k, (_, default) in known.items()}
    for key, text in options.items():
        kind = known[key][0]
        try:
            values[key] = kind(text)
        except ValueError:
            raise ValueError(f"option {key}={text!r} of {spec!r} must be {kind.__name__}") from None
        if kind is float and not math.isfinite(values[key]):
            raise ValueError(f"option {key}={text!r} of {spec!r} must be a finite number")
    least = {"simulations": 1, "rollouts": 1, "determinizations": 1, "world_samples": -1}
    for key, low in least.items():
        if key in values and values[key] < low:
            raise ValueError(f"option {key}={values[key]} of {spec!r} must be at least {low}")
    return values


class OpenSpielBotPolicy(StatePolicy):
    """An OpenSpiel search bot playing a seat of a card_envs game (see the module docstring)."""

    needs = "the game state (it searches determinizations of it)"

    def __init__(self, game: Game, bot: str, options: dict[str, Any]):
        from card_envs.openspiel.game import OpenSpielGame  # needs the openspiel extra

        self.bot, self.options, self.game = bot, options, game
        self.name = PREFIX + bot
        self.os_game = OpenSpielGame.of(game)

    def act_state(self, state: State, seat: int, rng: np.random.Generator) -> int:
        if state.is_terminal() or state.current_player != seat:
            raise ValueError(f"{self.name}: seat {seat} is not to move in this state")
        world = self._world(state, seat, rng)  # the seat's legal actions are those of every world
        legal = world.legal_actions()
        if len(legal) == 1:
            return legal[0]
        random_state = np.random.RandomState(int(rng.integers(2**32)))
        o = self.options
        from open_spiel.python.algorithms import ismcts, mcts

        evaluator = mcts.RandomRolloutEvaluator(o["rollouts"], random_state)
        if self.bot == "ismcts":
            bot = ismcts.ISMCTSBot(self.os_game, evaluator, o["uct_c"], o["simulations"],
                                   max_world_samples=o["world_samples"], random_state=random_state)
            return int(bot.step(world))
        bot = mcts.MCTSBot(self.os_game, o["uct_c"], o["simulations"], evaluator, random_state=random_state)
        visits = np.zeros(self.game.num_actions)
        for k in range(o["determinizations"]):
            root = bot.mcts_search(world if k == 0 else self._world(state, seat, rng))
            for child in root.children:
                visits[child.action] += child.explore_count
        best = np.flatnonzero(visits == visits.max())
        return int(best[rng.integers(best.size)])

    def _world(self, state: State, seat: int, rng: np.random.Generator):
        """An OpenSpiel state over a determinization for ``seat``: what the bot searches from."""
        return self.os_game.wrap(state.determinize(seat, rng))


def openspiel_policy(bot: str, options: dict[str, str], game: Game) -> OpenSpielBotPolicy:
    """The policy of an ``openspiel:<bot>[:options]`` spec (`card_envs.agents.make_policy` parses
    it); ValueError for a bad bot or option, or where the ``openspiel`` extra is not installed."""
    values = check(bot, options)  # a bad spec is refused before the import below
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        raise ValueError(f"{PREFIX}{bot} needs open_spiel, which comes with the 'openspiel' extra: "
                         'pip install -e ".[openspiel]" -c constraints.txt') from None
    return OpenSpielBotPolicy(game, bot, values)
