"""Batched Dominion's state layout, rule queries, mask and observation (numba kernels).

The state is a handful of arrays (`DominionBatch`'s docstring has the table): per-game scalars
in one int64 row with named columns (`G_*`), per-seat scalars in one int32 row per seat
(`P_*`), per-seat card counts (`H_*` planes), per-seat ordered piles (`Z_*` planes) with their
lengths among the seat's scalars, the Supply piles, the trash and the task stack (`T_*`
columns). Card and pile ids are the reference's (`card_envs.games.dominion.cards`).
"""

from __future__ import annotations

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.numba_borrow import borrowed
from card_envs.games.dominion import cards as cd
from card_envs.games.dominion import effects as fx

C, NP = cd.NUM_CARDS, cd.NUM_PILES

# Per-game scalars: g[b, G_*] (int64).
# The last three are the rules' working values: `max_turns` (the configuration's), the card Elder
# is playing (-1 between decisions) and the triggers waiting to be pushed (0 between decisions).
G_FIELDS = ("cur", "turn", "phase", "coins", "actions", "buys", "saunas", "fortune", "ally", "bane", "prev",
            "extra", "plays_left", "shuffles", "seed", "ntasks", "max_turns", "elder", "ntrig")
(G_CUR, G_TURN, G_PHASE, G_COINS, G_ACTIONS, G_BUYS, G_SAUNAS, G_FORTUNE, G_ALLY, G_BANE, G_PREV, G_EXTRA,
 G_PLAYS, G_SHUFFLES, G_SEED, G_NTASKS, G_MAX_TURNS, G_ELDER, G_NTRIG) = range(len(G_FIELDS))
# Per-seat scalars: ps[b, q, P_*] (int32); the *_len fields are the lengths of the zones below.
P_FIELDS = ("hsize", "vp", "debt", "turns", "favors", "skips", "immune", "deck_len", "disc_len", "play_len",
            "aside_len", "dur_len")
(P_HSIZE, P_VP, P_DEBT, P_TURNS, P_FAVORS, P_SKIPS, P_IMMUNE, P_DECK, P_DISC, P_PLAY, P_ASIDE,
 P_DUR) = range(len(P_FIELDS))
# Per-seat counts per card: counts[b, q, H_*, c] (int16).
H_HAND, H_KNOWN, H_OWNED = range(3)
# Per-seat ordered piles: zones[b, q, Z_*, i] (int8), bottom first as the reference's lists; the
# deck's known flags (0/1/2) are a plane of their own, parallel to the deck.
Z_DECK, Z_FLAGS, Z_DISC, Z_PLAY, Z_ASIDE = range(5)
ZONE_LEN = {Z_DECK: P_DECK, Z_FLAGS: P_DECK, Z_DISC: P_DISC, Z_PLAY: P_PLAY, Z_ASIDE: P_ASIDE}
# The task stack: tasks[b, k, T_*] (int32), bottom first; kind is the DECISIONS index (-1: not an ask).
T_FIELDS = ("op", "kind", "p", "card", "lo", "hi", "x")
T_OP, T_KIND, T_P, T_CARD, T_LO, T_HI, T_X = range(len(T_FIELDS))
OP_ASK = fx.TASK_OPS.index("ask")
OVER = 3
# Decision kinds the kernels name (codes: effects.DECISIONS' order).
(K_MOAT, K_WORKSHOP, K_REMODEL_GAIN, K_BANE, K_ENCAMPMENT, K_SETTLERS, K_BUSTLING, K_GLADIATOR_COPY,
 K_SAUNA_AVANTO, K_AVANTO_SAUNA, K_SMALL_CASTLE, K_OPULENT, K_SPRAWLING, K_ROTATE, K_ROTATE_ANY,
 K_HERB_GATHERER, K_ACOLYTE, K_ACOLYTE_SELF, K_SORCERESS, K_BATTLE_PLAN, K_ARCHER_PICK, K_TENT, K_HILL_FORT,
 K_MODE, K_SUNKEN_TREASURE, K_CONJURER, K_SORCERER, K_LICH, K_ELDER, K_MILLER, K_MOUNTAIN_FOLK,
 K_BAND_OF_NOMADS) = (
    fx.DECISION_INDEX[k] for k in """
    moat workshop remodel_gain bane encampment settlers bustling gladiator_copy sauna_avanto
    avanto_sauna small_castle opulent sprawling rotate rotate_any herb_gatherer acolyte acolyte_self
    sorceress battle_plan archer_pick tent hill_fort mode sunken_treasure conjurer sorcerer lich elder
    miller mountain_folk band_of_nomads""".split())

