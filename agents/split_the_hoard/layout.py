"""The layout of the tables and the row state of Split the Hoard's compiled `act_batch`
(agents/split_the_hoard/batch.py): the effect and criterion codes, the observation pieces read,
the tables' order (built by agents/split_the_hoard/heuristic.py's `_kernel_tables`) and the row state's
arrays (`row_state`), shared by the kernel's modules."""

from __future__ import annotations

import numpy as np

from card_envs.games.split_the_hoard.cards import HIDDEN_CRITERIA, STARTING_CRITERIA
from card_envs.games.split_the_hoard.effects import PRIMITIVES

ERROR = -2  # the kernel's answer where `act` raises (-1 is an answer `act` can give: GIVE with nothing to give)
KIND = {name: i for i, name in enumerate(PRIMITIVES)}  # effect primitive -> code (-1: no effect)
ROLES = ("effect", "refuse", "cancel_coin", "cancel_treasure", "class")
ROLE_OF_KIND = np.array([ROLES.index(p.role) for p in PRIMITIVES.values()], np.int64)
(GAIN_K, TAKE_COINS_K, TAKE_EACH_K, RECOVER_COINS_K, RECOVER_TREASURE_K, DRAW_TREASURE_K, PICK_TOP_K, PEEK_DECK_K,
 FLIP_COIN_K, EXTRA_DRAW_K, DISCOUNT_K, PRINTED_ONLY_K, STEAL_K, SWAP_K, EXTRA_ACTION_K, TAKE_DRAGON_K) = (
    KIND[k] for k in ("GAIN", "TAKE_COINS", "TAKE_EACH", "RECOVER_COINS", "RECOVER_TREASURE", "DRAW_TREASURE",
                      "PICK_TOP", "PEEK_DECK", "FLIP_COIN", "EXTRA_DRAW", "DISCOUNT", "PRINTED_ONLY", "STEAL", "SWAP",
                      "EXTRA_ACTION", "TAKE_DRAGON"))
REFUSE_ROLE, CANCEL_COIN_ROLE = ROLES.index("refuse"), ROLES.index("cancel_coin")
HIGH, LOW, RUN, BALANCE, MOST_COINS = (STARTING_CRITERIA.index(c) for c in (
    "highest_total_rank", "lowest_total_rank", "longest_run", "balance", "most_coins"))
K_OF, ALL_OF, DISTINCT, MAX_RANK, COINS_VS, COINS_AT_MOST, ICONS = range(len(HIDDEN_CRITERIA))
if tuple(HIDDEN_CRITERIA) != ("k_of", "all_of", "distinct_names", "max_rank", "coins_vs_treasures", "coins_at_most",
                              "icons"):
    raise ImportError("agents/split_the_hoard/layout.py numbers the hidden Title criteria in another order")

# The observation pieces the agent reads, in the order of `offsets`.
PIECES = ("decision", "classes", "coins", "treasures", "offers", "offer_coins", "hand", "hidden_title", "seen_held",
          "seen_deck", "deck_size", "coin_discard_size", "treasure_discard", "turn", "effect_card", "effect_take",
          "effect_give", "effect_slot", "effect_seats", "refused")
(O_DECISION, O_CLASSES, O_COINS, O_TREASURES, O_OFFERS, O_OFFER_COINS, O_HAND, O_TITLE, O_SEEN_HELD, O_SEEN_DECK,
 O_DECK, O_COIN_DISCARD, O_DISCARD, O_TURN, O_CARD, O_TAKE, O_GIVE, O_SLOT, O_SEATS, O_REFUSED) = range(len(PIECES))

# The agent's tables, passed to the kernel as one tuple (not as numba globals, which a cached
# compile would keep after the cards change), in this order:
TABLE_NAMES = ("ints", "floats", "copies", "fixed", "is_mod", "rank", "vp", "cond_kind", "cond_set", "title_kind",
               "title_min", "title_temp", "tie", "mod_values", "mod_order", "hidden_kind", "hidden_vp",
               "hidden_par", "hidden_names", "hidden_groups", "hidden_icons", "effects", "class_effects", "offsets")
(T_INTS, T_FLOATS, T_COPIES, T_FIXED, T_IS_MOD, T_RANK, T_VP, T_COND_KIND, T_COND_SET, T_TITLE_KIND, T_TITLE_MIN,
 T_TITLE_TEMP, T_TIE, T_MOD_VALUES, T_MOD_ORDER, T_HIDDEN_KIND, T_HIDDEN_VP, T_HIDDEN_PAR, T_HIDDEN_NAMES,
 T_HIDDEN_GROUPS, T_HIDDEN_ICONS, T_EFFECTS, T_CLASS_EFFECTS, T_OFFSETS) = range(len(TABLE_NAMES))
# entries of "ints"
(I_N, I_NN, I_TARGET0, I_SLOT0, I_DRAW2, I_YES, I_DONE, I_POWER, I_START_DECK, I_MAX_COPIES, I_NUM_CARDS,
 I_NUM_CLASSES, I_RANK_LOW, I_RANK_HIGH, I_MAX_PROTECT) = range(15)
