"""Batched 3 Piles: B games as tensors, the same rules, observations and masks as
`card_envs.games.three_piles` (the reference, which the differential tests compare against).

State, one row per game (a last "trash" column takes the writes of rows that must not change):

| tensor | shape | meaning |
|---|---|---|
| `loc` | int64[B, 53] | where each card is: seat p's hand `p`; pile k of seat p `4 + 3p + k`; stack s `16 + s`; deck `19` |
| `spos` | float32[B, 53] | (position from the bottom + 1) / 52 of a card on a stack (stale elsewhere: read with `loc`) |
| `stack_ord` | int64[B, 157] | stack s, position i (bottom 0) at `52s + i` |
| `stack_len` | int64[B, 4] | cards on each stack |
| `deck`, `deck_len` | int64[B, 53], int64[B] | the deck, bottom .. top, and its size |
| `lo`, `hi`, `plen` | int64[B, 13] | lowest and highest rank (14 and 0 when empty) and size of pile `3p + k` |
| `diamonds`, `hsize` | int64[B, 5] | diamonds in each seat's piles, cards in each seat's hand |
| `cur`, `phase`, `passes` | int64[B] | seat to act, 0 choose / 1 place, consecutive passes |

Hands and piles need no order of their own: a hand is the cards whose `loc` is the seat (in card
order, as the reference keeps it), a pile the cards whose `loc` is that pile (rank order).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch

from card_envs.batch.base import BatchGame, get, through_snapshot, put
from card_envs.core.cards import DIAMONDS, RANK, SUIT
from card_envs.games.three_piles.rules import (
    DRAW, EMPTY_HI, EMPTY_LO, MAX_SCORE, NUM_CARDS, PASS, PLAY_BASE, ThreePilesState)

DECK = 19  # loc code of a deck card
TRASH = NUM_CARDS  # the 53rd card column


def hand_code(p):
    return p


def pile_code(p, k):
    return 4 + 3 * p + k


def stack_code(s):
    return 16 + s


def fractions(count: int, denominator: int) -> np.ndarray:
    """i / denominator for i in 0..count-1 as float32, rounded once from float64 as the
    reference's features are."""
    return (np.arange(count) / denominator).astype(np.float32)


