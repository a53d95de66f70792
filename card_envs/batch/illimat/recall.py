"""Numba kernels of batched Illimat: each seat's optional observation pieces kept until what they
read changes.

The pieces (`pieces`, `threats`) read the board (every card's place, the stockpiles), the seasons,
the Luminaries, whether an okus is left, the seat's hand and the cards it cannot see (which
follow from the cards' places and the `known` and `secret` flags), and the other hands' sizes;
the pending move only picks one card's column (``move_plays``, ``move_threats``). The decisions
of one turn (card, field, action, value, items) change none of that, so a game's pieces for a
seat are kept with a key made of those facts (`KEY`: int8 per entry) and copied while the key is
unchanged; only the move columns are written again. The reference keeps its fields' tables in
caches for the same reason.
"""

from __future__ import annotations

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.illimat.kernels import L_HAND
from card_envs.batch.numba_borrow import by_reference
from card_envs.games.illimat.cards import NUM_CARDS, NUM_FIELDS

KEY = 6 * NUM_CARDS + 2 * NUM_FIELDS + 2  # loc, pile_key, pile_val, pile_multi, known, secret; lum, lum_up; summer, okus


@njit(cache=True, inline="always")
def _put(key, at, value):
    """key[at] = value; whether it held it already."""
    v = np.int8(value)
    if key[at] == v:
        return True
    key[at] = v
    return False


@njit(cache=True)
def _same_key(s, b, key):
    """Whether key holds game b's facts; writes them there either way."""
    same = True
    for c in range(NUM_CARDS):
        same &= _put(key, c, s.loc[b, c])
        same &= _put(key, NUM_CARDS + c, s.pile_key[b, c])
        same &= _put(key, 2 * NUM_CARDS + c, s.pile_val[b, c])
        same &= _put(key, 3 * NUM_CARDS + c, s.pile_multi[b, c])
        same &= _put(key, 4 * NUM_CARDS + c, s.known[b, c])
        same &= _put(key, 5 * NUM_CARDS + c, s.secret[b, c])
    at = 6 * NUM_CARDS
    for f in range(NUM_FIELDS):
        same &= _put(key, at + 2 * f, s.lum[b, f])
        same &= _put(key, at + 2 * f + 1, s.lum_up[b, f])
    at += 2 * NUM_FIELDS
    same &= _put(key, at, s.summer[b])
    same &= _put(key, at + 1, min(s.okus_left[b], 1))
    return same


@njit(cache=True)
def recall(s, seat, keys, valid, kept, out, todo):
    """Rows whose seat's key is unchanged: their kept pieces copied into out (the observation's
    piece columns); the others: todo[b] = seat[b], else -1 (the piece kernels skip a seat of -1)."""
    s = by_reference(s)
    for b in range(out.shape[0]):
        p = seat[b]
        if _same_key(s, b, keys[b, p]) and valid[b, p]:
            out[b] = kept[b, p]
            todo[b] = -1
        else:
            todo[b] = p


@njit(cache=True)
def remember(todo, valid, kept, out):
    """The pieces just computed (rows with todo >= 0) kept for their seats."""
    for b in range(out.shape[0]):
        p = todo[b]
        if p >= 0:
            kept[b, p] = out[b]
            valid[b, p] = True


@njit(cache=True)
def move_columns(s, seat, todo, at, cards_at, rows, out):
    """For the recalled rows (todo < 0): the `rows` x 4 move columns at `at` are the pending card's
    columns of the piece at `cards_at` ([rows, 4, 65]) when the card is the seat's, else 0."""
    s = by_reference(s)
    for b in range(out.shape[0]):
        if todo[b] >= 0:
            continue
        p, m = seat[b], s.m_card[b]
        mine = s.cur[b] == p and m >= 0 and s.loc[b, m] == L_HAND + p
        for r in range(rows):
            for f in range(NUM_FIELDS):
                value = np.float32(0.0)
                if mine:
                    value = out[b, cards_at + (r * NUM_FIELDS + f) * NUM_CARDS + m]
                out[b, at + r * NUM_FIELDS + f] = value
