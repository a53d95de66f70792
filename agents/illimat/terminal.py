"""Illimat in the terminal (`card_envs.agents.human`): why a field, or a play in the chosen
field, is not among the choices; ``help <topic>``: a Luminary, the seasons, a card."""

from __future__ import annotations

from card_envs.core.cards import RANK, SUIT, parse_card
from card_envs.games.illimat.cards import (
    ACTION, AUTUMN, FIELD, FIELD0, HARVEST, LUMINARIES, LUMINARY_TEXT, MAIDEN, NUM_FIELDS, SEASON_NAMES,
    SEASON_RULES, SOW, SPRING, STARS, STOCKPILE, SUITS, SUMMER, WINTER, cnames)

HELP_TOPIC = ("'help <Luminary>': what it does (e.g. 'help Maiden', 'help luminaries'); 'help seasons'; "
              "'help <card>': a card's value and season (e.g. 'help AS')")
SUIT_NAMES = ("Spring", "Summer", "Autumn", "Winter", "Stars")
RANK_WORDS = {1: "Fool", 11: "Knight", 12: "Queen", 13: "King"}


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


def luminary_text(luminary: int, state) -> str:
    """What a Luminary does on reveal, while face up and when claimed; where it is, if that is public."""
    name = LUMINARIES[luminary]
    reveal, face_up, claim = (text if text != "-" else "nothing" for text in LUMINARY_TEXT[name])
    lines = [f"{name} (a Luminary): when revealed: {reveal}; while face up: {face_up}; when claimed: {claim}."]
    if state is not None and not state.game.luminaries:
        lines.append("This game is played without Luminaries (luminaries=False).")
    elif state is not None:
        field = state.face_up_field(luminary)
        owners = [p for p, claimed in enumerate(state.claimed) if luminary in claimed]
        if field >= 0:
            lines.append(f"In this game: face up in field {field}.")
        elif owners:
            lines.append(f"In this game: claimed by player_{owners[0]}.")
    return "\n".join(lines)


def seasons_text(state) -> str:
    lines = ["Seasons (each field has one; a played face card turns the Illimat, its field taking the card's "
             "season; a Stars face card: you choose):"]
    lines += [f"  {SEASON_NAMES[s].capitalize()}: {SEASON_RULES[s]}" for s in (SPRING, SUMMER, AUTUMN, WINTER)]
    if state is not None:
        lines.append("Now: " + ", ".join(f"field {f} {SEASON_NAMES[state.season(f)]}" for f in range(NUM_FIELDS)))
    return "\n".join(lines)


def card_text(topic: str) -> str | None:
    try:
        card = parse_card(topic.replace(" ", ""), SUITS)
    except ValueError:
        return None
    rank, suit = RANK[card], SUIT[card]
    lines = [f"{cnames([card])[0]}: the {RANK_WORDS.get(rank, str(rank))} of {SUIT_NAMES[suit]}, "
             + ("worth 1 or 14 (stockpiled as the played card it counts 1, as the held card 14)." if rank == 1
                else f"worth {rank}.")]
    if rank in RANK_WORDS:
        lines.append("A face card: played into a field, it turns the Illimat so that the field takes "
                     + ("a season of your choice." if suit == STARS else f"{SUIT_NAMES[suit]}."))
    if rank == 1:
        lines.append("A harvested Fool scores 1 at the end of the round.")
    if suit == SUMMER:
        lines.append("Summer cards count for Sunkissed (+2 to the player who harvested the most).")
    elif suit == WINTER:
        lines.append("Winter cards count for Frostbit (-2 to the player who harvested the most).")
    elif suit == STARS:
        lines.append("Stars are used with 4 players (or stars_always=True).")
    return "\n".join(lines)


def card_help(topic: str, state) -> str | None:
    """``help <topic>``: a Luminary (or all of them), the seasons (or one), a card; None otherwise."""
    key = " ".join(topic.lower().replace("the ", "").split())
    names = {name.lower(): i for i, name in enumerate(LUMINARIES)}
    if key in names:
        return luminary_text(names[key], state)
    if key in ("luminaries", "luminary"):
        return "\n".join(luminary_text(i, state) for i in range(len(LUMINARIES)))
    if key in ("seasons", "season") or key in SEASON_NAMES:
        return seasons_text(state)
    return card_text(topic)
