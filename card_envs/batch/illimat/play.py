"""Numba kernels of batched Illimat: every decision of a turn and the mask that allows it
(`rules.IllimatState`'s transitions, `moves.LegalMoves._compute_legal`). The clearing, the
round's end and the deal are in `card_envs.batch.illimat.rounds`.

Each function follows the reference method of the same name line by line. The pending move's
lists (`m_items`, `m_full`, `c_given`, `c_taken`) are arrays with their lengths; a hand is the
cards whose `loc` is that seat's, in card order, which is the reference's sorted hand.
"""

from __future__ import annotations

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.illimat import cover as C
from card_envs.batch.illimat import rounds as R
from card_envs.batch.illimat.kernels import (
    FACE_A, FOOL_A, L_HAND, L_LOOSE, L_PILE, O_MOVE_ACTION, O_MOVE_CARDS, O_MOVE_FIELD, O_MOVE_ITEMS, O_MOVE_VALUE,
    O_TURN, RANK_A, SUIT_A, add_harvest, add_loose, clear_move, face_up_field, from_hand,
    remove_loose, remove_pile, season, set_decision, set_move_card, set_season, to_hand)
from card_envs.batch.numba_borrow import borrowed, by_reference
from card_envs.games.illimat.cards import (
    ACTION, AUTUMN, CHANGELING, CLAIM_GIVE, CLAIM_SEASON, CLAIM_TAKE, DONE, FIELD, FIELD0, FOREST_QUEEN, HAND_SIZE,
    HARVEST, ITEMS, MAIDEN, MAX_VALUE, NUM_CARDS, NUM_FIELDS, PARTNER, PASSIVE_VALUE, RAKE, RAKE_CARD, RAKE_SOW,
    SEASON, SEASON0, SOW, SPRING, STARS, STOCKPILE, SWAP, SWAP_GIVE, SWAP_TAKE, TURN, UNION, VALUE, VALUE0, WINTER)

PASSIVE_A = np.array(PASSIVE_VALUE, np.int64)


# ----- queries (moves.LegalMoves) ----------------------------------------------------------------
@njit(cache=True, inline="always")
def in_hand(s, b, c):
    return s.loc[b, c] == L_HAND + s.cur[b]


@njit(cache=True, inline="always")
def partner_allowed(s, b):
    """A Union harvest plays two cards; with the Rake sow still owed, one must remain."""
    return not (s.rake_owed[b] and s.hand_len[b, s.cur[b]] < 3)


@njit(cache=True)
def can_harvest(s, b, c, f, reach, multi):
    """Card c harvests something in field f, whose sums are reach, multi (`cover.field_sums`)."""
    bits = reach | multi
    if bits & C.harvest_bits(c):
        return True
    if face_up_field(s, b, UNION) == f and partner_allowed(s, b):
        for d in range(NUM_CARDS):
            if d != c and in_hand(s, b, d) and bits & C.pair_bits(c, d):
                return True
    return False


@njit(cache=True)
def stockpile_values(s, b, c, reach, multi):
    """Bitmask of the stockpile values reachable with active card c in a field of these sums,
    given a passive card of that value in the rest of the hand."""
    va = RANK_A[c]  # ACTIVE_VALUE: an active Fool counts 1
    out = C.U0
    low, high = C.cards_at(s, b, L_HAND + s.cur[b])
    while low | high:
        d, low, high = C.lowest(low, high)
        T = PASSIVE_A[d]
        reached = (T > va) & C.has(reach, max(T - va, 0)) | (T == va) & C.has(reach | multi, T)
        out |= np.uint64((d != c) & reached) << np.uint64(T)
    return out


@njit(cache=True, inline="always")
def harvest_allowed(s, b, f):
    return season(s, b, f) != WINTER or face_up_field(s, b, MAIDEN) >= 0


@njit(cache=True)
def full_fields(s, t, b, totals):
    """Bitmask of the fields where a full harvest of these totals takes something."""
    out = 0
    for f in range(NUM_FIELDS):
        if harvest_allowed(s, b, f):
            reach, multi = C.field_sums(s, t, b, f)
            if (reach | multi) & totals:
                out |= 1 << f
    return out


