"""Self-play PPO: GAE per seat, masking, checkpoints, resume, and a short run that must learn."""

from __future__ import annotations

import copy
import dataclasses
import math
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from card_envs.agents import make_policy
from card_envs.agents.match import rotated_match, win_draw_loss
from card_envs.agents.neural import ActorCritic, NeuralPolicy, active_columns, load_checkpoint, save_checkpoint
from card_envs.agents.policy import RandomPolicy
import card_envs
from card_envs.vector import VectorGames
from card_envs.train import acting
from card_envs.train.acting import Collector, Rollout, critic_inputs, critic_size
from card_envs.train.configs import CLONING, DEFAULTS, RECIPES, without_cloning
from card_envs.train.ppo import Args, Trainer, elo_ratings, main, parse_args, seat_gae, start, training_seconds

ROOT = Path(__file__).resolve().parents[2]


def tiny_args(tmp_path, **overrides) -> Args:
    values = dict(run_name="t", runs_dir=str(tmp_path), total_steps=2048, num_games=16, num_steps=16,
                  hidden=(32,), eval_every=0, eval_deals=4, final_eval_deals=4, checkpoint_every=10**9, progress=False,
                  opponent_share=0.5, snapshot_every=1, actors=0, engine="reference")
    return Args(**{**values, **overrides})


def assert_checkpoint_acts_as_the_trainer(path, trainer) -> None:
    """The policy loaded from ``path`` chooses as the trainer's network on fresh observations."""
    loaded = NeuralPolicy.from_checkpoint(path, trainer.args.env_id)
    observations, masks, _ = VectorGames(trainer.game, 32, seed=1).observe()
    rng = np.random.default_rng(0)
    np.testing.assert_array_equal(loaded.act_batch(observations, masks, rng),
                                  NeuralPolicy(trainer.network).act_batch(observations, masks, rng))


# ----- GAE along each seat's own trajectory -----------------------------------------------------
def test_seat_gae_on_a_hand_made_two_seat_game():
    # One game, seats alternate 0,1,0,1,0; the game ends with step 4: seat 0 wins (+1), seat 1 -1.
    v = np.array([[0.1], [0.2], [0.3], [-0.4], [0.5]])
    seats = np.array([[0], [1], [0], [1], [0]])
    done = np.array([[False], [False], [False], [False], [True]])
    returns = np.zeros((5, 1, 2))
    returns[4, 0] = [1.0, -1.0]
    g, lam = 0.9, 0.5
    a4 = 1.0 - 0.5                       # seat 0's last decision: its reward, nothing after
    a3 = -1.0 - (-0.4)                   # seat 1's last decision gets seat 1's terminal reward
    a2 = (g * 0.5 - 0.3) + g * lam * a4  # seat 0's successor of step 2 is step 4, not step 3
    a1 = (g * -0.4 - 0.2) + g * lam * a3
    a0 = (g * 0.3 - 0.1) + g * lam * a2
    got = seat_gae(v, seats, done, returns, bootstrap=np.array([[9.0, 9.0]]), gamma=g, lam=lam)
    np.testing.assert_allclose(got[:, 0], [a0, a1, a2, a3, a4])


def test_seat_gae_bootstraps_unfinished_games_and_restarts_after_an_end():
    # Game A: seat 1 acts at step 0, seat 0 at step 1 and it ends (seat 0 +1, seat 1 -1).
    # Game B starts at step 2: seat 0 acts at 2, seat 1 at 3, unfinished: bootstrap [0.7, -0.2].
    v = np.array([[0.25], [0.5], [0.1], [0.3]])
    seats = np.array([[1], [0], [0], [1]])
    done = np.array([[False], [True], [False], [False]])
    returns = np.zeros((4, 1, 2))
    returns[1, 0] = [1.0, -1.0]
    g, lam = 1.0, 0.8
    a3 = -0.2 - 0.3
    a2 = 0.7 - 0.1
    a1 = 1.0 - 0.5
    a0 = -1.0 - 0.25  # seat 1's only decision in game A: no bootstrap from game B leaks in
    got = seat_gae(v, seats, done, returns, bootstrap=np.array([[0.7, -0.2]]), gamma=g, lam=lam)
    np.testing.assert_allclose(got[:, 0], [a0, a1, a2, a3])


