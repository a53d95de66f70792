"""Training on the batched engines (--engine batch): the choice of engine, rollouts, a run that
checkpoints and resumes, and the learning test on the batched engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import card_envs
from card_envs.agents.match import rotated_match, win_draw_loss
from card_envs.agents.neural import NeuralPolicy, load_checkpoint, save_checkpoint
from card_envs.agents.policy import RandomPolicy
from card_envs import batch
from card_envs.core.game import ArgumentError
from card_envs.vector import VectorGames
from card_envs.train.acting import BatchGames, Collector, Rollout, game_engine
from card_envs.train.ppo import Args, Trainer, main, start
from tests.train.test_train import tiny_args

pytestmark = pytest.mark.skipif(not batch.has_numba(), reason="the batched engines' CPU path needs numba")


def test_auto_is_the_batched_engine_where_the_game_has_one():
    assert game_engine("three_piles_v0", "auto") == game_engine("piles_v0", "auto") == "batch"
    assert game_engine("split_the_hoard_v0", "auto") == game_engine("dominion_v0", "auto") == "batch"
    assert game_engine("illimat_v0", "auto") == "batch"
    pieces = {"harvest_features": True, "play_features": True, "threat_features": True}
    assert game_engine("illimat_v0", "auto", pieces) == "batch"
    assert game_engine("three_piles_v0", "reference") == "reference"


def test_engine_batch_for_a_configuration_it_does_not_batch_is_a_usage_error(tmp_path, capsys, monkeypatch):
    from card_envs import batch

    # an option an engine does not compute (none today): auto plays the reference engine, batch refuses
    monkeypatch.setitem(batch.UNBATCHED_OPTIONS, "illimat_v0", ("threat_features",))
    assert game_engine("illimat_v0", "auto", {"threat_features": True}) == "reference"
    assert game_engine("illimat_v0", "auto", {"harvest_features": True}) == "batch"
    with pytest.raises(ArgumentError, match="does not compute threat_features yet"):
        batch.make("illimat_v0", 2, threat_features=True)
    with pytest.raises(SystemExit) as exit_info:
        main(["illimat_v0", "--engine", "batch", "--runs-dir", str(tmp_path), "--no-progress"])
    error = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert "batched engine does not compute threat_features yet" in error
    with pytest.raises(SystemExit) as exit_info:
        main(["--engine", "gpu", "--runs-dir", str(tmp_path), "--no-progress"])
    assert exit_info.value.code == 2 and "--engine must be one of auto, batch, reference" in capsys.readouterr().err


@pytest.mark.parametrize("env_id, config, num_steps", [
    ("three_piles_v0", {}, 96), ("three_piles_v0", {"num_players": 3}, 96), ("piles_v0", {"num_players": 4}, 96),
    ("split_the_hoard_v0", {"num_players": 3}, 240), ("split_the_hoard_v0", {"num_players": 5}, 240),
    ("dominion_v0", {}, 400), ("dominion_v0", {"num_players": 4, "kingdom": "T3"}, 400)])
def test_batched_rollouts_are_legal_and_the_pool_plays(tmp_path, env_id, config, num_steps):
    args = tiny_args(tmp_path, env_id=env_id, env_config=config, engine="batch", opponents=("heuristic", "random"),
                     num_steps=num_steps)  # long enough for games to end
    game = card_envs.make_game(env_id, **config)
    collector = Collector(game, args, seed=0, pool_states=[])
    assert isinstance(collector.games, BatchGames)
    rollout = Rollout.empty(args.num_steps, args.num_games, game)
    stats = collector.collect(rollout)
    taken = np.take_along_axis(rollout.masks, rollout.actions[..., None], axis=-1)[..., 0]
    assert taken.all() and np.isfinite(rollout.log_probs[rollout.learner]).all()
    assert rollout.learner.any() and not rollout.learner.all()  # the opponent pool played too
    assert (rollout.seats < game.num_players).all()
    # a finished game pays every seat, as the reference's returns do; teammates get the same
    finished = rollout.returns[rollout.done]
    assert len(finished) and len(stats["episode_length"]) == len(finished)
    for s in range(game.num_players):
        mates = [t for t in range(game.num_players) if game.team_of(t) == game.team_of(s)]
        assert (finished[:, mates] == finished[:, [s]]).all()
    assert rollout.bootstrap.shape == (args.num_games, game.num_players) and np.isfinite(rollout.bootstrap).all()


def test_the_reference_engine_is_unchanged(tmp_path):
    """--engine reference steps VectorGames, dealt from the collector's rng exactly as before."""
    args = tiny_args(tmp_path, engine="reference")
    game = card_envs.make_game(args.env_id)
    collector = Collector(game, args, seed=7, pool_states=[])
    assert isinstance(collector.games, VectorGames)
    expected = VectorGames(game, args.num_games, seed=int(np.random.default_rng(7).integers(2**63)))
    np.testing.assert_array_equal(collector.games.observe()[0], expected.observe()[0])


