"""`act_batch` of Split the Hoard's scripted agent (agents/split_the_hoard/heuristic.py): `act` compiled with numba.

The trainer asks the scripted agent for hundreds of decisions at a time (opponents, teacher labels,
cloning games); in Python each costs about a dozen position values (`_worth`), each a softmax over
the seats per Starting Title. The kernel below is `act` row by row over the batch: the observation
read as `_read` reads it, every decision kind answered by the same rule, and every value computed
with the same float64 operations in the same order (sums from the first term, `math.exp`, libm's
`pow` for ``**``, sorted orders and first-maximum ties as Python's), so that equal positions compare
equal and ties break alike (tests/split_the_hoard/test_act_batch.py checks it decision by decision
against `act`). The card list, Titles and the agent's parameters come in as tables
(`SplitTheHoardHeuristic._tables`, laid out as agents/split_the_hoard/layout.py says); these
modules do not import the agent. The observation is read and positions valued in
agents/split_the_hoard/worth.py; this module decides. Where `act` raises (no legal card to
choose, an ability with no effect), the kernel answers `ERROR` and `act` is run on that row to
raise its own error; in the few positions the rules never ask where `act` answers by
Python's negative indexing (a BUY_SLOT with other actions legal than the three Negotiate Cards),
the kernel answers `ERROR` too and `act_batch` raises RuntimeError. Without numba (it is in the
train and batch extras) `act` runs per row.
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from card_envs.agents.split_the_hoard.layout import (
    CANCEL_COIN_ROLE, DISCOUNT_K, DRAW_TREASURE_K, ERROR, EXTRA_ACTION_K, EXTRA_DRAW_K, FLIP_COIN_K, F_DENIAL,
    F_MARGIN, F_PROTECT_SHARE, GAIN_K, I_DONE, I_DRAW2, I_MAX_PROTECT, I_N, I_NN, I_POWER, I_SLOT0, I_TARGET0,
    I_YES, L_AFTER, L_BASE, L_BEST, L_DRAW, L_INNER, L_TOP, O_CARD, PEEK_DECK_K, PICK_TOP_K, PRINTED_ONLY_K,
    RECOVER_COINS_K, RECOVER_TREASURE_K, REFUSE_ROLE, ROLE_OF_KIND, STEAL_K, SWAP_K, S_ACTOR, S_CARD,
    S_COIN_DISCARD, S_DECISION, S_DECK, S_DISCOUNT, S_GIVE, S_PRINTED, S_SLOT, S_TAKE, S_TARGET, TAKE_COINS_K,
    TAKE_DRAGON_K, TAKE_EACH_K, T_CLASS_EFFECTS, T_EFFECTS, T_FLOATS, T_INTS, T_OFFSETS, U_NOW, row_state)
from card_envs.agents.split_the_hoard.worth import _first_max, _read, _worth
from card_envs.games.split_the_hoard.effects import (
    BUY_SLOT, COMMIT_CARD, COMMIT_COINS, DEAL, EXTRA_COIN, FLIP, GIVE, ORDER, PICK, PRIORITY, REACT, RECOVER, SCRY,
    TAKE, TARGET, TURN)

# Each policy's row states (`row_state`), kept between calls with the tables they were made for:
# the cache of criterion values serves every later call; a list, so that a call made while
# another runs (a thread) takes a fresh state
_STATES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def act_batch(policy, observations, action_masks, rng, tables) -> np.ndarray:
    """`policy.act` on every row of ``observations`` [B, obs] and ``action_masks`` [B, actions]
    (``tables``: `TABLE_NAMES`; None: `act` per row)."""
    legal = np.asarray(action_masks) != 0
    observations = np.ascontiguousarray(observations, dtype=np.float32)
    width, actions_width = policy.layout.size, policy.game.num_actions
    if observations.shape != (len(legal), width) or legal.shape != (len(legal), actions_width):
        raise ValueError(f"{policy.name}.act_batch takes observations [rows, {width}] and action masks "
                         f"[rows, {actions_width}] of this game, not {observations.shape} and {legal.shape}")
    if not legal.any(axis=-1).all():
        raise ValueError("an action_mask row has no legal action")
    if _decide_batch is None or tables is None:
        return np.array([policy.act(o, m, rng) for o, m in zip(observations, legal)], dtype=np.int64)
    actions = np.empty(len(legal), dtype=np.int64)
    held = _STATES.get(policy)
    if held is None or held[0] is not tables:
        held = _STATES[policy] = (tables, [])
    state = held[1].pop() if held[1] else row_state(tables)
    _decide_batch(observations, np.ascontiguousarray(legal), tables, state, actions)
    held[1].append(state)
    for i in np.flatnonzero(actions == ERROR):  # no answer by the rules: `act` raises its error here
        policy.act(observations[i], legal[i], rng)
        raise RuntimeError(f"row {i}: the compiled rules found no answer where {policy.name}.act found one")
    return actions


# ----- positions after changes (`_apply`, `_after`) -----------------------------------------------
def _move_coins(coins, src: int, dst: int, k: int) -> None:
    """One Coin move of `_apply`: from a seat (or -1: the deck) to a seat (or -1: a discard pile)."""
    if src >= 0:
        k = min(k, coins[src])
        coins[src] -= k
    if dst >= 0:
        coins[dst] += k


def _dup(st, level: int, hold, coins):
    """(hold, coins) copied into scratch level ``level`` (the kernel allocates nothing per candidate)."""
    h, c = st[25][level], st[26][level]
    for p in range(hold.shape[0]):
        c[p] = coins[p]
        for x in range(hold.shape[1]):
            h[p, x] = hold[p, x]
    return h, c


def _dup_coins(st, level: int, coins):
    c = st[26][level]
    for p in range(coins.size):
        c[p] = coins[p]
    return c


def _copy(st, level: int):
    """The position's holdings and Coins, copied into scratch level ``level``."""
    return _dup(st, level, st[0], st[2])


