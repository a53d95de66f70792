"""Numba kernels of batched Split the Hoard: applying a decision and advancing to the next one.

Line by line the reference's `rules.SplitTheHoardState` (card movements, `apply`, `_advance`,
`_drive`, the phases) and `effects` (the primitives' `start`, `decide`, `answer`, `_resolve`),
for one game b of the state `s` (`kernels.Hoard`) with the tables `t` (`kernels.Tables`). Every
pile keeps the reference's list order, so the same cards move where the reference moves them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from card_envs.batch.split_the_hoard_kernels import (
    CANCEL_ROLE, E_ACTOR, E_GIVE, E_I, E_KIND, E_M, E_N, E_NPOS, E_OPTIONAL, E_PAY, E_QUEUE, E_SLOT, E_SRC, E_STAGE,
    E_TAKE, E_TARGET, GAME_OVER, K_BUY, K_EXTRA_DRAW, K_FLIP, K_ORDER, K_PICK_TOP, K_RECOVER, K_SCRY, K_STEAL,
    K_SWAP, K_TAKE_COINS, K_TAKE_EACH, P_DISCOUNT, P_DRAW_TREASURE, P_EXTRA_ACTION, P_EXTRA_DRAW, P_FLIP_COIN,
    P_GAIN, P_PEEK_DECK, P_PICK_TOP, P_PRINTED_ONLY, P_RECOVER_COINS, P_RECOVER_TREASURE, P_SCRY, P_STEAL,
    P_SWAP, P_TAKE_COINS, P_TAKE_DRAGON, P_TAKE_EACH, PH_CLAIM, PH_DEAL, PH_DRAW2, PH_REVEAL, R_CANCEL_COIN,
    S_COMMIT, S_DRAGON, S_OVER, S_REFILL, S_TURNS, S_WINDOW, ST_BOTTOM, ST_COIN, ST_FLIP, ST_GIVE, ST_NEXT,
    ST_ORDER, ST_PICK, ST_REACT, ST_REACT_CHECK, ST_SLOT, ST_TAKE, ST_TARGET, ability_options, power_available,
    price, reactions)
from card_envs.games.split_the_hoard.effects import (
    BUY_SLOT, COMMIT_CARD, COMMIT_COINS, DEAL, EXTRA_COIN, FLIP, GIVE, ORDER, OVER, PICK, PRIORITY, REACT, RECOVER,
    SCRY, TAKE, TARGET, TURN)
from card_envs.games.split_the_hoard.rules import CLAIM, HAND, NEGOTIATE, REVEAL, SLOTS, STARTING_COINS


# ----- card movements (rules.SplitTheHoardState's) ------------------------------------------------
@njit(cache=True)
def draw(s, b) -> int:
    size = s.deck_len[b]
    if size > 0:
        s.deck_len[b] = size - 1
        return s.deck[b, size - 1]
    s.end_flag[b] = True
    return -1


@njit(cache=True)
def add_coin(s, b, p, c) -> None:
    s.coins[b, p, s.coins_len[b, p]] = c
    s.coins_len[b, p] += 1


@njit(cache=True)
def gain(s, b, p, k) -> None:
    for _ in range(k):
        c = draw(s, b)
        if c < 0:
            return
        add_coin(s, b, p, c)


@njit(cache=True)
def remove_coin_at(s, b, p, i) -> int:
    c = s.coins[b, p, i]
    size = s.coins_len[b, p] - 1
    for j in range(i, size):
        s.coins[b, p, j] = s.coins[b, p, j + 1]
    s.coins_len[b, p] = size
    return c


@njit(cache=True)
def move_coins(s, b, src, dst, k) -> None:
    """Up to k Coins, newest first, from src's Haul to dst's."""
    for _ in range(min(k, s.coins_len[b, src])):
        s.coins_len[b, src] -= 1
        add_coin(s, b, dst, s.coins[b, src, s.coins_len[b, src]])


@njit(cache=True)
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


@njit(cache=True)
def remove_treasure(s, t, b, p, c) -> None:
    size = s.treas_len[b, p] - 1
    j = 0
    while s.treas[b, p, j] != c:
        j += 1
    for i in range(j, size):
        s.treas[b, p, i] = s.treas[b, p, i + 1]
    s.treas_len[b, p] = size
    s.tcount[b, p, t.name[c]] -= 1


@njit(cache=True)
def find_treasure(s, t, b, p, x) -> int:
    for j in range(s.treas_len[b, p]):
        if t.name[s.treas[b, p, j]] == x:
            return s.treas[b, p, j]
    return -1


@njit(cache=True)
def discard_treasure(s, t, b, p, x) -> None:
    c = find_treasure(s, t, b, p, x)
    remove_treasure(s, t, b, p, c)
    s.tdisc[b, s.tdisc_len[b]] = c
    s.tdisc_len[b] += 1


@njit(cache=True)
def add_hand(s, b, p, c) -> None:
    s.hand[b, p, s.hand_len[b, p]] = c
    s.hand_len[b, p] += 1


@njit(cache=True)
def remove_hand(s, t, b, p, x) -> int:
    """The first card of name x in p's hand, taken out."""
    j = 0
    while t.name[s.hand[b, p, j]] != x:
        j += 1
    c = s.hand[b, p, j]
    size = s.hand_len[b, p] - 1
    for i in range(j, size):
        s.hand[b, p, i] = s.hand[b, p, i + 1]
    s.hand_len[b, p] = size
    return c