@njit(cache=True)
def full_move_totals(s, b):
    """full_totals of the pending full harvest's cards (`m_full`)."""
    totals = C.U1
    for i in range(s.m_full_len[b]):
        totals = C.add_card_total(totals, s.m_full[b, i])
    return totals


@njit(cache=True, inline="always")
def swap_available(s, b):
    if s.swap_used[b] or s.hand_len[b, s.cur[b]] == 0:
        return False
    g = face_up_field(s, b, CHANGELING)
    return g >= 0 and s.loose_len[b, g] > 0


@njit(cache=True)
def face_seasons(cards, count):
    mask = 0
    for i in range(count):
        c = cards[i]
        if FACE_A[c]:
            mask |= 15 if SUIT_A[c] == STARS else 1 << SUIT_A[c]
    return mask


# ----- the mask (LegalMoves._compute_legal) ------------------------------------------------------
@njit(cache=True)
def legal_row(s, t, b, memo, row):
    row[:] = False
    d, p = s.decision[b], s.cur[b]
    hand_len = s.hand_len[b, p]
    if d == TURN:
        if not s.main_done[b] and not (s.rake_owed[b] and hand_len == 1):
            for c in range(NUM_CARDS):  # a bool each, no branch (it would mispredict at every other card)
                row[c] = in_hand(s, b, c)
            if t.full_harvest and hand_len == HAND_SIZE and not s.rake_owed[b] \
                    and full_fields(s, t, b, C.full_totals(s, b, p)):
                row[HARVEST] = True
        if s.main_done[b] and not s.rake_owed[b]:
            row[DONE] = True
        if s.rake_owed[b]:
            row[RAKE_SOW] = True
        if swap_available(s, b):
            row[SWAP] = True
    elif d == FIELD:
        if s.m_full_len[b]:
            fields = full_fields(s, t, b, full_move_totals(s, b))
            for f in range(NUM_FIELDS):
                if fields >> f & 1:
                    row[FIELD0 + f] = True
        else:
            c = s.m_card[b]
            for f in range(NUM_FIELDS):
                if season(s, b, f) != AUTUMN:
                    row[FIELD0 + f] = True
                    continue
                reach, multi = C.field_sums(s, t, b, f)
                if can_harvest(s, b, c, f, reach, multi) or stockpile_values(s, b, c, reach, multi):
                    row[FIELD0 + f] = True
    elif d == ACTION:
        c, f = s.m_card[b], s.m_field[b]
        se = season(s, b, f)
        if se != AUTUMN:
            row[SOW] = True
        reach, multi = C.field_sums(s, t, b, f)
        if harvest_allowed(s, b, f) and can_harvest(s, b, c, f, reach, multi):
            row[HARVEST] = True
        if se != SPRING and stockpile_values(s, b, c, reach, multi):
            row[STOCKPILE] = True
    elif d == PARTNER:
        c = s.m_card[b]
        reach, multi = C.field_sums(s, t, b, s.m_field[b])
        bits = reach | multi
        if partner_allowed(s, b):
            for e in range(NUM_CARDS):
                if e != c and in_hand(s, b, e) and bits & C.pair_bits(c, e):
                    row[e] = True
        if bits & C.harvest_bits(c):
            row[DONE] = True
    elif d == VALUE:
        reach, multi = C.field_sums(s, t, b, s.m_field[b])
        if s.m_action[b] == STOCKPILE:
            values = stockpile_values(s, b, s.m_card[b], reach, multi)
        else:
            values = (reach | multi) & _values(s, b)
        for v in range(1, MAX_VALUE + 1):
            if C.has(values, v):
                row[VALUE0 + v] = True
    elif d == ITEMS:
        if C.items_legal(s, t, b, _active(s, b), _targets(s, t, b), memo, row):
            row[DONE] = True
    elif d == SEASON or d == CLAIM_SEASON:
        seasons = face_seasons(s.m_full[b], s.m_full_len[b]) if s.m_full_len[b] else 15
        for k in range(4):
            if seasons >> k & 1:
                row[SEASON0 + k] = True
    elif d == RAKE_CARD or d == SWAP_GIVE:
        for c in range(NUM_CARDS):
            row[c] = in_hand(s, b, c)
    elif d == SWAP_TAKE:
        g = face_up_field(s, b, CHANGELING)
        for c in range(NUM_CARDS):
            row[c] = s.loc[b, c] == L_LOOSE + g
    elif d == CLAIM_GIVE:
        if R.any_claim_takeable(s, b):
            for c in range(NUM_CARDS):
                row[c] = in_hand(s, b, c)
            for i in range(s.c_taken_len[b]):
                row[s.c_taken[b, i]] = False
        row[DONE] = True
    elif d == CLAIM_TAKE:
        for c in range(NUM_CARDS):
            if R.claim_takeable(s, b, c):
                row[c] = True


