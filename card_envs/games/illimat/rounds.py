"""Illimat's field clearing, round end, scoring and deal (methods of IllimatState)."""

from __future__ import annotations

import numpy as np

from card_envs.core.cards import SUIT
from card_envs.games.illimat.cards import (
    CHANGELING, CHILDREN, CLAIM_GIVE, CLAIM_SEASON, CLAIM_TAKE, DONE, FOREST_QUEEN, HAND_SIZE, IS_FOOL, NEWBORN,
    NO_LUMINARY, NUM_CARDS, NUM_FIELDS, NUM_LUMINARIES, OVER, RAKE, RIVER, SUMMER, TURN, WINTER)


class RoundFlow:
    """The IllimatState methods between turns: clearing a field (okus, Luminary reveal, the
    Changeling's claim), the Harmonic Convergence, the round's end, its scoring and the next deal."""

    def _start_clearing(self) -> None:
        F, p = self.cleared, self.current_player
        g, o = self.game, self.game.off
        self._clear_move()
        self.okus_taken = False
        if self.okus_left:
            self.okus_left -= 1
            self.okus[p] += 1
            self.okus_taken = True
            self.features[o["okus_left"]] = self.okus_left / 4
            self.features[o["okus"] + p] = self.okus[p] / 4
        L = self.lum[F]
        if L != NO_LUMINARY and self.lum_up[F]:
            self._set_luminary(F, NO_LUMINARY, False)
            self.claimed[p].append(L)
            self.features[o["claimed"] + p * NUM_LUMINARIES + L] = 1
            if L == CHILDREN:
                for c in self.under[F]:
                    self.features[o["under_children"] + F * NUM_CARDS + c] = 0
                    self._add_harvest(p, c, True)
                self.under[F] = []
                self.features[o["children_count"] + F] = 0
            elif L == RAKE:
                for k in range(1, g.num_players):
                    q = (p + k) % g.num_players
                    summer = [c for c in self.harvest[q] if SUIT[c] == SUMMER]
                    if summer:  # the giver's best choice: a non-Fool (all score alike), lowest first
                        c = min(summer, key=lambda x: (IS_FOOL[x], x))
                        self._remove_harvest(q, c)
                        self._add_harvest(p, c, False)
            elif L == FOREST_QUEEN:
                self.m_field = F  # the season chosen is the one F takes: any position of the Illimat
                self.features[o["move_field"] + F] = 1
                self._set_decision(CLAIM_SEASON)
                return
            elif L == CHANGELING:
                self.c_given, self.c_taken = [], []
                if self.hands[p] and self._claim_takeable():
                    self._set_decision(CLAIM_GIVE)
                    return
        self._finish_clearing()

    def _claim_give(self, action: int) -> None:
        if action == DONE:
            self._finish_clearing()
            return
        self._set_move_card(action)
        self._set_decision(CLAIM_TAKE)

    def _claim_take(self, x: int) -> None:
        c, p = self.m_card, self.current_player
        f = next(g for g in range(NUM_FIELDS) if x in self.loose[g])
        self._remove_loose(f, x)
        self._from_hand(c)
        self._add_loose(f, c)
        self._to_hand(p, x, public=True)
        self.c_given.append(c)
        self.c_taken.append(x)
        o = self.game.off["move_items"]
        self.features[o + c] = self.features[o + x] = 1
        self.m_card = -1
        self.features[self.game.off["move_cards"] + c] = 0
        if len(self.c_given) == 2:
            self._finish_clearing()
        else:
            self._set_decision(CLAIM_GIVE)

    def _finish_clearing(self) -> None:
        F = self.cleared
        L = self.lum[F]
        face_down = L != NO_LUMINARY and not self.lum_up[F]
        if self.okus_taken or face_down:
            if len(self.deck) >= 3:
                self._deal_loose(F, 3)
                if face_down:
                    self._reveal(F)
                    if self.game.harmonic_convergence and not self.converged and all(self.lum_up):
                        self._converge()
            elif face_down:
                self._set_luminary(F, NO_LUMINARY, False)
                self.discarded_down.append(L)
        self._next_turn()

    def _reveal(self, F: int) -> None:
        """Flip the face-down Luminary of F (its field was just dealt) and resolve its reveal."""
        L = self.lum[F]
        self._set_luminary(F, L, True)
        if L == RIVER or L == CHILDREN:
            if len(self.deck) < 3:  # the effect cannot be carried out
                self._set_luminary(F, NO_LUMINARY, False)
                self.discarded_up.append(L)
            elif L == RIVER:
                self._deal_loose(F, 3)
            else:
                o = self.game.off
                for _ in range(3):
                    c = self._draw()
                    self.under[F].append(c)
                    self.features[o["under_children"] + F * NUM_CARDS + c] = 1
                self.features[o["children_count"] + F] = 1
        elif L == FOREST_QUEEN:
            self._set_season(F, SUMMER)
        elif L == NEWBORN:
            O = (F + 2) % NUM_FIELDS
            other = self.lum[O]
            if other != NO_LUMINARY and self.lum_up[O]:
                return
            if other == NO_LUMINARY:
                if not self.unused:
                    return
                other = self.unused.pop()
                self.features[self.game.off["luminary_unused"] + other] = 0
                self._set_luminary(O, other, False)
            if len(self.deck) < 3:
                self._set_luminary(O, NO_LUMINARY, False)
                self.discarded_down.append(other)
                return
            self._deal_loose(O, 3)
            self._reveal(O)

    def _converge(self) -> None:
        """Harmonic Convergence (4 Luminaries face up, the first time in the match): every player
        moves one seat left, to the seat that plays after his, and leaves everything behind. The
        engine's seats are the agents, so the per-player state turns instead: player p now owns
        what seat p + 1 owned (hand, known hand cards, harvest pile and its secret cards, okus,
        claimed Luminaries, match score). Play goes on in seat order with the seat after the one
        that just played, and that seat is now held by the player who just played: the current
        player becomes the one before him, so that the turn passes to him."""
        n = self.game.num_players

        def left(xs: list) -> list:
            return xs[1:] + xs[:1]

        self.hands, self.known = left(self.hands), left(self.known)
        self.harvest, self.secret = left(self.harvest), left(self.secret)
        self.okus, self.claimed = left(self.okus), left(self.claimed)
        self.match_scores = left(self.match_scores)
        self.current_player = (self.current_player - 1) % n
        self.converged = True
        self._rebuild_features()

    def _end_round(self) -> None:
        points = self.round_points()
        for p, pts in enumerate(points):
            self.match_scores[p] += pts["total"]
        self.round += 1
        g = self.game
        if max(self.match_scores) >= g.target_score or self.round >= g.rounds:
            self.decision = OVER
            self._rebuild_features()
            return
        self._deal(self.round)

    # ----- scoring ------------------------------------------------------------------------
    def round_points(self) -> list[dict[str, int]]:
        """Each seat's points for the round so far (scored when every hand is empty)."""
        n = self.game.num_players
        total = [len(h) for h in self.harvest]
        summer = [sum(1 for c in h if SUIT[c] == SUMMER) for h in self.harvest]
        winter = [sum(1 for c in h if SUIT[c] == WINTER) for h in self.harvest]
        fools = [sum(1 for c in h if IS_FOOL[c]) for h in self.harvest]
        lums = [len(c) for c in self.claimed]
        key = lums if self.game.luminaries else self.okus  # beginner mode: ties by okus

        def winner(counts: list[int], best) -> int:
            top = max(counts)
            if top == 0:
                return -1
            tied = [p for p in range(n) if counts[p] == top]
            if len(tied) > 1:
                k = best(key[p] for p in tied)
                tied = [p for p in tied if key[p] == k]
            return tied[0] if len(tied) == 1 else -1

        bumper, sun, frost = winner(total, max), winner(summer, max), winner(winter, min)
        out = []
        for p in range(n):
            pts = {"bumper_crop": 4 if p == bumper else 0, "sunkissed": 2 if p == sun else 0,
                   "frostbit": 0, "fools": fools[p], "luminaries": lums[p], "okus": self.okus[p]}
            if p == frost:
                pts["frostbit"] = 2 if RIVER in self.claimed[p] else -2
            pts["total"] = sum(pts.values())
            out.append(pts)
        return out

    # ----- dealing ------------------------------------------------------------------------
    def _deal(self, round_index: int) -> None:
        """Set up round `round_index` from the state's chance seed."""
        g, n = self.game, self.game.num_players
        rng = np.random.default_rng((self.chance_seed, round_index))
        deck = rng.permutation(g.deck_cards).tolist()
        lums = rng.permutation(NUM_LUMINARIES).tolist() if g.luminaries else []
        self.round = round_index
        # the dealer passes left each round and the player on his left starts: seat r % n, which
        # after a Harmonic Convergence is held by player (r - 1) % n
        first = (round_index - self.converged) % n
        self.loose = [sorted(deck.pop() for _ in range(3)) for _ in range(NUM_FIELDS)]
        self.piles = [[] for _ in range(NUM_FIELDS)]
        self.hands = [sorted(deck.pop() for _ in range(3 if p == first else HAND_SIZE)) for p in range(n)]
        self.known = [[] for _ in range(n)]
        self.deck = deck
        if lums:
            self.lum = [lums.pop() for _ in range(NUM_FIELDS)]
        else:
            self.lum = [NO_LUMINARY] * NUM_FIELDS
        self.lum_up = [False] * NUM_FIELDS
        self.unused = lums
        self.under = [[] for _ in range(NUM_FIELDS)]
        self.discarded_down, self.discarded_up = [], []
        self.summer = 0
        self.okus_left, self.okus = n, [0] * n
        self.claimed = [[] for _ in range(n)]
        self.harvest = [[] for _ in range(n)]
        self.secret = [[] for _ in range(n)]
        self.current_player = first
        self.decision = TURN
        self.main_done = self.swap_used = False
        self.rake_owed = False
        self.cleared = -1
        self.okus_taken = False
        self._clear_move_fields()
        self.c_given, self.c_taken = [], []
        self._sums = [None] * NUM_FIELDS
        self._ctx = None
        self._rebuild_features()
