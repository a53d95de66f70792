"""3 Piles snapshots: `validate` states every invariant a loaded position must satisfy.

It runs only when a snapshot is loaded, never in `apply`. A refused snapshot raises ValueError
naming the offending field and showing at most ~80 characters of any input value, however large
or deeply nested.
"""

from __future__ import annotations

from typing import Any

from card_envs.core.cards import RANK, card_names
from card_envs.core.game import Game
from card_envs.core.snapshot import check_keys, each_card_once, read_cards, read_int, read_list, show
from card_envs.games.three_piles.rules import (
    DRAW, HAND_SIZE, NUM_ACTIONS, NUM_DESTINATIONS, NUM_PILES, NUM_STACKS, PASS, PHASE_NAMES, PLACE,
    PLAY_BASE, ThreePilesState, describe_action)

KEYS = {1: ("game", "format", "num_players", "current_player", "phase", "consecutive_passes", "hands", "piles",
            "stacks", "deck")}
KEYS[2] = KEYS[1] + ("last_move",)  # format 2 added last_move; format 1 still loads, without one
ACTION = {describe_action(a): a for a in range(NUM_ACTIONS)}


def state_from_json(game: Game, data: Any) -> ThreePilesState:
    return ThreePilesState(game, *validate(game, data))


def validate(game: Game, data: Any) -> tuple:
    """The position `data` describes, once checked to be one the rules can reach:
    (hands sorted, piles low to high, stacks, deck bottom first, current, phase, passes, last move).
    Hands and piles may be listed in any order: their order carries nothing."""
    n = game.num_players
    keys = check_keys(data, game, KEYS)
    current = read_int(data["current_player"], "current_player", n - 1)
    passes = read_int(data["consecutive_passes"], "consecutive_passes", n)
    if data["phase"] not in PHASE_NAMES:
        raise ValueError(f"phase: {show(data['phase'])} is not one of {PHASE_NAMES}")
    phase = PHASE_NAMES.index(data["phase"])
    hands = [sorted(read_cards(h, f"hands[{s}]")) for s, h in enumerate(read_list(data["hands"], "hands", n))]
    piles = [[sorted(read_cards(p, f"piles[{s}][{k}]"), key=RANK.__getitem__)
              for k, p in enumerate(read_list(seat, f"piles[{s}]", NUM_PILES))]
             for s, seat in enumerate(read_list(data["piles"], "piles", n))]  # a pile's order is its ranks'
    stacks = [read_cards(st, f"stacks[{s}]") for s, st in enumerate(read_list(data["stacks"], "stacks", NUM_STACKS))]
    deck = read_cards(data["deck"], "deck")

    each_card_once([(f"hands[{s}]", h) for s, h in enumerate(hands)]
                    + [(f"piles[{s}][{k}]", p) for s, seat in enumerate(piles) for k, p in enumerate(seat)]
                    + [(f"stacks[{s}]", st) for s, st in enumerate(stacks)] + [("deck", deck)])
    for s, seat in enumerate(piles):  # the pile rule keeps ranks distinct
        for k, pile in enumerate(seat):
            if any(RANK[a] == RANK[b] for a, b in zip(pile, pile[1:])):
                raise ValueError(f"piles[{s}][{k}]: {show(card_names(pile))} repeats a rank; a card only extends "
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
        raise ValueError(f"last_move: {show(value)} must be null or a dict with keys 'seat', 'action', 'card'")
    mover = current if phase == PLACE else (current - 1) % n
    if read_int(value["seat"], "last_move.seat", n - 1) != mover:
        raise ValueError(f"last_move.seat: {value['seat']}, but seat {mover} moved last (the seat to move in "
                         "phase 'place', else the seat before it)")
    action = ACTION.get(value["action"]) if isinstance(value["action"], str) else None
    if action is None:
        raise ValueError(f"last_move.action: {show(value['action'])} is not an action name, e.g. 'draw'")
    if (action == DRAW) != (phase == PLACE) or (action == PASS) != (passes > 0):
        raise ValueError(f"last_move.action: {value['action']!r} does not lead to phase {PHASE_NAMES[phase]!r} "
                         f"with consecutive_passes {passes}: a draw leads to 'place', a pass counts a pass")
    card = None if value["card"] is None else read_cards([value["card"]], "last_move.card")[0]
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
        raise ValueError(f"last_move.card: {show(value['card'])} is not the card {value['action']!r} moved: "
                         "it lies at an end of that pile or on top of that stack; null for a draw or a pass")
    return mover, action, card


def state_to_json(state: ThreePilesState) -> dict[str, Any]:
    """The snapshot `Game.state_to_json` returns: what `state_from_json` reads back."""
    return {
        "game": state.game.name,
        "format": state.game.snapshot_format,
        "num_players": state.game.num_players,
        "current_player": state.current_player,
        "phase": PHASE_NAMES[state.phase],
        "consecutive_passes": state.passes,
        "hands": [card_names(h) for h in state.hands],
        "piles": [[card_names(p) for p in seat] for seat in state.piles],
        "stacks": [card_names(s) for s in state.stacks],
        "deck": card_names(reversed(state.deck)),  # top card first
        "last_move": None if state.last_move is None else {
            "seat": state.last_move[0], "action": describe_action(state.last_move[1]),
            "card": None if state.last_move[2] is None else card_names(state.last_move[2:])[0]},
    }
