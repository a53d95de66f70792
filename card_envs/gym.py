"""A single-agent gymnasium view of any game: one learning seat, the others played by policies.

    import gymnasium, card_envs
    from card_envs.agents import make_policy
    game = card_envs.make_game("three_piles_v0")
    env = gymnasium.make("card_envs/ThreePiles-v0", opponents=make_policy("heuristic", game))
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

Every registered game is registered with gymnasium under its ``gym_id``. The observation is the
learner's flat float32 vector (a ``Box``); the mask is in ``info["action_mask"]`` and from
``action_masks()``, the method sb3-contrib's ``MaskablePPO`` calls, so it trains on this env
unmodified. With ``mask_in_observation=True`` the observation is instead a ``Dict`` of
``"observation"`` and ``"action_mask"`` (int8), as TorchRL's ``ActionMask`` transform and
PettingZoo's classic envs expect. Rewards are the learner's terminal reward (0 before the end).
An illegal action ends the episode with ``illegal_reward`` and a warning (``illegal_action=
"raise"`` raises instead), so env checkers that send random actions pass.
"""

from __future__ import annotations

from typing import Any, Protocol

import warnings

import gymnasium
import numpy as np
from gymnasium import spaces

from card_envs.core.game import ArgumentError, IllegalActionError, State, is_finite_number, is_flag, is_integer
from card_envs.core.registry import make_game