def _after_card(tb, st, p: int, x: int, d: int) -> float:
    """J after one card move (seat p gains d of name x)."""
    hold, coins = _copy(st, L_AFTER)
    hold[p, x] += d
    return _worth(tb, st, hold, coins)


def _after_coins(tb, st, src: int, dst: int, k: int) -> float:
    hold, coins = _copy(st, L_AFTER)
    _move_coins(coins, src, dst, k)
    return _worth(tb, st, hold, coins)


# ----- abilities (`_ability`, `_outcomes`, `_steal`, `_swap`) -------------------------------------
def _base(st, src: int):
    """Holdings and Coins after discarding Treasure `src` (-1: a class power)."""
    hold, coins = _copy(st, L_BASE)
    if src >= 0:
        hold[0, src] -= 1
    return hold, coins


def _expected_max(values, copies, order, m: int, draws: int) -> float:
    """`_expected_max` of the first m (value, copies) pairs, sorted as Python sorts the tuples
    (``order``: room for their order)."""
    total = 0
    for i in range(m):
        total += copies[i]
    if total == 0 or draws <= 0:
        return 0.0
    for i in range(m):
        order[i] = i
    for i in range(1, m):  # insertion sort by (value, copies): stable, and the pairs' order
        j = i
        while j > 0 and (values[order[j - 1]] > values[order[j]] or (
                values[order[j - 1]] == values[order[j]] and copies[order[j - 1]] > copies[order[j]])):
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    out, cum, prev = 0.0, 0, 0.0
    for i in order[:m]:
        cum += copies[i]
        now = math.pow(cum / total, float(draws))
        out += values[i] * (now - prev)
        prev = now
    return out