@njit(cache=True, inline="always")
def _values(s, b):
    """The values the pending harvest may take: its card's, or the Union pair's totals."""
    c = s.m_card[b]
    return C.harvest_bits(c) if s.m_partner[b] < 0 else C.pair_bits(c, s.m_partner[b])


@njit(cache=True, inline="always")
def _active(s, b):
    return RANK_A[s.m_card[b]] if s.m_action[b] == STOCKPILE else 0


@njit(cache=True)
def _targets(s, t, b):
    if s.m_full_len[b]:
        reach, multi = C.field_sums(s, t, b, s.m_field[b])
        return full_move_totals(s, b) & (reach | multi)
    return C.bit(s.m_value[b])


# ----- transitions (IllimatState.apply and the methods it calls) ---------------------------------
@njit(cache=True)
def apply_one(s, t, b, a):
    d = s.decision[b]
    if d == TURN:
        turn_choice(s, t, b, a)
    elif d == FIELD:
        set_field(s, t, b, a - FIELD0)
    elif d == ACTION:
        choose_action(s, t, b, a)
    elif d == PARTNER:
        if a != DONE:
            s.m_partner[b] = a
            s.feat[b, t.off[O_MOVE_CARDS] + a] = 1
        after_partner(s, t, b)
    elif d == VALUE:
        choose_value(s, t, b, a - VALUE0)
    elif d == ITEMS:
        choose_item(s, t, b, a)
    elif d == SEASON:
        set_season(s, t, b, s.m_field[b], a - SEASON0)
        after_part(s, t, b)
    elif d == RAKE_CARD:
        rake_sow(s, t, b, a)
    elif d == SWAP_GIVE:
        set_move_card(s, t, b, a)
        set_decision(s, t, b, SWAP_TAKE)
    elif d == SWAP_TAKE:
        swap(s, t, b, a)
    elif d == CLAIM_GIVE:
        R.claim_give(s, t, b, a)
    elif d == CLAIM_TAKE:
        R.claim_take(s, t, b, a)
    elif d == CLAIM_SEASON:
        set_season(s, t, b, s.cleared[b], a - SEASON0)
        clear_move(s, t, b)
        R.finish_clearing(s, t, b)


@njit(cache=True, inline="always")
def turn_choice(s, t, b, a):
    if a < FIELD0:
        set_move_card(s, t, b, a)
        set_decision(s, t, b, FIELD)
    elif a == HARVEST:  # a full harvest: the whole hand
        k = 0
        for c in range(NUM_CARDS):
            if in_hand(s, b, c):
                s.m_full[b, k] = c
                k += 1
                s.feat[b, t.off[O_MOVE_CARDS] + c] = 1
        s.m_full_len[b] = k
        set_decision(s, t, b, FIELD)
    elif a == RAKE_SOW:
        set_decision(s, t, b, RAKE_CARD)
    elif a == SWAP:
        set_decision(s, t, b, SWAP_GIVE)
    else:  # DONE
        R.end_turn(s, t, b)


@njit(cache=True, inline="always")
def set_field(s, t, b, f):
    s.m_field[b] = f
    s.feat[b, t.off[O_MOVE_FIELD] + f] = 1
    if s.m_full_len[b]:  # a full harvest is a harvest: its items come next
        s.m_action[b] = HARVEST
        s.feat[b, t.off[O_MOVE_ACTION] + HARVEST - SOW] = 1
        set_decision(s, t, b, ITEMS)
        return
    set_decision(s, t, b, ACTION)


