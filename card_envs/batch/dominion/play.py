"""Batched Dominion's decisions and turn (numba kernels): every answer, pick and one-shot
decision, the task loop, the phases, Clean-up, Durations, Voyage and Lich turns and the end, each a
port of the reference's function of the same name (`card_envs.games.dominion.rules`, `decisions`),
line by line; `apply` is the batched step. `S` and `b` as in `dominion_zones`.
"""

from __future__ import annotations

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.dominion import kernels as K
from card_envs.batch.dominion.effects import (
    play_from_hand, resolve, gladiator_bonus, on_gain, on_trash)
from card_envs.batch.dominion.zones import (
    C, DONE, PLAY_ALL, CARD0, PILE0, OPTION0, OP_ASK, OP_RESOLVE, OP_ON_GAIN, OP_ON_TRASH, OP_PLAY_ALL,
    OP_YW_VICTIM, OP_CLEANUP, TREASURE_ORDER, Q_CELLAR, Q_CHAPEL, Q_MOAT, Q_WORKSHOP, Q_DISCARD_DOWN,
    Q_REMODEL_TRASH, Q_REMODEL_GAIN, Q_YW_DISCARD, Q_BANE, Q_ENCAMPMENT, Q_SETTLERS, Q_BUSTLING, Q_CATAPULT,
    Q_GLADIATOR, Q_GLADIATOR_COPY, Q_SAUNA_AVANTO, Q_AVANTO_SAUNA, Q_SAUNA_TRASH, Q_SMALL_CASTLE, Q_HAUNTED,
    Q_OPULENT, Q_SPRAWLING, Q_ROTATE, Q_ROTATE_ANY, Q_HERB_GATHERER, Q_ACOLYTE, Q_ACOLYTE_SELF, Q_SORCERESS,
    Q_SIBYL_TOP, Q_SIBYL_BOTTOM, Q_BATTLE_PLAN, Q_ARCHER_HIDE, Q_ARCHER_PICK, Q_TENT, Q_HILL_FORT, Q_MODE,
    Q_OLD_MAP, Q_SUNKEN_TREASURE, Q_STUDENT, Q_CONJURER, Q_SORCERER, Q_LICH, Q_ELDER, Q_MILLER, Q_MOUNTAIN_FOLK,
    Q_BAND_OF_NOMADS, Q_PEACEFUL_CULT, Q_CAVE_DWELLERS, push, ask, insert_tasks, others, append, delete,
    last_index, first_index, to_hand, draw, reveal_top, top_to_hand, reveal_in_hand, hand_to_deck,
    discard_from_hand, discard_to_hand, trash_from_hand, trash_from_play, rotate_pile, set_aside_from_play, gain,
    gain_from_trash, to_deck_bottom, from_play_to_deck, add_duration, empty_piles)
from card_envs.batch.numba_borrow import borrowed
from card_envs.games.dominion import cards as cd
from card_envs.games.dominion import effects as fx


@njit(cache=True)
def run_play_all(S, b, t):
    """Play every Treasure in hand, one at a time (Fortunes last), then start buying."""
    g, counts = S[0], S[2]
    p = t[K.T_P]
    card = -1
    for c in TREASURE_ORDER:
        if counts[b, p, K.H_HAND, c]:
            card = c
            break
    if card < 0 or g[b, K.G_PLAYS] == 0:
        enter_buy(S, b)
        return
    push(S, b, OP_PLAY_ALL, -1, p, -1, 0, 0, 0)  # continue after whatever this Treasure asks
    play_from_hand(S, b, np.int64(p), np.int64(card))


# ----- decisions ----------------------------------------------------------------------------------
@njit(cache=True)
def any_answer(S, b, t):
    g, ps, counts, zones, dur, piles, plen, supply, trash, row = (S[0], S[1], S[2], S[3], S[4], S[5], S[6], S[7],
                                                                  S[8], S[12])
    row[:] = False
    return K.ask_answers(g, ps, counts, zones, dur, piles, plen, supply, trash, ps.shape[1], b, t, row) > 0


