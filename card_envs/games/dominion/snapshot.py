"""JSON snapshots (format 1) and the one validation function that states their invariants.

Keys: ``game``, ``format``, ``num_players``, ``kingdom`` (10 pile names), ``bane`` (pile name or
null), ``seed`` and ``shuffles`` (shuffle k uses ``default_rng([seed, k])``), ``turn_player``,
``current_player``, ``phase`` (action / treasure / buy / over), ``coins``, ``actions``, ``buys``,
``saunas`` (Saunas played this turn), ``fortune_used``, ``immune`` (per seat: revealed Moat
against the Attack being resolved), ``supply`` ({pile: [[card, count], ...] runs top first}),
``trash`` ({card: count}), ``players`` (per seat: ``hand`` and ``known_hand`` {card: count},
``deck`` top first with ``deck_known`` 0/1/2 = unknown / known to the owner / known to all,
``discard`` bottom first, ``in_play``, ``set_aside``, ``vp_tokens``, ``debt``, ``turns``) and
``tasks`` (the pending-work stack, bottom first: ``op``, ``kind``, ``p``, ``card``, ``lo``, ``hi``,
``x``; see effects.py).

Format 2 (tier 3) adds ``ally`` (an Ally's name or null), ``previous_turn`` (the seat that took the
previous turn, -1 before the first), ``extra_turn`` (a Voyage extra turn) and ``plays_left`` (cards
it may still play from hand, null outside one), and per seat ``favors``, ``skips`` (turns to skip,
Lich) and ``durations`` ([card, x] per Duration card in play that acts at the seat's next turn; x:
Garrison's tokens, Warlord's Moat-immune seats as a bitmask, else 0). Format 1 snapshots still
load (no Ally, nothing pending).
"""

from __future__ import annotations

from typing import Any

from card_envs.core.snapshot import check_keys, key_problems, read_int, read_list, read_object, show
from card_envs.core.text import some
from card_envs.games.dominion import effects as fx
from card_envs.games.dominion.rules import DominionState, in_split
from card_envs.games.dominion.cards import (
    ALLIES, ALLIES_PILES, BANE_CANDIDATES, CARD_ID, CARD_NAMES, CATAPULT, COPPER, COST, DEBT, ENCAMPMENT, ESTATE,
    FORTUNE, GARRISON, HERB_GATHERER, IS_ACTION, IS_ATTACK, IS_TREASURE, KINGDOM_PILES, LICH, MILITIA, NUM_CARDS,
    OPULENT_CASTLE, PILE_CARDS, PILE_ID, PILE_NAMES, PILE_OF, PROVINCE_PILE, RETURNS_TO_PILE, VOYAGE, WARLORD,
    WIZARDS_PILE, pile_setup)

FORMAT = 2
KEYS_1 = ("game", "format", "num_players", "kingdom", "bane", "seed", "shuffles", "turn_player", "current_player",
          "phase", "coins", "actions", "buys", "saunas", "fortune_used", "immune", "supply", "trash", "players",
          "tasks")
KEYS = KEYS_1 + ("ally", "previous_turn", "extra_turn", "plays_left")
PLAYER_KEYS_1 = ("hand", "known_hand", "deck", "deck_known", "discard", "in_play", "set_aside", "vp_tokens", "debt",
                 "turns")