def _pool_values(tb, st, hold, coins, values, copies) -> int:
    """`_pool_values` on top of (hold, coins): J after also gaining each unseen name; their number."""
    pool, m = st[7], 0
    for x in range(pool.size):
        if pool[x]:
            hold[0, x] += 1
            values[m] = _worth(tb, st, hold, coins)
            hold[0, x] -= 1
            copies[m] = pool[x]
            m += 1
    return m


def _steal(tb, st, src: int, pay: int, only: int):
    """`_steal`: the best (J, seat, name) of paying `pay` Coins to a seat (every other seat, or
    `only`) and taking one of its Haul Treasures."""
    n, haul = tb[T_INTS][I_N], st[1]
    best, seat, name = -math.inf, -1, -1
    hold, coins = _base(st, src)
    for q in range(1 if only < 0 else only, n if only < 0 else only + 1):
        for x in range(haul.shape[1]):
            if haul[q, x] != 0:
                h, c = _dup(st, L_INNER, hold, coins)
                h[0, x] += 1
                h[q, x] -= 1
                _move_coins(c, 0, q, pay)
                value = _worth(tb, st, h, c)
                if value > best:
                    best, seat, name = value, q, x
    return best, seat, name


def _swap(tb, st, src: int, only: int):
    """`_swap`: the best (J, give name, seat, take name) of a SWAP."""
    n, haul, nn = tb[T_INTS][I_N], st[1], tb[T_INTS][I_NN]
    best, give_best, seat, take = -math.inf, -1, -1, -1
    hold, coins = _base(st, src)
    for give in range(nn):
        if haul[0, give] - (give == src) == 0:
            continue
        for q in range(1 if only < 0 else only, n if only < 0 else only + 1):
            for x in range(nn):
                if haul[q, x] != 0:
                    h = _dup(st, L_INNER, hold, coins)[0]
                    h[0, give] -= 1
                    h[q, give] += 1
                    h[0, x] += 1
                    h[q, x] -= 1
                    value = _worth(tb, st, h, coins)
                    if value > best:
                        best, give_best, seat, take = value, give, q, x
    return best, give_best, seat, take


def _ability(tb, st, kind: int, a1: int, src: int) -> float:
    """`_ability`: estimated J after using an effect (discarding Treasure `src`; -1: a class power)."""
    n, s, pool = tb[T_INTS][I_N], st[8], st[7]
    hold, coins = _base(st, src)
    if kind == GAIN_K or kind == RECOVER_COINS_K:
        _move_coins(coins, -1, 0, min(a1, s[S_DECK] if kind == GAIN_K else s[S_COIN_DISCARD]))
        return _worth(tb, st, hold, coins)
    if kind == TAKE_COINS_K:
        best = -math.inf
        for q in range(1, n):
            c = _dup_coins(st, L_INNER, coins)
            _move_coins(c, q, 0, a1)
            best = max(best, _worth(tb, st, hold, c))
        return best
    if kind == TAKE_EACH_K:
        for q in range(1, n):
            _move_coins(coins, q, 0, a1)
        return _worth(tb, st, hold, coins)
    if kind == RECOVER_TREASURE_K:
        best = -math.inf
        for x in range(pool.size):
            if st[6][x] != 0 and x != src:
                hold[0, x] += 1
                best = max(best, _worth(tb, st, hold, coins))
                hold[0, x] -= 1
        return best
    values, copies, order = st[27], st[28], st[29]
    if kind == PICK_TOP_K:
        return _expected_max(values, copies, order, _pool_values(tb, st, hold, coins, values, copies), a1)
    if kind == DRAW_TREASURE_K:
        m = _pool_values(tb, st, hold, coins, values, copies)
        base = _worth(tb, st, hold, coins)
        weighted, count = 0.0, 0
        for i in range(m):
            weighted += values[i] * copies[i]
            count += copies[i]
        return base + a1 * (weighted / max(1, count) - base)
    if kind == FLIP_COIN_K:
        if st[2][0] == 0:
            return -math.inf
        keep = _worth(tb, st, hold, coins)
        _move_coins(coins, 0, -1, 1)
        m = _pool_values(tb, st, hold, coins, values, copies)
        for i in range(m):
            values[i] = max(values[i], keep)
        return _expected_max(values, copies, order, m, a1)
    if kind == EXTRA_DRAW_K:
        _move_coins(coins, -1, 0, 1)
        return _worth(tb, st, hold, coins) + 0.3
    if kind == STEAL_K:
        return _steal(tb, st, src, a1, -1)[0]
    if kind == SWAP_K:
        return _swap(tb, st, src, -1)[0]
    if kind == PEEK_DECK_K or kind == TAKE_DRAGON_K:
        return _worth(tb, st, hold, coins) + 0.2
    return -math.inf  # turn effects are valued by the turn plan; reactions are not abilities