@njit(cache=True)
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


@njit(cache=True)
def use_reaction(s, t, b, q, a) -> None:
    if a == t.power:
        s.power_used[b, q] = True
    else:
        discard_treasure(s, t, b, q, a)


@njit(cache=True)
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
@njit(cache=True)
def set_eff(s, b, kind, actor, src, stage) -> None:
    s.eff[b, :] = -1
    s.eff[b, E_KIND], s.eff[b, E_ACTOR], s.eff[b, E_SRC], s.eff[b, E_STAGE] = kind, actor, src, stage


@njit(cache=True)
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


@njit(cache=True)
def start_class(s, t, b, p) -> None:
    c = s.classes[b, p]
    start(s, t, b, p, t.cprim[c], t.carg0[c], t.carg1[c], -1)


@njit(cache=True)
def start_card(s, t, b, p, x) -> None:
    start(s, t, b, p, t.prim[x], t.arg0[x], t.arg1[x], x)


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


# ----- the phases (rules.py) ---------------------------------------------------------------------
@njit(cache=True)
def new_turn(s, b) -> None:
    s.actions_left[b], s.discount[b], s.discount_floor[b] = 1, 0, 0
    s.printed_only[b], s.refused_len[b], s.acted[b] = False, 0, False


@njit(cache=True)
def start_window(s, b, stage) -> None:
    s.stage[b], s.prio[b], s.passes[b] = stage, s.dragon[b], 0


@njit(cache=True)
def end_game(s, t, b) -> None:
    """Resolution 10's clean-up: dealt cards and Treasures on Negotiate Cards to the Treasure
    discard, added Coins back to their owners."""
    for p in range(t.n):
        for j in range(s.hand_len[b, p]):
            s.tdisc[b, s.tdisc_len[b]] = s.hand[b, p, j]
            s.tdisc_len[b] += 1
        s.hand_len[b, p] = 0
        for k in range(SLOTS):
            c = s.offer[b, p, k]
            if c >= 0:
                s.tdisc[b, s.tdisc_len[b]] = c
                s.tdisc_len[b] += 1
                s.offer[b, p, k] = -1
            for j in range(s.added_len[b, p, k]):
                add_coin(s, b, p, s.added[b, p, k, j])
            s.added_len[b, p, k] = 0
    for j in range(s.tdisc_len[b]):
        s.known[b, s.tdisc[b, j]] = 0
    s.eff[b, E_KIND] = -1
    s.deals_len[b] = 0
    s.dragon_taker[b] = -1
    s.prio[b], s.passes[b], s.refill_len[b] = s.dragon[b], 0, 0
    s.commit_i[b], s.commit_slot[b], s.turn_i[b] = 0, 0, 0
    new_turn(s, b)
    s.phase[b], s.stage[b], s.decision[b] = GAME_OVER, S_OVER, OVER


