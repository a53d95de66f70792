"""The benchmark (`card_envs.evaluate.benchmark`): the protocol is well-formed and covers every
registered env; the raw result, the normalization and the aggregate are what they say (rliable's
own numbers on a hand-made score matrix); the command runs end to end on a tiny budget and refuses
bad input before playing."""

from __future__ import annotations

import json

import numpy as np
import pytest

import card_envs
from card_envs.agents import make_policy, opponent_names
from card_envs.evaluate.benchmark import play, protocol
from card_envs.evaluate.benchmark.__main__ import main
from card_envs.evaluate.benchmark.scores import aggregate, normalize, raw_result
from card_envs.evaluate.players import Player
from card_envs.evaluate.runner import PairResult

TINY = ["--deals", "1", "--reps", "200", "--no-progress"]


def every_game(spec: str = "heuristic") -> list[str]:
    return [arg for env_id in protocol.GAMES for arg in ("--policy", f"{env_id}={spec}")]


# ----- the protocol -----------------------------------------------------------------------------
def test_the_protocol_names_every_registered_env_with_a_playable_setting_panel_and_anchors():
    assert protocol.VERSION == "card_envs-bench-v1"
    assert set(protocol.GAMES) == set(card_envs.list_envs())
    assert set(protocol.ANCHORS) == set(protocol.GAMES)
    for env_id, spec in protocol.GAMES.items():
        game = card_envs.make_game(env_id, **spec["config"])
        assert game.num_players == spec["config"]["num_players"], env_id
        assert isinstance(spec["deals"], int) and spec["deals"] >= 100, env_id
        assert spec["panel"][0] == "random" and len(set(spec["panel"])) == len(spec["panel"]), env_id
        for name in spec["panel"]:
            assert name in opponent_names(game), (env_id, name)  # batched, from observations: affordable
            make_policy(name, game)
        anchors = protocol.ANCHORS[env_id]
        assert 0 <= anchors["low"] < anchors["high"] <= 1, env_id
        assert anchors["high_agent"] in play.scripted_candidates(env_id)
        assert set(anchors["candidates"]) == set(play.scripted_candidates(env_id))
        assert anchors["high"] == pytest.approx(max(anchors["candidates"].values()), abs=1e-6)
    # the evaluation deals are no trainer's evaluation seeds (10,000 and 20,000 on) nor the pages'
    assert protocol.EVAL_SEED > 200_000
    recorded = protocol.protocol()
    assert json.loads(json.dumps(recorded)) == recorded and recorded["version"] == protocol.VERSION


# ----- raw result, normalization, aggregate ------------------------------------------------------
def pair(opponent: str, outcomes: list[int]) -> PairResult:
    reward = np.array(outcomes, dtype=float)
    return PairResult(Player("p", "p"), Player(opponent, opponent), reward, np.zeros_like(reward), [0, 1], 0.0)


def test_the_raw_result_averages_score_rates_over_the_panel_each_opponent_weighing_the_same():
    # 4 games against random: W W D L -> 2.5 / 4; 2 games against heuristic: L L -> 0
    result = raw_result([pair("random", [1, 1, 0, -1]), pair("heuristic", [-1, -1])])
    assert result["raw"] == pytest.approx((0.625 + 0.0) / 2)
    assert result["per_opponent"]["random"] == {"score_rate": 0.625, "se": pytest.approx(np.sqrt(
        np.var([1, 1, 0.5, 0], ddof=1) / 4)), "games": 4, "wins": 2, "draws": 1, "losses": 1}
    assert result["raw_se"] == pytest.approx(np.sqrt(np.var([1, 1, 0.5, 0], ddof=1) / 4) / 2)
    low, high = result["raw_ci95"]
    assert low < result["raw"] < high and high - result["raw"] == pytest.approx(1.96 * result["raw_se"], rel=1e-3)
    assert raw_result([pair("random", [1, 1, 1, 0])])["raw_ci95"][1] == 1.0  # clipped to a score rate's range


def test_normalization_puts_random_at_0_and_the_strongest_scripted_agent_at_1():
    anchors = {"low": 0.25, "high": 0.75}
    assert [normalize(x, anchors) for x in (0.25, 0.75, 0.5, 1.0, 0.0)] == [0.0, 1.0, 0.5, 1.5, -0.5]
    with pytest.raises(ValueError, match="high > low"):
        normalize(0.5, {"low": 0.5, "high": 0.5})


@pytest.mark.filterwarnings("ignore:random_state is deprecated:FutureWarning")  # arch, called by rliable
def test_the_aggregate_is_rliables_on_a_hand_made_score_matrix():
    from rliable import library, metrics

    scores = np.array([[0.1, 0.9, 1.2, 0.4, -0.1], [0.3, 0.7, 1.0, 0.5, 0.0], [0.2, 0.8, 1.1, 0.6, 0.2]])
    ours = aggregate(scores, reps=500, seed=3)
    # IQM of 15 scores: the middle half (trimmed 25% each side, rliable's scipy trim_mean)
    middle = np.sort(scores.ravel())[3:12]
    assert ours["iqm"]["point"] == pytest.approx(middle.mean())
    assert ours["optimality_gap"]["point"] == pytest.approx(np.mean(1 - np.minimum(scores, 1)))
    for task_bootstrap, key in ((False, "ci95"), (True, "ci95_games_too")):
        np.random.seed(3)  # rliable 1.2 resamples with numpy's global generator (scores.seeded_global_numpy)
        points, intervals = library.get_interval_estimates(
            {"x": scores}, lambda s: np.array([metrics.aggregate_iqm(s), metrics.aggregate_optimality_gap(s)]),
            reps=500, task_bootstrap=task_bootstrap, random_state=np.random.RandomState(3))
        for k, name in enumerate(("iqm", "optimality_gap")):
            assert ours[name]["point"] == pytest.approx(points["x"][k])
            assert ours[name][key] == pytest.approx(list(intervals["x"][:, k]))
    assert [m["mean"] for m in ours["game_means"]] == pytest.approx(list(scores.mean(axis=0)))
    assert ours["iqm"]["ci95_games_too"][1] - ours["iqm"]["ci95_games_too"][0] > 0
    assert aggregate(scores, reps=500, seed=3) == ours, "the same seed gives the same intervals"
    with pytest.raises(ValueError, match="runs, games"):
        aggregate(np.array([0.5, 0.6]))


