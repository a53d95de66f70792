"""Train any registered game with Ray RLlib's multi-agent PPO (the ``rllib`` extra).

    python -m card_envs.train.rllib three_piles_v0                               # local Ray, 15 minutes
    python -m card_envs.train.rllib piles_v0 --num-env-runners 4 --max-minutes 60
    python -m card_envs.train.rllib illimat_v0 --address auto                    # an existing cluster, unchanged
    python -m card_envs.train.rllib three_piles_v0 --resume                      # continue runs/rllib_three_piles_v0
    python -m card_envs.train.rllib dominion_v0 --address ray://head:10001 --num-env-runners 32

Everything distributed is RLlib's own: its env runners collect, its learner updates, Ray places
them. What this file adds is configuration and the glue named below.

- The env is RLlib's own ``PettingZooEnv`` over ``card_envs.make(env_id)``, behind
  `RLlibObservations`, a PettingZoo observation wrapper that only renames the observation dict's
  ``"observation"`` key to the ``"observations"`` that RLlib's action-masking module reads (and
  gives the mask as float32).
- The learner is RLlib's ``ActionMaskingTorchRLModule`` (``ray.rllib.examples.rl_modules``): its
  PPO network with the masked logits. It is built with ReLU, a shared trunk of ``--hidden``
  widths and single-layer heads, which is exactly our `card_envs.agents.neural.ActorCritic`, so its weights
  export 1:1 (`export_module`).
- Self-play through RLlib's policy mapping: in a share ``--opponent-share`` of the episodes one
  seat is the learner and every other seat one of ``--opponents`` (our scripted agents, each
  a fixed, untrained module, `ScriptedRLModule`); in the rest every seat is the learner.
- Every ``--checkpoint-every`` iterations and at the end it writes RLlib's own checkpoint
  (``algo.save_to_path``: resume or inspect it with RLlib) to ``<out>/rllib/`` and the learner
  exported to our checkpoint format, ``<out>/checkpoints/latest.pt``, which ``python -m
  evaluate`` and `card_envs.agents.neural.NeuralPolicy` take. ``python -m card_envs.train.rllib_export
  <rllib checkpoint> <out.pt>`` exports any RLlib checkpoint written by this program.
- Ctrl-C or SIGTERM (``timeout``, a cluster's scheduler) drops the iteration in progress, saves
  what was trained before it and prints how to resume (``--out <out> --resume``: the run's own
  settings, RLlib's state restored); ``--max-minutes`` counts Ray's start-up and the build.

Ray: without ``--address`` a local Ray instance is started (``ray.init()``); with ``--address``
(``auto`` or ``ray://host:port``) the existing cluster is joined as it is. Every node must have
card_envs installed (``pip install -e ".[rllib]" -c constraints.txt``): the env and the scripted
agents are imported there.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

if __name__ == "__main__":  # the command: a missing extra named in one line, before ray's imports fail
    from card_envs.core.extras import require

    require("python -m card_envs.train.rllib", "rllib", "ray", "torch")

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

import card_envs
from card_envs.core.files import atomic_write
from card_envs.train.rllib_export import LEARNER, METADATA, export_checkpoint


# ----- the env -------------------------------------------------------------------------------
class RLlibObservations(BaseWrapper):
    """Observations as ``{"observations": float32[obs], "action_mask": float32[actions]}``.

    RLlib's ``ActionMaskingTorchRLModule`` reads these two keys; our env (like PettingZoo's
    classic envs) names the vector ``"observation"``. Nothing else changes."""

    def __init__(self, env):
        super().__init__(env)
        self._spaces = {}
        for agent in env.possible_agents:
            space = env.observation_space(agent)
            self._spaces[agent] = spaces.Dict({
                "observations": space["observation"],
                "action_mask": spaces.Box(0.0, 1.0, space["action_mask"].shape, dtype=np.float32),
            })

    def observation_space(self, agent):
        return self._spaces[agent]

    def observe(self, agent):
        obs = self.env.observe(agent)
        return {"observations": obs["observation"], "action_mask": obs["action_mask"].astype(np.float32)}


def make_env(env_config: dict[str, Any]):
    """RLlib's env creator: ``env_config = {"env_id": ..., "config": {game arguments}}``."""
    return PettingZooEnv(RLlibObservations(card_envs.make(env_config["env_id"], **env_config.get("config", {}))))


