"""Text rendering for Dominion (reads a state; imported by the Game, never by the rules)."""

from __future__ import annotations

from collections import Counter
from itertools import groupby

from card_envs.games.dominion.cards import CARD_NAMES, PILE_NAMES

PHASES = ("action", "treasure", "buy", "over")
# Decisions whose answer only the deciding player sees (the doc page's "What each seat knows"): the
# cards a Haunted Castle victim puts on his deck, Sibyl's top and bottom cards, the card an Archer
# victim keeps hidden, the card Miller keeps.
SECRET_KINDS = frozenset({"haunted", "sibyl_top", "sibyl_bottom", "archer_hide", "miller"})


def pile_runs(pile: list[int]) -> list[tuple[int, int]]:
    """A Supply pile top first, as (card, how many in a row): a split pile reads "5 Catapult / 5 Rocks"."""
    return [(c, len(list(run))) for c, run in groupby(reversed(pile))]


def _counts(cards) -> str:
    c = Counter(cards)
    return ", ".join(f"{k} {CARD_NAMES[x]}" for x, k in sorted(c.items())) or "-"


def _hand(counts) -> str:
    return ", ".join(f"{k} {CARD_NAMES[c]}" for c, k in enumerate(counts) if k) or "-"


def secret_move(s, action: int) -> bool:
    """Whether the rules make this move in secret, so that a log names it to its player only."""
    return bool(s.tasks) and s.tasks[-1]["kind"] in SECRET_KINDS


def render_text(s, viewer: int | None) -> str:
    """`viewer` sees his hand, deck contents and discard pile; None: public view; -1: everything."""
    everything = viewer == -1
    head = f"Dominion | kingdom: {', '.join(PILE_NAMES[p] for p in s.kingdom)}"
    if s.bane >= 0:
        head += f" | Bane: {PILE_NAMES[s.bane]}"
    lines = [head]
    if s.phase == 3:
        lines.append(f"game over | scores: {s.scores()} | turns: {s.turns}")
    else:
        lines.append(f"player_{s.turn_player}'s turn, {PHASES[s.phase]} phase | ${s.coins}, {s.actions} Actions, "
                     f"{s.buys} Buys | player_{s.current_player} decides"
                     + (f" ({s.tasks[-1]['kind']})" if s.tasks else ""))
    supply = []
    for p in s.supply:
        runs = pile_runs(s.piles[p])
        supply.append(f"{PILE_NAMES[p]}: " + (" / ".join(f"{k} {CARD_NAMES[c]}" for c, k in runs) or "empty"))
    lines.append("  supply (top first): " + "; ".join(supply))
    lines.append(f"  trash: {_hand(s.trash)}")
    for q in range(s.n):
        mine = everything or viewer == q
        deck_top = []
        for k in range(1, min(2, len(s.decks[q])) + 1):
            flag = s.deck_known[q][-k]
            if everything or flag == 2 or (mine and flag >= 1):
                deck_top.append(CARD_NAMES[s.decks[q][-k]])
            else:
                deck_top.append("?")
        line = (f"  player_{q}: score {s.score(q)} (VP tokens {s.vp[q]}), debt {s.debt[q]}, turns {s.turns[q]} | "
                f"hand {s.hsize[q]}" + (f" [{_hand(s.hands[q])}]" if mine else f" (revealed: {_hand(s.known[q])})")
                + f" | deck {len(s.decks[q])}" + (f" [{_counts(s.decks[q])}]" if mine else "")
                + f" top {' '.join(deck_top) or '-'}"
                + f" | discard {len(s.discards[q])}" + (f" [{_counts(s.discards[q])}]" if mine else "")
                + f" top {CARD_NAMES[s.discards[q][-1]] if s.discards[q] else '-'}"
                + f" | in play: {_counts(s.in_play[q])}" + (f" | set aside: {_counts(s.set_aside[q])}" if s.set_aside[q] else ""))
        if everything:
            line += f" | deck order (top first): {' '.join(CARD_NAMES[c] for c in reversed(s.decks[q]))}"
        lines.append(line)
    return "\n".join(lines)


def describe_move(s, action: int) -> tuple[str, str]:
    """(context, phrase) for a replay's move list: a card's own decision under its kind ("cellar:
    card Estate"), else the move as a verb ("buys Silver", "plays Smithy", "ends buys")."""
    name = s.game.action_to_string(action)
    if s.tasks:  # a card's own decision (Cellar's discards, a Militia victim's)
        return s.tasks[-1]["kind"].replace("_", " "), name
    phase = ("actions", "treasures", "buys")[s.phase]
    if name == "done":
        return "", f"ends {phase}"
    verb, _, what = name.partition(" ")
    verbs = {"card": "plays", "play": "plays", "pile": "buys" if phase == "buys" else "gains"}
    return "", f"{verbs.get(verb, verb)} {what}"
