"""Piles snapshots: `validate` states every invariant a loaded position must satisfy.

It runs only when a snapshot is loaded, never in `apply`. A refused snapshot raises ValueError
naming the offending field and showing at most ~80 characters of any input value, however large
or deeply nested.
"""

from __future__ import annotations

from typing import Any

from card_envs.core.cards import RANK, card_names
from card_envs.core.game import Game
from card_envs.core.snapshot import check_keys, each_card_once, read_cards, read_int, read_list, show
from card_envs.games.piles.rules import (
    COLOUR, COLOUR_NAMES, HAND_SIZE, NEIGHBOURS, NUM_ACTIONS, NUM_POSITIONS, PASS, SET_ASIDE,
    PilesState, describe_action, position_name, team_of)

KEYS = {1: ("game", "format", "num_players", "current_player", "hands", "castle", "captured", "set_aside",
            "team_colours", "chance_seed")}
KEYS[2] = KEYS[1] + ("last_move",)  # format 2 added last_move; format 1 still loads, without one
ACTION = {describe_action(a): a for a in range(NUM_ACTIONS)}


def state_from_json(game: Game, data: Any) -> PilesState:
    return PilesState(game, *validate(game, data))


def validate(game: Game, data: Any) -> tuple:
    """The position `data` describes, once checked to be one the rules can reach: (hands sorted,
    castle, captured, set_aside, team colours, current, chance seed, last move). Hands may be
    listed in any order: their order carries nothing."""
    n = game.num_players
    keys = check_keys(data, game, KEYS)
    current = read_int(data["current_player"], "current_player", n - 1)
    seed = read_int(data["chance_seed"], "chance_seed", 2**63 - 1)
    hands = [sorted(read_cards(h, f"hands[{s}]")) for s, h in enumerate(read_list(data["hands"], "hands", n))]
    castle = [read_cards(pile, f"castle[{p}]") for p, pile in enumerate(read_list(data["castle"], "castle", NUM_POSITIONS))]
    captured = [read_cards(c, f"captured[{t}]") for t, c in enumerate(read_list(data["captured"], "captured", 2))]
    set_aside = read_cards(data["set_aside"], "set_aside")
    colours = _team_colours(data["team_colours"])

    each_card_once([(f"hands[{s}]", h) for s, h in enumerate(hands)]
                    + [(f"castle[{p}]", pile) for p, pile in enumerate(castle)]
                    + [(f"captured[{t}]", c) for t, c in enumerate(captured)] + [("set_aside", set_aside)])
    for p, pile in enumerate(castle):
        _check_pile(p, pile)
    if len(set_aside) not in ((0, SET_ASIDE) if n == 2 else (0,)):
        sizes = "0 or 20" if n == 2 else "0"
        raise ValueError(f"set_aside: holds {len(set_aside)} cards; with {n} players it holds {sizes}")
    _check_hand_sizes(hands, current, set_aside)
    # Every turn takes one hand card, seat by seat: to the Castle or, by a pass, to the team on
    # the passer's left, which is always the other team.
    dealt = HAND_SIZE * (2 if n == 2 and not set_aside else 1)
    turns = [sum(dealt - len(h) for s, h in enumerate(hands) if team_of(s) == t) for t in (0, 1)]
    placed = [turns[t] - len(captured[1 - t]) for t in (0, 1)]  # cards each team placed
    for t in (0, 1):
        if placed[1 - t] < 0:
            raise ValueError(f"captured[{t}]: {len(captured[t])} cards, but team {1 - t} has taken only "
                             f"{turns[1 - t]} turns: a team captures only the cards its opponents pass")
    _check_colours(colours, castle, placed, data["team_colours"])
    last = _last_move(data["last_move"], n, current, castle, captured, placed) if "last_move" in keys else None
    return hands, castle, captured, set_aside, colours, current, seed, last


def _check_pile(p: int, pile: list[int]) -> None:
    """A pile holds its dealt card at least. A card on a top of the other colour beat its total
    value, which is at least the top's rank minus its number of neighbours."""
    if not pile:
        raise ValueError(f"castle[{p}]: empty, but every Castle position holds a pile of at least one card "
                         f"(position {position_name(p)})")
    for below, above in zip(pile, pile[1:]):
        if COLOUR[below] != COLOUR[above] and RANK[above] <= RANK[below] - len(NEIGHBOURS[p]):
            raise ValueError(f"castle[{p}]: {card_names([above])[0]} lies on {card_names([below])[0]}, whose "
                             f"total value was at least {RANK[below] - len(NEIGHBOURS[p])} (position "
                             f"{position_name(p)}): a card on the other colour must beat the top's total value")


