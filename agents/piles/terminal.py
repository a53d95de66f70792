"""Piles in the terminal (`card_envs.agents.human`): ``help <card>`` says what a card's rank and
colour mean in the rules (``help 10D``), and which team it scores for in this game."""

from __future__ import annotations

from card_envs.core.cards import RANK, card_name, card_words, parse_card
from card_envs.games.piles.rules import COLOUR, COLOUR_NAMES, POINTS, team_of

HELP_TOPIC = "'help <card>': what a card's value and colour mean (e.g. 'help 10D')"


def card_help(topic: str, state) -> str | None:
    """A card's intrinsic value, colour and points; None for a topic that is not a card name."""
    try:
        card = parse_card(topic.replace(" ", ""))
    except ValueError:
        return None
    rank, colour = RANK[card], COLOUR[card]
    other = COLOUR_NAMES[1 - colour]
    lines = [f"{card_name(card)}: the {card_words(card)}, "
             f"{COLOUR_NAMES[colour]}, intrinsic value {rank} (Ace 1 .. King 13).",
             "On top of a Castle pile its total value is that + 1 per orthogonally neighbouring top card of its "
             "colour - 1 per top card of the other colour.",
             f"It may go on a {COLOUR_NAMES[colour]}-topped pile always, on a {other}-topped pile only if {rank} is "
             "strictly greater than that top card's total value.",
             f"At the end it scores {POINTS[card]} (Ace 9, King 4, Queen 3, Jack 2, any other 1) for the {other} "
             f"team, if it lies in that team's piles or captured cards."]
    colours = getattr(state, "team_colours", None)
    if colours is not None and colours[0] is not None:
        members = [[s for s in range(state.game.num_players) if team_of(s) == t] for t in range(2)]
        teams = ", ".join(f"team {t} (seat{'s' * (len(members[t]) > 1)} {' and '.join(map(str, members[t]))}) is "
                          f"{COLOUR_NAMES[c]}" for t, c in enumerate(colours) if c is not None)
        lines.append(f"In this game {teams}.")
    elif colours is not None:
        lines.append("In this game the colours are not fixed yet: the first card placed gives its colour to the "
                     "placer's team.")
    return "\n".join(lines)
