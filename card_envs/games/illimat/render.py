"""Text rendering for Illimat (kept beside the rules, outside them)."""

from __future__ import annotations

from card_envs.core.cards import SUIT
from card_envs.games.illimat.cards import (
    DECISION_NAMES, IS_FOOL, LUMINARIES, NO_LUMINARY, NUM_FIELDS, OVER, PLAY_NAMES, SEASON_NAMES, SOW, SUMMER, WINTER,
    cnames)
from card_envs.games.illimat.rules import IllimatState


def _cards(cards) -> str:
    return " ".join(cnames(cards)) or "-"


def _counts(cards) -> str:
    summer = sum(1 for c in cards if SUIT[c] == SUMMER)
    winter = sum(1 for c in cards if SUIT[c] == WINTER)
    fools = sum(1 for c in cards if IS_FOOL[c])
    return f"Summer {summer}, Winter {winter}, Fools {fools}"


def render_text(state: IllimatState, viewer: int | None) -> str:
    """`viewer`: a seat sees its own hand and secret cards; None shows only public information;
    -1 shows everything (hands, draw pile, face-down Luminaries, the cards under the Children).

    Cards are rank + suit letter: A = Fool, J = Knight; P spring, S summer, A autumn, W winter,
    * stars. A stockpile reads ``value kind [cards]``."""
    g = state.game
    n = g.num_players
    everything = viewer == -1
    scores = ", ".join(f"player_{p} {s}" for p, s in enumerate(state.match_scores))
    if state.decision == OVER:
        best = max(state.match_scores)
        winners = [f"player_{p}" for p, x in enumerate(state.match_scores) if x == best]
        result = f"winner {winners[0]}" if len(winners) == 1 else "tie between " + ", ".join(winners)
        head = f"game over after {state.round} round(s) | {result} | scores: {scores}"
    else:
        head = (f"round {state.round + 1} | player_{state.current_player} to move "
                f"({DECISION_NAMES[state.decision]} decision) | scores: {scores}")
    lines = [f"Illimat | {head}",
             f"  draw pile {len(state.deck)}" + (f": {_cards(reversed(state.deck))}" if everything else "")
             + f" | okus on the Illimat {state.okus_left}"
             + (" | Harmonic Convergence happened" if state.converged else ""),
             f"  last play: {_last_play(state)}"]
    for f in range(NUM_FIELDS):
        L = state.lum[f]
        if L == NO_LUMINARY:
            lum = "no Luminary"
        elif state.lum_up[f]:
            lum = f"{LUMINARIES[L]} (face up)"
            if state.under[f]:
                shown = _cards(state.under[f]) if everything else "hidden"
                lum += f", {len(state.under[f])} cards under it: {shown}"
        else:
            lum = f"face-down Luminary ({LUMINARIES[L]})" if everything else "face-down Luminary"
        lines.append(f"  field {f} {SEASON_NAMES[state.season(f)]:<6}  {lum}")
        piles = "; ".join(f"{pile[1]} {'multiple' if pile[2] else 'single'} [{_cards(pile[3])}]"
                          for pile in state.piles[f])
        lines.append(f"      loose: {_cards(state.loose[f])}" + (f" | stockpiles: {piles}" if piles else ""))
    for p in range(n):
        hand = state.hands[p]
        if viewer in (p, -1):
            shown = _cards(hand)
        else:
            known = f" (known: {_cards(state.known[p])})" if state.known[p] else ""
            shown = f"{len(hand)} hidden{known}"
        harvest = state.harvest[p]
        if viewer in (p, -1):
            counted = harvest
            secret = f", {len(state.secret[p])} secret: {_cards(state.secret[p])}" if state.secret[p] else ""
        else:
            hidden = set(state.secret[p])
            counted = [c for c in harvest if c not in hidden]
            secret = f", {len(hidden)} secret" if hidden else ""
        claimed = ", ".join(LUMINARIES[L] for L in state.claimed[p]) or "-"
        you = " (you)" if viewer == p else ""
        lines.append(f"  player_{p}{you}: hand {shown} | harvested {len(harvest)} ({_counts(counted)}{secret}) "
                     f"| okus {state.okus[p]} | Luminaries {claimed}")
    if state.decision != OVER:
        lines.append("  move so far: " + _move_text(state))
    lines.append(f"  {LEGEND}")
    return "\n".join(lines)


LEGEND = ("cards: rank then suit; rank A = Fool, J = Knight; suit P spring, S summer, A autumn, W winter, "
          "* stars (so AA is the Fool of autumn)")


def _last_play(state: IllimatState) -> str:
    """The last play of a card, all public (a sow shows its card: it lands face up)."""
    if state.last_play is None:
        return "none yet"
    seat, kind, f, played, taken, value = state.last_play
    if kind == "harvest":
        text = f"harvested {_cards(taken)} from field {f} with {_cards(played)}"
    elif kind == "stockpile":
        text = f"stockpiled {_cards(sorted(played + taken))} as a {value} in field {f}"
    elif kind == "swap":
        text = f"swapped {_cards(played)} for {_cards(taken)} in field {f} (the Changeling)"
    else:
        text = f"sowed {_cards(played)} into field {f}" + (" (the Rake)" if kind == "rake_sow" else "")
    return f"player_{seat} {text}"


def _move_text(state: IllimatState) -> str:
    parts = []
    if state.main_done:
        parts.append("main play done")
    if state.rake_owed:
        parts.append("Rake sow owed")
    if state.swap_used:
        parts.append("Changeling swap used")
    if state.m_card >= 0:
        parts.append(f"card {cnames([state.m_card])[0]}")
    if state.m_full:
        parts.append(f"full harvest {_cards(state.m_full)}")
    if state.m_partner >= 0:
        parts.append(f"with {cnames([state.m_partner])[0]} (Union)")
    if state.m_field >= 0:
        parts.append(f"field {state.m_field}")
    if state.m_action >= 0:
        parts.append(PLAY_NAMES[state.m_action - SOW])
    if state.m_value:
        parts.append(f"value {state.m_value}")
    if state.m_items:
        parts.append(f"items {_cards(state.m_items)}")
    if state.c_given:
        parts.append(f"claim swaps gave {_cards(state.c_given)}, took {_cards(state.c_taken)}")
    return ", ".join(parts) or "-"