def _has_outcomes(kind: int) -> bool:
    return kind in (GAIN_K, RECOVER_COINS_K, TAKE_COINS_K, TAKE_EACH_K, RECOVER_TREASURE_K)


# ----- negotiating (`_price`, `_buys`, `_best_action`, `_turn`) ----------------------------------
def _price(st, q: int, k: int, printed: bool, discount: int) -> int:
    full = k + 1 + (0 if printed else st[4][q, k])
    return max(0, full - discount)


def _best_action(tb, st, hold, coins, printed: bool, discount: int) -> float:
    """`_best_action` after the changes made to (hold, coins): the draw 2 or the best purchase."""
    n, offers, refused = tb[T_INTS][I_N], st[3], st[5]
    c = _dup_coins(st, L_BEST, coins)
    _move_coins(c, -1, 0, min(2, st[8][S_DECK]))
    best = _worth(tb, st, hold, c)
    for q in range(1, n):
        for k in range(3):
            x = offers[q, k]
            price = _price(st, q, k, printed, discount)
            if x >= 0 and not refused[q, k] and price <= coins[0]:
                h, c = _dup(st, L_BEST, hold, coins)
                h[0, x] += 1
                h[q, x] -= 1
                _move_coins(c, 0, q, price)
                best = max(best, _worth(tb, st, h, c))
    return best


def _outcome_best_action(tb, st, kind: int, a1: int, src: int) -> float:
    """`_turn_ability` of an effect with sure outcomes: the best action after the best outcome;
    NaN where `_outcomes` lists none (`max` of nothing raises in `act`)."""
    n, s = tb[T_INTS][I_N], st[8]
    printed, discount = s[S_PRINTED] != 0, s[S_DISCOUNT]
    hold, coins = _base(st, src)
    if kind == GAIN_K or kind == RECOVER_COINS_K:
        _move_coins(coins, -1, 0, min(a1, s[S_DECK] if kind == GAIN_K else s[S_COIN_DISCARD]))
        return _best_action(tb, st, hold, coins, printed, discount)
    if kind == TAKE_EACH_K:
        for q in range(1, n):
            _move_coins(coins, q, 0, a1)
        return _best_action(tb, st, hold, coins, printed, discount)
    best, found = -math.inf, False
    if kind == TAKE_COINS_K:
        for q in range(1, n):
            c = _dup_coins(st, L_INNER, coins)
            _move_coins(c, q, 0, a1)
            best, found = max(best, _best_action(tb, st, hold, c, printed, discount)), True
    else:  # RECOVER_TREASURE
        for x in range(st[6].size):
            if st[6][x] != 0 and x != src:
                hold[0, x] += 1
                best, found = max(best, _best_action(tb, st, hold, coins, printed, discount)), True
                hold[0, x] -= 1
    return best if found else math.nan