@njit(cache=True)
def start_round(s, t, b) -> None:
    n = t.n
    s.phase[b] = REVEAL
    s.power_used[b, :] = False
    s.flipped[b] = False
    if s.deck_len[b] < HAND * n:  # too few cards to deal: the game ends
        end_game(s, t, b)
        return
    scry = -1
    if t.powers and s.deck_len[b] >= HAND * n + 1:  # the Wizard, when the deck can supply his card
        for p in range(n):
            if t.cphase[s.classes[b, p]] == PH_DEAL:
                scry = p
                break
    for i in range(n):
        p = (s.dragon[b] + i) % n
        for _ in range(HAND + (1 if p == scry else 0)):
            s.deck_len[b] -= 1
            add_hand(s, b, p, s.deck[b, s.deck_len[b]])
    start_window(s, b, S_WINDOW)
    if scry >= 0:
        s.power_used[b, scry] = True
        start_class(s, t, b, scry)


@njit(cache=True)
def flip(s, t, b) -> None:
    """All commits turn face up at once: Negotiate begins."""
    for p in range(t.n):
        for k in range(SLOTS):
            if s.offer[b, p, k] >= 0:
                s.known[b, s.offer[b, p, k]] = 0
    s.flipped[b] = True
    s.commit_i[b], s.commit_slot[b] = 0, 0
    s.phase[b], s.stage[b], s.turn_i[b] = NEGOTIATE, S_TURNS, 0
    new_turn(s, b)


@njit(cache=True)
def start_claim(s, t, b) -> None:
    """Added Coins to the Coin discard, unsold Treasures to their owners (from the Dragon Card
    holder); the players who sold all three then draw 3 Treasures each."""
    n = t.n
    s.phase[b], s.turn_i[b] = CLAIM, 0
    new_turn(s, b)
    s.refill_len[b] = 0
    for i in range(n):
        p = (s.dragon[b] + i) % n
        if s.offer[b, p, 0] < 0 and s.offer[b, p, 1] < 0 and s.offer[b, p, 2] < 0:
            s.refill[b, s.refill_len[b]] = p
            s.refill_len[b] += 1
    for i in range(n):
        p = (s.dragon[b] + i) % n
        for k in range(SLOTS):
            for j in range(s.added_len[b, p, k]):
                s.cdisc[b, s.cdisc_len[b]] = s.added[b, p, k, j]
                s.cdisc_len[b] += 1
            s.added_len[b, p, k] = 0
    for i in range(n):
        p = (s.dragon[b] + i) % n
        for k in range(SLOTS):
            if s.offer[b, p, k] >= 0:
                add_treasure(s, t, b, p, s.offer[b, p, k])
                s.offer[b, p, k] = -1
    s.stage[b] = S_REFILL


@njit(cache=True)
def ask(s, b, p, decision) -> bool:
    s.cur[b], s.decision[b] = p, decision
    return True


@njit(cache=True)
def window(s, t, b, phase, after) -> bool:
    """The priority loop: from the Dragon Card holder, each seat uses one ability or passes until
    all pass in a row; a seat with nothing to use passes unasked."""
    n = t.n
    while s.passes[b] < n:
        p = s.prio[b]
        if ability_options(s, t, b, p, phase, None) > 0:
            return ask(s, b, p, PRIORITY)
        s.passes[b] += 1
        s.prio[b] = (p + 1) % n
    s.stage[b] = after
    s.prio[b], s.passes[b] = s.dragon[b], 0
    s.commit_i[b], s.commit_slot[b] = 0, 0
    return False


