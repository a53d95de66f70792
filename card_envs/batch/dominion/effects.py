"""Batched Dominion's card effects (numba kernels): playing a card, every SPECIAL, ON_GAIN and
ON_TRASH entry of the reference (`card_envs.games.dominion.effects`), line by line. `S` and `b` as
in `dominion_zones`.
"""

from __future__ import annotations

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.dominion import kernels as K
from card_envs.batch.dominion.zones import (
    C, OP_RESOLVE, OP_YW_VICTIM, DEST_HAND, DEST_DECK, PLUS_CARDS, PLUS_ACTIONS, PLUS_BUYS, PLUS_COINS, PLUS_VP,
    Q_CELLAR, Q_CHAPEL, Q_WORKSHOP, Q_DISCARD_DOWN, Q_REMODEL_TRASH, Q_YW_DISCARD, Q_ENCAMPMENT, Q_SETTLERS,
    Q_BUSTLING, Q_CATAPULT, Q_GLADIATOR, Q_SAUNA_AVANTO, Q_AVANTO_SAUNA, Q_SAUNA_TRASH, Q_SMALL_CASTLE, Q_HAUNTED,
    Q_OPULENT, Q_SPRAWLING, Q_ROTATE, Q_ROTATE_ANY, Q_HERB_GATHERER, Q_ACOLYTE, Q_SORCERESS, Q_SIBYL_TOP,
    Q_SIBYL_BOTTOM, Q_BATTLE_PLAN, Q_ARCHER_HIDE, Q_HILL_FORT, Q_MODE, Q_OLD_MAP, Q_SUNKEN_TREASURE, Q_STUDENT,
    Q_CONJURER, Q_SORCERER, Q_LICH, Q_ELDER, Q_MILLER, push, ask, others, append, from_hand, draw, reveal_top,
    top_to_hand, trash_from_supply, gain, fill_deck, add_duration, has_duration, empty_piles)
from card_envs.games.dominion import cards as cd
from card_envs.games.dominion import effects as fx


# ----- playing cards ------------------------------------------------------------------------------
# Callers pass p and c as np.int64: numba compiles a function once per mix of argument types (a
# literal and each integer width count apart), and the card effects below them (special,
# special_allies) are the engine's largest to compile (10-14 s each).
@njit(cache=True)
def play_from_hand(S, b, p, c):
    g, ps = S[0], S[1]
    n = ps.shape[1]
    if g[b, K.G_PLAYS] > 0:  # a Voyage extra turn: at most 3 cards played from hand
        g[b, K.G_PLAYS] -= 1
    from_hand(S, b, p, c, True)
    append(S, b, p, K.Z_PLAY, c)
    if K.IS_ATTACK[c]:  # reactions come before any of the Attack's effects
        for v in range(n):
            ps[b, v, K.P_IMMUNE] = 0
        push(S, b, OP_RESOLVE, -1, p, c, 0, 0, 0)
        for k in range(n - 1, 0, -1):  # asked of all: being asked reveals no Moat
            ask(S, b, K.K_MOAT, others(n, p, k), c)
    else:
        resolve(S, b, np.int64(p), np.int64(c))


@njit(cache=True)
def resolve(S, b, p, c):
    g, ps = S[0], S[1]
    if PLUS_CARDS[c]:
        draw(S, b, p, PLUS_CARDS[c])
    g[b, K.G_ACTIONS] += PLUS_ACTIONS[c]
    g[b, K.G_BUYS] += PLUS_BUYS[c]
    g[b, K.G_COINS] += PLUS_COINS[c]
    ps[b, p, K.P_VP] += PLUS_VP[c]
    special(S, b, p, c)


@njit(cache=True)
def gladiator_bonus(S, b):
    g, piles, plen = S[0], S[5], S[6]
    g[b, K.G_COINS] += 1
    q = cd.GLADIATOR_PILE
    if plen[b, q] and piles[b, q, plen[b, q] - 1] == cd.GLADIATOR:  # only a Gladiator on top
        trash_from_supply(S, b, q)