def _turn_ability(tb, st, kind: int, a1: int, src: int, best: float) -> float:
    """`_turn_ability`: J after an own-turn ability and the best action after it; NaN where `act` raises."""
    s, now = st[8], st[9][U_NOW]
    printed, discount = s[S_PRINTED] != 0, s[S_DISCOUNT]
    if kind < 0:
        return math.nan
    if kind == DISCOUNT_K:
        hold, coins = _base(st, src)
        return _best_action(tb, st, hold, coins, printed, discount + a1)
    if kind == PRINTED_ONLY_K:
        hold, coins = _base(st, src)
        return _best_action(tb, st, hold, coins, True, discount)
    if kind == EXTRA_ACTION_K:
        hold, coins = _base(st, src)
        return _best_action(tb, st, hold, coins, printed, discount) + _draw(tb, st, st[0], st[2]) - now
    if _has_outcomes(kind):
        return _outcome_best_action(tb, st, kind, a1, src)
    return _ability(tb, st, kind, a1, src) + best - now


def _draw(tb, st, hold, coins) -> float:
    """J after the draw 2 (from the given holdings and Coins)."""
    c = _dup_coins(st, L_DRAW, coins)
    _move_coins(c, -1, 0, min(2, st[8][S_DECK]))
    return _worth(tb, st, hold, c)


def _power(tb, st, seat: int):
    """The effect row of a seat's class power."""
    return tb[T_CLASS_EFFECTS][st[12][seat]]


def _effect_row(tb, st, card: int):
    """A Treasure's effect row (a negative index counts from the end, as Python's), or the own class power's."""
    return tb[T_EFFECTS][card] if card >= 0 else _power(tb, st, 0)


def _turn(tb, st, legal) -> int:
    """`_turn`: the action worth most; an own-turn ability first when it is worth `ability_margin` more."""
    ints, s = tb[T_INTS], st[8]
    n, nn, target0, draw2, power = ints[I_N], ints[I_NN], ints[I_TARGET0], ints[I_DRAW2], ints[I_POWER]
    offers, refused = st[3], st[5]
    printed, discount = s[S_PRINTED] != 0, s[S_DISCOUNT]
    hold, coins = st[0], st[2]  # read only
    plain, has = st[30], st[31]  # [0]: the draw 2; [q]: the best purchase from seat q
    plain[:] = -math.inf
    has[:] = False
    plain[0], has[0] = _draw(tb, st, hold, coins), True
    for q in range(1, n):
        for k in range(3):
            x = offers[q, k]
            price = _price(st, q, k, printed, discount)
            if x >= 0 and not refused[q, k] and price <= coins[0]:
                h, c = _dup(st, L_TOP, hold, coins)
                h[0, x] += 1
                h[q, x] -= 1
                _move_coins(c, 0, q, price)
                plain[q], has[q] = max(_worth(tb, st, h, c), plain[q]), True
    best = plain[0]
    for q in range(1, n):
        if has[q]:
            best = max(best, plain[q])
    value, action = -math.inf, -1
    effects = tb[T_EFFECTS]
    for a in range(nn + 1):  # the legal names, then the class power (the highest action)
        if a == nn and not legal[power] or a < nn and not legal[a]:
            continue
        row = effects[a] if a < nn else _power(tb, st, 0)
        v = _turn_ability(tb, st, row[0], row[2], a if a < nn else -1, best)
        if v != v:
            return ERROR
        if action < 0 or v > value:
            value, action = v, a if a < nn else power
    if action >= 0 and value > best + tb[T_FLOATS][F_MARGIN]:
        return action
    value, action = -math.inf, -1
    for q in range(n):  # the draw 2 is the highest of these actions: ties go to a purchase
        a = draw2 if q == 0 else target0 + q - 1
        if has[q] and legal[a] and (action < 0 or plain[q] > value or (plain[q] == value and a < action)):
            value, action = plain[q], a
    return action if action >= 0 else ERROR