def test_team_rewards_reach_every_seat_of_the_team():
    # Four seats, one decision each, game ends: seats 0 and 2 (+1) vs 1 and 3 (-1).
    v = np.zeros((4, 1))
    seats = np.arange(4)[:, None]
    done = np.array([[False], [False], [False], [True]])
    returns = np.zeros((4, 1, 4))
    returns[3, 0] = [1, -1, 1, -1]
    got = seat_gae(v, seats, done, returns, np.zeros((1, 4)), 1.0, 0.95)
    np.testing.assert_allclose(got[:, 0], [1, -1, 1, -1])


# ----- masking -----------------------------------------------------------------------------------
def test_rollouts_never_sample_an_illegal_action(tmp_path):
    args = tiny_args(tmp_path)
    game = card_envs.make_game(args.env_id)
    collector = Collector(game, args, seed=0, pool_states=[])
    rollout = Rollout.empty(args.num_steps, args.num_games, game)
    collector.collect(rollout)
    taken = np.take_along_axis(rollout.masks, rollout.actions[..., None], axis=-1)[..., 0]
    assert taken.all()
    assert np.isfinite(rollout.log_probs[rollout.learner]).all()
    assert rollout.learner.any() and not rollout.learner.all()  # the opponent pool played too


@pytest.mark.parametrize("greedy", [True, False])
def test_neural_policy_only_picks_legal_actions(greedy):
    rng = np.random.default_rng(0)
    net = ActorCritic(20, 50, (16,))
    with torch.no_grad():
        net.policy_head.bias.fill_(0.0)
        net.policy_head.bias[7] = 50.0  # a very attractive action that is usually illegal
    policy = NeuralPolicy(net, greedy=greedy)
    masks = (rng.random((500, 50)) < 0.1).astype(np.int8)
    masks[np.arange(500), rng.integers(50, size=500)] = 1
    actions = policy.act_batch(rng.random((500, 20)).astype(np.float32), masks, rng)
    assert masks[np.arange(500), actions].all()
    with pytest.raises(ValueError, match="no legal action"):
        policy.act_batch(np.zeros((1, 20), np.float32), np.zeros((1, 50), np.int8), rng)


def test_the_first_layer_on_the_active_columns_alone_gives_the_same_heads_and_gradients():
    """`active_columns`: the learner's heads on the observation's non-zero columns alone are the
    full observation's, and so are the gradients (those of always-zero columns exactly 0), up to
    float rounding; where every column is active there is nothing to skip."""
    torch.manual_seed(0)
    used = torch.rand(40) < 0.3
    observations = torch.rand(32, 40) * used
    observations[:, used.nonzero()[0]] = torch.eye(32)[:, 0:1]  # active in one row only
    columns = active_columns(observations)
    assert torch.equal(columns, used.nonzero().squeeze(1))
    net = ActorCritic(40, 9, (16, 8))
    results = []
    for inputs, given in ((observations, None), (observations[:, columns], columns)):
        twin = copy.deepcopy(net)
        logits, values = twin.heads(inputs, None, given)
        (logits.square().sum() + values.sum()).backward()
        results.append([logits, values] + [p.grad for p in twin.parameters()])
    for full, sliced in zip(*results):
        torch.testing.assert_close(sliced, full)
    inactive = torch.ones(40, dtype=torch.bool)
    inactive[columns] = False
    assert not results[1][2][:, inactive].any()  # the first layer's weights on always-zero columns
    assert active_columns(torch.rand(4, 40) + 1) is None
    assert ActorCritic(40, 9, (16,)).takes_columns and not ActorCritic(40, 9, ()).takes_columns


# ----- the privileged critic (--critic state) -------------------------------------------------
def test_the_policy_never_reads_the_privileged_critic_input():
    net = ActorCritic(20, 50, (16,), critic_size=30)
    observations, masks = torch.rand(8, 20), torch.rand(8, 50) < 0.5
    masks[:, 0] = True
    logits_a, values_a = net(observations, masks, torch.rand(8, 30))
    logits_b, values_b = net(observations, masks, torch.rand(8, 30))
    torch.testing.assert_close(logits_a, logits_b)
    assert not torch.allclose(values_a, values_b)  # the value does read it
    assert net(observations, masks)[1] is None  # acting needs no critic input at all