PLAYER_KEYS = PLAYER_KEYS_1 + ("favors", "skips", "durations")
DURATION_CARDS = frozenset(CARD_ID[x] for x in ("Warlord", "Garrison", "Conjurer", "Voyage", "Stronghold"))
ALLY_KINDS = {"mountain_folk": 0, "peaceful_cult": 3, "cave_dwellers": 4, "band_of_nomads": 2}
ROTATORS = {"Herb Gatherer", "Town Crier", "Tent", "Old Map", "Student"}
TASK_KEYS = ("op", "kind", "p", "card", "lo", "hi", "x")
START_OF_TURN_KINDS = frozenset({"mountain_folk", "cave_dwellers"})  # the Allies' asks as a turn starts
PHASES = ("action", "treasure", "buy", "over")
BIG = 10**6
# Decisions asked of a seat other than the one whose turn it is.
VICTIM_KINDS = frozenset({"moat", "discard_down", "bane", "haunted", "archer_hide", "sorcerer"})
# The card whose effect may ask each decision (None: any card, e.g. a gained Castle's).
SOURCES = {"cellar": {"Cellar"}, "chapel": {"Chapel"}, "moat": None, "workshop": {"Workshop"},
           "discard_down": {"Militia", "Catapult"}, "remodel_trash": {"Remodel"}, "remodel_gain": {"Remodel"},
           "yw_discard": {"Young Witch"}, "bane": {"Young Witch"}, "encampment": {"Encampment"},
           "settlers": {"Settlers"}, "bustling": {"Bustling Village"}, "catapult": {"Catapult"},
           "gladiator": {"Gladiator"}, "gladiator_copy": {"Gladiator"}, "sauna_avanto": {"Sauna"},
           "avanto_sauna": {"Avanto"}, "sauna_trash": {"Silver"}, "small_castle": {"Small Castle"},
           "haunted": {"Haunted Castle"}, "opulent": {"Opulent Castle"}, "sprawling": {"Sprawling Castle"},
           "rotate": ROTATORS, "rotate_any": {"Battle Plan"}, "herb_gatherer": {"Herb Gatherer"},
           "acolyte": {"Acolyte"}, "acolyte_self": {"Acolyte"}, "sorceress": {"Sorceress"}, "sibyl_top": {"Sibyl"},
           "sibyl_bottom": {"Sibyl"}, "battle_plan": {"Battle Plan"}, "archer_hide": {"Archer"},
           "archer_pick": {"Archer"}, "tent": {"Tent"}, "hill_fort": {"Hill Fort"}, "mode": set(fx.MODES),
           "old_map": {"Old Map"}, "sunken_treasure": {"Sunken Treasure"}, "student": {"Student"},
           "conjurer": {"Conjurer"}, "sorcerer": {"Sorcerer"}, "lich": {"Lich"}, "elder": {"Elder"},
           "miller": {"Miller"}, "mountain_folk": None, "band_of_nomads": None, "peaceful_cult": None,
           "cave_dwellers": None}


def _runs(cards_top_first: list[int]) -> list[list]:
    out: list[list] = []
    for c in cards_top_first:
        if out and out[-1][0] == CARD_NAMES[c]:
            out[-1][1] += 1
        else:
            out.append([CARD_NAMES[c], 1])
    return out


def _counts(counts: list[int]) -> dict[str, int]:
    return {CARD_NAMES[c]: k for c, k in enumerate(counts) if k}


def to_json(s) -> dict[str, Any]:
    names = CARD_NAMES
    return {
        "game": s.game.name, "format": FORMAT, "num_players": s.n,
        "kingdom": [PILE_NAMES[p] for p in s.kingdom], "bane": PILE_NAMES[s.bane] if s.bane >= 0 else None,
        "seed": s.seed, "shuffles": s.shuffles, "turn_player": s.turn_player, "current_player": s.current_player,
        "phase": PHASES[s.phase], "coins": s.coins, "actions": s.actions, "buys": s.buys, "saunas": s.saunas,
        "fortune_used": s.fortune_used, "immune": list(s.immune),
        "supply": {PILE_NAMES[p]: _runs(s.piles[p][::-1]) for p in s.supply},
        "trash": _counts(s.trash),
        "players": [{
            "hand": _counts(s.hands[q]), "known_hand": _counts(s.known[q]),
            "deck": [names[c] for c in reversed(s.decks[q])], "deck_known": s.deck_known[q][::-1],
            "discard": [names[c] for c in s.discards[q]], "in_play": [names[c] for c in s.in_play[q]],
            "set_aside": [names[c] for c in s.set_aside[q]], "vp_tokens": s.vp[q], "debt": s.debt[q],
            "turns": s.turns[q], "favors": s.favors[q], "skips": s.skips[q],
            "durations": [[names[c], x] for c, x in s.durations[q]]} for q in range(s.n)],
        "tasks": [{**t, "card": names[t["card"]] if t["card"] >= 0 else None} for t in s.tasks],
        "ally": ALLIES[s.ally] if s.ally >= 0 else None, "previous_turn": s.prev_turn, "extra_turn": s.extra_turn,
        "plays_left": s.plays_left if s.plays_left >= 0 else None,
    }


# ----- readers -----------------------------------------------------------------------------------
def _card(value: Any, field: str) -> int:
    if not isinstance(value, str) or value not in CARD_ID:
        raise ValueError(f"{field}: {show(value)} is not a card name of this game; cards: {some(CARD_NAMES, value, 3)}")
    return CARD_ID[value]


