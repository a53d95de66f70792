"""Optional observation pieces (``threat_features=True``): what each main play leaves the next player.

The scripted agent plays what takes most now; the ``lookahead`` bot, which wins 0.63 of its games
against it, also subtracts what the next player could harvest on the board the play leaves. That
is a search over the next player's possible hands that a network reads badly from the board
(imitating ``lookahead`` on 250 of its games, entity heads picked its card in 0.762 of held-out
turns and its field in 0.837 with the play pieces alone, 0.813 and 0.891 with these too:
``experiments/illimat_imitation.py --teacher lookahead``). These pieces hand it the answer,
computed only from what the observer sees (the public board, his own hand, the cards unseen by
him and the next player's hand size), so they reveal nothing new:

- ``threats`` (3, 4, 65): for each card c of the observer's hand and field f, per row (0 sowing c
  there, 1 its best harvest there, 2 its best stockpile there: the plays `play_features` describes),
  the next player's expected best harvest once that play is made / 8 (0 where the play does not
  exist). His hand is drawn from the cards unseen by the observer, of the size he holds; each of
  its cards takes the heaviest harvest of its value in any field where harvesting is then allowed
  (a face card turns the Illimat to its suit's season in its field, a Stars one to Summer, unless
  the Forest Queen is face up), worth the cards' `CARD_WEIGHT`, its own included, plus what
  emptying the field gives (`clear_bonus`). An emptied field's refill is unknown: it counts empty.
- ``move_threats`` (3, 4): those rows for the pending move's card (``move_cards``) when it is the
  observer's, per field (zeros otherwise), for the field actions' entities.

This is `card_envs.agents.illimat.heuristic.IllimatLookahead._threat`, with the same bounded searches (`harvest_table`,
which the bot takes from here), computed for every play at once and cached per turn.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

from card_envs.core.cards import RANK, SUIT
from card_envs.core.layout import Piece
from card_envs.games.illimat.cards import (
    ACTIVE_VALUE, FACE, FOREST_QUEEN, HARVEST_VALUES, MAIDEN, NO_LUMINARY, PASSIVE_VALUE, RING, STARS, summer_for)
from card_envs.games.illimat.groups import (
    MULTIPLE_CODE, counts_of, groups_totalling, groups_totalling_each, heaviest_packing, subset_sums)
from card_envs.games.illimat.play_features import (
    AUTUMN, CARD_WEIGHT, IS_FOOL, MAX_VALUE, NUM_CARDS, NUM_FIELDS, SPRING, SUMMER, VALUE_BITS, WINTER,
    best_harvests, best_stockpile, heaviest_harvest)

SOW_ROW, HARVEST_ROW, STOCKPILE_ROW = range(3)
THREAT_ROWS = ("sow_threat", "harvest_threat", "stockpile_threat")
SCALE = 8.0  # a harvest's weight / 8, as the play pieces count cards
HIGH = (NUM_CARDS * max(CARD_WEIGHT) + 5) / SCALE  # no harvest outweighs every card and the bonus

THREAT_PIECES = (
    Piece("threats", (len(THREAT_ROWS), NUM_FIELDS, NUM_CARDS),
          "per hand card and field: the next player's expected best harvest after sowing it there, its best "
          "harvest there, its best stockpile there / 8 (rows: THREAT_ROWS)", HIGH),
    Piece("move_threats", (len(THREAT_ROWS), NUM_FIELDS), "`threats` of the pending move's card, per field", HIGH),
)
SIZE = sum(p.size for p in THREAT_PIECES)

FIRST_VALUE = np.array([1 if IS_FOOL[c] else RANK[c] for c in range(NUM_CARDS)])  # a Fool harvests as 1 or 14
LAST_VALUE = np.array([MAX_VALUE if IS_FOOL[c] else RANK[c] for c in range(NUM_CARDS)])
WEIGHT = np.array(CARD_WEIGHT)


def clear_bonus(okus_left: bool, luminary_up: bool, luminary_down: bool) -> float:
    """What emptying a field is worth, as the scripted agent weighs it: an okus (a point and a
    refill), a face-up Luminary claimed (a point), a face-down one revealed."""
    return 2.5 * okus_left + 1.5 * luminary_up + 0.5 * luminary_down


def reachable(items: tuple) -> int:
    """Bit v set when some of the field's items make the value v (the engine's field sums, up to
    14): sums of loose cards and single stockpiles, and each multiple stockpile's own value."""
    plain = counts_of(code for code, _ in items if code < MULTIPLE_CODE)
    multiple = sum({1 << (code - MULTIPLE_CODE) for code, _ in items if code >= MULTIPLE_CODE})
    return (subset_sums(plain) & ~1 | multiple) & VALUE_BITS