def _buy_slot(tb, st, legal) -> int:
    """`_buy_slot`: the Negotiate Card of the seat bought from worth most."""
    ints, s = tb[T_INTS], st[8]
    slot0, q = ints[I_SLOT0], s[S_TARGET]
    for a in range(slot0):
        if legal[a]:
            return ERROR  # `act` would read Negotiate Card a - SLOT0 (Python's negative index): not modelled
    value, action = -math.inf, -1
    for k in range(legal.size - slot0):
        a = slot0 + k
        if legal[a]:
            if k >= 3 or q >= ints[I_N]:
                return ERROR
            x = st[3][q, k]
            if x < 0:  # `act` moves the Treasure of name -1: the last name (Python's index)
                x += ints[I_NN]
            h, c = _copy(st, L_TOP)
            h[0, x] += 1
            h[q, x] -= 1
            _move_coins(c, 0, q, _price(st, q, k, s[S_PRINTED] != 0, s[S_DISCOUNT]))
            v = _worth(tb, st, h, c)
            if action < 0 or v > value:
                value, action = v, a
    return action if action >= 0 else ERROR


def _least_desirable(tb, st, legal) -> int:
    """`_least_desirable` of the legal names: its value kept plus `denial` times its value to the
    seat it helps most, lowest (ties: the lowest name)."""
    n, nn, now, denial = tb[T_INTS][I_N], tb[T_INTS][I_NN], st[9][U_NOW], tb[T_FLOATS][F_DENIAL]
    value, action = -math.inf, -1
    for x in range(nn):
        if legal[x]:
            mine = _after_card(tb, st, 0, x, 1) - now
            theirs = now - _after_card(tb, st, 1, x, 1)
            for q in range(2, n):
                theirs = max(theirs, now - _after_card(tb, st, q, x, 1))
            v = -(mine + denial * theirs)
            if action < 0 or v > value:
                value, action = v, x
    return action if action >= 0 else ERROR


def _commit_coins(tb, st, legal) -> int:
    """`_commit_coins`: a Coin on the card it would lose most by selling, when protecting it is cheap."""
    ints, floats, now = tb[T_INTS], tb[T_FLOATS], st[9][U_NOW]
    n, slot0, coins, offers, added = ints[I_N], ints[I_SLOT0], st[2], st[3], st[4]
    richest = coins[1]
    for q in range(2, n):
        richest = max(richest, coins[q])
    best_loss, action = 0.0, ints[I_DONE]
    for k in range(3):
        x = offers[0, k]
        if x < 0 or not legal[slot0 + k]:
            continue
        price = k + 1 + added[0, k]
        sold = math.inf
        for q in range(1, n):
            h, c = _copy(st, L_TOP)
            h[0, x] -= 1
            h[q, x] += 1
            _move_coins(c, q, 0, price)
            sold = min(sold, _worth(tb, st, h, c))
        loss = now - sold
        need = richest + 1 - price
        if loss > best_loss and 0 < need <= min(ints[I_MAX_PROTECT], coins[0]):
            cost = now - _after_coins(tb, st, 0, -1, need)
            if cost < floats[F_PROTECT_SHARE] * loss:
                best_loss, action = loss, slot0 + k
    return action