# Card tables as the kernels read them.
COST = np.array(cd.COST, np.int64)
DEBT = np.array(cd.DEBT, np.int64)
FIXED_VP = np.array([v or 0 for v in cd.VP], np.int64)
IS_ACTION = np.array(cd.IS_ACTION, np.bool_)
IS_TREASURE = np.array(cd.IS_TREASURE, np.bool_)
IS_VICTORY = np.array(cd.IS_VICTORY, np.bool_)
IS_ATTACK = np.array(cd.IS_ATTACK, np.bool_)
IS_CASTLE = np.array(cd.IS_CASTLE, np.bool_)
PILE_OF = np.array(cd.PILE_OF, np.int64)
PILE_SIZE = np.array([len(x) for x in cd.PILE_CARDS], np.int64)  # names per pile
PILE_FIRST = np.array([x[0] for x in cd.PILE_CARDS], np.int64)
# A pile's cards are consecutive ids (the kernels walk a pile's names from PILE_FIRST).
assert all(list(x) == list(range(x[0], x[0] + len(x))) for x in cd.PILE_CARDS)
IS_PICK = np.array([k in fx.PICK_KINDS for k in fx.DECISIONS], np.bool_)
MODES = np.array([fx.MODES.get(name, 0) for name in cd.CARD_NAMES], np.int64)
# TENTHS[k]: 0.1 added k times in float64, as the reference counts a split pile's copies.
_t = [0.0]
for _ in range(63):
    _t.append(_t[-1] + 0.1)
TENTHS = np.array(_t, np.float64)

# The observation pieces the kernels write, by position in this tuple (-1: not in the layout).
PIECES = ("hand", "deck", "discard", "deck_top", "hands", "decks", "deck_order", "discards", "chance",
          "in_play", "set_aside", "owned", "known_hand", "discard_top", "sizes", "vp_tokens", "debt", "turns",
          "score", "supply_in", "pile_size", "bane", "supply_counts", "supply_top", "supply_depth", "trash",
          "phase", "active", "to_move", "turn_state", "decision", "decision_card", "decision_named",
          "decision_left", "favors", "skips", "durations", "garrison_tokens", "ally", "extra_turn",
          "decision_seat", "decision_picked", "looking")
(O_HAND, O_DECK, O_DISCARD, O_DECK_TOP, O_HANDS, O_DECKS, O_DECK_ORDER, O_DISCARDS, O_CHANCE, O_IN_PLAY,
 O_SET_ASIDE, O_OWNED, O_KNOWN, O_DISCARD_TOP, O_SIZES, O_VP, O_DEBT, O_TURNS, O_SCORE, O_SUPPLY_IN,
 O_PILE_SIZE, O_BANE, O_SUPPLY_COUNTS, O_SUPPLY_TOP, O_SUPPLY_DEPTH, O_TRASH, O_PHASE, O_ACTIVE, O_TO_MOVE,
 O_TURN_STATE, O_DECISION, O_DECISION_CARD, O_DECISION_NAMED, O_DECISION_LEFT, O_FAVORS, O_SKIPS,
 O_DURATIONS, O_GARRISON, O_ALLY, O_EXTRA, O_DECISION_SEAT, O_DECISION_PICKED, O_LOOKING) = range(len(PIECES))

