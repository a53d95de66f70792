"""3 Piles on the replay page: its board as zones of cards (`card_envs.core.boards`)."""

from __future__ import annotations

from card_envs.core.boards import Zone, hidden, standard_cards, zone
from card_envs.core.cards import card_name


def board_zones(state, viewer: int | None) -> list[Zone]:
    scores = state.scores()
    deck = standard_cards(reversed(state.deck)) if viewer == -1 else hidden(len(state.deck))  # top first
    zones = [zone("table", "deck", deck, info=f"{len(state.deck)} cards")]
    for s, stack in enumerate(state.stacks):
        zones.append(zone("table", f"stack {s}", standard_cards(stack),
                          info=f"top {card_name(stack[-1])}" if stack else "empty"))
    for seat in range(state.game.num_players):
        group, hand = f"player_{seat}", state.hands[seat]
        cards = standard_cards(hand) if viewer in (seat, -1) else hidden(len(hand))
        zones.append(zone(group, "hand", cards, seat, f"score {scores[seat]}"))
        for k, pile in enumerate(state.piles[seat]):
            zones.append(zone(group, f"pile {k}", standard_cards(pile), seat))
    return zones
