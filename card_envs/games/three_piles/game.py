"""The 3 Piles Game: configuration, state creation; wires in the render and snapshot code."""

from __future__ import annotations

from typing import Any

import numpy as np

from card_envs.core.cards import shuffled_deck
from card_envs.core.game import ArgumentError, Game, State, is_integer
from card_envs.core.rewards import check_reward_mode
from card_envs.core.boards import STANDARD_STYLE
from card_envs.games.three_piles.board import board_zones
from card_envs.games.three_piles.render import render_text
from card_envs.games.three_piles.rules import (
    CHOOSE, HAND_SIZE, NUM_ACTIONS, NUM_PILES, NUM_STACKS, ThreePilesState, describe_action, observation_gathers,
    observation_layout, state_layout)
from card_envs.games.three_piles.snapshot import state_from_json, state_to_json


class ThreePilesGame(Game):
    name = "three_piles"
    version = 0
    snapshot_format = 2  # 2 added last_move; format 1 snapshots still load

    def __init__(self, num_players: int = 2, reward: str = "win"):
        if not is_integer(num_players) or not 2 <= num_players <= 4:
            raise ArgumentError(f"num_players={num_players!r} is not supported; use 2 (default), 3 or 4")
        self.num_players = int(num_players)
        self.reward = check_reward_mode(reward)
        self.num_actions = NUM_ACTIONS
        self.state_layout = state_layout(num_players)
        self.observation_layout = observation_layout(num_players)
        self.max_game_length = 98 * num_players + 50  # proof in the package docstring
        self.reward_range = (-1.0, 1.0)
        self._gathers = observation_gathers(num_players, self.state_layout)
        s = self.state_layout.slices
        # Start offsets into the feature store, used by the incremental updates.
        self._off = {name: sl.start for name, sl in s.items()}

    @property
    def config(self) -> dict[str, Any]:
        return {"num_players": self.num_players, "reward": self.reward}

    def new_state(self, rng: np.random.Generator) -> ThreePilesState:
        deck = shuffled_deck(rng)  # deck[-1] is the top card
        hands = [sorted(deck.pop() for _ in range(HAND_SIZE)) for _ in range(self.num_players)]
        stacks = [[deck.pop()] for _ in range(NUM_STACKS)]
        piles = [[[] for _ in range(NUM_PILES)] for _ in range(self.num_players)]
        return ThreePilesState(self, hands, piles, stacks, deck, current=0, phase=CHOOSE, passes=0)

    def action_to_string(self, action: int) -> str:
        return describe_action(action)

    def render(self, state: State, viewer: int | None) -> str:
        return render_text(state, viewer)

    def board_zones(self, state: ThreePilesState, viewer: int | None) -> list[dict[str, Any]]:
        return board_zones(state, viewer)

    def replay_style(self) -> dict[str, Any]:
        return STANDARD_STYLE

    def state_from_json(self, data: dict[str, Any]) -> ThreePilesState:
        return state_from_json(self, data)

    def state_to_json(self, state: ThreePilesState) -> dict[str, Any]:
        return state_to_json(state)