@njit(cache=True, inline="always")
def choose_action(s, t, b, a):
    s.m_action[b] = a
    s.feat[b, t.off[O_MOVE_ACTION] + a - SOW] = 1
    if a == SOW:
        c, f = s.m_card[b], s.m_field[b]
        from_hand(s, t, b, c)
        add_loose(s, t, b, f, c)
        played = np.empty(1, np.int64)
        played[0] = c
        main_played(s, t, b, played, 1, f)
    elif a == HARVEST:
        if face_up_field(s, b, UNION) == s.m_field[b]:
            set_decision(s, t, b, PARTNER)
        else:
            after_partner(s, t, b)
    else:
        set_decision(s, t, b, VALUE)


@njit(cache=True, inline="always")
def after_partner(s, t, b):
    values = _values(s, b)
    count, last = 0, 0
    for v in range(1, MAX_VALUE + 1):
        if C.has(values, v):
            count += 1
            last = v
    if count > 1:
        set_decision(s, t, b, VALUE)
    else:
        choose_value(s, t, b, last)


@njit(cache=True, inline="always")
def choose_value(s, t, b, v):
    s.m_value[b] = v
    s.feat[b, t.off[O_MOVE_VALUE]] = v / MAX_VALUE
    set_decision(s, t, b, ITEMS)


@njit(cache=True, inline="always")
def choose_item(s, t, b, a):
    if a != DONE:
        s.m_items[b, s.m_items_len[b]] = a
        s.m_items_len[b] += 1
        f, o = s.m_field[b], t.off[O_MOVE_ITEMS]
        if s.loc[b, a] == L_LOOSE + f:
            s.feat[b, o + a] = 1
        else:
            for c in range(NUM_CARDS):
                if s.loc[b, c] == L_PILE + f and s.pile_key[b, c] == a:
                    s.feat[b, o + c] = 1
        return
    resolve_items(s, t, b)


@njit(cache=True)
def _chosen(s, b, key):
    for i in range(s.m_items_len[b]):
        if s.m_items[b, i] == key:
            return True
    return False


@njit(cache=True)
def resolve_items(s, t, b):
    f, p, c = s.m_field[b], s.cur[b], s.m_card[b]
    taken = np.empty(NUM_CARDS, np.int64)
    n_taken = 0
    # a stockpile is single when no multiple stockpile is taken in and the active card and the
    # items form one group of the value (the codes are read before anything moves)
    plain = np.zeros(C.NUM_KINDS, np.int64)
    multiple = False
    for c2 in range(NUM_CARDS):
        if s.loc[b, c2] == L_LOOSE + f and _chosen(s, b, c2):
            taken[n_taken] = c2
            n_taken += 1
            plain[0 if FOOL_A[c2] else RANK_A[c2]] += 1
    keys = np.empty(NUM_CARDS, np.int64)
    n_keys = 0
    for c2 in range(NUM_CARDS):
        if s.loc[b, c2] == L_PILE + f and s.pile_key[b, c2] == c2 and _chosen(s, b, c2):
            keys[n_keys] = c2
            n_keys += 1
            if s.pile_multi[b, c2]:
                multiple = True
            else:
                plain[s.pile_val[b, c2]] += 1
    for i in range(n_taken):
        remove_loose(s, t, b, f, taken[i])
    for i in range(n_keys):
        key = keys[i]
        for c2 in range(NUM_CARDS):
            if s.loc[b, c2] == L_PILE + f and s.pile_key[b, c2] == key:
                taken[n_taken] = c2
                n_taken += 1
        remove_pile(s, t, b, f, key)
    if s.m_action[b] == HARVEST:
        played = np.empty(HAND_SIZE, np.int64)
        n_played = 0
        if s.m_full_len[b]:
            for i in range(s.m_full_len[b]):
                played[i] = s.m_full[b, i]
            n_played = s.m_full_len[b]
        else:
            played[0] = c
            n_played = 1
            if s.m_partner[b] >= 0:
                played[1] = s.m_partner[b]
                n_played = 2
        for i in range(n_played):
            from_hand(s, t, b, played[i])
            add_harvest(s, t, b, p, played[i], False)
        for i in range(n_taken):
            add_harvest(s, t, b, p, taken[i], False)
        if s.loose_len[b, f] == 0 and s.piles_len[b, f] == 0:
            s.cleared[b] = f
        main_played(s, t, b, played, n_played, f)
    else:
        plain[RANK_A[c]] += 1  # the active card (a Fool counts 1)
        single = not multiple and C.one_group_has(plain, s.m_value[b])
        from_hand(s, t, b, c)
        key = c
        for i in range(n_taken):
            key = min(key, taken[i])
        taken[n_taken] = c
        n_taken += 1
        for i in range(n_taken):
            s.loc[b, taken[i]] = L_PILE + f
            s.pile_key[b, taken[i]] = key
        s.pile_val[b, key] = s.m_value[b]
        s.pile_multi[b, key] = not single
        s.piles_len[b, f] += 1
        played = np.empty(1, np.int64)
        played[0] = c
        main_played(s, t, b, played, 1, f)


