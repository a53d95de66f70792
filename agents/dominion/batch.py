"""`act_batch` of the Dominion bots (agents/dominion/bots.py): `DominionBot.act` compiled with numba.

The trainer asks the scripted agents for hundreds of decisions at a time (opponents, teacher
labels, cloning games); in Python each costs a dozen small numpy calls. The kernel below is `act`
row by row over the batch: every decision kind answered by the same rule as `act`, each bot's buy
priorities read from a table (agents/dominion/bots.py's `BUY_RULES`: one row per entry of its
`priorities`, made of the tests below), and the same float operations in the same order, so that
ties break alike (tests/dominion/test_act_batch.py checks it decision by decision against `act`).
This module does not import the bots: they pass their tables and say which row plays each
observation (`DominionHeuristic` picks from that row's Supply, so a batch may mix kingdoms). Where `act` raises (a rule with no
answer: no card to pick, a modal card without modes), the kernel answers -1 and `act` is run on
that row to raise its own error. Without numba (it is in the train and batch extras), and for a
subclass whose rules have no table, `act` runs per row.
"""

from __future__ import annotations

import numpy as np

from card_envs.games.dominion.cards import NUM_CARDS, PILE_ID
from card_envs.games.dominion.effects import (
    CARD0, DECISION_INDEX, DECISIONS, DONE, NUM_ACTIONS, OPTION0, PILE0, PLAY_ALL)

# ----- decision kinds: the rule `act` answers each with ----------------------------------------
(PLAY_ACTION, PLAY_TREASURES, BUY, FIRST_CARD, LEAST_KEPT_ELSE_FIRST, LEAST_KEPT, TRASH_JUNK_CARD, CELLAR_JUNK,
 GLADIATOR, GAIN, OPTION_0, DECLINE, MODE, NAME_COMMONEST, MOST_USEFUL, RICHEST_TREASURE, GAIN_TREASURE, NOMADS,
 FIRST_LEGAL) = range(19)
RULE_OF_KIND = {
    PLAY_ACTION: ("action", "elder"),
    PLAY_TREASURES: ("treasure",),
    BUY: ("buy",),
    FIRST_CARD: ("moat", "bane", "gladiator_copy", "encampment", "settlers", "bustling", "sauna_avanto",
                 "avanto_sauna", "opulent", "battle_plan", "tent"),
    LEAST_KEPT_ELSE_FIRST: ("discard_down", "yw_discard", "haunted", "remodel_trash", "catapult"),
    LEAST_KEPT: ("student", "old_map", "sibyl_top", "sibyl_bottom"),
    TRASH_JUNK_CARD: ("chapel", "sauna_trash", "acolyte", "peaceful_cult", "cave_dwellers"),
    CELLAR_JUNK: ("cellar",),
    GLADIATOR: ("gladiator",),
    GAIN: ("workshop", "remodel_gain"),
    OPTION_0: ("sprawling", "mountain_folk"),
    DECLINE: ("rotate", "rotate_any", "acolyte_self"),
    MODE: ("mode",),
    NAME_COMMONEST: ("sorceress", "sorcerer"),
    MOST_USEFUL: ("archer_hide", "miller", "archer_pick", "lich"),
    RICHEST_TREASURE: ("herb_gatherer",),
    GAIN_TREASURE: ("hill_fort", "conjurer", "sunken_treasure"),
    NOMADS: ("band_of_nomads",),
    FIRST_LEGAL: ("small_castle",),  # `act`'s last resort
}
_listed = [kind for kinds in RULE_OF_KIND.values() for kind in kinds]
if sorted(_listed) != sorted(DECISIONS):  # every decision kind has exactly one rule
    raise ImportError(f"RULE_OF_KIND lists {sorted(set(_listed) ^ set(DECISIONS))} wrongly, or a kind twice")
KIND_RULE = np.array([next(r for r, kinds in RULE_OF_KIND.items() if kind in kinds) for kind in DECISIONS], np.int64)

