"""Split the Hoard snapshots: a versioned, human-readable JSON of the whole state, and the one
validation that states the game's invariants.

Cards are written by name. A face-down card that some seat has seen beyond its owner (a peeked
deck card, a looked-at Coin) is written ``"Emerald (seen by 0,2)"``. Seats are absolute. The loader
refuses, with a ValueError naming the field and showing at most ~80 characters of the input:
a wrong type or range; a card list that does not hold every Hoard card exactly once; hands, commits
and Negotiate Cards that do not fit the phase; Titles and classes not dealt once; a pending effect
whose fields do not fit its kind; a deck holding more cards than the starting Coins and the deals
so far leave, more Coins or more or fewer Treasures than the draws so far can give (`_check_counts`),
round 0 Hauls holding Treasures or Coins it cannot give, cards in a pile the rules cannot put
them in at that point (`_check_piles`), class powers used out of their phase or under
tiebreak_only; and a pending decision that is not the one the rules would ask in that position
(loading then advancing must change nothing, and at least one answer is legal).
"""

from __future__ import annotations

from typing import Any

from card_envs.core.game import Game
from card_envs.core.snapshot import check_keys, key_problems, read_int, read_list, show
from card_envs.core.text import some
from card_envs.games.split_the_hoard.effects import DECISION_NAMES, OVER
from card_envs.games.split_the_hoard.rules import (
    CLAIM, GAME_OVER, HAND, NEGOTIATE, PHASE_NAMES, REVEAL, SLOTS, STARTING_COINS, SplitTheHoardState)

KEYS = ("game", "format", "num_players", "round", "phase", "stage", "dragon", "dragon_taker", "end_triggered",
        "current_player", "decision", "classes", "hidden_titles", "title_deck", "deck", "coin_discard",
        "treasure_discard", "coins", "treasures", "hands", "negotiate_cards", "flipped", "powers_used",
        "priority", "commit", "turn", "refill", "effect", "deal_triggers")
STAGES = {REVEAL: ("window", "commit"), NEGOTIATE: ("turns",), CLAIM: ("refill", "window", "dragon"),
          GAME_OVER: ("over",)}
EFFECT_KEYS = {
    "take_coins": ("n", "target", "optional"), "take_each": ("n", "queue"), "recover": (),
    "pick_top": ("m", "i"), "order": ("m", "i"), "flip": ("pos",), "extra_draw": (),
    "steal": ("pay", "target", "take"), "swap": ("give", "target", "take"), "buy": ("target", "slot"),
    "scry": (),
}
EFFECT_STAGES = {
    "take_coins": ("target", "react"), "take_each": ("react",), "recover": ("pick",), "pick_top": ("pick",),
    "order": ("order",), "flip": ("flip",), "extra_draw": ("coin",), "steal": ("target", "take", "react"),
    "swap": ("give", "target", "take", "react"), "buy": ("slot", "react"), "scry": ("bottom",),
}
SEEN = " (seen by "


# ----- writing ---------------------------------------------------------------------------------
def state_to_json(s: SplitTheHoardState) -> dict[str, Any]:
    g = s.game
    cs = g.cards
    n = g.num_players
    names = cs.names
    NAME = cs.NAME

    def face_down(c: int) -> str:
        bits = s.known_by[c]
        if not bits:
            return names[NAME[c]]
        return f"{names[NAME[c]]}{SEEN}{','.join(str(q) for q in range(n) if bits >> q & 1)})"

    e = s.eff
    effect = None
    if e is not None:
        effect = {"kind": e["k"], "actor": e["actor"], "stage": e["stage"],
                  "source": names[e["src"]] if e["src"] >= 0 else None}
        for key in EFFECT_KEYS[e["k"]]:
            v = e[key]
            if key in ("take", "give"):
                v = names[NAME[v]] if v >= 0 else None
            elif key in ("queue", "pos"):
                v = list(v)
            effect[key] = v
    return {
        "game": g.name, "format": g.snapshot_format, "num_players": n,
        "round": s.round, "phase": PHASE_NAMES[s.phase], "stage": s.stage, "dragon": s.dragon,
        "dragon_taker": s.dragon_taker, "end_triggered": s.end_flag,
        "current_player": s.current_player, "decision": DECISION_NAMES[s.decision],
        "classes": [cs.class_names[c] for c in s.classes],
        "hidden_titles": [cs.title_names[t] for t in s.titles],
        "title_deck": [cs.title_names[t] for t in s.title_deck],
        "deck": [face_down(c) for c in s.deck],
        "coin_discard": [face_down(c) for c in s.coin_discard],
        "treasure_discard": [names[NAME[c]] for c in s.treasure_discard],
        "coins": [[face_down(c) for c in s.coins[p]] for p in range(n)],
        "treasures": [[names[NAME[c]] for c in s.treasures[p]] for p in range(n)],
        "hands": [[face_down(c) for c in s.hand[p]] for p in range(n)],
        "negotiate_cards": [[{"treasure": face_down(s.offer[p][k]) if s.offer[p][k] >= 0 else None,
                              "coins": [face_down(c) for c in s.added[p][k]]} for k in range(SLOTS)]
                            for p in range(n)],
        "flipped": s.flipped, "powers_used": list(s.power_used),
        "priority": {"seat": s.prio, "passes": s.passes},
        "commit": {"seats_done": s.commit_i, "slot": s.commit_slot},
        "turn": {"turns_done": s.turn_i, "actions_left": s.actions_left, "acted": s.acted,
                 "discount": s.discount, "discount_floor": s.discount_floor, "printed_only": s.printed_only,
                 "refused": [[q, k] for q, k in s.refused]},
        "refill": list(s.refill),
        "effect": effect,
        "deal_triggers": [[q, names[NAME[c]]] for q, c in s.deals],
    }


