"""Text rendering for 3 Piles (kept beside the rules, outside them)."""

from __future__ import annotations

from card_envs.core.cards import card_names
from card_envs.games.three_piles.rules import PHASE_NAMES, ThreePilesState


def _cards(cards) -> str:
    return " ".join(card_names(cards)) or "-"


def render_text(state: ThreePilesState, viewer: int | None) -> str:
    """`viewer`: a seat sees its own hand; None shows only public information; -1 shows all."""
    n = state.game.num_players
    scores = state.scores()
    if state.is_terminal():
        head = "game over: " + ", ".join(f"player_{s} {scores[s]}" for s in range(n))
    else:
        head = f"player_{state.current_player} to move ({PHASE_NAMES[state.phase]})"
    lines = [f"3 Piles | {head} | deck {len(state.deck)} | passes {state.passes}"]
    for s, stack in enumerate(state.stacks):
        top = f"top {_cards(stack[-1:])}" if stack else "empty"
        lines.append(f"  stack {s}: {top:9} [{_cards(stack)}]")
    for seat in range(n):
        hand = state.hands[seat]
        shown = _cards(sorted(hand)) if viewer in (seat, -1) else f"{len(hand)} hidden"
        you = " (you)" if viewer == seat else ""
        lines.append(f"  player_{seat}{you}: score {scores[seat]:2} | hand {shown}")
        for k, pile in enumerate(state.piles[seat]):
            lines.append(f"      pile {k}: {_cards(pile)}")
    return "\n".join(lines)