# ----- fixed scripted opponents --------------------------------------------------------------
class ScriptedRLModule(RLModule):
    """One of our scripted agents (``card_envs.agents.make_policy(name, game)``) as a fixed RLlib module.

    ``model_config = {"env_id", "config", "policy", "seed"}``. It returns actions directly, as
    RLlib's own ``RandomRLModule`` does; it is never trained."""

    def setup(self):
        from card_envs.agents import make_policy

        config = self.model_config
        game = card_envs.make_game(config["env_id"], **config.get("config", {}))
        self.policy = make_policy(config["policy"], game)
        self.rng = np.random.default_rng(config.get("seed"))

    def _forward(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        observations, masks = _numpy(obs["observations"]), _numpy(obs["action_mask"])
        return {Columns.ACTIONS: np.asarray(self.policy.act_batch(observations, masks, self.rng), dtype=np.int64)}

    def _forward_train(self, *args, **kwargs):
        raise NotImplementedError("a scripted module is not trained")

    def get_state(self, *args, **kwargs):
        return {}

    def set_state(self, state):
        pass


def _numpy(x) -> np.ndarray:
    return x.detach().cpu().numpy() if hasattr(x, "detach") else np.asarray(x)


class MapSeats:
    """RLlib's policy mapping: per episode, self-play (every seat the learner) or, in a share
    ``opponent_share`` of the episodes, one learner seat against one of ``opponents``.

    Called once per agent per episode; the choice is a function of the episode id, so every seat
    of an episode agrees."""

    def __init__(self, num_players: int, opponents: list[str], opponent_share: float):
        self.num_players, self.opponents, self.opponent_share = num_players, opponents, opponent_share

    def __call__(self, agent_id, episode, **kwargs) -> str:
        draw = random.Random(str(episode.id_))
        if not self.opponents or draw.random() >= self.opponent_share:
            return LEARNER
        learner_seat, opponent = draw.randrange(self.num_players), draw.choice(self.opponents)
        return LEARNER if int(str(agent_id).rsplit("_", 1)[1]) == learner_seat else opponent


# ----- the algorithm config ------------------------------------------------------------------
def build_config(env_id: str, game_config: dict[str, Any] | None = None, *, opponents=("heuristic",),
                 opponent_share: float = 0.5, hidden=(128, 128), num_env_runners: int = 1,
                 num_envs_per_env_runner: int = 1, train_batch_size: int = 4000, minibatch_size: int = 512,
                 num_epochs: int = 4, lr: float = 3e-4, entropy_coeff: float = 0.01, seed: int | None = 0):
    """RLlib's ``PPOConfig`` for one card game: RLlib's masked PPO module learns, scripted agents
    are fixed modules, `MapSeats` maps seats to them."""
    game_config = dict(game_config or {})
    game = card_envs.make_game(env_id, **game_config)
    opponents = list(opponents)
    env_config = {"env_id": env_id, "config": game_config}
    model = DefaultModelConfig(fcnet_hiddens=list(hidden), fcnet_activation="relu", head_fcnet_hiddens=[],
                               vf_share_layers=True)
    specs = {LEARNER: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model)}
    for i, name in enumerate(opponents):
        specs[name] = RLModuleSpec(module_class=ScriptedRLModule, model_config={
            **env_config, "policy": name, "seed": None if seed is None else seed + 1000 + i})
    env_name = f"card_envs_rllib/{env_id}"
    register_env(env_name, make_env)
    config = (
        PPOConfig()
        # RLlib's env checker sends unmasked random actions: penalized, each with a warning (the
        # interop tests run that checker once); training itself never plays an illegal action.
        .environment(env_name, env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=num_envs_per_env_runner)
        .multi_agent(policies=set(specs), policy_mapping_fn=MapSeats(game.num_players, opponents, opponent_share),
                     policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(train_batch_size_per_learner=train_batch_size, minibatch_size=minibatch_size,
                  num_epochs=num_epochs, lr=lr, entropy_coeff=entropy_coeff)
        .debugging(seed=seed)
    )
    return config


# ----- the program ---------------------------------------------------------------------------
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m card_envs.train.rllib", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("env_id", choices=card_envs.list_envs())
    parser.add_argument("--address", default=None,
                        help="an existing Ray cluster ('auto' or 'ray://host:port'); default: start a local one")
    parser.add_argument("--num-env-runners", type=int, default=1, help="RLlib env runners (one CPU each)")
    parser.add_argument("--num-envs-per-env-runner", type=int, default=8)
    parser.add_argument("--config", type=json.loads, default={}, help="game arguments as JSON, e.g. '{\"num_players\": 3}'")
    parser.add_argument("--opponents", nargs="*", default=["heuristic"],
                        help="scripted agents as fixed policies (card_envs.agents.make_policy names); none: pure self-play")
    parser.add_argument("--opponent-share", type=float, default=0.5, help="share of episodes against them")
    parser.add_argument("--hidden", type=int, nargs="+", default=[128, 128])
    parser.add_argument("--train-batch-size", type=int, default=4000)
    parser.add_argument("--minibatch-size", type=int, default=512)
    parser.add_argument("--num-epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--entropy-coeff", type=float, default=0.01)
    parser.add_argument("--iterations", type=int, default=None, help="stop after this many PPO iterations")
    parser.add_argument("--max-minutes", type=float, default=15.0,
                        help="stop after this much wall time, Ray's start-up and the build included")
    parser.add_argument("--checkpoint-every", type=int, default=10, help="iterations between checkpoints")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="default runs/rllib_<env_id>")
    parser.add_argument("--resume", action="store_true",
                        help=f"continue the run in --out from its last checkpoint, with its own settings except "
                             f"{', '.join(_flag(name) for name in RESUMABLE)}")
    args = parser.parse_args(argv)
    try:
        game = card_envs.make_game(args.env_id, **args.config)
    except (TypeError, ValueError) as error:
        parser.error(f"--config: {error}")
    from card_envs.agents import opponent_names

    bad = [name for name in args.opponents if name not in opponent_names(game)]
    if bad:
        parser.error(f"--opponents {bad}: use scripted agents from {opponent_names(game)}")
    for name in ("num_env_runners", "num_envs_per_env_runner", "train_batch_size", "minibatch_size", "num_epochs",
                 "checkpoint_every"):
        if getattr(args, name) < (0 if name == "num_env_runners" else 1):
            parser.error(f"--{name.replace('_', '-')} must be positive")
    if not 0.0 <= args.opponent_share <= 1.0:
        parser.error("--opponent-share must be within [0, 1]")
    if args.iterations is not None and args.iterations < 1:
        parser.error("--iterations must be at least 1")
    if not args.max_minutes > 0 or not all(h >= 1 for h in args.hidden) or not args.lr > 0:
        parser.error("--max-minutes, --lr and every --hidden width must be positive")
    if args.minibatch_size > args.train_batch_size:
        parser.error("--minibatch-size must not exceed --train-batch-size")
    args.out = args.out or Path("runs") / f"rllib_{args.env_id}"
    if args.resume:
        given = {token.split("=")[0] for token in (sys.argv[1:] if argv is None else argv)}
        _resume_settings(parser, args, given)
    return args


