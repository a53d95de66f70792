"""Piles on the replay page: its board as zones of cards (`card_envs.core.boards`), the Castle
drawn as its 3x4 grid."""

from __future__ import annotations

from card_envs.core.boards import STANDARD_STYLE, Zone, hidden, standard_cards, zone
from card_envs.games.piles.rules import COLOUR_NAMES, NUM_POSITIONS, position_name, team_of

STYLE = {**STANDARD_STYLE, "group_class": {"castle": "castle"}, "css": STANDARD_STYLE["css"] + """\
.castle { display: grid; grid-template-columns: repeat(4, minmax(120px, 1fr)); gap: 6px; }
.castle > h3 { grid-column: 1 / 5; }
.castle .zone { background: rgba(0, 0, 0, 0.15); margin: 0; padding: 3px 5px; }
.castle .zone.changed { background: rgba(255, 215, 94, 0.35); }
.castle .cards .card { margin-right: -18px; } .castle .cards .card:last-child { margin-right: 0; }
"""}


def board_zones(state, viewer: int | None) -> list[Zone]:
    n = state.game.num_players
    points = state.team_points()
    zones = []
    for pos in range(NUM_POSITIONS):
        zones.append(zone("castle", position_name(pos), standard_cards(state.piles[pos]),
                          info=f"value {state.values[pos]}, height {len(state.piles[pos])}"))
    for team in (0, 1):
        colour = state.team_colours[team]
        seats = "+".join(f"player_{s}" for s in range(n) if team_of(s) == team)
        zones.append(zone("table", f"team {team} captured", standard_cards(state.captured[team]),
                          info=f"{seats}: {'colour not fixed' if colour is None else COLOUR_NAMES[colour]}, "
                               f"points {points[team]}"))
    if state.set_aside:
        cards = standard_cards(state.set_aside) if viewer == -1 else hidden(len(state.set_aside))
        zones.append(zone("table", "set aside", cards, info="dealt when both hands are empty"))
    for seat in range(n):
        hand = state.hands[seat]
        cards = standard_cards(hand) if viewer in (seat, -1) else hidden(len(hand))
        zones.append(zone(f"player_{seat}", "hand", cards, seat, f"team {team_of(seat)}"))
    return zones
