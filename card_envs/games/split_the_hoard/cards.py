"""The Split the Hoard card list: loading and validating a cards file (``cards.json`` by default).

A cards file holds the Hoard cards (one row per name, with its copies), the 5 Starting Titles, the
hidden Titles and the classes. Every ability is a list ``[PRIMITIVE, *args]`` naming one effect
primitive of `effects.PRIMITIVES`, so a new card whose effect is a known primitive is a data row.
Errors name the bad entry (``hoard[3] 'Pearl': ...``) and never echo more than ~80 characters.

`CardSet` turns the rows into per-card tuples indexed by card id (0..num_cards-1, grouped by name
in file order): cards are small ints everywhere else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from card_envs.core.snapshot import show
from card_envs.games.split_the_hoard.effects import CLASS_PHASES, PHASES, PRIMITIVES

DEFAULT_CARDS = Path(__file__).with_name("cards.json")
CARDS_FORMAT = 1
STARTING_CRITERIA = ("highest_total_rank", "lowest_total_rank", "longest_run", "balance", "most_coins")
HIDDEN_CRITERIA = {  # type -> required keys besides "type"
    "k_of": ("k", "names"), "all_of": ("groups",), "distinct_names": ("k",), "max_rank": ("min",),
    "coins_vs_treasures": ("ratio", "min_coins"), "coins_at_most": ("n",), "icons": ("phases", "k"),
}
CONDITIONS = ("has_any", "won_starting_titles")
MAX_PLAYERS = 5


@dataclass(frozen=True)
class HoardRow:
    name: str
    copies: int
    rank: int | None  # fixed rank, or the modifier's +/- value, or None (unranked)
    modifier: bool
    vp: int
    condition: tuple | None  # ("has_any", names) / ("won_starting_titles", k)
    phase: str  # one of effects.PHASES
    effect: tuple | None  # (PRIMITIVE, *args)
    trigger: str | None  # "enter_haul" (Deal) or None


@dataclass(frozen=True)
class StartingTitle:
    name: str
    criterion: str
    min: int
    tie_class: str


@dataclass(frozen=True)
class HiddenTitle:
    name: str
    vp: int
    criterion: dict


@dataclass(frozen=True)
class ClassRow:
    name: str
    power: str
    phase: str  # one of effects.CLASS_PHASES
    effect: tuple


class CardSet:
    """A validated card list with per-name and per-card lookup tables."""

    def __init__(self, data: Any, source: str = "cards"):
        self.source = source
        rows, starting, hidden, classes = _validate(data, source)
        self.rows: tuple[HoardRow, ...] = rows
        self.starting: tuple[StartingTitle, ...] = starting
        self.hidden: tuple[HiddenTitle, ...] = hidden
        self.classes: tuple[ClassRow, ...] = classes
        self.names = tuple(r.name for r in rows)
        self.name_index = {r.name: i for i, r in enumerate(rows)}
        self.title_names = tuple(t.name for t in hidden)
        self.title_index = {t.name: i for i, t in enumerate(hidden)}
        self.class_names = tuple(c.name for c in classes)
        self.class_index = {c.name: i for i, c in enumerate(classes)}
        self.num_names = len(rows)
        self.max_copies = max(r.copies for r in rows)
        name_of: list[int] = []
        for i, r in enumerate(rows):
            name_of += [i] * r.copies
        self.num_cards = len(name_of)
        self.NAME = tuple(name_of)  # card id -> name index
        self.first_card = tuple(name_of.index(i) for i in range(len(rows)))  # name -> its lowest card id
        self.total_vp = sum(r.vp * r.copies for r in rows)
        # per-name tables (rules and scoring index these by name)
        self.fixed = tuple(r.rank is not None and not r.modifier for r in rows)
        self.is_mod = tuple(r.modifier for r in rows)
        self.rank = tuple(r.rank if r.rank is not None else 0 for r in rows)
        self.vp = tuple(r.vp for r in rows)
        self.phase = tuple(r.phase for r in rows)
        self.effect = tuple(r.effect for r in rows)
        self.enter_trigger = tuple(r.trigger == "enter_haul" for r in rows)
        self.condition = tuple(self._resolve_condition(r.condition) for r in rows)
        self.max_hidden_vp = max((t.vp for t in hidden), default=0)

    def _resolve_condition(self, cond):
        if cond is None:
            return None
        kind, arg = cond
        return (kind, frozenset(self.name_index[n] for n in arg)) if kind == "has_any" else (kind, arg)

    def names_of(self, cards) -> list[str]:
        return [self.names[self.NAME[c]] for c in cards]


_CACHE: dict[str, CardSet] = {}


def load_cards(cards: str | Path | None = None) -> CardSet:
    """The default list (None) or the cards file at `cards` (a path). Validated once per file
    content: the file is read every time, so an edited file is picked up."""
    path = DEFAULT_CARDS if cards is None else Path(cards)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cards={show(str(cards))}: cannot read the cards file ({type(error).__name__})") from None
    key = f"{path.name}\n{text}"  # the name appears in error messages
    if key in _CACHE:
        return _CACHE[key]
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise ValueError(f"cards file {path.name}: not valid JSON ({show(str(error))})") from None
    card_set = CardSet(data, path.name)
    _CACHE[key] = card_set
    return card_set


# ----- validation ------------------------------------------------------------------------------
def _fail(where: str, message: str):
    raise ValueError(f"{where}: {message}")


def _int(value: Any, where: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        _fail(where, f"{show(value)} must be an integer in {low}..{high}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 40:
        _fail(where, f"{show(value)} must be a non-empty name of at most 40 characters")
    return value


def _dict(value: Any, where: str, keys: tuple, optional: tuple = ()) -> dict:
    if not isinstance(value, dict):
        _fail(where, f"{show(value)} must be an object")
    missing = [k for k in keys if k not in value]
    extra = [k for k in value if k not in keys and k not in optional]
    if missing or extra:
        _fail(where, f"missing keys {missing}, unknown keys {show(extra)}")
    return value


def _list(value: Any, where: str, low: int = 0, high: int = 1000) -> list:
    if not isinstance(value, list) or not low <= len(value) <= high:
        _fail(where, f"{show(value)} must be a list of {low}..{high} entries")
    return value


def _effect(value: Any, where: str, allowed_phase_check=None) -> tuple:
    items = _list(value, where, 1, 4)
    name = items[0]
    if name not in PRIMITIVES:
        _fail(where, f"unknown effect primitive {show(name)}; known: {', '.join(sorted(PRIMITIVES))}")
    arity = PRIMITIVES[name].arity
    if len(items) - 1 != arity:
        _fail(where, f"{name} takes {arity} argument(s), got {len(items) - 1}")
    args = tuple(_int(a, f"{where}[{i + 1}]", 0, 20) for i, a in enumerate(items[1:]))
    if name in ("GAIN", "TAKE_COINS", "TAKE_EACH", "RECOVER_COINS", "DRAW_TREASURE", "PICK_TOP", "PEEK_DECK",
                "FLIP_COIN") and args[0] < 1:
        _fail(where, f"{name} needs a count of at least 1")
    return (name, *args)


def _validate(data: Any, source: str):
    top = _dict(data, source, ("format", "hoard", "starting_titles", "hidden_titles", "classes"))
    if top["format"] != CARDS_FORMAT:
        _fail(f"{source}.format", f"{show(top['format'])} is not supported; expected {CARDS_FORMAT}")
    rows = []
    seen: set[str] = set()
    for i, row in enumerate(_list(top["hoard"], f"{source}.hoard", 1, 200)):
        where = f"hoard[{i}]"
        row = _dict(row, where, ("name", "copies", "rank", "modifier", "vp", "condition", "phase", "effect"),
                    ("trigger",))
        name = _str(row["name"], f"{where}.name")
        where = f"hoard[{i}] {name!r}"
        if name in seen:
            _fail(where, "duplicate name")
        seen.add(name)
        copies = _int(row["copies"], f"{where}.copies", 1, 20)
        if not isinstance(row["modifier"], bool):
            _fail(f"{where}.modifier", f"{show(row['modifier'])} must be true or false")
        rank = None if row["rank"] is None else _int(row["rank"], f"{where}.rank", -20, 20)
        if row["modifier"] and (rank is None or rank == 0):
            _fail(f"{where}.rank", "a rank modifier needs a non-zero +/- value")
        if not row["modifier"] and rank is not None and rank < 1:
            _fail(f"{where}.rank", "a fixed rank is at least 1 (negative values are modifiers)")
        vp = _int(row["vp"], f"{where}.vp", 0, 50)
        phase = row["phase"]
        if phase not in PHASES:
            _fail(f"{where}.phase", f"{show(phase)} is not one of {PHASES}")
        effect = None if row["effect"] is None else _effect(row["effect"], f"{where}.effect")
        trigger = row.get("trigger")
        if trigger not in (None, "enter_haul"):
            _fail(f"{where}.trigger", f"{show(trigger)} must be \"enter_haul\" or absent")
        if (phase == "none") != (effect is None):
            _fail(where, "a card has an effect exactly when its phase is not \"none\"")
        if effect is not None:
            role = PRIMITIVES[effect[0]].role
            ok = {"reaction": role in ("cancel_coin", "cancel_treasure") or (trigger and role == "effect"),
                  "negotiate-react": role == "refuse"}.get(phase, role == "effect")
            if not ok or (trigger and phase != "reaction"):
                _fail(f"{where}.effect", f"{effect[0]} cannot be used in phase {phase!r}"
                      + (" with this trigger" if trigger else ""))
        rows.append(HoardRow(name, copies, rank, row["modifier"], vp, None, phase, effect, trigger))
    # conditions refer to names, so they are read once every name is known
    for i, row in enumerate(top["hoard"]):
        cond = row["condition"]
        if cond is None:
            continue
        where = f"hoard[{i}] {rows[i].name!r}.condition"
        if not isinstance(cond, dict) or len(cond) != 1 or next(iter(cond)) not in CONDITIONS:
            _fail(where, f"{show(cond)} must be {{\"has_any\": [names]}} or {{\"won_starting_titles\": k}}")
        kind, arg = next(iter(cond.items()))
        if kind == "has_any":
            arg = tuple(_known(n, f"{where}.has_any", seen) for n in _list(arg, f"{where}.has_any", 1, 50))
        else:
            arg = _int(arg, f"{where}.won_starting_titles", 1, 5)
        rows[i] = HoardRow(**{**rows[i].__dict__, "condition": (kind, arg)})
    starting = []
    for i, t in enumerate(_list(top["starting_titles"], f"{source}.starting_titles", 5, 5)):
        where = f"starting_titles[{i}]"
        t = _dict(t, where, ("name", "criterion", "min", "tie_class"))
        if t["criterion"] not in STARTING_CRITERIA:
            _fail(f"{where}.criterion", f"{show(t['criterion'])} is not one of {STARTING_CRITERIA}")
        starting.append(StartingTitle(_str(t["name"], f"{where}.name"), t["criterion"],
                                      _int(t["min"], f"{where}.min", 0, 200), _str(t["tie_class"], f"{where}.tie_class")))
    hidden = []
    for i, t in enumerate(_list(top["hidden_titles"], f"{source}.hidden_titles", MAX_PLAYERS, 100)):
        where = f"hidden_titles[{i}]"
        t = _dict(t, where, ("name", "vp", "criterion"))
        name = _str(t["name"], f"{where}.name")
        hidden.append(HiddenTitle(name, _int(t["vp"], f"{where} {name!r}.vp", 0, 100),
                                  _criterion(t["criterion"], f"{where} {name!r}.criterion", seen)))
    classes = []
    for i, c in enumerate(_list(top["classes"], f"{source}.classes", MAX_PLAYERS, MAX_PLAYERS)):
        where = f"classes[{i}]"
        c = _dict(c, where, ("name", "power", "phase", "effect"))
        if c["phase"] not in CLASS_PHASES:
            _fail(f"{where}.phase", f"{show(c['phase'])} is not one of {tuple(CLASS_PHASES)}")
        effect = _effect(c["effect"], f"{where}.effect")
        if effect[0] not in CLASS_PHASES[c["phase"]]:
            _fail(f"{where}.effect", f"{effect[0]} cannot be a class power of phase {c['phase']!r}")
        classes.append(ClassRow(_str(c["name"], f"{where}.name"), _str(c["power"], f"{where}.power"),
                                c["phase"], effect))
    for what, names in (("starting_titles", [t.name for t in starting]), ("hidden_titles", [t.name for t in hidden]),
                        ("classes", [c.name for c in classes])):
        if len(set(names)) != len(names):
            _fail(f"{source}.{what}", "duplicate names")
    for i, t in enumerate(starting):
        if t.tie_class not in [c.name for c in classes]:
            _fail(f"starting_titles[{i}].tie_class", f"{t.tie_class!r} is not a class")
    if len({t.criterion for t in starting}) != 5:
        _fail(f"{source}.starting_titles", "each of the 5 criteria must appear once")
    return tuple(rows), tuple(starting), tuple(hidden), tuple(classes)


def _known(name: Any, where: str, names: set[str]) -> str:
    if name not in names:
        _fail(where, f"{show(name)} is not a Hoard card name")
    return name


def _criterion(value: Any, where: str, names: set[str]) -> dict:
    if not isinstance(value, dict) or value.get("type") not in HIDDEN_CRITERIA:
        _fail(where, f"{show(value)} must be an object with a type in {tuple(HIDDEN_CRITERIA)}")
    kind = value["type"]
    value = _dict(value, where, ("type",) + HIDDEN_CRITERIA[kind])
    out: dict[str, Any] = {"type": kind}
    for key in HIDDEN_CRITERIA[kind]:
        v = value[key]
        if key == "names":
            out[key] = tuple(_known(n, f"{where}.names", names) for n in _list(v, f"{where}.names", 1, 50))
        elif key == "groups":
            out[key] = tuple(tuple(_known(n, f"{where}.groups", names) for n in _list(g, f"{where}.groups", 1, 50))
                             for g in _list(v, f"{where}.groups", 1, 20))
        elif key == "phases":
            out[key] = tuple(p for p in _list(v, f"{where}.phases", 1, 6))
            if any(p not in PHASES for p in out[key]):
                _fail(f"{where}.phases", f"{show(v)} must name phases of {PHASES}")
        else:
            out[key] = _int(v, f"{where}.{key}", 0, 200)
    return out
