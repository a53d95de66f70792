"""Optional observation pieces (``harvest_features=True``): what a harvest can take in each field.

Choosing the card to play means knowing which groups of a field's items total each value: a
subset-sum search the scripted agent runs at every turn and a network would have to learn from
one-hots. These pieces hand it the answer, computed only from what the observer sees (the board
is public, the hand is his own), so they reveal nothing new:

- ``harvest_cards`` (4, 14): the most cards one harvest of value v (1..14) takes in the field
  (loose cards and the cards of the stockpiles taken), / 8;
- ``harvest_clears`` (4, 14): 1 where a harvest of value v can take every item of the field;
- ``hand_harvest`` (4, 65): for each card of the observer's hand, ``harvest_cards`` of its value
  (a Fool: the better of 1 and 14), 0 where harvesting is not allowed (Winter without the Maiden);
- ``hand_clears`` (4, 65): the same for ``harvest_clears``.

Seasons other than that, the Union's two-card harvests and stockpiles are left to the policy.
Cards taken are the heaviest packing of `groups.heaviest_packing`, exact on ordinary fields and
bounded on crowded ones (a lower bound there); clearing is decided exactly by `groups.coverable`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from card_envs.core.layout import Piece
from card_envs.games.illimat.groups import MULTIPLE_CODE, NUM_KINDS, coverable, counts_of, heaviest_groups

NUM_FIELDS, NUM_CARDS, MAX_VALUE = 4, 65, 14
CARDS_SCALE = 8  # cards taken / 8: a harvest usually takes 1..6 cards

HARVEST_PIECES = (
    Piece("harvest_cards", (NUM_FIELDS, MAX_VALUE),
          "most cards one harvest of value v = 1..14 takes in that field / 8", NUM_CARDS / CARDS_SCALE),
    Piece("harvest_clears", (NUM_FIELDS, MAX_VALUE), "1 where a harvest of value v = 1..14 can empty that field"),
    Piece("hand_harvest", (NUM_FIELDS, NUM_CARDS),
          "per hand card: harvest_cards of its value (Fool: the better of 1, 14), 0 where harvesting is not allowed",
          NUM_CARDS / CARDS_SCALE),
    Piece("hand_clears", (NUM_FIELDS, NUM_CARDS),
          "per hand card: 1 where its harvest can empty that field (and harvesting is allowed there)"),
)
SIZE = sum(p.size for p in HARVEST_PIECES)


@lru_cache(maxsize=1 << 15)
def field_table(items: tuple[tuple[int, int], ...], reachable: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """For a field given as (code, cards) per item (`groups` codes): per value 1..14, the most
    cards one harvest takes and whether it can take every item. `reachable`: bit v set when some
    item or group makes v (the engine's field sums, `IllimatState._field_sums`): the search runs
    only for those. Cached: it depends on nothing else, and a field changes only when a turn
    plays into it."""
    codes = tuple(code for code, _ in items)
    weights = tuple(cards for _, cards in items)
    plain = counts_of(code for code in codes if code < MULTIPLE_CODE)
    multiples = [code - MULTIPLE_CODE for code in codes if code >= MULTIPLE_CODE]
    total = sum(weights)
    taken, clears = [], []
    for v in range(1, MAX_VALUE + 1):
        if not reachable >> v & 1:
            taken.append(0)
            clears.append(False)
            continue
        empties = bool(items) and all(m == v for m in multiples) and coverable(v, plain, (0,) * NUM_KINDS)
        if empties:
            cards = total
        else:
            cards = max(0, int(heaviest_groups(v, codes, weights, 0)[0]))
        taken.append(cards)
        clears.append(empties)
    return tuple(taken), tuple(clears)


def harvest_features(state, player: int, harvest_values, board: tuple) -> np.ndarray:
    """The four pieces for `player`, flat (float32[SIZE]); `harvest_values[c]`: the values card c
    harvests with (`cards.HARVEST_VALUES`, passed in); `board`: each field as (code, cards) per
    item (`IllimatState.observation`)."""
    out = np.zeros(SIZE, dtype=np.float32)
    # Flat offsets of the four pieces: (4, 14), (4, 14), (4, 65), (4, 65).
    cards_at, clears_at = 0, NUM_FIELDS * MAX_VALUE
    hand_at, hand_clears_at = 2 * NUM_FIELDS * MAX_VALUE, 2 * NUM_FIELDS * MAX_VALUE + NUM_FIELDS * NUM_CARDS
    hand = state.hands[player]
    for f, field in enumerate(board):
        sums, multiples = state._field_sums(f)
        taken, empties = field_table(tuple((code, len(cards)) for code, cards in field), sums | multiples)
        out[cards_at + f * MAX_VALUE:cards_at + (f + 1) * MAX_VALUE] = taken
        out[clears_at + f * MAX_VALUE:clears_at + (f + 1) * MAX_VALUE] = empties
        if not state._harvest_allowed(f):
            continue
        for c in hand:
            values = harvest_values[c]
            out[hand_at + f * NUM_CARDS + c] = max(taken[v - 1] for v in values)
            out[hand_clears_at + f * NUM_CARDS + c] = any(empties[v - 1] for v in values)
    out[cards_at:clears_at] /= CARDS_SCALE
    out[hand_at:hand_clears_at] /= CARDS_SCALE
    return out
