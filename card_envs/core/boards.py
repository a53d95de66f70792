"""A board as data, for pictures (the HTML replay viewer): the pieces each game's board is made of.

A game draws its board in ``Game.board_zones(state, viewer)`` (its ``board.py``): what
``game.render(state, viewer)`` shows, as zones of cards instead of text, built from the same
fields with the same visibility rules (a test checks that a seat's board does not change under
``state.determinize(seat)``, and the public board under any seat's)::

    [{"group": "table", "name": "stack 0", "owner": None, "info": "top 6C",
      "cards": [{"label": "6C", "cls": "s-C"}, {"hidden": True, "n": 3}, ...]}, ...]

``viewer``: a seat sees what that seat knows; None: public information only (a spectator);
-1: everything, every card of every zone face up (decks top first). A card is ``{"label", "cls"}``
(face up; ``cls`` names its suit or type for colouring, styled by the game's ``replay_style``) or
``{"hidden": True}`` (face down), with ``"n"`` for several of the same, and ``"note"`` for a
hover text of its own (else the game's ``card_notes`` for its label). ``owner`` is the seat a
zone belongs to (its hand, piles) or None; ``group`` is ``"table"`` or ``"player_k"``, or a
group of the game's own (a layout in ``replay_style`` may place it).
"""

from __future__ import annotations

from typing import Any

from card_envs.core.cards import SUIT, card_name

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


def standard_cards(cards) -> list[Card]:
    """Standard 52-card deck cards, face up, coloured by suit (`STANDARD_STYLE`)."""
    return [face(card_name(c), f"s-{'CDHS'[SUIT[c]]}") for c in cards]


# The replay page's drawing of standard deck cards (`Game.replay_style`): suit letters as symbols
# on the cards and in lines of text, a card's hover in words ("K\u2660: King of Spades").
STANDARD_STYLE: dict[str, Any] = {
    "suits": {"s-C": ["C", "\u2663", "Clubs"], "s-D": ["D", "\u2666", "Diamonds"], "s-H": ["H", "\u2665", "Hearts"],
              "s-S": ["S", "\u2660", "Spades"]},
    "rank_names": {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"},
    "card_text": [r"\b(10|[2-9AJQK])([CDHS])\b", {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}],
    "css": ".s-C, .s-S { color: #111; } .s-D, .s-H { color: #c0141c; }\n",
}


def merge_hidden(cards: list[Card]) -> list[Card]:
    """Runs of face-down cards as one stack with a count."""
    out: list[Card] = []
    for card in cards:
        if card.get("hidden") and out and out[-1].get("hidden"):
            out[-1] = {"hidden": True, "n": out[-1].get("n", 1) + card.get("n", 1)}
        else:
            out.append(card)
    return out
