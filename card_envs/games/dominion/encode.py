"""Observation and state vectors, written into preallocated buffers."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from card_envs.core.layout import Layout, Piece
from card_envs.games.dominion.cards import ALLIES, GARRISON, NUM_CARDS, NUM_PILES, PILE_CARDS as SINGLE, VOYAGE
from card_envs.games.dominion.effects import DECISION_INDEX, DECISIONS, PICK_KINDS

C, P = NUM_CARDS, NUM_PILES
NO_CARDS = [0] * C  # an empty count list, to compare with
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
        Piece("favors", (n,), "Favors / 10", 1000.0),
        Piece("skips", (n,), "turns still to skip (Lich)", 1000.0),
        Piece("durations", (n, C), "Duration cards in play that act at the seat's next turn, count / 10", COUNT_HIGH),
        Piece("garrison_tokens", (n,), "tokens on the seat's Garrisons / 10", 1000.0),
        Piece("ally", (len(ALLIES),), "one-hot Ally (Favors are used only with one): " + ", ".join(ALLIES), 1.0),
        Piece("extra_turn", (3,), "this is a Voyage extra turn, cards it may still play from hand / 3, a Voyage "
              "extra turn follows this turn", 1.0),
        Piece("decision_seat", (n,), f"1 at the {seats} seat the decision is about (Archer's victim)", 1.0),
        Piece("decision_picked", (4,), "options already chosen in this decision (Elder's extra choice)", 1.0),
        Piece("looking", (C,), "cards the deciding seat is looking at (Miller's top cards; only his), count / 10",
              COUNT_HIGH),
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


def count_row(cards) -> list[int]:
    """Copies of each card name among `cards`."""
    counts = [0] * C
    for c in cards:
        counts[c] += 1
    return counts


def _supply_values(s) -> list[float]:
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
        for c, count, d in _split_pile_parts(tuple(pile)):
            counts[c], depth[c] = count, d
    return supply_in + pile_size + bane + counts + top + depth


@lru_cache(maxsize=1 << 14)
def _split_pile_parts(pile: tuple) -> tuple:
    """(card, count / 10, depth of its highest copy / 13) of a split pile's cards; a split pile
    takes few orders in a game, so each is worked out once."""
    counts: dict[int, float] = {}
    depth: dict[int, float] = {}
    last = len(pile) - 1
    for i, c in enumerate(pile):  # the top is at the end: later copies are higher
        counts[c] = counts.get(c, 0.0) + 0.1
        depth[c] = (last - i + 1) / 13
    return tuple((c, counts[c], depth[c]) for c in counts)


def supply_trash_block(s) -> np.ndarray:
    """What changes only with the Supply or the trash (cached as ``state._supply_obs``, which
    every change of a pile or of the trash clears): the Supply block, then the trash piece."""
    block = np.array(_supply_values(s) + s.trash, dtype=np.float32)
    block[-C:] *= 0.1  # the trash: counts, scaled in float32 like every count piece
    return block


def seat_block(s, q: int) -> tuple[np.ndarray, int]:
    """Seat q's owned counts and VP from cards (its score less its VP tokens), cached as
    ``state._owned_obs[q]``, which every change of what q owns clears."""
    block = s._owned_obs[q]
    if block is None:
        block = s._owned_obs[q] = (np.array(s.owned[q], dtype=np.float32), s.score(q) - s.vp[q])
    return block


class Encoder:
    """Writes a state's vectors. Every call fills a fresh zeroed vector: counts are written as
    integers and scaled by 0.1 in float32 over the contiguous count runs, one-hot entries are
    gathered as flat indices and set in one assignment."""

    def __init__(self, game):
        n = self.n = game.num_players
        self.game = game
        self.obs_layout = observation_layout(n)
        self.state_layout = state_layout(n)
        self._obs_off = {k: sl.start for k, sl in self.obs_layout.slices.items()}
        self._st_off = {k: sl.start for k, sl in self.state_layout.slices.items()}
        self._orders = [[(first + r) % n for r in range(n)] for first in range(n)]

    def observation(self, s, player: int) -> np.ndarray:
        buf = np.zeros(self.obs_layout.size, dtype=np.float32)
        o = self._obs_off
        counts = s.hands[player] + [0] * (2 * C)  # hand, deck, discard: contiguous pieces
        for c in s.decks[player]:
            counts[C + c] += 1
        for c in s.discards[player]:
            counts[2 * C + c] += 1
        buf[:3 * C] = counts
        buf[:3 * C] *= 0.1
        ones = []
        base = o["deck_top"]
        for r, q in enumerate(self._orders[player]):
            deck = s.decks[q]
            if deck:
                flags, need = s.deck_known[q], (1 if r == 0 else 2)
                if flags[-1] >= need:
                    ones.append(base + 2 * r * C + deck[-1])
                if len(deck) > 1 and flags[-2] >= need:
                    ones.append(base + (2 * r + 1) * C + deck[-2])
        self._public(s, buf, o, player, ones)
        self._tier3(s, buf, o, player, player)
        return buf

    def _tier3(self, s, flat, o, first, viewer) -> None:
        """The tier-3 pieces (Favors, Durations, Allies, extra turns, Archer, Miller)."""
        n = self.n
        order = self._orders[first]
        if s.ally >= 0:
            flat[o["ally"] + s.ally] = 1.0
            fav = o["favors"]
            for r, q in enumerate(order):
                flat[fav + r] = min(s.favors[q], 10_000) / 10
        if any(s.skips):
            for r, q in enumerate(order):
                flat[o["skips"] + r] = min(s.skips[q], 10_000)
        if any(s.durations):
            dur, gar = o["durations"], o["garrison_tokens"]
            for r, q in enumerate(order):
                for card, x in s.durations[q]:
                    flat[dur + r * C + card] += 0.1
                    if card == GARRISON:
                        flat[gar + r] += min(x, 10_000) / 10
            if any(e[0] == VOYAGE for e in s.durations[s.turn_player]) and s.phase != 3:
                flat[o["extra_turn"] + 2] = 1.0
        if s.extra_turn:
            flat[o["extra_turn"]] = 1.0
            flat[o["extra_turn"] + 1] = max(0, s.plays_left) / 3
        if s.tasks and s.phase != 3:
            t = s.tasks[-1]
            kind = t["kind"]
            if kind == "archer_pick":
                flat[o["decision_seat"] + (t["x"] - first) % n] = 1.0
            elif kind == "mode":
                for i in range(4):
                    if (t["x"] >> i) & 1:
                        flat[o["decision_picked"] + i] = 1.0
            elif kind == "miller" and (viewer < 0 or viewer == t["p"]):
                deck = s.decks[t["p"]]
                for c in deck[len(deck) - t["x"]:]:
                    flat[o["looking"] + c] += 0.1

    def state_tensor(self, s) -> np.ndarray:
        buf = np.zeros(self.state_layout.size, dtype=np.float32)
        o = self._st_off
        ones = []
        for q in range(self.n):
            row = o["hands"] + q * C
            buf[row:row + C] = s.hands[q]
            deck = s.decks[q]
            if deck:
                row = o["decks"] + q * C
                buf[row:row + C] = count_row(deck)
                base = o["deck_order"] + q * 5 * C
                for k, c in enumerate(reversed(deck[-5:])):
                    ones.append(base + k * C + c)
            if s.discards[q]:
                row = o["discards"] + q * C
                buf[row:row + C] = count_row(s.discards[q])
        for piece in ("hands", "decks", "discards"):
            sl = self.state_layout.slices[piece]
            buf[sl] *= 0.1
        buf[o["chance"]] = s.seed / 2**62
        self._public(s, buf, o, 0, ones)
        self._tier3(s, buf, o, 0, -1)
        return buf

    def _public(self, s, flat: np.ndarray, o: dict, first: int, ones: list) -> None:
        n = self.n
        order = self._orders[first]
        supply_trash = s._supply_obs
        if supply_trash is None:
            supply_trash = s._supply_obs = supply_trash_block(s)
        seats = [seat_block(s, q) for q in order]
        in_play, set_aside, known, top = o["in_play"], o["set_aside"], o["known_hand"], o["discard_top"]
        for r, q in enumerate(order):
            if s.in_play[q]:
                flat[in_play + r * C:in_play + (r + 1) * C] = count_row(s.in_play[q])
            if s.set_aside[q]:
                flat[set_aside + r * C:set_aside + (r + 1) * C] = count_row(s.set_aside[q])
            if s.known[q] != NO_CARDS:
                row = known + r * C
                flat[row:row + C] = s.known[q]
            if s.discards[q]:
                ones.append(top + r * C + s.discards[q][-1])
        owned = o["owned"]
        for r, (row, _) in enumerate(seats):
            flat[owned + r * C:owned + (r + 1) * C] = row
        flat[in_play:known + n * C] *= 0.1  # in_play, set_aside, owned, known_hand: one count run
        # sizes, vp_tokens, debt (counts, scaled), then turns and score: contiguous pieces.
        max_turns, vp, debt, turns = self.game.max_turns, s.vp, s.debt, s.turns
        values = []
        for q in order:
            values += (s.hsize[q], len(s.decks[q]), len(s.discards[q]))
        vps, debts, turned, scores = [], [], [], []
        for q, (_, card_vp) in zip(order, seats):
            v = vp[q]
            vps.append(v if v < 10_000 else 10_000)
            debts.append(debt[q] if debt[q] < 10_000 else 10_000)
            turned.append(min(1.0, turns[q] / max_turns))
            scores.append(min(20.0, max(0.0, (card_vp + v + 50) / 100)))
        values += vps + debts + turned + scores
        sizes = o["sizes"]
        flat[sizes:sizes + 7 * n] = values
        flat[sizes:sizes + 5 * n] *= 0.1
        supply = o["supply_in"]  # the Supply block, then the trash
        flat[supply:supply + len(supply_trash)] = supply_trash
        ones.append(o["phase"] + s.phase)
        if s.phase != 3:
            ones.append(o["active"] + (s.turn_player - first) % n)
            ones.append(o["to_move"] + (s.current_player - first) % n)
        turn = o["turn_state"]
        flat[turn:turn + 5] = (min(s.coins, 10_000) / 10, min(s.actions, 10_000) / 10, min(s.buys, 10_000) / 10,
                               min(s.saunas, 10_000) / 10, float(s.fortune_used))
        if s.phase != 3:
            if s.tasks:
                t = s.tasks[-1]
                ones.append(o["decision"] + DECISION_INDEX[t["kind"]])
                if t["card"] >= 0:
                    ones.append(o["decision_card"] + t["card"])
                if t["kind"] == "gladiator_copy":
                    ones.append(o["decision_named"] + t["x"])
                if t["kind"] in PICK_KINDS:
                    left = o["decision_left"]
                    flat[left:left + 2] = (max(0, t["lo"]) / 10, min(t["hi"], 400) / 10)
            else:
                ones.append(o["decision"] + s.phase)
        flat[ones] = 1.0