class SeatPolicy(Protocol):
    """What an opponent must provide: `card_envs.agents.policy.Policy` does."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int: ...


class _UniformRandom:
    """The default opponent (the `card_envs.agents` layer sits above this one, so it is not imported here)."""

    def act(self, observation, action_mask, rng) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[rng.integers(legal.size)])


class SingleAgentEnv(gymnasium.Env):
    """One seat learns; every other seat is played by an opponent policy.

    Args:
        env_id: registered card_envs id.
        opponents: ``"random"`` (default), one policy for every other seat, or a list with one
            policy per other seat (in seat order, skipping the learner's). A policy with
            ``needs_state = True`` (a search baseline, or a checkpoint observing with the options
            it was trained on) is given the state through ``act_state(state, seat, rng)``.
        learner_seat: the learner's seat, or ``"random"`` to draw it each episode (default), so
            it learns to play first and later.
        auto_forced: play the learner's single-choice decisions automatically.
        illegal_action: ``"penalize"`` (default: the episode ends with reward ``illegal_reward``
            and a warning naming the action and the legal ones) or ``"raise"`` (a ValueError).
        illegal_reward: the learner's reward for an illegal action under ``"penalize"``.
        render_mode: ``"ansi"`` returns the game's text picture from the learner's seat.
        mask_in_observation: observations as ``{"observation", "action_mask"}`` dicts.
        **config: game arguments, e.g. ``num_players=3``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, env_id: str, opponents: Any = "random", learner_seat: int | str = "random",
                 auto_forced: bool = True, illegal_action: str = "penalize", illegal_reward: float = -1.0,
                 render_mode: str | None = None, mask_in_observation: bool = False, **config: Any):
        self.game = make_game(env_id, **config)
        self.metadata = {**self.metadata, "render_modes": ["ansi"], "name": env_id}  # each env its own
        n = self.game.num_players
        if learner_seat != "random" and not (is_integer(learner_seat) and 0 <= learner_seat < n):
            raise ArgumentError(f"learner_seat={learner_seat!r}: use 'random' or a seat in 0..{n - 1}")
        if illegal_action not in ("raise", "penalize"):
            raise ArgumentError(f"illegal_action={illegal_action!r}: use 'penalize' or 'raise'")
        if not is_finite_number(illegal_reward):
            raise ArgumentError(f"illegal_reward={illegal_reward!r} is not supported; it must be a finite number")
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        if render_mode not in (None, "ansi"):
            raise ArgumentError(f"render_mode={render_mode!r} is not supported; use 'ansi' or None")
        for name, flag in (("auto_forced", auto_forced), ("mask_in_observation", mask_in_observation)):
            if not is_flag(flag):
                raise ArgumentError(f"{name}={flag!r} is not supported; it must be True or False")
        self.opponents = self._opponents(opponents, n - 1)
        self.learner_seat_option, self.auto_forced, self.render_mode = learner_seat, auto_forced, render_mode
        self.mask_in_observation = bool(mask_in_observation)
        vector = spaces.Box(0.0, self.game.observation_layout.high(), dtype=np.float32)
        self.observation_space = spaces.Dict({
            "observation": vector, "action_mask": spaces.Box(0, 1, (self.game.num_actions,), dtype=np.int8),
        }) if self.mask_in_observation else vector
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state: State | None = None
        self.learner_seat = 0
        self._penalized = False

    @staticmethod
    def _opponents(opponents: Any, count: int) -> list[SeatPolicy]:
        if isinstance(opponents, str):
            if opponents != "random":
                raise ValueError(f"opponents={opponents!r}: the only name accepted here is 'random'; "
                                 "pass policies for others, e.g. card_envs.agents.make_policy('heuristic', game)")
            return [_UniformRandom() for _ in range(count)]
        policies = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * count
        if len(policies) != count or not all(callable(getattr(p, "act", None)) for p in policies):
            raise ValueError(f"opponents must be 'random', one policy with act(observation, action_mask, rng), "
                             f"or a list of {count} such policies; got {opponents!r}")
        return policies

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        n = self.game.num_players
        seat = self.learner_seat_option
        self.learner_seat = int(self.np_random.integers(n)) if seat == "random" else seat
        self.state = self.game.new_state(self.np_random)
        self._penalized = False
        self._play_others()
        return self._observation(), self._info()

    def step(self, action: int):
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self.state.is_terminal() or self._penalized:
            raise RuntimeError("the episode has ended; call reset()")
        try:
            self.state.apply(action)  # an illegal action raises, naming the legal ones
        except IllegalActionError as error:
            if self.illegal_action == "raise":
                raise
            warnings.warn(f"learner: {error}; the episode ends with reward {self.illegal_reward} "
                          "(illegal_action='penalize'; pass illegal_action='raise' for an exception)", stacklevel=2)
            self._penalized = True
            return self._observation(), self.illegal_reward, True, False, self._info()
        self._play_others()
        terminated = self.state.is_terminal()
        reward = float(self.state.returns()[self.learner_seat]) if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """bool[num_actions]: the learner's legal actions (all False once the episode is over)."""
        if self.state.is_terminal() or self._penalized:
            return np.zeros(self.game.num_actions, dtype=bool)
        return self.state.legal_mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.game.render(self.state, self.learner_seat)
        return None

    def _play_others(self) -> None:
        """Play opponents' (and forced) decisions until the learner must choose or the game ends."""
        state = self.state
        while not state.is_terminal():
            seat = state.current_player
            if self.auto_forced and len(state.legal_actions()) == 1:
                state.apply(state.legal_actions()[0])
            elif seat == self.learner_seat:
                return
            else:
                policy = self.opponents[seat - (seat > self.learner_seat)]
                if getattr(policy, "needs_state", False):  # search, or a checkpoint's own observation
                    state.apply(policy.act_state(state, seat, self.np_random))
                else:
                    state.apply(policy.act(state.observation(seat), state.legal_mask(), self.np_random))

    def _observation(self) -> np.ndarray | dict[str, np.ndarray]:
        observation = self.state.observation(self.learner_seat)
        if self.mask_in_observation:
            return {"observation": observation, "action_mask": self.action_masks().astype(np.int8)}
        return observation

    def _info(self) -> dict[str, Any]:
        info = {"action_mask": self.action_masks().astype(np.int8)}
        if self.state.is_terminal():
            info["scores"] = self.state.scores()
        return info


def make_single_agent(**kwargs: Any) -> SingleAgentEnv:
    """gymnasium's entry point: ``SingleAgentEnv(**kwargs)``.

    A function without ``metadata``, so gymnasium.make passes any ``render_mode`` straight to the
    constructor, which refuses an unsupported one by name with a TypeError, instead of first
    warning that it is not in ``render_modes``: SB3's make_vec_env asks every env for
    ``"rgb_array"`` and retries without it on that TypeError, which must stay silent.
    """
    return SingleAgentEnv(**kwargs)


def register_all(gym_ids: dict[str, str]) -> None:
    """Register ``gym_id -> SingleAgentEnv(env_id)`` with gymnasium for every game that has one."""
    for env_id, gym_id in gym_ids.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(id=gym_id, entry_point="card_envs.gym:make_single_agent", kwargs={"env_id": env_id})
