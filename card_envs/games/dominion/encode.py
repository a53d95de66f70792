"""Observation and state vectors, written into preallocated buffers."""

from __future__ import annotations

import numpy as np

from card_envs.core.layout import Layout, Piece
from card_envs.games.dominion.cards import NUM_CARDS, NUM_PILES, PILE_CARDS as SINGLE
from card_envs.games.dominion.effects import DECISION_INDEX, DECISIONS

C, P = NUM_CARDS, NUM_PILES
COUNT_HIGH = 40.0  # counts are written as count / 10; no card name has more than 60 copies


def _public_pieces(n: int, seats: str) -> list[Piece]:
    return [
        Piece("in_play", (n, C), f"cards in play per {seats} seat, count / 10", COUNT_HIGH),
        Piece("set_aside", (n, C), "cards set aside face up (Encampment), count / 10", COUNT_HIGH),
        Piece("owned", (n, C), "every card each seat owns (all gains and trashes are public), count / 10", COUNT_HIGH),
        Piece("known_hand", (n, C), "cards revealed in each hand and still there, count / 10", COUNT_HIGH),
        Piece("discard_top", (n, C), "one-hot top card of each discard pile", 1.0),
        Piece("sizes", (n, 3), "hand, deck, discard pile sizes / 10", COUNT_HIGH),
        Piece("vp_tokens", (n,), "VP tokens / 10", 1000.0),
        Piece("debt", (n,), "Debt tokens / 10", 1000.0),
        Piece("turns", (n,), "turns taken / max_turns", 1.0),
        Piece("score", (n,), "(current score + 50) / 100, clipped to [0, 20]", 20.0),
        Piece("supply_in", (P,), "1 where the pile is in this game's Supply", 1.0),
        Piece("pile_size", (P,), "cards left in the pile / 10", COUNT_HIGH),
        Piece("bane", (P,), "one-hot Bane pile (Young Witch)", 1.0),
        Piece("supply_counts", (C,), "copies of the card left in the Supply / 10", COUNT_HIGH),
        Piece("supply_top", (C,), "1 where the card is on top of its pile (buyable, gainable)", 1.0),
        Piece("supply_depth", (C,), "(position of the card's highest copy in its pile, 0 = top, + 1) / 13", 20.0),
        Piece("trash", (C,), "cards in the trash / 10", COUNT_HIGH),
        Piece("phase", (4,), "one-hot phase of the turn: action, treasure, buy, game over", 1.0),
        Piece("active", (n,), f"1 at the {seats} seat whose turn it is", 1.0),
        Piece("to_move", (n,), f"1 at the {seats} seat to decide", 1.0),
        Piece("turn_state", (5,), "$ / 10, Actions / 10, Buys / 10, Saunas played / 10, Fortune used", 1000.0),
        Piece("decision", (len(DECISIONS),), "one-hot pending decision (see Actions)", 1.0),
        Piece("decision_card", (C,), "one-hot card whose effect asks (the Attack for Moat, the gained Castle...)", 1.0),
        Piece("decision_named", (C,), "one-hot card to match (Gladiator's revealed card)", 1.0),
        Piece("decision_left", (2,), "picks still required, still allowed / 10", COUNT_HIGH),
    ]


def observation_layout(n: int) -> Layout:
    return Layout([
        Piece("hand", (C,), "the observer's hand, count / 10", COUNT_HIGH),
        Piece("deck", (C,), "the observer's deck (cards, not order), count / 10", COUNT_HIGH),
        Piece("discard", (C,), "the observer's discard pile, count / 10", COUNT_HIGH),
        Piece("deck_top", (n, 2, C), "one-hot top two cards of each deck where the observer knows them", 1.0),
    ] + _public_pieces(n, "relative"))


def state_layout(n: int) -> Layout:
    return Layout([
        Piece("hands", (n, C), "every hand, count / 10", COUNT_HIGH),
        Piece("decks", (n, C), "every deck, count / 10", COUNT_HIGH),
        Piece("deck_order", (n, 5, C), "one-hot top five cards of every deck", 1.0),
        Piece("discards", (n, C), "every discard pile, count / 10", COUNT_HIGH),
        Piece("chance", (1,), "the seed of later shuffles / 2**62", 1.0),
    ] + _public_pieces(n, "absolute"))


def supply_block(s) -> np.ndarray:
    """supply_in, pile_size, bane, supply_counts, supply_top, supply_depth (contiguous pieces)."""
    counts, top, depth = [0.0] * C, [0.0] * C, [0.0] * C
    supply_in, pile_size, bane = [0.0] * P, [0.0] * P, [0.0] * P
    if s.bane >= 0:
        bane[s.bane] = 1.0
    for p in s.supply:
        pile = s.piles[p]
        supply_in[p] = 1.0
        pile_size[p] = len(pile) / 10
        if not pile:
            continue
        top[pile[-1]] = 1.0
        if len(SINGLE[p]) == 1:  # a one-name pile: no order to scan
            counts[pile[-1]] = len(pile) / 10
            depth[pile[-1]] = 1 / 13
            continue
        last = len(pile) - 1
        for i, c in enumerate(pile):  # the top is at the end: later copies are higher
            counts[c] += 0.1
            depth[c] = (last - i + 1) / 13
    return np.array(supply_in + pile_size + bane + counts + top + depth, dtype=np.float32)


