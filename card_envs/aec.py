"""The one PettingZoo AEC adapter: any `Game` becomes an `AECEnv`.

Written once for every game, like PettingZoo's RLCard adapter. Agents are
``player_0 .. player_{n-1}`` (seat i). Rewards are terminal; the agent that must act is always
the engine's ``current_player``; a seat with several decisions in a row keeps the selection.
"""

from __future__ import annotations

import reprlib
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from card_envs.core.game import ArgumentError, Game, IllegalActionError, is_finite_number, is_flag, is_integer
from card_envs.core.snapshot import check_config

ILLEGAL_ACTION_MODES = ("raise", "penalize")
RENDER_MODES = ("ansi", "human")
ADAPTER_ARGS = ("render_mode", "illegal_action", "illegal_reward", "auto_forced", "render_seat")


class CardGameEnv(AECEnv):
    """PettingZoo AEC env over a rules engine.

    Args:
        game: the rules engine configuration.
        env_id: registered id, e.g. ``"three_piles_v0"`` (names the env and its snapshots).
        render_mode: ``"ansi"`` (render returns text), ``"human"`` (prints it) or None.
        illegal_action: ``"penalize"`` (default, PettingZoo classic's convention) ends the game
            with a warning naming the action and the legal ones: the offender gets
            ``illegal_reward`` and the others 0, so the env checkers' random actions work;
            ``"raise"`` raises a ValueError naming them instead, the state unchanged.
        illegal_reward: the offender's reward under ``"penalize"``.
        auto_forced: play a decision automatically when it has exactly one legal answer, so agents
            are never asked a trivial question (default True).
        render_seat: whose hand the render shows: None (public view, default), a seat, or -1 (all).
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "card_env", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: Game, env_id: str, render_mode: str | None = None,
                 illegal_action: str = "penalize", illegal_reward: float = -1.0,
                 auto_forced: bool = True, render_seat: int | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ArgumentError(f"render_mode={render_mode!r} is not supported; use one of {RENDER_MODES} or None")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ArgumentError(f"illegal_action={illegal_action!r} is not supported; use one of {ILLEGAL_ACTION_MODES}")
        if not is_finite_number(illegal_reward):
            raise ArgumentError(f"illegal_reward={illegal_reward!r} is not supported; it must be a finite number")
        if not is_flag(auto_forced):
            raise ArgumentError(f"auto_forced={auto_forced!r} is not supported; it must be True or False")
        n = game.num_players
        if render_seat is not None and not (is_integer(render_seat) and -1 <= render_seat < n):
            raise ArgumentError(f"render_seat={render_seat!r} must be None, -1 (all) or a seat in 0..{n - 1}")
        self.game, self.env_id = game, env_id
        self.render_mode, self.render_seat = render_mode, render_seat
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.auto_forced = bool(auto_forced)
        self._every_move_hook = self.auto_forced or render_mode == "human"  # else step() takes a short cut
        # Each env its own metadata: wrappers (CaptureStdoutWrapper) append to render_modes.
        self.metadata = {**self.metadata, "name": env_id, "render_modes": list(RENDER_MODES)}
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        high = game.observation_layout.high()
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
            }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(game.num_actions) for agent in self.possible_agents}
        self.state_space = spaces.Box(0.0, game.state_layout.high(), dtype=np.float32)
        self._no_actions = np.zeros(game.num_actions, dtype=np.int8)
        self._rng = np.random.default_rng()
        self._state = None
        self.calls = 0  # reset() and step() calls: the agent iterator checks that it moves

    # ----- PettingZoo API ------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """New deal; ``seed`` reproduces it exactly. ``options={"state": snapshot}`` starts there.

        Other option keys are ignored, as PettingZoo's api_test requires."""
        options = options or {}
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        if "state" in options:
            self._state = self._load_snapshot(options["state"])
        else:
            self._state = self.game.new_state(self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._game_over = False
        self.calls += 1
        self._after_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_seat[agent]
        state = self._state
        if seat == state.current_player:  # a terminal state has no legal action: an all-zero mask
            return {"observation": state.observation(seat), "action_mask": state.legal_mask()}
        return {"observation": state.observation(seat), "action_mask": self._no_actions.copy()}

    def last(self, observe: bool = True):
        # Same as AECEnv.last, minus an assert and repeated attribute lookups: it runs every step.
        agent = self.agent_selection
        observation = None
        if observe:
            state, seat = self._state, self.agent_seat[agent]
            if seat == state.current_player:  # always, but at the end: inlined observe()
                observation = {"observation": state.observation(seat), "action_mask": state.legal_mask()}
            else:
                observation = self.observe(agent)
        return (observation, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def state(self) -> np.ndarray:
        """The full information vector (all hands, deck order): for centralised critics only."""
        return self._state.state_tensor()

    def step(self, action: Any) -> None:
        self.calls += 1
        if self._game_over:  # every agent is terminated together: at the end, or by a penalty
            if not self.agents:
                EnvLogger.warn_step_after_terminated_truncated()
                return
            self._was_dead_step(action)
            return
        # Rewards are terminal, so a live agent's cumulative reward is already 0: nothing to clear.
        state = self._state
        try:
            state.apply(action)
        except IllegalActionError as error:
            agent = self.agent_selection
            if self.illegal_action == "raise":
                raise IllegalActionError(f"{agent}: {error}") from None
            self._penalize(agent, error)
            return
        if self._every_move_hook or state.is_terminal():
            self._after_move()
        else:  # the common case, kept short: this runs every decision
            self.agent_selection = self.possible_agents[state.current_player]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.game.render(self._state, self.render_seat)
        if self.render_mode == "human":
            print(text, end="\n\n")
            return None
        return text

    def close(self) -> None:
        pass

    # ----- snapshots -----------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The current position as a JSON-compatible dict (see the game's docstring for fields)."""
        return {"env_id": self.env_id, "config": self.game.config, "state": self._state.to_json()}

    def _load_snapshot(self, snapshot: Any):
        if not isinstance(snapshot, dict) or set(snapshot) != {"env_id", "config", "state"}:
            raise ValueError("a snapshot is a dict with keys 'env_id', 'config', 'state' "
                             "(as returned by env.unwrapped.snapshot())")
        # reprlib keeps the messages short however large or deeply nested the input is.
        if snapshot["env_id"] != self.env_id:
            raise ValueError(f"snapshot is for {reprlib.repr(snapshot['env_id'])}, this env is {self.env_id!r}")
        check_config(snapshot["config"], self.game, self.env_id)
        return self.game.state_from_json(snapshot["state"])

    # ----- internals -----------------------------------------------------------------------
    def _after_move(self) -> None:
        """Play forced decisions, then hand the turn to the engine's current player or end."""
        state = self._state
        if self.auto_forced:
            while not state.is_terminal() and len(state.legal_actions()) == 1:
                state.apply(state.legal_actions()[0])
        self.agent_selection = self.possible_agents[state.current_player]
        if state.is_terminal():
            returns = state.returns()
            for agent, seat in self.agent_seat.items():
                self.rewards[agent] = float(returns[seat])
                self.terminations[agent] = True
            self.infos = {agent: {"scores": state.scores()} for agent in self.agents}
            self._accumulate_rewards()
            self._game_over = True
        if self.render_mode == "human":
            self.render()

    def _penalize(self, agent: str, error: Exception) -> None:
        warnings.warn(f"{agent}: {error}; the game ends and {agent} gets {self.illegal_reward} "
                      "(illegal_action='penalize'; pass illegal_action='raise' for an exception)", stacklevel=3)
        for other in self.agents:
            self.rewards[other] = 0.0
            self.terminations[other] = True
        self.rewards[agent] = self.illegal_reward
        self.infos[agent] = {"illegal_action": str(error)}
        self._accumulate_rewards()
        self._game_over = True


def _forward(name: str) -> property:
    def get(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)
    return property(get)


class OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper with the per-step attributes forwarded as properties.

    The base class reaches them through ``__getattr__``, which Python only calls after a failed
    lookup; at ~8 such reads per decision that cost more than the rules engine's own step.
    """

    agent_selection = _forward("agent_selection")
    agents = _forward("agents")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards")

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        # Once reset, nothing is left to enforce in these three but the "did you step?" check of
        # agent_iter, which reads the env's step counter: call the env directly.
        self.last, self.observe, self.step = self.env.last, self.env.observe, self.env.step

    def last(self, observe: bool = True):
        EnvLogger.error_observe_before_reset()  # replaced by the env's own last() at reset

    def step(self, action: Any) -> None:
        EnvLogger.error_step_before_reset()  # replaced by the env's own step() at reset

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _agent_iter(self.env, max_iter)


def _agent_iter(env: CardGameEnv, max_iter: int):
    """PettingZoo's order-enforcing agent iterator: each agent it yields must be stepped.

    A generator rather than the base class's iterator object: resuming one is cheaper than a
    Python-level ``__next__`` call, and this runs every decision."""
    seen_calls = None
    while env.agents and max_iter > 0:
        if env.calls == seen_calls:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        max_iter -= 1
        seen_calls = env.calls
        yield env.agent_selection
