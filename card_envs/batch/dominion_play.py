"""Batched Dominion's rules (numba kernels): the zone primitives, every card effect and decision,
the task loop and the turn structure, each a port of the reference's function of the same name
(`card_envs.games.dominion.rules`, `effects`, `decisions`), line by line.

Every function takes `S`, the state tuple (`DominionBatch._rules_state`: g, ps, counts, zones,
dur, piles, plen, supply, trash, tasks, trig, gen, row; `gen` and `row` are scratch: a
`numpy_random` generator and a bool[NUM_ACTIONS] answer row), and the game's row b.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from card_envs.batch import dominion_kernels as K
from card_envs.batch.numpy_random import shuffle_pair
from card_envs.games.dominion import cards as cd
from card_envs.games.dominion import effects as fx

C = cd.NUM_CARDS
DONE, PLAY_ALL, CARD0, PILE0, OPTION0 = fx.DONE, fx.PLAY_ALL, fx.CARD0, fx.PILE0, fx.OPTION0
OP_ASK, OP_RESOLVE, OP_ON_GAIN, OP_ON_TRASH, OP_PLAY_ALL, OP_YW_VICTIM, OP_CLEANUP = (
    fx.TASK_OPS.index(op) for op in ("ask", "resolve", "on_gain", "on_trash", "play_all", "yw_victim", "cleanup"))
DEST_DISCARD, DEST_HAND, DEST_DECK = 0, 1, 2
TREASURE_ORDER = np.array([c for c in cd.TREASURE_CARDS if c != cd.FORTUNE] + [cd.FORTUNE], np.int64)
PLUS_CARDS = np.array(cd.PLUS_CARDS, np.int64)
PLUS_ACTIONS = np.array(cd.PLUS_ACTIONS, np.int64)
PLUS_BUYS = np.array(cd.PLUS_BUYS, np.int64)
PLUS_COINS = np.array(cd.PLUS_COINS, np.int64)
PLUS_VP = np.array(cd.PLUS_VP, np.int64)
ON_GAIN = np.array([cd.CARD_NAMES[c] in fx.ON_GAIN for c in range(C)], np.bool_)
ON_TRASH = np.array([cd.CARD_NAMES[c] in fx.ON_TRASH for c in range(C)], np.bool_)
(Q_CELLAR, Q_CHAPEL, Q_MOAT, Q_WORKSHOP, Q_DISCARD_DOWN, Q_REMODEL_TRASH, Q_REMODEL_GAIN, Q_YW_DISCARD, Q_BANE,
 Q_ENCAMPMENT, Q_SETTLERS, Q_BUSTLING, Q_CATAPULT, Q_GLADIATOR, Q_GLADIATOR_COPY, Q_SAUNA_AVANTO, Q_AVANTO_SAUNA,
 Q_SAUNA_TRASH, Q_SMALL_CASTLE, Q_HAUNTED, Q_OPULENT, Q_SPRAWLING, Q_ROTATE, Q_ROTATE_ANY, Q_HERB_GATHERER,
 Q_ACOLYTE, Q_ACOLYTE_SELF, Q_SORCERESS, Q_SIBYL_TOP, Q_SIBYL_BOTTOM, Q_BATTLE_PLAN, Q_ARCHER_HIDE, Q_ARCHER_PICK,
 Q_TENT, Q_HILL_FORT, Q_MODE, Q_OLD_MAP, Q_SUNKEN_TREASURE, Q_STUDENT, Q_CONJURER, Q_SORCERER, Q_LICH, Q_ELDER,
 Q_MILLER, Q_MOUNTAIN_FOLK, Q_BAND_OF_NOMADS, Q_PEACEFUL_CULT, Q_CAVE_DWELLERS) = range(3, len(fx.DECISIONS))
assert fx.DECISIONS[Q_CELLAR] == "cellar" and fx.DECISIONS[Q_CAVE_DWELLERS] == "cave_dwellers"
assert fx.DECISIONS[Q_MILLER] == "miller" and fx.DECISIONS[Q_TENT] == "tent"


# ----- the task stack -----------------------------------------------------------------------------
@njit(cache=True)
def push(S, b, op, kind, p, card, lo, hi, x):
    g, tasks = S[0], S[9]
    k = g[b, K.G_NTASKS]
    if k >= tasks.shape[1]:
        raise ValueError("dominion: the task stack overflowed")
    row = tasks[b, k]
    row[0], row[1], row[2], row[3], row[4], row[5], row[6] = op, kind, p, card, lo, hi, x
    g[b, K.G_NTASKS] = k + 1


@njit(cache=True)
def ask(S, b, kind, p, card=-1, lo=0, hi=0, x=0):
    push(S, b, OP_ASK, kind, p, card, lo, hi, x)


@njit(cache=True)
def trigger(S, b, op, kind, p, card):
    """`state._trig.append(...)`: pushed (reversed) when the effect that raised it is done."""
    g, trig = S[0], S[10]
    k = g[b, K.G_NTRIG]
    if k >= trig.shape[1]:
        raise ValueError("dominion: the trigger buffer overflowed")
    row = trig[b, k]
    row[0], row[1], row[2], row[3], row[4], row[5], row[6] = op, kind, p, card, 0, 0, 0
    g[b, K.G_NTRIG] = k + 1


@njit(cache=True)
def insert_tasks(S, b, at, src, count, reverse):
    """tasks[at:at] = src[:count] (reversed when asked)."""
    g, tasks = S[0], S[9]
    nt = g[b, K.G_NTASKS]
    if nt + count > tasks.shape[1]:
        raise ValueError("dominion: the task stack overflowed")
    for i in range(nt - 1, at - 1, -1):
        tasks[b, i + count] = tasks[b, i]
    for j in range(count):
        tasks[b, at + j] = src[count - 1 - j] if reverse else src[j]
    g[b, K.G_NTASKS] = nt + count


# ----- zones --------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def others(n, p, k):
    """The k-th seat from p's left (k = 1 .. n - 1)."""
    return (p + k) % n