TENTH = np.float32(0.1)


def offsets(layout) -> np.ndarray:
    """int64[len(PIECES)]: where each piece starts in `layout` (-1 where it has none)."""
    return np.array([layout.slices[k].start if k in layout.slices else -1 for k in PIECES], dtype=np.int64)


# ----- rule queries ---------------------------------------------------------------------------
@njit(cache=True, inline="always")
def score(ps, counts, b, q):
    """`DominionState.score(q)`: VP tokens, the cards' VP, the Castles' and Territory's rules."""
    owned = counts[b, q, H_OWNED]
    total = np.int64(ps[b, q, P_VP])
    for c in range(C):
        total += owned[c] * FIXED_VP[c]
    if owned[cd.HUMBLE_CASTLE] or owned[cd.KINGS_CASTLE]:
        castles = 0
        for c in range(C):
            if IS_CASTLE[c]:
                castles += owned[c]
        total += castles * (owned[cd.HUMBLE_CASTLE] + 2 * owned[cd.KINGS_CASTLE])
    if owned[cd.TERRITORY]:
        names = 0
        for c in range(C):
            if IS_VICTORY[c] and owned[c]:
                names += 1
        total += owned[cd.TERRITORY] * names
    return total


@njit(cache=True, inline="always")
def zone_has(zones, ps, b, q, z, c):
    for i in range(ps[b, q, ZONE_LEN_OF(z)]):
        if zones[b, q, z, i] == c:
            return True
    return False


@njit(cache=True, inline="always")
def ZONE_LEN_OF(z):
    if z == Z_DECK or z == Z_FLAGS:
        return P_DECK
    if z == Z_DISC:
        return P_DISC
    if z == Z_PLAY:
        return P_PLAY
    return P_ASIDE


@njit(cache=True, inline="always")
def zone_count(zones, ps, b, q, z, c):
    k = 0
    for i in range(ps[b, q, ZONE_LEN_OF(z)]):
        if zones[b, q, z, i] == c:
            k += 1
    return k


@njit(cache=True)
def warlord_locked(ps, zones, dur, n, b, q, c):
    """Card c is locked for seat q: 2+ copies in play while another seat's Warlord (not blocked
    by q's Moat) waits (`DominionState.warlord_locked`)."""
    for p in range(n):
        if p != q:
            for k in range(ps[b, p, P_DUR]):
                if dur[b, p, k, 0] == cd.WARLORD and not (dur[b, p, k, 1] >> q) & 1:
                    return zone_count(zones, ps, b, q, Z_PLAY, c) >= 2
    return False


@njit(cache=True, inline="always")
def playable(g, ps, counts, zones, dur, n, b, q, c):
    """Seat q may play Action card c from hand now (`DominionState.playable_actions`)."""
    if g[b, G_PLAYS] == 0 or not IS_ACTION[c] or counts[b, q, H_HAND, c] == 0:
        return False
    return not warlord_locked(ps, zones, dur, n, b, q, c)


# ----- the mask ---------------------------------------------------------------------------------
@njit(cache=True)
def answers(g, ps, counts, zones, dur, piles, plen, supply, trash, tasks, n, b, row):
    """Write the legal answers of game b into `row` (bool[NUM_ACTIONS], zeroed); returns how many
    (`DominionState._compute_legal`)."""
    if g[b, G_PHASE] == OVER:
        return 0
    nt = g[b, G_NTASKS]
    if nt == 0:
        return phase_answers(g, ps, counts, zones, dur, piles, plen, supply, n, b, row)
    t = tasks[b, nt - 1]
    return ask_answers(g, ps, counts, zones, dur, piles, plen, supply, trash, n, b, t, row)