# ----- reading ---------------------------------------------------------------------------------
class _Cards:
    """Hands out card ids by name, each once: card conservation is checked as cards are read."""

    def __init__(self, game: Game):
        self.cs = game.cards
        self.n = game.num_players
        self.free = [list(range(f, f + r.copies))[::-1] for f, r in zip(self.cs.first_card, self.cs.rows)]
        self.where: dict[int, str] = {}
        self.known: dict[int, int] = {}

    def card(self, value: Any, field: str, hidden: bool) -> int:
        if not isinstance(value, str):
            raise ValueError(f"{field}: {show(value)} must be a card name")
        name, bits = value, 0
        if value.endswith(")") and SEEN in value:
            if not hidden:
                raise ValueError(f"{field}: {show(value)}: only a face-down card can be seen by some seats")
            name, _, seats = value[:-1].partition(SEEN)
            for part in seats.split(","):
                if not part.isdigit() or int(part) >= self.n or bits >> int(part) & 1:
                    raise ValueError(f"{field}: {show(value)}: 'seen by' lists distinct seats 0..{self.n - 1}")
                bits |= 1 << int(part)
        i = self.cs.name_index.get(name)
        if i is None:
            raise ValueError(f"{field}: {show(value)} is not a Hoard card name")
        if not self.free[i]:
            raise ValueError(f"{field}: one {name!r} too many; a snapshot holds each of the "
                             f"{self.cs.rows[i].copies} {name!r} cards exactly once")
        c = self.free[i].pop()
        self.where[c] = field
        self.known[c] = bits
        return c

    def cards(self, value: Any, field: str, hidden: bool, limit: int | None = None) -> list[int]:
        items = read_list(value, field, most=self.cs.num_cards if limit is None else limit)
        return [self.card(v, f"{field}[{i}]", hidden) for i, v in enumerate(items)]

    def check_all_placed(self) -> None:
        missing = [self.cs.names[i] for i, free in enumerate(self.free) if free]
        if missing:
            raise ValueError(f"cards: {show(missing)} missing; a snapshot holds each of the "
                             f"{self.cs.num_cards} Hoard cards exactly once")


def _bool(value: Any, field: str) -> bool:
    if type(value) is not bool:
        raise ValueError(f"{field}: {show(value)} must be true or false")
    return value