# ----- the command --------------------------------------------------------------------------------
def test_the_command_runs_end_to_end_on_a_tiny_budget(tmp_path, capsys):
    out = tmp_path / "bench"
    argv = every_game("heuristic") + every_game("random") + ["--name", "mixed", "--out", str(out), *TINY]
    argv[1] = "three_piles_v0=shipped:three_piles_v0"  # a checkpoint too
    assert main(argv) == 0
    report = json.loads((out / "results.json").read_text())
    assert report["protocol_version"] == "card_envs-bench-v1" and report["protocol"] == protocol.protocol()
    assert report["games"] == list(protocol.GAMES) and len(report["runs"]) == 2
    matrix = np.array(report["score_matrix"])
    assert matrix.shape == (2, len(protocol.GAMES))
    for k, run in enumerate(report["runs"]):
        for g, env_id in enumerate(report["games"]):
            result = run["games"][env_id]
            assert list(result["per_opponent"]) == list(protocol.GAMES[env_id]["panel"])
            assert result["raw"] == pytest.approx(np.mean([o["score_rate"] for o in result["per_opponent"].values()]))
            assert matrix[k, g] == pytest.approx(normalize(result["raw"], protocol.ANCHORS[env_id]))
    assert report["runs"][0]["games"]["three_piles_v0"]["spec"] == "shipped:three_piles_v0"
    assert report["runs"][1]["games"]["piles_v0"]["spec"] == "random"
    assert report["aggregate"]["iqm"]["point"] == pytest.approx(aggregate(matrix, reps=200)["iqm"]["point"])
    assert (out / "performance_profile.png").stat().st_size > 0
    page = (out / "results.md").read_text()
    assert "not the protocol's" in page and "IQM" in page and "performance_profile.png" in page
    with pytest.raises(SystemExit) as exit_info:  # refused before any game is played
        main(argv)
    assert exit_info.value.code == 2 and "holds the report of an earlier benchmark" in capsys.readouterr().err

    # --compare: a second algorithm's report beside this one, in one table and one profile plot
    other = tmp_path / "other"
    other.mkdir()
    report["meta"]["name"] = "other"
    (other / "results.json").write_text(json.dumps(report))
    assert main(["--compare", str(out), str(other), "--out", str(tmp_path / "both"), "--reps", "200"]) == 0
    table = (tmp_path / "both" / "comparison.md").read_text()
    assert "| mixed " in table and "| other " in table and (tmp_path / "both" / "performance_profile.png").is_file()
    report["protocol_version"] = "card_envs-bench-v0"
    (other / "results.json").write_text(json.dumps(report))
    with pytest.raises(SystemExit):
        main(["--compare", str(out), str(other), "--out", str(tmp_path / "mixed")])
    assert "different protocols" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (every_game()[:-2] + ["--policy", "piles_v0=random"], "the same number of runs"),  # a partial report too
    (["--merge", "nowhere"], "--merge plays no game"),
    (every_game() + ["--policy", "piles_v0=random"], "the same number of runs"),
    (every_game() + ["--policy", "chess_v0=random"], "'chess_v0' is not a game of the protocol"),
    (every_game() + ["--policy", "piles_v0"], "ENV_ID=SPEC"),
    (every_game("no_such_bot"), "policy 'no_such_bot'"),
    (["--anchors", "--policy", "piles_v0=random"], "different jobs"),
    ([], "give one --policy"),
    (every_game() + ["--bootstrap-seed", "-1"], "--bootstrap-seed must be >= 0"),
])
def test_bad_input_is_refused_naming_what_was_wrong(argv, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv + ["--out", str(tmp_path / "out"), *TINY])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_anchors_command_measures_random_and_every_scripted_agent(tmp_path, capsys):
    out = tmp_path / "anchors"
    assert main(["--anchors", "--out", str(out), *TINY]) == 0
    measured = json.loads((out / "anchors.json").read_text())
    assert measured["meta"]["deals"] == 1 and set(measured["anchors"]) == set(protocol.GAMES)
    for env_id, anchors in measured["anchors"].items():
        assert set(anchors["candidates"]) == set(play.scripted_candidates(env_id))
        assert anchors["high"] == pytest.approx(max(anchors["candidates"].values()), abs=1e-6)
        assert anchors["candidates"][anchors["high_agent"]] == pytest.approx(anchors["high"], abs=1e-6)
        assert 0 <= anchors["low"] <= 1
    assert "ANCHORS = " in capsys.readouterr().out and (out / "anchors.md").is_file()