# ----- buy priorities: one row per `priorities` entry, (pile, test, card, x, y) ----------------
# A bot buys the pile of its first row whose test holds (on `DominionBot._facts`) and whose pile
# it may buy. ``card`` names a card (owned counts, pile tops), x and y are integer limits.
(ALWAYS,
 MONEY_ABOVE,                 # the $ of its Treasures > x
 PROVINCES_AT_MOST,           # Provinces left <= x
 GAINS_TO_END_AT_MOST,        # gains that end the game (the Provinces, or the three smallest piles) <= x
 OWNS,                        # owns a card
 OWNED_UNDER,                 # owns fewer than x cards
 OWNED_UNDER_TREASURES_OVER,  # owns fewer cards than its Treasures / x
 OWNED_UNDER_WITH_CARDS,      # owns fewer than x cards, and y cards or more in all
 OWNED_UNDER_WITH_TREASURES,  # owns fewer than x cards, and y Treasures or more
 ON_TOP,                      # the card is on top of its pile
 WANTED_ON_TOP,               # fewer wanted terminals than max(1, Treasures / x); the pile (in the Supply) shows one
 ROTATOR_ON_TOP,              # the pile (in the Supply) shows the card, its rotator, and the bot owns none
 ) = range(12)


# The bots' data, passed to the kernel as one tuple (not as numba globals, which a cached compile
# would keep after agents/dominion/bots.py changes), in this order:
TABLE_NAMES = ("values", "flags", "action_order", "kind_rule", "modes", "rules", "num_rules", "overrides",
               "catapult_trash", "gains")
VALUES, FLAGS, ACTION_ORDER_T, KIND_RULE_T, MODES, RULES, NUM_RULES, OVERRIDES, CATAPULT_TRASH, GAINS = range(10)
KEEPS, COINS, COSTS = range(3)  # rows of "values" (float, per card)
VICTORY, TREASURE, JUNK, WANTED, PILE, ROTATOR = range(6)  # rows of "flags" (int, per card)


# Where the pieces the bots read begin in the observation (`_offsets`), in this order.
PIECES = ("hand", "deck", "owned", "supply_in", "pile_size", "supply_top", "phase", "decision", "decision_card")
HAND, DECK, OWNED, SUPPLY_IN, PILE_SIZE, SUPPLY_TOP, PHASE, DECISION, DECISION_CARD = range(len(PIECES))
NUM_PILES = len(PILE_ID)
GOLD_PILE, SILVER_PILE, PROVINCE_PILE = PILE_ID["Gold"], PILE_ID["Silver"], PILE_ID["Province"]
CATAPULT_KIND, ROTATE_KIND, NUM_KINDS = DECISION_INDEX["catapult"], DECISION_INDEX["rotate"], len(DECISIONS)


def act_batch(bot, observations, action_masks, rng, tables, table_rows) -> np.ndarray:
    """`bot.act` on every row of ``observations`` [B, obs] and ``action_masks`` [B, actions]:
    ``tables`` are the bots' rules (`TABLE_NAMES`; None: `act` per row), ``table_rows(observations)``
    the row of those tables that plays each observation."""
    legal = np.asarray(action_masks) != 0
    observations = np.ascontiguousarray(observations, dtype=np.float32)
    expected = (len(legal), bot.layout.size)
    if observations.shape != expected or legal.shape != (len(legal), NUM_ACTIONS):
        raise ValueError(f"{bot.name}.act_batch takes observations [rows, {bot.layout.size}] and action masks "
                         f"[rows, {NUM_ACTIONS}] of this game, not {observations.shape} and {legal.shape}")
    if not legal.any(axis=-1).all():
        raise ValueError("an action_mask row has no legal action")
    if _decide_batch is None or tables is None:
        return np.array([bot.act(o, m, rng) for o, m in zip(observations, legal)], dtype=np.int64)
    actions = np.empty(len(legal), dtype=np.int64)
    _decide_batch(observations, np.ascontiguousarray(legal), table_rows(observations), _offsets(bot.layout),
                  tables, actions)
    for i in np.flatnonzero(actions < 0):  # no answer by the rules: `act` raises its error here
        bot.act(observations[i], legal[i], rng)
        raise RuntimeError(f"row {i}: the compiled rules found no answer where {bot.name}.act found one")
    return actions


def _offsets(layout) -> np.ndarray:
    return np.array([layout.slices[name].start for name in PIECES], np.int64)


# ----- the kernel: `act` on plain numbers -------------------------------------------------------
def _count(obs, i: int) -> np.float32:
    """A count piece's entry as `_facts` reads it: np.rint(obs * 10) in float32."""
    return np.rint(obs[i] * np.float32(10))


def _first_max(obs, start: int, size: int) -> int:
    """np.argmax of ``obs[start:start + size]``."""
    best = 0
    for i in range(1, size):
        if obs[start + i] > obs[start + best]:
            best = i
    return best