def _dict(value: Any, field: str, keys: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{field}: {show(value)} must be an object with the keys {some(keys)}")
    if set(value) != set(keys):
        raise ValueError(f"{field}: {key_problems(value, keys)}")
    return value


def _choice(value: Any, field: str, options) -> int:
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{field}: {show(value)} must be one of {some(options, value)}")
    return list(options).index(value)


def _seats(value: Any, field: str, n: int, exclude: int = -1) -> list[int]:
    seats = [read_int(v, f"{field}[{i}]", n - 1) for i, v in enumerate(read_list(value, field, most=n))]
    if len(set(seats)) != len(seats) or exclude in seats:
        raise ValueError(f"{field}: {show(value)} must list distinct seats" + (f" other than {exclude}" if exclude >= 0 else ""))
    return seats


def state_from_json(game: Game, data: Any) -> SplitTheHoardState:
    check_keys(data, game, {game.snapshot_format: KEYS})
    s = SplitTheHoardState(game)
    _read(game, s, data)
    validate(s, data)
    return s


def _read(game: Game, s: SplitTheHoardState, data: dict) -> None:
    cs = game.cards
    n = game.num_players
    s.round = read_int(data["round"], "round", game.max_rounds)
    s.phase = _choice(data["phase"], "phase", PHASE_NAMES)
    if data["stage"] not in STAGES[s.phase]:
        raise ValueError(f"stage: {show(data['stage'])} is not a stage of phase {PHASE_NAMES[s.phase]!r}: "
                         f"{some(STAGES[s.phase], data['stage'])}")
    s.stage = data["stage"]
    s.dragon = read_int(data["dragon"], "dragon", n - 1)
    s.dragon_taker = read_int(data["dragon_taker"], "dragon_taker", n - 1, -1)
    s.end_flag = _bool(data["end_triggered"], "end_triggered")
    s.current_player = read_int(data["current_player"], "current_player", n - 1)
    s.decision = _choice(data["decision"], "decision", DECISION_NAMES)
    classes = read_list(data["classes"], "classes", n)
    s.classes = [_choice(c, f"classes[{i}]", cs.class_names) for i, c in enumerate(classes)]
    if len(set(s.classes)) != n:
        raise ValueError(f"classes: {show(classes)}: each class is dealt to one player at most")
    titles = read_list(data["hidden_titles"], "hidden_titles", n)
    s.titles = [_choice(t, f"hidden_titles[{i}]", cs.title_names) for i, t in enumerate(titles)]
    deck = read_list(data["title_deck"], "title_deck", len(cs.hidden) - n)
    s.title_deck = [_choice(t, f"title_deck[{i}]", cs.title_names) for i, t in enumerate(deck)]
    if len(set(s.titles + s.title_deck)) != len(cs.hidden):
        raise ValueError("hidden_titles, title_deck: each hidden Title must be dealt or in the Title deck exactly once")
    if s.title_deck != sorted(s.title_deck):
        raise ValueError("title_deck: must be listed in card-list order (its order is never used)")
    pool = _Cards(game)
    s.deck = pool.cards(data["deck"], "deck", True)
    s.coin_discard = pool.cards(data["coin_discard"], "coin_discard", True)
    s.treasure_discard = pool.cards(data["treasure_discard"], "treasure_discard", False)
    coins = read_list(data["coins"], "coins", n)
    s.coins = [pool.cards(v, f"coins[{p}]", True) for p, v in enumerate(coins)]
    treasures = read_list(data["treasures"], "treasures", n)
    s.treasures = [sorted(pool.cards(v, f"treasures[{p}]", False)) for p, v in enumerate(treasures)]
    for p in range(n):
        for c in s.treasures[p]:
            s.tcount[p][cs.NAME[c]] += 1
    hands = read_list(data["hands"], "hands", n)
    s.hand = [pool.cards(v, f"hands[{p}]", True, HAND + 1) for p, v in enumerate(hands)]
    s.flipped = _bool(data["flipped"], "flipped")
    offers = read_list(data["negotiate_cards"], "negotiate_cards", n)
    for p, row in enumerate(offers):
        row = read_list(row, f"negotiate_cards[{p}]", SLOTS)
        for k, slot in enumerate(row):
            field = f"negotiate_cards[{p}][{k}]"
            slot = _dict(slot, field, ("treasure", "coins"))
            if slot["treasure"] is not None:
                s.offer[p][k] = pool.card(slot["treasure"], f"{field}.treasure", not s.flipped)
            s.added[p][k] = pool.cards(slot["coins"], f"{field}.coins", True)
    pool.check_all_placed()
    for c, bits in pool.known.items():
        s.known_by[c] = bits
    s.seen = {c for c, bits in pool.known.items() if bits}
    used = read_list(data["powers_used"], "powers_used", n)
    s.power_used = [_bool(v, f"powers_used[{p}]") for p, v in enumerate(used)]
    prio = _dict(data["priority"], "priority", ("seat", "passes"))
    s.prio = read_int(prio["seat"], "priority.seat", n - 1)
    s.passes = read_int(prio["passes"], "priority.passes", n - 1)
    commit = _dict(data["commit"], "commit", ("seats_done", "slot"))
    s.commit_i = read_int(commit["seats_done"], "commit.seats_done", n)
    s.commit_slot = read_int(commit["slot"], "commit.slot", SLOTS)
    turn = _dict(data["turn"], "turn", ("turns_done", "actions_left", "acted", "discount", "discount_floor",
                                        "printed_only", "refused"))
    s.turn_i = read_int(turn["turns_done"], "turn.turns_done", n - 1)
    s.actions_left = read_int(turn["actions_left"], "turn.actions_left", 1 + cs.num_cards, 1)
    s.acted = _bool(turn["acted"], "turn.acted")
    s.discount = read_int(turn["discount"], "turn.discount", 20 * cs.num_cards)
    s.discount_floor = read_int(turn["discount_floor"], "turn.discount_floor", 20)
    s.printed_only = _bool(turn["printed_only"], "turn.printed_only")
    refused = []
    for i, pair in enumerate(read_list(turn["refused"], "turn.refused")[:n * SLOTS + 1]):
        pair = read_list(pair, f"turn.refused[{i}]", 2)
        refused.append((read_int(pair[0], f"turn.refused[{i}][0]", n - 1),
                        read_int(pair[1], f"turn.refused[{i}][1]", SLOTS - 1)))
    if len(set(refused)) != len(refused) or len(refused) != len(turn["refused"]):
        raise ValueError(f"turn.refused: {show(turn['refused'])} must list distinct [seat, card] pairs")
    s.refused = refused
    s.refill = _seats(data["refill"], "refill", n)
    s.eff = _read_effect(game, s, data["effect"])
    s.deals = []
    taken: set[int] = set()
    for i, pair in enumerate(read_list(data["deal_triggers"], "deal_triggers")[:cs.num_cards + 1]):
        field = f"deal_triggers[{i}]"
        pair = read_list(pair, field, 2)
        q = read_int(pair[0], f"{field}[0]", n - 1)
        name = cs.name_index.get(pair[1]) if isinstance(pair[1], str) else None
        if name is None or not cs.enter_trigger[name]:
            raise ValueError(f"{field}: {show(pair[1])} is not a card that triggers on entering a Haul")
        card = next((c for c in s.treasures[q] if cs.NAME[c] == name and c not in taken), -1)
        if card < 0:
            raise ValueError(f"{field}: seat {q} has no (other) {pair[1]!r} among its Treasures")
        taken.add(card)
        s.deals.append((q, card))


def _read_effect(game: Game, s: SplitTheHoardState, value: Any) -> dict | None:
    if value is None:
        return None
    cs = game.cards
    n = game.num_players
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str) or value["kind"] not in EFFECT_KEYS:
        kind = value.get("kind") if isinstance(value, dict) else None
        raise ValueError(f"effect: {show(value)} must be null or an object with a kind in {some(EFFECT_KEYS, kind)}")
    kind = value["kind"]
    _dict(value, "effect", ("kind", "actor", "stage", "source") + EFFECT_KEYS[kind])
    e: dict[str, Any] = {"k": kind, "actor": read_int(value["actor"], "effect.actor", n - 1)}
    actor = e["actor"]
    if value["stage"] not in EFFECT_STAGES[kind]:
        raise ValueError(f"effect.stage: {show(value['stage'])} is not a waiting stage of {kind}: "
                         f"{some(EFFECT_STAGES[kind], value['stage'])}")
    e["stage"] = value["stage"]
    src = value["source"]
    e["src"] = -1 if src is None else _choice(src, "effect.source", cs.names)
    for key in EFFECT_KEYS[kind]:
        v, field = value[key], f"effect.{key}"
        if key in ("n", "pay"):
            e[key] = read_int(v, field, 20, 1 if key == "n" else 0)
        elif key == "target":
            e[key] = read_int(v, field, n - 1, -1)
            if e[key] == actor:
                raise ValueError(f"{field}: an effect never targets its own actor")
        elif key == "optional":
            e[key] = _bool(v, field)
        elif key == "queue":
            e[key] = _seats(v, field, n, actor)
        elif key == "m":
            e[key] = read_int(v, field, len(s.deck), 1)
        elif key == "i":
            e[key] = read_int(v, field, max(0, value["m"] - 1) if type(value["m"]) is int else 0)
        elif key == "pos":
            pos = [read_int(x, f"{field}[{j}]", len(s.coins[actor]) - 1)
                   for j, x in enumerate(read_list(v, field, most=len(s.coins[actor])))]
            if not pos or pos != sorted(set(pos)):
                raise ValueError(f"{field}: {show(v)} must list distinct Coin positions in ascending order")
            e[key] = pos
        elif key == "slot":
            e[key] = read_int(v, field, SLOTS - 1, -1)
        elif key in ("take", "give"):
            e[key] = _effect_card(s, v, field, e.get("target", -1) if key == "take" else actor)
    _check_effect_stage(s, e)
    return e