@njit(cache=True)
def modal(S, b, p, c):
    """A "choose one" (Elder: one extra, different option when Elder plays this card)."""
    ask(S, b, Q_MODE, p, c, 0, 2 if S[0][b, K.G_ELDER] == c else 1, 0)


@njit(cache=True)
def special(S, b, p, c):
    """`effects.SPECIAL[c]`: what a played card does beyond its vanilla bonuses."""
    g, ps = S[0], S[1]
    n = ps.shape[1]
    h = ps[b, p, K.P_HSIZE]
    if c == cd.CELLAR:
        if h:
            ask(S, b, Q_CELLAR, p, c, 0, h)
    elif c == cd.CHAPEL:
        if h:
            ask(S, b, Q_CHAPEL, p, c, 0, 4)
    elif c == cd.WORKSHOP:
        ask(S, b, Q_WORKSHOP, p, c, 0, 0, 4)
    elif c == cd.MILITIA:
        for k in range(n - 1, 0, -1):  # pushed last-first: the left neighbour decides first
            v = others(n, p, k)
            hv = ps[b, v, K.P_HSIZE]
            if not ps[b, v, K.P_IMMUNE] and hv > 3:
                ask(S, b, Q_DISCARD_DOWN, v, c, hv - 3, hv - 3)
    elif c == cd.REMODEL:
        if h:
            ask(S, b, Q_REMODEL_TRASH, p, c, 1, 1)
    elif c == cd.WITCH:
        for k in range(1, n):
            v = others(n, p, k)
            if not ps[b, v, K.P_IMMUNE]:
                gain(S, b, v, cd.CURSE_PILE)
    elif c == cd.YOUNG_WITCH:
        for k in range(n - 1, 0, -1):
            v = others(n, p, k)
            if not ps[b, v, K.P_IMMUNE]:
                push(S, b, OP_YW_VICTIM, -1, v, c, 0, 0, p)
        m = min(2, h)
        if m:
            ask(S, b, Q_YW_DISCARD, p, c, m, m)
    elif c == cd.ENCAMPMENT:
        ask(S, b, Q_ENCAMPMENT, p, c)
    elif c == cd.PATRICIAN:
        top = reveal_top(S, b, p)
        if top >= 0 and K.COST[top] >= 5:
            top_to_hand(S, b, p)
    elif c == cd.SETTLERS:
        ask(S, b, Q_SETTLERS, p, c)
    elif c == cd.BUSTLING_VILLAGE:
        ask(S, b, Q_BUSTLING, p, c)
    elif c == cd.CATAPULT:
        if h:
            ask(S, b, Q_CATAPULT, p, c, 1, 1)
    elif c == cd.GLADIATOR:
        if h:
            ask(S, b, Q_GLADIATOR, p, c, 1, 1)
        else:  # nothing revealed: the neighbour cannot match it
            gladiator_bonus(S, b)
    elif c == cd.FORTUNE:
        if not g[b, K.G_FORTUNE]:
            g[b, K.G_FORTUNE] = 1
            g[b, K.G_COINS] *= 2
    elif c == cd.SILVER:
        if g[b, K.G_SAUNAS] and h:
            ask(S, b, Q_SAUNA_TRASH, p, c, 0, g[b, K.G_SAUNAS])
    elif c == cd.SAUNA:
        g[b, K.G_SAUNAS] += 1
        ask(S, b, Q_SAUNA_AVANTO, p, c)
    elif c == cd.AVANTO:
        ask(S, b, Q_AVANTO_SAUNA, p, c)
    elif c == cd.SMALL_CASTLE:
        ask(S, b, Q_SMALL_CASTLE, p, c)
    elif c == cd.OPULENT_CASTLE:
        ask(S, b, Q_OPULENT, p, c, 0, h)
    else:
        special_allies(S, b, p, c, n, h)