# What a resume may change; every other setting is the run's own, from its checkpoint.
RESUMABLE = ("iterations", "max_minutes", "checkpoint_every", "address", "num_env_runners", "num_envs_per_env_runner")


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _resume_settings(parser: argparse.ArgumentParser, args: argparse.Namespace, given: set[str]) -> None:
    """Take the run's own settings from ``<out>/rllib/card_envs.json``, noting the flags given
    that it overrides."""
    path = args.out / "rllib" / METADATA
    if not path.is_file():
        parser.error(f"--resume: {args.out} holds no checkpoint ({path} is missing): start without --resume")
    saved = json.loads(path.read_text())
    if saved.get("env_id") != args.env_id:
        parser.error(f"--resume: the run in {args.out} trains {saved.get('env_id')}, not {args.env_id}")
    kept = []
    for name, value in saved.get("args", {}).items():
        if hasattr(args, name) and name not in (*RESUMABLE, "out", "resume", "env_id"):
            if _flag(name) in given and getattr(args, name) != value:
                kept.append(_flag(name))
            setattr(args, name, value)
    args.kept, args.resumed_step = kept, int(saved.get("step", 0))


def main(argv: list[str] | None = None) -> int:
    start = time.monotonic()  # --max-minutes counts Ray's start-up and the algorithm's build
    args = parse_args(argv)
    signals = StopSignals()
    signals.install()
    algo, iteration, steps = None, 0, getattr(args, "resumed_step", 0)
    out = args.out
    saved = {"env_id": args.env_id, "game_config": args.config, "seed": args.seed,
             "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()
                      if k not in ("kept", "resumed_step")}}
    try:
        _init_ray(args.address)
        signals.install()  # again: a local ray.init puts in its own SIGTERM handler, which exits at once
        config = build_config(
            args.env_id, args.config, opponents=args.opponents, opponent_share=args.opponent_share,
            hidden=args.hidden, num_env_runners=args.num_env_runners,
            num_envs_per_env_runner=args.num_envs_per_env_runner, train_batch_size=args.train_batch_size,
            minibatch_size=args.minibatch_size, num_epochs=args.num_epochs, lr=args.lr,
            entropy_coeff=args.entropy_coeff, seed=args.seed)
        algo = config.build_algo()
        if args.resume:
            algo.restore_from_path(str((out / "rllib").resolve()))
            kept = f"; kept the run's own {', '.join(args.kept)}" if args.kept else ""
            print(f"resuming from step {steps:,}{kept}", flush=True)
        trained_from, first_steps = time.monotonic(), steps
        while True:
            result = algo.train()
            iteration += 1
            steps = int(result["env_runners"].get("num_env_steps_sampled_lifetime", steps))  # resumes included
            rate = (steps - first_steps) / max(time.monotonic() - trained_from, 1e-9)
            returns = result["env_runners"].get("module_episode_returns_mean", {})
            print(f"iter {iteration}  steps {steps}  {rate:.0f} steps/s  "
                  f"returns {json.dumps({k: round(float(v), 3) for k, v in returns.items()})}", flush=True)
            minutes = (time.monotonic() - start) / 60
            done = (args.iterations is not None and iteration >= args.iterations) or minutes >= args.max_minutes
            if done or iteration % args.checkpoint_every == 0:
                save_and_export(algo, out, step=steps, **saved)
            if done:
                break
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM made one by StopSignals
        name = signals.received or "SIGINT"
        if iteration == 0:
            print(f"{name}: stopped before the first iteration ended; nothing saved", file=sys.stderr)
            return 128 + getattr(signal, name)
        print(f"{name}: saving step {steps:,}", file=sys.stderr, flush=True)
        save_and_export(algo, out, step=steps, **saved)
        print(f"{name}: stopped at step {steps:,}, checkpoint {out / 'checkpoints' / 'latest.pt'}; resume with: "
              f"python3 -m card_envs.train.rllib {args.env_id} --out {out} --resume", flush=True)
        return 128 + getattr(signal, name)
    finally:
        # After a stop signal Ray's own processes may be going too (`timeout` signals the whole
        # process group): stopping the env runners would wait a minute on them. Our exit ends them.
        if algo is not None and signals.received is None:
            algo.stop()
        signals.restore()
    print(f"exported {out / 'checkpoints' / 'latest.pt'}; evaluate it with\n"
          f"  python3 -m card_envs.evaluate {args.env_id} {out / 'checkpoints' / 'latest.pt'} heuristic random")
    return 0


