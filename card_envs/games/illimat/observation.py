"""Illimat's observation: the layouts of the feature store and of each seat's observation, the
pieces an action names (`action_entities`), and the State methods that read and rebuild the store."""

from __future__ import annotations

import numpy as np

from card_envs.core.cards import RANK, SUIT
from card_envs.core.layout import ActionEntities, Layout, Piece
from card_envs.games.illimat.cards import (
    CARD0, FIELD0, HAND_SIZE, HARVEST_VALUES, IS_FOOL, MAX_STOCKPILE, MAX_VALUE, NO_LUMINARY, NUM_CARDS, NUM_DECISIONS,
    NUM_FIELDS, NUM_LUMINARIES, OVER, SOW, SUITS, SUMMER, WINTER)
from card_envs.games.illimat.harvest_features import HARVEST_PIECES, harvest_features
from card_envs.games.illimat.play_features import PLAY_PIECES, play_features
from card_envs.games.illimat.threat_features import THREAT_PIECES, threat_features


# ----- layouts --------------------------------------------------------------------------------
CONVERGED_PIECE = Piece("converged", (1,), "1 once the Harmonic Convergence happened (only with harmonic_convergence)")


# Pieces that read the same in the full state and in every seat's observation (public facts).
FIELD_PIECES = (
    Piece("loose", (NUM_FIELDS, NUM_CARDS), "1 where the card lies loose in that field"),
    Piece("stockpiled", (NUM_FIELDS, NUM_CARDS), "value / 14 of the stockpile holding the card"),
    Piece("single_key", (NUM_FIELDS, NUM_CARDS), "1 at the key (lowest) card of each single stockpile"),
    Piece("multiple_key", (NUM_FIELDS, NUM_CARDS), "1 at the key (lowest) card of each multiple stockpile"),
    Piece("seasons", (NUM_FIELDS, 4), "one-hot season of each field (spring, summer, autumn, winter)"),
    Piece("luminary_up", (NUM_FIELDS, NUM_LUMINARIES), "one-hot face-up Luminary of each field"),
    Piece("luminary_down", (NUM_FIELDS,), "1 where a face-down Luminary lies"),
)
MOVE_PIECES = (
    Piece("decision", (NUM_DECISIONS,), "one-hot pending decision (see Actions)"),
    Piece("move_cards", (NUM_CARDS,), "1 at the card(s) chosen to play, sow or give in the pending move"),
    Piece("move_field", (NUM_FIELDS,), "one-hot field chosen in the pending move"),
    Piece("move_action", (3,), "one-hot sow, harvest, stockpile chosen in the pending move"),
    Piece("move_value", (1,), "value chosen in the pending move / 28"),
    Piece("move_items", (NUM_CARDS,), "1 at the cards of the items chosen so far (or swapped by a claim)"),
    Piece("turn", (3,), "1 where: main play done, Rake sow owed, Changeling swap used this turn"),
)


def state_layout(n: int, convergence: bool = False) -> Layout:
    """Full information, absolute seats. Also the store observations are gathered from."""
    return Layout([
        Piece("hands", (n, NUM_CARDS), "1 where the card is in that seat's hand"),
        Piece("known", (n, NUM_CARDS), "1 where that seat took the hand card from the board in view of all"),
        *FIELD_PIECES,
        Piece("luminary_hidden", (NUM_FIELDS, NUM_LUMINARIES), "one-hot face-down Luminary of each field"),
        Piece("luminary_unused", (NUM_LUMINARIES,), "(position in the unused pile + 1) / 8, next dealt last"),
        Piece("under_children", (NUM_FIELDS, NUM_CARDS), "1 where the card lies face down under the Children"),
        Piece("children_count", (NUM_FIELDS,), "cards under the Children / 3"),
        Piece("deck", (NUM_CARDS,), "(position from the bottom + 1) / 65 for each card of the draw pile"),
        Piece("deck_size", (1,), "cards in the draw pile / 65"),
        Piece("okus_left", (1,), "okus tokens left on the Illimat / 4"),
        Piece("okus", (n,), "okus tokens held / 4"),
        Piece("claimed", (n, NUM_LUMINARIES), "1 where that seat claimed the Luminary this round"),
        Piece("harvest", (n, NUM_CARDS), "1 where the card is in that seat's harvest pile"),
        Piece("secret", (n, NUM_CARDS), "1 where that harvested card is secret (from under the Children)"),
        Piece("harvested", (n, 4), "harvested cards: total / 65, Summer / 13, Winter / 13, Fools / 5"),
        Piece("harvested_public", (n, 4), "the same, secret cards left out but for the total"),
        Piece("unseen", (n, NUM_CARDS), "1 where the card is hidden from that seat"),
        Piece("hand_sizes", (n,), "cards in hand / 4"),
        Piece("scores", (n,), "match score, mapped from [lowest, highest possible] to [0, 1]"),
        Piece("round", (1,), "round index / rounds"),
        Piece("to_move", (n,), "1 at the seat to decide"),
        *MOVE_PIECES,
    ] + ([CONVERGED_PIECE] if convergence else []))


