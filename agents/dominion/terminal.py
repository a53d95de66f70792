"""Dominion in the terminal (`card_envs.agents.human`): the supply as a table, a buy or gain's
cost and cards left beside each choice, and ``help <card>``: a card's cost, types and text (a pile,
an Ally or a term of the card texts too); for the browser page (`card_envs.web`), where a move's
card lies (`move_places`)."""

from __future__ import annotations

from card_envs.games.dominion.cards import (
    ALLIES, ALLY_TEXT, CARD_NAMES, CARD_TEXT, COST, DEBT, PILE_CARDS, PILE_NAMES, PILE_OF, TYPE_NAMES, TYPES,
    pile_setup)
from card_envs.games.dominion.effects import OPTION0, PILE0
from card_envs.games.dominion.render import pile_runs

SUPPLY_LINE = "  supply (top first): "  # Dominion's render line that the table replaces


def cost_text(card: int) -> str:
    return f"${COST[card]}" + (f"+{DEBT[card]} Debt" if DEBT[card] else "")


def supply_table(state) -> list[str]:
    """Dominion's supply as a table: each pile's cost (of its top card), cards left, and cards."""
    rows = []
    for p in state.supply:
        pile = state.piles[p][::-1]  # top first
        runs = pile_runs(state.piles[p])
        cards = " / ".join(f"{k} {CARD_NAMES[c]}" for c, k in runs) if len(runs) > 1 else ""
        rows.append((PILE_NAMES[p], cost_text(pile[0]) if pile else "-", str(len(pile)) if pile else "empty",
                     cards))
    width = max(len(r[0]) for r in rows)
    lines = [f"  supply: {'pile':<{width}}  cost  left  (a split pile's cards, top first)"]
    lines += [f"          {name:<{width}}  {cost:>4}  {left:>5}  {cards}".rstrip() for name, cost, left, cards in rows]
    return lines


def choice_note(state, action: int) -> str:
    """A buy or gain's cost and the cards left in its pile."""
    if not PILE0 <= action < OPTION0 or not state.piles[action - PILE0]:
        return ""
    pile, top = state.piles[action - PILE0], state.piles[action - PILE0][-1]
    name = f"{CARD_NAMES[top]} " if CARD_NAMES[top] != PILE_NAMES[action - PILE0] else ""  # a split pile's top
    return f"{name}{cost_text(top)}, {len(pile)} left"


def move_places(name: str) -> str:
    """Where a move's card lies, for clicking it on the browser page (`card_envs.web.session.targets`):
    a "card X" decision takes one of the player's own cards, a "pile X" one a Supply pile."""
    return "own" if name.startswith("card ") else "shared" if name.startswith("pile ") else "all"


def board(text: str, state) -> str:
    """The rendered view with its one-line supply replaced by `supply_table`."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith(SUPPLY_LINE)), None)
    if at is None:
        return text
    return "\n".join(lines[:at] + supply_table(state) + lines[at + 1:])


HELP_TOPIC = "'help <card>': a card's cost, types and text (e.g. 'help Smithy'; a pile, an Ally, 'help rotate')"
# Terms of the card texts, for ``help <term>``.
TERMS = {
    "rotate": "Rotate a pile: its top card and the identical cards directly under it go to the bottom of the "
              "pile (a pile of one name does not change).",
    "debt": "Debt (Fortune costs $8 and 8 Debt): you cannot buy while you owe Debt; it is repaid with your $, "
            "$1 a token, automatically, as much as possible.",
    "favor": "Favors: with Wizards (Student, a Liaison) in the Supply one Ally is dealt and each player starts "
             "with 1 Favor; the Ally says what Favors buy. They count for nothing at the end.",
    "vp token": "VP tokens: points kept beside your deck, added to your cards' VP at the end.",
    "bane": "The Bane: with Young Witch, an 11th Kingdom pile costing $2 or $3; its cards protect you from "
            "Young Witch's Curse when revealed from your hand.",
    "duration": "Duration cards stay in play until the Clean-up of the turn their effect fires (the start of "
                "your next turn).",
    "split pile": "A split pile holds several cards in order; only its top card can be bought or gained, and "
                  "it counts as empty only when all of it is gone.",
}


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


_CARD_KEYS = {_key(name): c for c, name in enumerate(CARD_NAMES)}
_PILE_KEYS = {_key(name): p for p, name in enumerate(PILE_NAMES)}
_ALLY_KEYS = {_key(name): a for a, name in enumerate(ALLIES)}
_TERM_KEYS = {_key(term) + suffix: term for term in TERMS for suffix in ("", "s")}


def types_text(card: int) -> str:
    return "-".join(name for bit, name in TYPE_NAMES.items() if TYPES[card] & bit)


def card_text(card: int) -> str:
    """``Smithy: $4, Action. +3 Cards.``"""
    return f"{CARD_NAMES[card]}: {cost_text(card)}, {types_text(card)}. {CARD_TEXT[CARD_NAMES[card]]}"


def pile_text(pile: int, state) -> str:
    """Where a pile stands in this game: not in the Supply, empty, or its cards left and top card."""
    if state is None:
        return ""
    if pile not in state.supply:
        return f"Not in this game's Supply (pile {PILE_NAMES[pile]})."
    cards = state.piles[pile]
    if not cards:
        return f"In this game: the {PILE_NAMES[pile]} pile is empty."
    top = f", {CARD_NAMES[cards[-1]]} on top" if len(PILE_CARDS[pile]) > 1 else ""
    return f"In this game: {len(cards)} left in the {PILE_NAMES[pile]} pile{top}."


def card_help(topic: str, state) -> str | None:
    """``help <topic>``: a card (cost, types, text, its pile in this game), a pile (its cards top to
    bottom), an Ally or a term of the card texts; None for anything else."""
    key = _key(topic)
    if key in _CARD_KEYS:
        card = _CARD_KEYS[key]
        pile = PILE_OF[card]
        lines = [card_text(card)]
        if len(PILE_CARDS[pile]) > 1:
            lines.append(f"From the {PILE_NAMES[pile]} split pile (help {PILE_NAMES[pile]}).")
        return "\n".join(line for line in lines + [pile_text(pile, state)] if line)
    if key in _PILE_KEYS:
        pile = _PILE_KEYS[key]
        if len(PILE_CARDS[pile]) == 1:
            return card_help(CARD_NAMES[PILE_CARDS[pile][0]], state)
        n = state.n if state is not None else 2
        setup = pile_setup(pile, n)
        lines = [f"{PILE_NAMES[pile]}: a split pile of {len(setup)} cards ({n} players), top to bottom:"]
        lines += [f"  {setup.count(c)} x {card_text(c)}" for c in PILE_CARDS[pile]]
        return "\n".join(lines + [pile_text(pile, state)]).rstrip()
    if key in _ALLY_KEYS:
        name = ALLIES[_ALLY_KEYS[key]]
        dealt = "" if state is None else (" It is this game's Ally." if state.ally == _ALLY_KEYS[key]
                                           else " It is not this game's Ally.")
        return f"{name} (an Ally): {ALLY_TEXT[name]}{dealt}"
    if key in _TERM_KEYS:
        return TERMS[_TERM_KEYS[key]]
    return None