@njit(cache=True)
def drive(s, t, b) -> bool:
    """rules._drive: one step of the phase in progress; True when it set a decision."""
    n = t.n
    if s.phase[b] == REVEAL:
        if s.stage[b] == S_WINDOW:
            return window(s, t, b, PH_REVEAL, S_COMMIT)
        if s.commit_i[b] == n:
            flip(s, t, b)
            return False
        p = (s.dragon[b] + s.commit_i[b]) % n
        if s.commit_slot[b] < SLOTS - 1:
            return ask(s, b, p, COMMIT_CARD)
        if s.commit_slot[b] == SLOTS - 1:
            s.hand_len[b, p] -= 1
            s.offer[b, p, SLOTS - 1] = s.hand[b, p, s.hand_len[b, p]]
            s.commit_slot[b] = SLOTS
        if s.coins_len[b, p] > 0:
            return ask(s, b, p, COMMIT_COINS)
        s.commit_i[b] += 1
        s.commit_slot[b] = 0
        return False
    if s.phase[b] == NEGOTIATE:
        if s.end_flag[b]:
            end_game(s, t, b)
            return False
        if s.acted[b]:
            s.acted[b] = False
            s.actions_left[b] -= 1
            s.refused_len[b] = 0
            if s.actions_left[b] <= 0:
                s.turn_i[b] += 1
                new_turn(s, b)
                if s.turn_i[b] == n:
                    start_claim(s, t, b)
                    return False
        return ask(s, b, (s.dragon[b] + s.turn_i[b]) % n, TURN)
    # CLAIM
    if s.stage[b] == S_REFILL:
        for j in range(s.refill_len[b]):
            p = s.refill[b, j]
            for _ in range(HAND):
                c = draw(s, b)
                if c < 0:
                    break
                add_treasure(s, t, b, p, c)
        s.refill_len[b] = 0
        start_window(s, b, S_WINDOW)
        return False
    if s.stage[b] == S_WINDOW:
        return window(s, t, b, PH_CLAIM, S_DRAGON)
    if s.end_flag[b]:
        end_game(s, t, b)
        return False
    s.dragon[b] = s.dragon_taker[b] if s.dragon_taker[b] >= 0 else (s.dragon[b] + 1) % n
    s.dragon_taker[b] = -1
    s.round[b] += 1
    start_round(s, t, b)
    return False


@njit(cache=True)
def advance(s, t, b) -> None:
    """rules._advance: everything that needs no decision, up to the next decision or the end."""
    while True:
        if s.phase[b] == GAME_OVER:
            s.decision[b] = OVER
            return
        if s.eff[b, E_KIND] >= 0:
            seat, decision = decide(s, t, b)
            if decision >= 0:
                ask(s, b, seat, decision)
                return
            continue
        if s.end_flag[b] and s.phase[b] == REVEAL:
            end_game(s, t, b)
            continue
        if s.deals_len[b] > 0:
            seat, c = s.deals[b, 0, 0], s.deals[b, 0, 1]
            if s.end_flag[b] and s.phase[b] == NEGOTIATE:
                s.deals_len[b] = 0
                continue
            for j in range(s.treas_len[b, seat]):
                if s.treas[b, seat, j] == c:
                    ask(s, b, seat, DEAL)
                    return
            pop_deal(s, b)
            continue
        if drive(s, t, b):
            return


@njit(cache=True)
def pop_deal(s, b) -> None:
    s.deals_len[b] -= 1
    for j in range(s.deals_len[b]):
        s.deals[b, j, 0], s.deals[b, j, 1] = s.deals[b, j + 1, 0], s.deals[b, j + 1, 1]


# ----- applying a decision (rules.apply) -------------------------------------------------------------
@njit(cache=True)
def use(s, t, b, p, a) -> None:
    """An ability: discard the Treasure (or spend the class power), then its effect."""
    if a == t.power:
        s.power_used[b, p] = True
        start_class(s, t, b, p)
    else:
        discard_treasure(s, t, b, p, a)
        start_card(s, t, b, p, a)


@njit(cache=True)
def turn(s, t, b, p, a) -> None:
    if a == t.draw2:
        gain(s, b, p, 2)
        s.acted[b] = True
        if power_available(s, t, b, p, PH_DRAW2):  # Rogue: Pickpocket, offered until taken
            take_coins(s, b, p, t.carg0[s.classes[b, p]], -1, True)
    elif t.target0 <= a < t.slot0:
        set_eff(s, b, K_BUY, p, -1, ST_SLOT)
        s.eff[b, E_TARGET] = (p + a - t.target0 + 1) % t.n
    else:
        use(s, t, b, p, a)