@njit(cache=True)
def answer(S, b, t, a):
    """`decisions.answer`: carry out answer a to the ask t (popped, updated in place); True when t
    stays pending."""
    kind = t[K.T_KIND]
    if K.IS_PICK[kind]:
        if a == DONE:
            finish_pick(S, b, t)
            return False
        pick(S, b, t, a - CARD0)
        t[K.T_LO] = max(0, t[K.T_LO] - 1)
        t[K.T_HI] -= 1
        if t[K.T_HI] > 0 and any_answer(S, b, t):
            return True
        finish_pick(S, b, t)
        return False
    if kind == Q_MODE:
        if a != DONE:
            t[K.T_X] |= 1 << (a - OPTION0)
            t[K.T_HI] -= 1
            if t[K.T_HI] > 0 and mode_choices(t) > 1:
                return True
        apply_modes(S, b, t)
        return False
    if kind == Q_TENT:
        if a != DONE:
            from_play_to_deck(S, b, t[K.T_P], cd.TENT)
            t[K.T_HI] -= 1
            return any_answer(S, b, t)
        return False
    one_shot(S, b, t, a)
    return False


@njit(cache=True)
def mode_choices(t):
    """len(_answers_mode(t))."""
    x = t[K.T_X]
    k = 1 if x else 0
    for i in range(K.MODES[t[K.T_CARD]]):
        if not (x >> i) & 1:
            k += 1
    return k


@njit(cache=True)
def finish_pick(S, b, t):
    kind, p = t[K.T_KIND], t[K.T_P]
    if kind == Q_CELLAR:
        draw(S, b, p, t[K.T_X])
    elif kind == Q_OLD_MAP:
        draw(S, b, p, 1)
    elif kind == Q_ACOLYTE:
        ask(S, b, Q_ACOLYTE_SELF, p, t[K.T_CARD])


@njit(cache=True)
def pick(S, b, t, c):
    """`decisions.PICK[kind]`: one card picked from the owner's hand."""
    g, ps, counts = S[0], S[1], S[2]
    n = ps.shape[1]
    kind, p = t[K.T_KIND], t[K.T_P]
    if kind == Q_CELLAR:
        discard_from_hand(S, b, p, c)
        t[K.T_X] += 1
    elif kind == Q_CHAPEL or kind == Q_SAUNA_TRASH:
        trash_from_hand(S, b, p, c)
    elif kind == Q_DISCARD_DOWN or kind == Q_YW_DISCARD or kind == Q_OLD_MAP:
        discard_from_hand(S, b, p, c)
    elif kind == Q_REMODEL_TRASH:
        trash_from_hand(S, b, p, c)
        ask(S, b, Q_REMODEL_GAIN, p, t[K.T_CARD], K.DEBT[c], 0, K.COST[c] + 2)
    elif kind == Q_CATAPULT:
        trash_from_hand(S, b, p, c)
        if K.COST[c] >= 3:
            for k in range(1, n):
                v = others(n, p, k)
                if not ps[b, v, K.P_IMMUNE]:
                    gain(S, b, v, cd.CURSE_PILE)
        if K.IS_TREASURE[c]:
            for k in range(n - 1, 0, -1):
                v = others(n, p, k)
                hv = ps[b, v, K.P_HSIZE]
                if not ps[b, v, K.P_IMMUNE] and hv > 3:
                    ask(S, b, Q_DISCARD_DOWN, v, t[K.T_CARD], hv - 3, hv - 3)
    elif kind == Q_GLADIATOR:
        reveal_in_hand(S, b, p, c)
        ask(S, b, Q_GLADIATOR_COPY, (p + 1) % n, t[K.T_CARD], 0, 0, c)
    elif kind == Q_HAUNTED or kind == Q_SIBYL_TOP:
        hand_to_deck(S, b, p, c)
    elif kind == Q_OPULENT:
        discard_from_hand(S, b, p, c)
        g[b, K.G_COINS] += 2
    elif kind == Q_ACOLYTE:
        trash_from_hand(S, b, p, c)
        gain(S, b, p, cd.GOLD_PILE)
    elif kind == Q_SIBYL_BOTTOM:
        to_deck_bottom(S, b, p, c)
    elif kind == Q_ARCHER_HIDE:  # the victim keeps one card hidden and reveals the rest
        counts[b, p, K.H_KNOWN] = counts[b, p, K.H_HAND]
        counts[b, p, K.H_KNOWN, c] -= 1
        ask(S, b, Q_ARCHER_PICK, t[K.T_X], t[K.T_CARD], 0, 0, p)
    elif kind == Q_STUDENT:
        trash_from_hand(S, b, p, c)
        if K.IS_TREASURE[c]:
            ps[b, p, K.P_FAVORS] += 1
            if last_index(S, b, p, K.Z_PLAY, cd.STUDENT) >= 0:
                from_play_to_deck(S, b, p, cd.STUDENT)
    elif kind == Q_PEACEFUL_CULT:
        ps[b, p, K.P_FAVORS] -= 1
        trash_from_hand(S, b, p, c)
    elif kind == Q_CAVE_DWELLERS:
        ps[b, p, K.P_FAVORS] -= 1
        discard_from_hand(S, b, p, c)
        draw(S, b, p, 1)


