"""Batched Piles: B games as tensors, the same rules, observations and masks as
`card_envs.games.piles` (the reference, which the differential tests compare against).

State, one row per game (a last "trash" column takes the writes of rows that must not change):

| tensor | shape | meaning |
|---|---|---|
| `loc` | int64[B, 53] | where each card is: seat p's hand `p`; Castle position q `4 + q`; captured by team t `16 + t`; set aside for seat s `18 + s` |
| `height` | float32[B, 53] | (height in its pile + 1) / 52 of a Castle card (stale elsewhere: read with `loc`) |
| `tops`, `plen` | int64[B, 13] | top card and size of each Castle pile |
| `words` | int64[B, 41] | pass k's chance: the first 64-bit output of its generator (see `lemire`) |
| `hsize` | int64[B, 5] | cards in each seat's hand |
| `cur`, `turns`, `passes` | int64[B] | seat to act, decisions played, passes played (k of the next pass) |
| `colour0` | int64[B] | team 0's colour (0 red, 1 black), -1 until the first placement; team 1 has the other |
| `second` | bool[B] | the set-aside cards were dealt (2 players) |

Total values are not stored: each is the top's rank plus one neighbour sum, recomputed per step.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch

from card_envs.batch.base import BatchGame, get, lemire, put, through_snapshot
from card_envs.batch.three_piles.engine import fractions
from card_envs.core.cards import RANK
from card_envs.games.piles.rules import (
    COLOUR, HAND_SIZE, MAX_POINTS, MAX_TURNS, NEIGHBOURS, NUM_CARDS, NUM_POSITIONS, PASS, POINTS, SET_ASIDE,
    VALUE_HIGH, VALUE_LOW, PilesState)

TRASH = NUM_CARDS
CASTLE, CAPTURED, ASIDE = 4, 16, 18  # loc codes: + position, + team, + seat


class PilesBatch(BatchGame):
    env_id = "piles_v0"
    whole_states = False  # `state(i)` has no chance seed: the pass draws come from words it cannot hold

    def _allocate(self) -> None:
        B, dev, n = self.batch_size, self.device, self.num_players
        t = lambda x, **kw: torch.as_tensor(np.asarray(x), device=dev, **kw)  # noqa: E731
        self.rank = t([RANK[c] for c in range(NUM_CARDS)] + [0])
        self.colour = t(list(COLOUR) + [2])
        self.points = t(list(POINTS) + [0])
        adjacent = np.zeros((NUM_POSITIONS, NUM_POSITIONS), dtype=np.float32)
        for q, near in enumerate(NEIGHBOURS):
            adjacent[q, list(near)] = 1
        self.adjacent = t(adjacent)
        self.by52, self.by10, self.by40 = t(fractions(53, 52)), t(fractions(21, HAND_SIZE)), t(fractions(41, MAX_TURNS))
        self.by54 = t(fractions(55, MAX_POINTS))
        self.by20 = t(fractions(VALUE_HIGH - VALUE_LOW + 1, VALUE_HIGH - VALUE_LOW))  # top_value
        self.cards = torch.arange(NUM_CARDS, device=dev)
        self.positions = torch.arange(NUM_POSITIONS, device=dev)
        self.seats = torch.arange(n, device=dev)
        # The reference's deal: a shuffled deck's first 10n cards to the hands in turn, the next
        # 12 to the Castle in position order, the rest (2 players) set aside for seats 0, 1, 0, ...
        deal = [p for p in range(n) for _ in range(HAND_SIZE)] + [CASTLE + q for q in range(NUM_POSITIONS)]
        deal += [ASIDE + i % 2 for i in range(NUM_CARDS - len(deal))]
        self.deal_code = t(deal)
        zeros = lambda *shape: torch.zeros(*shape, dtype=torch.int64, device=dev)  # noqa: E731
        self.loc, self.tops, self.plen, self.hsize = zeros(B, 53), zeros(B, 13), zeros(B, 13), zeros(B, 5)
        self.words = zeros(B, 41)
        self.height = torch.zeros(B, 53, device=dev)
        self.cur, self.turns, self.passes, self.colour0 = zeros(B), zeros(B), zeros(B), zeros(B)
        self.second = torch.zeros(B, dtype=torch.bool, device=dev)

    # ----- deals and conversions --------------------------------------------------------------
    def _deal(self, rows: torch.Tensor) -> None:
        m, n, dev = len(rows), self.num_players, self.device
        perm = torch.rand(m, NUM_CARDS, generator=self.generator, device=dev).argsort(1)
        loc = torch.empty(m, 53, dtype=torch.int64, device=dev)
        loc[:, TRASH] = 0
        loc.scatter_(1, perm, self.deal_code.expand(m, -1))
        self.loc[rows] = loc
        tops = perm[:, HAND_SIZE * n:HAND_SIZE * n + NUM_POSITIONS]
        height = torch.zeros(m, 53, device=dev)
        height.scatter_(1, tops, self.by52[1].expand(m, NUM_POSITIONS).contiguous())
        self.height[rows] = height
        self.tops[rows] = torch.cat([tops, tops[:, :1]], 1)
        self.plen[rows] = 1
        self.words[rows] = torch.randint(-2**63, 2**63 - 1, (m, 41), generator=self.generator, device=dev)
        self.hsize[rows] = torch.tensor([HAND_SIZE] * n + [0] * (5 - n), device=dev)
        self.cur[rows], self.turns[rows], self.passes[rows], self.colour0[rows] = 0, 0, 0, -1
        self.second[rows] = False

    def _load(self, states: Sequence[PilesState], rows: torch.Tensor) -> None:
        states = through_snapshot(self.game, states)  # a state edited in Python is checked as a snapshot
        m = len(states)
        a = {name: np.zeros((m, *t.shape[1:]), dtype=np.int64) for name, t in self._tensors().items()}
        a["height"] = np.zeros((m, 53), dtype=np.float32)
        a["words"] = np.zeros((m, 41), dtype=np.uint64)  # random_raw is unsigned
        by52 = fractions(53, 52)
        for i, st in enumerate(states):
            for p, hand in enumerate(st.hands):
                a["loc"][i, hand] = p
                a["hsize"][i, p] = len(hand)
            for q, pile in enumerate(st.piles):
                a["loc"][i, pile] = CASTLE + q
                a["height"][i, pile] = by52[1:len(pile) + 1]
                a["tops"][i, q], a["plen"][i, q] = pile[-1], len(pile)
            for team, cards in enumerate(st.captured):
                a["loc"][i, cards] = CAPTURED + team
            for j, c in enumerate(st.set_aside):
                a["loc"][i, c] = ASIDE + j % 2
            a["passes"][i] = k = len(st.captured[0]) + len(st.captured[1])
            for j in range(k, MAX_TURNS):  # the draws of the passes to come
                a["words"][i, j] = np.random.default_rng((st.chance_seed, j)).bit_generator.random_raw()
            a["cur"][i], a["turns"][i] = st.current_player, MAX_TURNS - st.turns_left
            a["colour0"][i] = -1 if st.team_colours[0] is None else st.team_colours[0]
            a["second"][i] = self.num_players == 2 and not st.set_aside
        a["words"] = a["words"].view(np.int64)
        for name, value in a.items():
            target = getattr(self, name)
            target[rows] = torch.as_tensor(value, device=self.device).to(target.dtype)

    def _tensors(self) -> dict[str, torch.Tensor]:
        names = "loc tops plen words hsize cur turns passes colour0 second"
        return {name: getattr(self, name) for name in names.split()}

    def state(self, i: int) -> PilesState:
        """Game i as a reference state. Two things a batched game does not keep: the order in
        which cards were captured (given in card order) and a chance seed (given as 0: the
        reference state draws its passes from it, not from this game's words)."""
        n = self.num_players
        loc, height = self.loc[i, :NUM_CARDS].tolist(), self.height[i, :NUM_CARDS].tolist()
        at = lambda code: [c for c in range(NUM_CARDS) if loc[c] == code]  # noqa: E731
        hands = [at(p) for p in range(n)]
        piles = [sorted(at(CASTLE + q), key=height.__getitem__) for q in range(NUM_POSITIONS)]
        aside = [c for pair in zip(at(ASIDE), at(ASIDE + 1)) for c in pair] if n == 2 else []
        colour0 = int(self.colour0[i])
        colours = [None, None] if colour0 < 0 else [colour0, 1 - colour0]
        return PilesState(self.game, hands, piles, [at(CAPTURED), at(CAPTURED + 1)], aside, colours,
                          int(self.cur[i]), 0)

    # ----- rules ------------------------------------------------------------------------------
    def _apply(self, a: torch.Tensor, act: torch.Tensor) -> None:
        self._check_range(a, act)
        n, cur = self.num_players, self.cur
        pas, place = act & (a == PASS), act & (a < PASS)
        card, q = (a // NUM_POSITIONS).clamp(0, NUM_CARDS - 1), a % NUM_POSITIONS
        # A pass gives the i-th card of the passer's hand (card order) to the next seat's team.
        size = get(self.hsize, cur)
        i = lemire(get(self.words, self.passes), size)
        in_hand = self.loc[:, :NUM_CARDS] == cur[:, None]
        given = ((in_hand.cumsum(1) == (i + 1)[:, None]) & in_hand).to(torch.uint8).argmax(1)
        card = torch.where(place, card, torch.where(pas, given, TRASH))
        dest = torch.where(place, CASTLE + q, CAPTURED + (cur + 1) % n % 2)
        put(self.loc, card, dest, act)
        put(self.hsize, cur, size - 1, act)
        # A placement tops pile q; the first one fixes the colours.
        length = get(self.plen, q)
        put(self.height, card, self.by52[length + 1], place)
        put(self.plen, q, length + 1, place)
        put(self.tops, q, card, place)
        first = place & (self.colour0 < 0)
        colour = self.colour[card]
        self.colour0 = torch.where(first, torch.where(cur % 2 == 0, colour, 1 - colour), self.colour0)
        self.passes += pas.long()
        self.turns += act.long()
        self.cur = cur = torch.where(act, (cur + 1) % n, cur)
        if n == 2:  # both hands empty after 20 turns: deal the set-aside cards
            deal = act & (self.turns == SET_ASIDE) & ~self.second
            self.loc = torch.where(deal[:, None] & (self.loc >= ASIDE), self.loc - ASIDE, self.loc)
            self.hsize[:, :2] = torch.where(deal[:, None], HAND_SIZE, self.hsize[:, :2])
            self.second |= deal

    def _terminal(self) -> torch.Tensor:
        return self.turns >= MAX_TURNS

    def _values(self, rows: torch.Tensor | slice = slice(None)) -> tuple[torch.Tensor, torch.Tensor]:
        """(colour of each top [rows, 12], total value of each top [rows, 12])."""
        tops = self.tops[rows, :NUM_POSITIONS]
        colour = self.colour[tops]
        sign = (1 - 2 * colour).float()  # red +1, black -1: alike neighbours multiply to +1
        near = (sign @ self.adjacent).long()
        return colour, self.rank[tops] + (1 - 2 * colour) * near

    def _mask(self) -> torch.Tensor:
        B = self.batch_size
        mask = torch.empty(B, self.num_actions, dtype=torch.bool, device=self.device)
        colour, value = self._values()
        in_hand = self.loc[:, :NUM_CARDS, None] == self.cur[:, None, None]
        fits = (self.colour[:NUM_CARDS, None] == colour[:, None, :]) | (self.rank[:NUM_CARDS, None] > value[:, None, :])
        mask[:, :PASS].view(B, NUM_CARDS, NUM_POSITIONS).copy_(fits & in_hand)
        mask[:, PASS] = ~self._terminal()
        return mask

    def _points(self, rows: torch.Tensor | slice = slice(None)) -> torch.Tensor:
        """Each team's points if the game ended now [rows, 2] (0, 0 before the colours are fixed).

        A card scores for the team that holds it (captured it, or tops its pile with that
        team's colour) when its colour is not that team's."""
        loc, colour0 = self.loc[rows, :NUM_CARDS], self.colour0[rows]
        top_colour, _ = self._values(rows)
        castle = (loc >= CASTLE) & (loc < CAPTURED)
        under = top_colour.gather(1, (loc - CASTLE).clamp(0, NUM_POSITIONS - 1))  # colour of the pile's top
        owner = torch.where(castle, (under != colour0[:, None]).long(), loc - CAPTURED)
        held = castle | (loc == CAPTURED) | (loc == CAPTURED + 1)
        owner_colour = torch.where(owner == 0, colour0[:, None], 1 - colour0[:, None])
        scoring = torch.where(held & (self.colour[:NUM_CARDS] != owner_colour), self.points[:NUM_CARDS], 0)
        points = torch.stack([(scoring * (owner == t)).sum(1) for t in (0, 1)], 1)
        return torch.where((colour0 >= 0)[:, None], points, 0)

    def _returns(self, rows: torch.Tensor) -> torch.Tensor:
        points = self._points(rows).double()
        diff = points[:, 0] - points[:, 1]
        diff = diff.sign() if self.game.reward == "win" else diff / MAX_POINTS
        team0 = (self.seats % 2 == 0)
        return torch.where(team0, diff[:, None], -diff[:, None]).float()

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        """Each game's observation by `seat` (default: the acting seat), piece by piece into
        `observation_layout` (seats and teams relative to the observer)."""
        B, n, cur = self.batch_size, self.num_players, self.cur if seat is None else seat
        obs = torch.empty(B, self.observation_size, device=self.device)
        v = self.game.observation_layout.views(obs)
        order = (cur[:, None] + self.seats) % n
        loc = self.loc[:, :NUM_CARDS]
        team = cur % 2
        teams = torch.stack([team, 1 - team], 1)  # relative team -> absolute team
        own_colour = torch.where(team == 0, self.colour0, 1 - self.colour0)
        colours = torch.stack([own_colour, 1 - own_colour], 1)  # of own team, other team
        _, value = self._values()
        v["hand"].copy_(loc == cur[:, None])
        v["team"].copy_(torch.stack([team == 0, team == 1], 1))
        v["team_colour"].copy_((colours[:, :, None] == self.seats[:2]) & (self.colour0 >= 0)[:, None, None])
        v["top"].copy_(self.cards == self.tops[:, :NUM_POSITIONS, None])
        on_pile = loc[:, None, :] == CASTLE + self.positions[:, None]
        v["pile_cards"].copy_(torch.where(on_pile, self.height[:, None, :NUM_CARDS], 0))
        v["top_value"].copy_(self.by20[value - VALUE_LOW])
        v["captured"].copy_(loc[:, None, :] == CAPTURED + teams[:, :, None])
        v["unseen"].copy_(((loc < n) & (loc != cur[:, None])) | (loc >= ASIDE))
        v["hand_sizes"].copy_(self.by10[self.hsize.gather(1, order)])
        v["turns_left"].copy_(self.by40[MAX_TURNS - self.turns][:, None])
        v["scores"].copy_(self.by54[self._points().gather(1, teams)])
        v["to_move"].copy_(self.seats == ((self.cur - cur) % n)[:, None])
        v["second_deal"].copy_(self.second[:, None])
        return obs

    def state_tensors(self) -> torch.Tensor:
        """float32[B, state_size]: each game's full information (`game.state_layout`, absolute
        seats and teams, hands and set-aside cards included) as the reference's
        `state_tensor()`: for centralised critics only."""
        B, n, cur = self.batch_size, self.num_players, self.cur
        out = torch.empty(B, self.game.state_layout.size, device=self.device)
        v = self.game.state_layout.views(out)
        loc = self.loc[:, None, :NUM_CARDS]
        seats, two = self.seats[:, None], self.seats[:2]
        _, value = self._values()
        v["hands"].copy_(loc == seats)
        v["set_aside"].copy_(loc == ASIDE + seats)
        v["top"].copy_(self.cards == self.tops[:, :NUM_POSITIONS, None])
        on_pile = loc == CASTLE + self.positions[:, None]
        v["pile_cards"].copy_(torch.where(on_pile, self.height[:, None, :NUM_CARDS], 0))
        v["top_value"].copy_(self.by20[value - VALUE_LOW])
        v["captured"].copy_(loc == CAPTURED + two[:, None])
        v["unseen"].copy_(((loc < n) & (loc != seats)) | (loc >= ASIDE))
        v["hand_sizes"].copy_(self.by10[self.hsize[:, :n]])
        v["turns_left"].copy_(self.by40[MAX_TURNS - self.turns][:, None])
        v["seat_team"].copy_(seats % 2 == two)
        colours = torch.stack([self.colour0, 1 - self.colour0], 1)
        v["team_colour"].copy_((colours[:, :, None] == two) & (self.colour0 >= 0)[:, None, None])
        v["scores"].copy_(self.by54[self._points()])
        v["to_move"].copy_(self.seats == cur[:, None])
        v["second_deal"].copy_(self.second[:, None])
        return out