@njit(cache=True)
def phase_answers(g, ps, counts, zones, dur, piles, plen, supply, n, b, row):
    p, phase = g[b, G_TURN], g[b, G_PHASE]
    k = 0
    row[fx.DONE] = True
    k += 1
    if phase == 0:
        row[fx.PLAY_ALL] = True
        k += 1
        if g[b, G_ACTIONS] > 0:
            for c in range(C):
                if playable(g, ps, counts, zones, dur, n, b, p, c):
                    row[fx.CARD0 + c] = True
                    k += 1
    elif phase == 1:
        row[fx.PLAY_ALL] = True
        k += 1
        if g[b, G_PLAYS] != 0:
            for c in range(C):
                if IS_TREASURE[c] and counts[b, p, H_HAND, c]:
                    row[fx.CARD0 + c] = True
                    k += 1
    elif g[b, G_BUYS] > 0 and ps[b, p, P_DEBT] == 0:
        coins = g[b, G_COINS]
        for q in range(NP):
            if supply[b, q] and plen[b, q] and COST[piles[b, q, plen[b, q] - 1]] <= coins:
                row[fx.PILE0 + q] = True
                k += 1
    return k


@njit(cache=True, inline="always")
def card_ok(c, coins, debt):
    return COST[c] <= coins and DEBT[c] <= debt


@njit(cache=True, inline="always")
def put(row, a, k):
    row[a] = True
    return k + 1