@njit(cache=True)
def apply_modes(S, b, t):
    """The chosen options, in the card's order."""
    g, ps = S[0], S[1]
    p, x, card = t[K.T_P], t[K.T_X], t[K.T_CARD]
    for i in range(K.MODES[card]):
        if not (x >> i) & 1:
            continue
        if card == cd.TOWN_CRIER or card == cd.BLACKSMITH:
            if i == 0:
                if card == cd.TOWN_CRIER:
                    g[b, K.G_COINS] += 2
                else:
                    draw(S, b, p, max(0, 6 - ps[b, p, K.P_HSIZE]))
            elif i == 1:
                if card == cd.TOWN_CRIER:
                    gain(S, b, p, cd.SILVER_PILE)
                else:
                    draw(S, b, p, 2)
            else:
                draw(S, b, p, 1)
                g[b, K.G_ACTIONS] += 1
        elif card == cd.HILL_FORT:
            if i == 0:
                got = t[K.T_LO] - 1  # the card Hill Fort gained, if it is still on the discard pile
                j = last_index(S, b, p, K.Z_DISC, got) if got >= 0 else -1
                if j >= 0:
                    delete(S, b, p, K.Z_DISC, j)
                    to_hand(S, b, p, got, True)
            else:
                draw(S, b, p, 1)
                g[b, K.G_ACTIONS] += 1
        elif card == cd.STRONGHOLD:
            if i == 0:
                g[b, K.G_COINS] += 3
            elif last_index(S, b, p, K.Z_PLAY, cd.STRONGHOLD) >= 0:
                add_duration(S, b, p, cd.STRONGHOLD, 0)