# entries of "floats": the parameters, and the exponent 2.0 of `_progress` (data, so that the
# compiler cannot turn pow(x, 2.0) into x * x, which differs from Python's ``x ** 2`` in the last bit)
F_COIN_VALUE, F_DENIAL, F_MARGIN, F_PROTECT_SHARE, F_SVP, F_TWO = range(6)
# "hidden_par" columns: k (k_of, distinct_names, icons), min (max_rank), ratio and min_coins
# (coins_vs_treasures), n (coins_at_most), number of groups (all_of)
P_K, P_MIN, P_RATIO, P_MIN_COINS, P_N, P_GROUPS = range(6)
# "effects" / "class_effects" rows: (primitive code or -1, number of arguments, arg 1, arg 2)
# row scalars of a position (`_read`'s)
(S_DECK, S_COIN_DISCARD, S_TITLE, S_DISCOUNT, S_PRINTED, S_ACTOR, S_TARGET, S_CARD, S_TAKE, S_GIVE, S_SLOT,
 S_DECISION, NUM_S) = range(13)
U_UNC, U_NOW = range(2)
# Scratch levels of holdings and Coins (the kernel's `_copy`, `_dup`), one per depth of the decision's calls
# that keeps a changed position while it calls on: the deciders' candidates, `_after_card`'s and
# `_after_coins`', the draw 2's, an ability's position after its discard, its candidates, and
# `_best_action`'s
L_TOP, L_AFTER, L_DRAW, L_BASE, L_INNER, L_BEST = range(6)
# rows of a policy's cache of criterion values by ranked holdings (direct-mapped; 16 MB in the default game)
CACHE = 1 << 18
GOLDEN = -0x61C8864680B583EB  # 2 ** 64 / golden ratio, as an int64
COUNTS_PER_WORD = 16  # ranked counts packed into one int64 of a cache key, 4 bits each


def row_state(tb) -> tuple:
    """Room for one position as `_read` sees it (filled row by row): (hold, haul, coins, offers,
    added, refused, discard, pool, scalars S_*, floats U_*, temps, tie, classes, and each seat's
    `_haul_feats`: criterion values and Treasure VP, to value positions where a seat's holdings
    have not changed), then scratch: `_run_estimate`'s, and `_worth`'s values, VP, softmax inputs
    and exponentials; last the ranked names and each one's bin of the cache key (its rank among
    the fixed ranks, else its modifier value after them), the cache of criterion values
    (`_seat_feats`: a row per slot, of a used flag, the packed key and the values), and room for
    the counts by bin and the packed key; then scratch for positions (by level `L_*`), for an
    ability's pool values, copies and their order, and for `_turn`'s values of plain actions."""
    ints, n, nn, titles = tb[T_INTS], tb[T_INTS][I_N], tb[T_INTS][I_NN], tb[T_TITLE_KIND].size
    ranked = np.flatnonzero((tb[T_FIXED] != 0) | (tb[T_IS_MOD] != 0))
    size = max(ints[I_RANK_HIGH] - ints[I_RANK_LOW] + 1, 1)
    bins = np.array([tb[T_RANK][x] - ints[I_RANK_LOW] if tb[T_FIXED][x] else
                     size + np.flatnonzero(tb[T_MOD_VALUES] == tb[T_RANK][x])[0] for x in ranked], np.int64)
    num_bins = size + tb[T_MOD_VALUES].size
    words = max(1, -(-num_bins // COUNTS_PER_WORD))
    return (np.zeros((n, nn), np.int64), np.zeros((n, nn), np.int64), np.zeros(n, np.int64),
            np.zeros((n, 3), np.int64), np.zeros((n, 3), np.int64), np.zeros((n, 3), np.bool_), np.zeros(nn, np.int64),
            np.zeros(nn, np.int64), np.zeros(NUM_S, np.int64), np.zeros(2), np.zeros(titles), np.zeros((n, titles)),
            np.zeros(n, np.int64), np.zeros((n, titles), np.int64), np.zeros(n), np.zeros(run_scratch(tb), np.int64),
            np.zeros((n, titles), np.int64), np.zeros(n), np.zeros(n), np.zeros(n),
            ranked.astype(np.int64), bins, np.zeros((CACHE, 1 + words + titles), np.int64), np.zeros(num_bins, np.int64),
            np.zeros(words, np.int64), np.zeros((L_BEST + 1, n, nn), np.int64), np.zeros((L_BEST + 1, n), np.int64),
            np.zeros(nn), np.zeros(nn, np.int64), np.zeros(nn, np.int64), np.zeros(n), np.zeros(n, np.bool_))


def run_scratch(tb) -> int:
    """The length of `_run_estimate`'s scratch: counts, flags, left and starts by rank, held and
    unused modifiers by value."""
    values, ints = tb[T_MOD_VALUES], tb[T_INTS]
    size = max(ints[I_RANK_HIGH] - ints[I_RANK_LOW] + 1, 1)
    shifts = (max(0, values[-1]) - min(0, values[0])) if values.size else 0
    return 3 * size + 2 * values.size + size + shifts