@njit(cache=True)
def append(S, b, q, z, c):
    ps, zones = S[1], S[3]
    f = K.ZONE_LEN_OF(z)
    zones[b, q, z, ps[b, q, f]] = c
    ps[b, q, f] += 1


@njit(cache=True)
def deck_push(S, b, q, c, flag):
    ps, zones = S[1], S[3]
    i = ps[b, q, K.P_DECK]
    zones[b, q, K.Z_DECK, i] = c
    zones[b, q, K.Z_FLAGS, i] = flag
    ps[b, q, K.P_DECK] = i + 1


@njit(cache=True)
def delete(S, b, q, z, i):
    """del zone[i] (the deck's flags with it)."""
    ps, zones = S[1], S[3]
    f = K.ZONE_LEN_OF(z)
    size = ps[b, q, f]
    for j in range(i, size - 1):
        zones[b, q, z, j] = zones[b, q, z, j + 1]
        if z == K.Z_DECK:
            zones[b, q, K.Z_FLAGS, j] = zones[b, q, K.Z_FLAGS, j + 1]
    ps[b, q, f] = size - 1


@njit(cache=True)
def last_index(S, b, q, z, c):
    ps, zones = S[1], S[3]
    for i in range(ps[b, q, K.ZONE_LEN_OF(z)] - 1, -1, -1):
        if zones[b, q, z, i] == c:
            return i
    return -1


@njit(cache=True)
def first_index(S, b, q, z, c):
    ps, zones = S[1], S[3]
    for i in range(ps[b, q, K.ZONE_LEN_OF(z)]):
        if zones[b, q, z, i] == c:
            return i
    return -1


@njit(cache=True)
def to_hand(S, b, p, c, public):
    ps, counts = S[1], S[2]
    counts[b, p, K.H_HAND, c] += 1
    ps[b, p, K.P_HSIZE] += 1
    if public:
        counts[b, p, K.H_KNOWN, c] += 1


@njit(cache=True)
def from_hand(S, b, p, c, public):
    ps, counts = S[1], S[2]
    counts[b, p, K.H_HAND, c] -= 1
    ps[b, p, K.P_HSIZE] -= 1
    if public:  # seen leaving: one fewer known copy (it may have been the known one)
        if counts[b, p, K.H_KNOWN, c]:
            counts[b, p, K.H_KNOWN, c] -= 1
    else:  # left unseen: the others no longer know which revealed cards remain
        counts[b, p, K.H_KNOWN, :] = 0


@njit(cache=True)
def shuffle(S, b, p):
    """The discard pile, sorted, shuffled by ``default_rng([seed, shuffles])`` under the deck."""
    g, ps, zones, gen = S[0], S[1], S[3], S[11]
    m, size = ps[b, p, K.P_DISC], ps[b, p, K.P_DECK]
    deck, flags = zones[b, p, K.Z_DECK], zones[b, p, K.Z_FLAGS]
    for i in range(size - 1, -1, -1):
        deck[i + m] = deck[i]
        flags[i + m] = flags[i]
    tally = np.zeros(C, np.int64)
    for i in range(m):
        tally[zones[b, p, K.Z_DISC, i]] += 1
    i = 0
    for c in range(C):
        for _ in range(tally[c]):
            deck[i] = c
            flags[i] = 0
            i += 1
    shuffle_pair(np.uint64(g[b, K.G_SEED]), g[b, K.G_SHUFFLES], deck, m, gen)
    g[b, K.G_SHUFFLES] += 1
    ps[b, p, K.P_DECK] = size + m
    ps[b, p, K.P_DISC] = 0


