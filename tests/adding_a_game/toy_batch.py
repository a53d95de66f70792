"""Batched High Card (``card_envs/batch/<game>/engine.py`` in a game of the package): B games as
torch tensors, the same rules, observations and masks as the rules engine, which
`card_envs.batch.check.differential` compares it with step by step.

| tensor | shape | meaning |
|---|---|---|
| `loc` | int64[B, 10] | where card ``c + 1`` is: seat p's hand ``p``, the table ``TABLE``, face down ``UNDEALT``, played by seat p ``PLAYED + p`` |
| `history` | int64[B, 3, 3] | finished trick k: (leader, led card, answer) |
| `count`, `table`, `cur` | int64[B] | finished tricks, the card index led (-1: none), the seat to act |
| `won` | int64[B, 2] | tricks won by each seat |
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch

from card_envs.batch.base import BatchGame
from tests.adding_a_game.toy_game import HAND_SIZE, NUM_CARDS, NUM_TRICKS, HighCardState

TABLE, UNDEALT, PLAYED = 2, 3, 4


class HighCardBatch(BatchGame):
    env_id = "high_card_v0"

    def _allocate(self) -> None:
        B, dev = self.batch_size, self.device
        self.loc = torch.zeros(B, NUM_CARDS, dtype=torch.int64, device=dev)
        self.history = torch.zeros(B, NUM_TRICKS, 3, dtype=torch.int64, device=dev)
        self.count, self.table, self.cur = (torch.zeros(B, dtype=torch.int64, device=dev) for _ in range(3))
        self.won = torch.zeros(B, 2, dtype=torch.int64, device=dev)
        # tricks / 3 rounded once from float64, as the reference's features are
        self.thirds = torch.tensor(np.arange(NUM_TRICKS + 1) / NUM_TRICKS, dtype=torch.float32, device=dev)

    def _deal(self, rows: torch.Tensor) -> None:
        order = torch.rand(len(rows), NUM_CARDS, generator=self.generator, device=self.device).argsort(1)
        loc = torch.full_like(order, UNDEALT)
        loc.scatter_(1, order[:, :HAND_SIZE], 0)
        loc.scatter_(1, order[:, HAND_SIZE:2 * HAND_SIZE], 1)
        self.loc[rows] = loc
        self.history[rows], self.count[rows], self.table[rows], self.cur[rows], self.won[rows] = 0, 0, -1, 0, 0

    def _apply(self, actions: torch.Tensor, active: torch.Tensor) -> None:
        rows = active.nonzero()[:, 0]
        card, seat = actions[rows], self.cur[rows]
        leads = self.table[rows] < 0
        lead, answer = rows[leads], rows[~leads]  # a lead goes to the table; the other seat answers
        self.loc[lead, card[leads]] = TABLE
        self.table[lead], self.cur[lead] = card[leads], 1 - seat[leads]
        led, played, follower = self.table[answer], card[~leads], seat[~leads]
        leader = 1 - follower
        winner = torch.where(led > played, leader, follower)  # the higher card takes the trick
        self.loc[answer, led], self.loc[answer, played] = PLAYED + leader, PLAYED + follower
        self.history[answer, self.count[answer]] = torch.stack([leader, led + 1, played + 1], 1)
        self.count[answer] += 1
        self.won[answer, winner] += 1
        self.table[answer], self.cur[answer] = -1, winner

    def _mask(self) -> torch.Tensor:
        return self.loc == self.cur[:, None]

    def _pieces(self, layout, seats: Sequence[torch.Tensor]) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """The pieces both layouts share, for `seats` (int64[B] each, in the layout's order)."""
        out = torch.zeros(self.batch_size, layout.size, device=self.device)
        v = layout.views(out)
        v["table"].copy_(self.loc == TABLE)
        for k, seat in enumerate(seats):
            v["played"][:, k].copy_(self.loc == PLAYED + seat[:, None])
            v["tricks"][:, k] = self.thirds[self.won.gather(1, seat[:, None])[:, 0]]
            v["to_move"][:, k] = ((self.cur == seat) & (self.count < NUM_TRICKS)).float()
        return out, v

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        seat = self.cur if seat is None else seat
        other = 1 - seat
        out, v = self._pieces(self.game.observation_layout, (seat, other))
        v["hand"].copy_(self.loc == seat[:, None])
        v["unseen"].copy_((self.loc == other[:, None]) | (self.loc == UNDEALT))
        return out

    def state_tensors(self) -> torch.Tensor:
        seats = [torch.full_like(self.cur, s) for s in (0, 1)]
        out, v = self._pieces(self.game.state_layout, seats)
        for s in (0, 1):
            v["hands"][:, s].copy_(self.loc == s)
        v["undealt"].copy_(self.loc == UNDEALT)
        return out

    def _terminal(self) -> torch.Tensor:
        return self.count == NUM_TRICKS

    def _returns(self, rows: torch.Tensor) -> torch.Tensor:
        margin = (self.won[rows, 0] - self.won[rows, 1]).double()
        first = margin.sign() if self.game.reward == "win" else margin / NUM_TRICKS
        return torch.stack([first, -first], 1).float()

    # ----- to and from the rules engine's states ----------------------------------------------
    def _load(self, states: Sequence[HighCardState], rows: torch.Tensor) -> None:
        for i, state in zip(rows.tolist(), states):
            loc = [UNDEALT] * NUM_CARDS
            for seat, hand in enumerate(state.hands):
                for c in hand:
                    loc[c - 1] = seat
            for leader, led, answer in state.tricks:
                loc[led - 1], loc[answer - 1] = PLAYED + leader, PLAYED + 1 - leader
            if state.table is not None:
                loc[state.table - 1] = TABLE
            self.loc[i] = torch.tensor(loc)
            self.history[i] = 0
            if state.tricks:
                self.history[i, :len(state.tricks)] = torch.tensor(state.tricks)
            self.count[i] = len(state.tricks)
            self.table[i] = -1 if state.table is None else state.table - 1
            self.cur[i] = state.current_player
            self.won[i] = torch.tensor(state.scores())

    def state(self, i: int) -> HighCardState:
        loc = self.loc[i].tolist()
        hands = [[c + 1 for c in range(NUM_CARDS) if loc[c] == seat] for seat in (0, 1)]
        undealt = [c + 1 for c in range(NUM_CARDS) if loc[c] == UNDEALT]
        tricks = [tuple(t) for t in self.history[i, :int(self.count[i])].tolist()]
        table = int(self.table[i])
        return HighCardState(self.game, hands, undealt, tricks, None if table < 0 else table + 1, int(self.cur[i]))