@njit(cache=True)
def ask_answers(g, ps, counts, zones, dur, piles, plen, supply, trash, n, b, t, row):
    kind, p, card, lo, hi, x = t[T_KIND], t[T_P], t[T_CARD], t[T_LO], t[T_HI], t[T_X]
    hand = counts[b, p, H_HAND]
    k = 0
    if IS_PICK[kind]:
        if hi <= 0:
            return 0
        for c in range(C):
            if hand[c] and (kind != K_OPULENT or IS_VICTORY[c]) \
                    and (kind != K_ACOLYTE or IS_ACTION[c] or IS_VICTORY[c]):
                k = put(row, fx.CARD0 + c, k)
        if lo <= 0:
            k = put(row, fx.DONE, k)
        return k
    if kind == K_WORKSHOP or kind == K_REMODEL_GAIN or kind == K_HILL_FORT or kind == K_CONJURER:
        for q in range(NP):
            if supply[b, q] and plen[b, q] and card_ok(piles[b, q, plen[b, q] - 1], x, lo):
                k = put(row, fx.PILE0 + q, k)
        return k
    if kind == K_SPRAWLING:
        k = put(row, fx.OPTION0, k)
        return put(row, fx.OPTION0 + 1, k)
    if kind == K_SORCERESS or kind == K_SORCERER:
        for q in range(NP):
            if supply[b, q]:
                for i in range(PILE_SIZE[q]):
                    k = put(row, fx.CARD0 + PILE_FIRST[q] + i, k)
        return k
    if kind == K_ARCHER_PICK:
        for c in range(C):
            if counts[b, x, H_KNOWN, c]:
                k = put(row, fx.CARD0 + c, k)
        return k
    if kind == K_MODE:
        if x:
            k = put(row, fx.DONE, k)
        for i in range(MODES[card]):
            if not (x >> i) & 1:
                k = put(row, fx.OPTION0 + i, k)
        return k
    if kind == K_SUNKEN_TREASURE:
        for q in range(NP):
            if supply[b, q] and plen[b, q]:
                top = piles[b, q, plen[b, q] - 1]
                if IS_ACTION[top] and not zone_has(zones, ps, b, p, Z_PLAY, top):
                    k = put(row, fx.PILE0 + q, k)
        return k
    if kind == K_LICH:
        for c in range(C):
            if trash[b, c] and COST[c] < COST[cd.LICH] and DEBT[c] <= DEBT[cd.LICH]:
                k = put(row, fx.CARD0 + c, k)
        return k
    if kind == K_MILLER:
        top = ps[b, p, P_DECK]
        for i in range(top - x, top):
            c = zones[b, p, Z_DECK, i]
            if not row[fx.CARD0 + c]:
                k = put(row, fx.CARD0 + c, k)
        return k
    if kind == K_ROTATE:
        if plen[b, x]:
            k = put(row, fx.DONE, k)
            k = put(row, fx.OPTION0, k)
        return k
    if kind == K_ACOLYTE_SELF:
        if zone_has(zones, ps, b, p, Z_PLAY, cd.ACOLYTE):
            k = put(row, fx.DONE, k)
            k = put(row, fx.OPTION0, k)
        return k
    if kind == K_TENT:
        if hi > 0 and zone_has(zones, ps, b, p, Z_PLAY, cd.TENT):
            k = put(row, fx.DONE, k)
            k = put(row, fx.CARD0 + cd.TENT, k)
        return k
    if kind == K_BAND_OF_NOMADS:
        if ps[b, p, P_FAVORS]:
            for i in range(4):
                k = put(row, i if i == 0 else fx.OPTION0 + i - 1, k)
        return k
    if kind == K_SMALL_CASTLE:
        if zone_has(zones, ps, b, p, Z_PLAY, cd.SMALL_CASTLE):
            k = put(row, fx.OPTION0, k)
        for c in range(C):
            if IS_CASTLE[c] and hand[c]:
                k = put(row, fx.CARD0 + c, k)
        return k
    # Every other kind offers DONE and, maybe, cards or piles.
    k = put(row, fx.DONE, k)
    if kind == K_MOAT:
        if hand[cd.MOAT]:
            k = put(row, fx.CARD0 + cd.MOAT, k)
    elif kind == K_BANE:
        bane = g[b, G_BANE]
        if bane >= 0:
            for i in range(PILE_SIZE[bane]):
                if hand[PILE_FIRST[bane] + i]:
                    k = put(row, fx.CARD0 + PILE_FIRST[bane] + i, k)
    elif kind == K_SAUNA_AVANTO or kind == K_AVANTO_SAUNA:
        c = cd.AVANTO if kind == K_SAUNA_AVANTO else cd.SAUNA
        if playable(g, ps, counts, zones, dur, n, b, p, c):
            k = put(row, fx.CARD0 + c, k)
    elif kind == K_ENCAMPMENT:
        for c in (cd.GOLD, cd.PLUNDER):
            if hand[c]:
                k = put(row, fx.CARD0 + c, k)
    elif kind == K_SETTLERS or kind == K_BUSTLING:
        c = cd.COPPER if kind == K_SETTLERS else cd.SETTLERS
        if zone_has(zones, ps, b, p, Z_DISC, c):
            k = put(row, fx.CARD0 + c, k)
    elif kind == K_GLADIATOR_COPY:
        if hand[x]:
            k = put(row, fx.CARD0 + x, k)
    elif kind == K_ROTATE_ANY:
        for q in range(NP):
            if supply[b, q] and plen[b, q]:
                k = put(row, fx.PILE0 + q, k)
    elif kind == K_HERB_GATHERER:
        for c in range(C):
            if IS_TREASURE[c] and zone_has(zones, ps, b, p, Z_DISC, c):
                k = put(row, fx.CARD0 + c, k)
    elif kind == K_BATTLE_PLAN:
        for c in range(C):
            if hand[c] and IS_ATTACK[c]:
                k = put(row, fx.CARD0 + c, k)
    elif kind == K_ELDER:
        for c in range(C):
            if playable(g, ps, counts, zones, dur, n, b, p, c):
                k = put(row, fx.CARD0 + c, k)
    elif kind == K_MOUNTAIN_FOLK:
        k = put(row, fx.OPTION0, k)
    return k