@njit(cache=True)
def one_shot(S, b, t, a):
    """`decisions.ONE_SHOT[kind]`: a single answer."""
    g, ps, zones = S[0], S[1], S[3]
    n = ps.shape[1]
    kind, p, x = t[K.T_KIND], t[K.T_P], t[K.T_X]
    c = a - CARD0
    if kind == Q_MOAT:
        if a != DONE:
            reveal_in_hand(S, b, p, cd.MOAT)
            ps[b, p, K.P_IMMUNE] = 1
    elif kind == Q_BANE:
        if a == DONE:
            gain(S, b, p, cd.CURSE_PILE)
        else:
            reveal_in_hand(S, b, p, c)
    elif kind == Q_WORKSHOP or kind == Q_REMODEL_GAIN or kind == Q_CONJURER or kind == Q_SUNKEN_TREASURE:
        gain(S, b, p, a - PILE0)
    elif kind == Q_ENCAMPMENT:
        if a == DONE:
            set_aside_from_play(S, b, p, cd.ENCAMPMENT)
        else:
            reveal_in_hand(S, b, p, c)
    elif kind == Q_SETTLERS or kind == Q_BUSTLING:
        if a != DONE:
            discard_to_hand(S, b, p, c)
    elif kind == Q_GLADIATOR_COPY:
        if a == DONE:
            gladiator_bonus(S, b)
        else:
            reveal_in_hand(S, b, p, c)
    elif kind == Q_SAUNA_AVANTO or kind == Q_AVANTO_SAUNA:
        if a != DONE:
            play_from_hand(S, b, np.int64(p), np.int64(c))
    elif kind == Q_SMALL_CASTLE:
        if a == OPTION0:
            trash_from_play(S, b, p, cd.SMALL_CASTLE)
        else:
            trash_from_hand(S, b, p, c)
        gain(S, b, p, cd.CASTLES_PILE)
    elif kind == Q_SPRAWLING:
        if a == OPTION0:
            gain(S, b, p, cd.DUCHY_PILE)
        else:
            for _ in range(3):
                gain(S, b, p, cd.ESTATE_PILE)
    elif kind == Q_ROTATE:
        if a == OPTION0:
            rotate_pile(S, b, x)
    elif kind == Q_ROTATE_ANY:
        if a != DONE:
            rotate_pile(S, b, a - PILE0)
    elif kind == Q_HERB_GATHERER:
        if a != DONE:  # a Treasure played from the discard pile (not from hand: no Voyage limit)
            delete(S, b, p, K.Z_DISC, first_index(S, b, p, K.Z_DISC, c))
            append(S, b, p, K.Z_PLAY, c)
            resolve(S, b, np.int64(p), np.int64(c))
    elif kind == Q_ACOLYTE_SELF:
        if a == OPTION0:
            trash_from_play(S, b, p, cd.ACOLYTE)
            gain(S, b, p, fx.AUGURS)
    elif kind == Q_SORCERESS:
        top = reveal_top(S, b, p)
        if top >= 0:
            top_to_hand(S, b, p)
            if top == c:
                for k in range(1, n):
                    v = others(n, p, k)
                    if not ps[b, v, K.P_IMMUNE]:
                        gain(S, b, v, cd.CURSE_PILE)
    elif kind == Q_SORCERER:
        if reveal_top(S, b, p) != c:  # nothing to reveal is not the named card either
            gain(S, b, p, cd.CURSE_PILE)
    elif kind == Q_BATTLE_PLAN:
        if a != DONE:
            reveal_in_hand(S, b, p, c)
            draw(S, b, p, 1)
    elif kind == Q_ARCHER_PICK:
        discard_from_hand(S, b, x, c)
    elif kind == Q_HILL_FORT:
        got = gain(S, b, p, a - PILE0)
        ask(S, b, Q_MODE, p, t[K.T_CARD], got + 1, t[K.T_HI] if t[K.T_HI] else 1, 0)
    elif kind == Q_LICH:
        gain_from_trash(S, b, p, c)
    elif kind == Q_ELDER:
        if a != DONE:
            g[b, K.G_ELDER] = c
            play_from_hand(S, b, np.int64(p), np.int64(c))
            g[b, K.G_ELDER] = -1
    elif kind == Q_MILLER:
        size = ps[b, p, K.P_DECK]
        i = size - 1
        while zones[b, p, K.Z_DECK, i] != c:  # the highest copy among the top x
            i -= 1
        delete(S, b, p, K.Z_DECK, i)
        to_hand(S, b, p, c, False)
        for _ in range(x - 1):  # the rest are discarded, the deepest last (it ends on top)
            j = ps[b, p, K.P_DECK] - 1
            append(S, b, p, K.Z_DISC, zones[b, p, K.Z_DECK, j])
            ps[b, p, K.P_DECK] = j
    elif kind == Q_MOUNTAIN_FOLK:
        if a == OPTION0:
            ps[b, p, K.P_FAVORS] -= 5
            draw(S, b, p, 3)
    elif kind == Q_BAND_OF_NOMADS:
        if a != DONE:
            ps[b, p, K.P_FAVORS] -= 1
            if a == OPTION0:
                draw(S, b, p, 1)
            elif a == OPTION0 + 1:
                g[b, K.G_ACTIONS] += 1
            else:
                g[b, K.G_BUYS] += 1