def _effect_card(s: SplitTheHoardState, value: Any, field: str, owner: int) -> int:
    if value is None:
        return -1
    cs = s.game.cards
    name = cs.name_index.get(value) if isinstance(value, str) else None
    card = -1 if name is None or owner < 0 else next((c for c in s.treasures[owner] if cs.NAME[c] == name), -1)
    if card < 0:
        raise ValueError(f"{field}: {show(value)} is not a Treasure of the seat it names")
    return card


def _check_effect_stage(s: SplitTheHoardState, e: dict) -> None:
    """What each waiting stage has already chosen (and has not)."""
    k, stage = e["k"], e["stage"]
    chosen = {"target": e.get("target", -1) >= 0, "take": e.get("take", -1) >= 0,
              "give": e.get("give", -1) >= 0, "slot": e.get("slot", -1) >= 0}
    need = {("take_coins", "target"): (), ("take_coins", "react"): ("target",),
            ("steal", "target"): (), ("steal", "take"): ("target",), ("steal", "react"): ("target", "take"),
            ("swap", "give"): (), ("swap", "target"): ("give",), ("swap", "take"): ("give", "target"),
            ("swap", "react"): ("give", "target", "take"), ("buy", "slot"): ("target",),
            ("buy", "react"): ("target", "slot")}.get((k, stage))
    if k == "pick_top" and e["i"] != 0:
        raise ValueError("effect.i: a pick_top effect has placed nothing yet")
    if need is None:
        return
    for key in ("target", "take", "give", "slot"):
        if key in e and chosen[key] != (key in need):
            raise ValueError(f"effect.{key}: {'missing' if key in need else 'already chosen'} at stage {stage!r} of {k}")