@njit(cache=True)
def mask(arrays, n, out):
    """Every game's legal answers into out (bool[B, NUM_ACTIONS]); `arrays`: the state
    (`DominionBatch._arrays`)."""
    g, ps, counts, zones, dur, piles, plen, supply, trash, tasks = borrowed(arrays)
    (out,) = borrowed((out,))
    out[:] = False
    for b in range(out.shape[0]):
        answers(g, ps, counts, zones, dur, piles, plen, supply, trash, tasks, n, b, out[b])


# ----- observations and state vectors ----------------------------------------------------------
@njit(cache=True)
def encode(arrays, n, max_turns, off, seats, full, out):
    """Each game's observation by seats[b] (full=False: `Encoder.observation`) or its state
    vector (full=True: `Encoder.state_tensor`, seats ignored), bit for bit."""
    g, ps, counts, zones, dur, piles, plen, supply, trash, tasks = borrowed(arrays)
    off, seats, out = borrowed((off, seats, out))
    for b in range(out.shape[0]):
        encode_row(g, ps, counts, zones, dur, piles, plen, supply, trash, tasks, n, max_turns, off, b, seats[b], full,
                   out[b])


@njit(cache=True, inline="always")
def encode_row(g, ps, counts, zones, dur, piles, plen, supply, trash, tasks, n, max_turns, off, b, seat, full, flat):
    """Game b's observation by `seat` (or its state vector) into `flat` (zeroed)."""
    first = 0 if full else seat
    if full:
        private_full(g, ps, counts, zones, n, off, b, flat)
    else:
        private_seat(ps, counts, zones, n, off, b, first, flat)
    public(g, ps, counts, zones, piles, plen, supply, trash, tasks, n, max_turns, off, b, first, flat)
    tier3(g, ps, zones, dur, tasks, n, off, b, first, -1 if full else first, flat)


@njit(cache=True, inline="always")
def zone_tenths(zones, ps, b, q, z, flat, at):
    """flat[at + c] = the copies of c in the zone times 0.1 (float32 arithmetic, as the
    reference's count then scale): counted negative first, so that each total is scaled once."""
    cards = zones[b, q, z]
    size = ps[b, q, ZONE_LEN_OF(z)]
    for i in range(size):
        flat[at + cards[i]] -= 1.0
    for i in range(size):
        j = at + cards[i]
        if flat[j] < 0:
            flat[j] = -flat[j] * TENTH


@njit(cache=True, inline="always")
def count_tenths(row, flat, at):
    """flat[at + c] = row[c] times 0.1 (float32 arithmetic): every c, without a branch, so that
    the loop is vectorised (a zero count writes +0.0, as the zeroed row holds)."""
    out = flat[at:at + C]  # indices from 0: no wraparound check, so the loop vectorises
    for c in range(C):
        out[c] = np.float32(row[c]) * TENTH


@njit(cache=True, inline="always")
def scale(flat, start, stop):
    for i in range(start, stop):
        flat[i] = flat[i] * TENTH


@njit(cache=True)
def private_seat(ps, counts, zones, n, off, b, player, flat):
    count_tenths(counts[b, player, H_HAND], flat, off[O_HAND])
    zone_tenths(zones, ps, b, player, Z_DECK, flat, off[O_DECK])
    zone_tenths(zones, ps, b, player, Z_DISC, flat, off[O_DISCARD])
    base = off[O_DECK_TOP]
    for r in range(n):
        q = (player + r) % n
        size = ps[b, q, P_DECK]
        need = 1 if r == 0 else 2
        if size and zones[b, q, Z_FLAGS, size - 1] >= need:
            flat[base + 2 * r * C + zones[b, q, Z_DECK, size - 1]] = 1.0
        if size > 1 and zones[b, q, Z_FLAGS, size - 2] >= need:
            flat[base + (2 * r + 1) * C + zones[b, q, Z_DECK, size - 2]] = 1.0


