"""Illimat in the terminal (`card_envs.agents.human`): why a field, or a play in the chosen
field, is not among the choices."""

from __future__ import annotations

from card_envs.games.illimat.cards import (
    ACTION, AUTUMN, FIELD, FIELD0, HARVEST, MAIDEN, NUM_FIELDS, SEASON_NAMES, SOW, SPRING, STOCKPILE, WINTER,
    cnames)


def missing(state, legal: list[int]) -> list[str]:
    """Why a field, or a play in the field chosen, is not among the choices."""
    out = []
    if state.decision == FIELD:
        card = cnames([state.m_card])[0] if state.m_card >= 0 else "your hand"
        for f in range(NUM_FIELDS):
            if FIELD0 + f in legal:
                continue
            season = state.season(f)
            if state.m_full:
                why = ("Winter there: no harvest unless the Maiden is face up" if season == WINTER
                       and state.face_up_field(MAIDEN) < 0 else "a full harvest of your hand takes nothing there")
            elif season == AUTUMN:
                why = f"Autumn there: no sowing, and {card} can neither harvest nor stockpile there"
            else:
                why = "not playable there"
            out.append(f"field {f} ({SEASON_NAMES[season]}): {why}")
    elif state.decision == ACTION:
        f, card = state.m_field, cnames([state.m_card])[0]
        season = state.season(f)
        reasons = {SOW: "sow: Autumn there (no sowing)" if season == AUTUMN else "sow: not allowed",
                   HARVEST: "harvest: Winter there (no harvest unless the Maiden is face up)"
                   if season == WINTER and state.face_up_field(MAIDEN) < 0
                   else f"harvest: nothing in field {f} adds up to {card}",
                   STOCKPILE: "stockpile: Spring there (no stockpiling)" if season == SPRING
                   else f"stockpile: no stockpile of {card} with another card of your hand"}
        out += [why for action, why in reasons.items() if action not in legal]
    return out
