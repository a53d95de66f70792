"""The Split the Hoard Game: configuration, action names, state creation; wires in the
observation encoder, the render and the snapshot code."""

from __future__ import annotations

from typing import Any

import numpy as np

from card_envs.core.game import ArgumentError, Game, State, is_integer
from card_envs.core.text import show
from card_envs.core.rewards import check_reward_mode
from card_envs.games.split_the_hoard.cards import load_cards
from card_envs.games.split_the_hoard.encode import Encoder
from card_envs.games.split_the_hoard import board, render
from card_envs.games.split_the_hoard.rules import CLASS_POWER_MODES, MAX_OTHERS, STARTING_COINS, SplitTheHoardState
from card_envs.games.split_the_hoard.snapshot import state_from_json, state_to_json


class SplitTheHoardGame(Game):
    name = "split_the_hoard"
    version = 0
    snapshot_format = 1

    def __init__(self, num_players: int = 3, class_powers: str = "full", starting_title_vp: int = 30,
                 reward: str = "win", cards: str | None = None):
        if not is_integer(num_players) or not 2 <= num_players <= 5:
            raise ArgumentError(f"num_players={num_players!r} is not supported; use 2, 3 (default), 4 or 5")
        if class_powers not in CLASS_POWER_MODES:
            raise ArgumentError(f"class_powers={class_powers!r} is not supported; use one of {CLASS_POWER_MODES}")
        if not is_integer(starting_title_vp) or not 0 <= starting_title_vp <= 1000:
            raise ArgumentError(f"starting_title_vp={starting_title_vp!r} must be an integer in 0..1000")
        if cards is not None and not isinstance(cards, str):
            raise ArgumentError(f"cards={cards!r} must be a path (str) to a cards file, or None")
        self.num_players = n = int(num_players)
        self.class_powers, self.starting_title_vp = class_powers, int(starting_title_vp)
        self.powers = class_powers == "full"
        self.reward = check_reward_mode(reward)
        self.cards_path = cards
        try:
            self.cards = cs = load_cards(cards)
        except ValueError as error:  # an unreadable or invalid cards file is a bad argument too
            raise ArgumentError(str(error)) from None
        if cs.num_cards < 3 * n + STARTING_COINS * n:
            raise ArgumentError(f"cards: {cs.num_cards} Hoard cards are too few for {n} players")
        nn = cs.num_names
        # actions: names, then target seats, Negotiate Cards, draw 2, yes, done, class power
        self.TARGET0, self.SLOT0 = nn, nn + MAX_OTHERS
        self.DRAW2, self.YES, self.DONE, self.POWER = nn + 7, nn + 8, nn + 9, nn + 10
        self.num_actions = nn + 11
        self.others = [tuple((p + i) % n for i in range(1, n)) for p in range(n)]
        # Rounds: each deals 3n cards that never return to the deck (a Wizard's Scry puts back 1
        # of 3n + 1), and the last one fails to deal; see the doc page for the decision bound.
        self.max_rounds = (cs.num_cards - STARTING_COINS * n) // (3 * n) + 1
        uses = cs.num_cards + 5 * max(1, cs.num_names)  # ability uses: a Treasure is used once per entry
        self.max_game_length = self.max_rounds * (cs.num_cards + 12 * n + 4) + uses * (10 + 2 * n)
        self.max_score = 5 * self.starting_title_vp + cs.max_hidden_vp + cs.total_vp
        self.reward_range = (-1.0, 1.0)
        self.encoder = Encoder(self)
        self.observation_layout = self.encoder.observation_layout
        self.state_layout = self.encoder.state_layout

    @property
    def config(self) -> dict[str, Any]:
        return {"num_players": self.num_players, "class_powers": self.class_powers,
                "starting_title_vp": self.starting_title_vp, "reward": self.reward, "cards": self.cards_path}

    # ----- actions -------------------------------------------------------------------------
    def target_action(self, actor: int, q: int) -> int:
        return self.TARGET0 + (q - actor) % self.num_players - 1

    def seat_of_target(self, actor: int, action: int) -> int:
        return (actor + action - self.TARGET0 + 1) % self.num_players

    def action_to_string(self, action: int) -> str:
        if not is_integer(action) or not 0 <= action < self.num_actions:
            raise ValueError(f"action {show(action)} is not in 0..{self.num_actions - 1}")
        nn = self.cards.num_names
        if action < nn:
            return self.cards.names[action]
        if action < self.SLOT0:
            return f"player +{action - nn + 1}"
        if action < self.DRAW2:
            k = action - self.SLOT0 + 1
            return f"negotiate card {k} ({k} coin{'s' if k > 1 else ''})"
        return {self.DRAW2: "draw 2 coins", self.YES: "yes", self.DONE: "done", self.POWER: "class power"}[action]

    def new_state(self, rng: np.random.Generator) -> SplitTheHoardState:
        s = SplitTheHoardState(self)
        n, cs = self.num_players, self.cards
        s.deck = rng.permutation(cs.num_cards).tolist()
        titles = rng.permutation(len(cs.hidden)).tolist()
        s.titles = [titles.pop() for _ in range(n)]
        s.title_deck = sorted(titles)
        s.classes = [int(c) for c in rng.choice(len(cs.classes), size=n, replace=False)]
        for p in range(n):
            for _ in range(STARTING_COINS):
                s.coins[p].append(s.deck.pop())
        s.dragon = int(rng.integers(n))
        s._start_round()
        s._advance()
        return s

    def render(self, state: State, viewer: int | None) -> str:
        return render.render_text(state, viewer)

    def board_zones(self, state: SplitTheHoardState, viewer: int | None) -> list[dict[str, Any]]:
        return board.board_zones(state, viewer)

    def card_notes(self) -> dict[str, str]:
        return board.card_notes(self)

    def replay_style(self) -> dict[str, Any]:
        return board.STYLE

    def describe_move(self, state: SplitTheHoardState, action: int) -> tuple[str, str]:
        return render.describe_move(state, action)

    def secret_move(self, state: SplitTheHoardState, action: int) -> bool:
        return render.secret_move(state, action)

    def secret_move_revealed(self, state: SplitTheHoardState, action: int, later: SplitTheHoardState) -> bool:
        return render.secret_move_revealed(state, action, later)

    def final_scoring(self, state: SplitTheHoardState) -> list[str]:
        return render.final_scoring(state)

    def state_from_json(self, data: dict[str, Any]) -> SplitTheHoardState:
        return state_from_json(self, data)

    def state_to_json(self, state: SplitTheHoardState) -> dict[str, Any]:
        return state_to_json(state)
