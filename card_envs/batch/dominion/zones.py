"""Batched Dominion's state primitives (numba kernels): the task stack and the zones (draw and the
shuffle, gain, trash, reveal, the deck's top and bottom, Durations), each a port of the reference's
function of the same name (`card_envs.games.dominion.rules`), line by line, and the constants the
rules kernels share (`dominion_effects`, `dominion_play`).

Every function takes `S`, the state tuple (`DominionBatch._rules_state`: g, ps, counts, zones,
dur, piles, plen, supply, trash, tasks, trig, gen, row, work, tally; the last four are scratch: a
`numpy_random` generator, a bool[NUM_ACTIONS] answer row, int32[2, 7] task rows and int64[2, C]
card tallies), and the game's row b.
"""


from __future__ import annotations

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.dominion import kernels as K
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
# push and ask are inlined into their callers: called from about 60 places with every mix of integer
# types and omitted arguments, each compiled on its own they were about 240 specializations, a
# third of the engine's compile time (`benchmarks/compile_times.py`).
@njit(cache=True, inline="always")
def push(S, b, op, kind, p, card, lo, hi, x):
    g, tasks = S[0], S[9]
    k = g[b, K.G_NTASKS]
    if k >= tasks.shape[1]:
        raise ValueError("dominion: the task stack overflowed")
    row = tasks[b, k]
    row[0], row[1], row[2], row[3], row[4], row[5], row[6] = op, kind, p, card, lo, hi, x
    g[b, K.G_NTASKS] = k + 1


@njit(cache=True, inline="always")
def ask(S, b, kind, p, card=-1, lo=0, hi=0, x=0):
    push(S, b, OP_ASK, kind, p, card, lo, hi, x)


@njit(cache=True, inline="always")  # as push: small, called with many argument types
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
    tally = S[14][0]  # scratch: the discard pile's copies of each card
    tally[:] = 0
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


@njit(cache=True, inline="always")
def draw(S, b, p, k):
    """`_draw` with int64 arguments: compiled once, not once per caller's mix of types (ten)."""
    _draw(S, b, np.int64(p), np.int64(k))


@njit(cache=True)
def _draw(S, b, p, k):
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