def test_critic_inputs_are_the_full_state_and_the_seat():
    game = card_envs.make_game("three_piles_v0")
    games = VectorGames(game, 4, seed=0)
    states = games.state_tensors()
    inputs = critic_inputs(states, np.array([0, 1, 1, 0]), 2)
    assert inputs.shape == (4, critic_size(game, "state")) and critic_size(game, "observation") is None
    np.testing.assert_array_equal(inputs[:, :-2], states)
    np.testing.assert_array_equal(inputs[:, -2:], [[1, 0], [0, 1], [0, 1], [1, 0]])
    np.testing.assert_array_equal(states[2], games.states[2].state_tensor())


def test_a_run_with_the_privileged_critic_checkpoints_and_resumes(tmp_path):
    args = tiny_args(tmp_path, critic="state", total_steps=512)
    trainer = start(args, set())
    trainer.train()
    collector = Collector(trainer.game, args, seed=0, pool_states=trainer.pool_states)
    rollout = Rollout.empty(args.num_steps, args.num_games, trainer.game, critic=trainer.network.critic_size)
    collector.collect(rollout)
    assert rollout.critic_inputs.shape[-1] == critic_size(trainer.game, "state") and rollout.critic_inputs.any()
    path = Path(tmp_path) / "t" / "checkpoints" / "latest.pt"
    assert load_checkpoint(path)["critic_size"] == trainer.network.critic_size
    assert_checkpoint_acts_as_the_trainer(path, trainer)
    resumed = start(Args(run_name="t", runs_dir=str(tmp_path), resume=True, total_steps=1024, progress=False),
                    {"total_steps"})
    assert resumed.args.critic == "state" and resumed.step == 512
    with pytest.raises(ValueError, match="critic"):
        Trainer(tiny_args(tmp_path), load_checkpoint(path))  # a shared-trunk run can't take it


# ----- checkpoints -------------------------------------------------------------------------------
def test_checkpoint_save_load_gives_the_same_actions(tmp_path):
    trainer = Trainer(tiny_args(tmp_path))
    path = trainer.save()
    loaded = NeuralPolicy.from_checkpoint(path, "three_piles_v0")
    original = NeuralPolicy(trainer.network)
    observations, masks, _ = VectorGames(trainer.game, 32, seed=0).observe()
    rng = np.random.default_rng(0)
    np.testing.assert_array_equal(loaded.act_batch(observations, masks, rng),
                                  original.act_batch(observations, masks, rng))
    checkpoint = load_checkpoint(path)
    assert checkpoint["env_id"] == "three_piles_v0" and checkpoint["step"] == 0
    assert checkpoint["observation_size"] == trainer.game.observation_size
    assert checkpoint["args"]["hidden"] == [32]