@lru_cache(maxsize=1 << 16)
def harvest_table(items: tuple[tuple[int, float], ...]) -> tuple[tuple[float, bool], ...]:
    """Per value v = 0..14 (index v), for a field given as (code, weight) per item: the weight of
    the heaviest harvest of value v and whether it empties the field ((0, False) where none).
    Bounded searches, smaller than `play_features.best_harvests`': this one runs for the board
    every play leaves (the ``lookahead`` bot's too). Cached."""
    codes, weights, n = tuple(code for code, _ in items), [w for _, w in items], len(items)
    table = [(0.0, False)] * (MAX_VALUE + 1)
    each = groups_totalling_each(codes, budget=400)  # the same groups in one pass, on most fields
    for v in range(1, MAX_VALUE + 1):
        by_bit = each[v] if each is not None else groups_totalling(v, codes, 0, budget=400) if n else []
        if any(by_bit):
            gain, mask = heaviest_packing(by_bit, weights, 0, n, budget=600)
            if mask:
                table[v] = (gain, mask == (1 << n) - 1)
    return tuple(table)


@lru_cache(maxsize=1 << 14)
def field_gains(items: tuple, bonus: float) -> np.ndarray:
    """Per value v = 0..14, for a field given as (code, cards) per item: the weight of the
    heaviest harvest of v there (`harvest_table`), plus `bonus` where it empties the field (0
    where none)."""
    table = harvest_table(tuple((code, sum(CARD_WEIGHT[x] for x in cards)) for code, cards in items))
    gains = np.array([gain + bonus * clears if gain > 0 else 0.0 for gain, clears in table])
    gains.flags.writeable = False
    return gains


@lru_cache(maxsize=4096)
def best_of_hand(unseen: int, hand: int) -> np.ndarray:
    """Per rank k of `unseen` gains sorted from the largest: the chance that the k-th largest is
    the best of a `hand` drawn without replacement (drawn, and none larger)."""
    hand = min(hand, unseen)
    if hand <= 0:
        return np.zeros(unseen)
    return np.array([comb(unseen - k - 1, hand - 1) for k in range(unseen)]) / comb(unseen, hand)


def ordered_sum(gains: np.ndarray, chances: np.ndarray) -> np.ndarray:
    """Per row of `gains` (sorted from the largest), the sum of gains * `chances`, each product
    rounded and added left to right (np.cumsum's order; a matrix product's summation order is
    BLAS's, vectorised partial sums that no other code reproduces). 0 for no column."""
    if gains.shape[-1] == 0:
        return np.zeros(gains.shape[:-1])
    return np.cumsum(gains * chances, axis=-1)[..., -1]


def threat_features(state, player: int, unseen_cards: tuple[int, ...], board: tuple) -> np.ndarray:
    """The two pieces for `player`, flat (float32[SIZE]). `unseen_cards`: the cards of the
    observer's ``unseen`` piece; `board`: each field as (code, cards) per item
    (`IllimatState.observation`)."""
    hand = state.hands[player]
    threats = np.zeros((len(THREAT_ROWS), NUM_FIELDS, NUM_CARDS), dtype=np.float32)
    if hand:
        bonus = tuple(clear_bonus(state.okus_left > 0, state.lum[f] != NO_LUMINARY and state.lum_up[f],
                                  state.lum[f] != NO_LUMINARY and not state.lum_up[f])
                      for f in range(NUM_FIELDS))
        next_hand = len(state.hands[(player + 1) % state.game.num_players])
        threats = _threats(board, state.summer, tuple(sorted(hand)), unseen_cards, bonus,
                           state.face_up_field(MAIDEN) >= 0, state.face_up_field(FOREST_QUEEN) >= 0,
                           next_hand)
    move = np.zeros((len(THREAT_ROWS), NUM_FIELDS), dtype=np.float32)
    if state.current_player == player and state.m_card in hand:
        move[:] = threats[:, :, state.m_card]
    return np.concatenate([threats.ravel(), move.ravel()])


