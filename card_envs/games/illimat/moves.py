"""Illimat's legal moves, decided one decision at a time from what was chosen so far (see the
hot-path notes in rules.py)."""

from __future__ import annotations

from card_envs.core.cards import RANK
from card_envs.games.illimat.cards import (
    ACTION, ACTIVE_VALUE, AUTUMN, CHANGELING, CLAIM_GIVE, CLAIM_SEASON, CLAIM_TAKE, DONE, FIELD, FIELD0, HAND_SIZE,
    HARVEST, HARVEST_VALUES, IS_FOOL, ITEMS, MAIDEN, NUM_FIELDS, PAIR_VALUES, PARTNER, PASSIVE_VALUE, RAKE_CARD,
    RAKE_SOW, SEASON, SEASON0, SEASON_ACTIONS, SOW, SPRING, STOCKPILE, SWAP, SWAP_GIVE, SWAP_TAKE, TURN, UNION, VALUE,
    VALUE0, WINTER, face_seasons, full_totals)
from card_envs.games.illimat.groups import MULTIPLE_CODE, NUM_KINDS, coverable


def _fits(targets: list[int], required: tuple[int, ...], multiples: list[int], later: tuple[int, ...]) -> bool:
    """Some target that every multiple stockpile taken equals and that the plain items can cover."""
    return any(all(m == t for m in multiples) and coverable(t, required, later) for t in targets)