def _cards(value: Any, field: str, most: int) -> list[int]:
    return [_card(x, f"{field}[{i}]") for i, x in enumerate(read_list(value, field, most=most))]


def _count_dict(value: Any, field: str, most: int) -> list[int]:
    if not isinstance(value, dict):
        raise ValueError(f"{field}: {show(value)} must be a dict of card name -> count")
    counts = [0] * NUM_CARDS
    for key, k in value.items():
        c = _card(key, f"{field} key")
        counts[c] = read_int(k, f"{field}[{key!r}]", most, 1)
    return counts


def _pile(value: Any, field: str) -> int:
    if not isinstance(value, str) or value not in PILE_ID:
        raise ValueError(f"{field}: {show(value)} is not a pile name; piles: {some(PILE_NAMES, value)}")
    return PILE_ID[value]


def _flag(value: Any, field: str) -> bool:
    if type(value) is not bool:
        raise ValueError(f"{field}: {show(value)} must be true or false")
    return value


# ----- the validation --------------------------------------------------------------------------
def from_json(game, data: Any):
    """Build a state from a snapshot, refusing (ValueError naming the field) anything the rules
    cannot reach: see the invariants checked below."""
    check_keys(data, game, {1: KEYS_1, FORMAT: KEYS})
    fmt = data.get("format", FORMAT)
    if fmt == 1:  # no tier-3 state: fill in the defaults of format 2
        data = {**data, "ally": None, "previous_turn": None, "extra_turn": False, "plays_left": None,
                "players": [{**pl, "favors": 0, "skips": 0, "durations": []} if isinstance(pl, dict) else pl
                            for pl in read_list(data["players"], "players", game.num_players)]}
    n = game.num_players
    s = DominionState(game)

    # Kingdom: 10 distinct Kingdom piles; a Bane exactly when Young Witch is in it, costing $2-$3.
    kingdom = [_pile(x, f"kingdom[{i}]") for i, x in enumerate(read_list(data["kingdom"], "kingdom", 10))]
    if len(set(kingdom)) != 10 or any(p not in KINGDOM_PILES for p in kingdom):
        raise ValueError(f"kingdom: {show(data['kingdom'])} must name 10 distinct Kingdom piles")
    bane = -1 if data["bane"] is None else _pile(data["bane"], "bane")
    has_yw = PILE_ID["Young Witch"] in kingdom
    if has_yw != (bane >= 0) or (bane >= 0 and (bane not in BANE_CANDIDATES or bane in kingdom)):
        raise ValueError(f"bane: {show(data['bane'])}; a Bane (a $2-$3 Kingdom pile outside the 10) is set "
                         "exactly when Young Witch is in the kingdom")
    if game.fixed_kingdom is not None and sorted(kingdom) != sorted(game.fixed_kingdom):
        raise ValueError("kingdom: the snapshot's kingdom differs from this env's kingdom argument")
    if not in_split(kingdom, game.kingdom_split):
        raise ValueError(f"kingdom: the snapshot's kingdom is not one of this env's kingdom={game._kingdom_arg!r} "
                         f"(held-out kingdoms: rules.held_out)")
    s.kingdom, s.bane = kingdom, bane
    has_liaison = WIZARDS_PILE in kingdom or bane == WIZARDS_PILE
    if data["ally"] is not None and (not isinstance(data["ally"], str) or data["ally"] not in ALLIES):
        raise ValueError(f"ally: {show(data['ally'])} must be null or one of {some(ALLIES, data['ally'])}")
    s.ally = ALLIES.index(data["ally"]) if data["ally"] is not None else -1
    if has_liaison != (s.ally >= 0):
        raise ValueError(f"ally: {show(data['ally'])}; exactly one Ally is dealt when a Liaison (Student, in "
                         "Wizards) is in the Supply, and none otherwise")
    if game.ally_arg is not None and s.ally >= 0 and ALLIES[s.ally] != game.ally_arg:
        raise ValueError("ally: the snapshot's Ally differs from this env's ally argument")
    s.supply = list(range(7)) + sorted(set(kingdom) | ({bane} if bane >= 0 else set()))
    most = sum(len(pile_setup(p, n)) for p in s.supply) + 10 * n  # every card of the game: no list is longer

    s.seed = read_int(data["seed"], "seed", 2**63)
    s.shuffles = read_int(data["shuffles"], "shuffles", BIG)
    s.turn_player = read_int(data["turn_player"], "turn_player", n - 1)
    s.current_player = read_int(data["current_player"], "current_player", n - 1)
    if not isinstance(data["phase"], str) or data["phase"] not in PHASES:
        raise ValueError(f"phase: {show(data['phase'])} must be one of {PHASES}")
    s.phase = PHASES.index(data["phase"])
    s.coins = read_int(data["coins"], "coins", BIG)
    s.actions = read_int(data["actions"], "actions", BIG)
    s.buys = read_int(data["buys"], "buys", BIG)
    s.saunas = read_int(data["saunas"], "saunas", BIG)
    s.fortune_used = _flag(data["fortune_used"], "fortune_used")
    s.immune = [_flag(x, f"immune[{i}]") for i, x in enumerate(read_list(data["immune"], "immune", n))]
    prev = data["previous_turn"]
    s.prev_turn = _previous_turn_v1(data, n) if fmt == 1 else read_int(prev, "previous_turn", n - 1, -1)
    s.extra_turn = _flag(data["extra_turn"], "extra_turn")
    s.plays_left = -1 if data["plays_left"] is None else read_int(data["plays_left"], "plays_left", 3)
    if s.extra_turn != (s.plays_left >= 0):
        raise ValueError("plays_left: a number (0..3) exactly during a Voyage extra turn, else null")
    if s.extra_turn and s.prev_turn != s.turn_player:
        raise ValueError("previous_turn: an extra turn follows its player's own turn")

    # Supply: exactly this game's piles; each holds only its own cards, in setup order below
    # any returned cards on top (rules 1, 3, 4).
    supply = data["supply"]
    piles = [PILE_NAMES[p] for p in s.supply]
    if not isinstance(supply, dict):
        raise ValueError(f"supply: {show(supply)} must be a dict of this game's {len(piles)} piles: {some(piles)}")
    if set(supply) != set(piles):
        raise ValueError(f"supply: {key_problems(supply, piles, 'pile')} (this game has {len(piles)} piles)")
    for p in s.supply:
        field = f"supply[{PILE_NAMES[p]!r}]"
        cards: list[int] = []
        setup = pile_setup(p, n)
        for i, run in enumerate(read_list(supply[PILE_NAMES[p]], field, most=len(setup))):
            run = read_list(run, f"{field}[{i}]", 2)
            cards += [_card(run[0], f"{field}[{i}][0]")] * read_int(run[1], f"{field}[{i}][1]", len(setup), 1)
            if len(cards) > len(setup):
                raise ValueError(f"{field}: more than the {len(setup)} cards the pile starts with")
        if any(PILE_OF[c] != p for c in cards):
            raise ValueError(f"{field}: holds a card of another pile")
        k = 0
        while k < len(cards) and cards[k] in RETURNS_TO_PILE:
            k += 1
        rest = cards[k:]
        rotates = p in ALLIES_PILES or PILE_ID["Clashes"] in s.supply  # rule 7: its own rotator, Battle Plan
        if rest and rest != setup[len(setup) - len(rest):] and not (rotates and _rotated_order_ok(rest, setup)):
            raise ValueError(f"{field}: not in setup order (only a returned Encampment may cover other cards"
                             + (", and rotating moves whole runs" if rotates else "") + ")")
        s.piles[p] = cards[::-1]
    s.trash = _count_dict(data["trash"], "trash", most)

    players = read_list(data["players"], "players", n)
    for q, pl in enumerate(players):
        f = f"players[{q}]"
        read_object(pl, f, PLAYER_KEYS)
        s.hands[q] = _count_dict(pl["hand"], f"{f}.hand", most)
        s.hsize[q] = sum(s.hands[q])
        s.known[q] = _count_dict(pl["known_hand"], f"{f}.known_hand", most)
        if any(k > h for k, h in zip(s.known[q], s.hands[q])):
            raise ValueError(f"{f}.known_hand: more known copies than the hand holds")
        deck = _cards(pl["deck"], f"{f}.deck", most)
        flags = read_list(pl["deck_known"], f"{f}.deck_known", len(deck))
        s.deck_known[q] = [read_int(x, f"{f}.deck_known[{i}]", 2) for i, x in enumerate(flags)][::-1]
        s.decks[q] = deck[::-1]
        s.discards[q] = _cards(pl["discard"], f"{f}.discard", most)
        s.in_play[q] = _cards(pl["in_play"], f"{f}.in_play", most)
        s.set_aside[q] = _cards(pl["set_aside"], f"{f}.set_aside", most)
        s.vp[q] = read_int(pl["vp_tokens"], f"{f}.vp_tokens", BIG)
        s.debt[q] = read_int(pl["debt"], f"{f}.debt", BIG)
        s.turns[q] = read_int(pl["turns"], f"{f}.turns", game.max_turns)
        s.favors[q] = read_int(pl["favors"], f"{f}.favors", BIG)
        if s.favors[q] and s.ally < 0:
            raise ValueError(f"{f}.favors: Favors are used only with an Ally")
        s.durations[q] = _durations(pl["durations"], f"{f}.durations", n, q, most)
        owned = s.owned[q]
        for zone in (s.decks[q], s.discards[q], s.in_play[q], s.set_aside[q]):
            for c in zone:
                owned[c] += 1
        for c in range(NUM_CARDS):
            owned[c] += s.hands[q][c]
        s.skips[q] = read_int(pl["skips"], f"{f}.skips", owned[LICH])
        waiting = sorted(c for c, _ in s.durations[q])
        if q != s.turn_player or s.phase == 3:
            if sorted(s.in_play[q]) != waiting:
                raise ValueError(f"{f}: outside its turn a seat has in play exactly its Duration cards that "
                                 "wait for its next turn (durations)")
            if any(c == GARRISON and x == 0 for c, x in s.durations[q]):
                raise ValueError(f"{f}.durations: a Garrison without tokens is discarded at Clean-up")
        else:
            play = list(s.in_play[q])
            for c in waiting:
                if c not in play:
                    raise ValueError(f"{f}.durations: a {CARD_NAMES[c]} waits but is not in play")
                play.remove(c)
        if q != s.turn_player and s.set_aside[q]:
            raise ValueError(f"{f}: only the player whose turn it is has cards set aside")
        if q != s.turn_player and any(c == VOYAGE for c, _ in s.durations[q]):
            raise ValueError(f"{f}.durations: a Voyage's extra turn follows its player's turn at once")
        if any(c not in RETURNS_TO_PILE for c in s.set_aside[q]):
            raise ValueError(f"{f}.set_aside: only an Encampment is ever set aside")

    _check_conservation(s, game)
    _check_turns(s, game)
    _check_debt(s)
    s.tasks = _tasks(data["tasks"], s)
    _check_game_goes_on(s, game)
    _check_settled(s)
    return s