def observation_layout(n: int, convergence: bool = False, harvest: bool = False, plays: bool = False,
                       threats: bool = False) -> Layout:
    """What one seat sees; seats are relative (0 = the observer, 1 = next to play, ...)."""
    return Layout([
        Piece("hand", (NUM_CARDS,), "1 where the card is in the observer's hand"),
        Piece("known_hands", (n - 1, NUM_CARDS),
              "1 where another seat (relative 1..n-1) holds a card it took from the board in view of all"),
        *FIELD_PIECES,
        Piece("children_count", (NUM_FIELDS,), "cards under the Children / 3"),
        Piece("deck_size", (1,), "cards in the draw pile / 65"),
        Piece("okus_left", (1,), "okus tokens left on the Illimat / 4"),
        Piece("okus", (n,), "okus tokens held / 4 (relative seats)"),
        Piece("claimed", (n, NUM_LUMINARIES), "1 where that seat claimed the Luminary this round"),
        Piece("harvested", (n, 4),
              "harvested cards: total / 65, Summer / 13, Winter / 13, Fools / 5 (others: secret cards only in the total)"),
        Piece("unseen", (NUM_CARDS,), "1 where the card is hidden from the observer"),
        Piece("hand_sizes", (n,), "cards in hand / 4 (relative seats)"),
        Piece("scores", (n,), "match score, mapped from [lowest, highest possible] to [0, 1]"),
        Piece("round", (1,), "round index / rounds"),
        Piece("to_move", (n,), "1 at the seat to decide (relative seats)"),
        *MOVE_PIECES,
    ] + ([CONVERGED_PIECE] if convergence else []) + (list(HARVEST_PIECES) if harvest else [])
        + (list(PLAY_PIECES) if plays else []) + (list(THREAT_PIECES) if threats else []))


_SHARED = ("loose", "stockpiled", "single_key", "multiple_key", "seasons", "luminary_up", "luminary_down",
           "children_count", "deck_size", "okus_left")
_TAIL = ("decision", "move_cards", "move_field", "move_action", "move_value", "move_items", "turn")


def observation_gathers(n: int, store: Layout) -> list[np.ndarray]:
    gathers = []
    for seat in range(n):
        order = [(seat + k) % n for k in range(n)]
        parts = [store.index("hands")[seat], store.index("known")[order[1:]].ravel()]
        parts += [store.index(name).ravel() for name in _SHARED]
        parts += [store.index("okus")[order], store.index("claimed")[order].ravel(),
                  store.index("harvested")[seat], store.index("harvested_public")[order[1:]].ravel(),
                  store.index("unseen")[seat], store.index("hand_sizes")[order], store.index("scores")[order],
                  store.index("round"), store.index("to_move")[order]]
        parts += [store.index(name).ravel() for name in _TAIL]
        if "converged" in store.slices:
            parts.append(store.index("converged"))
        gathers.append(np.concatenate(parts).astype(np.intp))
    return gathers


# The pieces with a card axis: what the observation says of each card (for networks that score
# the card actions with one function of a card's own entries, `ActionEntities`).
CARD_PIECES = ("hand", "known_hands", "loose", "stockpiled", "single_key", "multiple_key", "unseen", "move_cards",
               "move_items")


def action_entities(harvest_features: bool, play_features: bool, threat_features: bool = False
                    ) -> tuple[ActionEntities, ...]:
    """The card actions (card c is action CARD0 + c) as entities: each card's entries of every
    piece with a card axis, and its rank (1..13) and suit one-hot as constant features. With
    `play_features` or `threat_features` the field actions too: each field's ``move_plays`` and
    ``move_threats`` columns (what the pending move's card does there), and the field's one-hot."""
    identity = np.zeros((NUM_CARDS, 13 + len(SUITS)), dtype=np.float32)
    identity[np.arange(NUM_CARDS), np.array(RANK) - 1] = 1
    identity[np.arange(NUM_CARDS), 13 + np.array(SUIT)] = 1
    pieces = CARD_PIECES + (("hand_harvest", "hand_clears") if harvest_features else ()) + (
        ("plays",) if play_features else ()) + (("threats",) if threat_features else ())
    cards = ActionEntities(CARD0, pieces, identity)
    field_pieces = (("move_plays",) if play_features else ()) + (("move_threats",) if threat_features else ())
    if not field_pieces:
        return (cards,)
    return cards, ActionEntities(FIELD0, field_pieces, np.eye(NUM_FIELDS, dtype=np.float32))