@njit(cache=True)
def special_allies(S, b, p, c, n, h):
    """`effects.SPECIAL` for the Allies piles (tier 3)."""
    g, ps, zones = S[0], S[1], S[3]
    if c == cd.HERB_GATHERER:
        size = ps[b, p, K.P_DECK]
        for i in range(size):  # the deck onto the discard pile as it lies: its top ends on top
            append(S, b, p, K.Z_DISC, zones[b, p, K.Z_DECK, i])
        ps[b, p, K.P_DECK] = 0
        ask(S, b, Q_ROTATE, p, c, 0, 0, fx.AUGURS)
        ask(S, b, Q_HERB_GATHERER, p, c)
    elif c == cd.ACOLYTE:
        ask(S, b, Q_ACOLYTE, p, c, 0, 1)
    elif c == cd.SORCERESS:
        ask(S, b, Q_SORCERESS, p, c)
    elif c == cd.SIBYL:
        ask(S, b, Q_SIBYL_BOTTOM, p, c, 1, 1)
        ask(S, b, Q_SIBYL_TOP, p, c, 1, 1)
    elif c == cd.BATTLE_PLAN:
        ask(S, b, Q_ROTATE_ANY, p, c)
        ask(S, b, Q_BATTLE_PLAN, p, c)
    elif c == cd.ARCHER:
        for k in range(n - 1, 0, -1):
            v = others(n, p, k)
            if not ps[b, v, K.P_IMMUNE] and ps[b, v, K.P_HSIZE] >= 5:
                ask(S, b, Q_ARCHER_HIDE, v, c, 1, 1, p)
    elif c == cd.WARLORD:
        mask = 0
        for v in range(n):
            if ps[b, v, K.P_IMMUNE]:
                mask |= 1 << v
        add_duration(S, b, p, cd.WARLORD, mask)
    elif c == cd.TENT:
        ask(S, b, Q_ROTATE, p, c, 0, 0, fx.FORTS)
    elif c == cd.GARRISON:
        add_duration(S, b, p, cd.GARRISON, 0)
    elif c == cd.HILL_FORT:
        ask(S, b, Q_HILL_FORT, p, c, 0, 2 if g[b, K.G_ELDER] == c else 1, 4)
    elif c == cd.STRONGHOLD or c == cd.BLACKSMITH:
        modal(S, b, p, c)
    elif c == cd.OLD_MAP:
        ask(S, b, Q_ROTATE, p, c, 0, 0, fx.ODYSSEYS)
        ask(S, b, Q_OLD_MAP, p, c, 1, 1)
    elif c == cd.VOYAGE:
        # "If the previous turn wasn't yours" (and, 2023 errata, not a second Voyage this turn).
        if g[b, K.G_PREV] != p and not g[b, K.G_EXTRA] and not has_duration(S, b, p, cd.VOYAGE):
            add_duration(S, b, p, cd.VOYAGE, 0)
    elif c == cd.SUNKEN_TREASURE:
        ask(S, b, Q_SUNKEN_TREASURE, p, c)
    elif c == cd.DISTANT_SHORE:
        gain(S, b, p, cd.ESTATE_PILE)
    elif c == cd.TOWN_CRIER:
        ask(S, b, Q_ROTATE, p, c, 0, 0, fx.TOWNSFOLK)
        modal(S, b, p, c)
    elif c == cd.MILLER:
        k = fill_deck(S, b, p, 4)
        if k:
            size = ps[b, p, K.P_DECK]
            for i in range(size - k, size):
                zones[b, p, K.Z_FLAGS, i] = max(zones[b, p, K.Z_FLAGS, i], 1)
            ask(S, b, Q_MILLER, p, c, 0, 0, k)
    elif c == cd.ELDER:
        ask(S, b, Q_ELDER, p, c)
    elif c == cd.STUDENT:
        ask(S, b, Q_STUDENT, p, c, 1, 1)
        ask(S, b, Q_ROTATE, p, c, 0, 0, fx.WIZARDS)
    elif c == cd.CONJURER:
        ask(S, b, Q_CONJURER, p, c, 0, 0, 4)
        add_duration(S, b, p, cd.CONJURER, 0)
    elif c == cd.SORCERER:
        for k in range(n - 1, 0, -1):
            v = others(n, p, k)
            if not ps[b, v, K.P_IMMUNE]:
                ask(S, b, Q_SORCERER, v, c)
    elif c == cd.LICH:
        ps[b, p, K.P_SKIPS] += 1