def _previous_turn_v1(data: dict, n: int) -> int:
    """Format 1 (no extra or skipped turns): the seat before the turn player, the turn player
    himself once the game is over, -1 before the first turn."""
    t = read_int(data["turn_player"], "turn_player", n - 1)
    if data["phase"] == "over":
        return t
    players = data["players"]  # read (as a list of n) above
    first = t == 0 and all(isinstance(pl, dict) and pl.get("turns") == 0 for pl in players)
    return -1 if first else (t - 1) % n


def _check_conservation(s, game) -> None:
    """Every card name: Supply + trash + every player's zones == the game's starting total."""
    n = s.n
    total = [0] * NUM_CARDS
    for p in s.supply:
        for c in pile_setup(p, n):
            total[c] += 1
    total[COPPER] += 7 * n
    total[ESTATE] += 3 * n
    found = list(s.trash)
    for p in s.supply:
        for c in s.piles[p]:
            found[c] += 1
    for q in range(n):
        for c in range(NUM_CARDS):
            found[c] += s.owned[q][c]
    for c in range(NUM_CARDS):
        if found[c] != total[c]:
            raise ValueError(f"cards: {found[c]} {CARD_NAMES[c]} in the Supply, trash and players' zones; "
                             f"this game has {total[c]}")


def _check_ended(s, game) -> None:
    """A finished game met an end condition (rule: at the end of a turn in which the Province pile
    or any third Supply pile emptied; our cap: every seat has had max_turns turns)."""
    empty = sum(1 for p in s.supply if not s.piles[p])
    if s.piles[PROVINCE_PILE] and empty < 3 and min(s.turns) < game.max_turns:
        raise ValueError(f"phase: 'over', but the game has not ended: the Province pile holds "
                         f"{len(s.piles[PROVINCE_PILE])} cards, {empty} Supply piles are empty (3 end the game) "
                         f"and a seat has had {min(s.turns)} of max_turns={game.max_turns} turns")