def test_batched_observations_are_the_reference_observations(tmp_path):
    """What the learner and the scripted opponents see: the reference's observation of a loaded state."""
    args = tiny_args(tmp_path, engine="batch")
    game = card_envs.make_game(args.env_id)
    games = BatchGames(args.env_id, {}, 8, seed=0)
    states = [game.new_state(np.random.default_rng(i)) for i in range(8)]
    games.engine.load(states)
    games._last = games.engine.observe()
    observations, masks, seats = games.observe()
    for i, state in enumerate(states):
        np.testing.assert_array_equal(observations[i], state.observation(state.current_player))
        np.testing.assert_array_equal(masks[i], state.legal_mask().astype(bool))
    np.testing.assert_array_equal(games.all_seat_observations()[3, 1], states[3].observation(1))
    np.testing.assert_array_equal(games.state_tensors()[5], states[5].state_tensor())


def test_a_batch_run_trains_checkpoints_and_resumes(tmp_path):
    trainer = start(tiny_args(tmp_path, engine="auto", total_steps=1024, actors=1), set())
    assert trainer.args.engine == "batch"  # auto is resolved: the checkpoint says what ran
    trainer.train()
    path = Path(tmp_path) / "t" / "checkpoints" / "latest.pt"
    checkpoint = load_checkpoint(path)
    assert checkpoint["step"] == 1024 and checkpoint["args"]["engine"] == "batch"
    NeuralPolicy.from_checkpoint(path, "three_piles_v0")
    resumed = start(Args(run_name="t", runs_dir=str(tmp_path), resume=True, total_steps=2048, progress=False),
                    {"total_steps"})
    assert resumed.args.engine == "batch" and resumed.step == 1024
    resumed.train()
    assert load_checkpoint(path)["step"] == 2048
    # the engine may change on a resume
    again = start(Args(run_name="t", runs_dir=str(tmp_path), resume=True, total_steps=2304, progress=False,
                       engine="reference"), {"total_steps", "engine"})
    assert again.args.engine == "reference"
    again.train()
    assert load_checkpoint(path)["step"] == 2304


def test_a_run_from_before_the_engine_option_resumes_on_the_reference_engine(tmp_path):
    trainer = Trainer(tiny_args(tmp_path))
    state = trainer.checkpoint()
    del state["args"]["engine"]
    save_checkpoint(Path(tmp_path) / "t" / "checkpoints" / "latest.pt", state)
    resumed = start(Args(run_name="t", runs_dir=str(tmp_path), resume=True, progress=False), set())
    assert resumed.args.engine == "reference"


def test_a_short_run_on_the_batched_engine_beats_random_clearly(tmp_path):
    """The learning test of tests/train/test_train.py, on the batched engine (it won 0.88 here)."""
    args = tiny_args(tmp_path, total_steps=300_000, num_games=64, num_steps=16, hidden=(64,), engine="batch",
                     learning_rate=2e-3, opponent_share=0.5, opponents=("random",), seed=4)
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
