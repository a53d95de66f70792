"""Snapshot loaders after the outside review (issue 78): Split the Hoard's piles hold only the cards
the rules can put there in each phase; a refused snapshot's message stays short (~200 characters)
however many names a field accepts, naming the field and the wrong value with a few accepted
ones; a finished Dominion game names the end condition it lacks; and positions the scripted
agents reach load again."""

from __future__ import annotations

import copy
import json
import re

import numpy as np
import pytest

import card_envs
from card_envs.agents import make_policy
from card_envs.games.split_the_hoard.game import SplitTheHoardGame
from card_envs.games.split_the_hoard.rules import CLAIM, GAME_OVER, NEGOTIATE, REVEAL
from tests.conftest import random_walk
from tests.envs.json_edits import replaced

STH = SplitTheHoardGame()  # 3 players, class powers on
CS = STH.cards
LONGEST = 200  # characters in a refusal


def data_of(state) -> dict:
    return json.loads(json.dumps(state.to_json()))


def refused(game, data) -> str:
    with pytest.raises(ValueError) as error:
        game.state_from_json(data)
    message = str(error.value)
    assert len(message) <= LONGEST, message
    return message


def position(pick, game=STH, seeds=range(60)):
    """The first position of a random game for which `pick(state)` holds."""
    for seed in seeds:
        for state in random_walk(game, seed):
            if pick(state):
                return state
    raise AssertionError("no such position in the games walked")


def names(cards) -> list[str]:
    return [CS.names[CS.NAME[c]] for c in cards]


def take_hidden(data: dict, phase: str) -> str:
    """Take a face-down card whose ability is of `phase` out of the deck or a Haul's Coins (to put
    it elsewhere); its name."""
    for pile in [data["deck"]] + data["coins"]:
        card = next((c for c in pile if CS.phase[CS.name_index[c.split(" (")[0]]] == phase), None)
        if card is not None:
            pile.remove(card)
            return card.split(" (")[0]
    raise AssertionError(f"no face-down card of phase {phase}")


def without_ability(name: str) -> bool:
    return CS.effect[CS.name_index[name]] is None


# ----- Split the Hoard: which cards each pile may hold --------------------------------------------
def test_a_treasure_without_an_ability_never_reaches_the_treasure_discard_before_the_end():
    """The review's case: round 2's Negotiate, an Enchantment moved from a Haul to the discard (a
    card gets there mid-game only by its ability being used)."""
    state = position(lambda s: s.round == 2 and s.phase == NEGOTIATE and any(
        "Enchantment" in names(t) for t in s.treasures))
    data = data_of(state)
    STH.state_from_json(data)
    seat = next(p for p, t in enumerate(data["treasures"]) if "Enchantment" in t)
    data["treasures"][seat].remove("Enchantment")
    data["treasure_discard"].append("Enchantment")
    message = refused(STH, data)
    assert message.startswith("treasure_discard") and "'Enchantment'" in message and "ability" in message


@pytest.mark.parametrize("phase", [REVEAL, NEGOTIATE, CLAIM])
def test_no_card_without_an_ability_in_the_treasure_discard_in_any_phase(phase):
    state = position(lambda s: s.round >= 1 and s.phase == phase and any(
        without_ability(n) for t in s.treasures for n in names(t)))
    data = data_of(state)
    seat, name = next((p, n) for p, t in enumerate(data["treasures"]) for n in t if without_ability(n))
    data["treasures"][seat].remove(name)
    data["treasure_discard"].insert(0, name)
    assert refused(STH, data).startswith(f"treasure_discard[0]: {name!r}")


def test_at_the_end_the_last_deal_may_lie_in_the_treasure_discard_but_no_more():
    """The game's end discards the cards still in hands or on Negotiate Cards: at most 3 a player
    without an ability; one more is refused."""
    state = position(lambda s: s.phase == GAME_OVER)
    data = data_of(state)
    STH.state_from_json(data)
    plain = sum(without_ability(n) for n in data["treasure_discard"])
    extra = [(p, n) for p, t in enumerate(data["treasures"]) for n in t if without_ability(n)]
    assert plain <= 9 and len(extra) >= 10 - plain
    for seat, name in extra[:10 - plain]:
        data["treasures"][seat].remove(name)
        data["treasure_discard"].append(name)
    message = refused(STH, data)
    assert message.startswith("treasure_discard: 10 cards without an ability") and "at most 9" in message


