"""Snapshot loaders (issue 46): a list longer than the game allows is refused before its entries
are read; hand-made unreachable positions are refused naming the rule; and a snapshot saved
before an option existed (its config lacks it) loads, the option taking its default."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import card_envs
from tests.conftest import calls_made, random_walk

HUGE = 50_000  # entries in an oversized list: per-entry work would make at least this many calls


def snapshot(env_id: str, seed: int = 0, steps: int = 0, **config) -> dict:
    env = card_envs.make(env_id, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if not env.agents:
            break
        env.step(int(rng.choice(np.flatnonzero(env.last()[0]["action_mask"]))))
    return json.loads(json.dumps(env.unwrapped.snapshot()))


def refused(snap: dict, **config) -> str:
    env = card_envs.make(snap["env_id"], **config)
    with pytest.raises(ValueError) as error:
        env.reset(options={"state": snap})
    return str(error.value)


def loads(snap: dict, **config) -> dict:
    env = card_envs.make(snap["env_id"], **config)
    env.reset(options={"state": snap})
    return env.unwrapped.snapshot()


# ----- oversized lists --------------------------------------------------------------------------
def set_huge(env_id: str, state: dict) -> str:
    """Put an oversized card list into one field of `state`; the field's name as refused."""
    if env_id == "illimat_v0":  # the audit's case: a stockpile's cards, quadratic to total up
        state["fields"][0]["stockpiles"] = [{"value": 2, "kind": "multiple", "cards": ["AP"] * HUGE}]
        return "stockpile cards"
    if env_id == "dominion_v0":
        state["players"][0]["discard"] = ["Copper"] * HUGE
        return "players[0].discard"
    if env_id == "split_the_hoard_v0":
        state["deck"] = ["Pearl"] * HUGE
        return "deck"
    if env_id == "piles_v0":
        state["set_aside"] = ["AS"] * HUGE
        return "set_aside"
    state["deck"] = ["AS"] * HUGE
    return "deck"


@pytest.mark.parametrize("env_id", card_envs.list_envs())
def test_an_oversized_list_is_refused_before_its_entries_are_read(env_id):
    snap = snapshot(env_id)
    field = set_huge(env_id, snap["state"])
    env = card_envs.make(env_id)
    game = env.unwrapped.game

    def load():
        with pytest.raises(ValueError, match="entries; this game allows at most") as error:
            game.state_from_json(snap["state"])
        return str(error.value)

    message, calls = calls_made(load)
    assert field in message and len(message) < 200
    assert calls < HUGE // 5  # the list's length is checked, its entries never read


def test_dominion_supply_runs_are_bounded_by_the_pile():
    snap = snapshot("dominion_v0")
    snap["state"]["supply"]["Copper"] = [["Copper", 46]] * HUGE
    _, calls = calls_made(lambda: "must be a list" in refused(snap) or refused(snap))
    assert "supply['Copper']" in refused(snap) and calls < HUGE // 5


# ----- unreachable positions ------------------------------------------------------------------
def test_illimat_scores_follow_the_rounds_and_the_target():
    snap = snapshot("illimat_v0")
    state = snap["state"]
    assert state["round"] == 0 and state["scores"] == [0, 0]
    for scores in ([3, 0], [0, -2]):
        bad = copy.deepcopy(snap)
        bad["state"]["scores"] = scores
        assert "none are scored in round 0" in refused(bad)
    late = copy.deepcopy(snap)
    late["state"]["round"], late["state"]["scores"] = 1, [17, 3]  # the target reached: the game is over
    assert "target_score=17" in refused(late)
    late["state"]["scores"] = [-3, 3]
    assert "scores[0]=-3 after 1 scored round(s): a round gives from -2" in refused(late)
    last = copy.deepcopy(snap)
    last["state"]["round"] = 20
    assert "past the last round" in refused(last)
    over = copy.deepcopy(snap)
    over["state"]["decision"] = "game_over"
    assert "decision=game_over after round=0" in refused(over)


def test_illimat_secret_harvest_cards_come_from_the_children():
    game = card_envs.make_game("illimat_v0")
    state = next(s for s in random_walk(game, 3) if s.harvest[0] and 3 not in s.claimed[0])  # 3: the Children
    data = state.to_json()
    game.state_from_json(data)
    data["secret"][0] = data["harvest"][0][:1]
    with pytest.raises(ValueError, match=r"secret\[0\]: secret harvested cards come only from claiming the Children"):
        game.state_from_json(data)


