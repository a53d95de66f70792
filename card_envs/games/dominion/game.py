"""The Dominion Game: configuration, action names, state creation; wires in the render and snapshot code."""

from __future__ import annotations

from typing import Any

import numpy as np

from card_envs.core.game import ArgumentError, Game, is_integer
from card_envs.core.text import show
from card_envs.core.rewards import check_reward_mode
from card_envs.games.dominion import effects as fx
from card_envs.games.dominion.cards import (
    ALLIES, CARD_NAMES, KINGDOM_PILES, WIZARDS_PILE, NUM_PILES, PILE_ID, PILE_NAMES, PRESETS, BANE_CANDIDATES, pile_setup)
from card_envs.games.dominion.encode import Encoder
from card_envs.games.dominion import board, render
from card_envs.games.dominion.rules import YOUNG_WITCH_PILE, DominionState, draw_kingdom
from card_envs.games.dominion.snapshot import from_json, to_json

KINGDOM_CHOICES = tuple(PRESETS) + ("random", "random_train", "random_test")
SPLITS = {"random_train": "train", "random_test": "test"}  # held-out kingdoms: rules.held_out


def action_name(action: int) -> str:
    if action == fx.DONE:
        return "done"
    if action == fx.PLAY_ALL:
        return "play all treasures"
    if fx.CARD0 <= action < fx.PILE0:
        return f"card {CARD_NAMES[action - fx.CARD0]}"
    if fx.PILE0 <= action < fx.OPTION0:
        return f"pile {PILE_NAMES[action - fx.PILE0]}"
    return f"option {action - fx.OPTION0}"


class DominionGame(Game):
    name = "dominion"
    version = 0
    snapshot_format = 1
    render_head_lines = 2  # the render's first line names the kingdom, the second says whose turn
    quiet_forced_moves = ("done", "ends actions", "ends treasures", "ends buys")  # a phase ended for him

    def __init__(self, num_players: int = 2, kingdom: Any = "T1-A", bane: str | None = None,
                 max_turns: int = 100, reward: str = "win", ally: str | None = None):
        if not is_integer(num_players) or not 2 <= num_players <= 4:
            raise ArgumentError(f"num_players={num_players!r} is not supported; Dominion takes 2, 3 or 4 players")
        if not is_integer(max_turns) or not 1 <= max_turns <= 1000:
            raise ArgumentError(f"max_turns={max_turns!r} is not supported; it must be an integer in 1..1000")
        self.reward = check_reward_mode(reward)
        self.num_players, self.max_turns = int(num_players), int(max_turns)
        self._kingdom_arg = list(kingdom) if isinstance(kingdom, (list, tuple)) else kingdom
        self.fixed_kingdom = self._parse_kingdom(kingdom)
        self.kingdom_split = SPLITS.get(kingdom) if isinstance(kingdom, str) else None
        if bane is not None:
            if not isinstance(bane, str) or bane not in PILE_ID or PILE_ID[bane] not in BANE_CANDIDATES:
                raise ArgumentError(f"bane={bane!r} is not supported; a Bane is one of "
                                    f"{[PILE_NAMES[p] for p in BANE_CANDIDATES]}")
            if self.fixed_kingdom is None or YOUNG_WITCH_PILE not in self.fixed_kingdom \
                    or PILE_ID[bane] in self.fixed_kingdom:
                raise ArgumentError(f"bane={bane!r} must be set only with a fixed kingdom holding Young Witch, "
                                    "and must not be one of its 10 piles")
        self.bane_arg = bane
        if ally is not None:
            if not isinstance(ally, str) or ally not in ALLIES:
                raise ArgumentError(f"ally={ally!r} is not supported; the Allies are {list(ALLIES)}")
            if self.fixed_kingdom is not None and WIZARDS_PILE not in self.fixed_kingdom \
                    and (bane is None or PILE_ID[bane] != WIZARDS_PILE):
                raise ArgumentError(f"ally={ally!r} needs a Liaison: Wizards (Student) must be in the kingdom")
        self.ally_arg = ally
        self.num_actions = fx.NUM_ACTIONS
        self.encoder = Encoder(self)
        self.observation_layout = self.encoder.obs_layout
        self.state_layout = self.encoder.state_layout
        # Every pile of the card list (in this game or not): one bound for every kingdom, a random
        # one included (the doc page's C: 444, 463, 466 cards with 2, 3, 4 players).
        total_cards = sum(len(pile_setup(p, self.num_players)) for p in range(NUM_PILES))
        # Per turn every decision plays, moves, buys or passes: at most 6 per card in the game.
        self.max_game_length = self.num_players * self.max_turns * (6 * total_cards + 10)
        self.reward_range = (-1.0, 1.0)

    @staticmethod
    def _parse_kingdom(kingdom: Any) -> list[int] | None:
        if isinstance(kingdom, str):
            if kingdom in ("random", *SPLITS):
                return None
            if kingdom in PRESETS:
                return sorted(PILE_ID[x] for x in PRESETS[kingdom])
            raise ArgumentError(f"kingdom={kingdom!r} is not supported; use one of {KINGDOM_CHOICES} or a list of "
                                "10 Kingdom pile names")
        names = [PILE_NAMES[p] for p in KINGDOM_PILES]
        if not isinstance(kingdom, (list, tuple)) or len(kingdom) != 10:
            raise ArgumentError(f"kingdom={kingdom!r} is not supported; use one of {KINGDOM_CHOICES} or a list of "
                                f"10 Kingdom pile names from {names}")
        bad = [x for x in kingdom if not isinstance(x, str) or x not in names]
        if bad or len(set(kingdom)) != 10:
            raise ArgumentError(f"kingdom: {bad or 'repeated names'} not accepted; the Kingdom piles are {names}")
        return sorted(PILE_ID[x] for x in kingdom)

    @property
    def config(self) -> dict[str, Any]:
        return {"num_players": self.num_players, "kingdom": self._kingdom_arg, "bane": self.bane_arg,
                "max_turns": self.max_turns, "reward": self.reward, "ally": self.ally_arg}

    def new_state(self, rng: np.random.Generator) -> DominionState:
        bane = PILE_ID[self.bane_arg] if self.bane_arg else -1
        ally = ALLIES.index(self.ally_arg) if self.ally_arg else -1
        kingdom, bane, ally = draw_kingdom(rng, self.fixed_kingdom, bane, ally, self.kingdom_split)
        state = DominionState(self)
        state.setup(kingdom, bane, int(rng.integers(2**62)), ally)
        return state

    def state_from_json(self, data: dict[str, Any]) -> DominionState:
        return from_json(self, data)

    def state_to_json(self, state: DominionState) -> dict[str, Any]:
        return to_json(state)

    def action_to_string(self, action: int) -> str:
        if not is_integer(action) or not 0 <= action < self.num_actions:
            raise ValueError(f"action {show(action)} is not in 0..{self.num_actions - 1}")
        return action_name(int(action))

    def render(self, state: DominionState, viewer: int | None) -> str:
        return render.render_text(state, viewer)

    def board_zones(self, state: DominionState, viewer: int | None) -> list[dict[str, Any]]:
        return board.board_zones(state, viewer)

    def card_notes(self) -> dict[str, str]:
        return board.card_notes()

    def replay_style(self) -> dict[str, Any]:
        return board.STYLE

    def describe_move(self, state: DominionState, action: int) -> tuple[str, str]:
        return render.describe_move(state, action)

    def secret_move(self, state: DominionState, action: int) -> bool:
        return render.secret_move(state, action)

