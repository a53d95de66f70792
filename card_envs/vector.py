"""Many games of one `Game` stepped together, for batched self-play and batched matches.

Training and evaluation want one forward pass for all games, not one env call per decision, so
this steps the raw engines directly (the AEC adapter is for one game at a time). In every game
exactly one seat is to act; `observe()` stacks those seats' observations and masks, `step()`
applies one action per game, plays forced single-choice decisions (as the adapter's
``auto_forced``) and reports finished games, which then restart from a fresh deal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from card_envs.core.game import ArgumentError, Game, State, is_integer


class VectorGames:
    """``num_games`` independent games of ``game``.

    Args:
        game: the rules engine configuration.
        num_games: games stepped together.
        seed: seeds the deals of games that are not given an explicit deal seed.
        auto_forced: play decisions with exactly one legal action without asking.
        deal_seed: optional ``callable(game_index) -> int | None``: the seed of that game's next
            deal (used for paired, reproducible matches); None means "from ``seed``'s stream".
    """

    def __init__(self, game: Game, num_games: int, seed: int = 0, auto_forced: bool = True,
                 deal_seed: Callable[[int], int | None] | None = None):
        if not is_integer(num_games) or num_games < 1:
            raise ArgumentError(f"num_games must be an integer of at least 1, got {num_games!r}")
        num_games = int(num_games)
        self.game, self.num_games, self.auto_forced = game, num_games, auto_forced
        self._rng = np.random.default_rng(seed)
        self._deal_seed = deal_seed
        self.observations = np.zeros((num_games, game.observation_size), dtype=np.float32)
        self.masks = np.zeros((num_games, game.num_actions), dtype=bool)
        self.seats = np.zeros(num_games, dtype=np.int64)  # the seat to act in each game
        self.lengths = np.zeros(num_games, dtype=np.int64)  # decisions asked so far in each game
        self.states: list[State] = [self._new_state(i) for i in range(num_games)]
        for i in range(num_games):
            self._refresh(i)

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(observations float32[N, obs], masks bool[N, A], seats int[N]) of the seats to act.

        The arrays are reused by the next `step`; copy them to keep them."""
        return self.observations, self.masks, self.seats

    def step(self, actions: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Apply one action per game.

        Returns (done bool[N], returns float[N, num_players], lengths int[N]): for a game that
        just ended, its terminal returns and its number of asked decisions; that game has already
        restarted, so `observe()` shows its new deal."""
        n = self.num_games
        done = np.zeros(n, dtype=bool)
        returns = np.zeros((n, self.game.num_players))
        lengths = np.zeros(n, dtype=np.int64)
        for i, state in enumerate(self.states):
            state.apply(int(actions[i]))
            self.lengths[i] += 1
            self._play_forced(state)
            if state.is_terminal():
                done[i], returns[i], lengths[i] = True, state.returns(), self.lengths[i]
                self.states[i] = self._new_state(i)
                self.lengths[i] = 0
            self._refresh(i)
        return done, returns, lengths

    def all_seat_observations(self) -> np.ndarray:
        """float32[N, num_players, obs]: every seat's observation of every game (for bootstrapping)."""
        return np.stack([np.stack([s.observation(p) for p in range(self.game.num_players)])
                         for s in self.states])

    def state_tensors(self) -> np.ndarray:
        """float32[N, state]: every game's full-information vector (for privileged critics only)."""
        return np.stack([s.state_tensor() for s in self.states])

    # ----- internals -----------------------------------------------------------------------
    def _new_state(self, i: int) -> State:
        seed = self._deal_seed(i) if self._deal_seed is not None else None
        state = self.game.new_state(self._rng if seed is None else np.random.default_rng(seed))
        self._play_forced(state)
        return state

    def _play_forced(self, state: State) -> None:
        if self.auto_forced:
            while not state.is_terminal() and len(legal := state.legal_actions()) == 1:
                state.apply(legal[0])

    def _refresh(self, i: int) -> None:
        state = self.states[i]
        seat = state.current_player
        self.seats[i] = seat
        self.observations[i] = state.observation(seat)
        self.masks[i] = state.legal_mask()