def _float32_sum(obs, start: int, size: int) -> np.float32:
    """``obs[start:start + size].sum()`` as numpy adds float32 (pairwise, 8 accumulators; 8 <= size <= 128)."""
    acc = obs[start:start + 8].copy()
    i = 8
    while i < size - size % 8:
        for j in range(8):
            acc[j] += obs[start + i + j]
        i += 8
    total = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
    while i < size:
        total += obs[start + i]
        i += 1
    return np.float32(0) + total


def _buy(obs, legal, bot: int, at, tables) -> int:
    """The first pile of the bot's `priorities` that it may buy; DONE if none."""
    values, flags, rules, num_rules = tables[VALUES], tables[FLAGS], tables[RULES], tables[NUM_RULES]
    owned, top = at[OWNED], at[SUPPLY_TOP]
    money, treasures, cards, terminals = 0.0, np.float32(0), np.float32(0), np.float32(0)
    for c in range(NUM_CARDS):
        n = _count(obs, owned + c)
        money += n * values[COINS, c]
        cards += n
        if flags[TREASURE, c]:
            treasures += n
        if flags[WANTED, c]:
            terminals += n
    provinces = _count(obs, at[PILE_SIZE] + PROVINCE_PILE)
    smallest = np.full(3, np.inf, np.float32)  # the three smallest piles of the Supply
    for p in range(NUM_PILES):
        if obs[at[SUPPLY_IN] + p] > 0:
            size = _count(obs, at[PILE_SIZE] + p)
            for k in range(3):
                if size < smallest[k]:
                    size, smallest[k] = smallest[k], size
    gains = np.float32(0)
    for k in range(3):
        if smallest[k] < np.inf:
            gains += smallest[k]
    gains_to_end = int(min(provinces, gains))
    for r in range(num_rules[bot]):
        pile, test, card = rules[bot, r, 0], rules[bot, r, 1], rules[bot, r, 2]
        x, y = rules[bot, r, 3], rules[bot, r, 4]
        if not legal[PILE0 + pile]:
            continue
        if test == ALWAYS:
            ok = True
        elif test == MONEY_ABOVE:
            ok = money > x
        elif test == PROVINCES_AT_MOST:
            ok = int(provinces) <= x
        elif test == GAINS_TO_END_AT_MOST:
            ok = gains_to_end <= x
        elif test == OWNS:
            ok = _count(obs, owned + card) > 0
        elif test == OWNED_UNDER:
            ok = _count(obs, owned + card) < x
        elif test == OWNED_UNDER_TREASURES_OVER:
            ok = _count(obs, owned + card) < treasures / x
        elif test == OWNED_UNDER_WITH_CARDS:
            ok = _count(obs, owned + card) < x and cards >= y
        elif test == OWNED_UNDER_WITH_TREASURES:
            ok = _count(obs, owned + card) < x and treasures >= y
        elif test == ON_TOP:
            ok = obs[top + card] > 0
        elif test == WANTED_ON_TOP:
            ok = False
            if terminals < max(1.0, treasures / x) and obs[at[SUPPLY_IN] + pile] > 0:
                for c in range(NUM_CARDS):
                    ok = ok or (flags[WANTED, c] == 1 and flags[PILE, c] == pile and obs[top + c] > 0)
        else:  # ROTATOR_ON_TOP
            ok = obs[at[SUPPLY_IN] + pile] > 0 and obs[top + card] > 0 and _count(obs, owned + card) == 0
        if ok:
            return PILE0 + pile
    return DONE


