"""python -m card_envs.evaluate: ratings, fair seatings, reproducibility across workers, replays, the CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.match import rotated_match
from card_envs.agents.policy import RandomPolicy
from card_envs.core.rewards import rank_returns
from card_envs.replay import load_replay, record_game, save_replay
from card_envs.evaluate.__main__ import main as evaluate_main
from card_envs.evaluate.players import Player
from card_envs.evaluate.ratings import bradley_terry, openskill_ratings
from card_envs.evaluate.report import _field_note
from card_envs.evaluate.runner import distinct_rotations, play_pairings, seating_pattern
from tests.agents.test_baselines import _checkpoint

ELO = 400 / math.log(10)


# ----- ratings --------------------------------------------------------------------------------
def test_elo_of_a_75_percent_score_is_400_log10_3():
    fit = bradley_terry(np.array([[0, 75], [25, 0]]), anchor=1)
    assert fit["elo"][0] == pytest.approx(400 * math.log10(3), abs=1e-6)  # 190.85
    # Hessian: var(theta) = 1 / (n p (1 - p)) = 1 / (100 * 0.75 * 0.25).
    assert fit["se"][0] == pytest.approx(ELO / math.sqrt(100 * 0.75 * 0.25), rel=1e-6)
    assert fit["low"][0] == pytest.approx(fit["elo"][0] - 1.959964 * fit["se"][0])
    centred = bradley_terry(np.array([[0, 75], [25, 0]]))
    assert centred["elo"] == pytest.approx([95.424, -95.424], abs=1e-3)


def test_elo_draws_count_half_and_a_transitive_three_player_case_is_recovered():
    # Strengths 1 : 2 : 4 give P(A>B) = 1/3, P(B>C) = 1/3, P(A>C) = 1/5: counts matching these
    # exactly make the MLE the generating strengths, 120.4 and 240.8 Elo above A.
    wins = np.array([[0, 10, 6], [20, 0, 10], [24, 20, 0]], dtype=float)
    fit = bradley_terry(wins, anchor=0)
    assert fit["elo"] == pytest.approx([0, 400 * math.log10(2), 400 * math.log10(4)], abs=1e-6)
    # 60 wins + 30 draws of 120 games = a 62.5% score: 400 log10(0.625 / 0.375).
    fit = bradley_terry(np.array([[0, 60 + 15], [30 + 15, 0]]), anchor=1)
    assert fit["elo"][0] == pytest.approx(400 * math.log10(75 / 45), abs=1e-6)


def test_elo_needs_a_prior_for_a_perfect_record():
    with pytest.raises(ValueError, match="won or lost every game"):
        bradley_terry(np.array([[0, 10], [0, 0]]))
    fit = bradley_terry(np.array([[0, 10], [0, 0]]), prior=1, anchor=1)
    assert fit["elo"][0] == pytest.approx(400 * math.log10(10.5 / 0.5))
    with pytest.raises(ValueError, match="disconnected"):
        bradley_terry(np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]))


def test_openskill_ranks_the_winner_higher():
    rated = openskill_ratings(["a", "b"], [(0, 1, 1.0)] * 8 + [(0, 1, 0.0), (0, 1, -1.0)])
    assert rated["a"]["mu"] > 25 > rated["b"]["mu"] and rated["a"]["sigma"] < 25 / 3


# ----- seatings -------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id, config, seating, pattern, rotations", [
    ("three_piles_v0", {}, "field", [0, 1], [0, 1]),
    ("three_piles_v0", {}, "alternate", [0, 1], [0, 1]),
    ("three_piles_v0", {"num_players": 3}, "field", [0, 1, 1], [0, 1, 2]),  # one A against a field of B
    ("three_piles_v0", {"num_players": 3}, "alternate", [0, 1, 0], [0, 1, 2]),
    ("split_the_hoard_v0", {"num_players": 4}, "field", [0, 1, 1, 1], [0, 1, 2, 3]),
    ("split_the_hoard_v0", {"num_players": 4}, "alternate", [0, 1, 0, 1], [0, 1]),
    ("piles_v0", {}, "field", [0, 1, 0, 1], [0, 1]),  # a player holds both seats of a team
    ("piles_v0", {}, "alternate", [0, 1, 0, 1], [0, 1]),
    ("piles_v0", {"num_players": 2}, "field", [0, 1], [0, 1]),
])
def test_seating_patterns_and_distinct_rotations(env_id, config, seating, pattern, rotations):
    game = card_envs.make_game(env_id, **config)
    assert seating_pattern(game, seating) == pattern
    assert distinct_rotations(pattern) == rotations


def test_an_unknown_seating_is_refused_naming_the_accepted_ones(capsys):
    with pytest.raises(ValueError, match="unknown seating 'ring'; accepted: field, alternate"):
        seating_pattern(card_envs.make_game("three_piles_v0"), "ring")
    with pytest.raises(SystemExit):
        evaluate_main(["three_piles_v0", "random", "heuristic", "--seating", "ring"])
    assert "invalid choice: 'ring'" in capsys.readouterr().err


def test_one_seat_against_a_field_its_rank_return_gives_the_share_of_the_field_it_beats():
    """The report's field note: (1 + r) / 2 of a win-mode rank return r is the share of the other
    seats a seat finishes ahead of, ties half, for any scores and player count."""
    rng = np.random.default_rng(0)
    for n in (3, 4, 5):
        for _ in range(200):
            scores = rng.integers(0, 4, n)  # small range: many ties
            ahead = ((scores[0] > scores[1:]).sum() + 0.5 * (scores[0] == scores[1:]).sum()) / (n - 1)
            assert (1 + rank_returns(scores)[0]) / 2 == pytest.approx(ahead)


@pytest.mark.parametrize("pattern, config, noted", [
    ("ABB", {"reward": "win"}, "with three players W, D and L are A's first, second and last places"),
    ("ABBB", {}, "(1 + A's reward) / 2 is the share of B's seats"),
    ("ABB", {"reward": "score"}, None), ("ABA", {}, None), ("AB", {}, None), ("ABAB", {}, None),
])
def test_the_report_explains_a_field_seating_only_where_it_holds(pattern, config, noted):
    note = _field_note(pattern, config)
    assert (noted in note) if noted else note == ""


def test_a_free_for_all_seats_one_player_against_the_field_by_default():
    """Three players: A in one seat by default (its win is finishing first), A in two seats with
    "alternate"; the same deals give different games."""
    a, b = Player("heuristic", "heuristic"), Player("random", "random")
    field = play_pairings("three_piles_v0", {"num_players": 3}, [(a, b)], deals=4, seed=3, progress=False)[0]
    alternate = play_pairings("three_piles_v0", {"num_players": 3}, [(a, b)], deals=4, seed=3, progress=False,
                              seating="alternate")[0]
    assert len(field.reward_a) == len(alternate.reward_a) == 12
    # one seat of A: its reward is one seat's rank return in {-1, 0, 1}; two seats: their mean
    assert set(field.reward_a.tolist()) <= {-1.0, 0.0, 1.0}
    assert not np.array_equal(field.reward_a, alternate.reward_a)


def test_rotated_match_plays_chosen_rotations_on_explicit_deal_seeds():
    game = card_envs.make_game("three_piles_v0")
    heuristic = make_policy("heuristic", game)
    full = rotated_match(game, [heuristic, heuristic], 3, seed=20)
    some = rotated_match(game, [heuristic, heuristic], 2, seed=0, rotations=[1], deal_seeds=[21, 22])
    np.testing.assert_array_equal(some, full[[3, 5]])  # deals 21 and 22, seat shift 1
    with pytest.raises(ValueError, match="rotations must be seat shifts in 0..1"):
        rotated_match(game, [heuristic, heuristic], 1, rotations=[2])
    with pytest.raises(ValueError, match="deal_seeds holds 1 seeds for 2 deals"):
        rotated_match(game, [heuristic, heuristic], 2, deal_seeds=[1])


def test_every_deal_is_played_in_every_seating_on_the_same_seed(tmp_path):
    a, b = Player("greedy", "greedy"), Player("random", "random")
    [result] = play_pairings("piles_v0", {}, [(a, b)], deals=3, seed=50, record=str(tmp_path), progress=False)
    assert len(result.outcomes) == 6 and result.rotations == [0, 1]
    np.testing.assert_array_equal(result.reward_a, -result.reward_b)  # team rewards, zero-sum
    seen = {}
    for path in sorted((tmp_path / "piles_v0" / "greedy_vs_random").glob("*.json")):
        replay = load_replay(path)
        seen[replay.meta["deal"], replay.meta["seat_shift"]] = replay
    assert sorted(seen) == [(d, s) for d in range(3) for s in (0, 1)]
    for d in range(3):
        first, second = seen[d, 0], seen[d, 1]
        assert first.snapshot == second.snapshot and first.meta["deal_seed"] == 50 + d  # paired deal
        assert first.players == ["greedy", "random", "greedy", "random"]
        assert second.players == ["random", "greedy", "random", "greedy"]


def test_one_and_two_workers_give_identical_results():
    game_pairs = [(Player("random", "random"), Player("heuristic", "heuristic")),
                  (Player("random", "random"), Player("greedy", "greedy"))]
    kwargs = dict(deals=6, seed=3, chunk_deals=2, progress=False)
    one = play_pairings("three_piles_v0", {}, game_pairs, workers=1, **kwargs)
    two = play_pairings("three_piles_v0", {}, game_pairs, workers=2, **kwargs)
    for x, y in zip(one, two):
        np.testing.assert_array_equal(x.reward_a, y.reward_a)
        np.testing.assert_array_equal(x.reward_b, y.reward_b)
    again = play_pairings("three_piles_v0", {}, game_pairs, workers=1, **kwargs)
    np.testing.assert_array_equal(again[0].reward_a, one[0].reward_a)


# ----- replays --------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ["three_piles_v0", "piles_v0"])
def test_a_recorded_game_replays_to_the_same_final_scores(env_id, tmp_path):
    game = card_envs.make_game(env_id)
    records = {}
    rewards = rotated_match(game, [RandomPolicy()] * game.num_players, 2, seed=8,
                            on_game=lambda row, actions: records.__setitem__(row, actions))
    row = 1  # deal 0 played with seat shift 1
    initial = game.new_state(np.random.default_rng(8))
    replay = record_game(game, env_id, initial, records[row], meta={"row": row})
    assert len(replay.actions) >= len(records[row])  # forced decisions are stored too
    save_replay(tmp_path / "game.json", replay)
    loaded = load_replay(tmp_path / "game.json")
    assert loaded.final_scores == replay.final_scores
    np.testing.assert_array_equal(np.roll(rewards[row], 1), loaded.returns)
    steps = list(loaded)
    assert [a for _, a in steps] == loaded.actions and steps[0][0].to_json() == loaded.snapshot["state"]
    assert loaded.final_state().scores() == loaded.final_scores
    # And through the AEC env, from the snapshot, without automatic forced moves.
    env = card_envs.make(env_id, auto_forced=False, **loaded.config)
    env.reset(options={"state": loaded.snapshot})
    for action in loaded.actions:
        env.step(action)
    assert env.infos["player_0"]["scores"] == loaded.final_scores


def test_bad_replays_are_refused(tmp_path):
    (tmp_path / "x.json").write_text(json.dumps({"format": 9}))
    with pytest.raises(ValueError, match="not a card_envs replay of format 1"):
        load_replay(tmp_path / "x.json")
    game = card_envs.make_game("three_piles_v0")
    with pytest.raises(ValueError, match="not over"):
        record_game(game, "three_piles_v0", game.new_state(np.random.default_rng(0)), [])


# ----- CLI ------------------------------------------------------------------------------------
def test_cli_round_robin_with_a_checkpoint_folder_writes_tables_ratings_and_plots(tmp_path, capsys):
    folder = tmp_path / "runs" / "tiny" / "checkpoints"
    for step in (100, 200):
        _checkpoint(folder / f"step_{step:012d}.pt", "three_piles_v0")
    out = tmp_path / "out"
    assert evaluate_main(["three_piles_v0", str(folder), "random", "heuristic", "--deals", "4",
                          "--out", str(out), "--no-progress"]) == 0
    report = json.loads((out / "results.json").read_text())
    assert report["meta"]["mode"] == "round-robin"
    pairs = {(p["a"], p["b"]) for p in report["pairings"]}
    assert pairs == {("tiny@100", "random"), ("tiny@100", "heuristic"), ("tiny@200", "random"),
                     ("tiny@200", "heuristic"), ("random", "heuristic")}  # no checkpoint vs checkpoint
    first = report["pairings"][0]
    assert first["games"] == 8 and first["wins"] + first["draws"] + first["losses"] == 8
    assert set(report["ratings"]["elo"]) == set(report["ratings"]["openskill"]) == {
        "tiny@100", "tiny@200", "random", "heuristic"}
    assert report["ratings"]["elo"]["random"]["elo"] == 0.0
    for name in ("results.md", "winrate_matrix.png", "ratings.png", "rating_curve.png"):
        assert (out / name).stat().st_size > 0
    assert (out / "winrate_matrix.png").read_bytes()[:4] == b"\x89PNG"
    assert "Rating vs training step: tiny" in (out / "results.md").read_text()
    assert not list(out.glob(".*tmp"))  # atomic writes leave no temporary files
    # A head-to-head into the same folder (--overwrite) draws no rating curve: the old one must not stay beside it.
    assert evaluate_main(["three_piles_v0", "random", "heuristic", "--deals", "2", "--out", str(out),
                          "--no-progress", "--overwrite"]) == 0
    assert not (out / "rating_curve.png").exists()
    assert sorted(p.name for p in out.glob("*.png")) == sorted(
        f for f in json.loads((out / "results.json").read_text())["meta"]["files"] if f.endswith(".png"))


def test_cli_gauntlet_against_chosen_baselines(tmp_path):
    _checkpoint(tmp_path / "latest.pt", "three_piles_v0")
    out = tmp_path / "out"
    assert evaluate_main(["three_piles_v0", "--gauntlet", str(tmp_path / "latest.pt"), "random", "greedy",
                          "--deals", "2", "--out", str(out), "--no-progress", "--no-plots"]) == 0
    report = json.loads((out / "results.json").read_text())
    assert report["meta"]["mode"] == "gauntlet"
    assert [(p["a"], p["b"]) for p in report["pairings"]] == [
        (f"{tmp_path.name}/latest", "random"), (f"{tmp_path.name}/latest", "greedy")]


@pytest.mark.parametrize("argv, message", [
    (["three_piles_v0", "heuristic", "smart"], "unknown policy 'smart'"),
    (["three_piles_v0", "heuristic", "ismcts:depth=2"], "accepted options: iterations, exploration, rollout_depth"),
    (["three_piles_v0", "heuristic", "nowhere.pt"], "no checkpoint file at 'nowhere.pt'"),
    (["three_piles_v0", "heuristic", "random", "--config", '{"num_players": 9}'], "num_players=9"),
    (["piles_v0", "--gauntlet", "heuristic"], "wants a checkpoint file or folder"),
])
def test_cli_reports_bad_players_and_options(argv, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        evaluate_main(argv + ["--out", str(tmp_path)])
    assert exit_info.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["three_piles_v0", "heuristic"], "at least two players"),
    (["three_piles_v0", "heuristic", "random", "--config", "{nope"], "not valid JSON"),
    (["three_piles_v0", "heuristic", "random", "--deals", "0"], "--deals must be at least 1"),
    (["no_such_v0", "heuristic", "random"], "invalid choice"),
])
def test_cli_argument_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        evaluate_main(argv)
    assert exit_info.value.code == 2 and message in capsys.readouterr().err


def test_the_score_matrix_mirrors_a_pairing_only_when_both_sides_hold_as_many_seats():
    from card_envs.evaluate.report import score_matrix

    report = {"players": [{"label": "a"}, {"label": "b"}], "pairings": [{"a": "a", "b": "b", "score_rate": 0.8}],
              "meta": {"seating_pattern": "AB"}}
    assert score_matrix(report)[1, 0] == pytest.approx(0.2)
    report["meta"]["seating_pattern"] = "ABB"  # b's seat against two of a was never played
    matrix = score_matrix(report)
    assert matrix[0, 1] == 0.8 and np.isnan(matrix[1, 0])
