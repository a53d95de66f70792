"""Illimat's last play survives a snapshot (format 3 ``last_play``): the render's "last play" line
is the same after a load (a resumed terminal game), older formats still load without one, and a
bad ``last_play`` is refused naming the field."""

from __future__ import annotations

import json

import numpy as np
import pytest

import card_envs
from card_envs.games.illimat.game import IllimatGame

RICH = IllimatGame(num_players=3, full_harvest=True)  # every kind of play, a full harvest too


def last_play_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("  last play:"))


def reloaded(game: IllimatGame, state):
    return game.state_from_json(json.loads(json.dumps(state.to_json())))


def test_every_kind_of_play_renders_the_same_after_a_snapshot():
    """Random games until each kind of play (and a Union pair, a full harvest) was the last one;
    after each new last play the loaded copy renders identically for every viewer."""
    rng = np.random.default_rng(0)
    seen = set()
    for seed in range(40):
        state = RICH.new_state(np.random.default_rng(seed))
        last = None
        while not state.is_terminal():
            state.apply(int(rng.choice(state.legal_actions())))
            if state.last_play == last:
                continue
            last = state.last_play
            copy = reloaded(RICH, state)
            assert copy.last_play == state.last_play
            for viewer in (None, -1, 0, 1, 2):
                assert RICH.render(copy, viewer) == RICH.render(state, viewer)
            seen.add((last[1], len(last[3])))
        if {"sow", "rake_sow", "stockpile", "swap"} <= {k for k, _ in seen} and \
                {("harvest", 1), ("harvest", 2), ("harvest", 4)} <= seen:
            break
    assert {"sow", "rake_sow", "stockpile", "swap"} <= {k for k, _ in seen}
    assert {("harvest", 1), ("harvest", 2), ("harvest", 4)} <= seen


def test_the_env_snapshot_keeps_the_last_play_line():
    """What the terminal's quit and --resume do: env snapshot, then a reset from it."""
    env = card_envs.make("illimat_v0", render_mode="ansi", render_seat=0)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(12):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    before = env.render()
    assert "last play: player_" in last_play_line(before)
    snapshot = json.loads(json.dumps(env.unwrapped.snapshot()))
    assert snapshot["state"]["format"] == 3 and snapshot["state"]["last_play"] is not None
    again = card_envs.make("illimat_v0", render_mode="ansi", render_seat=0)
    again.reset(seed=9, options={"state": snapshot})
    assert last_play_line(again.render()) == last_play_line(before)
    assert again.render() == before


def test_formats_1_and_2_load_without_a_last_play():
    state = played(IllimatGame(), plays=6)
    data = json.loads(json.dumps(state.to_json()))
    assert data["last_play"] is not None
    v2 = {**{k: v for k, v in data.items() if k != "last_play"}, "format": 2}
    old = IllimatGame().state_from_json(v2)
    assert old.last_play is None and "last play: none yet" in IllimatGame().render(old, None)
    assert old.to_json() == {**data, "last_play": None}
    with pytest.raises(ValueError, match="unknown keys 'last_play'"):
        IllimatGame().state_from_json({**data, "format": 2})


def played(game: IllimatGame, plays: int, seed: int = 1):
    """A state after `plays` random card plays."""
    state, rng = game.new_state(np.random.default_rng(seed)), np.random.default_rng(seed)
    count, last = 0, None
    while count < plays:
        state.apply(int(rng.choice(state.legal_actions())))
        if state.last_play != last:
            count, last = count + 1, state.last_play
    return state


def sow_snapshot() -> dict:
    game = IllimatGame()
    state = game.new_state(np.random.default_rng(2))
    rng = np.random.default_rng(2)
    while state.last_play is None or state.last_play[1] != "sow":
        state.apply(int(rng.choice(state.legal_actions())))
    return json.loads(json.dumps(state.to_json()))


SOW = {"player": 0, "play": "sow", "field": 1, "played": ["5P"], "taken": [], "value": None}


@pytest.mark.parametrize("last_play, message", [
    ("sowed 5P", "last_play: 'sowed 5P' must be an object"),
    ({**SOW, "text": "x"}, "last_play: unknown keys 'text'"),
    ({k: v for k, v in SOW.items() if k != "field"}, "last_play: missing keys 'field'"),
    ({**SOW, "player": 2}, r"last_play.player=2 must be an integer in 0..1"),
    ({**SOW, "player": True}, r"last_play.player=True must be an integer"),
    ({**SOW, "play": "plant"}, r"last_play.play='plant' must be one of \['sow'"),
    ({**SOW, "field": 4}, r"last_play.field=4 must be an integer in 0..3"),
    ({**SOW, "played": ["5X"]}, "last_play.played"),
    ({**SOW, "played": ["5P"] * 5}, "last_play.played"),
    ({**SOW, "value": 5}, "last_play.value=5: only a stockpile has a value"),
    ({**SOW, "taken": ["5P"]}, "each card once"),
    ({**SOW, "taken": ["6P"]}, "is not a sow: one card played, none taken"),
    ({**SOW, "play": "swap"}, "is not a swap: one card given, one taken"),
    ({**SOW, "play": "harvest", "taken": ["3P", "3S"]}, "is not a harvest"),  # 6, not a multiple of 5
    ({**SOW, "play": "harvest", "played": ["2P", "3P", "4P", "6P"], "taken": ["KP"]}, "is not a harvest"),
    ({**SOW, "play": "stockpile", "taken": ["3P"], "value": 9}, "is not a stockpile"),
    ({**SOW, "play": "stockpile", "taken": ["3P"], "value": None}, "last_play.value=None must be an integer in 2..14"),
])
def test_a_bad_last_play_is_refused_naming_it(last_play, message):
    data = sow_snapshot()
    with pytest.raises(ValueError, match=message):
        IllimatGame().state_from_json({**data, "last_play": last_play})


@pytest.mark.parametrize("last_play", [
    {**SOW, "play": "harvest", "taken": ["2P", "3S", "AW", "4P"]},  # 5 + (1 + 4): two groups of 5
    {**SOW, "play": "harvest", "played": ["AP"], "taken": ["KP", "AS"]},  # a Fool as 14: 13 + 1
    {**SOW, "play": "harvest", "played": ["5P", "6S"], "taken": ["JP"]},  # with the Union: 11
    {**SOW, "play": "stockpile", "taken": ["3P"], "value": 8},
    {**SOW, "play": "stockpile", "taken": ["3P", "4S", "4W"], "value": 8},  # a multiple stockpile: 2 x 8
    {**SOW, "play": "swap", "taken": ["KS"]},
    {**SOW, "play": "rake_sow"},
])
def test_plays_the_rules_allow_load_and_render(last_play):
    data = sow_snapshot()
    state = IllimatGame().state_from_json({**data, "last_play": last_play})
    assert sorted(state.to_json()["last_play"]["taken"]) == sorted(last_play["taken"])
    assert last_play_line(IllimatGame().render(state, None)).startswith("  last play: player_0 ")


def test_without_luminaries_or_full_harvest_those_plays_are_refused():
    game = IllimatGame(luminaries=False)
    state = played(game, plays=2)
    data = json.loads(json.dumps(state.to_json()))
    for last_play in ({**SOW, "play": "swap", "taken": ["KS"]}, {**SOW, "play": "rake_sow"},
                      {**SOW, "play": "harvest", "played": ["5P", "6S"], "taken": ["JP"]}):
        with pytest.raises(ValueError, match="is not a"):
            game.state_from_json({**data, "last_play": last_play})
