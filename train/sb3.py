"""sb3-contrib's MaskablePPO, out of the box, on any game's gymnasium view, for a wall-clock budget:
the benchmark's second algorithm (docs/benchmark.md, "Two algorithms at a fixed budget").

    python -m card_envs.train.sb3 three_piles_v0 --minutes 10 --seed 1 --out runs/sb3/three_piles_v0__s1

What it trains is ``MaskablePPO("MlpPolicy", env, seed=...)`` with every hyperparameter the
library's default, as a researcher would run it first: n_steps 2048 per env, batch size 64, 10
epochs, learning rate 3e-4 (constant), gamma 0.99, GAE lambda 0.95, clip 0.2, no entropy bonus, a
64x64 MLP for the policy and another for the value. Only the seed, the budget and the number of
env processes are ours; the sidecar records every value used.

The env is `card_envs.gym.SingleAgentEnv`, the gymnasium view: the learner's seat is drawn each
episode, and so are its opponents (`OpponentPerGame`): every other seat is played by uniform random
or by the game's scripted agent (``heuristic``), one of the two per game, and the reward is the
game's result alone (+1 / 0 / -1 at the end), as for our PPO's ``reward_only`` recipe. Why random
too: against the scripted agent alone, the first 10-minute run on 3 Piles (769,108 steps) never
won a game; every reward was -1, and with gamma 0.99 it learned to draw lost games out, which lost
979 of 1,000 games to random. Our PPO's opponents are a pool (past snapshots of itself and the
scripted agent) that it can beat from the start; random gives MaskablePPO a result to learn from. Its game
arguments are those of the game's training recipe (``env_config`` of train/configs.py's DEFAULTS),
as our PPO trains: Dominion deals the training kingdoms (``random_train``), Illimat observes with its
recipe's pieces.

Piles is played by two teams of two: the gym view is single-agent, so the learner's partner is one
of the other seats, played by the game's drawn policy (random or the scripted agent) like the two
opponents; the team's result is the learner's reward. The learner thus trains beside a partner
that is not itself, while in the benchmark its policy holds both seats of its team.

Speed: ``--envs`` processes (default 2, sb3's SubprocVecEnv) step the games and their scripted
seats while this process runs the network (one torch thread, ``--threads``; sb3's rollouts are then
2 x 2048 steps); with ``--envs 1`` everything runs in this process (DummyVecEnv), on one core. A
rough measure, one minute each at nice 19 on the shared 2-core machine beside a training run
(load average 4-5), learner steps/s with 1 and 2 envs: Dominion 614 and 641, Illimat 266 and 305,
3 Piles 1,167 and 775 (its games are cheap to step: the learner's updates and the pipes between
processes weigh more). Two processes are the default: on a machine of its own, one process
leaves the second core idle, and the games that are slow to step gained even on a busy one;
``--envs 1`` may suit 3 Piles better (to be measured on an idle machine).

The budget: a callback ends learning at the first env step past ``--minutes`` of wall time,
counted from the start of learning (the envs already started). An update in progress when the
time is up finishes first (a few seconds at most); the unfinished rollout is not trained on.
Writes ``<out>/model.zip`` (sb3's format; `card_envs.agents.sb3` plays it as ``sb3:<out>/model.zip``)
and ``<out>/model.json`` (env id, game arguments, seed, steps, wall seconds, hyperparameters, the
versions of sb3, sb3-contrib and torch), each atomically, the sidecar last. A step is one decision
of the learner: the scripted seats' decisions are played inside the env's step and not counted
(our PPO counts every seat's).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import sys
import time
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any

import card_envs
from card_envs.core.extras import require
from card_envs.core.files import atomic_write

PROG = "python -m card_envs.train.sb3"
OPPONENTS = ("random", "heuristic")  # every other seat, one of the two drawn each game


def recipe_config(env_id: str) -> dict[str, Any]:
    """The game arguments our PPO trains with (its default recipe's ``env_config``)."""
    from card_envs.train.configs import DEFAULTS

    return dict(DEFAULTS.get(env_id, {}).get("env_config", {}))


def opponent_per_game(env, policies: list):
    """``env`` (a `card_envs.gym.SingleAgentEnv`) whose other seats are all played, each game, by one
    of ``policies``, drawn at every reset from a generator of the wrapper's own (seeded by a reset's
    ``seed``: the same seed, the same draws; the deal is the env's, unchanged)."""
    import gymnasium
    import numpy as np

    class OpponentPerGame(gymnasium.Wrapper):
        draws = np.random.default_rng()

        def reset(self, *, seed=None, options=None):
            if seed is not None:
                self.draws = np.random.default_rng(seed)
            drawn = policies[int(self.draws.integers(len(policies)))]
            self.env.unwrapped.opponents = [drawn] * len(self.env.unwrapped.opponents)
            return self.env.reset(seed=seed, options=options)

    return OpponentPerGame(env)


def make_env(env_id: str, config: dict[str, Any]):
    """The gymnasium view, the learner's seat and its opponents (`OPPONENTS`) drawn each game (a
    module-level function: SubprocVecEnv sends it to its processes)."""
    from card_envs.agents import make_policy
    from card_envs.gym import SingleAgentEnv

    game = card_envs.make_game(env_id, **config)
    policies = [make_policy(name, game) for name in OPPONENTS]
    return opponent_per_game(SingleAgentEnv(env_id, opponents=policies[0], learner_seat="random", **config), policies)


def make_envs(env_id: str, config: dict[str, Any], envs: int, seed: int):
    """``envs`` monitored envs (episode results for the progress line), env k seeded ``seed + k``."""
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    return make_vec_env(partial(make_env, env_id, config), n_envs=envs, seed=seed,
                        vec_env_cls=SubprocVecEnv if envs > 1 else DummyVecEnv)


def wall_clock_callback(seconds: float, progress: bool):
    """An sb3 callback that ends learning at the first step past ``seconds`` of learning, showing
    a progress bar (or plain lines off a terminal) of the seconds, steps, rate and episodes."""
    from stable_baselines3.common.callbacks import BaseCallback

    from card_envs.train.progress import TrainingProgress

    class WallClock(BaseCallback):
        def _on_training_start(self) -> None:
            self.began = self.last = time.perf_counter()
            self.wall_s = 0.0
            self.bar = TrainingProgress(round(seconds), 0, seconds=True, enabled=progress)

        def _on_step(self) -> bool:
            now = time.perf_counter()
            self.wall_s = now - self.began
            if now - self.last >= 1.0:
                self.last = now
                self.bar.advance(round(self.wall_s), self.postfix())
            return self.wall_s < seconds

        def _on_training_end(self) -> None:
            self.bar.close(self.postfix())

        def postfix(self) -> str:
            text = f"{self.model.num_timesteps:,} steps | SPS {self.model.num_timesteps / max(self.wall_s, 1e-9):,.0f}"
            episodes = [info["r"] for info in self.model.ep_info_buffer]
            if episodes:
                text += f" | mean result of the last {len(episodes)} games {sum(episodes) / len(episodes):+.2f}"
            return text

    return WallClock()


def versions() -> dict[str, str]:
    return {name: metadata.version(name) for name in ("stable_baselines3", "sb3_contrib", "torch", "gymnasium")}


def hyperparameters(model) -> dict[str, Any]:
    """What the model trained with (the library's defaults), as JSON."""
    names = ("n_steps", "batch_size", "n_epochs", "learning_rate", "gamma", "gae_lambda", "ent_coef", "vf_coef",
             "max_grad_norm", "normalize_advantage", "target_kl")
    values = {name: getattr(model, name) for name in names}
    values["clip_range"] = model.clip_range(1.0)  # a constant schedule
    return values


def save(model, out: Path, info: dict[str, Any]) -> tuple[Path, Path]:
    """model.zip, then its sidecar model.json (the sidecar last: where it exists, the model is whole)."""
    buffer = io.BytesIO()
    model.save(buffer)
    zip_path, sidecar = out / "model.zip", out / "model.json"
    atomic_write(zip_path, lambda tmp: Path(tmp).write_bytes(buffer.getvalue()))
    atomic_write(sidecar, lambda tmp: Path(tmp).write_text(json.dumps(info, indent=1) + "\n"))
    return zip_path, sidecar


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0].replace("``", ""),
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("env_id", choices=card_envs.list_envs())
    parser.add_argument("--minutes", type=float, default=10.0, help="wall-clock budget of learning")
    parser.add_argument("--seed", type=int, default=1, help="seeds the network, sb3's sampling and the deals")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default runs/sb3/<env_id>__s<seed>)")
    parser.add_argument("--envs", type=int, default=2, help="env processes (1: the envs run in this process)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads of the learner")
    parser.add_argument("--overwrite", action="store_true", help="replace a model already in --out")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar or progress lines")
    args = parser.parse_args(argv)
    if not (math.isfinite(args.minutes) and args.minutes > 0):
        parser.error(f"--minutes must be a positive number, got {args.minutes}")
    for name, low in (("seed", 0), ("envs", 1), ("threads", 1)):
        if getattr(args, name) < low:
            parser.error(f"--{name} must be at least {low}, got {getattr(args, name)}")
    args.out = args.out or Path("runs") / "sb3" / f"{args.env_id}__s{args.seed}"
    if (args.out / "model.zip").exists() and not args.overwrite:
        parser.error(f"{args.out} holds a model already: choose another --out, or pass --overwrite to replace it")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    require(PROG, "benchmark", "sb3_contrib", "torch")
    import torch
    from sb3_contrib import MaskablePPO

    from card_envs.evaluate.report import check_writable

    try:
        check_writable(args.out)
    except (ValueError, OSError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    torch.set_num_threads(args.threads)
    config = recipe_config(args.env_id)
    game = card_envs.make_game(args.env_id, **config)
    print(f"MaskablePPO (sb3-contrib, its defaults) on {args.env_id}{f' {config}' if config else ''} against {' or '.join(OPPONENTS)} (drawn each game): "
          f"{args.minutes:g} minutes, seed {args.seed}, {args.envs} env process(es) -> {args.out}", flush=True)
    env = make_envs(args.env_id, config, args.envs, args.seed)
    try:
        model = MaskablePPO("MlpPolicy", env, seed=args.seed, device="cpu", verbose=0)
        clock = wall_clock_callback(60 * args.minutes, not args.no_progress)
        model.learn(total_timesteps=2**62, callback=clock)  # the callback ends it
    finally:
        env.close()
    steps, wall_s = int(model.num_timesteps), clock.wall_s
    info = {"format": 1, "algorithm": "MaskablePPO", "policy": "MlpPolicy", "env_id": args.env_id,
            "env_config": config, "opponents": list(OPPONENTS), "opponents_drawn": "one per game", "learner_seat": "random", "seed": args.seed,
            "envs": args.envs, "threads": args.threads, "minutes": args.minutes, "steps": steps,
            "steps_counted": "the learner's decisions", "wall_s": wall_s, "steps_per_s": steps / wall_s,
            "updates": int(model._n_updates // model.n_epochs), "net_arch": model.policy.net_arch,
            "hyperparameters": hyperparameters(model), "observation_size": game.observation_size,
            "num_actions": game.num_actions, "versions": versions(),
            "command": " ".join([PROG, *(sys.argv[1:] if argv is None else argv)])}
    zip_path, sidecar = save(model, args.out, info)
    print(f"trained {steps:,} steps in {wall_s:.0f} s ({steps / wall_s:,.0f} steps/s); wrote {zip_path}, {sidecar}; "
          f"play it as sb3:{zip_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