# ----- the turn -----------------------------------------------------------------------------------
@njit(cache=True)
def enter_treasure(S, b):
    """The Buy phase starts (its first step plays Treasures): League of Bankers, Peaceful Cult."""
    g, ps = S[0], S[1]
    g[b, K.G_PHASE] = 1
    p = g[b, K.G_TURN]
    favors = ps[b, p, K.P_FAVORS]
    if g[b, K.G_ALLY] == cd.LEAGUE_OF_BANKERS:
        g[b, K.G_COINS] += favors // 4
    elif g[b, K.G_ALLY] == cd.PEACEFUL_CULT and favors:
        ask(S, b, Q_PEACEFUL_CULT, p, -1, 0, favors)


@njit(cache=True)
def enter_buy(S, b):
    S[0][b, K.G_PHASE] = 2
    pay_debt(S, b)


@njit(cache=True)
def pay_debt(S, b):
    """Debt is repaid automatically, as much as possible, whenever the Buy phase has $."""
    g, ps = S[0], S[1]
    p = g[b, K.G_TURN]
    pay = min(g[b, K.G_COINS], ps[b, p, K.P_DEBT])
    g[b, K.G_COINS] -= pay
    ps[b, p, K.P_DEBT] -= pay


@njit(cache=True)
def buy(S, b, pile):
    g, ps, piles, plen = S[0], S[1], S[5], S[6]
    p = g[b, K.G_TURN]
    card = piles[b, pile, plen[b, pile] - 1]
    g[b, K.G_COINS] -= K.COST[card]
    ps[b, p, K.P_DEBT] += K.DEBT[card]
    g[b, K.G_BUYS] -= 1
    gain(S, b, p, pile)
    pay_debt(S, b)


@njit(cache=True)
def begin_cleanup(S, b):
    """Clean-up: Tents discarded from play may go onto the deck first, then `end_turn`."""
    g, ps, zones = S[0], S[1], S[3]
    p = g[b, K.G_TURN]
    push(S, b, OP_CLEANUP, -1, p, -1, 0, 0, 0)
    tents = K.zone_count(zones, ps, b, p, K.Z_PLAY, cd.TENT)
    if tents:
        ask(S, b, Q_TENT, p, cd.TENT, 0, tents)


@njit(cache=True)
def start_turn(S, b, p):
    """Start of p's turn: Duration effects (in the order played), then the Ally's."""
    g, ps, dur = S[0], S[1], S[4]
    entries = ps[b, p, K.P_DUR]
    ps[b, p, K.P_DUR] = 0
    for k in range(entries):  # nothing below adds a Duration: the entries stay readable
        card, x = dur[b, p, k, 0], dur[b, p, k, 1]
        if card == cd.WARLORD:
            draw(S, b, p, 2)
        elif card == cd.GARRISON:
            draw(S, b, p, x)
        elif card == cd.STRONGHOLD:
            draw(S, b, p, 3)
        elif card == cd.CONJURER:
            i = last_index(S, b, p, K.Z_PLAY, cd.CONJURER)
            if i >= 0:
                delete(S, b, p, K.Z_PLAY, i)
                to_hand(S, b, p, cd.CONJURER, True)
        elif card == cd.VOYAGE:
            g[b, K.G_PLAYS] = 3
    favors = ps[b, p, K.P_FAVORS]
    if g[b, K.G_ALLY] == cd.MOUNTAIN_FOLK and favors >= 5:
        ask(S, b, Q_MOUNTAIN_FOLK, p)
    elif g[b, K.G_ALLY] == cd.CAVE_DWELLERS and favors and ps[b, p, K.P_HSIZE]:
        ask(S, b, Q_CAVE_DWELLERS, p, -1, 0, favors)


