"""Optional observation pieces (``play_features=True``): what each main play of each hand card does.

Choosing a card means weighing, for each field, what harvesting, stockpiling or sowing it there
would do: subset sums, the cards' suits, what an emptied field gives. A network reads that badly
from one-hots (cloning the scripted agent, it picked the agent's card in 0.75 of held-out turns
with `harvest_features` alone, 0.84 with these rows). These pieces hand it the facts, computed only
from what the observer sees (the public board, his own hand, the cards unseen by him), so they
reveal nothing new:

- ``plays`` (11, 4, 65): for each card c of the observer's hand and field f, the rows `PLAY_ROWS`:

  | row | meaning |
  |---|---|
  | 0 ``harvest_cards`` | cards the best harvest of c takes there / 8 (0: none, or harvesting not allowed) |
  | 1 ``harvest_summer`` | its Summer cards / 4 |
  | 2 ``harvest_winter`` | its Winter cards / 4 |
  | 3 ``harvest_fools`` | its Fools / 2 |
  | 4 ``harvest_clears`` | 1 where it empties the field |
  | 5 ``clear_okus`` | 1 where it empties the field and an okus is left on the Illimat |
  | 6 ``clear_luminary`` | 1 where it empties the field and a face-up Luminary lies there (claimed) |
  | 7 ``clear_reveal`` | 1 where it empties the field and a face-down Luminary lies there (revealed) |
  | 8 ``stockpile_cards`` | cards (c's included) of the best stockpile c can make there / 8 (0: none) |
  | 9 ``stockpile_risk`` | the share of the cards unseen by the observer that harvest that stockpile's value |
  | 10 ``sow`` | 1 where c may be sown there (not Autumn) |

  "Best" ranks by `CARD_WEIGHT`, a card's worth at the round's scoring (1 for Bumper Crop, +0.6
  Summer for Sunkissed, -0.8 Winter for Frostbit, +1.5 a Fool's point); a Fool harvests as 1 or
  14, whichever is better. A stockpile's value T is one a passive card of the rest of the hand
  gives, and c joins items totalling T with it (`groups.heaviest_groups`, as the engine's
  `_stockpile_values`). The Union's two-card harvests are left to the policy.
- ``move_plays`` (11, 4): the same rows for the pending move's card (``move_cards``) when it is
  the observer's, per field (zeros otherwise): what choosing each field would do, for a network
  that scores the field actions as entities.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from card_envs.core.cards import RANK, SUIT
from card_envs.core.layout import Piece
from card_envs.games.illimat.cards import ACTIVE_VALUE, HARVEST_VALUES, NO_LUMINARY, PASSIVE_VALUE
from card_envs.games.illimat.groups import heaviest_groups

NUM_FIELDS, NUM_CARDS, MAX_VALUE = 4, 65, 14
SPRING, SUMMER, AUTUMN, WINTER = range(4)  # as in the rules: a suit's season is its index
IS_FOOL = tuple(RANK[c] == 1 for c in range(NUM_CARDS))
VALUE_BITS = (1 << (MAX_VALUE + 1)) - 1  # the values a single card harvests: 0..14

PLAY_ROWS = ("harvest_cards", "harvest_summer", "harvest_winter", "harvest_fools", "harvest_clears", "clear_okus",
             "clear_luminary", "clear_reveal", "stockpile_cards", "stockpile_risk", "sow")
ROW = {name: i for i, name in enumerate(PLAY_ROWS)}
# Scales: cards / 8, Summer and Winter cards / 4, Fools / 2 (the rest are 0/1 or shares).
SCALE = np.array([8, 4, 4, 2, 1, 1, 1, 1, 8, 1, 1], dtype=np.float32)

PLAY_PIECES = (
    Piece("plays", (len(PLAY_ROWS), NUM_FIELDS, NUM_CARDS),
          "per hand card and field: what harvesting, stockpiling or sowing it there does (rows: PLAY_ROWS)",
          NUM_CARDS / 8),
    Piece("move_plays", (len(PLAY_ROWS), NUM_FIELDS), "`plays` of the pending move's card, per field (zeros: none)",
          NUM_CARDS / 8),
)
SIZE = sum(p.size for p in PLAY_PIECES)


def card_weight(card: int) -> float:
    """What a card is worth in one's own harvest pile at the round's scoring, roughly."""
    return 1.0 + 0.6 * (SUIT[card] == SUMMER) - 0.8 * (SUIT[card] == WINTER) + 1.5 * IS_FOOL[card]


CARD_WEIGHT = tuple(card_weight(c) for c in range(NUM_CARDS))


def _facts(cards) -> tuple[int, int, int, int]:
    """(cards, Summer cards, Winter cards, Fools) of a set of cards."""
    return (len(cards), sum(SUIT[x] == SUMMER for x in cards), sum(SUIT[x] == WINTER for x in cards),
            sum(IS_FOOL[x] for x in cards))


@lru_cache(maxsize=1 << 14)
def best_harvests(items: tuple[tuple[int, tuple[int, ...]], ...], reachable: int) -> tuple:
    """For a field given as (code, cards) per item (`groups` codes): per value v = 0..14, None or
    (weight, facts, clears, mask of the items taken) of the heaviest harvest of value v.
    `reachable`: bit v set when some item or group makes v (the engine's field sums): only those
    are searched. Cached: a field changes only when a turn plays into it."""
    codes = tuple(code for code, _ in items)
    weights = tuple(sum(CARD_WEIGHT[x] for x in cards) for _, cards in items)
    table: list = [None] * (MAX_VALUE + 1)
    for v in range(1, MAX_VALUE + 1):
        if reachable >> v & 1:
            gain, mask = heaviest_groups(v, codes, weights, 0)
            if mask:
                taken = [x for i, (_, cards) in enumerate(items) if mask >> i & 1 for x in cards]
                table[v] = (gain, _facts(taken), mask == (1 << len(items)) - 1, mask)
    return tuple(table)


def heaviest_harvest(table: tuple, values) -> tuple | None:
    """The heaviest of `best_harvests`' entries for `values` (a card's harvest values), or None."""
    return max((table[v] for v in values if table[v] is not None), key=lambda option: option[0], default=None)


@lru_cache(maxsize=1 << 14)
def best_stockpile(items: tuple[tuple[int, tuple[int, ...]], ...], values: tuple[int, ...], card: int,
                   active: int) -> tuple[int, int, int]:
    """(cards, value T, mask of the field's items taken) of the heaviest stockpile `card` (active
    value `active`) makes with the field's items for some T in `values`; (0, 0, 0) where none."""
    codes = tuple(code for code, _ in items)
    weights = tuple(sum(CARD_WEIGHT[x] for x in cards) for _, cards in items) + (CARD_WEIGHT[card],)
    active_bit = 1 << len(items)
    best = (0.0, 0, 0, 0)
    for T in values:
        gain, mask = heaviest_groups(T, codes, weights, active)
        if mask & ~active_bit and gain > best[0]:
            cards = 1 + sum(len(items[i][1]) for i in range(len(items)) if mask >> i & 1)
            best = (gain, cards, T, mask & ~active_bit)
    return best[1:]