def _decide_row(obs, legal, bot: int, at, tables) -> int:
    """`act` (with the bot's overrides) on one row; -1 where `act` raises."""
    values, flags, action_order, kind_rule, modes, overrides, catapult_trash, gains = (
        tables[VALUES], tables[FLAGS], tables[ACTION_ORDER_T], tables[KIND_RULE_T], tables[MODES], tables[OVERRIDES],
        tables[CATAPULT_TRASH], tables[GAINS])
    kind = _first_max(obs, at[DECISION], NUM_KINDS)
    if overrides[bot, 0] and kind == CATAPULT_KIND:  # CatapultRocksBM.act
        for c in catapult_trash:
            if legal[CARD0 + c]:
                return CARD0 + c
    if overrides[bot, 1] and kind == ROTATE_KIND and legal[OPTION0]:  # TownsfolkFortsBM.act
        card = _first_max(obs, at[DECISION_CARD], NUM_CARDS)
        if flags[ROTATOR, card]:
            return OPTION0 if obs[at[SUPPLY_TOP] + card] > 0 else DONE
    first, last, count, first_card = -1, -1, 0, -1
    for a in range(legal.shape[0]):
        if legal[a]:
            count += 1
            last = a
            if first < 0:
                first = a
            if first_card < 0 and CARD0 <= a < PILE0:
                first_card = a - CARD0
    if count == 1:
        return first
    rule = kind_rule[kind]
    if rule == PLAY_ACTION:
        for c in action_order:
            if legal[CARD0 + c]:
                return CARD0 + c
        return DONE
    if rule == PLAY_TREASURES:
        return PLAY_ALL if legal[PLAY_ALL] else DONE
    if rule == BUY:
        return _buy(obs, legal, bot, at, tables)
    if rule == FIRST_CARD:
        return CARD0 + first_card if first_card >= 0 else DONE
    if rule == OPTION_0:
        return OPTION0
    if rule == DECLINE:
        return DONE
    if rule == NOMADS:  # +1 Buy when buying, else +1 Card
        return OPTION0 + 2 if obs[at[PHASE] + 2] > 0 else OPTION0
    if rule == FIRST_LEGAL:
        return first
    if rule == GAIN:
        for p in gains:
            if legal[PILE0 + p]:
                return PILE0 + p
        return last
    if rule == GAIN_TREASURE:
        if legal[PILE0 + GOLD_PILE]:
            return PILE0 + GOLD_PILE
        if legal[PILE0 + SILVER_PILE]:
            return PILE0 + SILVER_PILE
        best = -1  # max of (pile not empty, pile)
        for p in range(NUM_PILES):
            if legal[PILE0 + p] and (best < 0 or obs[at[PILE_SIZE] + p] > 0 or not obs[at[PILE_SIZE] + best] > 0):
                best = p
        return PILE0 + best if best >= 0 else -1
    if rule == MODE:
        card = _first_max(obs, at[DECISION_CARD], NUM_CARDS)
        hand = np.float64(_float32_sum(obs, at[HAND], NUM_CARDS) * np.float32(10))
        order = modes[card, 1 if hand > 3 else 0]
        if order[0] < 0:
            return -1  # not a modal card
        for k in order:
            if k >= 0 and legal[OPTION0 + k]:
                return OPTION0 + k
        return DONE
    # The rest pick one of the legal cards (c ascending, so a max on ties keeps the last, a min the first).
    best, best_key = -1, 0.0
    for c in range(NUM_CARDS):
        if not legal[CARD0 + c]:
            continue
        if rule == LEAST_KEPT_ELSE_FIRST or rule == LEAST_KEPT:
            if best < 0 or values[KEEPS, c] < best_key:
                best, best_key = c, values[KEEPS, c]
        elif rule == TRASH_JUNK_CARD:
            if flags[JUNK, c]:
                return CARD0 + c
        elif rule == CELLAR_JUNK:
            if values[KEEPS, c] < 0:
                return CARD0 + c
        elif rule == GLADIATOR:  # the dearest non-Victory card
            key = 9.0 if flags[VICTORY, c] else values[KEEPS, c]
            if best < 0 or key >= best_key:
                best, best_key = c, key
        elif rule == NAME_COMMONEST:  # max of (deck count, -card)
            key = np.float64(obs[at[DECK] + c])
            if best < 0 or key > best_key:
                best, best_key = c, key
        elif rule == MOST_USEFUL:
            key = values[KEEPS, c] + values[COSTS, c] / 10
            if best < 0 or key >= best_key:
                best, best_key = c, key
        elif rule == RICHEST_TREASURE:
            if best < 0 or values[COINS, c] >= best_key:
                best, best_key = c, values[COINS, c]
    if best >= 0:
        return CARD0 + best
    if rule == TRASH_JUNK_CARD or rule == CELLAR_JUNK or rule == RICHEST_TREASURE:
        return DONE
    if rule == LEAST_KEPT_ELSE_FIRST:
        return first
    return -1  # `act` takes the max or min of no cards


def _decide_all(observations, legal, bots, at, tables, actions) -> None:
    for b in range(observations.shape[0]):
        actions[b] = _decide_row(observations[b], legal[b], bots[b], at, tables)


try:
    from card_envs.numba_cache import njit
except ImportError:  # numba is in the train and batch extras; a bare install plays `act` per row
    _decide_batch = None
else:
    _count, _first_max, _float32_sum, _buy, _decide_row = (
        njit(cache=True)(f) for f in (_count, _first_max, _float32_sum, _buy, _decide_row))
    _decide_batch = njit(cache=True)(_decide_all)