class LegalMoves:
    """The IllimatState methods that answer which actions are legal now: each field's sums, the
    cards, fields, actions and values that can still be completed, and the items of a harvest or
    stockpile that can still be covered exactly."""

    # ----- field sums ---------------------------------------------------------------------
    def _field_sums(self, f: int) -> tuple[int, int]:
        """(sums of non-empty sets of loose cards and single stockpiles, values of multiple
        stockpiles), as bitmasks: bit v set when v can be made."""
        s = self._sums[f]
        if s is None:
            mask = self.game.sum_mask
            reach = multi = 0
            for c in self.loose[f]:
                if IS_FOOL[c]:
                    reach |= (reach << 1) | (reach << 14) | 0x4002
                else:
                    v = RANK[c]
                    reach |= (reach << v) | (1 << v)
                reach &= mask
            for pile in self.piles[f]:
                if pile[2]:
                    multi |= 1 << pile[1]
                else:
                    v = pile[1]
                    reach |= ((reach << v) | (1 << v)) & mask
            s = self._sums[f] = (reach, multi)
        return s

    def _partner_allowed(self) -> bool:
        """A Union harvest plays two cards; with the Rake sow still owed, one must remain."""
        return not (self.rake_owed and len(self.hands[self.current_player]) < 3)

    def _can_harvest(self, c: int, f: int) -> bool:
        reach, multi = self._field_sums(f)
        bits = reach | multi
        for v in HARVEST_VALUES[c]:
            if bits >> v & 1:
                return True
        if self.face_up_field(UNION) == f and self._partner_allowed():
            pairs = PAIR_VALUES[c]
            for d in self.hands[self.current_player]:
                if d != c:
                    for v in pairs[d]:
                        if bits >> v & 1:
                            return True
        return False

    def _stockpile_values(self, c: int, f: int) -> list[int]:
        """Stockpile values T reachable with active card c in field f, given a passive card of
        value T in the rest of the hand: c's group is c + loose cards / single stockpiles totalling
        T (or c alone when c = T, next to another group: a set totalling T or a multiple
        stockpile of T)."""
        reach, multi = self._field_sums(f)
        va = ACTIVE_VALUE[c]
        out = []
        for T in sorted({PASSIVE_VALUE[d] for d in self.hands[self.current_player] if d != c}):
            if T > va and reach >> (T - va) & 1 or T == va and (reach | multi) >> T & 1:
                out.append(T)
        return out

    def _harvest_allowed(self, f: int) -> bool:
        return self.season(f) != WINTER or self.face_up_field(MAIDEN) >= 0

    def _full_fields(self, cards) -> list[int]:
        """The fields where a full harvest of `cards` (the whole hand) takes something."""
        totals = full_totals(cards)
        out = []
        for f in range(NUM_FIELDS):
            if self._harvest_allowed(f):
                reach, multi = self._field_sums(f)
                bits = reach | multi
                if any(bits >> t & 1 for t in totals):
                    out.append(f)
        return out

    def _swap_available(self) -> bool:
        if self.swap_used or not self.hands[self.current_player]:
            return False
        g = self.face_up_field(CHANGELING)
        return g >= 0 and bool(self.loose[g])

    # ----- legal answers ------------------------------------------------------------------
    def _compute_legal(self) -> list[int]:
        d = self.decision
        hand = self.hands[self.current_player]
        if d == TURN:
            legal = []
            if not self.main_done and not (self.rake_owed and len(hand) == 1):
                legal += hand  # every card can at least be sown (only one field is Autumn)
                # a full harvest plays the whole hand: never while a Rake sow is owed (no card left)
                if self.game.full_harvest and len(hand) == HAND_SIZE and not self.rake_owed \
                        and self._full_fields(hand):
                    legal.append(HARVEST)
            if self.main_done and not self.rake_owed:
                legal.append(DONE)
            if self.rake_owed:
                legal.append(RAKE_SOW)
            if self._swap_available():
                legal.append(SWAP)
            return legal
        if d == FIELD:
            if self.m_full:
                return [FIELD0 + f for f in self._full_fields(self.m_full)]
            c = self.m_card
            legal = []
            for f in range(NUM_FIELDS):
                s = self.season(f)
                if s != AUTUMN or self._can_harvest(c, f) or self._stockpile_values(c, f):
                    legal.append(FIELD0 + f)
            return legal
        if d == ACTION:
            c, f = self.m_card, self.m_field
            s = self.season(f)
            legal = []
            if s != AUTUMN:
                legal.append(SOW)
            if self._harvest_allowed(f) and self._can_harvest(c, f):
                legal.append(HARVEST)
            if s != SPRING and self._stockpile_values(c, f):
                legal.append(STOCKPILE)
            return legal
        if d == PARTNER:
            c, f = self.m_card, self.m_field
            reach, multi = self._field_sums(f)
            bits = reach | multi
            legal = []
            if self._partner_allowed():
                for e in hand:
                    if e != c and any(bits >> v & 1 for v in PAIR_VALUES[c][e]):
                        legal.append(e)
            if any(bits >> v & 1 for v in HARVEST_VALUES[c]):
                legal.append(DONE)
            return legal
        if d == VALUE:
            if self.m_action == STOCKPILE:
                return [VALUE0 + v for v in self._stockpile_values(self.m_card, self.m_field)]
            reach, multi = self._field_sums(self.m_field)
            bits = reach | multi
            values = HARVEST_VALUES[self.m_card] if self.m_partner < 0 else PAIR_VALUES[self.m_card][self.m_partner]
            return [VALUE0 + v for v in values if bits >> v & 1]
        if d == ITEMS:
            return self._items_legal()
        if d == SEASON or d == CLAIM_SEASON:
            if self.m_full:  # a full harvest's face cards: the season of one of them
                seasons = face_seasons(self.m_full)
                return [SEASON0 + s for s in range(4) if seasons >> s & 1]
            return list(SEASON_ACTIONS)
        if d == RAKE_CARD or d == SWAP_GIVE:
            return hand[:]
        if d == SWAP_TAKE:
            return self.loose[self.face_up_field(CHANGELING)][:]
        if d == CLAIM_GIVE:
            legal = []
            if self._claim_takeable():
                legal = [c for c in hand if c not in self.c_taken]
            legal.append(DONE)
            return legal
        if d == CLAIM_TAKE:
            return self._claim_takeable()
        return []  # OVER

    def _claim_takeable(self) -> list[int]:
        given = self.c_given
        return sorted(c for f in range(NUM_FIELDS) for c in self.loose[f] if c not in given)

    def _items_context(self):
        """(item keys, item codes, key -> index, the active card's value or 0, the targets)."""
        ctx = self._ctx
        if ctx is None:
            items = self.items(self.m_field)
            keys = [it[0] for it in items]
            active = ACTIVE_VALUE[self.m_card] if self.m_action == STOCKPILE else 0
            if self.m_full:  # a full harvest: groups all of one total the hand may take
                reach, multi = self._field_sums(self.m_field)
                targets = [t for t in full_totals(self.m_full) if (reach | multi) >> t & 1]
            else:
                targets = [self.m_value]
            ctx = self._ctx = (keys, [it[1] for it in items], {k: i for i, k in enumerate(keys)}, active, targets)
        return ctx

    def _items_legal(self) -> list[int]:
        """Items offered next (in ascending key order after those chosen) and DONE: each keeps the
        move completable, i.e. the items chosen, the new one and the active card can still be
        split into groups of one target with items offered later."""
        keys, codes, index, active, targets = self._items_context()
        chosen = [index[k] for k in self.m_items]
        last = chosen[-1] if chosen else -1
        required, multiples = [0] * NUM_KINDS, []
        for i in chosen:
            if codes[i] >= MULTIPLE_CODE:
                multiples.append(codes[i] - MULTIPLE_CODE)
            else:
                required[codes[i]] += 1
        if active:
            required[active] += 1
        later = [()] * len(keys)  # later[i]: value counts of the plain items after item i
        counts = [0] * NUM_KINDS
        for i in range(len(keys) - 1, last, -1):
            later[i] = tuple(counts)
            if codes[i] < MULTIPLE_CODE:
                counts[codes[i]] += 1
        legal = []
        for i in range(last + 1, len(keys)):
            code = codes[i]
            if code >= MULTIPLE_CODE:
                ok = _fits(targets, tuple(required), multiples + [code - MULTIPLE_CODE], later[i])
            else:
                required[code] += 1
                ok = _fits(targets, tuple(required), multiples, later[i])
                required[code] -= 1
            if ok:
                legal.append(keys[i])
        if chosen and _fits(targets, tuple(required), multiples, (0,) * NUM_KINDS):
            legal.append(DONE)
        return legal