def play_features(state, player: int, unseen_cards: tuple[int, ...], board: tuple) -> np.ndarray:
    """The two pieces for `player`, flat (float32[SIZE]). `unseen_cards`: the cards of the
    observer's ``unseen`` piece; `board`: each field as (code, cards) per item
    (`IllimatState.observation`)."""
    plays = np.zeros((len(PLAY_ROWS), NUM_FIELDS, NUM_CARDS), dtype=np.float32)
    hand = state.hands[player]
    if hand:
        hand_key = tuple(sorted(hand))
        for f, items in enumerate(board):
            allowed = bool(items) and state._harvest_allowed(f)
            sums, multiples = state._field_sums(f) if allowed else (0, 0)
            luminary = state.lum[f] != NO_LUMINARY
            plays[:, f] = field_plays(items, state.season(f), allowed, (sums | multiples) & VALUE_BITS,
                                      (luminary and state.lum_up[f], luminary and not state.lum_up[f]),
                                      state.okus_left > 0, hand_key, unseen_cards)
    plays /= SCALE[:, None, None]
    move = np.zeros((len(PLAY_ROWS), NUM_FIELDS), dtype=np.float32)
    if state.current_player == player and state.m_card in hand:
        move[:] = plays[:, :, state.m_card]
    return np.concatenate([plays.ravel(), move.ravel()])


# Cached: within a turn every decision asks again for the same field and hand (and the trainer
# interleaves a few hundred games, hence the size).
@lru_cache(maxsize=1 << 12)
def field_plays(items: tuple, season: int, allowed: bool, reachable: int, luminary: tuple[bool, bool], okus: bool,
                hand: tuple[int, ...], unseen_cards: tuple[int, ...]) -> np.ndarray:
    """The rows [PLAY_ROWS, 65] (unscaled) of one field given as (code, cards) per item, for the
    cards of `hand`: `allowed`, whether harvesting is allowed there; `reachable`, the field's sums
    (`best_harvests`); `luminary`, (face up, face down) there; `okus`, whether one is left."""
    out = np.zeros((len(PLAY_ROWS), NUM_CARDS), dtype=np.float32)
    for c in hand:
        out[ROW["sow"], c] = season != AUTUMN
    if not items:
        return _frozen(out)
    if allowed:
        table = best_harvests(items, reachable)
        for c in hand:
            best = heaviest_harvest(table, HARVEST_VALUES[c])
            if best is not None:
                _, facts, clears, _ = best
                out[:4, c] = facts
                out[ROW["harvest_clears"]:ROW["clear_reveal"] + 1, c] = (
                    clears, clears and okus, clears and luminary[0], clears and luminary[1])
    if season != SPRING:
        for c in hand:
            values = tuple(sorted({PASSIVE_VALUE[d] for d in hand if d != c}))
            cards, T, _ = best_stockpile(items, values, c, ACTIVE_VALUE[c])
            if cards:
                out[ROW["stockpile_cards"], c] = cards
                stealers = sum(T in HARVEST_VALUES[x] for x in unseen_cards)
                out[ROW["stockpile_risk"], c] = stealers / max(1, len(unseen_cards))
    return _frozen(out)


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False  # a cached answer: nobody may change it
    return array
