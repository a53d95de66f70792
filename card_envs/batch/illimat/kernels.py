"""Numba kernels of batched Illimat: the state tuple, the tables, card movements with their
feature updates, the deal, the full feature rebuild and the observation.

The state is the struct of arrays of `card_envs.batch.illimat.engine` (its docstring has the
table), passed as one named tuple `Board` of numpy arrays; the configuration and the feature
store's offsets as another, `Tables`. Every entry kernel passes both on `by_reference`
(`numba_borrow`: numba would otherwise reference-count each of their arrays, and copy every
field of the state, at each call of a helper: most of the engine's time). Each function follows
the reference method of the same name (`card_envs.games.illimat.rules.IllimatState` and its
mixins) line by line, feature writes included and in the same order, so that the feature store
`feat` stays the reference's `features` bit for bit at its columns (`Tables.kept`: all but the
`PLACE_PIECES`, which `state_rows` writes from the cards' places).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch import numpy_random as npr
from card_envs.batch.numba_borrow import borrowed, by_reference
from card_envs.batch.numba_copy import copy_run, zero_row
from card_envs.core.cards import RANK, SUIT
from card_envs.games.illimat.cards import (
    FACE, HAND_SIZE, IS_FOOL, MAX_STOCKPILE, MAX_VALUE, NO_LUMINARY, NUM_CARDS, NUM_DECISIONS, NUM_FIELDS,
    NUM_LUMINARIES, OVER, RING, RING_POS, SOW, SUMMER, TURN, WINTER)

# ----- where a card is (`loc`) -----------------------------------------------------------------
L_OUT, L_DECK = 0, 1  # out of this round (the Stars of a 52-card game), the draw pile
L_HAND, L_LOOSE, L_PILE, L_HARVEST, L_UNDER = 2, 6, 10, 14, 18  # + seat or field

# ----- tables the kernels read (numba freezes module-level arrays as constants) ---------------
RANK_A = np.array(RANK[:NUM_CARDS], np.int64)
SUIT_A = np.array(SUIT[:NUM_CARDS], np.int64)
FACE_A = np.array(FACE, np.bool_)
FOOL_A = np.array(IS_FOOL, np.bool_)
RING_A = np.array(RING, np.int64)
RING_POS_A = np.array(RING_POS, np.int64)

Board = namedtuple("Board", (
    "feat loc deck deck_len hand_len known loose_len pile_key pile_val pile_multi piles_len harv harv_len "
    "sec sec_len secret hcounts lum lum_up unused unused_len disc_down disc_down_len disc_up disc_up_len "
    "under under_len summer okus_left okus claimed claimed_len decision converged main_done rake_owed "
    "swap_used cleared okus_taken m_card m_field m_action m_partner m_value m_items m_items_len m_full "
    "m_full_len c_given c_given_len c_taken c_taken_len round scores chance_seed cur gen").split())

# Feature-store pieces, in the order of `OFF` (the offsets table); -1 where the layout lacks one.
PIECES = ("hands", "known", "loose", "stockpiled", "single_key", "multiple_key", "seasons", "luminary_up",
          "luminary_down", "luminary_hidden", "luminary_unused", "under_children", "children_count", "deck",
          "deck_size", "okus_left", "okus", "claimed", "harvest", "secret", "harvested", "harvested_public",
          "unseen", "hand_sizes", "scores", "round", "to_move", "decision", "move_cards", "move_field",
          "move_action", "move_value", "move_items", "turn", "converged")
(O_HANDS, O_KNOWN, O_LOOSE, O_STOCKPILED, O_SINGLE_KEY, O_MULTIPLE_KEY, O_SEASONS, O_LUM_UP, O_LUM_DOWN,
 O_LUM_HIDDEN, O_LUM_UNUSED, O_UNDER, O_CHILDREN_COUNT, O_DECK, O_DECK_SIZE, O_OKUS_LEFT, O_OKUS, O_CLAIMED,
 O_HARVEST, O_SECRET, O_HARVESTED, O_HARVESTED_PUBLIC, O_UNSEEN, O_HAND_SIZES, O_SCORES, O_ROUND, O_TO_MOVE,
 O_DECISION, O_MOVE_CARDS, O_MOVE_FIELD, O_MOVE_ACTION, O_MOVE_VALUE, O_MOVE_ITEMS, O_TURN,
 O_CONVERGED) = range(len(PIECES))

Tables = namedtuple("Tables", (
    "n deck_cards luminaries full_harvest harmonic target_score rounds sum_mask score_low score_span off "
    "full_off kept card_blocks card_to runs").split())

# The feature-store pieces that say where each card is. `feat` keeps the other pieces only (an
# eighth of the store): these would be written at every card move, scattered over a 9 KB row, most
# of a step's memory traffic at B=4,096; the observation reads them from the cards' places
# (`card_blocks`) and a full state tensor writes them the same way (`state_rows`).
PLACE_PIECES = ("hands", "known", "loose", "stockpiled", "single_key", "multiple_key", "under_children", "deck",
                "harvest", "secret", "unseen")

# The observation's pieces with a card axis, in the order of `Tables.card_blocks` (their offsets in
# the observation): `observe` writes them from the cards' places and copies the rest from the store.
CARD_BLOCKS = ("hand", "known_hands", "loose", "stockpiled", "single_key", "multiple_key", "unseen")
(B_HAND, B_KNOWN, B_LOOSE, B_STOCKPILED, B_SINGLE_KEY, B_MULTIPLE_KEY, B_UNSEEN) = range(len(CARD_BLOCKS))
TO_ZERO, TO_ONE, TO_PILE = range(3)  # what a card writes at its place: 0, 1, its stockpile's value / 14
# WRITES[what, value]: what a card writes (`TO_*`), by its stockpile's value (read at every card
# the same way: a branch on what it writes would mispredict at every other card).
WRITES = np.array([[0.0] * 128, [1.0] * 128, [v / MAX_STOCKPILE for v in range(128)]], np.float32)


def card_places(n: int, at: np.ndarray) -> np.ndarray:
    """int64[n, 4 * L_UNDER + 16]: for observer p and a card's (loc, known, secret) at
    [p, 4 * loc + 2 * known + secret], the observation block its column is in (times 4) and what
    it writes there (`TO_*`, low two bits). A card with nothing to show writes 0 into the hand
    block, where its column is then 0 anyway (as `rebuild`'s unseen rule and blocks say)."""
    out = np.zeros((n, 4 * (L_UNDER + NUM_FIELDS)), np.int64)
    for p in range(n):
        for where in range(L_UNDER + NUM_FIELDS):
            for known in (0, 1):
                for secret in (0, 1):
                    block, what = at[B_HAND], TO_ZERO
                    if where == L_DECK or where >= L_UNDER:
                        block, what = at[B_UNSEEN], TO_ONE
                    elif L_HAND <= where < L_LOOSE:
                        k = (where - L_HAND - p) % n
                        block = at[B_HAND] if k == 0 else at[B_KNOWN] + (k - 1) * NUM_CARDS if known else at[B_UNSEEN]
                        what = TO_ONE
                    elif L_LOOSE <= where < L_PILE:
                        block, what = at[B_LOOSE] + (where - L_LOOSE) * NUM_CARDS, TO_ONE
                    elif L_PILE <= where < L_HARVEST:
                        block, what = at[B_STOCKPILED] + (where - L_PILE) * NUM_CARDS, TO_PILE
                    elif L_HARVEST <= where < L_UNDER and secret and where - L_HARVEST != p:
                        block, what = at[B_UNSEEN], TO_ONE
                    out[p, 4 * where + 2 * known + secret] = 4 * block + what
    return out


def gather_runs(gathers, written: np.ndarray) -> np.ndarray:
    """int64[n, R, 3]: each seat's observation gather (`observation.observation_gathers`) but for
    the positions `written` (bool, one per gathered column) as runs of consecutive indices (source
    start, destination start, length), padded with empty runs: a copy of ~30 runs instead of
    hundreds of single gathers."""
    per_seat = []
    for idx in gathers:
        runs = []
        for i in np.flatnonzero(~written):
            if runs and runs[-1][1] + runs[-1][2] == i and runs[-1][0] + runs[-1][2] == idx[i]:
                runs[-1][2] += 1
            else:
                runs.append([idx[i], i, 1])
        per_seat.append(runs)
    out = np.zeros((len(gathers), max(len(r) for r in per_seat), 3), np.int64)
    for seat, runs in enumerate(per_seat):
        out[seat, :len(runs)] = runs
    return out


def tables(game) -> Tables:
    """The configuration of `game` (an IllimatGame), its feature store's offsets and its
    observation's card blocks."""
    full, seen = game.state_layout, game.observation_layout.slices
    kept = np.concatenate([full.index(piece.name).ravel() for piece in full.pieces if piece.name not in PLACE_PIECES])
    narrow = np.full(full.size, -1, np.int64)  # a full-store column's column in `feat`
    narrow[kept] = np.arange(len(kept))
    full_off = np.array([full.slices[k].start if k in full.slices else -1 for k in PIECES], np.int64)
    off = np.array([-1 if k in PLACE_PIECES or o < 0 else narrow[o] for k, o in zip(PIECES, full_off)], np.int64)
    at = np.array([seen[name].start for name in CARD_BLOCKS], np.int64)
    written = np.zeros(len(game._gathers[0]), np.bool_)  # the gathered columns (the pieces follow)
    for name in CARD_BLOCKS:
        written[seen[name]] = True
    return Tables(
        n=game.num_players, deck_cards=game.deck_cards, luminaries=game.luminaries, full_harvest=game.full_harvest,
        harmonic=game.harmonic_convergence, target_score=game.target_score, rounds=game.rounds,
        sum_mask=np.uint64(game.sum_mask), score_low=game.score_low, score_span=game.score_high - game.score_low,
        off=off, full_off=full_off, kept=kept, card_blocks=at, card_to=card_places(game.num_players, at),
        runs=gather_runs([narrow[g] for g in game._gathers], written))


# ----- small queries ----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def season(s, b, f):
    return RING_A[(f - s.summer[b]) % 4]


@njit(cache=True, inline="always")
def face_up_field(s, b, luminary):
    """The field where `luminary` lies face up, or -1."""
    for f in range(NUM_FIELDS):
        if s.lum[b, f] == luminary and s.lum_up[b, f]:
            return f
    return -1


# ----- card movements with their feature updates (rules.IllimatState) ---------------------------
@njit(cache=True, inline="always")
def draw(s, t, b):
    s.deck_len[b] -= 1
    c = s.deck[b, s.deck_len[b]]
    s.feat[b, t.off[O_DECK_SIZE]] = s.deck_len[b] / NUM_CARDS
    s.loc[b, c] = L_OUT  # the caller puts it somewhere
    return c


@njit(cache=True)
def deal_loose(s, t, b, f, k):
    for _ in range(k):
        add_loose(s, t, b, f, draw(s, t, b))


@njit(cache=True, inline="always")
def to_hand(s, t, b, p, c, public):
    s.loc[b, c] = L_HAND + p
    s.hand_len[b, p] += 1
    s.feat[b, t.off[O_HAND_SIZES] + p] = s.hand_len[b, p] / HAND_SIZE
    if public:
        s.known[b, c] = True


@njit(cache=True, inline="always")
def from_hand(s, t, b, c):
    """c leaves the current player's hand face up."""
    p = s.cur[b]
    s.loc[b, c] = L_OUT
    s.hand_len[b, p] -= 1
    s.feat[b, t.off[O_HAND_SIZES] + p] = s.hand_len[b, p] / HAND_SIZE
    s.known[b, c] = False


@njit(cache=True, inline="always")
def add_loose(s, t, b, f, c):
    s.loc[b, c] = L_LOOSE + f
    s.loose_len[b, f] += 1


@njit(cache=True, inline="always")
def remove_loose(s, t, b, f, c):
    s.loc[b, c] = L_OUT
    s.loose_len[b, f] -= 1


@njit(cache=True)
def remove_pile(s, t, b, f, key):
    """The stockpile leaves the field: its cards are the caller's (their `loc` is L_OUT)."""
    s.piles_len[b, f] -= 1
    for c in range(NUM_CARDS):
        if s.loc[b, c] == L_PILE + f and s.pile_key[b, c] == key:
            s.loc[b, c] = L_OUT
            s.pile_key[b, c] = -1


@njit(cache=True, inline="always")
def add_harvest(s, t, b, p, c, is_secret):
    s.loc[b, c] = L_HARVEST + p
    s.harv[b, p, s.harv_len[b, p]] = c
    s.harv_len[b, p] += 1
    if is_secret:
        s.secret[b, c] = True
        s.sec[b, p, s.sec_len[b, p]] = c
        s.sec_len[b, p] += 1
    count_harvest(s, t, b, p, c, 1, is_secret)


@njit(cache=True)
def _drop(array, length, c):
    """Remove c from the ordered list array[:length] (it is there); the new length."""
    i = 0
    while array[i] != c:
        i += 1
    for j in range(i, length - 1):
        array[j] = array[j + 1]
    return length - 1


@njit(cache=True)
def remove_harvest(s, t, b, q, c):
    """c leaves q's harvest pile face up (the Rake's claim)."""
    s.loc[b, c] = L_OUT
    s.harv_len[b, q] = _drop(s.harv[b, q], s.harv_len[b, q], c)
    was_secret = s.secret[b, c]
    if was_secret:
        s.secret[b, c] = False
        s.sec_len[b, q] = _drop(s.sec[b, q], s.sec_len[b, q], c)
    count_harvest(s, t, b, q, c, -1, was_secret)


@njit(cache=True, inline="always")
def count_harvest(s, t, b, p, c, sign, is_secret):
    full, public = t.off[O_HARVESTED] + 4 * p, t.off[O_HARVESTED_PUBLIC] + 4 * p
    s.feat[b, full] = s.feat[b, public] = s.harv_len[b, p] / NUM_CARDS
    for k in range(3):
        hit = SUIT_A[c] == SUMMER if k == 0 else (SUIT_A[c] == WINTER if k == 1 else FOOL_A[c])
        if hit:
            scale = 5 if k == 2 else 13
            s.hcounts[b, p, k] += sign
            s.feat[b, full + 1 + k] = s.hcounts[b, p, k] / scale
            if not is_secret:
                s.hcounts[b, p, 3 + k] += sign
                s.feat[b, public + 1 + k] = s.hcounts[b, p, 3 + k] / scale


@njit(cache=True, inline="always")
def set_luminary(s, t, b, f, lum, up):
    old, old_up = s.lum[b, f], s.lum_up[b, f]
    if old != NO_LUMINARY:
        s.feat[b, t.off[O_LUM_UP if old_up else O_LUM_HIDDEN] + f * NUM_LUMINARIES + old] = 0
    s.lum[b, f], s.lum_up[b, f] = lum, up
    if lum != NO_LUMINARY:
        s.feat[b, t.off[O_LUM_UP if up else O_LUM_HIDDEN] + f * NUM_LUMINARIES + lum] = 1
    s.feat[b, t.off[O_LUM_DOWN] + f] = 1 if lum != NO_LUMINARY and not up else 0


@njit(cache=True, inline="always")
def set_summer(s, t, b, summer):
    s.summer[b] = summer
    o = t.off[O_SEASONS]
    for i in range(16):
        s.feat[b, o + i] = 0
    for f in range(NUM_FIELDS):
        s.feat[b, o + 4 * f + RING_A[(f - summer) % 4]] = 1


@njit(cache=True, inline="always")
def set_season(s, t, b, f, season_):
    set_summer(s, t, b, (f - RING_POS_A[season_]) % 4)


# ----- the pending move --------------------------------------------------------------------------
@njit(cache=True, inline="always")
def set_decision(s, t, b, d):
    o = t.off[O_DECISION]
    if s.decision[b] < NUM_DECISIONS:
        s.feat[b, o + s.decision[b]] = 0
    s.decision[b] = d
    if d < NUM_DECISIONS:
        s.feat[b, o + d] = 1


@njit(cache=True, inline="always")
def set_move_card(s, t, b, c):
    s.m_card[b] = c
    s.feat[b, t.off[O_MOVE_CARDS] + c] = 1


@njit(cache=True, inline="always")
def clear_move_fields(s, b):
    s.m_card[b] = s.m_field[b] = s.m_action[b] = s.m_partner[b] = -1
    s.m_value[b] = 0
    s.m_items_len[b] = 0
    s.m_full_len[b] = 0


@njit(cache=True, inline="always")
def clear_move(s, t, b):
    """Forget the finished part of the move (and its features)."""
    o = t.off
    if s.m_card[b] >= 0:
        s.feat[b, o[O_MOVE_CARDS] + s.m_card[b]] = 0
    if s.m_partner[b] >= 0:
        s.feat[b, o[O_MOVE_CARDS] + s.m_partner[b]] = 0
    if s.m_field[b] >= 0:
        s.feat[b, o[O_MOVE_FIELD] + s.m_field[b]] = 0
    if s.m_action[b] >= 0:
        s.feat[b, o[O_MOVE_ACTION] + s.m_action[b] - SOW] = 0
    s.feat[b, o[O_MOVE_VALUE]] = 0
    if s.m_items_len[b]:
        for c in range(NUM_CARDS):
            s.feat[b, o[O_MOVE_ITEMS] + c] = 0
    for i in range(s.m_full_len[b]):
        s.feat[b, o[O_MOVE_CARDS] + s.m_full[b, i]] = 0
    clear_move_fields(s, b)


# ----- the deal and the full rebuild (rounds.RoundFlow._deal, observation.Encoding) -------------
@njit(cache=True)
def _pop_sorted(s, b, out, k):
    """Draw k cards from the top into out[:k], sorted (the reference sorts each field and hand)."""
    for i in range(k):
        s.deck_len[b] -= 1
        out[i] = s.deck[b, s.deck_len[b]]
    out[:k].sort()


@njit(cache=True)
def deal(s, t, b, round_index):
    """Set up round `round_index` of game b from its chance seed (`RoundFlow._deal`)."""
    gen = s.gen[b]
    npr.seed_pair(s.chance_seed[b], round_index, gen)
    order = np.empty(NUM_CARDS, np.int64)
    npr.permutation(gen, t.deck_cards, order)
    lums = np.empty(NUM_LUMINARIES, np.int64)
    if t.luminaries:
        npr.permutation(gen, NUM_LUMINARIES, lums)
    s.round[b] = round_index
    first = (round_index - s.converged[b]) % t.n
    s.loc[b, :] = L_OUT
    s.known[b, :] = False
    s.secret[b, :] = False
    s.pile_key[b, :] = -1
    s.deck_len[b] = t.deck_cards
    s.deck[b, :t.deck_cards] = order[:t.deck_cards]
    cards = np.empty(HAND_SIZE, np.int64)
    for f in range(NUM_FIELDS):
        _pop_sorted(s, b, cards, 3)
        for i in range(3):
            s.loc[b, cards[i]] = L_LOOSE + f
        s.loose_len[b, f] = 3
        s.piles_len[b, f] = 0
    for p in range(t.n):
        k = 3 if p == first else HAND_SIZE
        _pop_sorted(s, b, cards, k)
        for i in range(k):
            s.loc[b, cards[i]] = L_HAND + p
        s.hand_len[b, p] = k
    for i in range(s.deck_len[b]):
        s.loc[b, s.deck[b, i]] = L_DECK
    if t.luminaries:
        for f in range(NUM_FIELDS):
            s.lum[b, f] = lums[NUM_LUMINARIES - 1 - f]
        s.unused_len[b] = NUM_LUMINARIES - NUM_FIELDS
        s.unused[b, :NUM_LUMINARIES - NUM_FIELDS] = lums[:NUM_LUMINARIES - NUM_FIELDS]
    else:
        s.lum[b, :] = NO_LUMINARY
        s.unused_len[b] = 0
    s.lum_up[b, :] = False
    s.under_len[b, :] = 0
    s.disc_down_len[b] = s.disc_up_len[b] = 0
    s.summer[b] = 0
    s.okus_left[b] = t.n
    s.okus[b, :] = 0
    s.claimed_len[b, :] = 0
    s.harv_len[b, :] = 0
    s.sec_len[b, :] = 0
    s.cur[b] = first
    s.decision[b] = TURN
    s.main_done[b] = s.swap_used[b] = s.rake_owed[b] = False
    s.cleared[b] = -1
    s.okus_taken[b] = False
    clear_move_fields(s, b)
    s.c_given_len[b] = s.c_taken_len[b] = 0
    rebuild(s, t, b)


@njit(cache=True)
def rebuild(s, t, b):
    """The feature store of game b from scratch (`Encoding._rebuild_features`), but for the
    `PLACE_PIECES` (`place_features`)."""
    o, n, F = t.off, t.n, s.feat[b]
    F[:] = 0
    for p in range(n):
        for k in range(6):
            s.hcounts[b, p, k] = 0
        for i in range(s.harv_len[b, p]):
            c = s.harv[b, p, i]
            for k in range(3):
                hit = SUIT_A[c] == SUMMER if k == 0 else (SUIT_A[c] == WINTER if k == 1 else FOOL_A[c])
                if hit:
                    s.hcounts[b, p, k] += 1
                    if not s.secret[b, c]:
                        s.hcounts[b, p, 3 + k] += 1
        for i in range(s.claimed_len[b, p]):
            F[o[O_CLAIMED] + p * NUM_LUMINARIES + s.claimed[b, p, i]] = 1
        for k in range(2):
            row = o[O_HARVESTED if k == 0 else O_HARVESTED_PUBLIC] + 4 * p
            F[row + 1] = s.hcounts[b, p, 3 * k] / 13
            F[row + 2] = s.hcounts[b, p, 3 * k + 1] / 13
            F[row + 3] = s.hcounts[b, p, 3 * k + 2] / 5
        F[o[O_HARVESTED] + 4 * p] = F[o[O_HARVESTED_PUBLIC] + 4 * p] = s.harv_len[b, p] / NUM_CARDS
    for f in range(NUM_FIELDS):
        F[o[O_SEASONS] + 4 * f + season(s, b, f)] = 1
        L = s.lum[b, f]
        if L != NO_LUMINARY:
            if s.lum_up[b, f]:
                F[o[O_LUM_UP] + f * NUM_LUMINARIES + L] = 1
            else:
                F[o[O_LUM_DOWN] + f] = 1
                F[o[O_LUM_HIDDEN] + f * NUM_LUMINARIES + L] = 1
        F[o[O_CHILDREN_COUNT] + f] = s.under_len[b, f] / 3
    for i in range(s.unused_len[b]):
        F[o[O_LUM_UNUSED] + s.unused[b, i]] = (i + 1) / NUM_LUMINARIES
    F[o[O_DECK_SIZE]] = s.deck_len[b] / NUM_CARDS
    F[o[O_OKUS_LEFT]] = s.okus_left[b] / 4
    for p in range(n):
        F[o[O_OKUS] + p] = s.okus[b, p] / 4
    for p in range(n):
        F[o[O_HAND_SIZES] + p] = s.hand_len[b, p] / HAND_SIZE
        F[o[O_SCORES] + p] = (s.scores[b, p] - t.score_low) / t.score_span
    F[o[O_ROUND]] = min(s.round[b], t.rounds) / t.rounds
    if t.harmonic:
        F[o[O_CONVERGED]] = s.converged[b]
    if s.decision[b] == OVER:
        return
    F[o[O_TO_MOVE] + s.cur[b]] = 1
    F[o[O_DECISION] + s.decision[b]] = 1
    if s.m_card[b] >= 0:
        F[o[O_MOVE_CARDS] + s.m_card[b]] = 1
    if s.m_partner[b] >= 0:
        F[o[O_MOVE_CARDS] + s.m_partner[b]] = 1
    for i in range(s.m_full_len[b]):
        F[o[O_MOVE_CARDS] + s.m_full[b, i]] = 1
    if s.m_field[b] >= 0:
        F[o[O_MOVE_FIELD] + s.m_field[b]] = 1
    if s.m_action[b] >= 0:
        F[o[O_MOVE_ACTION] + s.m_action[b] - SOW] = 1
    F[o[O_MOVE_VALUE]] = s.m_value[b] / MAX_VALUE
    for i in range(s.m_items_len[b]):
        key = s.m_items[b, i]
        if s.loc[b, key] == L_LOOSE + s.m_field[b]:
            F[o[O_MOVE_ITEMS] + key] = 1
        else:
            for c in range(NUM_CARDS):
                if s.loc[b, c] == L_PILE + s.m_field[b] and s.pile_key[b, c] == key:
                    F[o[O_MOVE_ITEMS] + c] = 1
    for i in range(s.c_given_len[b]):
        F[o[O_MOVE_ITEMS] + s.c_given[b, i]] = 1
    for i in range(s.c_taken_len[b]):
        F[o[O_MOVE_ITEMS] + s.c_taken[b, i]] = 1
    F[o[O_TURN]] = s.main_done[b]
    F[o[O_TURN] + 1] = s.rake_owed[b]
    F[o[O_TURN] + 2] = s.swap_used[b]


# ----- entry kernels -----------------------------------------------------------------------------
@njit(cache=True)
def deal_rows(s, t, rows):
    s, t = by_reference(s), by_reference(t)
    for b in rows:
        s.scores[b, :] = 0
        s.converged[b] = False
        deal(s, t, b, 0)


@njit(cache=True)
def rebuild_rows(s, t, rows):
    s, t = by_reference(s), by_reference(t)
    for b in rows:
        rebuild(s, t, b)


@njit(cache=True, inline="always")
def unseen(s, b, p, c):
    """Card c is hidden from seat p: in the draw pile, under the Children, in another's hand (but
    for the cards it took in view of all) or among another's secret harvested cards."""
    where = s.loc[b, c]
    other_hand = L_HAND <= where < L_LOOSE and where - L_HAND != p and not s.known[b, c]
    other_secret = L_HARVEST <= where < L_UNDER and where - L_HARVEST != p and s.secret[b, c]
    return where == L_DECK or where >= L_UNDER or other_hand or other_secret


@njit(cache=True, inline="always")
def place_features(s, t, b, F):
    """The `PLACE_PIECES` of game b into its full (zeroed) state row F, from the cards' places."""
    o, n = t.full_off, t.n
    for p in range(n):
        for i in range(s.harv_len[b, p]):
            F[o[O_HARVEST] + p * NUM_CARDS + s.harv[b, p, i]] = 1
        for i in range(s.sec_len[b, p]):
            F[o[O_SECRET] + p * NUM_CARDS + s.sec[b, p, i]] = 1
    for c in range(NUM_CARDS):
        where = s.loc[b, c]
        if L_HAND <= where < L_LOOSE:
            F[o[O_HANDS] + (where - L_HAND) * NUM_CARDS + c] = 1
            if s.known[b, c]:
                F[o[O_KNOWN] + (where - L_HAND) * NUM_CARDS + c] = 1
        elif L_LOOSE <= where < L_PILE:
            F[o[O_LOOSE] + (where - L_LOOSE) * NUM_CARDS + c] = 1
        elif L_PILE <= where < L_HARVEST:
            f, key = where - L_PILE, s.pile_key[b, c]
            F[o[O_STOCKPILED] + f * NUM_CARDS + c] = s.pile_val[b, key] / MAX_STOCKPILE
            if key == c:
                F[o[O_MULTIPLE_KEY if s.pile_multi[b, key] else O_SINGLE_KEY] + f * NUM_CARDS + key] = 1
        for p in range(n):
            if unseen(s, b, p, c):
                F[o[O_UNSEEN] + p * NUM_CARDS + c] = 1
    for f in range(NUM_FIELDS):
        for i in range(s.under_len[b, f]):
            F[o[O_UNDER] + f * NUM_CARDS + s.under[b, f, i]] = 1
    for i in range(s.deck_len[b]):
        F[o[O_DECK] + s.deck[b, i]] = (i + 1) / NUM_CARDS


@njit(cache=True)
def state_rows(s, t, out):
    """out[b] = game b's full feature store (the reference's `features`): `feat` at its columns
    (`Tables.kept`), the `PLACE_PIECES` from the cards' places."""
    s, t = by_reference(s), by_reference(t)
    (out,) = borrowed((out,))
    kept = t.kept
    for b in range(out.shape[0]):
        F = out[b]
        F[:] = 0
        for i in range(kept.shape[0]):
            F[kept[i]] = s.feat[b, i]
        place_features(s, t, b, F)


@njit(cache=True, inline="always")
def card_blocks(s, t, b, p, row):
    """Seat p's pieces with a card axis (`CARD_BLOCKS`) of game b into its observation row, from
    the cards' places: what `rebuild` writes into the store's rows that seat's gather reads. One
    write per card, its place found in `Tables.card_to` (branches on a card's place would
    mispredict at every other card), one more at a stockpile's key."""
    at, to = t.card_blocks, t.card_to[p]
    zero_row(row)  # the whole row: one memset beats three zeroed blocks; the copied runs follow
    for c in range(NUM_CARDS):
        where = s.loc[b, c]
        goes = to[4 * where + 2 * s.known[b, c] + s.secret[b, c]]
        key = max(s.pile_key[b, c], 0)
        kind = goes & 3
        row[(goes >> 2) + c] = WRITES[kind, s.pile_val[b, key]]
        if key == c and L_PILE <= where < L_HARVEST:
            row[at[B_MULTIPLE_KEY if s.pile_multi[b, c] else B_SINGLE_KEY] + (where - L_PILE) * NUM_CARDS + c] = 1


@njit(cache=True, inline="always")
def observe_row(s, t, b, p, row):
    """Seat p's observation of game b into row: the reference's gather from its feature store,
    the pieces with a card axis written from the cards' places (`card_blocks`), the rest copied."""
    runs, F = t.runs[p], s.feat[b]
    card_blocks(s, t, b, p, row)
    for r in range(runs.shape[0]):
        if runs[r, 2]:
            copy_run(row, runs[r, 1], F, runs[r, 0], runs[r, 2])


@njit(cache=True)
def observe(s, t, seat, out):
    """out[b] = seat[b]'s observation of game b (`observe_row`)."""
    s, t = by_reference(s), by_reference(t)
    (out,) = borrowed((out,))  # each row's view of it is then not reference-counted
    for b in range(out.shape[0]):
        observe_row(s, t, b, seat[b], out[b])
