"""Card helpers shared by every standard-deck game.

A card is a small int: ``suit * 13 + (rank - 1)``, rank 1 (Ace) .. 13 (King). The 52-card deck
uses suits 0..3 = Clubs, Diamonds, Hearts, Spades; a 65-card deck adds a fifth suit (Illimat's
Stars) as suit 4. Names are rank then suit letter: ``"AS"``, ``"10D"``, ``"KH"``.
"""

from __future__ import annotations

import reprlib
from typing import Iterable, Sequence

import numpy as np

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
STANDARD_SUITS = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
NUM_RANKS = 13
SUIT_WORDS = ("Clubs", "Diamonds", "Hearts", "Spades")
RANK_WORDS = {ACE: "Ace", JACK: "Jack", QUEEN: "Queen", KING: "King"}  # the others read as their number

# Lookup tables: indexing a tuple is faster than `%`/`//` in hot loops.
RANK = tuple(c % NUM_RANKS + 1 for c in range(5 * NUM_RANKS))
SUIT = tuple(c // NUM_RANKS for c in range(5 * NUM_RANKS))


def make_card(rank: int, suit: int) -> int:
    if not 1 <= rank <= NUM_RANKS:
        raise ValueError(f"rank must be 1..13, got {rank!r}")
    if not 0 <= suit <= 4:
        raise ValueError(f"suit must be 0..4, got {suit!r}")
    return suit * NUM_RANKS + rank - 1


def card_name(card: int, suits: str = STANDARD_SUITS) -> str:
    return RANK_NAMES[RANK[card] - 1] + suits[SUIT[card]]


def card_words(card: int) -> str:
    """A standard card in words, for people: 10 -> "Jack of Clubs"."""
    return f"{RANK_WORDS.get(RANK[card], str(RANK[card]))} of {SUIT_WORDS[SUIT[card]]}"


def parse_card(name: str, suits: str = STANDARD_SUITS) -> int:
    """``"10D"`` -> 22. Raises ValueError naming the accepted form."""
    if not isinstance(name, str) or len(name) < 2:
        raise ValueError(f"bad card {reprlib.repr(name)}: expected rank {'/'.join(RANK_NAMES)} + suit {suits!r}, e.g. '10D'")
    rank_text, suit_text = name[:-1].upper(), name[-1].upper()
    if rank_text not in RANK_NAMES or suit_text not in suits:
        raise ValueError(f"bad card {reprlib.repr(name)}: expected rank {'/'.join(RANK_NAMES)} + suit {suits!r}, e.g. '10D'")
    return make_card(RANK_NAMES.index(rank_text) + 1, suits.index(suit_text))


def card_names(cards: Iterable[int], suits: str = STANDARD_SUITS) -> list[str]:
    return [card_name(c, suits) for c in cards]


def parse_cards(names: Sequence[str], suits: str = STANDARD_SUITS) -> list[int]:
    if isinstance(names, str) or not isinstance(names, (list, tuple)):
        raise ValueError(f"expected a list of card names, got {reprlib.repr(names)}")
    return [parse_card(n, suits) for n in names]


def new_deck(num_suits: int = 4) -> list[int]:
    return list(range(num_suits * NUM_RANKS))


def shuffled_deck(rng: np.random.Generator, num_suits: int = 4) -> list[int]:
    return rng.permutation(num_suits * NUM_RANKS).tolist()
