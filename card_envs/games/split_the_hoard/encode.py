"""Observation and full-state vectors of Split the Hoard.

Both are written as (index, weight) pairs summed by one ``np.bincount``: a position touches only
the cards it holds, with no per-piece numpy calls. Observations use seats relative to the
observer (0 = the observer, 1 = the next seat clockwise); the state vector uses absolute seats
and shows everything (for centralised critics only).
"""

from __future__ import annotations

import numpy as np

from card_envs.core.layout import Layout, Piece
from card_envs.games.split_the_hoard.effects import NUM_DECISIONS, OVER

TOP = 8  # deck positions described from the top


def _common(n: int, nn: int, c: int, what: str) -> list[Piece]:
    return [
        Piece("decision", (NUM_DECISIONS,), "one-hot pending decision (see Actions); zeros once the game is over"),
        Piece("to_move", (n,), "1 at the seat to decide"),
        Piece("phase", (3,), "one-hot phase: reveal, negotiate, claim"),
        Piece("dragon", (n,), "1 at the Dragon Card holder (the first player)"),
        Piece("classes", (n, c), "one-hot class of each seat (Druid, Warrior, Cleric, Rogue, Wizard)"),
        Piece("powers_used", (n,), "1 where the seat used its class power this round"),
        Piece("coins", (n,), "Coins in each Haul / number of Hoard cards"),
        Piece("treasures", (n, nn), "Treasures in each Haul by name / most copies of a name"),
        Piece("offered", (n, 3), "1 where a Negotiate Card (1, 2, 3 Coins) holds a Treasure"),
        Piece("offers", (n, 3, nn), f"one-hot name of the Treasure on each Negotiate Card ({what})"),
        Piece("offer_coins", (n, 3), f"Coins added to each Negotiate Card / number of Hoard cards ({what})"),
    ]


def _tail(n: int, nn: int) -> list[Piece]:
    return [
        Piece("deck_size", (1,), "cards in the Hoard Deck / number of Hoard cards"),
        Piece("coin_discard_size", (1,), "cards in the Coin discard pile / number of Hoard cards"),
        Piece("treasure_discard", (nn,), "the Treasure discard pile by name / most copies"),
        Piece("round", (1,), "round index / most rounds"),
        Piece("end_triggered", (1,), "1 once a draw came up short (the game is ending, resolution 10)"),
        Piece("turn", (4,), "the Negotiate turn: actions left / 3 (capped), discount / 6 (capped), printed price "
                            "only, the discount's floor / 6 (capped)"),
        Piece("dragon_taker", (n,), "1 at the seat that takes the Dragon Card at this round's end (TAKE_DRAGON)"),
        Piece("effect_card", (nn,), "one-hot Treasure in play: the ability being resolved, the Treasure "
                                    "negotiated for, the Deal whose trigger is asked"),
        Piece("effect_take", (nn,), "one-hot Treasure the ability in progress takes from its target"),
        Piece("effect_give", (nn,), "one-hot Treasure a swap in progress gives its target"),
        Piece("effect_slot", (3,), "1 at the Negotiate Card (1, 2, 3 Coins) being bought from"),
        Piece("effect_seats", (2, n), "one-hot actor and target of the effect or negotiation in progress"),
        Piece("refused", (n, 3), "1 where a Negotiate Card refused the player to move this action"),
    ]


def observation_layout(n: int, nn: int, t: int, c: int) -> Layout:
    return Layout(_common(n, nn, c, "own: always; others: once flipped") + [
        Piece("hand", (nn,), "own cards dealt this Reveal and not yet committed, by name / most copies"),
        Piece("hidden_title", (t,), "one-hot own hidden Title"),
        Piece("seen_held", (n, nn), "face-down cards each seat holds (Coins, added Coins, hand, unflipped "
                                    "commits) that the observer has seen, by name / most copies"),
        Piece("deck_top", (TOP, nn), "one-hot card at each of the top 8 deck positions, where the observer knows it"),
        Piece("seen_deck", (nn,), "cards anywhere in the deck the observer knows, by name / most copies"),
        Piece("seen_coin_discard", (nn,), "cards in the Coin discard pile the observer knows, by name / most copies"),
    ] + _tail(n, nn))