def validate(s: SplitTheHoardState, data: dict) -> None:
    """The invariants of a position (card conservation was checked while reading)."""
    g = s.game
    n = g.num_players
    for c, bits in enumerate(s.known_by):
        if bits and c in s.treasure_discard:
            raise ValueError("treasure_discard: public cards are never 'seen by'")
    hand_sizes = [len(h) for h in s.hand]
    filled = [sum(c >= 0 for c in s.offer[p]) for p in range(n)]
    coins_added = [any(s.added[p][k] for k in range(SLOTS)) for p in range(n)]
    for p in range(n):
        for k in range(SLOTS):
            if s.added[p][k] and s.offer[p][k] < 0:
                raise ValueError(f"negotiate_cards[{p}][{k}].coins: Coins added to an empty Negotiate Card")
    if s.phase == REVEAL:
        if s.flipped:
            raise ValueError("flipped: the commits are face down during Reveal")
        extra = s.eff["actor"] if s.eff is not None and s.eff["k"] in ("scry", "extra_draw") else -1
        for i in range(n):
            p = (s.dragon + i) % n
            if s.stage == "window" or i > s.commit_i:
                want = (HAND + (p == extra), 0)
            elif i < s.commit_i:
                want = (0, SLOTS)
            else:
                want = (HAND - min(s.commit_slot, HAND), min(s.commit_slot, HAND))
                if s.commit_slot == SLOTS - 1:  # the last card is placed without a decision
                    raise ValueError("commit.slot: the last Negotiate Card is filled without a decision")
            if (hand_sizes[p], filled[p]) != want or (coins_added[p] and (s.stage == "window" or i > s.commit_i)):
                raise ValueError(f"hands[{p}], negotiate_cards[{p}]: {hand_sizes[p]} cards in hand and {filled[p]} "
                                 f"committed; this point of Reveal needs {want[0]} and {want[1]}")
            if s.stage == "commit" and i == s.commit_i and coins_added[p] and s.commit_slot < SLOTS:
                raise ValueError(f"negotiate_cards[{p}]: Coins are added once all three cards are placed")
    else:
        if any(hand_sizes):
            raise ValueError(f"hands: {hand_sizes} cards; hands are empty after Reveal")
        if s.phase == NEGOTIATE and not s.flipped:
            raise ValueError("flipped: the commits are face up during Negotiate")
        if s.phase in (CLAIM, GAME_OVER) and (any(filled) or any(coins_added)):
            raise ValueError("negotiate_cards: empty in Claim and at the end")
    if s.phase != CLAIM and s.dragon_taker >= 0:
        raise ValueError("dragon_taker: only set during Claim")
    if s.refill and (s.phase != CLAIM or s.stage != "refill"):
        raise ValueError("refill: only pending at the refill stage of Claim")
    if s.phase != NEGOTIATE and (s.refused or s.discount or s.printed_only or s.acted or s.turn_i
                                 or s.actions_left != 1 or s.discount_floor):
        raise ValueError("turn: the Negotiate turn is only in progress during Negotiate")
    for q, k in s.refused:
        if s.offer[q][k] < 0:
            raise ValueError(f"turn.refused: seat {q}'s Negotiate Card {k + 1} is empty")
    if s.phase == GAME_OVER:
        if s.decision != OVER or s.eff is not None or s.deals:
            raise ValueError("decision: a finished game has no pending decision, effect or trigger")
    elif s.decision == OVER:
        raise ValueError("decision: game_over, but the phase is not over")
    if s.eff is not None and s.eff["k"] in ("scry", "extra_draw") and s.phase != REVEAL:
        raise ValueError(f"effect.kind: {s.eff['k']} happens only in Reveal")
    if s.eff is not None and s.eff["k"] == "buy" and s.phase != NEGOTIATE:
        raise ValueError("effect.kind: a negotiation happens only in Negotiate")
    if s.eff is not None and s.eff["k"] == "buy" and s.offer[s.eff["target"]] == [-1] * SLOTS:
        raise ValueError("effect.target: negotiating with a player whose Negotiate Cards are empty")
    _check_piles(s)
    _check_round(s)
    _check_powers(s)
    _check_round0_hauls(s)
    _check_round0_coins(s)
    _check_counts(s)
    _check_decision(s, data)


