"""3 Piles snapshots: `validate` states every invariant a loaded position must satisfy.

It runs only when a snapshot is loaded, never in `apply`. A refused snapshot raises ValueError
naming the offending field and showing at most ~80 characters of any input value, however large
or deeply nested.
"""

from __future__ import annotations

import reprlib
from typing import Any

from card_envs.core.cards import RANK, card_names
from card_envs.games.three_piles.rules import (
    DRAW, HAND_SIZE, NUM_ACTIONS, NUM_CARDS, NUM_DESTINATIONS, NUM_PILES, NUM_STACKS, PASS, PHASE_NAMES, PLACE,
    PLAY_BASE, ThreePilesGame, ThreePilesState, describe_action)

KEYS = {1: ("game", "format", "num_players", "current_player", "phase", "consecutive_passes", "hands", "piles",
            "stacks", "deck")}
KEYS[2] = KEYS[1] + ("last_move",)  # format 2 added last_move; format 1 still loads, without one
CARD = {name: c for c, name in enumerate(card_names(range(NUM_CARDS)))}
ACTION = {describe_action(a): a for a in range(NUM_ACTIONS)}


def state_from_json(game: ThreePilesGame, data: Any) -> ThreePilesState:
    return ThreePilesState(game, *validate(game, data))


def validate(game: ThreePilesGame, data: Any) -> tuple:
    """The position `data` describes, once checked to be one the rules can reach:
    (hands sorted, piles low to high, stacks, deck bottom first, current, phase, passes, last move).
    Hands and piles may be listed in any order: their order carries nothing."""
    n = game.num_players
    keys = _keys(data, game)
    current = _int(data["current_player"], "current_player", n - 1)
    passes = _int(data["consecutive_passes"], "consecutive_passes", n)
    if data["phase"] not in PHASE_NAMES:
        raise ValueError(f"phase: {_show(data['phase'])} is not one of {PHASE_NAMES}")
    phase = PHASE_NAMES.index(data["phase"])
    hands = [sorted(_cards(h, f"hands[{s}]")) for s, h in enumerate(_list(data["hands"], "hands", n))]
    piles = [[sorted(_cards(p, f"piles[{s}][{k}]"), key=RANK.__getitem__)
              for k, p in enumerate(_list(seat, f"piles[{s}]", NUM_PILES))]
             for s, seat in enumerate(_list(data["piles"], "piles", n))]  # a pile's order is its ranks'
    stacks = [_cards(st, f"stacks[{s}]") for s, st in enumerate(_list(data["stacks"], "stacks", NUM_STACKS))]
    deck = _cards(data["deck"], "deck")

    _each_card_once([(f"hands[{s}]", h) for s, h in enumerate(hands)]
                    + [(f"piles[{s}][{k}]", p) for s, seat in enumerate(piles) for k, p in enumerate(seat)]
                    + [(f"stacks[{s}]", st) for s, st in enumerate(stacks)] + [("deck", deck)])
    for s, seat in enumerate(piles):  # the pile rule keeps ranks distinct
        for k, pile in enumerate(seat):
            if any(RANK[a] == RANK[b] for a, b in zip(pile, pile[1:])):
                raise ValueError(f"piles[{s}][{k}]: {_show(card_names(pile))} repeats a rank; a card only extends "
                                 "a pile below its lowest or above its highest rank")
    drawing = bool(deck) or phase == PLACE  # in 'place' the deck had a card a moment ago
    for s, stack in enumerate(stacks):
        if not stack and drawing:
            raise ValueError(f"stacks[{s}]: empty while the deck has cards (or had one before the draw of phase "
                             "'place'); an emptied stack is refilled from the deck at once")
    for s, hand in enumerate(hands):  # 3 while the deck lasts, + the drawn card until placed
        size = HAND_SIZE + (phase == PLACE and s == current)
        if len(hand) > size or (drawing and len(hand) < size):
            wanted = f"exactly {size}" if drawing else f"at most {size}"
            raise ValueError(f"hands[{s}]: {len(hand)} cards, {wanted} here: a hand holds 3 cards while the deck "
                             "lasts, 4 for the player about to place the card he drew, at most 3 once it is empty")
    _check_passes(passes, phase, deck, current, hands, piles, stacks)
    last = _last_move(data["last_move"], n, current, phase, passes, piles, stacks) if "last_move" in keys else None
    deck.reverse()  # JSON lists the deck top first; the state keeps the top last
    return hands, piles, stacks, deck, current, phase, passes, last


def _check_passes(passes, phase, deck, current, hands, piles, stacks) -> None:
    """Passing needs an empty deck, an empty hand and no stack top fitting the passer's piles;
    the last `passes` seats before the current one passed, and nothing changed since."""
    if passes and (deck or phase == PLACE):
        raise ValueError(f"consecutive_passes: {passes}, but a pass needs an empty deck and ends a turn "
                         "(phase 'choose')")
    n = len(hands)
    for j in range(1, passes + 1):
        seat = (current - j) % n
        if hands[seat]:
            raise ValueError(f"hands[{seat}]: seat {seat} is among the last {passes} consecutive passes but "
                             "holds cards; a pass needs an empty hand")
        for s, stack in enumerate(stacks):
            for k, pile in enumerate(piles[seat]):
                if stack and _fits(stack[-1], pile):
                    raise ValueError(f"consecutive_passes: seat {seat} passed, but the top of stacks[{s}] "
                                     f"fits its pile {k}; a pass needs nothing playable")