@njit(cache=True)
def private_full(g, ps, counts, zones, n, off, b, flat):
    for q in range(n):
        count_tenths(counts[b, q, H_HAND], flat, off[O_HANDS] + q * C)
        zone_tenths(zones, ps, b, q, Z_DECK, flat, off[O_DECKS] + q * C)
        zone_tenths(zones, ps, b, q, Z_DISC, flat, off[O_DISCARDS] + q * C)
        size = ps[b, q, P_DECK]
        for k in range(min(5, size)):
            flat[off[O_DECK_ORDER] + q * 5 * C + k * C + zones[b, q, Z_DECK, size - 1 - k]] = 1.0
    flat[off[O_CHANCE]] = np.float64(np.uint64(g[b, G_SEED])) / 2.0 ** 62


@njit(cache=True)
def public(g, ps, counts, zones, piles, plen, supply, trash, tasks, n, max_turns, off, b, first, flat):
    for r in range(n):
        q = (first + r) % n
        zone_tenths(zones, ps, b, q, Z_PLAY, flat, off[O_IN_PLAY] + r * C)
        zone_tenths(zones, ps, b, q, Z_ASIDE, flat, off[O_SET_ASIDE] + r * C)
        count_tenths(counts[b, q, H_OWNED], flat, off[O_OWNED] + r * C)
        count_tenths(counts[b, q, H_KNOWN], flat, off[O_KNOWN] + r * C)
        if ps[b, q, P_DISC]:
            flat[off[O_DISCARD_TOP] + r * C + zones[b, q, Z_DISC, ps[b, q, P_DISC] - 1]] = 1.0
        flat[off[O_SIZES] + 3 * r] = ps[b, q, P_HSIZE]
        flat[off[O_SIZES] + 3 * r + 1] = ps[b, q, P_DECK]
        flat[off[O_SIZES] + 3 * r + 2] = ps[b, q, P_DISC]
        flat[off[O_VP] + r] = min(ps[b, q, P_VP], 10_000)
        flat[off[O_DEBT] + r] = min(ps[b, q, P_DEBT], 10_000)
        flat[off[O_TURNS] + r] = min(1.0, ps[b, q, P_TURNS] / max_turns)
        flat[off[O_SCORE] + r] = min(20.0, max(0.0, (score(ps, counts, b, q) + 50) / 100))
    scale(flat, off[O_SIZES], off[O_SIZES] + 5 * n)
    supply_block(g, piles, plen, supply, trash, off, b, flat)
    phase = g[b, G_PHASE]
    flat[off[O_PHASE] + phase] = 1.0
    if phase != OVER:
        flat[off[O_ACTIVE] + (g[b, G_TURN] - first) % n] = 1.0
        flat[off[O_TO_MOVE] + (g[b, G_CUR] - first) % n] = 1.0
    at = off[O_TURN_STATE]
    flat[at] = min(g[b, G_COINS], 10_000) / 10
    flat[at + 1] = min(g[b, G_ACTIONS], 10_000) / 10
    flat[at + 2] = min(g[b, G_BUYS], 10_000) / 10
    flat[at + 3] = min(g[b, G_SAUNAS], 10_000) / 10
    flat[at + 4] = g[b, G_FORTUNE]
    if phase != OVER:
        nt = g[b, G_NTASKS]
        if nt:
            t = tasks[b, nt - 1]
            flat[off[O_DECISION] + t[T_KIND]] = 1.0
            if t[T_CARD] >= 0:
                flat[off[O_DECISION_CARD] + t[T_CARD]] = 1.0
            if t[T_KIND] == K_GLADIATOR_COPY:
                flat[off[O_DECISION_NAMED] + t[T_X]] = 1.0
            if IS_PICK[t[T_KIND]]:
                flat[off[O_DECISION_LEFT]] = max(0, t[T_LO]) / 10
                flat[off[O_DECISION_LEFT] + 1] = min(t[T_HI], 400) / 10
        else:
            flat[off[O_DECISION] + phase] = 1.0


