"""Dominion on the replay page: its board as zones of cards (`card_envs.core.boards`), the cards'
notes (a page's hover text) and their colours by type (`STYLE`)."""

from __future__ import annotations

from collections import Counter

from card_envs.core.boards import Card, Zone, face, hidden, zone
from card_envs.games.dominion.cards import (
    CARD_NAMES, COST, CURSE, DEBT, IS_ACTION, IS_TREASURE, IS_VICTORY, PILE_NAMES, PLUS_ACTIONS, PLUS_BUYS,
    PLUS_CARDS, PLUS_COINS, PLUS_VP, TYPE_NAMES, TYPES, VP)
from card_envs.games.dominion.effects import ON_GAIN, ON_TRASH, SPECIAL

STYLE = {"css": """\
.t-treasure { background: #fbeaa6; } .t-victory { background: #cfe9c5; } .t-curse { background: #dcc6ea; }
.t-action { background: #f2f2ee; } .t-treasure.t-victory { background: linear-gradient(#fbeaa6, #cfe9c5); }
.t-action.t-victory { background: linear-gradient(#f2f2ee, #cfe9c5); }
"""}


def _cls(c: int) -> str:
    if TYPES[c] & CURSE:
        return "t-curse"
    kinds = [k for k, flag in (("treasure", IS_TREASURE[c]), ("victory", IS_VICTORY[c]),
                               ("action", IS_ACTION[c])) if flag]
    return " ".join(f"t-{k}" for k in kinds)


def _counted(counts) -> list[Card]:  # counts per card id
    return [face(CARD_NAMES[c], _cls(c), k) for c, k in enumerate(counts) if k]


def _listed(cards) -> list[Card]:
    return _counted([Counter(cards)[c] for c in range(len(CARD_NAMES))])


def _supply_zones(s) -> list[Zone]:
    zones = []
    for p in s.supply:
        runs: list[list[int]] = []  # top first: [card, count] (split piles hold two cards, Castles eight)
        for c in reversed(s.piles[p]):
            if runs and runs[-1][0] == c:
                runs[-1][1] += 1
            else:
                runs.append([c, 1])
        info = "empty"
        if runs:  # the top card's cost
            top = runs[0][0]
            info = f"${COST[top]}" + (f" + {DEBT[top]} Debt" if DEBT[top] else "") + f", {len(s.piles[p])} left"
        zones.append(zone("supply", PILE_NAMES[p], [face(CARD_NAMES[c], _cls(c), k) for c, k in runs], info=info))
    return zones


def _player_zones(s, q: int, viewer: int | None) -> list[Zone]:
    everything = viewer == -1
    group, mine = f"player_{q}", everything or viewer == q
    info = (f"score {s.score(q)} (VP tokens {s.vp[q]}), debt {s.debt[q]}, "
            f"turns {s.turns[q]}")
    if mine:
        hand = _counted(s.hands[q])
    else:
        hand = _counted(s.known[q]) + hidden(s.hsize[q] - sum(s.known[q]))
    zones = [zone(group, "hand", hand, q, info)]
    top = []
    for k in range(1, min(2, len(s.decks[q])) + 1):
        flag = s.deck_known[q][-k]
        if everything or flag == 2 or (mine and flag >= 1):
            top.append(face(CARD_NAMES[s.decks[q][-k]], _cls(s.decks[q][-k])))
        else:
            top.append(hidden(1)[0])
    deck_info = f"{len(s.decks[q])} cards" + (
        "; top: " + " ".join(c.get("label", "?") for c in top) if top else "")
    if everything:
        zones.append(zone(group, "deck", [face(CARD_NAMES[c], _cls(c)) for c in reversed(s.decks[q])],
                          q, deck_info + " (top first)"))
    else:
        zones.append(zone(group, "deck", top + hidden(len(s.decks[q]) - len(top)), q, deck_info))
        if mine and s.decks[q]:
            zones.append(zone(group, "deck contents", _listed(s.decks[q]), q))
    discard = s.discards[q]
    if mine:
        zones.append(zone(group, "discard", _listed(discard), q, f"{len(discard)} cards"
                          + (f", top {CARD_NAMES[discard[-1]]}" if discard else "")))
    else:
        face_up = [face(CARD_NAMES[discard[-1]], _cls(discard[-1]))] if discard else []  # only its top
        zones.append(zone(group, "discard", hidden(len(discard) - 1) + face_up, q, f"{len(discard)} cards"))
    zones.append(zone(group, "in play", _listed(s.in_play[q]), q))
    if s.set_aside[q]:
        zones.append(zone(group, "set aside", _listed(s.set_aside[q]), q))
    return zones


def board_zones(s, viewer: int | None) -> list[Zone]:
    zones = _supply_zones(s) + [zone("table", "trash", _counted(s.trash))]
    for q in range(s.n):
        zones += _player_zones(s, q, viewer)
    return zones


def card_notes() -> dict[str, str]:
    """Card name -> one line about it: cost, types, what it gives."""
    notes = {}
    for c, name in enumerate(CARD_NAMES):
        cost = f"${COST[c]}" + (f" + {DEBT[c]} Debt" if DEBT[c] else "")
        kinds = " - ".join(t for bit, t in TYPE_NAMES.items() if TYPES[c] & bit)
        gives = [f"+{k} {what}{'s' if k > 1 else ''}" for k, what in (
            (PLUS_CARDS[c], "Card"), (PLUS_ACTIONS[c], "Action"), (PLUS_BUYS[c], "Buy"), (PLUS_VP[c], "VP token")) if k]
        if PLUS_COINS[c]:
            gives.append(f"+${PLUS_COINS[c]}")
        if VP[c]:
            gives.append(f"{VP[c]} VP")
        elif VP[c] is None:
            gives.append("VP counted by its rule")
        if name in SPECIAL or name in ON_GAIN or name in ON_TRASH:
            gives.append("more in the rules")
        notes[name] = f"{name} | costs {cost} | {kinds}" + (f" | {', '.join(gives)}" if gives else "")
    return notes
