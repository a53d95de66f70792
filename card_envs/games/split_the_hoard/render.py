"""Text rendering for Split the Hoard (reads a state; kept beside the rules, outside them)."""

from __future__ import annotations

from collections import Counter

from card_envs.games.split_the_hoard.effects import DECISION_NAMES, OVER
from card_envs.games.split_the_hoard.rules import PHASE_NAMES, SplitTheHoardState


def _names(cs, cards) -> str:
    counts = Counter(cs.names[cs.NAME[c]] for c in cards)
    return ", ".join(f"{k} x{v}" if v > 1 else k for k, v in sorted(counts.items())) or "-"


def render_text(state: SplitTheHoardState, viewer: int | None) -> str:
    """`viewer`: a seat sees its hand, commits, hidden Title and the face-down cards it has seen;
    None shows only public information; -1 shows everything."""
    g = state.game
    cs = g.cards
    n = g.num_players
    everything = viewer == -1

    def sees(c: int, owner: int | None = None) -> bool:
        return everything or (viewer is not None and viewer >= 0
                              and (owner == viewer or state.known_by[c] >> viewer & 1))

    if state.decision == OVER:
        board = state.scoring()
        head = "game over | " + ", ".join(f"player_{p} {b['total']} VP ({b['coins']} coins)" for p, b in enumerate(board))
    else:
        head = (f"round {state.round + 1}, {PHASE_NAMES[state.phase]} | player_{state.current_player} to decide "
                f"({DECISION_NAMES[state.decision]})")
    lines = [f"Split the Hoard | {head}",
             f"  deck {len(state.deck)} | coin discard {len(state.coin_discard)} | Dragon Card: player_{state.dragon}"
             + (" | the game is ending" if state.end_flag else ""),
             f"  treasure discard: {_names(cs, state.treasure_discard)}"]
    if everything:
        lines.append(f"  deck (top first): {', '.join(cs.names_of(reversed(state.deck)))}")
    elif viewer is not None:
        top = [cs.names[cs.NAME[c]] if sees(c) else "?" for c in reversed(state.deck[-8:])]
        if any(t != "?" for t in top):
            lines.append(f"  deck top (as you know it): {', '.join(top)}")
    for p in range(n):
        cls = cs.classes[state.classes[p]]
        used = " (power used)" if state.power_used[p] else ""
        lines.append(f"player_{p} {cls.name}{used}: {len(state.coins[p])} coins | treasures: "
                     f"{_names(cs, state.treasures[p])}")
        seen = [c for c in state.coins[p] if sees(c)]
        if seen:
            lines.append(f"  coins seen: {_names(cs, seen)}")
        open_ = state.flipped or everything or viewer == p
        if state.hand[p]:
            shown = state.hand[p] if open_ else []
            lines.append(f"  hand: {len(state.hand[p])} cards" + (f" ({_names(cs, shown)})" if shown else ""))
        # a dealt card another seat saw before the deal is known, not where it went (hand or which card)
        seen = [] if open_ else [c for c in state.hand[p] + state.offer[p] if c >= 0 and sees(c)]
        if seen:
            lines.append(f"  dealt cards seen: {_names(cs, seen)}")
        offers = []
        for k in range(3):
            c = state.offer[p][k]
            if c < 0:
                continue
            what = cs.names[cs.NAME[c]] if open_ else "face down"
            added = f" +{len(state.added[p][k])}" if open_ else ""
            offers.append(f"[{k + 1}{added}] {what}")
        if offers:
            lines.append("  negotiate cards: " + " | ".join(offers))
        if everything or viewer == p or state.decision == OVER:
            lines.append(f"  hidden Title: {cs.title_names[state.titles[p]]}")
    return "\n".join(lines)