@njit(cache=True)
def rocks_silver(S, b, p):
    """Rocks, gained or trashed: a Silver onto the deck in its owner's Buy phase, else to hand."""
    g = S[0]
    buying = (g[b, K.G_PHASE] == 1 or g[b, K.G_PHASE] == 2) and g[b, K.G_TURN] == p
    gain(S, b, p, cd.SILVER_PILE, DEST_DECK if buying else DEST_HAND)


@njit(cache=True)
def on_gain(S, b, p, c):
    g, ps, counts, zones = S[0], S[1], S[2], S[3]
    n = ps.shape[1]
    if c == cd.ROCKS:
        rocks_silver(S, b, p)
    elif c == cd.EMPORIUM:
        actions = 0
        for i in range(ps[b, p, K.P_PLAY]):
            if K.IS_ACTION[zones[b, p, K.Z_PLAY, i]]:
                actions += 1
        if actions >= 5:
            ps[b, p, K.P_VP] += 2
    elif c == cd.FORTUNE:
        for _ in range(K.zone_count(zones, ps, b, p, K.Z_PLAY, cd.GLADIATOR)):
            gain(S, b, p, cd.GOLD_PILE)
    elif c == cd.CRUMBLING_CASTLE:
        ps[b, p, K.P_VP] += 1
        gain(S, b, p, cd.SILVER_PILE)
    elif c == cd.HAUNTED_CASTLE:
        if p != g[b, K.G_TURN]:  # "when you gain this during your turn"
            return
        gain(S, b, p, cd.GOLD_PILE)
        for k in range(n - 1, 0, -1):
            v = others(n, p, k)
            if ps[b, v, K.P_HSIZE] >= 5:
                ask(S, b, Q_HAUNTED, v, c, 2, 2)
    elif c == cd.SPRAWLING_CASTLE:
        ask(S, b, Q_SPRAWLING, p, c)
    elif c == cd.GRAND_CASTLE:
        counts[b, p, K.H_KNOWN] = counts[b, p, K.H_HAND]
        for v in range(C):
            if K.IS_VICTORY[v]:
                ps[b, p, K.P_VP] += counts[b, p, K.H_HAND, v]
        for i in range(ps[b, p, K.P_PLAY]):
            if K.IS_VICTORY[zones[b, p, K.Z_PLAY, i]]:
                ps[b, p, K.P_VP] += 1
    elif c == cd.TERRITORY:
        for _ in range(empty_piles(S, b)):
            gain(S, b, p, cd.GOLD_PILE)


@njit(cache=True)
def on_trash(S, b, p, c):
    ps, counts, trash = S[1], S[2], S[8]
    if c == cd.ROCKS:
        rocks_silver(S, b, p)
    elif c == cd.CRUMBLING_CASTLE:
        ps[b, p, K.P_VP] += 1
        gain(S, b, p, cd.SILVER_PILE)
    elif c == cd.LICH:  # discard it (from the trash) and gain a cheaper card from the trash
        if trash[b, cd.LICH]:
            trash[b, cd.LICH] -= 1
            counts[b, p, K.H_OWNED, cd.LICH] += 1
            append(S, b, p, K.Z_DISC, cd.LICH)
        ask(S, b, Q_LICH, p, cd.LICH, 1, 1)