def _init_ray(address: str | None) -> None:
    """``ray.init``; a local Ray's own processes (GCS, raylet) start in a process group of their
    own. `timeout` and shell scripts send SIGTERM to the whole process group, and Ray must outlive
    the save that signal asks for (a group leader, as an interactive shell makes us, stays one)."""
    import ray

    group = os.getpgrp()
    apart = address is None and not ray.is_initialized() and group != os.getpid()
    if apart:
        os.setpgid(0, 0)
    try:
        ray.init(address=address, include_dashboard=False, ignore_reinit_error=True)
    finally:
        if apart:
            os.setpgid(0, group)


REPEAT_SECONDS = 2.0  # a signal this soon after the first is the same request, sent twice


class StopSignals:
    """SIGTERM (``timeout``, a cluster's scheduler) stops the run as Ctrl-C does: a
    KeyboardInterrupt, so the iteration in progress is dropped and what was trained before it is
    saved. A repeat within `REPEAT_SECONDS` is ignored (``timeout`` signals the program, then its
    process group); a later one goes to the handler we replaced, stopping at once."""

    def __init__(self):
        self.received: str | None = None  # the first signal's name
        self.previous: dict[int, Any] = {}
        self._first = 0.0

    def install(self) -> None:
        """Ours for SIGINT and SIGTERM; again after anything (a local ray.init) replaced one."""
        for signum in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(signum) != self._handle:
                self.previous[signum] = signal.getsignal(signum)
                signal.signal(signum, self._handle)

    def restore(self) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)

    def _handle(self, signum, frame) -> None:
        if self.received is None:
            self.received, self._first = signal.Signals(signum).name, time.monotonic()
            raise KeyboardInterrupt
        if time.monotonic() - self._first >= REPEAT_SECONDS:
            self.restore()
            signal.raise_signal(signum)


def save_and_export(algo, out: str | Path, env_id: str, game_config: dict[str, Any] | None = None, *, step: int = 0,
                    seed: int | None = None, args: dict | None = None) -> Path:
    """RLlib's checkpoint in ``<out>/rllib`` (with the ``card_envs.json`` the export reads), then
    the learner exported to ``<out>/checkpoints/latest.pt``, which is returned."""
    out = Path(out)
    path = (out / "rllib").resolve()
    algo.save_to_path(str(path))
    metadata = {"env_id": env_id, "game_config": dict(game_config or {}), "step": int(step), "seed": seed,
                "args": args or {}}
    atomic_write(path / METADATA, lambda tmp: Path(tmp).write_text(json.dumps(metadata)))
    return export_checkpoint(path, out / "checkpoints" / "latest.pt")


if __name__ == "__main__":
    sys.exit(main())
