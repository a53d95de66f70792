"""Dominion in the terminal (`card_envs.agents.human`): the supply as a table, a buy or gain's
cost and cards left beside each choice."""

from __future__ import annotations

from card_envs.games.dominion.cards import CARD_NAMES, COST, DEBT, PILE_NAMES
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


def board(text: str, state) -> str:
    """The rendered view with its one-line supply replaced by `supply_table`."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith(SUPPLY_LINE)), None)
    if at is None:
        return text
    return "\n".join(lines[:at] + supply_table(state) + lines[at + 1:])
