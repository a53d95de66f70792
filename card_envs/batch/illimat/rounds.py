"""Numba kernels of batched Illimat between turns: the end of a turn, clearing a field (okus,
Luminary claim and reveal, the Changeling's claim), the Harmonic Convergence, the round's end,
its scoring and the next deal (`rules.IllimatState._end_turn` .. `_start_turn`,
`rounds.RoundFlow`), each following the reference method of the same name.
"""

from __future__ import annotations

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.illimat.kernels import (
    FOOL_A, L_HAND, L_HARVEST, L_LOOSE, L_PILE, L_UNDER, O_CHILDREN_COUNT, O_CLAIMED, O_LUM_UNUSED,
    O_MOVE_CARDS, O_MOVE_FIELD, O_MOVE_ITEMS, O_OKUS, O_OKUS_LEFT, O_TO_MOVE, O_TURN, SUIT_A, add_harvest,
    add_loose, clear_move, deal, deal_loose, draw, face_up_field, from_hand, rebuild, remove_harvest, remove_loose,
    set_decision, set_luminary, set_move_card, set_season, to_hand)
from card_envs.games.illimat.cards import (
    CHANGELING, CHILDREN, CLAIM_GIVE, CLAIM_SEASON, CLAIM_TAKE, DONE, FOREST_QUEEN, HAND_SIZE, NEWBORN,
    NO_LUMINARY, NUM_CARDS, NUM_FIELDS, NUM_LUMINARIES, OVER, RAKE, RIVER, SUMMER, TURN, WINTER)


# ----- end of turn --------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def end_turn(s, t, b):
    p = s.cur[b]
    while s.hand_len[b, p] < HAND_SIZE and s.deck_len[b]:
        to_hand(s, t, b, p, draw(s, t, b), False)
    if s.cleared[b] >= 0:
        start_clearing(s, t, b)
    else:
        next_turn(s, t, b)


@njit(cache=True, inline="always")
def next_turn(s, t, b):
    for k in range(1, t.n + 1):
        q = (s.cur[b] + k) % t.n
        if s.hand_len[b, q]:
            start_turn(s, t, b, q)
            return
    end_round(s, t, b)


@njit(cache=True, inline="always")
def start_turn(s, t, b, q):
    o = t.off
    s.feat[b, o[O_TO_MOVE] + s.cur[b]] = 0
    s.cur[b] = q
    s.feat[b, o[O_TO_MOVE] + q] = 1
    s.main_done[b] = s.swap_used[b] = False
    s.rake_owed[b] = face_up_field(s, b, RAKE) >= 0
    s.cleared[b] = -1
    s.okus_taken[b] = False
    s.c_given_len[b] = s.c_taken_len[b] = 0
    s.feat[b, o[O_TURN]] = 0
    s.feat[b, o[O_TURN] + 1] = 1 if s.rake_owed[b] else 0
    s.feat[b, o[O_TURN] + 2] = 0
    clear_move(s, t, b)
    for c in range(NUM_CARDS):
        s.feat[b, o[O_MOVE_ITEMS] + c] = 0
    set_decision(s, t, b, TURN)


# ----- clearing -----------------------------------------------------------------------------------
@njit(cache=True)
def claim_takeable(s, b, c):
    """Card c is loose in some field and was not given by this claim."""
    where = s.loc[b, c]
    if not L_LOOSE <= where < L_PILE:
        return False
    for i in range(s.c_given_len[b]):
        if s.c_given[b, i] == c:
            return False
    return True


@njit(cache=True)
def any_claim_takeable(s, b):
    for c in range(NUM_CARDS):
        if claim_takeable(s, b, c):
            return True
    return False


