"""Field readers for snapshot loaders (each game's `snapshot.validate`).

Each reader names the field it refuses and shows at most ~80 characters of the input, however
large or deeply nested it is (reprlib bounds the depth), and a few of the accepted names or keys
(`some`), never all of them: a refused snapshot gets a short ValueError (~200 characters at
most), never a RecursionError or the whole input echoed back.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from card_envs.core.cards import STANDARD_SUITS, card_names
from card_envs.core.game import Game
from card_envs.core.registry import list_envs, make_game
from card_envs.core.text import show, some


def check_keys(data: Any, game: Any, keys_by_format: Mapping[int, Sequence[str]]) -> tuple[str, ...]:
    """The keys of `data`'s snapshot format, once `data` is a dict with exactly those keys, for
    this game and its number of players. A missing format means the game's current one."""
    if not isinstance(data, dict):
        raise ValueError(f"a {game.name} snapshot must be a dict, got {type(data).__name__}")
    fmt = data.get("format", game.snapshot_format)
    if type(fmt) is not int or fmt not in keys_by_format:
        raise ValueError(f"format: {show(fmt)} is not supported; expected one of {sorted(keys_by_format)}")
    keys = tuple(keys_by_format[fmt])
    problem = key_problems(data, keys)
    if problem:
        raise ValueError(f"{game.name} snapshot: {problem} (format {fmt} has {len(keys)} keys)")
    if data["game"] != game.name:
        raise ValueError(f"game: snapshot is for game {show(data['game'])}, not {game.name!r}")
    if type(data["num_players"]) is not int or data["num_players"] != game.num_players:
        raise ValueError(f"num_players: snapshot has {show(data['num_players'])} but this env has {game.num_players}")
    return keys


def check_config(config: Any, game: Game, env_id: str) -> None:
    """Refuse a snapshot saved under another configuration than `game`'s. Options its config
    lacks (it was saved before they existed) take their defaults, the registered env's (the game
    class's for an env built outside the registry); any other difference, an unknown option
    included, is refused."""
    if not isinstance(config, dict):
        raise ValueError(f"snapshot config {show(config)} must be a dict of the env's options")
    missing = [k for k in game.config if k not in config]
    if missing:
        defaults = (make_game(env_id) if env_id in list_envs() else type(game)()).config
        config = {**{k: defaults[k] for k in missing}, **config}
    if config != game.config:
        unknown = [k for k in config if k not in game.config]
        if unknown:
            raise ValueError(f"config: unknown options {show(unknown)}; this env's options: {some(game.config)}")
        differ = [k for k in game.config if config[k] != game.config[k]]
        raise ValueError(f"config: options {differ} differ: the snapshot has {show({k: config[k] for k in differ})}, "
                         f"this env {show({k: game.config[k] for k in differ})}")


def key_problems(data: dict, keys: Sequence[str], noun: str = "key") -> str:
    """What keeps `data` from having exactly `keys` ('' when nothing): a few of the missing and of
    the unknown ones."""
    missing, extra = [k for k in keys if k not in data], [k for k in data if k not in keys]
    problems = ([f"missing {noun}s {some(missing)}"] if missing else []) + (
        [f"unknown {noun}s {some(extra, most=2)}"] if extra else [])
    return "; ".join(problems)


def read_object(value: Any, field: str, keys: Sequence[str]) -> dict:
    """A dict with exactly `keys`."""
    if not isinstance(value, dict):
        raise ValueError(f"{field}: {show(value)} must be an object with the {len(keys)} keys {some(keys)}")
    problem = key_problems(value, keys)
    if problem:
        raise ValueError(f"{field}: {problem} (it has exactly {len(keys)} keys)")
    return value


def read_int(value: Any, field: str, high: int, low: int = 0) -> int:
    """A plain int in low..high: bools, floats and numeric strings are refused, not coerced."""
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{field}: {show(value)} must be an integer in {low}..{high}")
    return value


def read_list(value: Any, field: str, length: int | None = None, most: int | None = None) -> list:
    """A list of exactly `length` or at most `most` entries, refused by its length before any
    entry is read: later checks may cost more than linear time in it."""
    if not isinstance(value, (list, tuple)) or (length is not None and len(value) != length):
        raise ValueError(f"{field}: {show(value)} must be a list" + (f" of {length}" if length is not None else ""))
    if most is not None and len(value) > most:
        raise ValueError(f"{field}: {len(value)} entries; this game allows at most {most} there")
    return list(value)


def read_cards(value: Any, field: str, num_cards: int = 52, suits: str = STANDARD_SUITS) -> list[int]:
    """Card names (``"10D"``) as card ints; at most a deck's worth."""
    names = read_list(value, field, most=num_cards)
    index = _card_index(num_cards, suits)
    cards = []
    for i, name in enumerate(names):
        card = index.get(name.upper()) if isinstance(name, str) else None
        if card is None:
            raise ValueError(f"{field}[{i}]: {show(name)} is not a card name like 'AS' or '10D'")
        cards.append(card)
    return cards


def each_card_once(places: Sequence[tuple[str, Sequence[int]]], num_cards: int = 52,
                   suits: str = STANDARD_SUITS) -> None:
    """Card conservation: each card of the deck lies in exactly one of the named places."""
    where: dict[int, str] = {}
    for field, cards in places:
        for c in cards:
            if c in where:
                raise ValueError(f"{field}: {card_names([c], suits)[0]} is also in {where[c]}; a snapshot holds "
                                 f"each of the {num_cards} cards exactly once")
            where[c] = field
    if len(where) != num_cards:
        missing = card_names(sorted(set(range(num_cards)) - set(where)), suits)
        raise ValueError(f"cards: {show(missing)} missing; a snapshot holds each of the {num_cards} cards exactly once")


_INDEXES: dict[tuple[int, str], dict[str, int]] = {}


def _card_index(num_cards: int, suits: str) -> dict[str, int]:
    key = (num_cards, suits)
    if key not in _INDEXES:
        _INDEXES[key] = {name: c for c, name in enumerate(card_names(range(num_cards), suits))}
    return _INDEXES[key]