def _check_turns(s, game) -> None:
    """Seat 0 starts, so seats before the turn player have had one turn more; per-phase counts."""
    t, base = s.turn_player, s.turns[s.turn_player]
    over = s.phase == 3
    if over:
        _check_ended(s, game)
    for q in range(s.n):
        want = base + (1 if q < t else 0)
        if over or s.extra_turn:  # the turn player's (last) turn is already counted
            want = base if q <= t else base - 1
        if s.turns[q] != want:
            raise ValueError(f"players[{q}].turns: {s.turns[q]}, but seat 0 starts and turns alternate "
                             f"(expected {want})")
    play = s.in_play[t]
    if s.phase == 0 and HERB_GATHERER not in play and any(IS_TREASURE[c] and not IS_ACTION[c] for c in play):
        raise ValueError("phase: Treasures are in play during the Action phase")
    if s.extra_turn and VOYAGE not in play:
        raise ValueError("extra_turn: the Voyage that gave it is not in play")
    if sum(1 for c, _ in s.durations[t] if c == VOYAGE) > (0 if s.extra_turn else 1):
        raise ValueError("players.durations: at most one Voyage extra turn follows a turn, none an extra turn")
    if s.prev_turn < 0 and (sum(s.turns) or t != 0):
        raise ValueError("previous_turn: -1 only before the first turn")
    if s.fortune_used and FORTUNE not in play:
        raise ValueError("fortune_used: no Fortune is in play")
    if s.saunas > play.count(CARD_ID["Sauna"]):
        raise ValueError("saunas: more Saunas played than are in play")
    if over:
        if s.set_aside[t] or s.coins or s.saunas or s.fortune_used or s.actions != 1 or s.buys != 1 \
                or s.extra_turn:
            raise ValueError("phase: 'over' leaves a cleaned-up position (nothing in play, counters reset)")