@njit(cache=True)
def draw(S, b, p, k):
    ps, counts, zones = S[1], S[2], S[3]
    for _ in range(k):
        if ps[b, p, K.P_DECK] == 0:
            if ps[b, p, K.P_DISC] == 0:
                break
            shuffle(S, b, p)
        i = ps[b, p, K.P_DECK] - 1
        c = zones[b, p, K.Z_DECK, i]
        if zones[b, p, K.Z_FLAGS, i] == 2:
            counts[b, p, K.H_KNOWN, c] += 1
        ps[b, p, K.P_DECK] = i
        counts[b, p, K.H_HAND, c] += 1
        ps[b, p, K.P_HSIZE] += 1


@njit(cache=True)
def reveal_top(S, b, p):
    ps, zones = S[1], S[3]
    if ps[b, p, K.P_DECK] == 0 and ps[b, p, K.P_DISC]:
        shuffle(S, b, p)
    i = ps[b, p, K.P_DECK] - 1
    if i < 0:
        return -1
    zones[b, p, K.Z_FLAGS, i] = 2
    return np.int64(zones[b, p, K.Z_DECK, i])


@njit(cache=True)
def top_to_hand(S, b, p):
    ps, zones = S[1], S[3]
    i = ps[b, p, K.P_DECK] - 1
    ps[b, p, K.P_DECK] = i
    to_hand(S, b, p, zones[b, p, K.Z_DECK, i], True)


@njit(cache=True)
def reveal_in_hand(S, b, p, c):
    counts = S[2]
    if counts[b, p, K.H_KNOWN, c] < 1:
        counts[b, p, K.H_KNOWN, c] = 1


@njit(cache=True)
def hand_to_deck(S, b, p, c):
    from_hand(S, b, p, c, False)
    deck_push(S, b, p, c, 1)


@njit(cache=True)
def discard_from_hand(S, b, p, c):
    from_hand(S, b, p, c, True)
    append(S, b, p, K.Z_DISC, c)


@njit(cache=True)
def discard_to_hand(S, b, p, c):
    delete(S, b, p, K.Z_DISC, first_index(S, b, p, K.Z_DISC, c))  # the deepest copy
    to_hand(S, b, p, c, True)


@njit(cache=True)
def trash_from_hand(S, b, p, c):
    from_hand(S, b, p, c, True)
    trashed(S, b, p, c)


@njit(cache=True)
def trash_from_play(S, b, p, c):
    delete(S, b, p, K.Z_PLAY, last_index(S, b, p, K.Z_PLAY, c))
    trashed(S, b, p, c)


@njit(cache=True)
def trashed(S, b, p, c):
    counts, trash = S[2], S[8]
    trash[b, c] += 1
    counts[b, p, K.H_OWNED, c] -= 1
    if ON_TRASH[c]:
        trigger(S, b, OP_ON_TRASH, -1, p, c)


@njit(cache=True)
def trash_from_supply(S, b, pile):
    piles, plen, trash = S[5], S[6], S[8]
    plen[b, pile] -= 1
    trash[b, piles[b, pile, plen[b, pile]]] += 1


@njit(cache=True)
def rotate_pile(S, b, pile):
    """Split-pile rule 7: the top card and the copies directly under it go to the bottom."""
    piles, plen = S[5], S[6]
    size = plen[b, pile]
    if size == 0:
        return
    cards = piles[b, pile]
    top = cards[size - 1]
    k = 1
    while k < size and cards[size - 1 - k] == top:
        k += 1
    for i in range(size - 1 - k, -1, -1):
        cards[i + k] = cards[i]
    for i in range(k):
        cards[i] = top


@njit(cache=True)
def set_aside_from_play(S, b, p, c):
    i = last_index(S, b, p, K.Z_PLAY, c)
    if i >= 0:
        delete(S, b, p, K.Z_PLAY, i)
        append(S, b, p, K.Z_ASIDE, c)


@njit(cache=True)
def gain(S, b, p, pile, dest=DEST_DISCARD):
    """Gain the top card of `pile`; -1 when the pile is empty."""
    piles, plen = S[5], S[6]
    if plen[b, pile] == 0:
        return -1
    plen[b, pile] -= 1
    c = np.int64(piles[b, pile, plen[b, pile]])
    gained(S, b, p, c, dest)
    return c