def _check_piles(s: SplitTheHoardState) -> None:
    """Which cards each pile may hold, by phase (checked here unless said otherwise):

    - ``deck``: any card, face down; at most what the rounds so far leave (`_check_round`).
    - ``coin_discard``: any card; none in round 0's Reveal (Coins are discarded by a purchase or
      in Claim).
    - ``treasure_discard``: before the end, only cards with an ability (a card gets there by the
      use of its ability), each once its phase has come: in round 0 none in Reveal (no Haul has
      held a Treasure), a Claim ability from Claim on, a Reveal ability not at all (its window
      came before any Haul held a Treasure). At the end also the last deal's cards still in hands
      or on Negotiate Cards: at most 3 a player without an ability.
    - ``coins``, ``treasures``: any card; round 0's counts (`_check_round0_coins`, `_round0_caps`).
    - ``hands``, ``negotiate_cards``: the dealt cards during Reveal and Negotiate only (`validate`).
    The round 0 rules hold unless a Reveal class power can put a Treasure into a Haul."""
    g, cs, n = s.game, s.game.cards, s.game.num_players
    if s.phase == GAME_OVER:
        plain = sum(cs.effect[cs.NAME[c]] is None for c in s.treasure_discard)
        if plain > HAND * n:
            raise ValueError(f"treasure_discard: {plain} cards without an ability; the end discards the last deal's "
                             f"cards, at most {HAND * n}, and the others got there by their abilities' use")
        return
    for i, c in enumerate(s.treasure_discard):
        if cs.effect[cs.NAME[c]] is None:
            raise ValueError(f"treasure_discard[{i}]: {cs.names[cs.NAME[c]]!r} has no ability, and before the end "
                             "a card reaches this pile only by the use of its ability")
    if s.round > 0 or (g.powers and any(cs.classes[c].phase in ("reveal", "deal") and
                                        cs.classes[c].effect[0] in ADDS_TREASURE for c in s.classes)):
        return
    if s.phase == REVEAL and (s.coin_discard or s.treasure_discard):
        pile, cards = ("coin_discard", s.coin_discard) if s.coin_discard else ("treasure_discard", s.treasure_discard)
        shown = f"{len(cards)} card(s)" if pile == "coin_discard" else show(cs.names[cs.NAME[cards[0]]])
        raise ValueError(f"{pile}: {shown} in round 0's Reveal, where nothing has been discarded yet "
                         "(no purchase made, no Haul has held a Treasure)")
    for i, c in enumerate(s.treasure_discard):
        phase = cs.phase[cs.NAME[c]]
        if phase == "reveal" or (phase == "claim" and s.phase < CLAIM):
            raise ValueError(f"treasure_discard[{i}]: {cs.names[cs.NAME[c]]!r} (a {phase} ability) cannot have been "
                             f"used yet in phase {PHASE_NAMES[s.phase]!r} of round 0")


def _deals(s: SplitTheHoardState) -> int:
    """The Reveal deals made so far: one per round, this round's too unless the game is over (it
    may have ended at the start of this round, before its deal)."""
    return s.round + (s.phase != GAME_OVER)


def _check_round(s: SplitTheHoardState) -> None:
    """Cards leave the deck and never return (Scry puts back the 1 extra it drew): the setup drew 4
    Coins per player, and every deal so far 3 cards per player."""
    g = s.game
    n, deals, gone = g.num_players, _deals(s), g.cards.num_cards - len(s.deck)
    least = STARTING_COINS * n + HAND * n * deals
    if gone < least:
        raise ValueError(f"round: {s.round}, but only {gone} cards have left the deck (phase {PHASE_NAMES[s.phase]!r}); "
                         f"the {STARTING_COINS} starting Coins a player and {deals} deal(s) of {HAND} cards a player "
                         f"took {least}: the deck holds at most {g.cards.num_cards - least}")


# What one use of an ability can add to the Coins in the game (all Hauls, Negotiate Cards and the
# Coin discard) and to the face-up cards (Hauls, hands, Negotiate Cards and the Treasure discard).
# EXTRA_ACTION may be one more draw-2 action; EXTRA_DRAW's card is face up until it becomes a Coin.
# TAKE_*, STEAL, SWAP, RECOVER_* and reactions only move cards between these places.
COIN_GAIN = {"GAIN": lambda a: a[0], "EXTRA_DRAW": lambda a: 1, "EXTRA_ACTION": lambda a: 2}
FACE_UP_GAIN = {"DRAW_TREASURE": lambda a: a[0], "PICK_TOP": lambda a: 1, "FLIP_COIN": lambda a: 1,
                "EXTRA_DRAW": lambda a: 1, "SCRY": lambda a: 1}


def _gain(table: dict, effect: tuple | None) -> int:
    return table[effect[0]](effect[1:]) if effect is not None and effect[0] in table else 0