def test_a_checkpoint_for_another_env_or_version_is_refused(tmp_path):
    path = Trainer(tiny_args(tmp_path)).save()
    with pytest.raises(ValueError, match="trained on 'three_piles_v0', not 'piles_v0'"):
        load_checkpoint(path, "piles_v0")
    checkpoint = torch.load(path, weights_only=True)
    checkpoint["env_id"] = "three_piles_v7"  # a version this library does not have
    save_checkpoint(tmp_path / "old.pt", checkpoint)
    with pytest.raises(ValueError, match="three_piles_v7"):
        NeuralPolicy.from_checkpoint(tmp_path / "old.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="not a readable card_envs checkpoint"):
        load_checkpoint(tmp_path / "junk.pt")


def test_resume_refuses_a_run_of_another_env(tmp_path, capsys):
    Trainer(tiny_args(tmp_path)).save()
    with pytest.raises(SystemExit) as exit_info:
        main(["piles_v0", "--resume", "--run-name", "t", "--runs-dir", str(tmp_path), "--no-progress"])
    assert exit_info.value.code == 2 and "not 'piles_v0'" in capsys.readouterr().err


def test_checkpoints_are_written_atomically(tmp_path, monkeypatch):
    def broken_save(obj, f):
        Path(f).write_bytes(b"half a file")
        raise OSError("disk full")

    monkeypatch.setattr(torch, "save", broken_save)
    with pytest.raises(OSError):
        save_checkpoint(tmp_path / "c.pt", {"env_id": "three_piles_v0"})
    assert list(tmp_path.iterdir()) == []


def children_of(pid: int) -> list[int]:
    """Child process ids, from /proc (Linux)."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                children.append(int(entry.name))
    return children


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads child processes from /proc")
def test_resume_after_a_killed_run_continues_the_step_count(tmp_path):
    command = [sys.executable, "-m", "card_envs.train", "--run-name", "killed", "--runs-dir", str(tmp_path),
               "--num-games", "16", "--num-steps", "16", "--hidden", "32", "--eval-every", "0",
               "--eval-deals", "2", "--final-eval-deals", "2", "--checkpoint-every", "256", "--no-progress"]
    process = subprocess.Popen(command + ["--total-steps", "100000000"], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    checkpoints = tmp_path / "killed" / "checkpoints"
    deadline = time.time() + 180  # a wait, not a measure: generous for a loaded machine
    while len(list(checkpoints.glob("step_*.pt"))) < 2 and time.time() < deadline:
        assert process.poll() is None, process.stderr.read().decode()
        time.sleep(0.2)
    actors = children_of(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.time() + 10  # the orphaned actor process notices and exits too
    while any(Path(f"/proc/{pid}").exists() for pid in actors) and time.time() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in actors if Path(f"/proc/{pid}").exists()]
    killed_at = load_checkpoint(checkpoints / "latest.pt")["step"]
    assert killed_at >= 256
    target = killed_at + 512
    done = subprocess.run(command[:3] + ["--resume", "--run-name", "killed", "--runs-dir", str(tmp_path),
                                        "--total-steps", str(target), "--no-progress"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    final = load_checkpoint(checkpoints / "latest.pt")
    assert final["step"] == target and final["update"] == target // 256
    assert final["args"]["hidden"] == [32]  # the saved arguments are kept on resume


# ----- arguments ---------------------------------------------------------------------------------
def test_a_resumed_time_limited_run_goes_on_with_its_clock_and_schedules(tmp_path):
    """--max-minutes counts the run's training time across resumes: a run resumed with half its
    training time used trains for the other half, its learning rate (and teacher weight) going on
    from half-way down rather than restarting."""
    limit = 0.05  # minutes: 3 s, of which training has 2.7
    budget = training_seconds(limit)
    args = tiny_args(tmp_path, total_steps=10**9, max_minutes=limit, teacher="heuristic", teacher_until=1.0)
    trainer = Trainer(args)
    trainer.trained_seconds = 0.5 * budget  # as restored from a checkpoint saved half-way
    schedule, clock = [], []
    learn = trainer.learn

    def spy(rollout):
        schedule.append((trainer.optimizer.param_groups[0]["lr"] / args.learning_rate, trainer.teacher_coef))
        clock.append(trainer.trained_seconds)  # the run's training time when this update began
        return learn(rollout)

    trainer.learn = spy
    trainer.train()
    assert 0.4 < schedule[0][0] <= 0.5 and 0.4 < schedule[0][1] <= 0.5, schedule[0]
    # What the code bounds, not the wall clock: updates begin only inside the budget, the first
    # one at the half already used, and the run stops once the budget is spent.
    assert 0.5 * budget <= clock[0] and all(t < budget for t in clock), (clock, budget)
    saved = load_checkpoint(Path(tmp_path) / "t" / "checkpoints" / "latest.pt")["trained_seconds"]
    assert budget <= saved
    resumed = start(Args(run_name="t", runs_dir=str(tmp_path), resume=True), {"run_name", "resume"})
    assert resumed.trained_seconds == saved


@pytest.mark.parametrize("argv, message", [
    (["--num-games", "0"], "--num-games must be at least 1"),
    (["--opponent-share", "1.5"], "--opponent-share must be in [0, 1]"),
    (["--env-config", '{"num_players": 9}'], "num_players"),
    (["--resume"], "--resume needs --run-name"),
    (["--critic", "oracle"], "--critic must be 'observation' or 'state'"),
    (["--compute-dtype", "float16"], "--compute-dtype must be one of float32, bfloat16, auto; got 'float16'"),
])
def test_bad_arguments_get_a_clear_error(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(argv + ["--runs-dir", str(tmp_path), "--no-progress"])
    assert exit_info.value.code == 2 and message in capsys.readouterr().err


def test_per_game_defaults_apply_and_the_command_line_wins():
    args, _ = parse_args([])
    assert args.env_id == "three_piles_v0" and args.total_steps == DEFAULTS["three_piles_v0"]["total_steps"]
    args, given = parse_args(["--total-steps", "5", "--hidden", "8", "8"])
    assert args.total_steps == 5 and args.hidden == (8, 8) and given == {"total_steps", "hidden"}


def test_a_named_recipe_replaces_the_games_default_and_the_command_line_still_wins(capsys):
    """``--recipe t1a`` (Dominion on its one default kingdom): the recipe whole, not merged into the
    default one (random kingdoms); it is valid and recorded; an unknown name is a usage error naming
    the game's."""
    args, given = parse_args(["dominion_v0", "--recipe", "t1a", "--teacher-until", "0.2"])
    args.validate()
    expected = {**RECIPES["dominion_v0"]["t1a"], "teacher_until": 0.2}
    assert {k: getattr(args, k) for k in expected} == expected and args.recipe == "t1a"
    assert args.env_config == {} and args.opponents == ("heuristic",) and args.pool_size == 0
    default = parse_args(["dominion_v0"])[0]
    assert default.env_config == {"kingdom": "random_train"} and len(default.opponents) == 7
    for argv, message in ((["dominion_v0", "--recipe", "nope"], "dominion_v0's recipes are ['t1a', 'reward_only']"),
                          (["piles_v0", "--recipe", "t1a"], "piles_v0's recipes are ['reward_only']")):
        with pytest.raises(SystemExit) as exit_info:
            parse_args(argv)
        assert exit_info.value.code == 2 and message in capsys.readouterr().err


def test_without_cloning_leaves_a_valid_recipe_that_trains_from_scratch():
    """What the exploiter and the speed benchmarks take from a game's defaults: every cloning
    setting is an Args field (a renamed one would slip through), none is left, and the rest is a
    valid recipe (Illimat's soft-label temperature would be refused without its cloning)."""
    fields = {f.name for f in dataclasses.fields(Args)}
    assert set(CLONING) <= fields
    for env_id, config in DEFAULTS.items():
        kept = without_cloning(config)
        assert not set(kept) & set(CLONING) and {k: config[k] for k in kept} == kept
        args = Args(**kept, env_id=env_id)
        args.validate()
        assert args.pretrain_games == 0 and args.dagger_rounds == 0
    assert DEFAULTS["illimat_v0"]["pretrain_games"] > 0  # the case it exists for


# ----- it learns ---------------------------------------------------------------------------------
@pytest.mark.parametrize("compute_dtype", ["float32", "bfloat16"])
def test_a_short_run_beats_random_clearly(tmp_path, compute_dtype):
    """~25 s: an untrained policy wins about half its games against random; this must win 70%,
    with the learner's matrix products in float32 or in bfloat16 (autocast)."""
    args = tiny_args(tmp_path, total_steps=300_000, num_games=64, num_steps=16, hidden=(64,),
                     learning_rate=2e-3, opponent_share=0.5, opponents=("random",), seed=4,
                     compute_dtype=compute_dtype)
    trainer = start(args, set())
    game = trainer.game

    def win_rate() -> float:
        rewards = rotated_match(game, [NeuralPolicy(trainer.network), RandomPolicy()], 150, seed=777)[:, 0]
        return win_draw_loss(rewards)[0] / len(rewards)

    before = win_rate()
    trainer.train()
    after = win_rate()
    assert before < 0.65 and after >= 0.7, (before, after)
    assert trainer.step >= 300_000 and (Path(tmp_path) / "t" / "checkpoints" / "latest.pt").exists()


def test_the_actor_process_trains_too(tmp_path):
    """The two-process mode (the default) runs, checkpoints and shuts its actor down."""
    trainer = start(tiny_args(tmp_path, actors=1, total_steps=4096), set())
    trainer.train()
    assert trainer.step == 4096 and trainer.actor is None
    assert load_checkpoint(Path(tmp_path) / "t" / "checkpoints" / "latest.pt")["update"] == 16


def test_several_actor_processes_each_fill_their_share_of_the_games(tmp_path):
    """--actors 2: child w plays games [8w, 8w + 8) of the rollout, exactly as one collector of 8
    games with child w's seed plays them in this process (child 0 with the actor's own seed)."""
    args = tiny_args(tmp_path, actors=2, num_games=16)
    game = card_envs.make_game(args.env_id)
    weights = Trainer(args).network.state_dict()
    actor = acting.ProcessActor(game, args, 7, [], weights, 0, teaching=False)
    try:
        rollout, stats = actor.next_rollout()
    finally:
        actor.close()
    assert not any(p.is_alive() for p in actor.processes)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as in the children: the same float sums, so the same samples
    try:
        for w, seed in enumerate([7, int(np.random.default_rng([7, 1]).integers(2**63))]):
            half = dataclasses.replace(args, num_games=8)
            collector = Collector(game, half, seed, [])
            collector.use_weights(weights, False)
            alone = Rollout.empty(args.num_steps, 8, game)
            collector.collect(alone)
            for name in ("observations", "masks", "actions", "log_probs", "values", "seats", "learner", "done",
                         "returns"):
                assert np.array_equal(getattr(rollout, name)[:, 8 * w:8 * w + 8], getattr(alone, name)), (w, name)
            assert np.array_equal(rollout.bootstrap[8 * w:8 * w + 8], alone.bootstrap)
    finally:
        torch.set_num_threads(threads)
    assert len(stats["episode_length"]) == int(rollout.done.sum())


def test_a_run_with_two_actor_processes_trains_and_shuts_them_down(tmp_path):
    """Also resumed with another number of actors (a resource, like --threads, not the run's recipe)."""
    trainer = start(tiny_args(tmp_path, actors=2, total_steps=4096), set())
    trainer.train()
    assert trainer.step == 4096 and trainer.actor is None
    path = Path(tmp_path) / "t" / "checkpoints" / "latest.pt"
    assert load_checkpoint(path)["update"] == 16
    resumed = start(Args(run_name="t", runs_dir=str(tmp_path), resume=True, total_steps=5120, progress=False,
                         actors=4), {"total_steps", "actors"})
    assert resumed.args.actors == 4
    resumed.train()
    assert load_checkpoint(path)["step"] == 5120 and load_checkpoint(path)["args"]["actors"] == 4


@pytest.mark.parametrize("actors", [-1, 3])
def test_actors_must_divide_the_games(tmp_path, actors):
    with pytest.raises(ValueError, match=r"--actors must be 0 or a divisor of --num-games \(16\), got"):
        tiny_args(tmp_path, actors=actors).validate()


def test_the_shipped_checkpoint_loads_and_still_plays_well():
    """agents/checkpoints/three_piles_v0.pt: a change of the observation layout would break it."""
    policy = NeuralPolicy.from_checkpoint(ROOT / "agents" / "checkpoints" / "three_piles_v0.pt", "three_piles_v0")
    game = card_envs.make_game("three_piles_v0")
    rewards = rotated_match(game, [policy, RandomPolicy()], 100, seed=31)[:, 0]
    assert win_draw_loss(rewards)[0] / len(rewards) >= 0.9
    # It won 0.766 of 2,000 games against the scripted agent: 0.65 is about four standard errors
    # (of 200 games) lower.
    rewards = rotated_match(game, [policy, make_policy("heuristic", game)], 100, seed=31)[:, 0]
    assert win_draw_loss(rewards)[0] / len(rewards) >= 0.65


def test_the_shipped_piles_checkpoint_loads_and_still_plays_well():
    """agents/checkpoints/piles_v0.pt, the README command's final checkpoint, holding both seats
    of its team: 0.985 against random and 0.825 against the scripted agent over 2,000 games each;
    the bounds are about four standard errors of 200 games lower."""
    policy = NeuralPolicy.from_checkpoint(ROOT / "agents" / "checkpoints" / "piles_v0.pt", "piles_v0")
    game = card_envs.make_game("piles_v0")
    for baseline, bound in (("random", 0.93), ("heuristic", 0.71)):
        other = make_policy(baseline, game)  # teams: seats 0 and 2 against 1 and 3, both seatings
        rewards = rotated_match(game, [policy, other, policy, other], 100, seed=31, rotations=[0, 1])[:, 0]
        assert win_draw_loss(rewards)[0] / len(rewards) >= bound, baseline


def test_the_shipped_dominion_checkpoint_loads_and_still_plays_well():
    """agents/checkpoints/dominion_v0.pt, the default command's final checkpoint (random kingdoms,
    kickstarted by the scripted agent, then against every scripted bot): 1.000 against random and
    0.526 against the scripted agent on T1-A, 0.678 against it on held-out random kingdoms, over
    2,000 games each; the bounds are about four standard errors of 100 games lower."""
    policy = NeuralPolicy.from_checkpoint(ROOT / "agents" / "checkpoints" / "dominion_v0.pt", "dominion_v0")
    for config, baseline, bound in (({}, "random", 0.93), ({}, "heuristic", 0.33),
                                    ({"kingdom": "random_test"}, "heuristic", 0.49)):
        game = card_envs.make_game("dominion_v0", **config)
        rewards = rotated_match(game, [policy, make_policy(baseline, game)], 50, seed=31)[:, 0]
        assert win_draw_loss(rewards)[0] / len(rewards) >= bound, (config, baseline)


def test_the_shipped_illimat_checkpoint_loads_and_still_plays_well():
    """agents/checkpoints/illimat_v0.pt, the README command's final checkpoint fine-tuned for an
    hour against `lookahead` (entity heads for the card and field actions, cloned from the
    `lookahead` bot, then PPO against `heuristic` and `lookahead`, then against `lookahead`), on
    the game with the harvest, play and threat pieces as it was trained: 1.000 against random (240
    games) and 0.720 against the scripted agent (2,000 games); the bounds are
    about three standard errors below the checkpoint before it (0.530) over 12 and 32 games (the
    reference computes the pieces in Python, 1.6 s a game). On a game without the pieces it reads
    its own observation (see tests/evaluate/test_checkpoint_config.py)."""
    config = {"harvest_features": True, "play_features": True, "threat_features": True}
    game = card_envs.make_game("illimat_v0", **config)
    policy = make_policy(str(ROOT / "agents" / "checkpoints" / "illimat_v0.pt"), game)
    for baseline, deals, bound in (("random", 6, 0.9), ("heuristic", 16, 0.27)):
        rewards = rotated_match(game, [policy, make_policy(baseline, game)], deals, seed=31)[:, 0]
        assert win_draw_loss(rewards)[0] / len(rewards) >= bound, baseline
    for other in ({}, {"harvest_features": True, "play_features": True}):
        mine = make_policy(str(ROOT / "agents" / "checkpoints" / "illimat_v0.pt"), card_envs.make_game("illimat_v0", **other))
        assert mine.needs_state and mine.game.config == game.config


def test_the_shipped_split_the_hoard_checkpoint_loads_and_still_plays_well():
    """agents/checkpoints/split_the_hoard_v0.pt, the README command's final checkpoint (cloned
    from the scripted agent, then PPO in self-play and against the pool), in one seat against two
    copies of a baseline: it finished first in 0.790 of 3,000 games against random and 0.521
    against the scripted agent (parity 1/3); the bounds are about three standard errors of 150
    games lower."""
    game = card_envs.make_game("split_the_hoard_v0")
    policy = make_policy(str(ROOT / "agents" / "checkpoints" / "split_the_hoard_v0.pt"), game)
    for baseline, bound in (("random", 0.68), ("heuristic", 0.40)):
        other = make_policy(baseline, game)
        rewards = rotated_match(game, [policy, other, other], 50, seed=31)[:, 0]
        assert win_draw_loss(rewards)[0] / len(rewards) >= bound, baseline


def test_the_curve_script_plots_a_logged_run(tmp_path, capsys):
    from card_envs.train import curve

    argv = ["--runs-dir", str(tmp_path), "--run-name", "c", "--total-steps", "1024", "--num-games", "16",
            "--num-steps", "16", "--hidden", "16", "--eval-every", "512", "--eval-deals", "2",
            "--final-eval-deals", "2", "--actors", "0", "--no-progress"]
    assert main(argv) == 0
    assert curve.main([str(tmp_path / "c"), "--out", str(tmp_path / "plots")]) == 0
    table = (tmp_path / "plots" / "curve.md").read_text()
    assert "| 512 |" in table and "| 1,024 |" in table and "vs heuristic" in table
    assert (tmp_path / "plots" / "curve.png").read_bytes()[:4] == b"\x89PNG"
    assert curve.main([str(tmp_path)]) == 2 and "no training log" in capsys.readouterr().err
    assert curve.main([str(tmp_path / "nope")]) == 2 and "is not a folder" in capsys.readouterr().err
    # several runs (a recipe's seeds) in one plot, a table section each
    argv[argv.index("c")] = "d"
    assert main(argv + ["--seed", "2"]) == 0
    assert curve.main([str(tmp_path / "c"), str(tmp_path / "d"), "--out", str(tmp_path / "seeds")]) == 0
    both = (tmp_path / "seeds" / "curve.md").read_text()
    assert "## c" in both and "## d" in both and both.count("| 1,024 |") == 2
    assert (tmp_path / "seeds" / "curve.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(SystemExit):  # several runs and no --out: where would they go?
        curve.main([str(tmp_path / "c"), str(tmp_path / "d")])
    assert "several runs need --out" in capsys.readouterr().err


def test_elo_ratings_order_the_players_and_anchor_random_at_zero():
    ratings = elo_ratings({("policy", "random"): (200, 0, 0), ("policy", "heuristic"): (136, 0, 64),
                           ("random", "heuristic"): (1, 2, 197)})
    assert ratings["random"][0] == 0
    assert 0 < ratings["heuristic"][0] < ratings["policy"][0]
    low, high = ratings["policy"][1:]
    assert low < ratings["policy"][0] < high
    # a 75% score is a 400 log10(3) = 191 Elo gap, give or take the one virtual draw per pair
    even = elo_ratings({("a", "random"): (300, 0, 100)})
    assert abs(even["a"][0] - 191) < 3


def test_periodic_evaluation_logs_an_elo_and_plays_the_baselines_match_once(tmp_path):
    trainer = Trainer(tiny_args(tmp_path))
    result = trainer.evaluate(20)
    assert result["elo_ci_low"] < result["elo"] < result["elo_ci_high"]
    assert list(trainer.baseline_results) == [("random", "heuristic")]
    played = dict(trainer.baseline_results)
    trainer.evaluate(10)
    assert trainer.baseline_results == played


@pytest.mark.parametrize("faster", [True, False])
def test_compute_dtype_auto_is_bfloat16_only_where_it_is_faster(tmp_path, monkeypatch, faster):
    """3 Piles' default, "auto": bfloat16 only where this CPU multiplies it faster than float32;
    the run records what it resolved to, and a resume keeps it."""
    monkeypatch.setattr(acting, "bfloat16_faster", lambda: faster)
    assert DEFAULTS["three_piles_v0"]["compute_dtype"] == "auto"
    trainer = start(tiny_args(tmp_path, compute_dtype="auto", total_steps=1024), set())
    expected = "bfloat16" if faster else "float32"
    assert trainer.args.compute_dtype == expected
    trainer.train()
    monkeypatch.setattr(acting, "bfloat16_faster", lambda: not faster)
    resumed = start(Args(run_name="t", runs_dir=str(tmp_path), resume=True), {"run_name", "resume"})
    assert resumed.args.compute_dtype == expected


@pytest.mark.parametrize("native, bf16_seconds, expected", [(False, 0.1, False), (True, 0.1, True), (True, 0.3, False)])
def test_bfloat16_is_faster_only_when_native_and_timed_faster(monkeypatch, native, bf16_seconds, expected):
    """Emulated bfloat16 (an AVX2-only CPU) is never timed; a CPU that reports AVX512-BF16 but
    multiplies bfloat16 slower than float32 (seen on an Intel Xeon) keeps float32."""
    monkeypatch.setattr(acting, "native_bfloat16", lambda: native)
    monkeypatch.setattr(acting, "product_seconds", lambda dtype: bf16_seconds if dtype == torch.bfloat16 else 0.2)
    assert acting.bfloat16_faster.__wrapped__() is expected


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_product_seconds_runs_the_products_in_each_dtype(dtype):
    seconds = acting.product_seconds(dtype, rows=64, width=16, repeats=2)
    assert math.isfinite(seconds) and seconds > 0


def test_a_finished_run_resumed_keeps_its_final_evaluation(tmp_path):
    """Nothing left to train: the resumed run neither trains nor plays (and logs) its final
    evaluation again at the same step."""
    first = Trainer(tiny_args(tmp_path, total_steps=512))
    results = first.train()
    resumed = start(Args(run_name="t", runs_dir=str(tmp_path), resume=True), {"run_name", "resume"})
    resumed.evaluate = lambda deals: pytest.fail("the final evaluation was played again")
    assert resumed.train() == results and resumed.step == first.step