def state_layout(n: int, nn: int, t: int, c: int) -> Layout:
    return Layout(_common(n, nn, c, "all of them") + [
        Piece("hands", (n, nn), "each seat's dealt, uncommitted cards by name / most copies"),
        Piece("hidden_titles", (n, t), "one-hot hidden Title of each seat"),
        Piece("held", (n, nn), "face-down Coins of each seat (Haul and added) by name / most copies"),
        Piece("deck_top", (TOP, nn), "one-hot card at each of the top 8 deck positions"),
        Piece("deck", (nn,), "the deck by name / most copies"),
        Piece("coin_discard", (nn,), "the Coin discard pile by name / most copies"),
    ] + _tail(n, nn))


class Encoder:
    def __init__(self, game):
        cs = game.cards
        n, nn = game.num_players, cs.num_names
        self.n, self.nn = n, nn
        self.observation_layout = observation_layout(n, nn, len(cs.hidden), len(cs.classes))
        self.state_layout = state_layout(n, nn, len(cs.hidden), len(cs.classes))
        self.obs = {k: s.start for k, s in self.observation_layout.slices.items()}
        self.full = {k: s.start for k, s in self.state_layout.slices.items()}
        self.name = cs.NAME
        self.unit = 1.0 / cs.max_copies
        self.per_card = 1.0 / cs.num_cards
        self.max_rounds = game.max_rounds
        self.num_classes = len(cs.classes)
        self.num_titles = len(cs.hidden)

    def observation(self, s, p: int) -> np.ndarray:
        return self._encode(s, p, False)

    def state_tensor(self, s) -> np.ndarray:
        return self._encode(s, 0, True)

    def _encode(self, s, p: int, full: bool) -> np.ndarray:
        n, nn, name, unit = self.n, self.nn, self.name, self.unit
        o = self.full if full else self.obs
        size = (self.state_layout if full else self.observation_layout).size
        idx: list[int] = []
        w: list[float] = []
        add_i, add_w = idx.append, w.append
        bit = 1 << p
        known = s.known_by

        def rel(q: int) -> int:
            return (q - p) % n

        if s.decision != OVER:
            add_i(o["decision"] + s.decision)
            add_w(1.0)
            add_i(o["to_move"] + rel(s.current_player))
            add_w(1.0)
            add_i(o["phase"] + s.phase)
            add_w(1.0)
        add_i(o["dragon"] + rel(s.dragon))
        add_w(1.0)
        if s.dragon_taker >= 0:
            add_i(o["dragon_taker"] + rel(s.dragon_taker))
            add_w(1.0)
        for q in range(n):
            r = rel(q)
            add_i(o["classes"] + r * self.num_classes + s.classes[q])
            add_w(1.0)
            if s.power_used[q]:
                add_i(o["powers_used"] + r)
                add_w(1.0)
            add_i(o["coins"] + r)
            add_w(len(s.coins[q]) * self.per_card)
            base = o["treasures"] + r * nn
            for c in s.treasures[q]:
                add_i(base + name[c])
                add_w(unit)
            visible = full or s.flipped or q == p
            for k, c in enumerate(s.offer[q]):
                if c < 0:
                    continue
                add_i(o["offered"] + r * 3 + k)
                add_w(1.0)
                if visible:
                    add_i(o["offers"] + (r * 3 + k) * nn + name[c])
                    add_w(1.0)
                    add_i(o["offer_coins"] + r * 3 + k)
                    add_w(len(s.added[q][k]) * self.per_card)
            if full:
                for c in s.hand[q]:
                    add_i(o["hands"] + q * nn + name[c])
                    add_w(unit)
                add_i(o["hidden_titles"] + q * self.num_titles + s.titles[q])
                add_w(1.0)
                base = o["held"] + q * nn
                for c in s.coins[q]:
                    add_i(base + name[c])
                    add_w(unit)
                for pile in s.added[q]:
                    for c in pile:
                        add_i(base + name[c])
                        add_w(unit)
                continue
            if q == p:
                for c in s.hand[q]:
                    add_i(o["hand"] + name[c])
                    add_w(unit)
        deck = s.deck
        if full:
            for j in range(min(TOP, len(deck))):
                add_i(o["deck_top"] + j * nn + name[deck[-1 - j]])
                add_w(1.0)
            for c in deck:
                add_i(o["deck"] + name[c])
                add_w(unit)
            for c in s.coin_discard:
                add_i(o["coin_discard"] + name[c])
                add_w(unit)
        else:
            add_i(o["hidden_title"] + s.titles[p])
            add_w(1.0)
            for c in s.seen:  # the few face-down cards someone has seen: find where they lie
                if known[c] & bit:
                    self._seen_card(s, p, c, add_i, add_w)
        add_i(o["deck_size"])
        add_w(len(deck) * self.per_card)
        add_i(o["coin_discard_size"])
        add_w(len(s.coin_discard) * self.per_card)
        for c in s.treasure_discard:
            add_i(o["treasure_discard"] + name[c])
            add_w(unit)
        add_i(o["round"])
        add_w(min(s.round, self.max_rounds) / self.max_rounds)
        if s.end_flag:
            add_i(o["end_triggered"])
            add_w(1.0)
        if s.phase == 1:  # NEGOTIATE
            add_i(o["turn"])
            add_w(min(s.actions_left, 3) / 3)
            add_i(o["turn"] + 1)
            add_w(min(s.discount, 6) / 6)
            if s.printed_only:
                add_i(o["turn"] + 2)
                add_w(1.0)
            add_i(o["turn"] + 3)
            add_w(min(s.discount_floor, 6) / 6)
            for q, k in s.refused:
                add_i(o["refused"] + rel(q) * 3 + k)
                add_w(1.0)
        e = s.eff
        card = -1
        if e is not None:
            card = e["src"]
            add_i(o["effect_seats"] + rel(e["actor"]))
            add_w(1.0)
            target = e.get("target", -1)
            if target >= 0:
                add_i(o["effect_seats"] + n + rel(target))
                add_w(1.0)
            if e["k"] == "buy" and e["slot"] >= 0:
                card = name[s.offer[target][e["slot"]]]
                add_i(o["effect_slot"] + e["slot"])
                add_w(1.0)
            for key in ("take", "give"):  # what is at stake for the target, who may react
                if e.get(key, -1) >= 0:
                    add_i(o["effect_" + key] + name[e[key]])
                    add_w(1.0)
        elif s.deals and s.decision != OVER:
            card = name[s.deals[0][1]]
        if card >= 0:
            add_i(o["effect_card"] + card)
            add_w(1.0)
        out = np.bincount(idx, weights=w, minlength=size).astype(np.float32)
        return np.minimum(out, 1.0, out=out)

    def _seen_card(self, s, p: int, c: int, add_i, add_w) -> None:
        """Encode a face-down card `p` knows, wherever it lies (it lies in exactly one place)."""
        o, nn, n = self.obs, self.nn, self.n
        name = self.name[c]
        deck = s.deck
        if c in deck:
            j = len(deck) - 1 - deck.index(c)
            if j < TOP:
                add_i(o["deck_top"] + j * nn + name)
                add_w(1.0)
            add_i(o["seen_deck"] + name)
            add_w(self.unit)
            return
        if c in s.coin_discard:
            add_i(o["seen_coin_discard"] + name)
            add_w(self.unit)
            return
        for q in range(n):
            if q != p and (c in s.hand[q] or c in s.offer[q]) or c in s.coins[q] or any(c in a for a in s.added[q]):
                add_i(o["seen_held"] + (q - p) % n * nn + name)
                add_w(self.unit)
                return
