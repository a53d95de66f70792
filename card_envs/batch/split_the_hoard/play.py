"""Numba kernels of batched Split the Hoard: the phases, applying a decision, advancing to the
next one, the forced decisions and the deal.

Line by line the reference's `rules.SplitTheHoardState` (`apply`, `_advance`, `_drive`, the
phases) and `game.SplitTheHoardGame.new_state`, for one game b of the state `s`
(`kernels.Hoard`) with the tables `t` (`kernels.Tables`); card movements and effects are in
`split_the_hoard_effects`.
"""

from __future__ import annotations

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.split_the_hoard.effects import (
    add_coin, add_hand, add_treasure, answer, decide, discard_treasure, draw, gain, remove_hand, remove_treasure,
    set_eff, start_card, start_class, take_coins)
from card_envs.batch.numba_borrow import by_reference
from card_envs.batch.split_the_hoard.kernels import (
    E_KIND, E_TARGET, GAME_OVER, K_BUY, PH_CLAIM, PH_DEAL, PH_DRAW2, PH_REVEAL, S_COMMIT, S_DRAGON, S_OVER,
    S_REFILL, S_TURNS, S_WINDOW, ST_SLOT, ability_options, mask_one, power_available)
from card_envs.games.split_the_hoard.effects import (
    COMMIT_CARD, COMMIT_COINS, DEAL, OVER, PRIORITY, TURN)
from card_envs.games.split_the_hoard.rules import CLAIM, HAND, NEGOTIATE, REVEAL, SLOTS, STARTING_COINS


# ----- the phases (rules.py) ---------------------------------------------------------------------
@njit(cache=True, inline="always")
def new_turn(s, b) -> None:
    s.actions_left[b], s.discount[b], s.discount_floor[b] = 1, 0, 0
    s.printed_only[b], s.refused_len[b], s.acted[b] = False, 0, False


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def drive(s, t, b) -> bool:
    """rules._drive: one step of the phase in progress; True when it set a decision."""
    n = t.n
    if s.phase[b] == REVEAL:
        if s.stage[b] == S_WINDOW:
            return window(s, t, b, np.int64(PH_REVEAL), np.int64(S_COMMIT))  # not literals: one specialization
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
        return window(s, t, b, np.int64(PH_CLAIM), np.int64(S_DRAGON))
    if s.end_flag[b]:
        end_game(s, t, b)
        return False
    s.dragon[b] = s.dragon_taker[b] if s.dragon_taker[b] >= 0 else (s.dragon[b] + 1) % n
    s.dragon_taker[b] = -1
    s.round[b] += 1
    start_round(s, t, b)
    return False


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def pop_deal(s, b) -> None:
    s.deals_len[b] -= 1
    for j in range(s.deals_len[b]):
        s.deals[b, j, 0], s.deals[b, j, 1] = s.deals[b, j + 1, 0], s.deals[b, j + 1, 1]


# ----- applying a decision (rules.apply) -------------------------------------------------------------
@njit(cache=True, inline="always")
def use(s, t, b, p, a) -> None:
    """An ability: discard the Treasure (or spend the class power), then its effect."""
    if a == t.power:
        s.power_used[b, p] = True
        start_class(s, t, b, p)
    else:
        discard_treasure(s, t, b, p, a)
        start_card(s, t, b, p, a)


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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
def apply_one(s, t, b, a) -> None:
    """`apply_row` compiled once for `apply` and `play_forced` (the rules inlined into each were
    compiled twice: a third of the engine's compile time); the state and tables come by reference
    (`numba_borrow.by_reference`), as copying their arrays into every call would cost more than
    most decisions."""
    apply_row(s, t, b, a)


@njit(cache=True)
def apply(s, t, actions, active) -> None:
    """Each active game b plays actions[b] (legal: not checked) and advances to its next decision."""
    s, t = by_reference(s), by_reference(t)  # to apply_one as pointers, not ~70 arrays copied per call
    for b in range(actions.shape[0]):
        if active[b]:
            apply_one(s, t, b, int(actions[b]))


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
    s, t = by_reference(s), by_reference(t)  # the rules' helpers then compile once, for `apply_one`'s types
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


@njit(cache=True)
def play_forced(s, t, mask, ended) -> None:
    """`BatchGame._play_forced` game by game: each plays its single-choice decisions until it has
    a real choice (its row of `mask`) or its game ends (`ended`; that row of `mask` is stale)."""
    s, t = by_reference(s), by_reference(t)
    for b in range(mask.shape[0]):
        ended[b] = False
        m = mask[b]
        while True:
            mask_one(s, t, b, m)
            first, count = 0, 0
            for a in range(m.shape[0]):
                if m[a]:
                    first, count = (a if count == 0 else first), count + 1
                    if count == 2:
                        break
            if count != 1:
                break
            apply_one(s, t, b, first)
            if s.decision[b] == OVER:
                ended[b] = True
                break