@lru_cache(maxsize=1024)  # one turn's answer, asked again at each decision of the turn and by each seat
def _threats(board: tuple, summer: int, hand: tuple, unseen: tuple, bonus: tuple, maiden: bool, queen: bool,
             next_hand: int) -> np.ndarray:
    now = [field_gains(board[f], bonus[f]) for f in range(NUM_FIELDS)]
    seasons = [RING[(f - summer) % 4] for f in range(NUM_FIELDS)]
    plays, gains, open_fields = [], [], []
    for c in hand:
        for f in range(NUM_FIELDS):
            after_seasons = seasons
            if FACE[c] and not queen:  # a face card turns the Illimat (a Stars one: to Summer, as the agents choose)
                turned = summer_for(f, SUMMER if SUIT[c] == STARS else SUIT[c])
                after_seasons = [RING[(g - turned) % 4] for g in range(NUM_FIELDS)]
            for row, after in _boards_after(board[f], seasons[f], maiden, hand, c):
                gains.append([field_gains(after, bonus[f]) if g == f else now[g] for g in range(NUM_FIELDS)])
                open_fields.append([bool(after if g == f else board[g]) and (after_seasons[g] != WINTER or maiden)
                                    for g in range(NUM_FIELDS)])
                plays.append((row, f, c))
    threats = np.zeros((len(THREAT_ROWS), NUM_FIELDS, NUM_CARDS), dtype=np.float32)
    if plays and unseen:
        best = np.where(np.array(open_fields)[:, :, None], np.array(gains), 0.0).max(axis=1)  # [plays, value]
        cards = np.array(unseen)
        taken = np.maximum(best[:, FIRST_VALUE[cards]], best[:, LAST_VALUE[cards]])  # [plays, unseen card]
        taken = np.where(taken > 0, taken + WEIGHT[cards], 0.0)
        # Summed left to right, each product rounded: a defined order, which the batched engine
        # (card_envs.batch.illimat.threats) reproduces bit for bit; a matrix product's is BLAS's own.
        expected = ordered_sum(-np.sort(-taken, axis=1), best_of_hand(len(cards), next_hand))
        rows, fields, hand_cards = zip(*plays)
        threats[rows, fields, hand_cards] = expected / SCALE
    threats.flags.writeable = False
    return threats


def _boards_after(items: tuple, season: int, maiden: bool, hand: tuple, c: int) -> list[tuple[int, tuple]]:
    """(row, the field's items after it) for each play of card c in a field that `play_features`
    describes: the sow, the best harvest, the best stockpile (valued as a single stockpile)."""
    out = []
    if season != AUTUMN:
        out.append((SOW_ROW, items + ((0 if IS_FOOL[c] else RANK[c], (c,)),)))
    if not items:
        return out
    if season != WINTER or maiden:
        best = heaviest_harvest(best_harvests(items, reachable(items)), HARVEST_VALUES[c])
        if best is not None:
            out.append((HARVEST_ROW, tuple(item for i, item in enumerate(items) if not best[3] >> i & 1)))
    if season != SPRING:
        values = tuple(sorted({PASSIVE_VALUE[d] for d in hand if d != c}))
        cards, value, mask = best_stockpile(items, values, c, ACTIVE_VALUE[c])
        if cards:
            taken = tuple(x for i, (_, xs) in enumerate(items) if mask >> i & 1 for x in xs) + (c,)
            kept = tuple(item for i, item in enumerate(items) if not mask >> i & 1)
            out.append((STOCKPILE_ROW, kept + ((value, taken),)))
    return out
