"""Text rendering for Piles (kept beside the rules, outside them)."""

from __future__ import annotations

from card_envs.core.cards import card_names
from card_envs.games.piles.rules import (
    COLOUR_NAMES, COLS, NUM_POSITIONS, PASS, ROWS, PilesState, position_name, team_of)


def _cards(cards) -> str:
    return " ".join(card_names(cards)) or "-"


def last_move_text(state: PilesState) -> str:
    """The last move, all public: a placed card, or the card a pass gave away face up."""
    if state.last_move is None:
        return "none yet"
    seat, action, card = state.last_move
    if action == PASS:
        taker = (seat + 1) % state.game.num_players
        return f"player_{seat} passed; player_{taker} took {_cards([card])}"
    return f"player_{seat} placed {_cards([card])} on {position_name(action % NUM_POSITIONS)}"


def result_text(points: list[int], n: int) -> str:
    """'The team with more points wins; equal points draw.'"""
    if points[0] == points[1]:
        return "draw"
    team = 0 if points[0] > points[1] else 1
    return f"team {team} ({'+'.join(f'player_{s}' for s in range(n) if team_of(s) == team)}) wins"


def render_text(state: PilesState, viewer: int | None) -> str:
    """`viewer`: a seat sees its own hand; None shows only public information; -1 shows all.

    Castle cells read ``top=value/height``: the top card, its total value and the pile's size."""
    n = state.game.num_players
    points = state.team_points()
    if state.is_terminal():
        head = f"game over: team 0 {points[0]}, team 1 {points[1]} | {result_text(points, n)}"
    else:
        head = f"player_{state.current_player} to move | turns left {state.turns_left}"
    lines = [f"Piles | {head}", f"  last move: {last_move_text(state)}", "  Castle (top=total value/pile height):",
             "        " + "".join(f"c{col:<11}" for col in range(COLS))]
    for row in range(ROWS):
        cells = []
        for pos in range(row * COLS, (row + 1) * COLS):
            cells.append(f"{card_names([state.tops[pos]])[0]}={state.values[pos]}/{len(state.piles[pos])}")
        lines.append(f"    r{row}  " + "".join(f"{cell:<12}" for cell in cells))
    for pos, pile in enumerate(state.piles):
        if len(pile) > 1:
            lines.append(f"    pile {position_name(pos)} (bottom first): {_cards(pile)}")
    for team in (0, 1):
        seats = "+".join(f"player_{s}" for s in range(n) if team_of(s) == team)
        colour = state.team_colours[team]
        colour_text = "colour not fixed" if colour is None else COLOUR_NAMES[colour]
        lines.append(f"  team {team} ({seats}): {colour_text} | points {points[team]} | "
                     f"captured after passes {_cards(state.captured[team])}")
    for seat in range(n):
        hand = state.hands[seat]
        shown = _cards(hand) if viewer in (seat, -1) else f"{len(hand)} hidden"
        you = " (you)" if viewer == seat else ""
        lines.append(f"  player_{seat}{you}: hand {shown}")
    if state.set_aside:
        shown = _cards(state.set_aside) if viewer == -1 else f"{len(state.set_aside)} hidden"
        lines.append(f"  set aside (dealt when both hands are empty): {shown}")
    return "\n".join(lines)
