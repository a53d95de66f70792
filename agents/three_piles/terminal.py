"""3 Piles in the terminal (`card_envs.agents.human`): ``help <card>`` says what a card's rank and
suit mean in the rules (``help 10D``, ``help KS``)."""

from __future__ import annotations

from card_envs.core.cards import DIAMONDS, RANK, SUIT, card_name, card_words, parse_card

HELP_TOPIC = "'help <card>': what a card's rank and suit mean (e.g. 'help 10D')"


def card_help(topic: str, state) -> str | None:
    """A card's rank and suit as the rules use them; None for a topic that is not a card name."""
    try:
        card = parse_card(topic.replace(" ", ""))
    except ValueError:
        return None
    rank, suit = RANK[card], SUIT[card]
    lines = [f"{card_name(card)}: the {card_words(card)}, rank {rank} (Ace low = 1 .. King = 13).",
             "On a pile it must be strictly lower or strictly higher than every card there (a pile only grows "
             "at its low or high end)."]
    if rank in (1, 13):
        lines.append("A pile holding both an Ace and a King scores 3.")
    lines.append("A Diamond scores 1 in your piles." if suit == DIAMONDS else "Its suit scores nothing (only Diamonds do).")
    lines.append("Score: your longest pile's cards + 3 per pile with an Ace and a King + 1 per Diamond in your piles.")
    return "\n".join(lines)
