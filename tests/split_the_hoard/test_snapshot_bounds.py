"""Split the Hoard's snapshot loader bounds Coins and Treasures in every round (issue 56): each
bound refuses a hand-made position one card past it, naming the field and the limit, and every
position of random games loads (the bounds hold on what the rules reach, often exactly)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from card_envs.games.split_the_hoard.game import SplitTheHoardGame
from card_envs.games.split_the_hoard.rules import GAME_OVER, REVEAL
from card_envs.games.split_the_hoard.snapshot import FACE_UP_GAIN, count_limits, counts
from tests.conftest import random_walk

GAME = SplitTheHoardGame()  # 3 players, class powers on
CS = GAME.cards


def data_of(state) -> dict:
    return json.loads(json.dumps(state.to_json()))


def refused(data: dict, game=GAME) -> str:
    with pytest.raises(ValueError) as error:
        game.state_from_json(data)
    return str(error.value)


def position(pick, seeds=range(40)):
    """The first position of a random game for which `pick(state)` holds."""
    for seed in seeds:
        for state in random_walk(GAME, seed):
            if pick(state):
                return state
    raise AssertionError("no such position in the games walked")


def plain(data: dict, pile: str, k: int) -> list[str]:
    """Up to k cards of `pile` with an ability that draws no face-up card (in the Treasure discard, such
    an ability's use would raise the limit; only a used ability's card lies there, and not yet a
    Reveal one in round 0), taken out of it, as public cards."""
    def raises(name: str) -> bool:
        i = CS.name_index[name.split(" (")[0]]
        effect = CS.effect[i]
        return effect is None or effect[0] in FACE_UP_GAIN or effect[0] == "RECOVER_TREASURE" or CS.phase[i] == "reveal"

    names = [name for name in data[pile] if not raises(name)][:k]
    for name in names:
        data[pile].remove(name)
    return [name.split(" (")[0] for name in names]


def test_round_0_reveal_hauls_hold_their_4_starting_coins():
    state = GAME.new_state(np.random.default_rng(0))
    assert state.round == 0 and state.phase == REVEAL and [len(c) for c in state.coins] == [4, 4, 4]
    data = data_of(state)
    data["coins"][1] += data["deck"][:16]  # a Haul of 20 Coins before any negotiation
    del data["deck"][:16]
    assert refused(data).startswith("coins[1]: 20 Coins (with those on its Negotiate Cards) in round 0's Reveal, "
                                    "where each Haul holds exactly its 4 starting Coins")
    data = data_of(state)
    data["coins"][1].append(data["coins"][0].pop())
    assert refused(data).startswith("coins[0]: 3 Coins")


def test_a_later_round_has_dealt_the_starting_coins_and_every_round():
    """A 3-player round 1 needs 4 x 3 starting Coins and 2 deals of 3 x 3 cards out of the deck: 30."""
    state = next(s for s in (GAME.new_state(np.random.default_rng(seed)) for seed in range(20))
                 if len(s.deck) == 103 - 21)  # no Wizard's Scry pending: 4 + 3 cards a player gone
    data = data_of(state)
    data["round"] = 1  # with round 0's deck: 21 cards gone
    assert refused(data) == ("round: 1, but only 21 cards have left the deck (phase 'reveal'); the 4 starting "
                             "Coins a player and 2 deal(s) of 3 cards a player took 30: the deck holds at most 73")
    later = position(lambda s: s.round == 1 and s.phase == REVEAL and s.eff is None)
    assert CS.num_cards - len(later.deck) >= 30
    GAME.state_from_json(data_of(later))


def test_dealt_cards_stay_face_up_every_round():
    """3 face-up cards a player per deal: turned into Coins (here, put in the Coin discard) one too
    many, a position is refused."""
    state = position(lambda s: s.round == 2 and s.phase == REVEAL)
    face_up, _ = counts(state)
    least = count_limits(state)["treasures_min"]
    assert least == 3 * 3 * 3 and face_up >= least
    data = data_of(state)
    piles = ["treasure_discard"] + [f"treasures[{p}]" for p in range(3)]
    moved = 0
    while face_up - moved >= least:
        source = next(p for p in piles if (data["treasure_discard"] if p == "treasure_discard"
                                            else data["treasures"][int(p[-2])]))
        pile = data["treasure_discard"] if source == "treasure_discard" else data["treasures"][int(source[-2])]
        data["coin_discard"].append(pile.pop())
        moved += 1
    message = refused(data)
    assert message.startswith(f"treasures: {least - 1} face-up cards (Hauls, Treasure discard, hands, Negotiate "
                              f"Cards), but 3 deal(s) of 3 cards a player leave at least {least}"), message


@pytest.mark.parametrize("round_", [0, 2])
def test_coins_come_only_from_the_setup_the_draw_2_actions_and_the_abilities(round_):
    """Coins up to the limit load; one more is refused, naming the limit."""
    state = position(lambda s: s.round == round_ and s.phase == GAME_OVER - 1 and s.eff is None
                     and len(s.deck) > 20)  # Claim
    _, coins = counts(state)
    limit = count_limits(state)["coins"]
    data = data_of(state)
    data["coin_discard"] += data["deck"][:limit - coins]
    del data["deck"][:limit - coins]
    GAME.state_from_json(data)  # at the limit
    data["coin_discard"].append(data["deck"].pop(0))
    message = refused(data)
    assert message.startswith(f"coins: {limit + 1} Coins (Hauls, Negotiate Cards, Coin discard), but at most "
                              f"{limit} by now"), message


@pytest.mark.parametrize("round_", [0, 2])
def test_face_up_cards_come_only_from_the_deals_the_refills_and_the_abilities(round_):
    state = position(lambda s: s.round == round_ and s.phase == GAME_OVER - 1 and s.eff is None
                     and len(s.deck) > 40)  # Claim
    face_up, _ = counts(state)
    limit = count_limits(state)["treasures"]
    data = data_of(state)
    extra = limit - face_up + 1
    used = plain(data, "deck", extra)
    data["treasure_discard"] += used
    data["treasures"][0] += [data["deck"].pop().split(" (")[0] for _ in range(extra - len(used))]  # the rest in a Haul
    message = refused(data)
    assert message.startswith(f"treasures: {limit + 1} face-up cards (Hauls, Treasure discard, hands, Negotiate "
                              f"Cards), but at most {limit} by now"), message


def test_every_position_of_random_games_loads_and_meets_the_bounds_exactly_somewhere():
    """The bounds hold on what the rules reach, and are tight: some position meets each."""
    met = set()
    for n in (2, 3, 5):
        for powers in ("full", "tiebreak_only"):
            game = SplitTheHoardGame(num_players=n, class_powers=powers)
            for seed in range(4):
                for state in random_walk(game, seed):
                    data = data_of(state)
                    assert game.state_from_json(data).to_json() == data
                    face_up, coins = counts(state)
                    limits = count_limits(state)
                    met |= {name for name, hit in (("treasures_min", face_up == limits["treasures_min"]),
                                                  ("coins", coins == limits["coins"]),
                                                  ("treasures", face_up == limits["treasures"])) if hit}
    assert met == {"treasures_min", "coins", "treasures"}
