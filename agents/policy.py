"""The one interface every agent implements: observation + action mask in, action out."""

from __future__ import annotations

import abc
from typing import Any

import numpy as np

from card_envs.core.text import show


class Policy(abc.ABC):
    """A seat's decision rule. It sees only what `observe()` gives that seat."""

    name: str = "policy"

    @abc.abstractmethod
    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """One legal action (``action_mask[a] == 1``)."""

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Actions for a batch (rows); override where a vectorised version is faster."""
        return np.array([self.act(o, m, rng) for o, m in zip(observations, action_masks)], dtype=np.int64)


class RowByRow(Policy):
    """``policy`` deciding a batch row by row with its Python `act`: the same decisions as its
    compiled ``act_batch``, without compiling its numba kernels (`card_envs.agents.warm.worth_compiling`
    says when a compile pays). Every other attribute is the policy's."""

    def __init__(self, policy: Policy):
        self.policy = policy
        self.name = policy.name

    def act(self, observation, action_mask, rng) -> int:
        return self.policy.act(observation, action_mask, rng)

    def __getattr__(self, name: str):
        return getattr(self.policy, name)


class StatePolicy(Policy):
    """Base of policies that act on the game state (``needs_state = True``): match runners
    (`card_envs.agents.match`, the gym view, human play) call `act_state` for them. `act` says so, since an
    observation alone is not enough; ``needs`` completes that message."""

    needs_state = True
    needs = "the game state"

    @abc.abstractmethod
    def act_state(self, state, seat: int, rng: np.random.Generator) -> int:
        """The action of ``seat``, to move in ``state``."""

    def act(self, observation, action_mask, rng) -> int:
        raise TypeError(
            f"{self.name} needs {self.needs}: play it through card_envs.agents.match.rotated_match / play_game, "
            "python -m card_envs.evaluate or the gym view, which call act_state(state, seat, rng) for policies "
            "with needs_state=True")

    def act_batch(self, observations, action_masks, rng) -> np.ndarray:
        return self.act(observations, action_masks, rng)  # raises the same TypeError


class RandomPolicy(Policy):
    """Uniformly random legal action."""

    name = "random"

    def act(self, observation, action_mask, rng) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("action_mask has no legal action")
        return int(legal[rng.integers(legal.size)])

    def act_batch(self, observations, action_masks, rng) -> np.ndarray:
        # The argmax of iid uniform noise over the legal entries is a uniform legal choice.
        noise = rng.random(action_masks.shape)
        noise[action_masks == 0] = -1.0
        if (action_masks.sum(axis=-1) == 0).any():
            raise ValueError("an action_mask row has no legal action")
        return noise.argmax(axis=-1)


class OwnObservationPolicy(StatePolicy):
    """A trained policy in a match whose game differs from its own only in observation options
    (`Game.observation_options`): it reads each position through its own ``game``, the match's
    rules with the options it was trained on. Match runners give it the state
    (``needs_state = True``), as they give search policies; it acts on that seat's observation only.
    Any policy with an ``act_batch`` fits: a checkpoint's (`card_envs.agents.neural.NeuralPolicy`),
    a MaskablePPO model's (`card_envs.agents.sb3`).

    Args:
        policy: the trained policy (it acts on its own game's observations).
        game: the game whose observation the policy reads.
    """

    def __init__(self, policy: Policy, game):
        self.policy, self.game = policy, game
        self.name = policy.name
        # act() refuses a given observation: it would be the match's, not its own
        self.needs = f"the game state, to read its own observation ({show(game.config)}), not the match's"
        self.checkpoint_info = getattr(policy, "checkpoint_info", None)

    def act_state(self, state, seat: int, rng) -> int:
        return int(self.act_states([state], [seat], rng)[0])

    def act_states(self, states, seats, rng) -> np.ndarray:
        """Actions for a batch of positions (``seats[i]`` is to move in ``states[i]``)."""
        observations = np.stack([self.game.observe(s, int(seat)) for s, seat in zip(states, seats)])
        return self.policy.act_batch(observations, np.stack([s.legal_mask() for s in states]), rng)


def observing_game(game, trained: dict[str, Any]):
    """The game a policy trained with game arguments ``trained`` observes a match of ``game`` with:
    ``game`` itself where its observation options (`Game.observation_options`) are the trained
    ones, else the match's rules with the trained options (for `OwnObservationPolicy`)."""
    options = {k: trained[k] for k in game.observation_options if k in trained}
    if all(game.config.get(k) == v for k, v in options.items()):
        return game
    return type(game)(**{**game.config, **options})


def observing(policy: Policy, game, own) -> Policy:
    """``policy`` as it plays ``game`` when it reads ``own``'s observations (`observing_game`)."""
    return policy if own is game else OwnObservationPolicy(policy, own)
