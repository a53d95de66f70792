"""Illimat on the replay page: its board as zones of cards (`card_envs.core.boards`), the four
fields laid around the Illimat, the seasons and stars drawn as symbols (`STYLE`)."""

from __future__ import annotations

from card_envs.core.boards import Card, Zone, face, hidden, zone
from card_envs.core.cards import SUIT
from card_envs.games.illimat.cards import (
    IS_FOOL, LUMINARIES, NO_LUMINARY, NUM_FIELDS, SEASON_NAMES, SUMMER, WINTER, cnames)

# Card classes (i-P: spring ... i-X: stars) as symbols; rank A is the Fool, J the Knight.
STYLE = {
    "suits": {"i-P": ["P", "\u273F", "Spring"], "i-S": ["S", "\u2600", "Summer"], "i-A": ["A", "\u2766", "Autumn"],
              "i-W": ["W", "\u2744", "Winter"], "i-X": ["*", "\u2605", "Stars"]},
    "rank_names": {"A": "Fool", "J": "Knight", "Q": "Queen", "K": "King"},
    "card_text": [r"\b(10|[2-9AJQKN])([PSAW*])(?![\w*])",
                  {"P": "\u273F", "S": "\u2600", "A": "\u2766", "W": "\u2744", "*": "\u2605"}],
    # The four fields around the Illimat (the table): "field 2 (summer)" is placed f2, coloured.
    "ring": {"class": "illimat", "centre": "table", "title": "the Illimat", "places": r"^field (\d) \((\w+)\)$",
             "place_class": "f$1 season-$2"},
    "css": """\
.i-P { color: #1c7a2b; background: #eefbea; } .i-S { color: #a66f00; background: #fff8d8; }
.i-A { color: #b5520c; background: #fff3e6; } .i-W { color: #1f4e9c; background: #eaf1ff; }
.i-X { color: #6b2fa3; background: #f4ecff; }
.lum { background: #fff6c8; color: #5b4700; }
.illimat { display: grid; grid-template-columns: 1fr auto 1fr; grid-template-areas: ". f0 ." "f3 mid f1" ". f2 .";
           gap: 8px; align-items: center; justify-items: center; flex-basis: 100%; }
.illimat .f0 { grid-area: f0; } .illimat .f1 { grid-area: f1; } .illimat .f2 { grid-area: f2; }
.illimat .f3 { grid-area: f3; } .illimat .mid { grid-area: mid; background: #5b3b1a; border-radius: 18px;
           min-width: 170px; max-width: 230px; justify-content: center; text-align: center; }
.illimat .mid .zone { text-align: center; } .illimat .mid .cards { justify-content: center; }
.illimat .group { min-width: 200px; }
.season-summer { background: #8a6d16; } .season-spring { background: #2f7a3a; }
.season-autumn { background: #9a4b16; } .season-winter { background: #2f5683; }
"""}


def _cards(cs) -> list[Card]:
    cs = list(cs)  # read twice below: an iterator would give no cards
    return [face(name, f"i-{'PSAWX'[SUIT[c]]}") for c, name in zip(cs, cnames(cs))]


def _field_zones(state, f: int, everything: bool) -> list[Zone]:
    group = f"field {f} ({SEASON_NAMES[state.season(f)]})"
    L = state.lum[f]
    if L == NO_LUMINARY:
        lum, lum_info = [], "no Luminary"
    elif state.lum_up[f]:
        lum, lum_info = [face(LUMINARIES[L], "lum")], "face up"
        if state.under[f]:
            lum += _cards(state.under[f]) if everything else hidden(len(state.under[f]))
            lum_info += f", {len(state.under[f])} cards under it"
    else:
        lum, lum_info = ([face(LUMINARIES[L], "lum")] if everything else hidden(1)), "face down"
    zones = [zone(group, "Luminary", lum, info=lum_info), zone(group, "loose", _cards(state.loose[f]))]
    for pile in state.piles[f]:
        zones.append(zone(group, "stockpile", _cards(pile[3]),
                          info=f"value {pile[1]}, {'multiple' if pile[2] else 'single'}"))
    return zones


def _player_zones(state, p: int, viewer: int | None) -> list[Zone]:
    everything = viewer == -1
    group, hand = f"player_{p}", state.hands[p]
    if viewer in (p, -1):
        shown = _cards(hand)
    else:  # cards taken from the board in view are known; the rest is face down
        shown = _cards(state.known[p]) + hidden(len(hand) - len(state.known[p]))
    zones = [zone(group, "hand", shown, p, f"score {state.match_scores[p]}, okus {state.okus[p]}")]
    harvest = state.harvest[p]
    if viewer in (p, -1):
        counted, secret = harvest, len(state.secret[p])
    else:
        hidden_set = set(state.secret[p])
        counted, secret = [c for c in harvest if c not in hidden_set], len(hidden_set)
    summer = sum(1 for c in counted if SUIT[c] == SUMMER)
    winter = sum(1 for c in counted if SUIT[c] == WINTER)
    fools = sum(1 for c in counted if IS_FOOL[c])
    info = f"{len(harvest)} cards: Summer {summer}, Winter {winter}, Fools {fools}" + (
        f", {secret} secret" if secret else "")
    if everything:
        shown = _cards(harvest)
    else:
        secret_cards = _cards(state.secret[p]) if viewer == p else []
        shown = hidden(len(harvest) - len(secret_cards)) + secret_cards
    zones.append(zone(group, "harvest", shown, p, info))
    if state.claimed[p]:
        zones.append(zone(group, "Luminaries", [face(LUMINARIES[L], "lum") for L in state.claimed[p]], p))
    return zones


def board_zones(state, viewer: int | None) -> list[Zone]:
    everything = viewer == -1
    zones = [zone("table", "draw pile", _cards(reversed(state.deck)) if everything else hidden(len(state.deck)),
                  info=f"{len(state.deck)} cards, okus on the Illimat {state.okus_left}"
                  + (", Harmonic Convergence happened" if state.converged else ""))]
    for f in range(NUM_FIELDS):
        zones += _field_zones(state, f, everything)
    for p in range(state.game.num_players):
        zones += _player_zones(state, p, viewer)
    return zones
