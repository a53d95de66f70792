"""The batched-engine skeleton every game shares: reset, step, auto-reset, forced moves.

A game subclass holds its B games as tensors (struct of arrays, one row per game) and supplies
the pure core: `_deal(rows)`, `_apply(actions, active)`, `_mask()`, `_observe()`,
`_terminal()`, `_returns(rows)`, plus `_load(states, rows)` / `state(i)` to convert from and to the
reference engine's states. Every update writes all B rows at once; a row that must not change
writes to a trash column instead (`put`), so no step depends on which games do what.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np
import torch

from card_envs.core.game import ArgumentError, Game, IllegalActionError, State, is_flag, is_integer
from card_envs.core.registry import make_game


class BatchStep(NamedTuple):
    """What `reset` and `step` return; every tensor has B rows, one per game.

    obs: float32[B, observation_size], the acting seat's observation (own seat first).
    mask: bool[B, num_actions], exactly the acting seat's legal actions.
    seat: int64[B], the acting seat (absolute).
    reward: float32[B, num_players], by absolute seat: the returns of a game that ended in
        this step (then already replaced by a fresh deal, which obs/mask/seat show), else 0.
    done: bool[B], the game in that row ended in this step.
    length: int64[B], decisions asked in a game that ended in this step (forced ones played
        by ``auto_forced`` not counted), else 0.
    """

    obs: torch.Tensor
    mask: torch.Tensor
    seat: torch.Tensor
    reward: torch.Tensor
    done: torch.Tensor
    length: torch.Tensor


def put(target: torch.Tensor, index: torch.Tensor, value: torch.Tensor | int | float,
        where: torch.Tensor) -> None:
    """target[b, index[b]] = value[b] for the rows in `where`; the others write the last column,
    the trash column every state tensor keeps for this."""
    index = torch.where(where, index, target.shape[1] - 1)
    if not torch.is_tensor(value):
        value = torch.full_like(index, value, dtype=target.dtype)
    target.scatter_(1, index[:, None], value.to(target.dtype)[:, None])


def get(source: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """source[b, index[b]] for every row."""
    return source.gather(1, index[:, None])[:, 0]


def lemire(word: torch.Tensor, n: torch.Tensor) -> torch.Tensor:
    """`np.random.Generator.integers(n)` from the generator's first 64-bit output `word`:
    Lemire's method on the low 32 bits, the high 32 bits when numpy rejects the first draw
    (probability below n / 2**32; a second rejection, below 1e-17, is not reproduced)."""
    low, high = word & 0xFFFFFFFF, (word >> 32) & 0xFFFFFFFF
    m = low * n
    reject = (m & 0xFFFFFFFF) < (0x100000000 - n) % n.clamp(min=1)
    return torch.where(reject, high * n, m) >> 32


def through_snapshot(game: Game, states: Sequence[State]) -> list[State]:
    """Each state as the reference's snapshot loader rebuilds it from its `to_json()`, for the
    engines whose `_load` reads a state's fields: a state built or edited in Python then loads only
    if it is a position the rules can reach (every field within the ranges the kernels index
    with), else ValueError naming its index, before any is loaded."""
    out = []
    for i, state in enumerate(states):
        try:
            out.append(game.state_from_json(state.to_json()))
        except (ValueError, TypeError, IndexError, KeyError, AttributeError, OverflowError) as error:
            raise ValueError(f"load: state {i} is not a position the rules can reach ({error}); "
                             "nothing was loaded") from None
    return out


def reusable(pool: list[np.ndarray], shape: tuple[int, ...], dtype) -> np.ndarray:
    """An array of `pool` that nothing else holds any more (no tensor, view or array of it is
    alive), else a new one, added to the pool (of at most 4; the oldest still held is left to its
    holder). For the arrays a step returns whole, written by a kernel."""
    for array in pool:
        if sys.getrefcount(array) == 3:  # the pool's, `array`'s and getrefcount's references
            return array
    array = np.empty(shape, dtype=dtype)
    pool[:] = pool[-3:] + [array]
    return array


class BatchGame:
    """B games of one env (the subclass's `env_id`) stepped as tensors; one seat acts in each.

    Args:
        batch_size: B, the number of games.
        device: any torch device ("cpu", "cuda").
        seed: seeds the deals (and, in Piles, the pass draws); `reset(seed)` reseeds.
        auto_forced: play decisions with exactly one legal action without asking (as
            `VectorGames` and the env's ``auto_forced``); off by default, so that every
            decision of the reference engine is asked.
        **config: the game's arguments (``num_players``, ``reward``), checked by the reference.
    """

    env_id: str
    backend = "torch"
    # Whether `state(i)` is the whole position, so that a reference engine plays on from a batched
    # deal exactly as this engine does (`card_envs.batch.check`); False where it cannot hold all.
    whole_states = True

    def __init__(self, batch_size: int, device: str | torch.device = "cpu", seed: int = 0,
                 auto_forced: bool = False, **config: Any):
        if not is_integer(batch_size) or batch_size < 1:
            raise ArgumentError(f"batch_size must be an integer of at least 1, got {batch_size!r}")
        if not is_flag(auto_forced):  # as the reference env: "no" would otherwise read as True
            raise ArgumentError(f"auto_forced={auto_forced!r} is not supported; it must be True or False")
        batch_size = int(batch_size)
        self.game: Game = make_game(self.env_id, **config)
        self.num_players = self.game.num_players
        self.num_actions = self.game.num_actions
        self.observation_size = self.game.observation_layout.size
        self.batch_size, self.device, self.auto_forced = batch_size, torch.device(device), auto_forced
        self.generator = torch.Generator(self.device)
        self._rows = torch.arange(batch_size, device=self.device)
        self.lengths = torch.zeros(batch_size, dtype=torch.int64, device=self.device)  # decisions asked
        self._obs_pool: list[np.ndarray] = []  # see _step_observations
        self._allocate()
        self.reset(seed)

    # ----- the vector-env API ----------------------------------------------------------------
    def reset(self, seed: int | None = None) -> BatchStep:
        """Deal B fresh games (from `seed` when given, else from the running generator)."""
        if seed is not None:
            self.generator.manual_seed(seed)
        self._deal(self._rows)
        self.lengths.zero_()
        return self._settle(torch.zeros(self.batch_size, dtype=torch.bool, device=self.device))

    def step(self, actions: torch.Tensor | np.ndarray | Sequence[int]) -> BatchStep:
        """Apply one action per game for its acting seat. The actions must be legal (as the
        mask says). The torch engines do not check them (a check would stop a GPU for the host);
        the numba-only ones do (`_check_actions`). Actions that are not integers, or not one per
        game (shape [B]), are refused (IllegalActionError, a ValueError, as the reference's) before
        anything is applied."""
        actions = self._action_tensor(actions)
        self._apply(actions, torch.ones(self.batch_size, dtype=torch.bool, device=self.device))
        self.lengths += 1
        return self._settle(self._terminal())

    def _action_tensor(self, actions: torch.Tensor | np.ndarray | Sequence[int]) -> torch.Tensor:
        """int64[B] on this engine's device; a float (truncated, it would play another action) or
        a [B, 1] tensor (which the kernels cannot read) is refused instead."""
        try:
            tensor = torch.as_tensor(actions, device=self.device)
        except (TypeError, ValueError, RuntimeError) as error:
            raise IllegalActionError(f"step: actions must be integers, one per game: {error}") from None
        if tensor.dtype.is_floating_point or tensor.dtype.is_complex or tensor.dtype == torch.bool:
            raise IllegalActionError(f"step: actions must be integers, got {tensor.dtype}")
        if tuple(tensor.shape) != (self.batch_size,):
            raise IllegalActionError(f"step: actions must have shape ({self.batch_size},), one per game; "
                                     f"got {tuple(tensor.shape)}")
        return tensor.to(torch.int64).contiguous()

    def observe(self) -> BatchStep:
        """The last `reset`/`step` result."""
        return self._last

    def load(self, states: Sequence[State], rows: Sequence[int] | None = None) -> BatchStep:
        """Continue from reference states (same game and configuration): one per game, or one
        for each of `rows`, the other games left as they are.

        Each state must be a position where a seat is to act: a finished game
        (``state.is_terminal()``) would sit in its row with an all-zero mask, refusing every
        step, so it is refused. Every state is checked before any is loaded: a ValueError (another
        configuration, a finished game, named by its index in `states`) leaves every game as it was."""
        rows = self._rows if rows is None else torch.as_tensor(rows, dtype=torch.int64, device=self.device)
        if len(states) != len(rows):
            raise ValueError(f"load: {len(states)} states for {len(rows)} games")
        for i, state in enumerate(states):
            if state.game.config != self.game.config:
                raise ValueError(f"load: state {i} is of {state.game.config}, these games of {self.game.config}")
        finished = [i for i, state in enumerate(states) if state.is_terminal()]
        if finished:
            more = f" (of {len(finished)})" if len(finished) > 10 else ""
            raise ValueError(f"load: states {finished[:10]}{more} are finished games (is_terminal()); load takes "
                             f"only positions where a seat is to act; nothing was loaded")
        return self._load_positions(states, rows)

    def _load_positions(self, states: Sequence[State], rows: torch.Tensor) -> BatchStep:
        """`load` after its checks: `states` into `rows`, then observed. Unlike `load` it takes
        finished games too (the row then shows one: `_terminal()` true, an all-zero mask); the
        engines' tests use it to compare finished positions (`state(i)`, state tensors,
        `_returns`) with the reference."""
        self._load(states, rows)
        self.lengths[rows] = 0
        return self._settle(torch.zeros(self.batch_size, dtype=torch.bool, device=self.device))

    # ----- shared internals ----------------------------------------------------------------
    def _settle(self, ended: torch.Tensor) -> BatchStep:
        """Score and redeal the games that ended, play forced decisions, observe."""
        reward = torch.zeros(self.batch_size, self.num_players, device=self.device)
        done = torch.zeros(self.batch_size, dtype=torch.bool, device=self.device)
        length = torch.zeros_like(self.lengths)
        while True:
            if ended.any():
                rows = ended.nonzero()[:, 0]
                reward[rows] += self._returns(rows)
                done[rows] = True
                length[rows], self.lengths[rows] = self.lengths[rows], 0
                self._deal(rows)
            if not self.auto_forced:
                mask = self._mask()
                break
            mask, ended = self._play_forced()
            if not ended.any():
                break
        self._last = BatchStep(self._observe(), mask, self.cur.clone(), reward, done, length)
        return self._last

    def all_seat_observations(self) -> torch.Tensor:
        """float32[B, num_players, observation_size]: every seat's observation of every game
        (``[:, s]`` is seat s's, as the reference's `observation(s)`), to bootstrap values from."""
        return torch.stack([self._observe(torch.full_like(self.cur, s)) for s in range(self.num_players)], 1)

    def _play_forced(self) -> tuple[torch.Tensor, torch.Tensor]:
        """Play the single-choice decisions of every game until it has a real choice or ends:
        (mask: the real choices, in the rows that did not end; ended: bool[B]). The games that
        ended are dealt together afterwards, as a per-game kernel (`card_envs.batch.cpu`) does
        it: both backends deal the same games from the same random numbers."""
        ended = torch.zeros(self.batch_size, dtype=torch.bool, device=self.device)
        while True:
            mask = self._mask()
            forced, action = self._forced(mask)
            forced &= ~ended
            if not forced.any():
                return mask, ended
            self._apply(action, forced)
            ended |= self._terminal()

    def _step_observations(self) -> np.ndarray:
        """An array for a step's observations, for the CPU engines whose kernels write each row
        whole: one this engine returned before that nothing holds any more (no tensor, view or
        array of it is alive), else a new one. Fresh memory costs more than the rest of an
        observation at B=4,096 (every page is zeroed on first touch)."""
        return reusable(self._obs_pool, (self.batch_size, self.observation_size), np.float32)

    def _step_mask(self) -> np.ndarray:
        """An array for a fused step's masks (a new one; an engine may pool them)."""
        return np.empty((self.batch_size, self.num_actions), dtype=np.bool_)

    def _fused_apply(self, actions: torch.Tensor, active: torch.Tensor,
                     apply_only: Callable[[np.ndarray, np.ndarray], None],
                     fused_step: Callable[[np.ndarray, np.ndarray, np.ndarray], bool]) -> None:
        """The numba engines' `_apply`. A step in which every game acts (no forced decisions
        played for it) is one kernel, ``fused_step(actions, mask, obs)``: False, with nothing applied, unless every action
        is one the last mask allows; else it applies them and writes each game's mask and
        observation while its state rows are still in the cache, kept in ``_ready`` for `_mask`
        and `_observe`. Otherwise (forced decisions, some games inactive) the actions are checked
        here first (`_check_actions`: the kernels do not check their arrays' bounds, and an
        illegal action would write into other games) and ``apply_only(actions, active)`` plays them."""
        a, on = actions.numpy(), active.numpy()
        self._ready = None
        if self.auto_forced or not on.all():
            self._check_actions(a, on)
            apply_only(a, on)
            return
        mask, obs = self._step_mask(), self._step_observations()
        if not fused_step(a, mask, obs):
            self._check_actions(a, on)  # raises, naming the illegal actions; nothing was applied
            raise AssertionError("the fused step refused actions that _check_actions allows")
        self._ready = (mask, obs)

    def _check_actions(self, actions: np.ndarray, active: np.ndarray) -> None:
        """ValueError, before anything is applied, unless each active game's action is one the
        mask this engine last returned allows (``self._legal``, its own copy, so a caller's edits
        to the returned tensor do not loosen it). For engines whose kernels do not check array
        bounds: there an illegal action would write past a game's rows into other games."""
        inside = (actions >= 0) & (actions < self.num_actions)
        ok = ~active | inside & self._legal[np.arange(len(actions)), np.where(inside, actions, 0)]
        if not ok.all():
            self._refuse_actions(actions, ~ok, "each must be one the last mask allows")

    def _check_range(self, actions: torch.Tensor, active: torch.Tensor) -> None:
        """ValueError, before anything is applied, unless each active game's action is one of
        0..num_actions-1: for the torch engines, which index with checked tensor operations and
        do not check legality (a step of theirs already waits for the device once, in `_settle`)."""
        outside = active & ((actions < 0) | (actions >= self.num_actions))
        if outside.any():
            self._refuse_actions(actions.cpu().numpy(), outside.cpu().numpy(), "each must be an action")

    def _refuse_actions(self, actions: np.ndarray, bad: np.ndarray, rule: str) -> None:
        rows = np.flatnonzero(bad)
        raise ValueError(f"step: illegal actions {actions[rows[:5]].tolist()} in games {rows[:5].tolist()} (of "
                         f"{len(rows)}); {rule} (actions are 0..{self.num_actions - 1}); nothing was applied")

    def _forced(self, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(bool[B]: the game has exactly one legal action, int64[B]: its first legal action)."""
        return mask.sum(1) == 1, mask.to(torch.uint8).argmax(1)

    def _allocate(self) -> None:
        raise NotImplementedError

    def _deal(self, rows: torch.Tensor) -> None:
        raise NotImplementedError

    def _load(self, states: Sequence[State], rows: torch.Tensor) -> None:
        raise NotImplementedError

    def _apply(self, actions: torch.Tensor, active: torch.Tensor) -> None:
        raise NotImplementedError

    def _mask(self) -> torch.Tensor:
        raise NotImplementedError

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        """float32[B, observation_size]: each game's observation by `seat` (default: the acting seat)."""
        raise NotImplementedError

    def _terminal(self) -> torch.Tensor:
        raise NotImplementedError

    def _returns(self, rows: torch.Tensor) -> torch.Tensor:
        """float32[len(rows), num_players]: the returns of those (finished) games."""
        raise NotImplementedError

    def state(self, i: int) -> State:
        """Game `i` as a reference state (for tests, rendering and search)."""
        raise NotImplementedError