@njit(cache=True)
def start_clearing(s, t, b):
    F, p, o = s.cleared[b], s.cur[b], t.off
    clear_move(s, t, b)
    s.okus_taken[b] = False
    if s.okus_left[b]:
        s.okus_left[b] -= 1
        s.okus[b, p] += 1
        s.okus_taken[b] = True
        s.feat[b, o[O_OKUS_LEFT]] = s.okus_left[b] / 4
        s.feat[b, o[O_OKUS] + p] = s.okus[b, p] / 4
    L = s.lum[b, F]
    if L != NO_LUMINARY and s.lum_up[b, F]:
        set_luminary(s, t, b, F, NO_LUMINARY, False)
        s.claimed[b, p, s.claimed_len[b, p]] = L
        s.claimed_len[b, p] += 1
        s.feat[b, o[O_CLAIMED] + p * NUM_LUMINARIES + L] = 1
        if L == CHILDREN:
            for i in range(s.under_len[b, F]):
                add_harvest(s, t, b, p, s.under[b, F, i], True)
            s.under_len[b, F] = 0
            s.feat[b, o[O_CHILDREN_COUNT] + F] = 0
        elif L == RAKE:
            for k in range(1, t.n):
                q = (p + k) % t.n
                give = -1  # the giver's best choice: a non-Fool (all score alike), lowest first
                for i in range(s.harv_len[b, q]):
                    c = s.harv[b, q, i]
                    if SUIT_A[c] == SUMMER and (give < 0 or FOOL_A[c] < FOOL_A[give]
                                                or FOOL_A[c] == FOOL_A[give] and c < give):
                        give = c
                if give >= 0:
                    remove_harvest(s, t, b, q, give)
                    add_harvest(s, t, b, p, give, False)
        elif L == FOREST_QUEEN:
            s.m_field[b] = F  # the season chosen is the one F takes: any position of the Illimat
            s.feat[b, o[O_MOVE_FIELD] + F] = 1
            set_decision(s, t, b, CLAIM_SEASON)
            return
        elif L == CHANGELING:
            s.c_given_len[b] = s.c_taken_len[b] = 0
            if s.hand_len[b, p] and any_claim_takeable(s, b):
                set_decision(s, t, b, CLAIM_GIVE)
                return
    finish_clearing(s, t, b)


@njit(cache=True)
def claim_give(s, t, b, a):
    if a == DONE:
        finish_clearing(s, t, b)
        return
    set_move_card(s, t, b, a)
    set_decision(s, t, b, CLAIM_TAKE)


@njit(cache=True)
def claim_take(s, t, b, x):
    c, p, o = s.m_card[b], s.cur[b], t.off
    f = s.loc[b, x] - L_LOOSE
    remove_loose(s, t, b, f, x)
    from_hand(s, t, b, c)
    add_loose(s, t, b, f, c)
    to_hand(s, t, b, p, x, True)
    s.c_given[b, s.c_given_len[b]] = c
    s.c_given_len[b] += 1
    s.c_taken[b, s.c_taken_len[b]] = x
    s.c_taken_len[b] += 1
    s.feat[b, o[O_MOVE_ITEMS] + c] = s.feat[b, o[O_MOVE_ITEMS] + x] = 1
    s.m_card[b] = -1
    s.feat[b, o[O_MOVE_CARDS] + c] = 0
    if s.c_given_len[b] == 2:
        finish_clearing(s, t, b)
    else:
        set_decision(s, t, b, CLAIM_GIVE)


@njit(cache=True)
def finish_clearing(s, t, b):
    F = s.cleared[b]
    L = s.lum[b, F]
    face_down = L != NO_LUMINARY and not s.lum_up[b, F]
    if s.okus_taken[b] or face_down:
        if s.deck_len[b] >= 3:
            deal_loose(s, t, b, F, 3)
            if face_down:
                reveal(s, t, b, F)
                if t.harmonic and not s.converged[b] and s.lum_up[b].all():
                    converge(s, t, b)
        elif face_down:
            set_luminary(s, t, b, F, NO_LUMINARY, False)
            s.disc_down[b, s.disc_down_len[b]] = L
            s.disc_down_len[b] += 1
    next_turn(s, t, b)


@njit(cache=True)
def reveal(s, t, b, F):
    """Flip the face-down Luminary of F (its field was just dealt) and resolve its reveal; the
    Newborn's reveal of the opposite field is the loop's second pass (the reference recurses)."""
    while True:
        L = s.lum[b, F]
        set_luminary(s, t, b, F, L, True)
        if L == RIVER or L == CHILDREN:
            if s.deck_len[b] < 3:  # the effect cannot be carried out
                set_luminary(s, t, b, F, NO_LUMINARY, False)
                s.disc_up[b, s.disc_up_len[b]] = L
                s.disc_up_len[b] += 1
            elif L == RIVER:
                deal_loose(s, t, b, F, 3)
            else:
                o = t.off
                for _ in range(3):
                    c = draw(s, t, b)
                    s.loc[b, c] = L_UNDER + F
                    s.under[b, F, s.under_len[b, F]] = c
                    s.under_len[b, F] += 1
                s.feat[b, o[O_CHILDREN_COUNT] + F] = 1
        elif L == FOREST_QUEEN:
            set_season(s, t, b, F, SUMMER)
        elif L == NEWBORN:
            O = (F + 2) % NUM_FIELDS
            other = s.lum[b, O]
            if other != NO_LUMINARY and s.lum_up[b, O]:
                return
            if other == NO_LUMINARY:
                if not s.unused_len[b]:
                    return
                s.unused_len[b] -= 1
                other = s.unused[b, s.unused_len[b]]
                s.feat[b, t.off[O_LUM_UNUSED] + other] = 0
                set_luminary(s, t, b, O, other, False)
            if s.deck_len[b] < 3:
                set_luminary(s, t, b, O, NO_LUMINARY, False)
                s.disc_down[b, s.disc_down_len[b]] = other
                s.disc_down_len[b] += 1
                return
            deal_loose(s, t, b, O, 3)
            F = O
            continue
        return


