"""Numba kernels of batched Split the Hoard: the card tables, the legal mask and the observation.

The state is the struct of arrays of `card_envs.batch.split_the_hoard.engine` (its docstring has the
table), passed to the kernels as one named tuple `Hoard` of numpy arrays, with the card list and
configuration as another, `Tables`. Every entry kernel first drops numba's reference counting of
their arrays (`card_envs.batch.numba_borrow`; without it, each call and each inlined helper counted
every array: the mask was 30 times slower). `mask` here and `play.apply`, `play.deal` and
`play.play_forced` take both by reference (`by_reference`: also passed to `mask_one` and
`play.apply_one` as one pointer each, not dozens of arrays copied per call); `encode` borrows both
(`borrowed`); `step.step` and `step.refresh` take the state by reference and borrow the tables,
`scoring.returns` borrows the tables. Each kernel loops over the games
serially (one core, as `card_envs.batch.cpu` explains) and follows the reference code line by line:
`rules.SplitTheHoardState._compute_legal` and `effects.legal` for the mask, `encode.Encoder._encode`
for the observation and the full state vector.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.numba_borrow import borrowed, by_reference
from card_envs.batch.numba_copy import zero_row
from card_envs.games.split_the_hoard.effects import (
    BUY_SLOT, COMMIT_CARD, COMMIT_COINS, DEAL, EXTRA_COIN, FLIP, GIVE, OVER, PICK, PRIMITIVES, PRIORITY, REACT,
    RECOVER, SCRY, TAKE, TARGET, TURN)
from card_envs.games.split_the_hoard.effects import ORDER as ORDER_DECISION
from card_envs.games.split_the_hoard.encode import TOP

# ----- codes ----------------------------------------------------------------------------------
# Phases of cards and class cards, one code space: the first three are also the round's phases
# (rules.REVEAL, NEGOTIATE, CLAIM).
PHASE_CODES = ("reveal", "negotiate", "claim", "negotiate-react", "reaction", "none", "draw2", "deal")
PH_REVEAL, PH_NEGOTIATE, PH_CLAIM, PH_NEGOTIATE_REACT, PH_DRAW2, PH_DEAL = 0, 1, 2, 3, 6, 7
GAME_OVER = 3  # rules.GAME_OVER, the round phase after CLAIM
PRIM_CODES = tuple(PRIMITIVES)  # effect primitive -> its index
(P_GAIN, P_TAKE_COINS, P_TAKE_EACH, P_RECOVER_COINS, P_RECOVER_TREASURE, P_DRAW_TREASURE, P_PICK_TOP, P_PEEK_DECK,
 P_FLIP_COIN, P_EXTRA_DRAW, P_DISCOUNT, P_PRINTED_ONLY, P_REFUSE, P_CANCEL_COIN, P_CANCEL_TREASURE, P_STEAL, P_SWAP,
 P_EXTRA_ACTION, P_TAKE_DRAGON, P_SCRY) = range(20)
assert PRIM_CODES[P_SCRY] == "SCRY" and PRIM_CODES[P_STEAL] == "STEAL" and len(PRIM_CODES) == 20
ROLE_CODES = ("effect", "refuse", "cancel_coin", "cancel_treasure", "class")
R_REFUSE, R_CANCEL_COIN, R_CANCEL_TREASURE = 1, 2, 3
# Effects in progress (`eff[:, E_KIND]`, -1: none) and their stages, as the reference's strings.
EFFECT_KINDS = ("take_coins", "take_each", "recover", "pick_top", "order", "flip", "extra_draw", "steal", "swap",
                "buy", "scry")
K_TAKE_COINS, K_TAKE_EACH, K_RECOVER, K_PICK_TOP, K_ORDER, K_FLIP, K_EXTRA_DRAW, K_STEAL, K_SWAP, K_BUY, K_SCRY = \
    range(11)
EFFECT_STAGES = ("target", "react", "react_check", "next", "pick", "order", "flip", "coin", "take", "give", "slot",
                 "bottom")
(ST_TARGET, ST_REACT, ST_REACT_CHECK, ST_NEXT, ST_PICK, ST_ORDER, ST_FLIP, ST_COIN, ST_TAKE, ST_GIVE, ST_SLOT,
 ST_BOTTOM) = range(len(EFFECT_STAGES))
# Columns of `eff` (int16[B, EFF_FIELDS]); -1 where the kind has no such field.
EFF_FIELDS = ("kind", "actor", "src", "stage", "n", "target", "optional", "queue", "m", "i", "pay", "take", "give",
              "slot", "npos")
(E_KIND, E_ACTOR, E_SRC, E_STAGE, E_N, E_TARGET, E_OPTIONAL, E_QUEUE, E_M, E_I, E_PAY, E_TAKE, E_GIVE, E_SLOT,
 E_NPOS) = range(len(EFF_FIELDS))
# The round's stages (`stage`), as the reference's strings.
STAGE_CODES = ("window", "commit", "turns", "refill", "dragon", "over")
S_WINDOW, S_COMMIT, S_TURNS, S_REFILL, S_DRAGON, S_OVER = range(6)
# Which seats' cards a react cancels, by effect kind (effects.CANCELS as role codes).
CANCEL_ROLE = np.array([R_CANCEL_COIN, R_CANCEL_COIN, -1, -1, -1, -1, -1, R_CANCEL_TREASURE, R_CANCEL_TREASURE,
                        R_REFUSE, -1], dtype=np.int8)

Hoard = namedtuple("Hoard", (
    "deck deck_len cdisc cdisc_len tdisc tdisc_len coins coins_len treas treas_len tcount hand hand_len offer "
    "added added_len known classes titles tdeck tdeck_len power_used flipped dragon dragon_taker phase stage "
    "round end_flag decision cur eff pos deals deals_len prio passes commit_i commit_slot turn_i actions_left "
    "discount discount_floor printed_only refused refused_len acted refill refill_len").split())

Tables = namedtuple("Tables", (
    "n nn num_cards num_classes num_titles max_rounds powers target0 slot0 draw2 yes done power "
    "name phase prim arg0 arg1 role enter cphase cprim carg0 carg1 unit").split())

# Observation / state-vector pieces in the order of `OFFSETS` (-1: not in that layout).
PIECES = ("decision", "to_move", "phase", "dragon", "classes", "powers_used", "coins", "treasures", "offered",
          "offers", "offer_coins", "hand", "hidden_title", "seen_held", "deck_top", "seen_deck", "seen_coin_discard",
          "hands", "hidden_titles", "held", "deck", "coin_discard", "deck_size", "coin_discard_size",
          "treasure_discard", "round", "end_triggered", "turn", "dragon_taker", "effect_card", "effect_take",
          "effect_give", "effect_slot", "effect_seats", "refused")
(O_DECISION, O_TO_MOVE, O_PHASE, O_DRAGON, O_CLASSES, O_POWERS_USED, O_COINS, O_TREASURES, O_OFFERED, O_OFFERS,
 O_OFFER_COINS, O_HAND, O_HIDDEN_TITLE, O_SEEN_HELD, O_DECK_TOP, O_SEEN_DECK, O_SEEN_COIN_DISCARD, O_HANDS,
 O_HIDDEN_TITLES, O_HELD, O_DECK, O_COIN_DISCARD, O_DECK_SIZE, O_COIN_DISCARD_SIZE, O_TREASURE_DISCARD, O_ROUND,
 O_END_TRIGGERED, O_TURN, O_DRAGON_TAKER, O_EFFECT_CARD, O_EFFECT_TAKE, O_EFFECT_GIVE, O_EFFECT_SLOT,
 O_EFFECT_SEATS, O_REFUSED) = range(len(PIECES))


def offsets(layout) -> np.ndarray:
    """int64[len(PIECES)]: where each piece starts in `layout` (-1 where it has none)."""
    return np.array([layout.slices[k].start if k in layout.slices else -1 for k in PIECES], dtype=np.int64)


def tables(game) -> Tables:
    """The card list and configuration of `game` (a SplitTheHoardGame) as the kernels read them."""
    cs = game.cards
    nn = cs.num_names
    prim = np.full(nn, -1, np.int8)
    arg0, arg1 = np.zeros(nn, np.int16), np.zeros(nn, np.int16)
    role = np.full(nn, -1, np.int8)
    for i, effect in enumerate(cs.effect):
        if effect is not None:
            prim[i] = PRIM_CODES.index(effect[0])
            role[i] = ROLE_CODES.index(PRIMITIVES[effect[0]].role)
            args = tuple(effect[1:]) + (0, 0)
            arg0[i], arg1[i] = args[0], args[1]
    classes = cs.classes
    cargs = [tuple(c.effect[1:]) + (0, 0) for c in classes]
    return Tables(
        n=game.num_players, nn=nn, num_cards=cs.num_cards, num_classes=len(classes), num_titles=len(cs.hidden),
        max_rounds=game.max_rounds, powers=game.powers, target0=game.TARGET0, slot0=game.SLOT0, draw2=game.DRAW2,
        yes=game.YES, done=game.DONE, power=game.POWER,
        name=np.array(cs.NAME, np.int16), phase=np.array([PHASE_CODES.index(p) for p in cs.phase], np.int8),
        prim=prim, arg0=arg0, arg1=arg1, role=role, enter=np.array(cs.enter_trigger, np.bool_),
        cphase=np.array([PHASE_CODES.index(c.phase) for c in classes], np.int8),
        cprim=np.array([PRIM_CODES.index(c.effect[0]) for c in classes], np.int8),
        carg0=np.array([a[0] for a in cargs], np.int16), carg1=np.array([a[1] for a in cargs], np.int16),
        unit=1.0 / cs.max_copies)


# ----- queries (rules.SplitTheHoardState's, for one game b) -------------------------------------
@njit(cache=True, inline="always")
def others_with_treasures(s, t, b, actor) -> bool:
    for i in range(1, t.n):
        if s.treas_len[b, (actor + i) % t.n] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def usable(s, t, b, actor, prim, arg0, src) -> bool:
    """effects.usable: can this ability do what it must (`src`: its Treasure's name, -1 a class power)?"""
    if prim == P_RECOVER_TREASURE:
        for j in range(s.tdisc_len[b]):
            if t.name[s.tdisc[b, j]] != src:
                return True
        return False
    if prim == P_FLIP_COIN:
        return s.coins_len[b, actor] > 0
    if prim == P_STEAL:
        return s.coins_len[b, actor] >= arg0 and others_with_treasures(s, t, b, actor)
    if prim == P_SWAP:
        return s.treas_len[b, actor] > (1 if src >= 0 else 0) and others_with_treasures(s, t, b, actor)
    return True


@njit(cache=True, inline="always")
def power_available(s, t, b, p, phase) -> bool:
    if not t.powers or s.power_used[b, p]:
        return False
    c = s.classes[b, p]
    return t.cphase[c] == phase and usable(s, t, b, p, t.cprim[c], t.carg0[c], -1)


@njit(cache=True, inline="always")
def ability_options(s, t, b, p, phase, m) -> int:
    """Mark in `m` (when given) p's abilities usable now in `phase`; returns how many there are."""
    count = 0
    for i in range(t.nn):
        if s.tcount[b, p, i] > 0 and t.phase[i] == phase and usable(s, t, b, p, t.prim[i], t.arg0[i], i):
            count += 1
            if m is not None:
                m[i] = True
    if power_available(s, t, b, p, phase):
        count += 1
        if m is not None:
            m[t.power] = True
    return count


@njit(cache=True, inline="always")
def price(s, b, seller, k) -> int:
    full = k + 1 + (0 if s.printed_only[b] else s.added_len[b, seller, k])
    d = s.discount[b]
    return max(min(full, s.discount_floor[b]), full - d) if d else full


@njit(cache=True, inline="always")
def buyable(s, b, buyer, seller, k) -> bool:
    if s.offer[b, seller, k] < 0:
        return False
    for j in range(s.refused_len[b]):
        if s.refused[b, j] == 3 * seller + k:
            return False
    return price(s, b, seller, k) <= s.coins_len[b, buyer]


@njit(cache=True, inline="always")
def target_action(t, actor, q) -> int:
    return t.target0 + (q - actor) % t.n - 1


@njit(cache=True, inline="always")
def reactions(s, t, b, q, role, m) -> int:
    """rules.reactions: mark in `m` (when given) q's Treasures (and Sanctuary) that cancel an
    effect of this role; returns how many there are."""
    count = 0
    for i in range(t.nn):
        if s.tcount[b, q, i] > 0 and t.role[i] == role:
            count += 1
            if m is not None:
                m[i] = True
    if role == R_REFUSE and power_available(s, t, b, q, PH_NEGOTIATE_REACT):
        count += 1
        if m is not None:
            m[t.power] = True
    return count


# ----- the legal mask ----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def mask_row(s, t, b, m) -> None:
    m[:] = False
    d, p = s.decision[b], s.cur[b]
    if d == OVER:
        return
    if d == PRIORITY:
        ability_options(s, t, b, p, s.phase[b], m)
        m[t.done] = True
    elif d == TURN:
        ability_options(s, t, b, p, PH_NEGOTIATE, m)
        for i in range(1, t.n):
            q = (p + i) % t.n
            for k in range(3):
                if buyable(s, b, p, q, k):
                    m[target_action(t, p, q)] = True
                    break
        m[t.draw2] = True
    elif d == COMMIT_CARD:
        for j in range(s.hand_len[b, p]):
            m[t.name[s.hand[b, p, j]]] = True
    elif d == COMMIT_COINS:
        if s.coins_len[b, p] > 0:
            m[t.slot0] = m[t.slot0 + 1] = m[t.slot0 + 2] = True
        m[t.done] = True
    elif d == DEAL:
        m[t.yes] = m[t.done] = True
    else:
        effect_mask_row(s, t, b, d, m)


@njit(cache=True, inline="always")
def effect_mask_row(s, t, b, d, m) -> None:
    """effects.legal: the answers to the decision `d` of the effect in progress."""
    e = s.eff[b]
    kind, actor = e[E_KIND], e[E_ACTOR]
    if d == REACT:
        q = (actor + 1 + e[E_QUEUE]) % t.n if kind == K_TAKE_EACH else e[E_TARGET]
        reactions(s, t, b, q, CANCEL_ROLE[kind], m)
        m[t.done] = True
    elif d == TARGET:
        for i in range(1, t.n):
            q = (actor + i) % t.n
            if kind == K_TAKE_COINS or s.treas_len[b, q] > 0:
                m[target_action(t, actor, q)] = True
        if kind == K_TAKE_COINS and e[E_OPTIONAL]:
            m[t.done] = True
    elif d == TAKE or d == GIVE:
        q = e[E_TARGET] if d == TAKE else actor
        for j in range(s.treas_len[b, q]):
            m[t.name[s.treas[b, q, j]]] = True
    elif d == RECOVER:
        for j in range(s.tdisc_len[b]):
            x = t.name[s.tdisc[b, j]]
            if x != e[E_SRC]:
                m[x] = True
    elif d == PICK or d == ORDER_DECISION:
        top = s.deck_len[b] - (e[E_I] if d == ORDER_DECISION else 0)
        for j in range(s.deck_len[b] - e[E_M], top):
            m[t.name[s.deck[b, j]]] = True
    elif d == FLIP:
        for j in range(e[E_NPOS]):
            m[t.name[s.coins[b, actor, s.pos[b, j]]]] = True
        m[t.done] = True
    elif d == EXTRA_COIN or d == SCRY:
        for j in range(s.hand_len[b, actor]):
            m[t.name[s.hand[b, actor, j]]] = True
    elif d == BUY_SLOT:
        for k in range(3):
            if buyable(s, b, actor, e[E_TARGET], k):
                m[t.slot0 + k] = True


@njit(cache=True)
def mask_one(s, t, b, m) -> None:
    """`mask_row` compiled once for `mask` and `play.play_forced` (the fused step inlines its own)."""
    mask_row(s, t, b, m)


@njit(cache=True)
def mask(s, t, out) -> None:
    s, t = by_reference(s), by_reference(t)  # to mask_one as pointers
    for b in range(out.shape[0]):
        mask_one(s, t, b, out[b])


# ----- observation and full state ---------------------------------------------------------------
@njit(cache=True, inline="always")
def add(acc, touched, i, w) -> None:
    """acc[i] += w, remembering i (touched[0] counts the indices in touched[1:])."""
    acc[i] += w
    touched[0] += 1
    touched[touched[0]] = i


@njit(cache=True, inline="always")
def encode_row(s, t, o, b, p, full, acc, touched) -> None:
    """encode.Encoder._encode of game b for observer p (`full`: the state vector, p = 0) into the
    float64 scratch `acc` (all zeros), weight by weight in the reference's order of addition per
    index; `touched` lists the indices written (see `add`)."""
    n, nn, unit = t.n, t.nn, t.unit
    per_card = 1.0 / t.num_cards
    name = t.name
    bit = 1 << p
    d = s.decision[b]
    if d != OVER:
        add(acc, touched, o[O_DECISION] + d, 1.0)
        add(acc, touched, o[O_TO_MOVE] + (s.cur[b] - p) % n, 1.0)
        add(acc, touched, o[O_PHASE] + s.phase[b], 1.0)
    add(acc, touched, o[O_DRAGON] + (s.dragon[b] - p) % n, 1.0)
    if s.dragon_taker[b] >= 0:
        add(acc, touched, o[O_DRAGON_TAKER] + (s.dragon_taker[b] - p) % n, 1.0)
    for q in range(n):
        r = (q - p) % n
        add(acc, touched, o[O_CLASSES] + r * t.num_classes + s.classes[b, q], 1.0)
        if s.power_used[b, q]:
            add(acc, touched, o[O_POWERS_USED] + r, 1.0)
        add(acc, touched, o[O_COINS] + r, s.coins_len[b, q] * per_card)
        for j in range(s.treas_len[b, q]):
            add(acc, touched, o[O_TREASURES] + r * nn + name[s.treas[b, q, j]], unit)
        visible = full or s.flipped[b] or q == p
        for k in range(3):
            c = s.offer[b, q, k]
            if c < 0:
                continue
            add(acc, touched, o[O_OFFERED] + r * 3 + k, 1.0)
            if visible:
                add(acc, touched, o[O_OFFERS] + (r * 3 + k) * nn + name[c], 1.0)
                add(acc, touched, o[O_OFFER_COINS] + r * 3 + k, s.added_len[b, q, k] * per_card)
        if full:
            for j in range(s.hand_len[b, q]):
                add(acc, touched, o[O_HANDS] + q * nn + name[s.hand[b, q, j]], unit)
            add(acc, touched, o[O_HIDDEN_TITLES] + q * t.num_titles + s.titles[b, q], 1.0)
            for j in range(s.coins_len[b, q]):
                add(acc, touched, o[O_HELD] + q * nn + name[s.coins[b, q, j]], unit)
            for k in range(3):
                for j in range(s.added_len[b, q, k]):
                    add(acc, touched, o[O_HELD] + q * nn + name[s.added[b, q, k, j]], unit)
        elif q == p:
            for j in range(s.hand_len[b, q]):
                add(acc, touched, o[O_HAND] + name[s.hand[b, q, j]], unit)
    size = s.deck_len[b]
    if full:
        for j in range(min(TOP, size)):
            add(acc, touched, o[O_DECK_TOP] + j * nn + name[s.deck[b, size - 1 - j]], 1.0)
        for j in range(size):
            add(acc, touched, o[O_DECK] + name[s.deck[b, j]], unit)
        for j in range(s.cdisc_len[b]):
            add(acc, touched, o[O_COIN_DISCARD] + name[s.cdisc[b, j]], unit)
    else:
        add(acc, touched, o[O_HIDDEN_TITLE] + s.titles[b, p], 1.0)
        _seen_cards(s, t, o, b, p, bit, acc, touched)
    add(acc, touched, o[O_DECK_SIZE], size * per_card)
    add(acc, touched, o[O_COIN_DISCARD_SIZE], s.cdisc_len[b] * per_card)
    for j in range(s.tdisc_len[b]):
        add(acc, touched, o[O_TREASURE_DISCARD] + name[s.tdisc[b, j]], unit)
    add(acc, touched, o[O_ROUND], min(s.round[b], t.max_rounds) / t.max_rounds)
    if s.end_flag[b]:
        add(acc, touched, o[O_END_TRIGGERED], 1.0)
    if s.phase[b] == PH_NEGOTIATE:
        add(acc, touched, o[O_TURN], min(s.actions_left[b], 3) / 3)
        add(acc, touched, o[O_TURN] + 1, min(s.discount[b], 6) / 6)
        if s.printed_only[b]:
            add(acc, touched, o[O_TURN] + 2, 1.0)
        add(acc, touched, o[O_TURN] + 3, min(s.discount_floor[b], 6) / 6)
        for j in range(s.refused_len[b]):
            code = s.refused[b, j]
            add(acc, touched, o[O_REFUSED] + ((code // 3 - p) % n) * 3 + code % 3, 1.0)
    _effect_pieces(s, t, o, b, p, acc, touched)


@njit(cache=True, inline="always")
def _seen_cards(s, t, o, b, p, bit, acc, touched) -> None:
    """encode.Encoder._seen_card for every face-down card p knows, pile by pile (a card lies in one
    place; all the weights one index receives are equal, so the order of piles changes no sum)."""
    n, nn, unit, name, known = t.n, t.nn, t.unit, t.name, s.known[b]
    size = s.deck_len[b]
    for j in range(size):
        c = s.deck[b, j]
        if known[c] & bit:
            depth = size - 1 - j
            if depth < TOP:
                add(acc, touched, o[O_DECK_TOP] + depth * nn + name[c], 1.0)
            add(acc, touched, o[O_SEEN_DECK] + name[c], unit)
    for j in range(s.cdisc_len[b]):
        c = s.cdisc[b, j]
        if known[c] & bit:
            add(acc, touched, o[O_SEEN_COIN_DISCARD] + name[c], unit)
    for q in range(n):
        base = o[O_SEEN_HELD] + ((q - p) % n) * nn
        if q != p:
            for j in range(s.hand_len[b, q]):
                c = s.hand[b, q, j]
                if known[c] & bit:
                    add(acc, touched, base + name[c], unit)
            for k in range(3):
                c = s.offer[b, q, k]
                if c >= 0 and known[c] & bit:
                    add(acc, touched, base + name[c], unit)
        for j in range(s.coins_len[b, q]):
            c = s.coins[b, q, j]
            if known[c] & bit:
                add(acc, touched, base + name[c], unit)
        for k in range(3):
            for j in range(s.added_len[b, q, k]):
                c = s.added[b, q, k, j]
                if known[c] & bit:
                    add(acc, touched, base + name[c], unit)


@njit(cache=True, inline="always")
def _effect_pieces(s, t, o, b, p, acc, touched) -> None:
    n = t.n
    e = s.eff[b]
    card = -1
    if e[E_KIND] >= 0:
        card = e[E_SRC]
        add(acc, touched, o[O_EFFECT_SEATS] + (e[E_ACTOR] - p) % n, 1.0)
        target = e[E_TARGET]
        if target >= 0:
            add(acc, touched, o[O_EFFECT_SEATS] + n + (target - p) % n, 1.0)
        if e[E_KIND] == K_BUY and e[E_SLOT] >= 0:
            card = t.name[s.offer[b, target, e[E_SLOT]]]
            add(acc, touched, o[O_EFFECT_SLOT] + e[E_SLOT], 1.0)
        if e[E_TAKE] >= 0:
            add(acc, touched, o[O_EFFECT_TAKE] + t.name[e[E_TAKE]], 1.0)
        if e[E_GIVE] >= 0:
            add(acc, touched, o[O_EFFECT_GIVE] + t.name[e[E_GIVE]], 1.0)
    elif s.deals_len[b] > 0 and s.decision[b] != OVER:
        card = t.name[s.deals[b, 0, 1]]
    if card >= 0:
        add(acc, touched, o[O_EFFECT_CARD] + card, 1.0)


@njit(cache=True)
def encode(s, t, o, seat, full, out) -> None:
    """out[b] = game b's observation by seat[b] (`full`: its state vector; seat unused), float32
    of the float64 sums, capped at 1 (as the reference's bincount, astype, minimum). Only the
    indices written are converted and cleared again: an observation is mostly zeros."""
    s, t = borrowed(s), borrowed(t)
    acc, touched = encode_scratch(t, out.shape[1])
    for b in range(out.shape[0]):
        write_row(s, t, o, b, 0 if full else seat[b], full, acc, touched, out[b])


@njit(cache=True, inline="always")
def encode_scratch(t, size):
    """The float64 sums and the written indices ([count, indices...]) `write_row` works in."""
    return np.zeros(size, np.float64), np.zeros(1 + size + 4 * t.num_cards, np.int64)


@njit(cache=True, inline="always")
def write_row(s, t, o, b, p, full, acc, touched, row) -> None:
    """row = game b's observation by p (`full`: its state vector), from `encode_row`'s sums;
    `acc` is left all zeros again."""
    touched[0] = 0
    encode_row(s, t, o, b, p, full, acc, touched)
    zero_row(row)
    for j in range(1, touched[0] + 1):
        i = touched[j]
        row[i] = min(np.float32(acc[i]), np.float32(1.0))
    for j in range(1, touched[0] + 1):
        acc[touched[j]] = 0.0
