"""Split the Hoard on the replay page: its board as zones of cards (`card_envs.core.boards`), the
cards' notes (a page's hover text) and their colours by phase (`STYLE`)."""

from __future__ import annotations

from collections import Counter

from card_envs.core.boards import Card, Zone, face, hidden, zone
from card_envs.games.split_the_hoard.render import CRITERIA, ELIGIBLE, score_text

STYLE = {"css": """\
.p-reveal { background: #e8f0ff; } .p-negotiate { background: #fff1e0; } .p-claim { background: #eaf7e6; }
.p-reaction { background: #fde8e8; } .title { background: #f3e6ff; }
"""}


def board_zones(state, viewer: int | None) -> list[Zone]:
    g = state.game
    cs = g.cards
    everything = viewer == -1
    over = state.is_terminal()

    def sees(c: int, owner: int | None = None) -> bool:
        return everything or (viewer is not None and viewer >= 0
                              and (owner == viewer or state.known_by[c] >> viewer & 1))

    def named(cards) -> list[Card]:
        counts = Counter(cs.names[cs.NAME[c]] for c in cards)
        return [face(name, f"p-{cs.phase[cs.name_index[name]]}", k) for name, k in sorted(counts.items())]

    def card(c: int) -> Card:
        return face(cs.names[cs.NAME[c]], f"p-{cs.phase[cs.NAME[c]]}")

    deck = [card(c) for c in reversed(state.deck)] if everything else hidden(len(state.deck))  # top first
    zones = [zone("table", "deck", deck, info=f"{len(state.deck)} cards")]
    if not everything and viewer is not None:
        top = [c for c in reversed(state.deck[-8:])]
        if any(sees(c) for c in top):
            known = [card(c) if sees(c) else hidden(1)[0] for c in top]
            zones.append(zone("table", "deck top (as you know it)", known))
    discard = named(state.coin_discard) if everything else hidden(len(state.coin_discard))
    zones.append(zone("table", "coin discard", discard, info=f"{len(state.coin_discard)} cards"))
    zones.append(zone("table", "treasure discard", named(state.treasure_discard),
                      info=f"Dragon Card: player_{state.dragon}" + (", the game is ending" if state.end_flag else "")))
    scoring = state.scoring() if over else None
    won = {name for b in scoring for name in b["starting"]} if over else set()
    zones.append(zone("table", "Starting Titles", [face(t.name, "title") for t in cs.starting if t.name not in won],
                      info=f"{g.starting_title_vp} VP each, " + ("not awarded" if over else "awarded at the end")))
    for p in range(g.num_players):
        group = f"player_{p}"
        cls = cs.classes[state.classes[p]]
        seen = [c for c in state.coins[p] if sees(c)]
        zones.append(zone(group, "coins", named(seen) + hidden(len(state.coins[p]) - len(seen)), p,
                          f"{cls.name}{' (power used)' if state.power_used[p] else ''}: "
                          f"{len(state.coins[p])} coins"))
        zones.append(zone(group, "treasures", named(state.treasures[p]), p))
        open_ = state.flipped or everything or viewer == p
        if state.hand[p]:
            zones.append(zone(group, "hand", named(state.hand[p]) if open_ else hidden(len(state.hand[p])), p))
        # a dealt card the viewer saw before the deal is known, not where it went (hand or which card)
        seen = [] if open_ else [c for c in state.hand[p] + state.offer[p] if c >= 0 and sees(c)]
        if seen:
            zones.append(zone(group, "dealt cards seen", named(seen), p))
        offers = []
        for k in range(3):
            c = state.offer[p][k]
            if c < 0:
                continue
            if open_:
                offers.append(_offer(cs, k, c, len(state.added[p][k])))
            else:
                offers.append(hidden(1)[0])
        if offers:
            zones.append(zone(group, "negotiate cards", offers, p))
        if over:  # the Titles won and the hidden one, with how the score adds up
            titles = [face(name, "title") for name in scoring[p]["starting"]]
            zones.append(zone(group, "Titles", titles + [face(cs.title_names[state.titles[p]], "title")], p,
                              score_text(state, p)))
        elif everything or viewer == p:
            zones.append(zone(group, "hidden Title", [face(cs.title_names[state.titles[p]], "title")], p))
    return zones


def _offer(cs, k: int, c: int, added: int) -> Card:
    """Negotiate Card k + 1 holding card c and ``added`` Coins, face up: "[2] Ruby +1", its hover
    the price before discounts, then the card's note."""
    name = cs.names[cs.NAME[c]]
    card = face(f"[{k + 1}] {name}" + (f" +{added}" if added else ""), f"p-{cs.phase[cs.NAME[c]]}")
    card["note"] = (f"price {k + 1 + added} Coins before discounts (Negotiate Card {k + 1}"
                    + (f" + {added} added" if added else "") + f") | {_row_note(cs.rows[cs.NAME[c]])}")
    return card


def _row_note(r) -> str:
    rank = "unranked" if r.rank is None else f"modifier {r.rank:+d}" if r.modifier else f"rank {r.rank}"
    parts = [r.name, rank, f"{r.vp} VP"]
    if r.condition:
        kind, arg = r.condition
        parts.append(f"counts only with {' or '.join(arg)}" if kind == "has_any"
                     else f"counts only after winning {arg} Starting Title(s)")
    if r.effect:
        parts.append(f"{r.phase} phase: {' '.join(map(str, r.effect))}")
    parts.append(f"{r.copies} in the deck")
    return " | ".join(parts)


def card_notes(game) -> dict[str, str]:
    """Card label -> one line about it: rank, VP, condition, effect, copies; a Title's rule."""
    cs = game.cards
    notes = {r.name: _row_note(r) for r in cs.rows}
    for t in cs.hidden:
        rule = ", ".join(f"{k} {v}" for k, v in t.criterion.items() if k != "type")
        notes[t.name] = f"{t.name} (hidden Title) | {t.vp} VP | {t.criterion['type'].replace('_', ' ')}: {rule}"
    for t in cs.starting:
        notes[t.name] = (f"{t.name} (Starting Title, face up) | {game.starting_title_vp} VP | "
                         f"{CRITERIA.get(t.criterion, t.criterion)}, with "
                         f"{ELIGIBLE.get(t.criterion, '{}').format(t.min)} | a tie goes to the {t.tie_class} "
                         "if in play, else to nobody")
    return notes