@njit(cache=True)
def end_turn(S, b):
    g, ps, counts, zones, dur, piles, plen = S[0], S[1], S[2], S[3], S[4], S[5], S[6]
    n = ps.shape[1]
    p = g[b, K.G_TURN]
    for i in range(ps[b, p, K.P_ASIDE]):  # Encampment: back on top of its pile
        c = zones[b, p, K.Z_ASIDE, i]
        q = K.PILE_OF[c]
        piles[b, q, plen[b, q]] = c
        plen[b, q] += 1
        counts[b, p, K.H_OWNED, c] -= 1
    ps[b, p, K.P_ASIDE] = 0
    for c in range(C):
        for _ in range(counts[b, p, K.H_HAND, c]):
            append(S, b, p, K.Z_DISC, c)
        counts[b, p, K.H_HAND, c] = 0
    # Duration cards with effects still to come stay in play (a Garrison without tokens goes).
    kept = 0
    voyage = False
    keep = S[14][1]  # scratch: copies of each card that stay in play
    keep[:] = 0
    for k in range(ps[b, p, K.P_DUR]):
        if dur[b, p, k, 0] != cd.GARRISON or dur[b, p, k, 1] > 0:
            dur[b, p, kept] = dur[b, p, k]
            keep[dur[b, p, k, 0]] += 1
            voyage |= dur[b, p, k, 0] == cd.VOYAGE
            kept += 1
    ps[b, p, K.P_DUR] = kept
    stay = 0
    for i in range(ps[b, p, K.P_PLAY]):
        c = zones[b, p, K.Z_PLAY, i]
        if keep[c]:
            keep[c] -= 1
            zones[b, p, K.Z_PLAY, stay] = c
            stay += 1
        else:
            append(S, b, p, K.Z_DISC, c)
    ps[b, p, K.P_PLAY] = stay
    ps[b, p, K.P_HSIZE] = 0
    counts[b, p, K.H_KNOWN] = 0
    draw(S, b, p, 5)
    if not g[b, K.G_EXTRA]:  # extra turns do not count for the tie-break
        ps[b, p, K.P_TURNS] += 1
    g[b, K.G_COINS], g[b, K.G_ACTIONS], g[b, K.G_BUYS], g[b, K.G_SAUNAS], g[b, K.G_FORTUNE] = 0, 1, 1, 0, 0
    g[b, K.G_PLAYS], g[b, K.G_EXTRA] = -1, 0
    for v in range(n):
        ps[b, v, K.P_IMMUNE] = 0
    g[b, K.G_PREV] = p
    if game_should_end(S, b):
        g[b, K.G_PHASE] = K.OVER
        return
    q = p if voyage else (p + 1) % n
    while ps[b, q, K.P_SKIPS]:  # Lich: the skipped turn has no phases but counts as a turn taken
        ps[b, q, K.P_SKIPS] -= 1
        if q == p and voyage:  # the skipped turn is the Voyage extra turn: it is lost
            drop_voyage(S, b, p)
            voyage = False
        else:
            ps[b, q, K.P_TURNS] += 1
            if min_turns(ps, b) >= g[b, K.G_MAX_TURNS]:
                g[b, K.G_TURN] = q
                g[b, K.G_PHASE] = K.OVER
                return
        q = (q + 1) % n
    g[b, K.G_TURN] = q
    g[b, K.G_EXTRA] = voyage and q == p
    g[b, K.G_CUR] = q
    g[b, K.G_PHASE] = 0
    start_turn(S, b, q)


@njit(cache=True, inline="always")
def min_turns(ps, b):
    out = ps[b, 0, K.P_TURNS]
    for q in range(1, ps.shape[1]):
        out = min(out, ps[b, q, K.P_TURNS])
    return out


@njit(cache=True)
def drop_voyage(S, b, p):
    ps, dur = S[1], S[4]
    kept = 0
    for k in range(ps[b, p, K.P_DUR]):
        if dur[b, p, k, 0] != cd.VOYAGE:
            dur[b, p, kept] = dur[b, p, k]
            kept += 1
    ps[b, p, K.P_DUR] = kept
    i = first_index(S, b, p, K.Z_PLAY, cd.VOYAGE)
    if i >= 0:
        delete(S, b, p, K.Z_PLAY, i)
        append(S, b, p, K.Z_DISC, cd.VOYAGE)


