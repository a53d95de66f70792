"""The benchmark's two algorithms at a fixed budget (docs/benchmark.md): our PPO's reward-only
recipe of every game, sb3-contrib's MaskablePPO trainer (`card_envs.train.sb3`) and its player spec
``sb3:<path>.zip`` (`card_envs.agents.sb3`), partial reports and ``--merge`` (a merge of partial
reports is the report one command makes of the same runs), and the sweep end to end on one game
with a budget of seconds and ``--deals 1`` (a quick check, not comparable)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.match import rotated_match
from card_envs.agents.policy import OwnObservationPolicy, RandomPolicy
from card_envs.evaluate.benchmark import protocol, sweep
from card_envs.evaluate.benchmark.__main__ import main as benchmark
from card_envs.train import sb3
from card_envs.train.configs import CLONING, DEFAULTS, RECIPES, TEACHING, reward_only
from card_envs.train.options import parse_args
from card_envs.vector import VectorGames

TINY = ["--deals", "1", "--reps", "200", "--no-progress"]
SMALL = "three_piles_v0"  # the cheapest game to train and play


# ----- our PPO: the reward-only recipe ---------------------------------------------------------------
@pytest.mark.parametrize("env_id", list(DEFAULTS))
def test_every_game_has_a_reward_only_recipe_its_defaults_without_cloning_or_teacher(env_id):
    recipe = RECIPES[env_id]["reward_only"]
    assert recipe == reward_only(DEFAULTS[env_id])
    assert not set(recipe) & (set(CLONING) | set(TEACHING))
    assert recipe == {k: v for k, v in DEFAULTS[env_id].items() if k not in CLONING + TEACHING}
    args, _ = parse_args([env_id, "--recipe", "reward_only"])
    assert (args.teacher, args.pretrain_games, args.dagger_rounds) == ("", 0, 0)
    for name in ("hidden", "opponents", "learning_rate", "env_config", "opponent_share"):
        assert getattr(args, name) == parse_args([env_id])[0].__dict__[name], name


def test_the_sweeps_ppo_command_gives_training_exactly_the_budget():
    from card_envs.train.timeplan import training_seconds

    command = sweep.ppo_command(SMALL, 2, 10.0, Path("runs/x/seed2"))
    assert command[1:5] == ["-m", "card_envs.train", SMALL, "--recipe"] and "reward_only" in command
    minutes = float(command[command.index("--max-minutes") + 1])
    assert training_seconds(minutes) == pytest.approx(600.0)
    assert command[command.index("--eval-every") + 1] == "0"
    args, _ = parse_args(command[3:])
    assert args.seed == 2 and args.run_name == "seed2" and args.runs_dir == str(Path("runs/x"))


# ----- MaskablePPO and its player ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def sb3_model(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sb3") / "model"
    assert sb3.main([SMALL, "--minutes", "0.02", "--seed", "3", "--out", str(out), "--envs", "1",
                     "--no-progress"]) == 0
    return out / "model.zip"


def test_maskable_ppo_trains_for_its_budget_and_records_it(sb3_model):
    info = json.loads(sb3_model.with_suffix(".json").read_text())
    assert info["env_id"] == SMALL and info["seed"] == 3 and info["minutes"] == 0.02
    assert info["steps"] > 0 and 1.2 <= info["wall_s"] < 1.2 + 30  # stops at the first step past the budget
    assert info["hyperparameters"]["n_steps"] == 2048 and info["hyperparameters"]["n_epochs"] == 10  # sb3's defaults
    assert info["net_arch"] == {"pi": [64, 64], "vf": [64, 64]}
    assert {"stable_baselines3", "sb3_contrib", "torch"} <= set(info["versions"])
    with pytest.raises(SystemExit):  # an earlier model is not replaced unless asked
        sb3.main([SMALL, "--minutes", "0.02", "--out", str(sb3_model.parent)])


def test_maskable_ppo_meets_random_and_the_scripted_agent_a_game_each_the_same_for_a_seed():
    """Its opponents are drawn per game (against the scripted agent alone it never won, and learned
    to lose): every other seat one policy, both policies met, the same draws for the same seed."""
    env = sb3.make_env(SMALL, {})
    policies = []
    for game in range(40):
        env.reset(seed=7 if game == 0 else None)
        seats = env.unwrapped.opponents
        assert all(policy is seats[0] for policy in seats)
        policies.append(type(seats[0]).__name__)
    assert len(set(policies)) == 2
    again = []
    for game in range(40):
        env.reset(seed=7 if game == 0 else None)
        again.append(type(env.unwrapped.opponents[0]).__name__)
    assert again == policies


def test_an_sb3_model_plays_legal_moves_in_batches_as_its_network_chooses(sb3_model):
    game = card_envs.make_game(SMALL)
    policy = make_policy(f"sb3:{sb3_model}", game)
    observations, masks, _ = VectorGames(game, 64, seed=1).observe()
    rng = np.random.default_rng(0)
    actions = policy.act_batch(observations, masks, rng)
    assert masks[np.arange(64), actions].all()
    one_by_one = [policy.act(o, m, rng) for o, m in zip(observations, masks)]
    assert list(actions) == one_by_one
    from sb3_contrib import MaskablePPO  # sb3's own loader chooses the same (deterministic) actions

    predicted, _ = MaskablePPO.load(sb3_model, device="cpu").predict(observations, action_masks=masks.astype(bool),
                                                                     deterministic=True)
    assert list(actions) == list(predicted)
    rewards = rotated_match(game, [policy, RandomPolicy()], 4, seed=5)  # whole games, every move legal
    assert rewards.shape == (8, 2)


def test_an_sb3_model_of_another_game_or_without_its_sidecar_is_refused(sb3_model, tmp_path):
    with pytest.raises(ValueError, match=f"was trained on '{SMALL}', not 'piles_v0'"):
        make_policy(f"sb3:{sb3_model}", card_envs.make_game("piles_v0"))
    lone = tmp_path / "lone.zip"
    lone.write_bytes(sb3_model.read_bytes())
    with pytest.raises(ValueError, match="has no sidecar lone.json"):
        make_policy(f"sb3:{lone}", card_envs.make_game(SMALL))
    with pytest.raises(ValueError, match="no MaskablePPO model"):
        make_policy(f"sb3:{tmp_path / 'none.zip'}", card_envs.make_game(SMALL))


def test_an_sb3_model_reads_its_own_observation_where_the_matchs_differs(tmp_path):
    """Illimat trains with its recipe's observation pieces; the benchmark's game observes without
    them, so the model reads each position through its own game, as a checkpoint does."""
    env_id = "illimat_v0"
    out = tmp_path / "illimat"
    assert sb3.main([env_id, "--minutes", "0.01", "--out", str(out), "--envs", "1", "--no-progress"]) == 0
    plain = card_envs.make_game(env_id, **protocol.GAMES[env_id]["config"])
    policy = make_policy(f"sb3:{out / 'model.zip'}", plain)
    assert isinstance(policy, OwnObservationPolicy)
    assert policy.game.observation_size != plain.observation_size
    assert rotated_match(plain, [policy, RandomPolicy()], 1, seed=2).shape == (2, 2)


# ----- partial reports and --merge --------------------------------------------------------------------
def test_partial_reports_merge_into_the_report_one_command_makes_of_the_same_runs(tmp_path, capsys):
    games = list(protocol.GAMES)
    every = [arg for env_id in games for spec in ("random", "heuristic") for arg in ("--policy", f"{env_id}={spec}")]
    assert benchmark(every + ["--name", "both", "--out", str(tmp_path / "whole"), "--no-plots", *TINY]) == 0
    for k, part in enumerate((games[:2], games[2:])):  # the same runs, in two partial reports
        argv = [arg for env_id in part for spec in ("random", "heuristic") for arg in ("--policy", f"{env_id}={spec}")]
        assert benchmark(argv + ["--name", "part", "--out", str(tmp_path / "parts" / f"p{k}"), *TINY]) == 0
    partial = json.loads((tmp_path / "parts" / "p0" / "results.json").read_text())
    assert partial["partial"] and partial["games"] == games[:2] and "iqm" not in partial["aggregate"]
    assert not (tmp_path / "parts" / "p0" / "performance_profile.png").exists()
    assert "Partial report" in (tmp_path / "parts" / "p0" / "results.md").read_text()

    assert benchmark(["--merge", str(tmp_path / "parts"), "--name", "both", "--out", str(tmp_path / "merged"),
                      "--reps", "200", "--no-plots"]) == 0
    whole, merged = (json.loads((tmp_path / d / "results.json").read_text()) for d in ("whole", "merged"))
    assert not merged["partial"] and merged["games"] == whole["games"] == games
    for report in (whole, merged):
        for run in report["runs"]:
            for result in run["games"].values():
                result.pop("cpu_s")
    for key in ("protocol_version", "protocol", "runs", "score_matrix", "aggregate"):
        assert merged[key] == whole[key], key
    assert merged["meta"]["deals"] == 1 and len(merged["meta"]["merged_from"]) == 2

    with pytest.raises(SystemExit):  # a partial report is merged first, not compared
        benchmark(["--compare", str(tmp_path / "whole"), str(tmp_path / "parts" / "p0"), "--out", str(tmp_path / "c")])
    assert "partial report" in capsys.readouterr().err


def result(spec: str, score: float) -> dict:
    return {"spec": spec, "raw": score, "raw_ci95": [score, score], "normalized": score,
            "normalized_ci95": [score, score], "per_opponent": {}, "cpu_s": 1.0}


def write_report(folder: Path, games: dict[str, list[float]], deals=None, version=protocol.VERSION) -> None:
    """A hand-made partial report: per game its runs' normalized scores."""
    runs = max(len(v) for v in games.values())
    folder.mkdir(parents=True)
    recorded = {**protocol.protocol(), "version": version}
    report = {"protocol_version": version, "partial": True, "meta": {"name": "x", "deals": deals},
              "protocol": recorded, "games": list(games),
              "runs": [{"run": k, "games": {g: result(f"{g}{k}", s[k]) for g, s in games.items() if k < len(s)}}
                       for k in range(runs)]}
    (folder / "results.json").write_text(json.dumps(report))


