"""Numba kernels of batched Split the Hoard: card movements and effects.

Line by line the reference's card movements (`rules.SplitTheHoardState.draw`, `gain`,
`move_coins`, `add_treasure`, ...) and `effects` (the primitives' `start`, `decide`, `answer`,
`_resolve`), for one game b of the state `s` (`kernels.Hoard`) with the tables `t`
(`kernels.Tables`). Every pile keeps the reference's list order, so the same cards move where the
reference moves them.
"""

from __future__ import annotations

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.split_the_hoard.kernels import (
    CANCEL_ROLE, E_ACTOR, E_GIVE, E_I, E_KIND, E_M, E_N, E_NPOS, E_OPTIONAL, E_PAY, E_QUEUE, E_SLOT, E_SRC, E_STAGE,
    E_TAKE, E_TARGET, K_BUY, K_EXTRA_DRAW, K_FLIP, K_ORDER, K_PICK_TOP, K_RECOVER, K_SCRY, K_STEAL, K_SWAP,
    K_TAKE_COINS, K_TAKE_EACH, P_DISCOUNT, P_DRAW_TREASURE, P_EXTRA_ACTION, P_EXTRA_DRAW, P_FLIP_COIN, P_GAIN,
    P_PEEK_DECK, P_PICK_TOP, P_PRINTED_ONLY, P_RECOVER_COINS, P_RECOVER_TREASURE, P_SCRY, P_STEAL, P_SWAP,
    P_TAKE_COINS, P_TAKE_DRAGON, P_TAKE_EACH, R_CANCEL_COIN, ST_BOTTOM, ST_COIN, ST_FLIP, ST_GIVE, ST_NEXT, ST_ORDER,
    ST_PICK, ST_REACT, ST_REACT_CHECK, ST_SLOT, ST_TAKE, ST_TARGET, price, reactions)
from card_envs.games.split_the_hoard.effects import (
    BUY_SLOT, EXTRA_COIN, FLIP, GIVE, ORDER, PICK, REACT, RECOVER, SCRY, TAKE, TARGET)
from card_envs.games.split_the_hoard.rules import SLOTS


# ----- card movements (rules.SplitTheHoardState's) ------------------------------------------------
@njit(cache=True, inline="always")
def draw(s, b) -> int:
    size = s.deck_len[b]
    if size > 0:
        s.deck_len[b] = size - 1
        return s.deck[b, size - 1]
    s.end_flag[b] = True
    return -1


@njit(cache=True, inline="always")
def add_coin(s, b, p, c) -> None:
    s.coins[b, p, s.coins_len[b, p]] = c
    s.coins_len[b, p] += 1


@njit(cache=True, inline="always")
def gain(s, b, p, k) -> None:
    for _ in range(k):
        c = draw(s, b)
        if c < 0:
            return
        add_coin(s, b, p, c)


@njit(cache=True, inline="always")
def pop_at(pile, lens, b, p, j) -> int:
    """``pile[b, p]``'s entry j taken out, the ones after it moved up (the reference's list.pop(j))."""
    c = pile[b, p, j]
    size = lens[b, p] - 1
    for i in range(j, size):
        pile[b, p, i] = pile[b, p, i + 1]
    lens[b, p] = size
    return c


@njit(cache=True, inline="always")
def remove_coin_at(s, b, p, i) -> int:
    return pop_at(s.coins, s.coins_len, b, p, i)


@njit(cache=True, inline="always")
def move_coins(s, b, src, dst, k) -> None:
    """Up to k Coins, newest first, from src's Haul to dst's."""
    for _ in range(min(k, s.coins_len[b, src])):
        s.coins_len[b, src] -= 1
        add_coin(s, b, dst, s.coins[b, src, s.coins_len[b, src]])


@njit(cache=True, inline="always")
def add_treasure(s, t, b, p, c) -> None:
    """A Treasure enters p's Haul (sorted by card id); a Deal-like card queues its trigger."""
    s.known[b, c] = 0
    j = s.treas_len[b, p]
    while j > 0 and s.treas[b, p, j - 1] > c:
        s.treas[b, p, j] = s.treas[b, p, j - 1]
        j -= 1
    s.treas[b, p, j] = c
    s.treas_len[b, p] += 1
    x = t.name[c]
    s.tcount[b, p, x] += 1
    if t.enter[x]:
        s.deals[b, s.deals_len[b], 0] = p
        s.deals[b, s.deals_len[b], 1] = c
        s.deals_len[b] += 1


@njit(cache=True, inline="always")
def remove_treasure(s, t, b, p, c) -> None:
    j = 0
    while s.treas[b, p, j] != c:
        j += 1
    pop_at(s.treas, s.treas_len, b, p, j)
    s.tcount[b, p, t.name[c]] -= 1