def test_each_ability_reaches_the_treasure_discard_only_once_its_phase_has_come():
    """Round 0: nothing in the discard during Reveal (no Haul held a Treasure yet); a Claim card
    only from Claim on; a Reveal card only from round 1's Reveal (its window came before any
    Haul held a Treasure)."""
    reveal = data_of(position(lambda s: s.round == 0 and s.phase == REVEAL))
    name = take_hidden(reveal, "negotiate")
    reveal["treasure_discard"].append(name)
    assert refused(STH, reveal).startswith(f"treasure_discard: {name!r} in round 0's Reveal")

    negotiate = data_of(position(lambda s: s.round == 0 and s.phase == NEGOTIATE and s.eff is None))
    for when in ("claim", "reveal"):
        bad = copy.deepcopy(negotiate)
        name = take_hidden(bad, when)
        bad["treasure_discard"].insert(0, name)
        assert refused(STH, bad).startswith(f"treasure_discard[0]: {name!r} (a {when} ability)"), name

    claim = data_of(position(lambda s: s.round == 0 and s.phase == CLAIM and s.eff is None))
    name = take_hidden(claim, "reveal")
    claim["treasure_discard"].insert(0, name)
    assert f"{name!r} (a reveal ability) cannot have been used yet" in refused(STH, claim)


def test_no_coin_is_discarded_in_round_0s_reveal():
    """Coins reach the Coin discard by a purchase or in Claim, never before round 0's Negotiate
    (whatever the class powers: the Hauls' count of 4 Coins is checked only without a Reveal one)."""
    state = position(lambda s: s.round == 0 and s.phase == REVEAL)
    data = data_of(state)
    STH.state_from_json(data)
    data["coin_discard"].append(data["coins"][0].pop())
    message = refused(STH, data)
    assert message.startswith("coin_discard: 1 card") and "round 0's Reveal" in message


def test_the_other_piles_hold_what_their_phase_allows():
    """Hands only during Reveal; Negotiate Cards empty in Claim; round 0 Hauls without
    Treasures in Reveal and with their 4 Coins."""
    negotiate = data_of(position(lambda s: s.phase == NEGOTIATE and s.eff is None and s.deck))
    negotiate["hands"][0].append(negotiate["deck"].pop())
    assert refused(STH, negotiate).startswith("hands: [1, 0, 0] cards; hands are empty after Reveal")

    claim = data_of(position(lambda s: s.phase == CLAIM and s.eff is None and s.treasures[0]))
    claim["negotiate_cards"][0][0]["treasure"] = claim["treasures"][0].pop()
    assert refused(STH, claim).startswith("negotiate_cards: empty in Claim")

    reveal = data_of(position(lambda s: s.round == 0 and s.phase == REVEAL))
    reveal["treasures"][1].append(reveal["deck"].pop().split(" (")[0])
    assert refused(STH, reveal).startswith("treasures[1]: 1 Treasures in phase 'reveal' of round 0")
    reveal = data_of(position(lambda s: s.round == 0 and s.phase == REVEAL and s.eff is None))
    reveal["coins"][2].append(reveal["deck"].pop())
    assert refused(STH, reveal).startswith("coins[2]: 5 Coins")


# ----- short messages ---------------------------------------------------------------------------
def test_an_empty_split_the_hoard_snapshot_names_a_few_missing_keys():
    message = refused(STH, {})
    assert message.startswith("split_the_hoard snapshot: missing keys 'game', 'format'") and "more" in message