class ThreePilesBatch(BatchGame):
    env_id = "three_piles_v0"

    def _allocate(self) -> None:
        B, dev, n = self.batch_size, self.device, self.num_players
        t = lambda x, **kw: torch.as_tensor(np.asarray(x), device=dev, **kw)  # noqa: E731
        self.rank = t([RANK[c] for c in range(NUM_CARDS)] + [0])  # [53], the trash card has no rank
        self.diamond = t([int(SUIT[c] == DIAMONDS) for c in range(NUM_CARDS)] + [0])
        self.by52, self.by4, self.by35 = t(fractions(53, 52)), t(fractions(5, 4)), t(fractions(36, MAX_SCORE))
        self.by_n = t(fractions(n + 1, n))
        self.ranks13 = torch.arange(1, 14, device=dev)
        self.cards = torch.arange(NUM_CARDS, device=dev)
        self.three = torch.arange(3, device=dev)
        self.seats = torch.arange(n, device=dev)
        # The deal as the reference's new_state pops it off a shuffled deck's top (its end):
        # 3 cards to each seat in turn, then one to each stack; the rest is the deck.
        deal = np.full(NUM_CARDS, DECK)
        top = NUM_CARDS - 1
        for p in range(n):
            deal[top - 3 * p - 2:top - 3 * p + 1] = hand_code(p)
        self.deck_size0 = NUM_CARDS - 3 * n - 3
        for s in range(3):
            deal[top - 3 * n - s] = stack_code(s)
        self.deal_code = t(deal)
        zeros = lambda *shape: torch.zeros(*shape, dtype=torch.int64, device=dev)  # noqa: E731
        self.loc, self.stack_ord, self.stack_len = zeros(B, 53), zeros(B, 157), zeros(B, 4)
        self.spos = torch.zeros(B, 53, device=dev)
        self.deck, self.deck_len = zeros(B, 53), zeros(B)
        self.lo, self.hi, self.plen = zeros(B, 13), zeros(B, 13), zeros(B, 13)
        self.diamonds, self.hsize = zeros(B, 5), zeros(B, 5)
        self.cur, self.phase, self.passes = zeros(B), zeros(B), zeros(B)

    # ----- deals and conversions --------------------------------------------------------------
    def _shuffle(self, m: int) -> torch.Tensor:
        """int64[m, 52]: a shuffled deck for each of m new deals (both backends draw it so)."""
        return torch.rand(m, NUM_CARDS, generator=self.generator, device=self.device).argsort(1)

    def _deal(self, rows: torch.Tensor) -> None:
        m, n, dev = len(rows), self.num_players, self.device
        perm = self._shuffle(m)
        loc = torch.full((m, 53), DECK, dtype=torch.int64, device=dev)
        loc.scatter_(1, perm, self.deal_code.expand(m, -1))
        self.loc[rows] = loc
        first = self.deck_size0  # perm[:, first + 2 - s] lies on stack s
        tops = perm[:, first:first + 3].flip(1)
        spos = torch.zeros(m, 53, device=dev)
        spos.scatter_(1, tops, self.by52[1].expand(m, 3).contiguous())
        self.spos[rows] = spos
        stack_ord = torch.zeros(m, 157, dtype=torch.int64, device=dev)
        stack_ord[:, :156:52] = tops  # the bottom of each stack
        self.stack_ord[rows] = stack_ord
        self.stack_len[rows] = torch.tensor([1, 1, 1, 0], device=dev)
        deck = torch.zeros(m, 53, dtype=torch.int64, device=dev)
        deck[:, :first] = perm[:, :first]
        self.deck[rows], self.deck_len[rows] = deck, first
        self.lo[rows], self.hi[rows], self.plen[rows] = EMPTY_LO, EMPTY_HI, 0
        self.diamonds[rows], self.hsize[rows] = 0, torch.tensor([3] * n + [0] * (5 - n), device=dev)
        self.cur[rows], self.phase[rows], self.passes[rows] = 0, 0, 0

    def _load(self, states: Sequence[ThreePilesState], rows: torch.Tensor) -> None:
        states = through_snapshot(self.game, states)  # a state edited in Python is checked as a snapshot
        B = len(states)
        a = {name: np.zeros((B, *t.shape[1:]), dtype=np.int64) for name, t in self._tensors().items()}
        spos = np.zeros((B, 53), dtype=np.float32)
        by52 = fractions(53, 52)
        for i, st in enumerate(states):
            for p, hand in enumerate(st.hands):
                a["loc"][i, hand] = hand_code(p)
                a["hsize"][i, p] = len(hand)
                for k, pile in enumerate(st.piles[p]):
                    a["loc"][i, pile] = pile_code(p, k)
                    a["plen"][i, 3 * p + k] = len(pile)
                    a["lo"][i, 3 * p + k], a["hi"][i, 3 * p + k] = st.lo[p][k], st.hi[p][k]
                    a["diamonds"][i, p] += sum(SUIT[c] == DIAMONDS for c in pile)
            for s, stack in enumerate(st.stacks):
                a["loc"][i, stack] = stack_code(s)
                a["stack_ord"][i, 52 * s:52 * s + len(stack)] = stack
                a["stack_len"][i, s] = len(stack)
                spos[i, stack] = by52[1:len(stack) + 1]
            a["loc"][i, st.deck] = DECK
            a["deck"][i, :len(st.deck)] = st.deck
            a["deck_len"][i] = len(st.deck)
            a["cur"][i], a["phase"][i], a["passes"][i] = st.current_player, st.phase, st.passes
        a["spos"] = spos
        for name, value in a.items():
            getattr(self, name)[rows] = torch.as_tensor(value, device=self.device)

    def _tensors(self) -> dict[str, torch.Tensor]:
        names = "loc stack_ord stack_len deck deck_len lo hi plen diamonds hsize cur phase passes"
        return {name: getattr(self, name) for name in names.split()}

    def state(self, i: int) -> ThreePilesState:
        n = self.num_players
        v = {name: t[i].tolist() for name, t in self._tensors().items()}
        loc = v["loc"][:NUM_CARDS]
        by_rank = sorted(range(NUM_CARDS), key=RANK.__getitem__)
        cards_at = lambda code: [c for c in by_rank if loc[c] == code]  # noqa: E731
        hands = [sorted(cards_at(hand_code(p))) for p in range(n)]
        piles = [[cards_at(pile_code(p, k)) for k in range(3)] for p in range(n)]
        stacks = [v["stack_ord"][52 * s:52 * s + v["stack_len"][s]] for s in range(3)]
        return ThreePilesState(self.game, hands, piles, stacks, v["deck"][:v["deck_len"]], v["cur"],
                               v["phase"], v["passes"])

    # ----- rules ------------------------------------------------------------------------------
    def _apply(self, a: torch.Tensor, act: torch.Tensor) -> None:
        self._check_range(a, act)
        n, cur = self.num_players, self.cur
        take, draw, pas = act & (a < 9), act & (a == 9), act & (a == PASS)
        play = act & (a >= PLAY_BASE) & (a < PASS)
        s_take, k_take = (a // 3).clamp(0, 2), a % 3
        c_play, d_play = ((a - PLAY_BASE) // 6).clamp(0, NUM_CARDS - 1), (a - PLAY_BASE) % 6
        len_take = get(self.stack_len, s_take)
        top_take = get(self.stack_ord, 52 * s_take + (len_take - 1).clamp(min=0))
        deck_top = get(self.deck, (self.deck_len - 1).clamp(min=0))
        card = torch.where(take, top_take, torch.where(play, c_play, torch.where(draw, deck_top, TRASH)))
        to_pile = take | (play & (d_play < 3))
        to_stack = play & (d_play >= 3)
        k = torch.where(take, k_take, d_play)
        s_push = (d_play - 3).clamp(0, 2)
        dest = torch.where(to_pile, pile_code(cur, k), torch.where(to_stack, stack_code(s_push), hand_code(cur)))
        put(self.loc, card, dest, take | draw | play)
        put(self.hsize, cur, get(self.hsize, cur) + draw.long() - play.long(), draw | play)
        self.deck_len -= draw.long()
        put(self.stack_len, s_take, len_take - 1, take)
        # A card onto pile 3 cur + k.
        pid, r = torch.where(to_pile, 3 * cur + k, 12), self.rank[card]
        put(self.lo, pid, torch.minimum(get(self.lo, pid), r), to_pile)
        put(self.hi, pid, torch.maximum(get(self.hi, pid), r), to_pile)
        put(self.plen, pid, get(self.plen, pid) + 1, to_pile)
        put(self.diamonds, cur, get(self.diamonds, cur) + self.diamond[card], to_pile)
        # A hand card onto stack s_push.
        len_push = get(self.stack_len, s_push)
        put(self.stack_ord, 52 * s_push + len_push, card, to_stack)
        put(self.spos, card, self.by52[len_push + 1], to_stack)
        put(self.stack_len, s_push, len_push + 1, to_stack)
        # An emptied stack is refilled from the deck.
        refill = take & (len_take == 1) & (self.deck_len > 0)
        card = get(self.deck, (self.deck_len - 1).clamp(min=0))
        put(self.loc, card, stack_code(s_take), refill)
        put(self.spos, card, self.by52[1].expand(len(card)), refill)
        put(self.stack_ord, 52 * s_take, card, refill)
        put(self.stack_len, s_take, 1, refill)
        self.deck_len -= refill.long()
        # The turn ends unless the seat drew (then it places).
        ends = act & ~draw
        self.passes = torch.where(ends, torch.where(pas, self.passes + 1, 0), self.passes)
        self.cur = torch.where(ends, (cur + 1) % n, cur)
        self.phase = torch.where(draw, 1, torch.where(ends, 0, self.phase))

    def _terminal(self) -> torch.Tensor:
        return self.passes >= self.num_players

    def _stack_tops(self) -> tuple[torch.Tensor, torch.Tensor]:
        """(top card of each stack [B, 3], stack not empty [B, 3])."""
        size = self.stack_len[:, :3]
        return self.stack_ord.gather(1, 52 * self.three + (size - 1).clamp(min=0)), size > 0

    def _mask(self) -> torch.Tensor:
        B, cur = self.batch_size, self.cur
        mask = torch.empty(B, self.num_actions, dtype=torch.bool, device=self.device)
        pids = 3 * cur[:, None] + self.three
        lo, hi = self.lo.gather(1, pids)[:, None, :], self.hi.gather(1, pids)[:, None, :]  # [B, 1, pile]
        tops, full = self._stack_tops()
        choose, deck_empty = self.phase == 0, self.deck_len == 0
        r = self.rank[tops][:, :, None]  # [B, stack, 1]
        take = mask[:, :9].view(B, 3, 3)
        take.copy_((full & choose[:, None])[:, :, None] & ((r < lo) | (r > hi)))
        mask[:, DRAW] = choose & ~deck_empty
        in_hand = (self.loc[:, :NUM_CARDS] == cur[:, None]) & (~choose | deck_empty)[:, None]
        r = self.rank[:NUM_CARDS, None]  # [card, 1]
        plays = mask[:, PLAY_BASE:PASS].view(B, NUM_CARDS, 6)
        plays[:, :, :3] = in_hand[:, :, None] & ((r < lo) | (r > hi))  # onto a pile
        plays[:, :, 3:] = in_hand[:, :, None]  # onto a stack
        mask[:, PASS] = choose & deck_empty & ~take.any(2).any(1) & ~in_hand.any(1)
        return mask

    def _scores(self, rows: torch.Tensor | slice = slice(None)) -> torch.Tensor:
        """Each seat's score [rows, n]: longest pile + 3 per Ace-King pile + diamonds."""
        n = self.num_players
        plen, lo, hi = (x[rows, :3 * n].view(-1, n, 3) for x in (self.plen, self.lo, self.hi))
        return plen.amax(2) + 3 * ((lo == 1) & (hi == 13)).sum(2) + self.diamonds[rows, :n]

    def _returns(self, rows: torch.Tensor) -> torch.Tensor:
        s, n = self._scores(rows).double(), self.num_players
        if self.game.reward == "win":
            out = ((s[:, :, None] > s[:, None, :]).sum(2) - (s[:, :, None] < s[:, None, :]).sum(2)) / (n - 1)
        else:
            out = (s - (s.sum(1, keepdim=True) - s) / (n - 1)) / MAX_SCORE
        return out.float()

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        """Each game's observation by `seat` (default: the acting seat), piece by piece into
        `observation_layout` (seats relative to the observer)."""
        B, n, cur = self.batch_size, self.num_players, self.cur if seat is None else seat
        obs = torch.empty(B, self.observation_size, device=self.device)
        v = self.game.observation_layout.views(obs)
        order = (cur[:, None] + self.seats) % n  # relative seat -> absolute seat
        loc = self.loc[:, :NUM_CARDS]
        pids = (3 * order[:, :, None] + self.three).view(B, n, 3)
        lo, hi = (x.gather(1, pids.view(B, -1)).view(B, n, 3, 1) for x in (self.lo, self.hi))
        tops, full = self._stack_tops()
        v["hand"].copy_(loc == hand_code(cur)[:, None])
        v["piles"].copy_(loc[:, None, None, :] == pile_code(0, pids)[..., None])
        v["pile_fits"].copy_((self.ranks13 < lo) | (self.ranks13 > hi))
        v["stack_top"].copy_((self.cards == tops[:, :, None]) & full[:, :, None])
        on_stack = loc[:, None, :] == stack_code(self.three)[:, None]
        v["stack_cards"].copy_(torch.where(on_stack, self.spos[:, None, :NUM_CARDS], 0))
        v["unseen"].copy_((loc == DECK) | ((loc < n) & (loc != cur[:, None])))
        v["hand_sizes"].copy_(self.by4[self.hsize.gather(1, order)])
        v["deck_size"].copy_(self.by52[self.deck_len][:, None])
        v["scores"].copy_(self.by35[self._scores().gather(1, order)])
        v["to_move"].copy_(self.seats == ((self.cur - cur) % n)[:, None])
        v["phase"].copy_(torch.stack([self.phase == 0, self.phase == 1], 1))
        v["passes"].copy_(self.by_n[self.passes][:, None])
        return obs

    def state_tensors(self) -> torch.Tensor:
        """float32[B, state_size]: each game's full information (`game.state_layout`, absolute
        seats, hands and deck order included) as the reference's `state_tensor()`: for
        centralised critics only."""
        B, n, cur = self.batch_size, self.num_players, self.cur
        out = torch.empty(B, self.game.state_layout.size, device=self.device)
        v = self.game.state_layout.views(out)
        loc = self.loc[:, :NUM_CARDS]
        seats = self.seats[:, None]
        pids = (3 * seats + self.three).expand(B, n, 3)
        lo, hi = (x[:, :3 * n].view(B, n, 3, 1) for x in (self.lo, self.hi))
        tops, full = self._stack_tops()
        v["hands"].copy_(loc[:, None, :] == seats)
        v["piles"].copy_(loc[:, None, None, :] == pile_code(0, pids)[..., None])
        v["pile_fits"].copy_((self.ranks13 < lo) | (self.ranks13 > hi))
        v["stack_top"].copy_((self.cards == tops[:, :, None]) & full[:, :, None])
        on_stack = loc[:, None, :] == stack_code(self.three)[:, None]
        v["stack_cards"].copy_(torch.where(on_stack, self.spos[:, None, :NUM_CARDS], 0))
        v["unseen"].copy_((loc[:, None, :] == DECK) | ((loc[:, None, :] < n) & (loc[:, None, :] != seats)))
        in_deck = torch.arange(NUM_CARDS, device=self.device) < self.deck_len[:, None]
        deck = torch.zeros(B, 53, device=self.device)
        deck.scatter_(1, torch.where(in_deck, self.deck[:, :NUM_CARDS], TRASH), self.by52[1:].expand(B, -1))
        v["deck"].copy_(deck[:, :NUM_CARDS])
        v["hand_sizes"].copy_(self.by4[self.hsize[:, :n]])
        v["deck_size"].copy_(self.by52[self.deck_len][:, None])
        v["scores"].copy_(self.by35[self._scores()])
        v["to_move"].copy_(self.seats == cur[:, None])
        v["phase"].copy_(torch.stack([self.phase == 0, self.phase == 1], 1))
        v["passes"].copy_(self.by_n[self.passes][:, None])
        return out
