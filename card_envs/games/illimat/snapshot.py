"""Illimat snapshots: `state_from_json` validates a snapshot completely before building a state.

A refused snapshot raises ValueError naming the offending field and showing at most ~80
characters of any input value (`card_envs.core.snapshot.show`).
"""

from __future__ import annotations

from typing import Any

from card_envs.core.cards import parse_card
from card_envs.core.game import Game
from card_envs.core.snapshot import read_list, read_object, show
from card_envs.core.text import some
from card_envs.games.illimat.cards import (
    ACTION, CHANGELING, CHILDREN, CLAIM_GIVE, CLAIM_SEASON, CLAIM_TAKE, DECISION_NAMES, FIELD, FOREST_QUEEN, HAND_SIZE,
    HARVEST, HARVEST_VALUES, ITEMS, LUMINARIES, MAX_STOCKPILE, MAX_VALUE, NO_LUMINARY, NUM_FIELDS, NUM_LUMINARIES,
    OVER, PAIR_VALUES, PARTNER, PLAY_NAMES, RAKE, RAKE_CARD, SEASON, SEASON_NAMES, SOW, SUITS, SWAP_GIVE, SWAP_TAKE,
    TURN, UNION, VALUE, cname, cnames, face_seasons, season_of)
from card_envs.games.illimat.rules import LAST_PLAY_KINDS, IllimatState, LastPlay

SNAPSHOT_KEYS_V1 = ("game", "format", "num_players", "round", "scores", "chance_seed", "current_player",
                    "decision", "seasons", "deck", "hands", "known_hand_cards", "fields", "luminaries_unused",
                    "luminaries_discarded", "okus_left", "okus", "claimed", "harvest", "secret", "turn", "move")
SNAPSHOT_KEYS_V2 = SNAPSHOT_KEYS_V1 + ("converged",)
SNAPSHOT_KEYS = SNAPSHOT_KEYS_V2 + ("last_play",)  # format 3
KEYS_BY_FORMAT = {1: SNAPSHOT_KEYS_V1, 2: SNAPSHOT_KEYS_V2, 3: SNAPSHOT_KEYS}
LAST_PLAY_KEYS = ("player", "play", "field", "played", "taken", "value")
FIELD_KEYS = ("loose", "stockpiles", "luminary", "under_children")
TURN_KEYS = ("main_done", "rake_owed", "swap_used", "cleared_field", "okus_taken")
MOVE_KEYS_V1 = ("card", "field", "action", "partner", "value", "items", "claim_given", "claim_taken")
MOVE_KEYS = MOVE_KEYS_V1 + ("full_harvest",)  # format 2 on


def state_to_json(s: IllimatState) -> dict[str, Any]:
    fields = []
    for f in range(NUM_FIELDS):
        L = s.lum[f]
        fields.append({
            "loose": cnames(s.loose[f]),
            "stockpiles": [{"value": pile[1], "kind": "multiple" if pile[2] else "single", "cards": cnames(pile[3])}
                           for pile in s.piles[f]],
            "luminary": None if L == NO_LUMINARY else {"name": LUMINARIES[L], "face_up": s.lum_up[f]},
            "under_children": cnames(s.under[f]),
        })
    return {
        "game": s.game.name,
        "format": s.game.snapshot_format,
        "num_players": s.game.num_players,
        "round": s.round,
        "scores": s.match_scores[:],
        "chance_seed": s.chance_seed,
        "current_player": s.current_player,
        "decision": DECISION_NAMES[s.decision],
        "seasons": [SEASON_NAMES[s.season(f)] for f in range(NUM_FIELDS)],
        "deck": cnames(reversed(s.deck)),
        "hands": [cnames(h) for h in s.hands],
        "known_hand_cards": [cnames(sorted(k)) for k in s.known],
        "fields": fields,
        "luminaries_unused": [LUMINARIES[L] for L in reversed(s.unused)],
        "luminaries_discarded": {"face_down": [LUMINARIES[L] for L in s.discarded_down],
                                 "face_up": [LUMINARIES[L] for L in s.discarded_up]},
        "okus_left": s.okus_left,
        "okus": s.okus[:],
        "claimed": [[LUMINARIES[L] for L in c] for c in s.claimed],
        "harvest": [cnames(h) for h in s.harvest],
        "secret": [cnames(h) for h in s.secret],
        "turn": {"main_done": s.main_done, "rake_owed": s.rake_owed, "swap_used": s.swap_used,
                 "cleared_field": None if s.cleared < 0 else s.cleared, "okus_taken": s.okus_taken},
        "converged": s.converged,
        "move": {
            "card": None if s.m_card < 0 else cname(s.m_card),
            "field": None if s.m_field < 0 else s.m_field,
            "action": None if s.m_action < 0 else PLAY_NAMES[s.m_action - SOW],
            "partner": None if s.m_partner < 0 else cname(s.m_partner),
            "value": s.m_value or None,
            "items": cnames(s.m_items),
            "claim_given": cnames(s.c_given),
            "claim_taken": cnames(s.c_taken),
            "full_harvest": cnames(s.m_full),
        },
        "last_play": _last_play_to_json(s.last_play),
    }