@njit(cache=True, inline="always")
def find_treasure(s, t, b, p, x) -> int:
    for j in range(s.treas_len[b, p]):
        if t.name[s.treas[b, p, j]] == x:
            return s.treas[b, p, j]
    return -1


@njit(cache=True, inline="always")
def discard_treasure(s, t, b, p, x) -> None:
    c = find_treasure(s, t, b, p, x)
    remove_treasure(s, t, b, p, c)
    s.tdisc[b, s.tdisc_len[b]] = c
    s.tdisc_len[b] += 1


@njit(cache=True, inline="always")
def add_hand(s, b, p, c) -> None:
    s.hand[b, p, s.hand_len[b, p]] = c
    s.hand_len[b, p] += 1


@njit(cache=True, inline="always")
def remove_hand(s, t, b, p, x) -> int:
    """The first card of name x in p's hand, taken out."""
    j = 0
    while t.name[s.hand[b, p, j]] != x:
        j += 1
    return pop_at(s.hand, s.hand_len, b, p, j)


@njit(cache=True, inline="always")
def look_at_deck(s, b, p, m) -> None:
    """p sees the top m cards; the others lose track of them."""
    size = s.deck_len[b]
    for j in range(size - m, size):
        s.known[b, s.deck[b, j]] = 1 << p


@njit(cache=True)
def look_at_coins(s, b, p, k) -> None:
    """p looks at k of his Coins, the oldest unseen first: their positions, ascending, in `pos`."""
    bit, size = 1 << p, s.coins_len[b, p]
    count = 0
    for want in range(2):  # the unseen ones, then the seen ones
        for i in range(size):
            if count < k and (s.known[b, s.coins[b, p, i]] & bit != 0) == (want == 1):
                s.pos[b, count] = i
                count += 1
    for i in range(1, count):  # ascending
        v, j = s.pos[b, i], i
        while j > 0 and s.pos[b, j - 1] > v:
            s.pos[b, j] = s.pos[b, j - 1]
            j -= 1
        s.pos[b, j] = v
    for i in range(count):
        c = s.coins[b, p, s.pos[b, i]]
        s.known[b, c] |= bit
    s.eff[b, E_NPOS] = count


@njit(cache=True, inline="always")
def use_reaction(s, t, b, q, a) -> None:
    if a == t.power:
        s.power_used[b, q] = True
    else:
        discard_treasure(s, t, b, q, a)


@njit(cache=True, inline="always")
def complete_purchase(s, t, b, buyer, seller, k) -> None:
    move_coins(s, b, buyer, seller, price(s, b, seller, k))
    for j in range(s.added_len[b, seller, k]):
        s.cdisc[b, s.cdisc_len[b]] = s.added[b, seller, k, j]
        s.cdisc_len[b] += 1
    s.added_len[b, seller, k] = 0
    c = s.offer[b, seller, k]
    s.offer[b, seller, k] = -1
    s.discount[b], s.discount_floor[b], s.printed_only[b] = 0, 0, False
    add_treasure(s, t, b, buyer, c)
    s.acted[b] = True


# ----- effects (effects.py) ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def set_eff(s, b, kind, actor, src, stage) -> None:
    s.eff[b, :] = -1
    s.eff[b, E_KIND], s.eff[b, E_ACTOR], s.eff[b, E_SRC], s.eff[b, E_STAGE] = kind, actor, src, stage


@njit(cache=True, inline="always")
def take_coins(s, b, actor, count, src, optional) -> None:
    set_eff(s, b, K_TAKE_COINS, actor, src, ST_TARGET)
    s.eff[b, E_N], s.eff[b, E_OPTIONAL] = count, 1 if optional else 0


