"""Piles snapshots: `validate` states every invariant a loaded position must satisfy.

It runs only when a snapshot is loaded, never in `apply`. A refused snapshot raises ValueError
naming the offending field and showing at most ~80 characters of any input value, however large
or deeply nested.
"""

from __future__ import annotations

import reprlib
from typing import Any

from card_envs.core.cards import RANK, card_names
from card_envs.games.piles.rules import (
    COLOUR, COLOUR_NAMES, HAND_SIZE, NEIGHBOURS, NUM_ACTIONS, NUM_CARDS, NUM_POSITIONS, PASS, SET_ASIDE,
    PilesGame, PilesState, describe_action, position_name, team_of)

KEYS = {1: ("game", "format", "num_players", "current_player", "hands", "castle", "captured", "set_aside",
            "team_colours", "chance_seed")}
KEYS[2] = KEYS[1] + ("last_move",)  # format 2 added last_move; format 1 still loads, without one
CARD = {name: c for c, name in enumerate(card_names(range(NUM_CARDS)))}
ACTION = {describe_action(a): a for a in range(NUM_ACTIONS)}


def state_from_json(game: PilesGame, data: Any) -> PilesState:
    return PilesState(game, *validate(game, data))


def validate(game: PilesGame, data: Any) -> tuple:
    """The position `data` describes, once checked to be one the rules can reach: (hands sorted,
    castle, captured, set_aside, team colours, current, chance seed, last move). Hands may be
    listed in any order: their order carries nothing."""
    n = game.num_players
    keys = _keys(data, game)
    current = _int(data["current_player"], "current_player", n - 1)
    seed = _int(data["chance_seed"], "chance_seed", 2**63 - 1)
    hands = [sorted(_cards(h, f"hands[{s}]")) for s, h in enumerate(_list(data["hands"], "hands", n))]
    castle = [_cards(pile, f"castle[{p}]") for p, pile in enumerate(_list(data["castle"], "castle", NUM_POSITIONS))]
    captured = [_cards(c, f"captured[{t}]") for t, c in enumerate(_list(data["captured"], "captured", 2))]
    set_aside = _cards(data["set_aside"], "set_aside")
    colours = _team_colours(data["team_colours"])

    _each_card_once([(f"hands[{s}]", h) for s, h in enumerate(hands)]
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
        raise ValueError(f"team_colours: {_show(value)}, but {'a' if sum(placed) else 'no'} card was placed on "
                         "the Castle: the first card placed fixes the colours (null, null before)")
    on_top = {COLOUR[c] for pile in castle for c in pile[1:]}  # colours of the placed cards
    if colours[0] is not None and not any(placed[t] and colours[t] in on_top for t in (0, 1)):
        raise ValueError(f"team_colours: {_show(value)}, but no team placed a card of its own colour: the "
                         "first card placed gives its colour to its placer's team")


def _last_move(value: Any, n: int, current: int, castle, captured, placed) -> tuple | None:
    """The last move (format 2): null, or the move that led to this position."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"seat", "action", "card"}:
        raise ValueError(f"last_move: {_show(value)} must be null or a dict with keys 'seat', 'action', 'card'")
    mover = (current - 1) % n
    if _int(value["seat"], "last_move.seat", n - 1) != mover:
        raise ValueError(f"last_move.seat: {value['seat']}, but seat {mover} moved last (the seat before the one "
                         "to move, or the last seat once the game is over)")
    action = ACTION.get(value["action"]) if isinstance(value["action"], str) else None
    if action is None:
        raise ValueError(f"last_move.action: {_show(value['action'])} is not an action name, e.g. 'pass'")
    card = _cards([value["card"]], "last_move.card")[0]
    if action == PASS:
        taken = captured[team_of((mover + 1) % n)]
        if taken[-1:] != [card]:
            raise ValueError(f"last_move.card: {_show(value['card'])} is not the last card the passer's left "
                             "neighbour captured")
    elif not (placed[team_of(mover)] and len(castle[action % NUM_POSITIONS]) > 1
              and castle[action % NUM_POSITIONS][-1] == card == action // NUM_POSITIONS):
        raise ValueError(f"last_move: {value['action']!r} with card {_show(value['card'])} is not the card on "
                         "top of that pile, placed by the mover's team")
    return mover, action, card


def _team_colours(value: Any) -> list[int | None]:
    if value == [None, None]:
        return [None, None]
    if value in (["red", "black"], ["black", "red"]):
        return [COLOUR_NAMES.index(k) for k in value]
    raise ValueError(f"team_colours: {_show(value)} must be [null, null] (not fixed yet), "
                     "['red', 'black'] or ['black', 'red'] (team 0's colour first)")


# ----- field readers: each names its field and never echoes more than ~80 characters ----------
def _show(value: Any) -> str:
    try:
        text = reprlib.repr(value)  # bounded depth and length
    except ValueError:  # an int too long to print
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def _keys(data: Any, game: PilesGame) -> tuple[str, ...]:
    if not isinstance(data, dict):
        raise ValueError(f"a piles snapshot must be a dict, got {type(data).__name__}")
    fmt = data.get("format", game.snapshot_format)
    if type(fmt) is not int or fmt not in KEYS:
        raise ValueError(f"format: {_show(fmt)} is not supported; expected one of {sorted(KEYS)}")
    keys = KEYS[fmt]
    missing, extra = [k for k in keys if k not in data], [k for k in data if k not in keys]
    if missing or extra:
        raise ValueError(f"bad piles snapshot: missing keys {missing}, unknown keys {_show(extra)}; "
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