@njit(cache=True)
def gain_from_trash(S, b, p, c):
    S[8][b, c] -= 1
    gained(S, b, p, c, DEST_DISCARD)


@njit(cache=True)
def gained(S, b, p, c, dest):
    g, ps, counts, dur = S[0], S[1], S[2], S[4]
    counts[b, p, K.H_OWNED, c] += 1
    if p == g[b, K.G_TURN] and g[b, K.G_PHASE] != K.OVER:
        for k in range(ps[b, p, K.P_DUR]):  # Garrison: a token per card gained this turn
            if dur[b, p, k, 0] == cd.GARRISON:
                dur[b, p, k, 1] += 1
        if g[b, K.G_ALLY] == cd.BAND_OF_NOMADS and ps[b, p, K.P_FAVORS] and K.COST[c] >= 3:
            trigger(S, b, OP_ASK, Q_BAND_OF_NOMADS, p, c)
    if dest == DEST_DISCARD:
        append(S, b, p, K.Z_DISC, c)
    elif dest == DEST_HAND:
        to_hand(S, b, p, c, True)
    else:
        deck_push(S, b, p, c, 2)
    if ON_GAIN[c]:
        trigger(S, b, OP_ON_GAIN, -1, p, c)


@njit(cache=True)
def to_deck_bottom(S, b, p, c):
    ps, zones = S[1], S[3]
    from_hand(S, b, p, c, False)
    size = ps[b, p, K.P_DECK]
    for i in range(size - 1, -1, -1):
        zones[b, p, K.Z_DECK, i + 1] = zones[b, p, K.Z_DECK, i]
        zones[b, p, K.Z_FLAGS, i + 1] = zones[b, p, K.Z_FLAGS, i]
    zones[b, p, K.Z_DECK, 0] = c
    zones[b, p, K.Z_FLAGS, 0] = 1
    ps[b, p, K.P_DECK] = size + 1


@njit(cache=True)
def from_play_to_deck(S, b, p, c):
    delete(S, b, p, K.Z_PLAY, last_index(S, b, p, K.Z_PLAY, c))
    deck_push(S, b, p, c, 2)


@njit(cache=True)
def fill_deck(S, b, p, k):
    ps = S[1]
    if ps[b, p, K.P_DECK] < k and ps[b, p, K.P_DISC]:
        shuffle(S, b, p)
    return min(k, ps[b, p, K.P_DECK])


@njit(cache=True)
def add_duration(S, b, p, card, x):
    ps, dur = S[1], S[4]
    k = ps[b, p, K.P_DUR]
    dur[b, p, k, 0] = card
    dur[b, p, k, 1] = x
    ps[b, p, K.P_DUR] = k + 1


@njit(cache=True)
def has_duration(S, b, p, card):
    ps, dur = S[1], S[4]
    for k in range(ps[b, p, K.P_DUR]):
        if dur[b, p, k, 0] == card:
            return True
    return False


@njit(cache=True)
def empty_piles(S, b):
    plen, supply = S[6], S[7]
    k = 0
    for q in range(cd.NUM_PILES):
        if supply[b, q] and plen[b, q] == 0:
            k += 1
    return k


# ----- playing cards ------------------------------------------------------------------------------
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
        resolve(S, b, p, c)


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
    g, ps, zones = S[0], S[1], S[3]
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
    play_from_hand(S, b, p, card)


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
            play_from_hand(S, b, p, c)
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
            resolve(S, b, p, c)
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
            play_from_hand(S, b, p, c)
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
    keep = np.zeros(C, np.int64)
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
    t = np.empty(len(K.T_FIELDS), np.int32)
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
            resolve(S, b, p, card)
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
            play_from_hand(S, b, p, a - CARD0)
    elif phase == 1:
        if a == DONE:
            enter_buy(S, b)
        elif a == PLAY_ALL:
            push(S, b, OP_PLAY_ALL, -1, p, -1, 0, 0, 0)
        else:
            play_from_hand(S, b, p, a - CARD0)
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
        t = tasks[b, nt - 1].copy()
        mark = nt - 1
        g[b, K.G_NTASKS] = mark
        if answer(S, b, t, a):
            insert_tasks(S, b, mark, t.reshape(1, -1), 1, False)
            if g[b, K.G_NTRIG]:  # a trigger during a multi-card pick waits until the pick ends
                insert_tasks(S, b, mark, trig[b], g[b, K.G_NTRIG], True)
                g[b, K.G_NTRIG] = 0
    else:
        phase_answer(S, b, a)
    run(S, b)


@njit(cache=True)
def apply(S, actions, active):
    for b in range(actions.shape[0]):
        if active[b]:
            apply_one(S, b, actions[b])