def test_a_bad_effect_source_shows_a_few_card_names():
    data = data_of(position(lambda s: s.eff is not None and s.eff["src"] >= 0))
    data["effect"]["source"] = "Emerlad"
    message = refused(STH, data)
    assert message.startswith("effect.source: 'Emerlad' must be one of 'Emerald'") and "... and 35 more" in message


def test_a_bad_dominion_task_kind_shows_a_few_kinds():
    game = card_envs.make_game("dominion_v0")
    data = data_of(position(lambda s: any(t["op"] == "ask" for t in s.tasks), game))
    i = next(i for i, t in enumerate(data["tasks"]) if t["op"] == "ask")
    data["tasks"][i]["kind"] = "cellarr"
    message = refused(game, data)
    assert message.startswith(f"tasks[{i}].kind: 'cellarr' must be one of 'cellar'") and " more" in message


BAD_VALUES = ["bogus", {}, [], None, -1, 10**9, ["bogus"], {"bogus": 1}]


def leaf_paths(value, path=()):
    """Every place in a snapshot (a list's first and last entries only)."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaf_paths(item, path + (key,))
    elif isinstance(value, list) and value:
        for i in sorted({0, len(value) - 1}):
            yield from leaf_paths(value[i], path + (i,))


def positions_to_mutate(game) -> list:
    """The start, a position with pending work (an effect, tasks, a move) and the end."""
    states = list(random_walk(game, 1))
    busy = position(lambda s: bool(getattr(s, "eff", None) or getattr(s, "tasks", None)), game) \
        if game.name in ("split_the_hoard", "dominion") else states[len(states) // 2]
    return [states[0], busy, states[-1]]


@pytest.mark.parametrize("env_id", card_envs.list_envs())
def test_every_refusal_is_short(env_id):
    """Any field of a snapshot replaced by a wrong value: the refusal stays under ~200 characters
    (no list of every accepted name or key)."""
    game = card_envs.make_game(env_id)
    long = {}
    for state in positions_to_mutate(game):
        data = data_of(state)
        for path in leaf_paths(data):
            for bad in BAD_VALUES:
                try:
                    game.state_from_json(replaced(data, path, bad))
                except ValueError as error:
                    if len(str(error)) > LONGEST:
                        long.setdefault(str(error)[:30], (path, bad, str(error)))
    assert not long, "\n".join(f"{path} = {bad!r}: {len(m)} characters: {m}" for path, bad, m in long.values())


@pytest.mark.parametrize("env_id", card_envs.list_envs())
def test_a_config_difference_is_refused_briefly(env_id):
    env = card_envs.make(env_id)
    env.reset(seed=0)
    snap = env.unwrapped.snapshot()
    for config in ({**snap["config"], "extra": 1}, {**snap["config"], "reward": "score"}):
        with pytest.raises(ValueError) as error:
            card_envs.make(env_id).reset(options={"state": {**snap, "config": config}})
        assert str(error.value).startswith("config: ") and len(str(error.value)) <= LONGEST


# ----- Dominion: a finished game has ended ----------------------------------------------------------
def test_a_dominion_game_over_without_an_ending_names_the_missing_end_condition():
    game = card_envs.make_game("dominion_v0")
    state = position(lambda s: s.phase == 0 and not s.tasks and s.turn_player == 1 and s.turns[0] == 3, game)
    data = data_of(state)
    data["phase"] = "over"
    message = refused(game, data)
    assert re.match(r"phase: 'over', but the game has not ended: the Province pile holds \d+ cards", message)
    assert "Supply piles are empty (3 end the game)" in message and "max_turns=100" in message


# ----- what the scripted agents reach loads -------------------------------------------------------
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_positions_of_scripted_games_load_again(num_players):
    """Every position of a few games of the scripted agent at each player count."""
    game = SplitTheHoardGame(num_players=num_players)
    policy = make_policy("heuristic", game)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = game.new_state(rng)
        while True:
            data = data_of(state)
            assert game.state_from_json(data).to_json() == data
            if state.is_terminal():
                break
            p = state.current_player
            state.apply(int(policy.act(state.observation(p), state.legal_mask(), rng)))