@njit(cache=True)
def start(s, t, b, actor, prim, arg0, arg1, src) -> None:
    """effects.start: the primitive `prim` used by `actor` (src: its Treasure's name, -1 a class power)."""
    if prim == P_GAIN:
        gain(s, b, actor, arg0)
    elif prim == P_TAKE_COINS:
        take_coins(s, b, actor, arg0, src, False)
    elif prim == P_TAKE_EACH:
        set_eff(s, b, K_TAKE_EACH, actor, src, ST_NEXT)
        s.eff[b, E_N], s.eff[b, E_QUEUE] = arg0, 0
    elif prim == P_RECOVER_COINS:
        for _ in range(min(arg0, s.cdisc_len[b])):
            s.cdisc_len[b] -= 1
            add_coin(s, b, actor, s.cdisc[b, s.cdisc_len[b]])
    elif prim == P_RECOVER_TREASURE:
        set_eff(s, b, K_RECOVER, actor, src, ST_PICK)
    elif prim == P_DRAW_TREASURE:
        for _ in range(arg0):
            c = draw(s, b)
            if c < 0:
                return
            add_treasure(s, t, b, actor, c)
    elif prim == P_PICK_TOP:
        m = min(arg0, s.deck_len[b])
        if m == 0:
            draw(s, b)  # taking a card from an empty deck is a draw that comes up short
            return
        look_at_deck(s, b, actor, m)
        set_eff(s, b, K_PICK_TOP, actor, src, ST_PICK)
        s.eff[b, E_M], s.eff[b, E_I] = m, 0
    elif prim == P_PEEK_DECK:
        m = min(arg0, s.deck_len[b])
        if m >= 1:
            look_at_deck(s, b, actor, m)
        if m >= 2:
            set_eff(s, b, K_ORDER, actor, src, ST_ORDER)
            s.eff[b, E_M], s.eff[b, E_I] = m, 0
    elif prim == P_FLIP_COIN:
        set_eff(s, b, K_FLIP, actor, src, ST_FLIP)
        look_at_coins(s, b, actor, arg0)
    elif prim == P_EXTRA_DRAW:
        c = draw(s, b)
        if c < 0:
            return
        add_hand(s, b, actor, c)
        set_eff(s, b, K_EXTRA_DRAW, actor, src, ST_COIN)
    elif prim == P_DISCOUNT:
        s.discount[b] += arg0
        s.discount_floor[b] = max(s.discount_floor[b], arg1)
    elif prim == P_PRINTED_ONLY:
        s.printed_only[b] = True
    elif prim == P_STEAL:
        set_eff(s, b, K_STEAL, actor, src, ST_TARGET)
        s.eff[b, E_PAY] = arg0
    elif prim == P_SWAP:
        set_eff(s, b, K_SWAP, actor, src, ST_GIVE)
    elif prim == P_EXTRA_ACTION:
        s.actions_left[b] += 1
    elif prim == P_TAKE_DRAGON:
        s.dragon_taker[b] = actor
    elif prim == P_SCRY:
        set_eff(s, b, K_SCRY, actor, src, ST_BOTTOM)


@njit(cache=True, inline="always")
def start_class(s, t, b, p) -> None:
    c = s.classes[b, p]
    start(s, t, b, np.int64(p), t.cprim[c], t.carg0[c], t.carg1[c], np.int64(-1))  # one specialization: 20 s


@njit(cache=True, inline="always")
def start_card(s, t, b, p, x) -> None:
    start(s, t, b, np.int64(p), t.prim[x], t.arg0[x], t.arg1[x], np.int64(x))


@njit(cache=True)
def resolve(s, t, b) -> None:
    """effects._resolve: the effect its target did not cancel, then finished."""
    e = s.eff[b]
    kind, actor, target = e[E_KIND], e[E_ACTOR], e[E_TARGET]
    count, pay, take, give, slot = e[E_N], e[E_PAY], e[E_TAKE], e[E_GIVE], e[E_SLOT]
    e[E_KIND] = -1
    if kind == K_TAKE_COINS:
        move_coins(s, b, target, actor, count)
    elif kind == K_STEAL:
        move_coins(s, b, actor, target, pay)
        remove_treasure(s, t, b, target, take)
        add_treasure(s, t, b, actor, take)
    elif kind == K_SWAP:
        remove_treasure(s, t, b, actor, give)
        remove_treasure(s, t, b, target, take)
        add_treasure(s, t, b, actor, take)
        add_treasure(s, t, b, target, give)
    elif kind == K_BUY:
        complete_purchase(s, t, b, actor, target, slot)


@njit(cache=True)
def decide(s, t, b) -> tuple:
    """effects.decide: (seat, decision) the effect asks next; decision -1 once it is finished."""
    n, e = t.n, s.eff[b]
    kind, stage, actor = e[E_KIND], e[E_STAGE], e[E_ACTOR]
    if stage == ST_REACT_CHECK and (kind == K_TAKE_COINS or kind == K_STEAL or kind == K_SWAP or kind == K_BUY):
        if reactions(s, t, b, e[E_TARGET], CANCEL_ROLE[kind], None) > 0:
            e[E_STAGE] = ST_REACT
            return int(e[E_TARGET]), REACT
        resolve(s, t, b)
        return 0, -1
    if stage == ST_REACT:
        return int((actor + 1 + e[E_QUEUE]) % n if kind == K_TAKE_EACH else e[E_TARGET]), REACT
    if kind == K_TAKE_EACH:
        while e[E_QUEUE] < n - 1:
            q = (actor + 1 + e[E_QUEUE]) % n
            if reactions(s, t, b, q, R_CANCEL_COIN, None) > 0:
                e[E_STAGE] = ST_REACT
                return int(q), REACT
            move_coins(s, b, q, actor, e[E_N])
            e[E_QUEUE] += 1
        e[E_KIND] = -1
        return 0, -1
    if kind == K_ORDER:
        if e[E_M] - e[E_I] <= 1:
            e[E_KIND] = -1
            return 0, -1
        return int(actor), ORDER
    if stage == ST_TARGET:
        return int(actor), TARGET
    if stage == ST_PICK:
        return int(actor), (RECOVER if kind == K_RECOVER else PICK)
    if stage == ST_FLIP:
        return int(actor), FLIP
    if stage == ST_COIN:
        return int(actor), EXTRA_COIN
    if stage == ST_TAKE:
        return int(actor), TAKE
    if stage == ST_GIVE:
        return int(actor), GIVE
    if stage == ST_SLOT:
        return int(actor), BUY_SLOT
    return int(actor), SCRY  # ST_BOTTOM