# ----- the observation, from the feature store ------------------------------------------------
class Encoding:
    """The IllimatState methods that read or rebuild its feature store (`features`): the
    observation, the state tensor and the full rebuild after a deal or a load."""

    def observation(self, player: int) -> np.ndarray:
        obs = self.features.take(self.game._gathers[player])
        game = self.game
        if not (game.harvest_features or game.play_features or game.threat_features):
            return obs
        parts = [obs]
        # Each field as (code, cards) per item, in key order: what the pieces below read of it.
        board = tuple(tuple((code, tuple(pile[3]) if pile else (key,)) for key, code, pile in self.items(f))
                      for f in range(NUM_FIELDS))
        if game.harvest_features:
            parts.append(harvest_features(self, player, HARVEST_VALUES, board))
        unseen = tuple(np.flatnonzero(obs[game.observation_layout.slices["unseen"]]).tolist())
        if game.play_features:
            parts.append(play_features(self, player, unseen, board))
        if game.threat_features:
            parts.append(threat_features(self, player, unseen, board))
        return np.concatenate(parts)

    def state_tensor(self) -> np.ndarray:
        return self.features.copy()

    # ----- full rebuild of the feature store ----------------------------------------------
    def _rebuild_features(self) -> None:
        g, n = self.game, self.game.num_players
        f = self.features = np.zeros(g.state_layout.size, dtype=np.float32)
        v = g.state_layout.views(f)
        for p in range(n):
            v["hands"][p, self.hands[p]] = 1
            v["known"][p, self.known[p]] = 1
            v["harvest"][p, self.harvest[p]] = 1
            v["secret"][p, self.secret[p]] = 1
            v["claimed"][p, self.claimed[p]] = 1
            secret = set(self.secret[p])
            counts = self.hcounts[p] = []
            for row, cards in ((v["harvested"][p], self.harvest[p]),
                               (v["harvested_public"][p], [c for c in self.harvest[p] if c not in secret])):
                counts += [sum(1 for c in cards if SUIT[c] == SUMMER), sum(1 for c in cards if SUIT[c] == WINTER),
                           sum(1 for c in cards if IS_FOOL[c])]
                row[1], row[2], row[3] = counts[-3] / 13, counts[-2] / 13, counts[-1] / 5
            v["harvested"][p, 0] = v["harvested_public"][p, 0] = len(self.harvest[p]) / NUM_CARDS
        for fld in range(NUM_FIELDS):
            v["loose"][fld, self.loose[fld]] = 1
            for pile in self.piles[fld]:
                v["stockpiled"][fld, list(pile[3])] = pile[1] / MAX_STOCKPILE
                v["multiple_key" if pile[2] else "single_key"][fld, pile[0]] = 1
            v["seasons"][fld, self.season(fld)] = 1
            L = self.lum[fld]
            if L != NO_LUMINARY:
                if self.lum_up[fld]:
                    v["luminary_up"][fld, L] = 1
                else:
                    v["luminary_down"][fld] = 1
                    v["luminary_hidden"][fld, L] = 1
            v["under_children"][fld, self.under[fld]] = 1
            v["children_count"][fld] = len(self.under[fld]) / 3
        for i, L in enumerate(self.unused):
            v["luminary_unused"][L] = (i + 1) / NUM_LUMINARIES
        for i, c in enumerate(self.deck):
            v["deck"][c] = (i + 1) / NUM_CARDS
        v["deck_size"][0] = len(self.deck) / NUM_CARDS
        v["okus_left"][0] = self.okus_left / 4
        v["okus"][:] = [k / 4 for k in self.okus]
        # unseen: the draw pile, the cards under the Children, others' hands (but for the cards
        # they took in view of all) and others' secret harvested cards
        hidden = self.deck + [c for cards in self.under for c in cards]
        for p in range(n):
            row = v["unseen"][p]
            row[hidden] = 1
            for q in g.others[p]:
                known = set(self.known[q])
                row[[c for c in self.hands[q] if c not in known]] = 1
                row[self.secret[q]] = 1
        v["hand_sizes"][:] = [len(h) / HAND_SIZE for h in self.hands]
        span = g.score_high - g.score_low
        v["scores"][:] = [(s - g.score_low) / span for s in self.match_scores]
        v["round"][0] = min(self.round, g.rounds) / g.rounds
        if g.harmonic_convergence:
            v["converged"][0] = self.converged
        if self.decision == OVER:
            return
        v["to_move"][self.current_player] = 1
        v["decision"][self.decision] = 1
        for c in (self.m_card, self.m_partner):
            if c >= 0:
                v["move_cards"][c] = 1
        v["move_cards"][self.m_full] = 1
        if self.m_field >= 0:
            v["move_field"][self.m_field] = 1
        if self.m_action >= 0:
            v["move_action"][self.m_action - SOW] = 1
        v["move_value"][0] = self.m_value / MAX_VALUE
        if self.m_items:
            items = {key: pile for key, _, pile in self.items(self.m_field)}
            for key in self.m_items:
                pile = items[key]
                v["move_items"][list(pile[3]) if pile else key] = 1
        v["move_items"][self.c_given + self.c_taken] = 1
        v["turn"][:] = [self.main_done, self.rake_owed, self.swap_used]