def test_merge_concatenates_runs_in_the_stated_order_and_refuses_what_does_not_merge(tmp_path, capsys):
    games = list(protocol.GAMES)
    for seed in (10, 2):  # natural order: seed2 before seed10
        for g, env_id in enumerate(games):
            write_report(tmp_path / "runs" / env_id / f"seed{seed}", {env_id: [seed + g / 10]})
    assert benchmark(["--merge", str(tmp_path / "runs"), "--out", str(tmp_path / "out"), "--reps", "100",
                      "--no-plots"]) == 0
    merged = json.loads((tmp_path / "out" / "results.json").read_text())
    assert merged["score_matrix"] == [[2 + g / 10 for g in range(len(games))], [10 + g / 10 for g in range(len(games))]]
    assert merged["aggregate"]["runs"] == 2 and "iqm" in merged["aggregate"]

    cases = [({games[0]: [0.5]}, {}, "the same number of runs"),
             ({g: [0.5] for g in games}, {"deals": 1}, "reports made with --deals merge only with each other"),
             ({g: [0.5] for g in games}, {"version": "card_envs-bench-v0"}, "their scores do not merge")]
    for k, (scores, options, message) in enumerate(cases):
        write_report(tmp_path / f"bad{k}", scores, **options)
        with pytest.raises(SystemExit):
            benchmark(["--merge", str(tmp_path / "runs"), str(tmp_path / f"bad{k}"), "--out", str(tmp_path / "no")])
        assert message in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit):
        benchmark(["--merge", str(tmp_path / "empty"), "--out", str(tmp_path / "no")])
    assert "no benchmark report" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()