@njit(cache=True)
def answer(s, t, b, d, a) -> None:
    """effects.answer: the legal answer `a` to the effect's decision `d`."""
    n, e = t.n, s.eff[b]
    kind, actor = e[E_KIND], e[E_ACTOR]
    if d == REACT:
        q = (actor + 1 + e[E_QUEUE]) % n if kind == K_TAKE_EACH else e[E_TARGET]
        if a == t.done:
            if kind == K_TAKE_EACH:
                move_coins(s, b, q, actor, e[E_N])
                e[E_QUEUE] += 1
                e[E_STAGE] = ST_NEXT
            else:
                resolve(s, t, b)
            return
        use_reaction(s, t, b, q, a)
        if kind == K_TAKE_EACH:
            e[E_QUEUE] += 1
            e[E_STAGE] = ST_NEXT
            return
        if kind == K_BUY:
            s.refused[b, s.refused_len[b]] = SLOTS * e[E_TARGET] + e[E_SLOT]
            s.refused_len[b] += 1
        e[E_KIND] = -1
    elif d == TARGET:
        if a == t.done:
            e[E_KIND] = -1
            return
        if kind == K_TAKE_COINS and e[E_OPTIONAL] == 1:  # Pickpocket: spent when taken
            s.power_used[b, actor] = True
        e[E_TARGET] = (actor + a - t.target0 + 1) % n
        e[E_STAGE] = ST_REACT_CHECK if kind == K_TAKE_COINS else ST_TAKE
    elif d == TAKE:
        e[E_TAKE] = find_treasure(s, t, b, e[E_TARGET], a)
        e[E_STAGE] = ST_REACT_CHECK
    elif d == GIVE:
        e[E_GIVE] = find_treasure(s, t, b, actor, a)
        e[E_STAGE] = ST_TARGET
    elif d == RECOVER:
        j = s.tdisc_len[b] - 1
        while t.name[s.tdisc[b, j]] != a:
            j -= 1
        c = s.tdisc[b, j]
        s.tdisc_len[b] -= 1
        for i in range(j, s.tdisc_len[b]):
            s.tdisc[b, i] = s.tdisc[b, i + 1]
        add_treasure(s, t, b, actor, c)
        e[E_KIND] = -1
    elif d == PICK:
        top, m, src = s.deck_len[b], e[E_M], e[E_SRC]
        j = top - 1
        while t.name[s.deck[b, j]] != a:
            j -= 1
        c = s.deck[b, j]
        for i in range(j, top - 1):
            s.deck[b, i] = s.deck[b, i + 1]
        s.deck_len[b] = top - 1
        add_treasure(s, t, b, actor, c)
        set_eff(s, b, K_ORDER, actor, src, ST_ORDER)
        e[E_M], e[E_I] = m - 1, 0
    elif d == ORDER:
        top = s.deck_len[b] - 1 - e[E_I]  # the position being filled, from the top down
        j = top
        while t.name[s.deck[b, j]] != a:
            j -= 1
        s.deck[b, j], s.deck[b, top] = s.deck[b, top], s.deck[b, j]
        e[E_I] += 1
    elif d == FLIP:
        e[E_KIND] = -1
        if a != t.done:
            j = 0
            while t.name[s.coins[b, actor, s.pos[b, j]]] != a:
                j += 1
            add_treasure(s, t, b, actor, remove_coin_at(s, b, actor, s.pos[b, j]))
    elif d == EXTRA_COIN:
        c = remove_hand(s, t, b, actor, a)
        add_coin(s, b, actor, c)
        s.known[b, c] |= 1 << actor
        e[E_KIND] = -1
    elif d == SCRY:
        c = remove_hand(s, t, b, actor, a)
        for i in range(s.deck_len[b], 0, -1):
            s.deck[b, i] = s.deck[b, i - 1]
        s.deck[b, 0] = c
        s.deck_len[b] += 1
        s.known[b, c] = 1 << actor
        e[E_KIND] = -1
    elif d == BUY_SLOT:
        e[E_SLOT] = a - t.slot0
        e[E_STAGE] = ST_REACT_CHECK