@njit(cache=True)
def apply_row(s, t, b, a) -> None:
    d, p = s.decision[b], s.cur[b]
    if d == PRIORITY:
        s.prio[b] = (p + 1) % t.n
        if a == t.done:
            s.passes[b] += 1
        else:
            s.passes[b] = 0
            use(s, t, b, p, a)
    elif d == TURN:
        turn(s, t, b, p, a)
    elif d == COMMIT_CARD:
        s.offer[b, p, s.commit_slot[b]] = remove_hand(s, t, b, p, a)
        s.commit_slot[b] += 1
    elif d == COMMIT_COINS:
        if a == t.done:
            s.commit_i[b] += 1
            s.commit_slot[b] = 0
        else:
            k = a - t.slot0
            s.coins_len[b, p] -= 1
            s.added[b, p, k, s.added_len[b, p, k]] = s.coins[b, p, s.coins_len[b, p]]
            s.added_len[b, p, k] += 1
    elif d == DEAL:
        seat, c = s.deals[b, 0, 0], s.deals[b, 0, 1]
        pop_deal(s, b)
        if a == t.yes:
            remove_treasure(s, t, b, seat, c)
            s.tdisc[b, s.tdisc_len[b]] = c
            s.tdisc_len[b] += 1
            start_card(s, t, b, seat, t.name[c])
    elif d != OVER:
        answer(s, t, b, d, a)
    advance(s, t, b)


@njit(cache=True)
def apply(s, t, actions, active) -> None:
    """Each active game b plays actions[b] (legal: not checked) and advances to its next decision."""
    for b in range(actions.shape[0]):
        if active[b]:
            apply_row(s, t, b, actions[b])


# ----- the deal (game.SplitTheHoardGame.new_state) -----------------------------------------------------
@njit(cache=True)
def clear_row(s, b) -> None:
    """Game b as a new reference State: empty piles, no effect, no decision yet."""
    s.deck_len[b] = s.cdisc_len[b] = s.tdisc_len[b] = s.tdeck_len[b] = 0
    s.coins_len[b] = s.treas_len[b] = s.hand_len[b] = s.added_len[b] = 0
    s.tcount[b] = s.known[b] = 0
    s.offer[b] = s.eff[b] = -1
    s.power_used[b] = False
    s.flipped[b] = s.end_flag[b] = s.printed_only[b] = s.acted[b] = False
    s.dragon_taker[b] = -1
    s.phase[b] = s.stage[b] = s.round[b] = s.decision[b] = s.cur[b] = 0
    s.deals_len[b] = s.prio[b] = s.passes[b] = s.commit_i[b] = s.commit_slot[b] = s.turn_i[b] = 0
    s.discount[b] = s.discount_floor[b] = s.refused_len[b] = s.refill_len[b] = 0
    s.actions_left[b] = 1


@njit(cache=True)
def deal(s, t, rows, deck, titles, classes, dragon) -> None:
    """Deal game rows[i] from row i of the shuffles: `deck` (the deck, bottom .. top), `titles`
    and `classes` (permutations; seat p gets the (p+1)-th last Title and the p-th class) and
    `dragon` (the first player); then the first Reveal up to its first decision."""
    n, T = t.n, titles.shape[1]
    for i in range(rows.shape[0]):
        b = rows[i]
        clear_row(s, b)
        s.deck[b] = deck[i]
        s.deck_len[b] = deck.shape[1]
        for p in range(n):
            s.titles[b, p] = titles[i, T - 1 - p]
            s.classes[b, p] = classes[i, p]
        s.tdeck_len[b] = T - n
        s.tdeck[b, :T - n] = np.sort(titles[i, :T - n])
        for p in range(n):
            for _ in range(STARTING_COINS):
                s.deck_len[b] -= 1
                add_coin(s, b, p, s.deck[b, s.deck_len[b]])
        s.dragon[b] = dragon[i]
        start_round(s, t, b)
        advance(s, t, b)