# ----- the sweep --------------------------------------------------------------------------------------
def test_the_sweep_trains_plays_records_and_skips_what_is_done(tmp_path, capsys):
    out, runs = tmp_path / "docs" / "maskable_ppo", tmp_path / "runs"
    argv = ["maskable_ppo", "--minutes", "0.02", "--seeds", "1", "--games", SMALL, "--out", str(out),
            "--runs-dir", str(runs), "--workers", "1", *TINY]
    assert sweep.main(argv) == 0
    result = out / SMALL / "seed1"
    report = json.loads((result / "results.json").read_text())
    assert report["partial"] and report["games"] == [SMALL] and report["meta"]["deals"] == 1
    record = json.loads((result / "train.json").read_text())
    assert record["command"].startswith(f"python3 -m card_envs.train.sb3 {SMALL} --minutes 0.02 --seed 1 --out ")
    assert record["steps"] > 0 and record["train_wall_s"] >= 1.2 and record["machine"]["cores"] >= 1
    assert len(record["machine"]["load_average_start"]) == 3 and record["date"].endswith("Z")
    assert Path(record["model"]) == runs / "maskable_ppo" / SMALL / "seed1" / "model.zip"
    assert report["runs"][0]["games"][SMALL]["spec"] == f"sb3:{record['model']}"
    assert sorted(p.name for p in result.iterdir()) == ["results.json", "results.md", "train.json"]  # no model
    assert "not merged yet" in capsys.readouterr().out

    assert sweep.main(argv) == 0  # again: nothing to do
    assert "done before: skipped" in capsys.readouterr().out
    (result / "results.json").unlink()  # trained, not played (a session cut short): played, not trained again
    assert sweep.main(argv) == 0
    assert "trained before (train.json): playing" in capsys.readouterr().out
    assert json.loads((result / "train.json").read_text()) == record and (result / "results.json").is_file()
    assert sweep.main([*argv[:2], "0.5", *argv[3:]]) == 1  # another budget in the same folder is refused
    assert "not 0.5: use another --out" in capsys.readouterr().err


def test_a_run_records_the_commit_it_started_from_though_the_checkout_moves_during_it(tmp_path, monkeypatch):
    checkout = {"hash": "before"}
    monkeypatch.setattr(sweep, "commit", lambda: dict(checkout))
    real_run = sweep.subprocess.run

    def training_while_the_checkout_moves(*args, **kwargs):
        done = real_run(*args, **kwargs)
        checkout["hash"] = "after"
        return done

    monkeypatch.setattr(sweep.subprocess, "run", training_while_the_checkout_moves)
    record = sweep.train("maskable_ppo", SMALL, 1, 0.02, tmp_path / "run", progress=False)
    assert checkout["hash"] == "after" and record["commit"] == {"hash": "before"}