@njit(cache=True, inline="always")
def main_played(s, t, b, played, n_played, f):
    s.main_done[b] = True
    s.feat[b, t.off[O_TURN]] = 1
    if rotate(s, t, b, f, played, n_played):
        return
    after_part(s, t, b)


@njit(cache=True)
def rotate(s, t, b, f, played, n_played):
    """Rotate for the last face card played into f; True when the player picks the season."""
    last = -1
    for i in range(n_played):
        if FACE_A[played[i]]:
            last = played[i]
    if last < 0 or face_up_field(s, b, FOREST_QUEEN) >= 0:
        return False
    if s.m_full_len[b]:
        # a full harvest plays its cards at once: the player orders its face cards (the last one
        # sticks), i.e. chooses among their seasons (any season for a Stars face card)
        seasons = face_seasons(played, n_played)
        if seasons & (seasons - 1):
            full = s.m_full_len[b]
            clear_move(s, t, b)
            s.m_full_len[b] = full
            for i in range(full):
                s.feat[b, t.off[O_MOVE_CARDS] + s.m_full[b, i]] = 1
            s.m_field[b] = f
            s.feat[b, t.off[O_MOVE_FIELD] + f] = 1
            set_decision(s, t, b, SEASON)
            return True
        k = 0
        while seasons >> (k + 1):
            k += 1
        set_season(s, t, b, f, k)
        return False
    if SUIT_A[last] == STARS:
        clear_move(s, t, b)
        s.m_field[b] = f
        s.feat[b, t.off[O_MOVE_FIELD] + f] = 1
        set_decision(s, t, b, SEASON)
        return True
    set_season(s, t, b, f, SUIT_A[last])
    return False


@njit(cache=True)
def rake_sow(s, t, b, c):
    f, p = face_up_field(s, b, RAKE), s.cur[b]
    if s.hand_len[b, p] == 1 and not s.main_done[b]:
        s.main_done[b] = True  # the last card: the Rake sow is the play
        s.feat[b, t.off[O_TURN]] = 1
    s.rake_owed[b] = False
    s.feat[b, t.off[O_TURN] + 1] = 0
    from_hand(s, t, b, c)
    add_loose(s, t, b, f, c)
    played = np.empty(1, np.int64)
    played[0] = c
    if rotate(s, t, b, f, played, 1):
        return
    after_part(s, t, b)


@njit(cache=True)
def swap(s, t, b, x):
    g, c, p = face_up_field(s, b, CHANGELING), s.m_card[b], s.cur[b]
    s.swap_used[b] = True
    s.feat[b, t.off[O_TURN] + 2] = 1
    remove_loose(s, t, b, g, x)
    from_hand(s, t, b, c)
    add_loose(s, t, b, g, c)
    to_hand(s, t, b, p, x, True)
    after_part(s, t, b)


@njit(cache=True)
def after_part(s, t, b):
    """A part of the turn is done: offer the rest, or end the turn."""
    clear_move(s, t, b)
    if s.main_done[b] and not s.rake_owed[b] and not swap_available(s, b):
        R.end_turn(s, t, b)
    else:
        set_decision(s, t, b, TURN)


# ----- entry kernels -------------------------------------------------------------------------------
@njit(cache=True)
def apply(s, t, actions, active):
    s, t = by_reference(s), by_reference(t)
    for b in range(actions.shape[0]):
        if active[b]:
            apply_one(s, t, b, actions[b])


@njit(cache=True)
def mask(s, t, memo, out):
    s, t, memo = by_reference(s), by_reference(t), by_reference(memo)
    (out,) = borrowed((out,))  # each row's view of it is then not reference-counted
    for b in range(out.shape[0]):
        legal_row(s, t, b, memo, out[b])
