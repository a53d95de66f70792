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