def counts(s: SplitTheHoardState) -> tuple[int, int]:
    """(face-up cards, Coins) out of the deck: Treasures in Hauls and the Treasure discard, dealt
    cards in hands and on Negotiate Cards; Coins in Hauls, on Negotiate Cards and in the Coin
    discard. Together, every card that has left the deck."""
    face_up = (sum(map(len, s.treasures)) + len(s.treasure_discard) + sum(map(len, s.hand))
               + sum(c >= 0 for offer in s.offer for c in offer))
    coins = sum(map(len, s.coins)) + sum(len(a) for added in s.added for a in added) + len(s.coin_discard)
    return face_up, coins


def count_limits(s: SplitTheHoardState) -> dict[str, int]:
    """The bounds `_check_counts` holds a position to: ``treasures_min``, and ``coins`` and
    ``treasures`` (the most face-up cards) unless the card list lets a recover card be recovered."""
    g, cs = s.game, s.game.cards
    n, deals = g.num_players, _deals(s)
    limits = {"treasures_min": HAND * n * deals}
    classes = [cs.classes[c] for c in s.classes] if g.powers else []
    recover_names = {i for i in range(cs.num_names) if cs.effect[i] and cs.effect[i][0] == "RECOVER_TREASURE"}
    if len(recover_names) > 1 or any(row.effect[0] == "RECOVER_TREASURE" for row in classes):
        return limits
    recoveries = sum(1 for c in s.treasure_discard if cs.NAME[c] in recover_names)
    negotiations = s.round + (s.phase != REVEAL)  # Negotiate phases begun
    claims = s.round + (s.phase in (CLAIM, GAME_OVER))  # Claim refills made (at most)
    for key, table, start in (("coins", COIN_GAIN, STARTING_COINS * n + 2 * n * negotiations),
                              ("treasures", FACE_UP_GAIN, HAND * n * (deals + claims))):
        hoard = [_gain(table, cs.effect[i]) for i in range(cs.num_names)]
        limits[key] = (start + sum(hoard[cs.NAME[c]] for c in s.treasure_discard) + recoveries * max(hoard)
                       + (s.round + 1) * sum(_gain(table, row.effect) for row in classes))
    return limits


def _check_counts(s: SplitTheHoardState) -> None:
    """Coins and Treasures, every round. Every card out of the deck is a Coin or face up
    (`counts`). Each deal leaves 3 face-up cards per player, and only a Spellbook's extra card
    (drawn face up first) or a Scry (put back) ever takes one away: at least 3n per deal. Coins
    come from the 4 a player at setup, at most 2 per draw-2 action (one per Negotiate turn, more
    only by EXTRA_ACTION) and the abilities; face-up cards from the deals, at most 3 per player
    per Claim refill, and the abilities. A Hoard ability is used by discarding its Treasure into
    the public Treasure discard, where it stays unless a RECOVER_TREASURE takes it back (never
    its own name): so the uses are the discard's cards plus one per recovery, and a recovery is
    the use of a recover card that lies in the discard. A class power is used at most once a
    round. Card lists whose recover cards can be recovered themselves (two recover names, or a
    recover class power) get no upper bounds."""
    face_up, coins = counts(s)
    limits = count_limits(s)
    deals, negotiations = _deals(s), s.round + (s.phase != REVEAL)
    if face_up < limits["treasures_min"]:
        raise ValueError(f"treasures: {face_up} face-up cards (Hauls, Treasure discard, hands, Negotiate Cards), but "
                         f"{deals} deal(s) of {HAND} cards a player leave at least {limits['treasures_min']}")
    if coins > limits.get("coins", coins):
        raise ValueError(f"coins: {coins} Coins (Hauls, Negotiate Cards, Coin discard), but at most {limits['coins']} "
                         f"by now: {STARTING_COINS} a player at setup, 2 per draw-2 action ({negotiations} Negotiate "
                         f"phase(s)) and what the abilities used (the Treasure discard) and class powers gain")
    if face_up > limits.get("treasures", face_up):
        raise ValueError(f"treasures: {face_up} face-up cards (Hauls, Treasure discard, hands, Negotiate Cards), but "
                         f"at most {limits['treasures']} by now: {HAND} a player per deal and per Claim refill, and "
                         f"what the abilities used (the Treasure discard) and class powers draw")


# The round's phase from which a class power of each phase can have been used.
POWER_FROM = {"deal": REVEAL, "reveal": REVEAL, "negotiate": NEGOTIATE, "negotiate-react": NEGOTIATE,
              "draw2": NEGOTIATE, "claim": CLAIM}