def _react(tb, st, legal) -> int:
    """`_react`: cancel (or refuse) only when what the effect would cost outweighs what the reaction spends."""
    ints, s, now = tb[T_INTS], st[8], st[9][U_NOW]
    nn, done, power = ints[I_NN], ints[I_DONE], ints[I_POWER]
    actor, card = s[S_ACTOR], s[S_CARD]
    role = -1
    for a in range(legal.size):
        if legal[a] and a != done:
            if a == power:
                kind = _power(tb, st, 0)[0]
            elif a < nn:
                kind = tb[T_EFFECTS][a, 0]
            else:
                return ERROR  # `act` indexes the effects with an action that is no name
            if kind < 0:
                return ERROR
            role = ROLE_OF_KIND[kind]
            break
    if role < 0:
        return ERROR  # no reaction to choose: `act`'s next() finds none
    h, c = _copy(st, L_TOP)
    if role == REFUSE_ROLE:  # a negotiation for one of our Treasures: it would sell at its price
        x = card if card >= 0 else card + nn
        h[0, x] -= 1
        h[actor, x] += 1
        _move_coins(c, actor, 0, _price(st, 0, s[S_SLOT], s[S_PRINTED] != 0, s[S_DISCOUNT]))
    elif role == CANCEL_COIN_ROLE:  # a Coin theft
        row = tb[T_EFFECTS][card] if card >= 0 else _power(tb, st, actor)
        if row[1] < 1:
            return ERROR
        _move_coins(c, 0, actor, row[2])
    else:  # a STEAL or SWAP: the Treasure taken, and the one given or the Coins paid
        taken = s[S_TAKE]
        h[0, taken] -= 1
        h[actor, taken] += 1
        if s[S_GIVE] >= 0:
            h[0, s[S_GIVE]] += 1
            h[actor, s[S_GIVE]] -= 1
        else:
            row = tb[T_EFFECTS][card] if card >= 0 else _power(tb, st, actor)
            if row[1] < 1:
                return ERROR
            _move_coins(c, actor, 0, row[2])
    accept = _worth(tb, st, h, c)
    value, action = -math.inf, -1
    for a in range(legal.size):
        if legal[a] and a != done:
            v = _after_card(tb, st, 0, a, -1) if a < nn else now
            if action < 0 or v > value:
                value, action = v, a
    return action if value > accept + tb[T_FLOATS][F_MARGIN] else done


def _priority(tb, st, legal) -> int:
    """`_priority`: the ability that gains most, if it gains `ability_margin`; else pass."""
    ints, now = tb[T_INTS], st[9][U_NOW]
    nn, done, power = ints[I_NN], ints[I_DONE], ints[I_POWER]
    value, action = -math.inf, -1
    for a in range(legal.size):
        if legal[a] and a != done:
            if a >= nn and a != power:
                return ERROR  # `act` indexes the effects with an action that is no name
            row = _power(tb, st, 0) if a == power else tb[T_EFFECTS][a]
            if row[0] < 0:
                return ERROR
            v = _ability(tb, st, row[0], row[2], -1 if a == power else a)
            if action < 0 or v > value:
                value, action = v, a
    if action < 0:
        return ERROR
    return action if value > now + tb[T_FLOATS][F_MARGIN] else done


def _target(tb, st, legal) -> int:
    """`_target`: the seat that makes STEAL, SWAP or TAKE_COINS worth most (Pickpocket may decline)."""
    ints, now = tb[T_INTS], st[9][U_NOW]
    n, target0, slot0, done = ints[I_N], ints[I_TARGET0], ints[I_SLOT0], ints[I_DONE]
    row = _effect_row(tb, st, st[8][S_CARD])
    value, seat = -math.inf, -1
    for a in range(target0, slot0):
        if legal[a]:
            q = a - target0 + 1
            if q >= n:
                return ERROR
            if row[0] == STEAL_K:
                v = _steal(tb, st, -1, row[2], q)[0]
            elif row[0] == SWAP_K:
                v = _swap(tb, st, -1, q)[0]
            else:
                if row[1] < 1:
                    return ERROR
                v = _after_coins(tb, st, q, 0, row[2])
            if seat < 0 or v > value:
                value, seat = v, q
    if seat < 0:
        return ERROR
    if row[0] != STEAL_K and row[0] != SWAP_K and legal[done] and value <= now:
        return done
    return target0 + seat - 1


def _take_give(tb, st, decision: int) -> int:
    """`_take_give`: SWAP's give, then STEAL's / SWAP's take, by the best plan for the chosen seat."""
    if decision == GIVE:
        return _swap(tb, st, -1, -1)[1]
    row, q = _effect_row(tb, st, st[8][S_CARD]), st[8][S_TARGET]
    if row[0] == STEAL_K:
        return _steal(tb, st, -1, row[2], q)[2]
    return _swap(tb, st, -1, q)[3]