def _fits(card: int, pile: list[int]) -> bool:
    return not pile or RANK[card] < RANK[pile[0]] or RANK[card] > RANK[pile[-1]]


def _last_move(value, n, current, phase, passes, piles, stacks) -> tuple | None:
    """The last move (format 2): null, or the move that led to this position."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"seat", "action", "card"}:
        raise ValueError(f"last_move: {_show(value)} must be null or a dict with keys 'seat', 'action', 'card'")
    mover = current if phase == PLACE else (current - 1) % n
    if _int(value["seat"], "last_move.seat", n - 1) != mover:
        raise ValueError(f"last_move.seat: {value['seat']}, but seat {mover} moved last (the seat to move in "
                         "phase 'place', else the seat before it)")
    action = ACTION.get(value["action"]) if isinstance(value["action"], str) else None
    if action is None:
        raise ValueError(f"last_move.action: {_show(value['action'])} is not an action name, e.g. 'draw'")
    if (action == DRAW) != (phase == PLACE) or (action == PASS) != (passes > 0):
        raise ValueError(f"last_move.action: {value['action']!r} does not lead to phase {PHASE_NAMES[phase]!r} "
                         f"with consecutive_passes {passes}: a draw leads to 'place', a pass counts a pass")
    card = None if value["card"] is None else _cards([value["card"]], "last_move.card")[0]
    if action in (DRAW, PASS):
        ends = [None]  # a drawn card is hidden; a pass moves none
    elif action < DRAW:
        pile = piles[mover][action % NUM_PILES]
        ends = pile[:1] + pile[-1:]
    else:
        played, dest = divmod(action - PLAY_BASE, NUM_DESTINATIONS)
        there = piles[mover][dest] if dest < NUM_PILES else stacks[dest - NUM_PILES][-1:]
        ends = [played] if played in there[:1] + there[-1:] else []
    if card not in ends:
        raise ValueError(f"last_move.card: {_show(value['card'])} is not the card {value['action']!r} moved: "
                         "it lies at an end of that pile or on top of that stack; null for a draw or a pass")
    return mover, action, card


# ----- field readers: each names its field and never echoes more than ~80 characters ----------
def _show(value: Any) -> str:
    try:
        text = reprlib.repr(value)  # bounded depth and length
    except ValueError:  # an int too long to print
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def _keys(data: Any, game: ThreePilesGame) -> tuple[str, ...]:
    if not isinstance(data, dict):
        raise ValueError(f"a three_piles snapshot must be a dict, got {type(data).__name__}")
    fmt = data.get("format", game.snapshot_format)
    if type(fmt) is not int or fmt not in KEYS:
        raise ValueError(f"format: {_show(fmt)} is not supported; expected one of {sorted(KEYS)}")
    keys = KEYS[fmt]
    missing, extra = [k for k in keys if k not in data], [k for k in data if k not in keys]
    if missing or extra:
        raise ValueError(f"bad three_piles snapshot: missing keys {missing}, unknown keys {_show(extra)}; "
                         f"format {fmt} has exactly {list(keys)}")
    if data["game"] != game.name:
        raise ValueError(f"game: snapshot is for game {_show(data['game'])}, not {game.name!r}")
    if type(data["num_players"]) is not int or data["num_players"] != game.num_players:
        raise ValueError(f"num_players: snapshot has {_show(data['num_players'])} but this env has "
                         f"{game.num_players}")
    return keys


def _int(value: Any, field: str, high: int) -> int:
    if type(value) is not int or not 0 <= value <= high:
        raise ValueError(f"{field}: {_show(value)} must be an integer in 0..{high}")
    return value


def _list(value: Any, field: str, length: int | None = None) -> list:
    if not isinstance(value, (list, tuple)) or (length is not None and len(value) != length):
        raise ValueError(f"{field}: {_show(value)} must be a list" + (f" of {length}" if length else ""))
    return list(value)


def _cards(value: Any, field: str) -> list[int]:
    names = _list(value, field)
    if len(names) > NUM_CARDS:
        raise ValueError(f"{field}: {len(names)} entries; the deck has {NUM_CARDS} cards")
    cards = []
    for i, name in enumerate(names):
        card = CARD.get(name.upper()) if isinstance(name, str) else None
        if card is None:
            raise ValueError(f"{field}[{i}]: {_show(name)} is not a card name like 'AS' or '10D'")
        cards.append(card)
    return cards


def _each_card_once(places: list[tuple[str, list[int]]]) -> None:
    """Card conservation: each of the 52 cards lies in exactly one place."""
    where: dict[int, str] = {}
    for field, cards in places:
        for c in cards:
            if c in where:
                raise ValueError(f"{field}: {card_names([c])[0]} is also in {where[c]}; a snapshot holds each of "
                                 "the 52 cards exactly once")
            where[c] = field
    if len(where) != NUM_CARDS:
        missing = card_names(sorted(set(range(NUM_CARDS)) - set(where)))
        raise ValueError(f"cards: {_show(missing)} missing; a snapshot holds each of the 52 cards exactly once")