@njit(cache=True)
def game_should_end(S, b):
    g, ps, plen = S[0], S[1], S[6]
    if plen[b, cd.PROVINCE_PILE] == 0 or empty_piles(S, b) >= 3:
        return True
    return min_turns(ps, b) >= g[b, K.G_MAX_TURNS]  # the max_turns cap


# ----- the task loop and apply --------------------------------------------------------------------
@njit(cache=True)
def run(S, b):
    """Resolve tasks until a decision with a legal answer is pending, or the game ends."""
    g, tasks, trig = S[0], S[9], S[10]
    t = S[13][0]  # scratch: the task on top, popped
    while True:
        if g[b, K.G_NTRIG]:
            insert_tasks(S, b, g[b, K.G_NTASKS], trig[b], g[b, K.G_NTRIG], True)
            g[b, K.G_NTRIG] = 0
        if g[b, K.G_PHASE] == K.OVER:
            return
        nt = g[b, K.G_NTASKS]
        if nt == 0:  # the phase decisions are asked even with DONE alone
            g[b, K.G_CUR] = g[b, K.G_TURN]
            return
        t[:] = tasks[b, nt - 1]
        if t[K.T_OP] == OP_ASK:
            if any_answer(S, b, t):
                g[b, K.G_CUR] = t[K.T_P]
                return
            g[b, K.G_NTASKS] = nt - 1  # nothing to choose: the decision lapses
            if K.IS_PICK[t[K.T_KIND]]:
                finish_pick(S, b, t)
            continue
        g[b, K.G_NTASKS] = nt - 1
        op, p, card = t[K.T_OP], t[K.T_P], t[K.T_CARD]
        if op == OP_RESOLVE:
            resolve(S, b, np.int64(p), np.int64(card))
        elif op == OP_ON_GAIN:
            on_gain(S, b, p, card)
        elif op == OP_ON_TRASH:
            on_trash(S, b, p, card)
        elif op == OP_PLAY_ALL:
            run_play_all(S, b, t)
        elif op == OP_YW_VICTIM:
            ask(S, b, K.K_BANE, p, card)  # DONE: no Bane revealed, gain a Curse
        else:
            end_turn(S, b)


@njit(cache=True)
def phase_answer(S, b, a):
    g = S[0]
    p, phase = g[b, K.G_TURN], g[b, K.G_PHASE]
    if phase == 0:
        if a == DONE:
            enter_treasure(S, b)
        elif a == PLAY_ALL:
            push(S, b, OP_PLAY_ALL, -1, p, -1, 0, 0, 0)
            enter_treasure(S, b)
        else:
            g[b, K.G_ACTIONS] -= 1
            play_from_hand(S, b, np.int64(p), np.int64(a - CARD0))
    elif phase == 1:
        if a == DONE:
            enter_buy(S, b)
        elif a == PLAY_ALL:
            push(S, b, OP_PLAY_ALL, -1, p, -1, 0, 0, 0)
        else:
            play_from_hand(S, b, np.int64(p), np.int64(a - CARD0))
    elif a == DONE:
        begin_cleanup(S, b)
    else:
        buy(S, b, a - PILE0)


@njit(cache=True)
def apply_one(S, b, a):
    """`DominionState.apply(a)` for game b (a legal answer)."""
    g, tasks, trig = S[0], S[9], S[10]
    nt = g[b, K.G_NTASKS]
    if nt:
        work = S[13][1:]  # scratch (run uses row 0): the ask answered, popped
        t = work[0]
        t[:] = tasks[b, nt - 1]
        mark = nt - 1
        g[b, K.G_NTASKS] = mark
        if answer(S, b, t, a):
            insert_tasks(S, b, mark, work, 1, False)
            if g[b, K.G_NTRIG]:  # a trigger during a multi-card pick waits until the pick ends
                insert_tasks(S, b, mark, trig[b], g[b, K.G_NTRIG], True)
                g[b, K.G_NTRIG] = 0
    else:
        phase_answer(S, b, a)
    run(S, b)


@njit(cache=True)
def apply(S, actions, active):
    S = borrowed(S)
    for b in range(actions.shape[0]):
        if active[b]:
            apply_one(S, b, actions[b])