class Encoder:
    def __init__(self, game):
        n = self.n = game.num_players
        self.game = game
        self.obs_layout = observation_layout(n)
        self.state_layout = state_layout(n)
        self._obs = np.zeros(self.obs_layout.size, dtype=np.float32)
        self._obs_views = self.obs_layout.views(self._obs)
        self._st = np.zeros(self.state_layout.size, dtype=np.float32)
        self._st_views = self.state_layout.views(self._st)
        self._scaled = [slice(self.obs_layout.slices["in_play"].start, self.obs_layout.slices["known_hand"].stop),
                        slice(self.obs_layout.slices["sizes"].start, self.obs_layout.slices["debt"].stop)]
        self._supply_slice = slice(self.obs_layout.slices["supply_in"].start,
                                   self.obs_layout.slices["supply_depth"].stop)
        self._supply_slice_state = slice(self.state_layout.slices["supply_in"].start,
                                         self.state_layout.slices["supply_depth"].stop)
        self._scaled_state = [slice(self.state_layout.slices["in_play"].start,
                                    self.state_layout.slices["known_hand"].stop),
                              slice(self.state_layout.slices["sizes"].start, self.state_layout.slices["debt"].stop)]

    def observation(self, s, player: int) -> np.ndarray:
        buf, v = self._obs, self._obs_views
        buf[:] = 0.0
        v["hand"][:] = s.hands[player]
        v["deck"][:] = np.bincount(s.decks[player], minlength=C) if s.decks[player] else 0
        v["discard"][:] = np.bincount(s.discards[player], minlength=C) if s.discards[player] else 0
        for r in range(self.n):
            q = (player + r) % self.n
            deck, flags = s.decks[q], s.deck_known[q]
            need = 1 if q == player else 2
            for k in range(min(2, len(deck))):
                if flags[-1 - k] >= need:
                    v["deck_top"][r, k, deck[-1 - k]] = 1.0
        self._public(s, v, player, buf, self._scaled)
        v["hand"] *= 0.1
        v["deck"] *= 0.1
        v["discard"] *= 0.1
        return buf.copy()

    def state_tensor(self, s) -> np.ndarray:
        buf, v = self._st, self._st_views
        buf[:] = 0.0
        for q in range(self.n):
            v["hands"][q] = s.hands[q]
            if s.decks[q]:
                v["decks"][q] = np.bincount(s.decks[q], minlength=C)
                for k, c in enumerate(reversed(s.decks[q][-5:])):
                    v["deck_order"][q, k, c] = 1.0
            if s.discards[q]:
                v["discards"][q] = np.bincount(s.discards[q], minlength=C)
        v["hands"] *= 0.1
        v["decks"] *= 0.1
        v["discards"] *= 0.1
        v["chance"][0] = s.seed / 2**62
        self._public(s, v, 0, buf, self._scaled_state)
        return buf.copy()

    def _public(self, s, v, first: int, flat: np.ndarray, scaled: list) -> None:
        n = self.n
        order = [(first + r) % n for r in range(n)]
        for r, q in enumerate(order):
            if s.in_play[q]:
                v["in_play"][r] = np.bincount(s.in_play[q], minlength=C)
            for c in s.set_aside[q]:
                v["set_aside"][r, c] += 1
            if s.discards[q]:
                v["discard_top"][r, s.discards[q][-1]] = 1.0
        v["owned"][:] = [s.owned[q] for q in order]
        v["known_hand"][:] = [s.known[q] for q in order]
        v["sizes"][:] = [(s.hsize[q], len(s.decks[q]), len(s.discards[q])) for q in order]
        v["vp_tokens"][:] = [min(s.vp[q], 10_000) for q in order]
        v["debt"][:] = [min(s.debt[q], 10_000) for q in order]
        max_turns = self.game.max_turns
        v["turns"][:] = [min(1.0, s.turns[q] / max_turns) for q in order]
        v["score"][:] = [min(20.0, max(0.0, (s.score(q) + 50) / 100)) for q in order]
        for sl in scaled:  # the count pieces lie in two contiguous runs: one multiply each
            flat[sl] *= 0.1
        block = s._supply_obs
        if block is None:  # recomputed only after the Supply changed (cached on the state)
            block = s._supply_obs = supply_block(s)
        flat[self._supply_slice if scaled is self._scaled else self._supply_slice_state] = block
        v["trash"][:] = s.trash
        v["trash"] *= 0.1
        v["phase"][s.phase] = 1.0
        if s.phase != 3:
            v["active"][(s.turn_player - first) % n] = 1.0
            v["to_move"][(s.current_player - first) % n] = 1.0
        v["turn_state"][:] = (min(s.coins, 10_000) / 10, min(s.actions, 10_000) / 10, min(s.buys, 10_000) / 10,
                              min(s.saunas, 10_000) / 10, float(s.fortune_used))
        if s.phase == 3:
            return
        if s.tasks:
            t = s.tasks[-1]
            v["decision"][DECISION_INDEX[t["kind"]]] = 1.0
            if t["card"] >= 0:
                v["decision_card"][t["card"]] = 1.0
            if t["kind"] == "gladiator_copy":
                v["decision_named"][t["x"]] = 1.0
            if t["kind"] in ("cellar", "chapel", "discard_down", "remodel_trash", "yw_discard", "catapult",
                             "gladiator", "sauna_trash", "haunted", "opulent"):
                v["decision_left"][:] = (max(0, t["lo"]) / 10, min(t["hi"], 400) / 10)
        else:
            v["decision"][s.phase] = 1.0
