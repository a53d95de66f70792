"""Each game's board as data, for pictures (the HTML replay viewer): ``board(game, state, viewer)``.

A board is what ``game.render(state, viewer)`` shows, as structured data instead of text, built
from the same fields with the same visibility rules (a test checks that a seat's board does not
change under ``state.determinize(seat)``, and the public board under any seat's):

    {"head": "3 Piles | player_0 to move (choose) | ...",      # the render's first line (and its "in progress")
     "zones": [{"group": "table", "name": "stack 0", "owner": None, "info": "top 6C",
                "cards": [{"label": "6C", "cls": "s-C"}, {"hidden": True, "n": 3}, ...]}, ...]}

``viewer``: a seat sees what that seat knows; None: public information only (a spectator);
-1: everything, every card of every zone face up (decks top first). A card is ``{"label", "cls"}`` (face up; ``cls`` names its suit or type for
colouring) or ``{"hidden": True}`` (face down), with ``"n"`` for several of the same. ``owner`` is
the seat a zone belongs to (its hand, piles) or None; ``group`` is ``"table"`` or ``"player_k"``.
Rules engines never import this module.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from card_envs.core.cards import SUIT, card_name
from card_envs.core.game import Game, State

Card = dict[str, Any]
Zone = dict[str, Any]


def face(label: str, cls: str = "", n: int = 1) -> Card:
    card: Card = {"label": label, "cls": cls}
    if n != 1:
        card["n"] = n
    return card


def hidden(n: int = 1) -> list[Card]:
    """``n`` face-down cards as one stack (nothing when n is 0)."""
    if n <= 0:
        return []
    return [{"hidden": True, "n": n}] if n > 1 else [{"hidden": True}]


def zone(group: str, name: str, cards: list[Card], owner: int | None = None, info: str = "") -> Zone:
    return {"group": group, "name": name, "owner": owner, "info": info, "cards": cards}


def _std(cards) -> list[Card]:
    """Standard 52-card deck cards, face up, coloured by suit."""
    return [face(card_name(c), f"s-{'CDHS'[SUIT[c]]}") for c in cards]


# ----- 3 Piles --------------------------------------------------------------------------------
def _three_piles(state, viewer: int | None) -> list[Zone]:
    scores = state.scores()
    deck = _std(reversed(state.deck)) if viewer == -1 else hidden(len(state.deck))  # top first
    zones = [zone("table", "deck", deck, info=f"{len(state.deck)} cards")]
    for s, stack in enumerate(state.stacks):
        zones.append(zone("table", f"stack {s}", _std(stack), info=f"top {card_name(stack[-1])}" if stack else "empty"))
    for seat in range(state.game.num_players):
        group, hand = f"player_{seat}", state.hands[seat]
        cards = _std(hand) if viewer in (seat, -1) else hidden(len(hand))
        zones.append(zone(group, "hand", cards, seat, f"score {scores[seat]}"))
        for k, pile in enumerate(state.piles[seat]):
            zones.append(zone(group, f"pile {k}", _std(pile), seat))
    return zones


# ----- Piles ----------------------------------------------------------------------------------
def _piles(state, viewer: int | None) -> list[Zone]:
    from card_envs.games.piles.rules import COLOUR_NAMES, NUM_POSITIONS, position_name, team_of

    n = state.game.num_players
    points = state.team_points()
    zones = []
    for pos in range(NUM_POSITIONS):
        zones.append(zone("castle", position_name(pos), _std(state.piles[pos]),
                          info=f"value {state.values[pos]}, height {len(state.piles[pos])}"))
    for team in (0, 1):
        colour = state.team_colours[team]
        seats = "+".join(f"player_{s}" for s in range(n) if team_of(s) == team)
        zones.append(zone("table", f"team {team} captured", _std(state.captured[team]),
                          info=f"{seats}: {'colour not fixed' if colour is None else COLOUR_NAMES[colour]}, "
                               f"points {points[team]}"))
    if state.set_aside:
        cards = _std(state.set_aside) if viewer == -1 else hidden(len(state.set_aside))
        zones.append(zone("table", "set aside", cards, info="dealt when both hands are empty"))
    for seat in range(n):
        hand = state.hands[seat]
        cards = _std(hand) if viewer in (seat, -1) else hidden(len(hand))
        zones.append(zone(f"player_{seat}", "hand", cards, seat, f"team {team_of(seat)}"))
    return zones


# ----- Illimat --------------------------------------------------------------------------------
def _illimat(state, viewer: int | None) -> list[Zone]:
    from card_envs.games.illimat.cards import (
        IS_FOOL, LUMINARIES, NO_LUMINARY, NUM_FIELDS, SEASON_NAMES, SUMMER, WINTER, cnames)

    everything = viewer == -1

    def cards(cs) -> list[Card]:
        cs = list(cs)  # read twice below: an iterator would give no cards
        return [face(name, f"i-{'PSAWX'[SUIT[c]]}") for c, name in zip(cs, cnames(cs))]

    zones = [zone("table", "draw pile", cards(reversed(state.deck)) if everything else hidden(len(state.deck)),
                  info=f"{len(state.deck)} cards, okus on the Illimat {state.okus_left}"
                  + (", Harmonic Convergence happened" if state.converged else ""))]
    for f in range(NUM_FIELDS):
        group = f"field {f} ({SEASON_NAMES[state.season(f)]})"
        L = state.lum[f]
        if L == NO_LUMINARY:
            lum, lum_info = [], "no Luminary"
        elif state.lum_up[f]:
            lum, lum_info = [face(LUMINARIES[L], "lum")], "face up"
            if state.under[f]:
                lum += cards(state.under[f]) if everything else hidden(len(state.under[f]))
                lum_info += f", {len(state.under[f])} cards under it"
        else:
            lum, lum_info = ([face(LUMINARIES[L], "lum")] if everything else hidden(1)), "face down"
        zones.append(zone(group, "Luminary", lum, info=lum_info))
        zones.append(zone(group, "loose", cards(state.loose[f])))
        for pile in state.piles[f]:
            zones.append(zone(group, "stockpile", cards(pile[3]),
                              info=f"value {pile[1]}, {'multiple' if pile[2] else 'single'}"))
    for p in range(state.game.num_players):
        group, hand = f"player_{p}", state.hands[p]
        if viewer in (p, -1):
            shown = cards(hand)
        else:  # cards taken from the board in view are known; the rest is face down
            shown = cards(state.known[p]) + hidden(len(hand) - len(state.known[p]))
        zones.append(zone(group, "hand", shown, p, f"score {state.match_scores[p]}, "
                                                   f"okus {state.okus[p]}"))
        harvest = state.harvest[p]
        if viewer in (p, -1):
            counted, secret = harvest, len(state.secret[p])
        else:
            hidden_set = set(state.secret[p])
            counted, secret = [c for c in harvest if c not in hidden_set], len(hidden_set)
        summer = sum(1 for c in counted if SUIT[c] == SUMMER)
        winter = sum(1 for c in counted if SUIT[c] == WINTER)
        fools = sum(1 for c in counted if IS_FOOL[c])
        info = f"{len(harvest)} cards: Summer {summer}, Winter {winter}, Fools {fools}" + (
            f", {secret} secret" if secret else "")
        if everything:
            shown = cards(harvest)
        else:
            secret_cards = cards(state.secret[p]) if viewer == p else []
            shown = hidden(len(harvest) - len(secret_cards)) + secret_cards
        zones.append(zone(group, "harvest", shown, p, info))
        if state.claimed[p]:
            zones.append(zone(group, "Luminaries", [face(LUMINARIES[L], "lum") for L in state.claimed[p]], p))
    return zones


# ----- Split the Hoard ------------------------------------------------------------------------
def _split_the_hoard(state, viewer: int | None) -> list[Zone]:
    g = state.game
    cs = g.cards
    everything = viewer == -1
    over = state.is_terminal()

    def sees(c: int, owner: int | None = None) -> bool:
        return everything or (viewer is not None and viewer >= 0
                              and (owner == viewer or state.known_by[c] >> viewer & 1))

    def named(cards) -> list[Card]:
        counts = Counter(cs.names[cs.NAME[c]] for c in cards)
        return [face(name, f"p-{cs.phase[cs.name_index[name]]}", k) for name, k in sorted(counts.items())]

    def card(c: int) -> Card:
        return face(cs.names[cs.NAME[c]], f"p-{cs.phase[cs.NAME[c]]}")

    deck = [card(c) for c in reversed(state.deck)] if everything else hidden(len(state.deck))  # top first
    zones = [zone("table", "deck", deck, info=f"{len(state.deck)} cards")]
    if not everything and viewer is not None:
        top = [c for c in reversed(state.deck[-8:])]
        if any(sees(c) for c in top):
            known = [card(c) if sees(c) else hidden(1)[0] for c in top]
            zones.append(zone("table", "deck top (as you know it)", known))
    discard = named(state.coin_discard) if everything else hidden(len(state.coin_discard))
    zones.append(zone("table", "coin discard", discard, info=f"{len(state.coin_discard)} cards"))
    zones.append(zone("table", "treasure discard", named(state.treasure_discard),
                      info=f"Dragon Card: player_{state.dragon}" + (", the game is ending" if state.end_flag else "")))
    scoring = state.scoring() if over else None
    won = {name for b in scoring for name in b["starting"]} if over else set()
    zones.append(zone("table", "Starting Titles", [face(t.name, "title") for t in cs.starting if t.name not in won],
                      info=f"{g.starting_title_vp} VP each, " + ("not awarded" if over else "awarded at the end")))
    for p in range(g.num_players):
        group = f"player_{p}"
        cls = cs.classes[state.classes[p]]
        seen = [c for c in state.coins[p] if sees(c)]
        zones.append(zone(group, "coins", named(seen) + hidden(len(state.coins[p]) - len(seen)), p,
                          f"{cls.name}{' (power used)' if state.power_used[p] else ''}: "
                          f"{len(state.coins[p])} coins"))
        zones.append(zone(group, "treasures", named(state.treasures[p]), p))
        open_ = state.flipped or everything or viewer == p
        if state.hand[p]:
            zones.append(zone(group, "hand", named(state.hand[p]) if open_ else hidden(len(state.hand[p])), p))
        # a dealt card the viewer saw before the deal is known, not where it went (hand or which card)
        seen = [] if open_ else [c for c in state.hand[p] + state.offer[p] if c >= 0 and sees(c)]
        if seen:
            zones.append(zone(group, "dealt cards seen", named(seen), p))
        offers = []
        for k in range(3):
            c = state.offer[p][k]
            if c < 0:
                continue
            if open_:
                offers.append(face(f"[{k + 1}] {cs.names[cs.NAME[c]]}" + (
                    f" +{len(state.added[p][k])}" if state.added[p][k] else ""), f"p-{cs.phase[cs.NAME[c]]}"))
            else:
                offers.append(hidden(1)[0])
        if offers:
            zones.append(zone(group, "negotiate cards", offers, p))
        if over:  # the Titles won and the hidden one, with how the score adds up
            from card_envs.games.split_the_hoard.render import score_text

            titles = [face(name, "title") for name in scoring[p]["starting"]]
            zones.append(zone(group, "Titles", titles + [face(cs.title_names[state.titles[p]], "title")], p,
                              score_text(state, p)))
        elif everything or viewer == p:
            zones.append(zone(group, "hidden Title", [face(cs.title_names[state.titles[p]], "title")], p))
    return zones


# ----- Dominion -------------------------------------------------------------------------------
def _dominion(s, viewer: int | None) -> list[Zone]:
    from card_envs.games.dominion.cards import CARD_NAMES, COST, DEBT, IS_ACTION, IS_TREASURE, IS_VICTORY, PILE_NAMES, \
        TYPES, CURSE

    everything = viewer == -1

    def cls(c: int) -> str:
        if TYPES[c] & CURSE:
            return "t-curse"
        kinds = [k for k, flag in (("treasure", IS_TREASURE[c]), ("victory", IS_VICTORY[c]),
                                   ("action", IS_ACTION[c])) if flag]
        return " ".join(f"t-{k}" for k in kinds)

    def counted(counts) -> list[Card]:  # counts per card id
        return [face(CARD_NAMES[c], cls(c), k) for c, k in enumerate(counts) if k]

    def listed(cards) -> list[Card]:
        return counted([Counter(cards)[c] for c in range(len(CARD_NAMES))])

    zones = []
    for p in s.supply:
        runs: list[list[int]] = []  # top first: [card, count] (split piles hold two cards, Castles eight)
        for c in reversed(s.piles[p]):
            if runs and runs[-1][0] == c:
                runs[-1][1] += 1
            else:
                runs.append([c, 1])
        info = "empty"
        if runs:  # the top card's cost
            top = runs[0][0]
            info = f"${COST[top]}" + (f" + {DEBT[top]} Debt" if DEBT[top] else "") + f", {len(s.piles[p])} left"
        zones.append(zone("supply", PILE_NAMES[p], [face(CARD_NAMES[c], cls(c), k) for c, k in runs], info=info))
    zones.append(zone("table", "trash", counted(s.trash)))
    for q in range(s.n):
        group, mine = f"player_{q}", everything or viewer == q
        info = (f"score {s.score(q)} (VP tokens {s.vp[q]}), debt {s.debt[q]}, "
                f"turns {s.turns[q]}")
        if mine:
            hand = counted(s.hands[q])
        else:
            hand = counted(s.known[q]) + hidden(s.hsize[q] - sum(s.known[q]))
        zones.append(zone(group, "hand", hand, q, info))
        top = []
        for k in range(1, min(2, len(s.decks[q])) + 1):
            flag = s.deck_known[q][-k]
            if everything or flag == 2 or (mine and flag >= 1):
                top.append(face(CARD_NAMES[s.decks[q][-k]], cls(s.decks[q][-k])))
            else:
                top.append(hidden(1)[0])
        deck_info = f"{len(s.decks[q])} cards" + (
            "; top: " + " ".join(c.get("label", "?") for c in top) if top else "")
        if everything:
            zones.append(zone(group, "deck", [face(CARD_NAMES[c], cls(c)) for c in reversed(s.decks[q])],
                              q, deck_info + " (top first)"))
        else:
            zones.append(zone(group, "deck", top + hidden(len(s.decks[q]) - len(top)), q, deck_info))
            if mine and s.decks[q]:
                zones.append(zone(group, "deck contents", listed(s.decks[q]), q))
        discard = s.discards[q]
        if mine:
            zones.append(zone(group, "discard", listed(discard), q, f"{len(discard)} cards"
                              + (f", top {CARD_NAMES[discard[-1]]}" if discard else "")))
        else:
            face_up = [face(CARD_NAMES[discard[-1]], cls(discard[-1]))] if discard else []  # only its top
            zones.append(zone(group, "discard", hidden(len(discard) - 1) + face_up, q, f"{len(discard)} cards"))
        zones.append(zone(group, "in play", listed(s.in_play[q]), q))
        if s.set_aside[q]:
            zones.append(zone(group, "set aside", listed(s.set_aside[q]), q))
    return zones


BOARDS: dict[str, Callable[[Any, int | None], list[Zone]]] = {
    "three_piles": _three_piles, "piles": _piles, "illimat": _illimat, "split_the_hoard": _split_the_hoard,
    "dominion": _dominion}


HEAD_LINES = {"dominion": 2}  # the render's lines above the board (Dominion's first names the kingdom)
# Render lines on what is under way, shown in the head: Split the Hoard's effect or negotiation,
# Illimat's move being made (but not "move so far: -").
IN_PROGRESS = ("  in progress: ", "  move so far: ")


def board(game: Game, state: State, viewer: int | None) -> dict[str, Any]:
    """The board of ``state`` as seat ``viewer`` sees it (see the module docstring).

    A game without a board function here gets its render text only (no zones)."""
    lines = game.render(state, viewer).split("\n")
    head = "\n".join(lines[:HEAD_LINES.get(game.name, 1)]
                     + [line.strip() for line in lines if line.startswith(IN_PROGRESS) and line[-3:] != ": -"])
    builder = BOARDS.get(game.name)
    zones = builder(state, viewer) if builder else []
    for z in zones:
        z["cards"] = _merge_hidden(z["cards"])
    return {"head": head, "zones": zones}


def _merge_hidden(cards: list[Card]) -> list[Card]:
    """Runs of face-down cards as one stack with a count."""
    out: list[Card] = []
    for card in cards:
        if card.get("hidden") and out and out[-1].get("hidden"):
            out[-1] = {"hidden": True, "n": out[-1].get("n", 1) + card.get("n", 1)}
        else:
            out.append(card)
    return out


# ----- card notes (hover text) ------------------------------------------------------------------
def _dominion_notes(game) -> dict[str, str]:
    from card_envs.games.dominion.cards import CARD_NAMES, COST, DEBT, PLUS_ACTIONS, PLUS_BUYS, PLUS_CARDS, \
        PLUS_COINS, PLUS_VP, TYPE_NAMES, TYPES, VP
    from card_envs.games.dominion.effects import ON_GAIN, ON_TRASH, SPECIAL

    notes = {}
    for c, name in enumerate(CARD_NAMES):
        cost = f"${COST[c]}" + (f" + {DEBT[c]} Debt" if DEBT[c] else "")
        kinds = " - ".join(t for bit, t in TYPE_NAMES.items() if TYPES[c] & bit)
        gives = [f"+{k} {what}{'s' if k > 1 else ''}" for k, what in (
            (PLUS_CARDS[c], "Card"), (PLUS_ACTIONS[c], "Action"), (PLUS_BUYS[c], "Buy"), (PLUS_VP[c], "VP token")) if k]
        if PLUS_COINS[c]:
            gives.append(f"+${PLUS_COINS[c]}")
        if VP[c]:
            gives.append(f"{VP[c]} VP")
        elif VP[c] is None:
            gives.append("VP counted by its rule")
        if name in SPECIAL or name in ON_GAIN or name in ON_TRASH:
            gives.append("more in the rules")
        notes[name] = f"{name} | costs {cost} | {kinds}" + (f" | {', '.join(gives)}" if gives else "")
    return notes


def _split_the_hoard_notes(game) -> dict[str, str]:
    cs = game.cards
    notes = {}
    for r in cs.rows:
        rank = "unranked" if r.rank is None else f"modifier {r.rank:+d}" if r.modifier else f"rank {r.rank}"
        parts = [r.name, rank, f"{r.vp} VP"]
        if r.condition:
            kind, arg = r.condition
            parts.append(f"counts only with {' or '.join(arg)}" if kind == "has_any"
                         else f"counts only after winning {arg} Starting Title(s)")
        if r.effect:
            parts.append(f"{r.phase} phase: {' '.join(map(str, r.effect))}")
        parts.append(f"{r.copies} in the deck")
        notes[r.name] = " | ".join(parts)
    for t in cs.hidden:
        rule = ", ".join(f"{k} {v}" for k, v in t.criterion.items() if k != "type")
        notes[t.name] = f"{t.name} (hidden Title) | {t.vp} VP | {t.criterion['type'].replace('_', ' ')}: {rule}"
    from card_envs.games.split_the_hoard.render import CRITERIA, ELIGIBLE

    for t in cs.starting:
        notes[t.name] = (f"{t.name} (Starting Title, face up) | {game.starting_title_vp} VP | "
                         f"{CRITERIA.get(t.criterion, t.criterion)}, with "
                         f"{ELIGIBLE.get(t.criterion, '{}').format(t.min)} | a tie goes to the {t.tie_class} "
                         "if in play, else to nobody")
    return notes


NOTES = {"dominion": _dominion_notes, "split_the_hoard": _split_the_hoard_notes}


def card_notes(game: Game) -> dict[str, str]:
    """Card label -> one line about the card (cost, types, rank, VP, effect): a page's hover text.
    Empty for games whose cards say all in their label."""
    notes = NOTES.get(game.name)
    return notes(game) if notes else {}