@njit(cache=True)
def supply_block(g, piles, plen, supply, trash, off, b, flat):
    """supply_in, pile_size, bane, supply_counts, supply_top, supply_depth and the trash
    (`encode.supply_trash_block`)."""
    if g[b, G_BANE] >= 0:
        flat[off[O_BANE] + g[b, G_BANE]] = 1.0
    for q in range(NP):
        if not supply[b, q]:
            continue
        size = plen[b, q]
        flat[off[O_SUPPLY_IN] + q] = 1.0
        flat[off[O_PILE_SIZE] + q] = size / 10
        if not size:
            continue
        top = piles[b, q, size - 1]
        flat[off[O_SUPPLY_TOP] + top] = 1.0
        if PILE_SIZE[q] == 1:
            flat[off[O_SUPPLY_COUNTS] + top] = size / 10
            flat[off[O_SUPPLY_DEPTH] + top] = 1 / 13
            continue
        # One pass up the pile: each name's copies, counted in its supply_counts slot, and the
        # position of its highest copy in its supply_depth slot (both small integers, exact in
        # float32); then each is turned into its value.
        counts, depth = off[O_SUPPLY_COUNTS], off[O_SUPPLY_DEPTH]
        for j in range(size):
            c = piles[b, q, j]
            flat[counts + c] += 1.0
            flat[depth + c] = j
        for c in range(PILE_FIRST[q], PILE_FIRST[q] + PILE_SIZE[q]):
            copies = int(flat[counts + c])
            if copies:
                flat[counts + c] = TENTHS[copies]
                flat[depth + c] = (size - 1 - int(flat[depth + c]) + 1) / 13
    count_tenths(trash[b], flat, off[O_TRASH])


@njit(cache=True)
def tier3(g, ps, zones, dur, tasks, n, off, b, first, viewer, flat):
    """The tier-3 pieces (`Encoder._tier3`)."""
    ally = g[b, G_ALLY]
    if ally >= 0:
        flat[off[O_ALLY] + ally] = 1.0
        for r in range(n):
            flat[off[O_FAVORS] + r] = min(ps[b, (first + r) % n, P_FAVORS], 10_000) / 10
    for r in range(n):
        flat[off[O_SKIPS] + r] = min(ps[b, (first + r) % n, P_SKIPS], 10_000)
    voyage = False
    for r in range(n):
        q = (first + r) % n
        for k in range(ps[b, q, P_DUR]):
            card = dur[b, q, k, 0]
            at = off[O_DURATIONS] + r * C + card
            flat[at] = flat[at] + TENTH
            if card == cd.GARRISON:
                at = off[O_GARRISON] + r
                flat[at] = flat[at] + np.float32(min(dur[b, q, k, 1], 10_000) / 10)
            if card == cd.VOYAGE and q == g[b, G_TURN]:
                voyage = True
    if voyage and g[b, G_PHASE] != OVER:
        flat[off[O_EXTRA] + 2] = 1.0
    if g[b, G_EXTRA]:
        flat[off[O_EXTRA]] = 1.0
        flat[off[O_EXTRA] + 1] = max(0, g[b, G_PLAYS]) / 3
    nt = g[b, G_NTASKS]
    if nt and g[b, G_PHASE] != OVER:
        t = tasks[b, nt - 1]
        kind = t[T_KIND]
        if kind == K_ARCHER_PICK:
            flat[off[O_DECISION_SEAT] + (t[T_X] - first) % n] = 1.0
        elif kind == K_MODE:
            for i in range(4):
                if (t[T_X] >> i) & 1:
                    flat[off[O_DECISION_PICKED] + i] = 1.0
        elif kind == K_MILLER and (viewer < 0 or viewer == t[T_P]):
            p = t[T_P]
            top = ps[b, p, P_DECK]
            for i in range(top - t[T_X], top):
                at = off[O_LOOKING] + zones[b, p, Z_DECK, i]
                flat[at] = flat[at] + TENTH
