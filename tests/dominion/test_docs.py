"""Dominion's doc page agrees with the engine where the reader decodes by position."""
import re

import card_envs.games.dominion as dominion
from card_envs.games.dominion.effects import DECISIONS


def documented_decisions() -> list[str]:
    """The decision names of the doc page's table, row by row, in the order they are written."""
    section = dominion.__doc__.split("Decisions (the observation's ``decision`` one-hot, in this order):")[1]
    rows = [line for line in section.split("\n\n")[1].splitlines() if line.startswith("| ``")]
    return [name for row in rows for name in re.findall(r"``(\w+)``", row.split("|")[1])]


def test_decision_table_lists_the_one_hot_in_its_real_order():
    """A reader decodes the observation's `decision` one-hot from this table: it must name every
    decision once, at its index."""
    assert documented_decisions() == list(DECISIONS)


def test_every_card_and_ally_has_a_text_that_agrees_with_its_data_row():
    """The card texts a player reads (``help <card>`` in the terminal) cover every card and Ally,
    and name the vanilla bonuses and the VP of the card's data row."""
    from card_envs.games.dominion.cards import (
        ALLIES, ALLY_TEXT, CARD_NAMES, CARD_TEXT, IS_VICTORY, PLUS_ACTIONS, PLUS_BUYS, PLUS_CARDS, PLUS_COINS,
        PLUS_VP, VP)

    assert list(CARD_TEXT) == list(CARD_NAMES) and list(ALLY_TEXT) == list(ALLIES)
    for c, name in enumerate(CARD_NAMES):
        text = CARD_TEXT[name]
        for k, word in ((PLUS_CARDS[c], "Card"), (PLUS_ACTIONS[c], "Action"), (PLUS_BUYS[c], "Buy")):
            assert (f"+{k} {word}" in text) == bool(k), (name, word, k)
        assert (f"+${PLUS_COINS[c]}" in text) == bool(PLUS_COINS[c]), name
        assert (f"+{PLUS_VP[c]} VP token" in text) == bool(PLUS_VP[c]), name
        if IS_VICTORY[c] and VP[c]:
            assert text.startswith(f"{VP[c]} VP") or name == "Province", name
    assert CARD_TEXT["Curse"] == "-1 VP."