def _check_hand_sizes(hands: list[list[int]], current: int, set_aside: list[int]) -> None:
    """Every turn takes one card from the mover's hand, seat 0 first: the seats before the
    current player hold one card fewer than the others."""
    sizes = [len(h) for h in hands]
    m = sizes[current]
    expected = [m - 1 if s < current else m for s in range(len(hands))]
    if sizes != expected or not 0 <= m <= HAND_SIZE or (m == 0 and (current or set_aside)):
        raise ValueError(
            f"hands: hand sizes {sizes} do not fit current_player={current}: seat 0 moves first and every turn "
            f"takes one card, so the seats before the current player hold one card fewer than the others (at "
            f"most {HAND_SIZE}); set-aside cards are dealt once all hands are empty; a finished game has "
            f"current_player 0")


def _check_colours(colours: list[int | None], castle: list[list[int]], placed: list[int], value: Any) -> None:
    """The first card placed on the Castle gives its placer's team its colour."""
    if (sum(placed) > 0) != (colours[0] is not None):
        raise ValueError(f"team_colours: {show(value)}, but {'a' if sum(placed) else 'no'} card was placed on "
                         "the Castle: the first card placed fixes the colours (null, null before)")
    on_top = {COLOUR[c] for pile in castle for c in pile[1:]}  # colours of the placed cards
    if colours[0] is not None and not any(placed[t] and colours[t] in on_top for t in (0, 1)):
        raise ValueError(f"team_colours: {show(value)}, but no team placed a card of its own colour: the "
                         "first card placed gives its colour to its placer's team")


def _last_move(value: Any, n: int, current: int, castle, captured, placed) -> tuple | None:
    """The last move (format 2): null, or the move that led to this position."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"seat", "action", "card"}:
        raise ValueError(f"last_move: {show(value)} must be null or a dict with keys 'seat', 'action', 'card'")
    mover = (current - 1) % n
    if read_int(value["seat"], "last_move.seat", n - 1) != mover:
        raise ValueError(f"last_move.seat: {value['seat']}, but seat {mover} moved last (the seat before the one "
                         "to move, or the last seat once the game is over)")
    action = ACTION.get(value["action"]) if isinstance(value["action"], str) else None
    if action is None:
        raise ValueError(f"last_move.action: {show(value['action'])} is not an action name, e.g. 'pass'")
    card = read_cards([value["card"]], "last_move.card")[0]
    if action == PASS:
        taken = captured[team_of((mover + 1) % n)]
        if taken[-1:] != [card]:
            raise ValueError(f"last_move.card: {show(value['card'])} is not the last card the passer's left "
                             "neighbour captured")
    elif not (placed[team_of(mover)] and len(castle[action % NUM_POSITIONS]) > 1
              and castle[action % NUM_POSITIONS][-1] == card == action // NUM_POSITIONS):
        raise ValueError(f"last_move: {value['action']!r} with card {show(value['card'])} is not the card on "
                         "top of that pile, placed by the mover's team")
    return mover, action, card


def _team_colours(value: Any) -> list[int | None]:
    if value == [None, None]:
        return [None, None]
    if value in (["red", "black"], ["black", "red"]):
        return [COLOUR_NAMES.index(k) for k in value]
    raise ValueError(f"team_colours: {show(value)} must be [null, null] (not fixed yet), "
                     "['red', 'black'] or ['black', 'red'] (team 0's colour first)")


def state_to_json(state: PilesState) -> dict[str, Any]:
    """The snapshot `Game.state_to_json` returns: what `state_from_json` reads back."""
    return {
        "game": state.game.name,
        "format": state.game.snapshot_format,
        "num_players": state.game.num_players,
        "current_player": state.current_player,
        "hands": [card_names(h) for h in state.hands],
        "castle": [card_names(p) for p in state.piles],
        "captured": [card_names(c) for c in state.captured],
        "set_aside": card_names(state.set_aside),
        "team_colours": [None if k is None else COLOUR_NAMES[k] for k in state.team_colours],
        "chance_seed": state.chance_seed,
        "last_move": None if state.last_move is None else {
            "seat": state.last_move[0], "action": describe_action(state.last_move[1]),
            "card": card_names(state.last_move[2:])[0]},
    }