def _best_card(tb, st, legal, coin: bool) -> int:
    """The legal name worth most gained (RECOVER, PICK, ORDER), or gained for a Coin (FLIP)."""
    nn, value, action = tb[T_INTS][I_NN], -math.inf, -1
    for x in range(nn):
        if legal[x]:
            h, c = _copy(st, L_TOP)
            h[0, x] += 1
            if coin:
                _move_coins(c, 0, -1, 1)
            v = _worth(tb, st, h, c)
            if action < 0 or v > value:
                value, action = v, x
    if action < 0:
        return ERROR
    if coin and not value > st[9][U_NOW]:
        return tb[T_INTS][I_DONE]
    return action


def _decide_row(obs, legal, tb, st) -> int:
    """`act` on one row; `ERROR` where `act` raises."""
    count, only = 0, -1
    for a in range(legal.size):
        if legal[a]:
            count, only = count + 1, a
    if count == 1:
        return only
    _read(obs, tb, st)
    ints, s = tb[T_INTS], st[8]
    decision = s[S_DECISION]
    if decision == COMMIT_CARD or decision == EXTRA_COIN or decision == SCRY:
        return _least_desirable(tb, st, legal)
    if decision == COMMIT_COINS:
        return _commit_coins(tb, st, legal)
    if decision == TURN:
        return _turn(tb, st, legal)
    if decision == BUY_SLOT:
        return _buy_slot(tb, st, legal)
    if decision == PRIORITY:
        return _priority(tb, st, legal)
    if decision == DEAL:
        card = _first_max(obs, tb[T_OFFSETS][O_CARD], ints[I_NN])
        row = tb[T_EFFECTS][card]
        if row[0] < 0:
            return ERROR
        return ints[I_YES] if _ability(tb, st, row[0], row[2], card) > st[9][U_NOW] else ints[I_DONE]
    if decision == REACT:
        return _react(tb, st, legal)
    if decision == TARGET:
        return _target(tb, st, legal)
    if decision == TAKE or decision == GIVE:
        return _take_give(tb, st, decision)
    if decision == RECOVER or decision == PICK or decision == ORDER:
        return _best_card(tb, st, legal, False)
    if decision == FLIP:
        return _best_card(tb, st, legal, True)
    return ERROR


def _decide_all(observations, legal, tb, st, actions) -> None:
    for b in range(observations.shape[0]):
        actions[b] = _decide_row(observations[b], legal[b], tb, st)


# The small helpers are inlined: a call that passes the table and state tuples (dozens of arrays)
# costs more than most of them.
INLINED = ("_move_coins", "_dup", "_dup_coins", "_copy", "_base", "_price", "_power", "_effect_row", "_has_outcomes")
CALLED = ("_after_card", "_after_coins", "_expected_max", "_pool_values", "_steal", "_swap", "_ability", "_best_action",
          "_outcome_best_action", "_turn_ability", "_draw", "_turn", "_buy_slot", "_least_desirable", "_commit_coins",
          "_react", "_priority", "_target", "_take_give", "_best_card", "_decide_row")
try:
    from card_envs.numba_cache import njit
except ImportError:  # numba is in the train and batch extras; a bare install plays `act` per row
    _decide_batch = None
else:
    # Compiled without numba's runtime (``_nrt=False``): the kernel allocates nothing (its scratch is
    # the row state, which `act_batch` holds for the call), so no array needs a reference count,
    # and the increments and decrements at every call and view (most of them of the tables'
    # and state's arrays) would cost about 40% of its time.
    for _name in INLINED + CALLED:
        globals()[_name] = njit(cache=True, _nrt=False, inline="always" if _name in INLINED else "never")(
            globals()[_name])
    _decide_batch = njit(cache=True, _nrt=False)(_decide_all)