def _check_debt(s) -> None:
    """Debt comes only from buying a card with a Debt cost (Fortune), and nothing is bought
    while Debt is held: at most one such card's Debt."""
    most = max((DEBT[c] for p in s.supply for c in PILE_CARDS[p]), default=0)
    for q, debt in enumerate(s.debt):
        if debt > most:
            raise ValueError(f"players[{q}].debt: {debt}, but " + (
                f"a player holds at most {most} Debt (one Debt card's; no buying while in Debt)" if most else
                "no card in this Supply costs Debt (only Fortune does, in Gladiator/Fortune)"))


def _check_game_goes_on(s, game) -> None:
    """The game ends at the end of the turn in which the Province pile or a third Supply pile
    empties (or the last turn allowed), so none of that holds at the start of a turn: in its
    Action phase with nothing played, gained or bought yet. A turn's start is recognised by
    its untouched counters and an in-play zone of earlier turns' Durations only. With Wizards in
    the Supply, a card can leave play having gained and given its Action back (Acolyte or Small
    Castle with Band of Nomads, Student trashing Rocks): there only the Province pile, which no
    such card gains from, is checked."""
    if s.phase == 3:
        return
    if min(s.turns) >= game.max_turns:
        raise ValueError(f"players.turns: every seat has had max_turns={game.max_turns} turns, so the game is over "
                         "(phase 'over')")
    t = s.turn_player
    at_start = (s.phase == 0 and not s.durations[t] and not s.set_aside[t] and s.plays_left in (-1, 3)
                and (s.actions, s.buys, s.coins, s.saunas, s.fortune_used) == (1, 1, 0, 0, False)
                and all(c in DURATION_CARDS for c in s.in_play[t])
                and all(task["op"] == "ask" and task["kind"] in START_OF_TURN_KINDS for task in s.tasks))
    if not at_start:
        return
    if not s.piles[PROVINCE_PILE]:
        raise ValueError("supply['Province']: empty at the start of a turn, but the game ends at the end of the turn "
                         "in which the Province pile empties")
    empty = [PILE_NAMES[p] for p in s.supply if not s.piles[p]]
    if len(empty) >= 3 and WIZARDS_PILE not in s.supply:
        raise ValueError(f"supply: {show(empty)} are empty at the start of a turn, but the game ends at the end of the "
                         "turn in which a third Supply pile empties")