def _check_powers(s: SplitTheHoardState) -> None:
    """A class power is used at most once per round (reset as each round starts), only with
    class_powers 'full', and only once its phase of the round has come: on the seat's own turn
    for the turn powers (Warrior, Rogue)."""
    g = s.game
    n = g.num_players
    for p, used in enumerate(s.power_used):
        if not used:
            continue
        if not g.powers:
            raise ValueError(f"powers_used[{p}]: class powers are never used with class_powers='tiebreak_only'")
        row = g.cards.classes[s.classes[p]]
        own_turn_to_come = s.phase == NEGOTIATE and (p - s.dragon) % n > s.turn_i
        if s.phase < POWER_FROM[row.phase] or (row.phase in ("negotiate", "draw2") and own_turn_to_come):
            raise ValueError(f"powers_used[{p}]: the {row.name}'s power ({row.phase}) cannot have been used yet in "
                             f"phase {PHASE_NAMES[s.phase]!r} of round {s.round} (powers reset as each round starts)")


# Effects that put a Treasure into the actor's Haul without buying, or give another purchase.
ADDS_TREASURE = frozenset({"DRAW_TREASURE", "PICK_TOP", "FLIP_COIN", "RECOVER_TREASURE", "STEAL", "SWAP",
                           "EXTRA_ACTION"})


def _check_round0_hauls(s: SplitTheHoardState) -> None:
    """Round 0 starts with no Treasure in any Haul, and Hoard abilities are used by discarding a
    Treasure from one's Haul. Unless a class power or an any-phase Hoard card adds Treasures, a
    Haul holds none in round 0's Reveal and at most the one bought on its own turn in Negotiate;
    in Claim at most that one and 3 more (its unsold commits or its refill), plus what its class
    power adds, when no Claim ability nets more than the Treasure it discards."""
    if s.round != 0:
        return
    caps = _round0_caps(s)
    for p, cap in enumerate(caps or ()):
        if len(s.treasures[p]) > cap:
            raise ValueError(f"treasures[{p}]: {len(s.treasures[p])} Treasures in phase {PHASE_NAMES[s.phase]!r} of "
                             f"round 0, where a Haul holds at most {cap} (Hauls start with Coins only)")


def _round0_caps(s: SplitTheHoardState) -> list[int] | None:
    """Each Haul's most Treasures at this point of round 0; None where this card list's
    abilities allow more than the reasoning above counts."""
    g, cs = s.game, s.game.cards
    powers = [cs.classes[c] if g.powers else None for c in s.classes]
    if any(row is not None and row.phase != "claim" and row.effect[0] in ADDS_TREASURE for row in powers) or any(
            (cs.phase[i] == "reaction" or cs.enter_trigger[i]) and cs.effect[i] and cs.effect[i][0] in ADDS_TREASURE
            for i in range(cs.num_names)):
        return None
    if s.phase in (REVEAL, NEGOTIATE):
        return [s.phase] * len(powers)  # 0 in Reveal, 1 in Negotiate
    if any(cs.phase[i] == "claim" and cs.effect[i] and cs.effect[i][0] == "DRAW_TREASURE" and cs.effect[i][1] > 1
           for i in range(cs.num_names)):
        return None
    gain = {"DRAW_TREASURE": None, "FLIP_COIN": 1, "PICK_TOP": 1, "RECOVER_TREASURE": 1, "STEAL": 1}
    caps = []
    for row in powers:
        extra = gain.get(row.effect[0], 0) if row is not None else 0
        caps.append(1 + HAND + (row.effect[1] if extra is None else extra))
    return caps


def _check_round0_coins(s: SplitTheHoardState) -> None:
    """In round 0's Reveal nobody has negotiated and no Haul holds a Treasure to use: each seat
    holds exactly its 4 starting Coins (counting those added to its Negotiate Cards), unless a
    class power of the Reveal is in play."""
    g = s.game
    if s.round != 0 or s.phase != REVEAL or (g.powers and any(
            g.cards.classes[c].phase == "reveal" for c in s.classes)):
        return
    for p in range(g.num_players):
        held = len(s.coins[p]) + sum(len(a) for a in s.added[p])
        if held != STARTING_COINS:
            raise ValueError(f"coins[{p}]: {held} Coins (with those on its Negotiate Cards) in round 0's Reveal, "
                             f"where each Haul holds exactly its {STARTING_COINS} starting Coins")


def _check_decision(s: SplitTheHoardState, data: dict) -> None:
    """The position must be at rest: advancing changes nothing, and some answer is legal."""
    twin = s.clone()
    try:
        twin._advance()
        legal = twin.legal_actions()
        again = state_to_json(twin)
    except (KeyError, IndexError, TypeError, StopIteration, AssertionError, ValueError) as error:
        raise ValueError(f"decision: the pending decision does not fit the position ({type(error).__name__})") from None
    if again != state_to_json(s):
        diff = [k for k in KEYS if again[k] != data.get(k)]
        raise ValueError(f"{', '.join(diff[:3]) or 'decision'}: not a position at rest: the rules would go on "
                         f"from here (pending decision {data['decision']!r} of seat {data['current_player']})")
    if not legal and s.phase != GAME_OVER:
        raise ValueError(f"decision: {data['decision']!r} has no legal answer in this position")