def _last_play_to_json(last: LastPlay | None) -> dict[str, Any] | None:
    if last is None:
        return None
    seat, kind, field, played, taken, value = last
    return {"player": seat, "play": kind, "field": field, "played": cnames(played), "taken": cnames(taken),
            "value": value or None}


def _keys(data: Any, keys: tuple[str, ...], what: str) -> dict[str, Any]:
    return read_object(data, f"illimat snapshot: {what}", keys)


def _int(value: Any, low: int, high: int, what: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{what}={show(value)} must be an integer in {low}..{high}")
    return value


def _bool(value: Any, what: str) -> bool:
    if type(value) is not bool:
        raise ValueError(f"{what}={show(value)} must be true or false")
    return value


def _card(name: Any, what: str) -> int:
    try:
        return parse_card(name, SUITS)
    except ValueError as error:
        raise ValueError(f"{what}: {error} (suits P spring, S summer, A autumn, W winter, * stars)") from None


def _cards(value: Any, what: str, most: int) -> list[int]:
    return [_card(v, what) for v in _list(value, what, most)]


def _per_seat(value: Any, n: int, what: str) -> list:
    if not isinstance(value, list) or len(value) != n:
        raise ValueError(f"{what} must be a list with one entry per seat ({n}), got {show(value)}")
    return value


def _luminary(name: Any, what: str) -> int:
    if name not in LUMINARIES:
        raise ValueError(f"{what}: unknown Luminary {show(name)}; expected one of {some(LUMINARIES, name)}")
    return LUMINARIES.index(name)


def state_from_json(game: Game, data: Any) -> IllimatState:
    """Validate a snapshot completely before building a state from it.

    Formats 1 and 2 are read too: format 1 (before the optional rules) lacks ``converged``
    (false) and ``move.full_harvest`` (none pending); both lack ``last_play`` (none shown)."""
    if not isinstance(data, dict):
        _keys(data, SNAPSHOT_KEYS, "the snapshot")  # refuses it
    fmt = data.get("format")
    if type(fmt) is not int or fmt not in KEYS_BY_FORMAT:
        raise ValueError(f"snapshot format {show(fmt)} is not supported; expected {game.snapshot_format} "
                         f"(or an earlier one, {list(KEYS_BY_FORMAT)[:-1]})")
    data = _keys(data, KEYS_BY_FORMAT[fmt], "the snapshot")
    if data["game"] != game.name:
        raise ValueError(f"snapshot is for game {show(data['game'])}, not {show(game.name)}")
    n = game.num_players
    if data["num_players"] != n:
        raise ValueError(f"snapshot has num_players={show(data['num_players'])} but this env has {n}")
    s = IllimatState(game)
    s.round = _int(data["round"], 0, game.rounds, "round")
    scores = _per_seat(data["scores"], n, "scores")
    s.match_scores = [_int(x, game.score_low, game.score_high, "scores[]") for x in scores]
    s.chance_seed = _int(data["chance_seed"], 0, 2**63 - 1, "chance_seed")
    s.current_player = _int(data["current_player"], 0, n - 1, "current_player")
    if data["decision"] not in DECISION_NAMES:
        raise ValueError(f"decision={show(data['decision'])} must be one of {some(DECISION_NAMES, data['decision'])}")
    s.decision = DECISION_NAMES.index(data["decision"])
    _check_round_scores(s)
    seasons = data["seasons"]
    if not isinstance(seasons, list) or len(seasons) != 4 or any(x not in SEASON_NAMES for x in seasons):
        raise ValueError(f"seasons={show(seasons)} must list the 4 fields' seasons, e.g. {list(SEASON_NAMES)}")
    summer = seasons.index("summer") if "summer" in seasons else 0
    if [SEASON_NAMES[season_of(f, summer)] for f in range(4)] != seasons:
        raise ValueError(f"seasons={show(seasons)} is not a position of the Illimat: going round the fields "
                         "from Summer they must read summer, autumn, winter, spring")
    s.summer = summer
    deck_cards = game.deck_cards
    s.deck = _cards(data["deck"], "deck", deck_cards)[::-1]
    s.hands = [sorted(_cards(h, f"hands[{p}]", HAND_SIZE)) for p, h in enumerate(_per_seat(data["hands"], n, "hands"))]
    s.known = [sorted(_cards(h, f"known_hand_cards[{p}]", HAND_SIZE))
               for p, h in enumerate(_per_seat(data["known_hand_cards"], n, "known_hand_cards"))]
    for p in range(n):
        if not set(s.known[p]) <= set(s.hands[p]):
            raise ValueError(f"known_hand_cards[{p}] must be cards of hands[{p}]")
    fields = data["fields"]
    if not isinstance(fields, list) or len(fields) != NUM_FIELDS:
        raise ValueError(f"fields must be a list of {NUM_FIELDS} dicts, got {show(fields)}")
    seen_lums: list[int] = []
    for f, fd in enumerate(fields):
        fd = _keys(fd, FIELD_KEYS, f"fields[{f}]")
        s.loose[f] = sorted(_cards(fd["loose"], f"fields[{f}].loose", deck_cards))
        for sp in _list(fd["stockpiles"], f"fields[{f}].stockpiles", deck_cards // 2):  # 2 cards each at least
            sp = _keys(sp, ("value", "kind", "cards"), f"a stockpile of fields[{f}]")
            value = _int(sp["value"], 2, MAX_STOCKPILE, f"fields[{f}] stockpile value")
            if sp["kind"] not in ("single", "multiple"):
                raise ValueError(f"stockpile kind {show(sp['kind'])} must be 'single' or 'multiple'")
            cards = tuple(sorted(_cards(sp["cards"], f"fields[{f}] stockpile cards", deck_cards)))
            multiple = sp["kind"] == "multiple"
            if len(cards) < 2 or not _pile_total_ok(cards, value, multiple):
                raise ValueError(f"stockpile {show(sp)} in fields[{f}]: its cards (at least 2; Fools 1 or 14) must "
                                 f"total its value (single) or a multiple of it, at least twice (multiple)")
            s.piles[f].append((cards[0], value, multiple, cards))
        s.piles[f].sort()
        lum = fd["luminary"]
        if lum is not None:
            lum = _keys(lum, ("name", "face_up"), f"fields[{f}].luminary")
            L = _luminary(lum["name"], f"fields[{f}].luminary")
            s.lum[f], s.lum_up[f] = L, _bool(lum["face_up"], f"fields[{f}].luminary.face_up")
            seen_lums.append(L)
        s.under[f] = _cards(fd["under_children"], f"fields[{f}].under_children", 3)
        if s.under[f] and not (s.lum[f] == CHILDREN and s.lum_up[f] and len(s.under[f]) == 3):
            raise ValueError(f"fields[{f}].under_children: only the face-up Children hold cards, exactly 3")
    for f in range(NUM_FIELDS):  # she turns the Illimat so her field is Summer, and nothing turns after
        if s.lum[f] == FOREST_QUEEN and s.lum_up[f] and f != summer:
            raise ValueError(f"fields[{f}].luminary: the Forest Queen is face up, so her field is Summer, "
                             f"but seasons has {show(seasons[f])} there")
    s.unused = [_luminary(x, "luminaries_unused")
                for x in _list(data["luminaries_unused"], "luminaries_unused", NUM_LUMINARIES)][::-1]
    disc = _keys(data["luminaries_discarded"], ("face_down", "face_up"), "luminaries_discarded")
    s.discarded_down, s.discarded_up = (
        [_luminary(x, "luminaries_discarded") for x in _list(disc[key], f"luminaries_discarded.{key}", NUM_LUMINARIES)]
        for key in ("face_down", "face_up"))
    s.claimed = [[_luminary(x, "claimed") for x in _list(c, f"claimed[{p}]", NUM_LUMINARIES)]
                 for p, c in enumerate(_per_seat(data["claimed"], n, "claimed"))]
    every_lum = seen_lums + s.unused + s.discarded_down + s.discarded_up + [L for c in s.claimed for L in c]
    expected = list(range(NUM_LUMINARIES)) if game.luminaries else []
    if sorted(every_lum) != expected:
        raise ValueError(f"the Luminaries (fields, unused, discarded, claimed) must be each of the {NUM_LUMINARIES} "
                         f"({some(LUMINARIES)}) exactly once" if game.luminaries else "this env plays without Luminaries: "
                         "the snapshot must hold none")
    s.okus_left = _int(data["okus_left"], 0, n, "okus_left")
    s.okus = [_int(x, 0, n, "okus[]") for x in _per_seat(data["okus"], n, "okus")]
    if s.okus_left + sum(s.okus) != n:
        raise ValueError(f"okus_left + okus must total {n} (one okus per player)")
    s.harvest = [_cards(h, f"harvest[{p}]", deck_cards) for p, h in enumerate(_per_seat(data["harvest"], n, "harvest"))]
    s.secret = [_cards(h, f"secret[{p}]", 3) for p, h in enumerate(_per_seat(data["secret"], n, "secret"))]
    for p in range(n):
        if not set(s.secret[p]) <= set(s.harvest[p]):
            raise ValueError(f"secret[{p}] must be cards of harvest[{p}]")
    _check_secret(s)
    every = (s.deck + [c for h in s.hands for c in h] + [c for x in s.loose for c in x]
             + [c for x in s.piles for pile in x for c in pile[3]] + [c for x in s.under for c in x]
             + [c for h in s.harvest for c in h])
    if sorted(every) != list(range(game.deck_cards)):
        seen: set[int] = set()
        dupes = sorted({c for c in every if c in seen or seen.add(c)})
        absent = sorted(set(range(game.deck_cards)) - set(every))
        stray = sorted(set(every) - set(range(game.deck_cards)))
        wrong = [f"{what} {show(cnames(cards))}" for what, cards in
                 (("duplicated", dupes), ("missing", absent), ("not in this deck", stray)) if cards]
        raise ValueError(f"snapshot must hold each of the {game.deck_cards} cards exactly once (deck, hands, fields, "
                         f"stockpiles, under the Children, harvest piles): {'; '.join(wrong)}")
    turn = _keys(data["turn"], TURN_KEYS, "turn")
    s.main_done = _bool(turn["main_done"], "turn.main_done")
    s.rake_owed = _bool(turn["rake_owed"], "turn.rake_owed")
    s.swap_used = _bool(turn["swap_used"], "turn.swap_used")
    s.okus_taken = _bool(turn["okus_taken"], "turn.okus_taken")
    s.cleared = -1 if turn["cleared_field"] is None else _int(turn["cleared_field"], 0, 3, "turn.cleared_field")
    if s.rake_owed and s.face_up_field(RAKE) < 0:
        raise ValueError("turn.rake_owed is true but the Rake is not face up")
    if s.swap_used and s.face_up_field(CHANGELING) < 0 and not (
            s.decision in (CLAIM_GIVE, CLAIM_TAKE) and CHANGELING in s.claimed[s.current_player]):
        # (a swap, then a harvest that cleared her field: her claim may be pending)
        raise ValueError("turn.swap_used is true but the Changeling is not face up")
    s.converged = _bool(data["converged"], "converged") if fmt >= 2 else False
    if s.converged and not game.harmonic_convergence:
        raise ValueError("converged is true but this env plays without harmonic_convergence")
    if game.harmonic_convergence and all(s.lum_up) and not s.converged:
        raise ValueError("4 Luminaries are face up: the Harmonic Convergence has happened (converged must be true)")
    move = _keys(data["move"], MOVE_KEYS if fmt >= 2 else MOVE_KEYS_V1, "move")
    s.m_card = -1 if move["card"] is None else _card(move["card"], "move.card")
    s.m_field = -1 if move["field"] is None else _int(move["field"], 0, 3, "move.field")
    if move["action"] is not None and move["action"] not in PLAY_NAMES:
        raise ValueError(f"move.action={show(move['action'])} must be null or one of {list(PLAY_NAMES)}")
    s.m_action = -1 if move["action"] is None else SOW + PLAY_NAMES.index(move["action"])
    s.m_partner = -1 if move["partner"] is None else _card(move["partner"], "move.partner")
    s.m_value = 0 if move["value"] is None else _int(move["value"], 1, MAX_VALUE, "move.value")
    s.m_items = _cards(move["items"], "move.items", deck_cards)
    s.c_given = _cards(move["claim_given"], "move.claim_given", 2)
    s.c_taken = _cards(move["claim_taken"], "move.claim_taken", 2)
    s.m_full = _cards(move["full_harvest"], "move.full_harvest", HAND_SIZE) if fmt >= 2 else []
    _check_full_harvest(s)
    _check_move(s)
    s.last_play = _read_last_play(data["last_play"], game) if fmt >= 3 else None
    s._rebuild_features()
    if s.decision != OVER and not s.legal_actions():
        raise ValueError(f"the pending {data['decision']} decision has no legal answer in this snapshot "
                         f"(an inconsistent move or position)")
    return s


def _list(value: Any, what: str, most: int) -> list:
    """A list, refused by its length before any entry is read (later checks may be slower than
    linear in it)."""
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list, got {show(value)}")
    return read_list(value, what, most=most)


def _check_round_scores(s: IllimatState) -> None:
    """`round` counts the rounds scored before this one (all of them once the game is over).
    Each scored round gives a player -2 (Frostbit) to max_round_gain points, and the game ends
    after the round in which someone reaches the target or after the last round."""
    g, r, over = s.game, s.round, s.decision == OVER
    if over and (r == 0 or (max(s.match_scores) < g.target_score and r < g.rounds)):
        raise ValueError(f"decision=game_over after round={r} with scores={s.match_scores}: the game ends after a "
                         f"round in which someone reaches target_score={g.target_score}, or after the last of "
                         f"rounds={g.rounds}")
    if not over and r == g.rounds:
        raise ValueError(f"round={r} is past the last round (rounds={g.rounds}) but decision is not game_over")
    if not over and max(s.match_scores) >= g.target_score:
        raise ValueError(f"scores={s.match_scores}: someone has reached target_score={g.target_score}, so the game "
                         "ended when that round was scored (decision must be game_over)")
    for p, score in enumerate(s.match_scores):
        if not -2 * r <= score <= r * g.max_round_gain:
            raise ValueError(f"scores[{p}]={score} after {r} scored round(s): a round gives from -2 to "
                             f"{g.max_round_gain} points" + (" (none are scored in round 0)" if r == 0 else ""))


def _check_secret(s: IllimatState) -> None:
    """Secret harvested cards come only from under the Children, 3 when claimed; the Rake's
    claim may take one of them (a Summer card)."""
    for p, secret in enumerate(s.secret):
        if len(set(secret)) != len(secret):
            raise ValueError(f"secret[{p}] lists a card twice")
        if CHILDREN not in s.claimed[p]:
            if secret:
                raise ValueError(f"secret[{p}]: secret harvested cards come only from claiming the Children, "
                                 f"whom seat {p} has not claimed this round")
            continue
        rake_by_other = any(RAKE in c for q, c in enumerate(s.claimed) if q != p)
        if len(secret) < 3 - rake_by_other:
            raise ValueError(f"secret[{p}]: {len(secret)} cards; claiming the Children gave seat {p} their 3 cards "
                             "as secret harvest, of which only the Rake's claim by another seat may take one")


def _pile_total_ok(cards: tuple[int, ...], value: int, multiple: bool) -> bool:
    """Can the cards total value (single) or k * value, k >= 2 (multiple), Fools as 1 or 14?"""
    totals = _totals(cards)
    if multiple:
        return any(t % value == 0 and t >= 2 * value for t in totals)
    return value in totals


def _check_full_harvest(s: IllimatState) -> None:
    """A pending full harvest: the whole hand at its field and items decisions, the cards played
    at its season decision."""
    full, d, p = s.m_full, s.decision, s.current_player
    if not full:
        return
    if not s.game.full_harvest:
        raise ValueError("move.full_harvest is set but this env plays without full_harvest")
    if d not in (FIELD, ITEMS, SEASON) or len(full) != HAND_SIZE or len(set(full)) != HAND_SIZE:
        raise ValueError(f"move.full_harvest lists the {HAND_SIZE} cards of a full harvest, only at its field, "
                         "items or season decision")
    if s.m_card >= 0 or s.m_partner >= 0 or s.m_value:
        raise ValueError("a full harvest plays the whole hand: move.card, move.partner and move.value are null")
    if d == SEASON:
        if not set(full) <= set(s.harvest[p]) or not s.main_done:
            raise ValueError("at a full harvest's season decision its cards are in the current player's harvest")
        seasons = face_seasons(full)
        if not seasons & (seasons - 1) or s.face_up_field(FOREST_QUEEN) >= 0:
            raise ValueError("a full harvest's season decision is pending only when its face cards give a choice "
                             "of seasons (and the Forest Queen is not face up)")
    else:
        if sorted(full) != s.hands[p] or s.main_done or s.rake_owed:
            raise ValueError("a pending full harvest plays the current player's whole hand of 4 cards, as his "
                             "main play, with no Rake sow owed")
        if (s.m_action >= 0) != (d == ITEMS) or s.m_action not in (-1, HARVEST):
            raise ValueError("a full harvest's action is harvest, chosen with its field")


def _check_move(s: IllimatState) -> None:
    """The pending decision and the move chosen so far must fit together."""
    d, p = s.decision, s.current_player
    hand = s.hands[p]
    needs = {  # decision -> (card, field, action, value) required
        TURN: (False, False, False, False), FIELD: (True, False, False, False), ACTION: (True, True, False, False),
        PARTNER: (True, True, True, False), VALUE: (True, True, True, False), ITEMS: (True, True, True, True),
        SEASON: (False, True, False, False), RAKE_CARD: (False, False, False, False),
        SWAP_GIVE: (False, False, False, False), SWAP_TAKE: (True, False, False, False),
        CLAIM_GIVE: (False, False, False, False), CLAIM_TAKE: (True, False, False, False),
        CLAIM_SEASON: (False, True, False, False), OVER: (False, False, False, False)}[d]
    if s.m_full and d in (FIELD, ITEMS):  # a full harvest: its cards stand for the card, its value is not asked
        needs = (False, needs[1], needs[2], False)
    have = (s.m_card >= 0, s.m_field >= 0, s.m_action >= 0, s.m_value > 0)
    if have != needs:
        raise ValueError(f"move {_describe_have(have)} does not fit the pending {DECISION_NAMES[d]} decision, which "
                         f"needs {_describe_have(needs)} chosen")
    if s.m_card >= 0 and s.m_card not in hand:
        raise ValueError(f"move.card {cname(s.m_card)} is not in the current player's hand")
    if s.m_partner >= 0 and (d not in (VALUE, ITEMS) or s.m_action != HARVEST or s.m_partner not in hand
                             or s.m_partner == s.m_card or s.face_up_field(UNION) != s.m_field):
        raise ValueError("move.partner is only set for a Union harvest (another hand card), at its value or "
                         "items decision")
    if s.m_action == SOW:
        raise ValueError("a sow is complete once chosen: no decision is pending on it")
    if d == VALUE and s.m_action == HARVEST and len(
            HARVEST_VALUES[s.m_card] if s.m_partner < 0 else PAIR_VALUES[s.m_card][s.m_partner]) < 2:
        raise ValueError("a harvest value decision is only pending when a Fool is played")
    if s.m_items and d != ITEMS:
        raise ValueError("move.items is only set at the items decision")
    keys = [it[0] for it in s.items(s.m_field)] if s.m_field >= 0 else []
    if s.m_items != sorted(s.m_items) or len(set(s.m_items)) != len(s.m_items) \
            or any(k not in keys for k in s.m_items):
        raise ValueError("move.items must be distinct items of the field (loose cards or stockpile key cards), "
                         "in ascending order")
    in_claim = d in (CLAIM_GIVE, CLAIM_TAKE, CLAIM_SEASON)
    if (s.c_given or s.c_taken) and d not in (CLAIM_GIVE, CLAIM_TAKE):
        raise ValueError("move.claim_given / claim_taken are only set during the Changeling's claim")
    if len(s.c_given) != len(s.c_taken) or len(s.c_given) > 1:
        raise ValueError("the Changeling's claim swaps one card at a time, two at most")
    if in_claim and not (s.cleared >= 0 and s.main_done):
        raise ValueError("a claim decision is pending only while a cleared field is resolved (turn.cleared_field)")
    if d == CLAIM_SEASON and s.m_field != s.cleared:
        raise ValueError("at the claim_season decision move.field is the cleared field (turn.cleared_field)")
    if in_claim:
        want = FOREST_QUEEN if d == CLAIM_SEASON else CHANGELING
        if want not in s.claimed[p] or s.lum[s.cleared] != NO_LUMINARY:
            raise ValueError(f"a {DECISION_NAMES[d]} decision follows the current player's claim of the "
                             f"{LUMINARIES[want]} in turn.cleared_field")
    if d in (SWAP_GIVE, SWAP_TAKE) and (s.swap_used or s.face_up_field(CHANGELING) < 0):
        raise ValueError("a Changeling swap is pending only while she is face up and unused this turn")
    if d == RAKE_CARD and not s.rake_owed:
        raise ValueError("a Rake sow is pending only while it is owed (turn.rake_owed)")
    if d != OVER and not hand and not in_claim and d != SEASON:
        raise ValueError(f"current_player {p} has no card: only a season or claim decision can be pending")


def _describe_have(have) -> str:
    names = [k for k, h in zip(("card", "field", "action", "value"), have) if h]
    return "with " + ", ".join(names) if names else "with nothing"


def _read_last_play(value: Any, game: Game) -> LastPlay | None:
    """The last card play (for the render): null, or a play the rules allow on its own. Where its
    cards lie now is not checked: the turn's end, a clearing or a new round moves them."""
    if value is None:
        return None
    value = _keys(value, LAST_PLAY_KEYS, "last_play")
    seat = _int(value["player"], 0, game.num_players - 1, "last_play.player")
    kind = value["play"]
    if kind not in LAST_PLAY_KINDS:
        raise ValueError(f"last_play.play={show(kind)} must be one of {list(LAST_PLAY_KINDS)}")
    field = _int(value["field"], 0, NUM_FIELDS - 1, "last_play.field")
    played = tuple(_cards(value["played"], "last_play.played", HAND_SIZE))
    taken = tuple(sorted(_cards(value["taken"], "last_play.taken", game.deck_cards)))
    if kind == "stockpile":
        stock = _int(value["value"], 2, MAX_STOCKPILE, "last_play.value")
    elif value["value"] is not None:
        raise ValueError(f"last_play.value={show(value['value'])}: only a stockpile has a value (null otherwise)")
    else:
        stock = 0
    if len(set(played + taken)) != len(played) + len(taken):
        raise ValueError("last_play: played and taken list each card once, in one of them")
    if not _last_play_fits(kind, played, taken, stock, game):
        raise ValueError(f"last_play {show(value)} is not a {kind}: {LAST_PLAY_SHAPES[kind]}")
    return seat, kind, field, played, taken, stock


LAST_PLAY_SHAPES = {
    "sow": "one card played, none taken",
    "rake_sow": "one card played, none taken (the Rake's extra sow)",
    "harvest": "1 card played (2 with the Union, 4 in a full harvest), and cards taken that total a multiple of "
               "the played cards' value",
    "stockpile": "one card played onto the cards taken, their total fitting the value (once, or several times "
                 "for a multiple stockpile)",
    "swap": "one card given, one taken (the Changeling)",
}


def _last_play_fits(kind: str, played: tuple[int, ...], taken: tuple[int, ...], value: int, game: Game) -> bool:
    if kind in ("sow", "rake_sow", "swap"):
        return len(played) == 1 and len(taken) == (kind == "swap") and (game.luminaries or kind == "sow")
    if kind == "stockpile":
        cards = played + taken
        return len(played) == 1 and bool(taken) and (_pile_total_ok(cards, value, False)
                                                     or _pile_total_ok(cards, value, True))
    sizes = (1,) + (2,) * game.luminaries + (HAND_SIZE,) * game.full_harvest  # a pair with the Union
    values = _totals(played)  # a harvest takes groups of the played cards' value
    return len(played) in sizes and any(t % v == 0 for t in _totals(taken) for v in values if t)


def _totals(cards) -> set[int]:
    """Every total of the cards, Fools as 1 or 14."""
    totals = {0}
    for c in cards:
        totals = {t + v for t in totals for v in HARVEST_VALUES[c]}
    return totals