@njit(cache=True)
def _left(array, n):
    """xs[1:] + xs[:1] on the seat axis of array (its first axis has n seats, maybe more)."""
    first = array[0:1].copy()
    for p in range(n - 1):
        array[p] = array[p + 1]
    array[n - 1] = first[0]


@njit(cache=True)
def converge(s, t, b):
    """Harmonic Convergence: player p now owns what seat p + 1 owned (`RoundFlow._converge`)."""
    n = t.n
    for c in range(NUM_CARDS):
        where = s.loc[b, c]
        if L_HAND <= where < L_LOOSE:
            s.loc[b, c] = L_HAND + (where - L_HAND - 1) % n
        elif L_HARVEST <= where < L_UNDER:
            s.loc[b, c] = L_HARVEST + (where - L_HARVEST - 1) % n
    _left(s.hand_len[b], n)
    _left(s.harv_len[b], n)
    _left(s.sec_len[b], n)
    _left(s.okus[b], n)
    _left(s.claimed_len[b], n)
    _left(s.scores[b], n)
    _left(s.harv[b], n)
    _left(s.sec[b], n)
    _left(s.claimed[b], n)
    s.cur[b] = (s.cur[b] - 1) % n
    s.converged[b] = True
    rebuild(s, t, b)


# ----- the round's end ----------------------------------------------------------------------------
@njit(cache=True)
def _winner(counts, key, n, most):
    """The seat with the most of counts, ties broken by the most (`most`) or the fewest of key;
    -1 for a count of 0 or a tie that stays (`round_points`' winner)."""
    top = counts[:n].max()
    if top == 0:
        return -1
    best, tied = 0, 0
    for p in range(n):
        if counts[p] == top:
            if tied == 0 or (key[p] > best if most else key[p] < best):
                best = key[p]
            tied += 1
    if tied == 1:
        for p in range(n):
            if counts[p] == top:
                return p
    winner, found = -1, 0
    for p in range(n):
        if counts[p] == top and key[p] == best:
            winner = p
            found += 1
    return winner if found == 1 else -1


@njit(cache=True)
def round_points(s, t, b, out):
    """out[p]: seat p's points for the round (`RoundFlow.round_points`'s totals)."""
    n = t.n
    total = np.zeros(n, np.int64)
    summer = np.zeros(n, np.int64)
    winter = np.zeros(n, np.int64)
    key = np.zeros(n, np.int64)
    for p in range(n):
        total[p] = s.harv_len[b, p]
        fools = 0
        for i in range(s.harv_len[b, p]):
            c = s.harv[b, p, i]
            summer[p] += SUIT_A[c] == SUMMER
            winter[p] += SUIT_A[c] == WINTER
            fools += FOOL_A[c]
        key[p] = s.claimed_len[b, p] if t.luminaries else s.okus[b, p]
        out[p] = fools + s.claimed_len[b, p] + s.okus[b, p]
    bumper, sun = _winner(total, key, n, True), _winner(summer, key, n, True)
    frost = _winner(winter, key, n, False)
    if bumper >= 0:
        out[bumper] += 4
    if sun >= 0:
        out[sun] += 2
    if frost >= 0:
        river = False
        for i in range(s.claimed_len[b, frost]):
            river |= s.claimed[b, frost, i] == RIVER
        out[frost] += 2 if river else -2


@njit(cache=True)
def end_round(s, t, b):
    points = np.zeros(t.n, np.int64)
    round_points(s, t, b, points)
    for p in range(t.n):
        s.scores[b, p] += points[p]
    s.round[b] += 1
    if s.scores[b, :t.n].max() >= t.target_score or s.round[b] >= t.rounds:
        s.decision[b] = OVER
        rebuild(s, t, b)
        return
    deal(s, t, b, s.round[b])