def _rotated_order_ok(cards: list[int], setup: list[int]) -> bool:
    """Rule 7: takes from the top and rotations keep each name in one run, no longer than at setup,
    and the names in the setup's cyclic order."""
    names, runs = [], []
    for c in setup:
        if not names or names[-1] != c:
            names.append(c)
    for c in cards:
        if runs and runs[-1][0] == c:
            runs[-1][1] += 1
        else:
            runs.append([c, 1])
    seq = [c for c, _ in runs]
    if len(set(seq)) != len(seq) or any(k > setup.count(c) for c, k in runs):
        return False
    for r in range(len(names)):
        it = iter(names[r:] + names[:r])
        if all(c in it for c in seq):
            return True
    return False


def _durations(value: Any, field: str, n: int, q: int, most: int) -> list[list[int]]:
    out = []
    for i, e in enumerate(read_list(value, field, most=most)):
        e = read_list(e, f"{field}[{i}]", 2)
        c = _card(e[0], f"{field}[{i}][0]")
        if c not in DURATION_CARDS:
            raise ValueError(f"{field}[{i}][0]: {CARD_NAMES[c]} is not a Duration card")
        high = 1000 if c == GARRISON else ((1 << n) - 1 if c == WARLORD else 0)
        x = read_int(e[1], f"{field}[{i}][1]", high)
        if c == WARLORD and (x >> q) & 1:
            raise ValueError(f"{field}[{i}][1]: a Warlord's owner is not among its Moat-immune seats")
        out.append([c, x])
    return out


def _tasks(value: Any, s) -> list[dict]:
    items = read_list(value, "tasks")
    if len(items) > 200:
        raise ValueError(f"tasks: {len(items)} pending tasks is more than any position has")
    if s.phase == 3 and items:
        raise ValueError("tasks: a finished game has no pending work")
    out = []
    for i, t in enumerate(items):
        f = f"tasks[{i}]"
        read_object(t, f, TASK_KEYS)
        op, kind = t["op"], t["kind"]
        if not isinstance(op, str) or op not in fx.TASK_OPS:
            raise ValueError(f"{f}.op: {show(op)} must be one of {some(fx.TASK_OPS, op)}")
        if op == "ask":
            if not isinstance(kind, str) or kind not in SOURCES:
                raise ValueError(f"{f}.kind: {show(kind)} must be one of {some(sorted(SOURCES), kind)}")
        elif kind != "":
            raise ValueError(f"{f}.kind: only an 'ask' has a kind")
        p = read_int(t["p"], f"{f}.p", s.n - 1)
        card = -1 if t["card"] is None else _card(t["card"], f"{f}.card")
        lo, hi = read_int(t["lo"], f"{f}.lo", 1000), read_int(t["hi"], f"{f}.hi", 1000)
        x = read_int(t["x"], f"{f}.x", 1000)
        turn = s.turn_player
        if op == "ask" and kind in ALLY_KINDS:
            if s.ally != ALLY_KINDS[kind] or p != turn:
                raise ValueError(f"{f}: a {kind!r} decision needs that Ally and belongs to the turn player")
            if (kind == "band_of_nomads") != (card >= 0) or (card >= 0 and COST[card] < 3):
                raise ValueError(f"{f}.card: only Band of Nomads names a card (gained, costing $3 or more)")
            if kind in ("peaceful_cult", "cave_dwellers") and (lo != 0 or hi > s.favors[p]):
                raise ValueError(f"{f}: picks are bounded by the Favors held")
        elif op == "ask":
            allowed = SOURCES[kind]
            if card < 0 or (allowed is not None and CARD_NAMES[card] not in allowed):
                raise ValueError(f"{f}.card: {show(t['card'])} cannot ask a {kind!r} decision")
            if kind == "moat" and not IS_ATTACK[card]:
                raise ValueError(f"{f}.card: Moat reacts to an Attack only")
            if kind == "gladiator_copy":
                owner_ok = p == (turn + 1) % s.n  # the left-hand neighbour
            elif kind in ALLY_KINDS:
                owner_ok = True
            else:
                owner_ok = (p != turn) if kind in VICTIM_KINDS else (p == turn)
            if not owner_ok:
                raise ValueError(f"{f}.p: seat {p} cannot own a {kind!r} decision on seat {turn}'s turn")
            if kind in fx.PICK_KINDS and lo > hi:
                raise ValueError(f"{f}: lo {lo} > hi {hi}")
            if kind == "gladiator_copy" and x >= NUM_CARDS:
                raise ValueError(f"{f}.x: {x} is not a card index")
            if kind == "discard_down" and card not in (MILITIA, CATAPULT):
                raise ValueError(f"{f}.card: only Militia and Catapult make players discard down")
            if kind == "opulent" and card != OPULENT_CASTLE:
                raise ValueError(f"{f}.card: only Opulent Castle asks that")
            _check_tier3_task(s, f, kind, p, card, lo, hi, x, turn)
        elif op == "resolve":
            if card < 0 or not IS_ATTACK[card] or p != turn:
                raise ValueError(f"{f}: only the turn player's Attack waits to resolve")
        elif op in ("on_gain", "on_trash"):
            table = fx.ON_GAIN if op == "on_gain" else fx.ON_TRASH
            if card < 0 or CARD_NAMES[card] not in table:
                raise ValueError(f"{f}.card: {show(t['card'])} has no {op} trigger")
        elif op == "play_all":
            if p != turn or s.phase != 1 or card != -1:
                raise ValueError(f"{f}: playing all Treasures belongs to the turn player's Buy phase")
        elif op == "cleanup":
            if p != turn or s.phase != 2 or card != -1:
                raise ValueError(f"{f}: Clean-up belongs to the turn player after buying")
        elif op == "yw_victim":
            if p == turn or x != turn or card != CARD_ID["Young Witch"]:
                raise ValueError(f"{f}: a Young Witch victim is another seat, x the attacker")
        out.append({"op": op, "kind": kind, "p": p, "card": card, "lo": lo, "hi": hi, "x": x})
    if out and out[-1]["op"] != "ask":
        raise ValueError("tasks: the top task must be a pending decision")
    return out


