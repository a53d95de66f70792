"""Text rendering for 3 Piles (kept beside the rules, outside them)."""

from __future__ import annotations

from card_envs.core.cards import card_names
from card_envs.games.three_piles.rules import (
    DRAW, NUM_DESTINATIONS, NUM_PILES, PASS, PHASE_NAMES, PLAY_BASE, ThreePilesState)


def _cards(cards) -> str:
    return " ".join(card_names(cards)) or "-"


def last_move_text(state: ThreePilesState) -> str:
    """The last move, all public: a take or play shows its card, a draw never does."""
    if state.last_move is None:
        return "none yet"
    seat, action, card = state.last_move
    who = f"player_{seat}"
    if action == DRAW:
        return f"{who} drew a card"
    if action == PASS:
        return f"{who} passed"
    if action < DRAW:
        stack, pile = divmod(action, NUM_PILES)
        return f"{who} took {_cards([card])} from stack {stack} onto pile {pile}"
    dest = (action - PLAY_BASE) % NUM_DESTINATIONS
    where = f"pile {dest}" if dest < NUM_PILES else f"stack {dest - NUM_PILES}"
    return f"{who} played {_cards([card])} onto {where}"


def result_text(scores: list[int]) -> str:
    """'Highest total wins; equal totals draw.'"""
    best = max(scores)
    winners = [f"player_{s}" for s, x in enumerate(scores) if x == best]
    if len(winners) == len(scores):
        return "draw"
    return f"{winners[0]} wins" if len(winners) == 1 else f"{' and '.join(winners)} tie for the win"


def render_text(state: ThreePilesState, viewer: int | None) -> str:
    """`viewer`: a seat sees its own hand; None shows only public information; -1 shows all."""
    n = state.game.num_players
    scores = state.scores()
    if state.is_terminal():
        head = "game over: " + ", ".join(f"player_{s} {scores[s]}" for s in range(n)) + " | " + result_text(scores)
    else:
        head = f"player_{state.current_player} to move ({PHASE_NAMES[state.phase]})"
    lines = [f"3 Piles | {head} | deck {len(state.deck)} | passes {state.passes}",
             f"  last move: {last_move_text(state)}"]
    for s, stack in enumerate(state.stacks):
        top = f"top {_cards(stack[-1:])}" if stack else "empty"
        lines.append(f"  stack {s}: {top:9} [{_cards(stack)}]")
    for seat in range(n):
        hand = state.hands[seat]
        shown = _cards(hand) if viewer in (seat, -1) else f"{len(hand)} hidden"
        you = " (you)" if viewer == seat else ""
        lines.append(f"  player_{seat}{you}: score {scores[seat]:2} | hand {shown}")
        for k, pile in enumerate(state.piles[seat]):
            lines.append(f"      pile {k}: {_cards(pile)}")
    return "\n".join(lines)
