"""Split the Hoard's replay page: a committed card is "a hidden choice" to every other view until
the commits are flipped, and named from the flip on (``Game.secret_move_revealed``); the page's
data, read back from the HTML as the script reads it, never names a commit before its flip."""

from __future__ import annotations

import re

import pytest

from card_envs.games.split_the_hoard.effects import COMMIT_CARD, COMMIT_COINS
from card_envs.replay import replay_html
from tests.envs.test_replay_html import embedded, said
from tests.envs.test_replay_public import random_replay


def hoard_replay(num_players: int, seed: int):
    return random_replay("split_the_hoard_v0", {"num_players": num_players}, seed)


def commits(replay) -> list[tuple[int, int, int, str, int]]:
    """(step, decision, actor, words, position of that round's flip) of every commit decision,
    the flip found from the positions themselves."""
    out, pending = [], []
    for step, (state, action) in enumerate(replay):
        if pending and state.flipped:
            out += [(*c, step) for c in pending]
            pending = []
        if state.decision in (COMMIT_CARD, COMMIT_COINS):
            pending.append((step, state.decision, state.current_player, replay.game.describe_move(state, action)[1]))
    assert not pending, "every round's commits are flipped"
    return out


def turn_steps(data: dict, step: int) -> list[int]:
    """The steps of ``step``'s turn from it on: each holds a move-list line naming it."""
    turn = data["steps"][step]["turn"]
    return [i for i in range(step, len(data["steps"]) - 1) if data["steps"][i]["turn"] == turn]


@pytest.mark.parametrize("num_players, seed", [(3, 0), (5, 1)])
def test_a_commit_is_hidden_until_the_flip_and_named_from_it_on(num_players, seed):
    replay = hoard_replay(num_players, seed)
    data = embedded(replay_html(replay))
    named = 0
    for step, decision, actor, words, flip in commits(replay):
        if decision != COMMIT_CARD:
            continue
        others = ["public"] + [str(k) for k in range(num_players) if k != actor]
        for view in others:
            for position in (step, step + 1, flip - 1, flip, flip + 1, len(data["steps"]) - 1):
                if position <= step:
                    continue  # the move list holds the moves before the position shown
                lines = [said(data, i, view, "m", position) for i in turn_steps(data, step) if i < position]
                move = said(data, step, view, "a", position)
                if position < flip:
                    assert "made a choice hidden from" in move and words not in move, (view, position, move)
                    assert all("commit card: a hidden choice" in line and words not in line for line in lines)
                else:
                    assert move == f"player_{actor} (commit card): {words}", (view, position, move)
                    assert all(re.search(rf"commit card: (\w[\w ]*, )?{re.escape(words)}\b", line) for line in lines)
                    named += 1
        assert words in said(data, step, str(actor), "a", step), "its player always sees it"
    assert named


def test_no_view_holds_a_commit_before_its_flip_nor_where_a_coin_went():
    """The leak test over everything the page embeds: what another view reads of a commit before
    any rewording names no card; every rewording is dated at the flip of its round, after the
    move; and which card a Coin went to is named to no other view, flipped or not."""
    replay = hoard_replay(3, seed=2)
    data = embedded(replay_html(replay))
    strings = data["strings"]
    found = commits(replay)
    flip_of = {step: flip for step, _, _, _, flip in found}
    reworded = 0
    for step, decision, actor, words, flip in found:
        for view in ["public"] + [str(k) for k in range(3) if k != actor]:
            move = data["steps"][step]["v"][view]
            if decision == COMMIT_CARD or words != "done":
                assert words not in strings[move["a"]], (step, view)
            if decision == COMMIT_COINS:
                assert words not in " ".join(strings[w] for _, w in move.get("ar", []))
            for i in turn_steps(data, step):
                assert decision == COMMIT_COINS or words not in strings[data["steps"][i]["v"][view]["m"]]
    for i, entry in enumerate(data["steps"][:-1]):
        for view, f in entry["v"].items():
            if view == str(entry["actor"]):
                assert "mr" not in f and "ar" not in f, "its player saw the move when it was made"
                continue
            for key in ("m", "a"):
                for at, words in f.get(key + "r", []):
                    assert i in flip_of and at == flip_of[i] > i, (i, view, key, at)
                    text = strings[words]
                    assert key == "a" or re.search(r"commit coins: ((a hidden choice|done)( x\d+)?(, )?)+$", text) \
                        or "commit coins" not in text, text
                    reworded += 1
    assert reworded
