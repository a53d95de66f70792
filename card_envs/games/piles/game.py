"""The Piles Game: configuration, state creation; wires in the render and snapshot code."""

from __future__ import annotations

from typing import Any

import numpy as np

from card_envs.core.cards import shuffled_deck
from card_envs.core.game import ArgumentError, Game, State, is_integer
from card_envs.core.rewards import check_reward_mode
from card_envs.games.piles.board import STYLE, board_zones
from card_envs.games.piles.render import render_text
from card_envs.games.piles.rules import (
    HAND_SIZE, MAX_TURNS, NUM_ACTIONS, NUM_POSITIONS, PilesState, describe_action, observation_gathers,
    observation_layout, state_layout, team_of)
from card_envs.games.piles.snapshot import state_from_json, state_to_json


class PilesGame(Game):
    name = "piles"
    version = 0
    snapshot_format = 2  # 2 added last_move; format 1 snapshots still load

    def __init__(self, num_players: int = 4, reward: str = "win"):
        if not is_integer(num_players) or num_players not in (2, 4):
            raise ArgumentError(f"num_players={num_players!r} is not supported; use 4 (default, two teams) or 2")
        self.num_players = n = int(num_players)
        self.reward = check_reward_mode(reward)
        self.num_actions = NUM_ACTIONS
        self.state_layout = state_layout(n)
        self.observation_layout = observation_layout(n)
        self.max_game_length = MAX_TURNS
        self.reward_range = (-1.0, 1.0)
        self._gathers = observation_gathers(n, self.state_layout)
        off = {name: sl.start for name, sl in self.state_layout.slices.items()}
        # Start offsets into the feature store, as plain attributes: read on every move.
        self.o_hands, self.o_set_aside, self.o_top = off["hands"], off["set_aside"], off["top"]
        self.o_pile, self.o_value, self.o_captured = off["pile_cards"], off["top_value"], off["captured"]
        self.o_unseen, self.o_sizes, self.o_turns = off["unseen"], off["hand_sizes"], off["turns_left"]
        self.o_colour, self.o_scores, self.o_move = off["team_colour"], off["scores"], off["to_move"]
        self.o_second, self.o_seat_team = off["second_deal"], off["seat_team"]
        self.others = [tuple(q for q in range(n) if q != seat) for seat in range(n)]

    @property
    def config(self) -> dict[str, Any]:
        return {"num_players": self.num_players, "reward": self.reward}

    def team_of(self, seat: int) -> int:
        return team_of(seat)

    def new_state(self, rng: np.random.Generator) -> PilesState:
        deck = shuffled_deck(rng)
        n = self.num_players
        hands = [sorted(deck[HAND_SIZE * s:HAND_SIZE * (s + 1)]) for s in range(n)]
        castle = [[c] for c in deck[HAND_SIZE * n:HAND_SIZE * n + NUM_POSITIONS]]
        set_aside = deck[HAND_SIZE * n + NUM_POSITIONS:]  # 20 cards with 2 players, none with 4
        chance_seed = int(rng.integers(2**63))
        return PilesState(self, hands, castle, [[], []], set_aside, [None, None], 0, chance_seed)

    def action_to_string(self, action: int) -> str:
        return describe_action(action)

    def render(self, state: State, viewer: int | None) -> str:
        return render_text(state, viewer)

    def board_zones(self, state: PilesState, viewer: int | None) -> list[dict[str, Any]]:
        return board_zones(state, viewer)

    def replay_style(self) -> dict[str, Any]:
        return STYLE

    def state_from_json(self, data: dict[str, Any]) -> PilesState:
        return state_from_json(self, data)

    def state_to_json(self, state: PilesState) -> dict[str, Any]:
        return state_to_json(state)