def _check_tier3_task(s, f, kind, p, card, lo, hi, x, turn) -> None:
    """The ranges of the tier-3 decisions (what the effects push)."""
    name = CARD_NAMES[card] if card >= 0 else ""
    bad = ""
    if kind == "rotate" and x != PILE_OF[card]:
        bad = "x: a card rotates its own pile"
    elif kind in ("hill_fort", "conjurer", "workshop") and (x != 4 or lo != 0):
        bad = "gains a card costing up to $4 (x 4, lo 0)"
    elif kind == "hill_fort" and not 1 <= hi <= 2:
        bad = "hi: 1 choice, or 2 when Elder played it"
    elif kind == "mode":
        if not 1 <= hi <= 2 or x >= 1 << fx.MODES[name] or bin(x).count("1") + hi > 2:
            bad = "hi/x: one choice, or two different ones when Elder played the card"
        elif lo > (NUM_CARDS if name == "Hill Fort" else 0):
            bad = "lo: only Hill Fort's choice holds the gained card (+1)"
    elif kind in ("archer_hide",) and (x != turn or lo != 1 or hi != 1):
        bad = "x: the attacker; one card hidden"
    elif kind == "archer_pick" and (x == turn or not any(s.known[x])):
        bad = "x: the victim, whose revealed cards are known"
    elif kind == "miller" and not 1 <= x <= min(4, len(s.decks[p])):
        bad = "x: Miller looks at 1 to 4 cards of the deck"
    elif kind == "tent" and not 1 <= hi <= s.in_play[p].count(CARD_ID["Tent"]):
        bad = "hi: the Tents in play still to discard"
    elif kind in ("acolyte", "student", "old_map", "sibyl_top", "sibyl_bottom") and hi != 1:
        bad = "hi: one card"
    if bad:
        raise ValueError(f"{f}.{bad}")


def _check_settled(s) -> None:
    """A snapshot is a position where a decision is pending: the owner is current_player and
    the engine has nothing left to resolve on its own."""
    if s.phase == 3:
        return
    probe = s.clone()
    probe._run()
    if to_json(probe) != to_json(s):
        raise ValueError("tasks: not a position where a decision is pending (the engine would move on)")
    if not s.legal_actions():
        raise ValueError("tasks: the pending decision has no legal answer")
    owner = s.tasks[-1]["p"] if s.tasks else s.turn_player
    if s.current_player != owner:
        raise ValueError(f"current_player: {s.current_player}, but the pending decision belongs to seat {owner}")
    _ = ENCAMPMENT