def test_split_the_hoard_round_0_and_class_powers():
    snap = snapshot("split_the_hoard_v0")
    state = snap["state"]
    assert state["round"] == 0 and state["phase"] == "reveal" and state["treasures"] == [[], [], []]
    rich = copy.deepcopy(snap)
    rich["state"]["treasures"][0] = rich["state"]["deck"][:10]
    del rich["state"]["deck"][:10]
    assert "treasures[0]: 10 Treasures in phase 'reveal' of round 0" in refused(rich)
    later = copy.deepcopy(snap)
    later["state"]["round"] = 5  # with round 0's deck
    assert refused(later).startswith("round: 5, but only")
    used = copy.deepcopy(snap)
    used["state"]["powers_used"] = [True] * 3  # in round 0's Reveal: only the Wizard's Scry can have been used
    assert "cannot have been used yet in phase 'reveal' of round 0" in refused(used)
    plain = snapshot("split_the_hoard_v0", class_powers="tiebreak_only")
    plain["state"]["powers_used"][1] = True
    assert "powers_used[1]: class powers are never used with class_powers='tiebreak_only'" in refused(
        plain, class_powers="tiebreak_only")


def move_cards(state: dict, pile: str, seat: int = 0) -> None:
    """Empty a Supply pile into a player's discard pile (card conservation kept)."""
    for name, count in state["supply"][pile]:
        state["players"][seat]["discard"] += [name] * count
    state["supply"][pile] = []


def test_dominion_a_turn_never_starts_once_the_game_has_ended():
    snap = snapshot("dominion_v0")
    state = snap["state"]
    assert state["phase"] == "action" and state["tasks"] == [] and "Wizards" not in state["kingdom"]
    province = copy.deepcopy(snap)
    move_cards(province["state"], "Province")
    assert refused(province).startswith("supply['Province']: empty at the start of a turn")
    three = copy.deepcopy(snap)
    for pile in ("Curse", "Estate", "Duchy"):
        move_cards(three["state"], pile)
    assert "a third Supply pile empties" in refused(three)
    two = copy.deepcopy(snap)
    for pile in ("Curse", "Estate"):
        move_cards(two["state"], pile)
    loads(two)  # two empty piles: the game goes on
    capped = snapshot("dominion_v0", max_turns=1)
    for player in capped["state"]["players"]:
        player["turns"] = 1
    capped["state"]["previous_turn"] = 1
    assert "every seat has had max_turns=1 turns" in refused(capped, max_turns=1)


def test_dominion_debt_needs_a_debt_card_in_the_supply():
    snap = snapshot("dominion_v0")  # T1-A: no Gladiator/Fortune
    snap["state"]["players"][1]["debt"] = 3
    assert "players[1].debt: 3, but no card in this Supply costs Debt" in refused(snap)
    fortune = snapshot("dominion_v0", kingdom="T1-B")
    fortune["state"]["players"][0]["debt"] = 8
    loads(fortune, kingdom="T1-B")
    fortune["state"]["players"][0]["debt"] = 9
    assert "at most 8 Debt" in refused(fortune, kingdom="T1-B")


# ----- snapshots from earlier versions ------------------------------------------------------------
ADDED_LATER = {"illimat_v0": ("harmonic_convergence", "full_harvest", "harvest_features", "play_features",
                              "threat_features"),
               "dominion_v0": ("ally",)}


def earlier_version(snap: dict) -> dict:
    """The snapshot as the first release wrote it: its config without the options added later
    (every option for a game that has added none yet: each takes its default) and, where the state
    format changed since, the format-1 state."""
    old = copy.deepcopy(snap)
    env_id, state = old["env_id"], old["state"]
    for key in ADDED_LATER.get(env_id, tuple(old["config"])):
        del old["config"][key]
    if env_id == "illimat_v0":
        del state["converged"], state["move"]["full_harvest"], state["last_play"]
        state["format"] = 1
    elif env_id == "dominion_v0":
        for key in ("ally", "previous_turn", "extra_turn", "plays_left"):
            del state[key]
        for player in state["players"]:
            del player["favors"], player["skips"], player["durations"]
        state["format"] = 1
    elif env_id in ("three_piles_v0", "piles_v0"):
        del state["last_move"]
        state["format"] = 1
    return old


@pytest.mark.parametrize("env_id", card_envs.list_envs())
def test_a_snapshot_from_an_earlier_version_loads(env_id):
    snap = snapshot(env_id, seed=2, steps=30)
    old = earlier_version(snap)
    restored = loads(old)
    if env_id in ("three_piles_v0", "piles_v0"):  # format 1 has no last move
        restored["state"]["last_move"] = snap["state"]["last_move"]
    if env_id == "illimat_v0":  # nor last play
        assert restored["state"]["last_play"] is None
        restored["state"]["last_play"] = snap["state"]["last_play"]
    assert restored == snap


@pytest.mark.parametrize("env_id", card_envs.list_envs())
def test_only_real_config_differences_are_refused(env_id):
    snap = snapshot(env_id)
    for key in snap["config"]:  # each option missing in turn takes its default: this env's value
        loads({**snap, "config": {k: v for k, v in snap["config"].items() if k != key}})
    scored = snapshot(env_id, reward="score")
    assert "options ['reward'] differ" in refused(scored)
    lacking = {**scored, "config": {k: v for k, v in scored["config"].items() if k != "reward"}}
    assert "options ['reward'] differ" in refused(lacking, reward="score")  # its default, "win", is not this env's
    assert "unknown options ['extra']" in refused({**snap, "config": {**snap["config"], "extra": 1}})
