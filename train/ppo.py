"""Self-play PPO with a masked actor-critic, for any registered card_envs game.

    python -m card_envs.train                                  # three_piles_v0 with its default config
    python -m card_envs.train three_piles_v0 --total-steps 2000000 --seed 3
    python -m card_envs.train three_piles_v0 --run-name mine --resume   # continue a killed run
    python -m card_envs.train illimat_v0 --init-from agents/checkpoints/illimat_v0.pt   # fine-tune a checkpoint
    tensorboard --logdir runs

How it works (in the spirit of CleanRL's single-file PPO):

- ``num_games`` games are stepped together; in each, one seat must act, and one batched forward
  pass serves every seat that the learner controls. ``--engine batch`` steps them with the game's
  batched engine (`card_envs.batch`, numba kernels on the CPU; `card_envs.batch.ENGINES` names the
  games with one), ``--engine reference`` with the rules engines (`card_envs.vector.VectorGames`); the default
  (``auto``) is the batched engine where the game has one and numba is installed. Same rules,
  observations and masks, so nothing else changes: pool, evaluation (always on the reference
  engine) and checkpoints are the same.
- Each (game, seat) pair is its own trajectory: a seat's next state is its next decision, not
  the opponent's. Rewards are terminal, and the terminal (team) reward reaches the last decision
  of every seat. GAE runs backwards along each seat's trajectory; at the end of a rollout,
  unfinished trajectories bootstrap from the value of that seat's current observation.
- Illegal actions have the lowest logit, so they are never sampled.
- An opponent pool: in a share ``opponent_share`` of the games, the seats outside one learner
  seat's team are played by a scripted agent from `agents/` or a frozen past snapshot of the
  network; their decisions are not trained on.
- Every ``eval_every`` steps the greedy policy plays seat-rotated, paired games against random
  and the game's scripted agent (win rate with its Wilson 95% interval, logged under ``eval/``),
  and its Bradley-Terry rating against those baselines (``eval/elo``, random anchored at 0).
  These evaluations run beside training in a low-priority process (`card_envs.train.evaluating`), logged
  at the step whose weights they played; ``--no-eval-process`` plays them in the learner, which
  pauses meanwhile. The final evaluation plays the saved checkpoint once the actor has stopped,
  with ``python -m card_envs.evaluate``'s runner in one process per core (`evaluating.evaluate_checkpoint`).
- Two processes by default (``--actors 1``, `card_envs.train.acting`): an actor plays rollout k+1 with
  the weights after update k-1 while this learner trains on rollout k, so both cores work; the
  one-update lag is absorbed by PPO's importance ratio. ``--actors 0`` plays in this process.
- The loss of a minibatch is one function (`card_envs.train.loss`); ``--compile`` hands it to
  torch.compile, which fuses its forward and backward passes (where the learner, not the games,
  limits the speed: 3 Piles on the batched engine).
- ``--max-minutes`` bounds the whole run (`TimePlan`): training has 90% of it (cloning at most half
  of that: as many of the teacher's games as fit, the fit cut short at the end), the final
  evaluation 10% (as many deals as fit, at least a chunk of each pairing). The progress bar then
  counts seconds, to the end of training.
- Checkpoints go atomically to ``runs/<run>/checkpoints/`` (format: `card_envs.agents.neural`, with the
  sha256 of the weights). A NaN or infinite loss or weight stops the run (exit code 1) with a
  message naming the step and the last good checkpoint; nothing non-finite is ever saved.
- A resumed run's TensorBoard log hides what the killed run logged after its last checkpoint.
- ``--critic state``: the value comes from a separate privileged critic on the full game state
  (``game.state_layout``) and the seat; only training reads it, the policy acts on its own
  observation. Off by default: on 3 Piles it learned more slowly than the shared-trunk critic,
  and on Dominion, cloned with the policy (`card_envs.train.pretrain`) and then trained 16 minutes against
  the scripted agent, it ended at 0.245 against it where the shared trunk ended at 0.423.
- ``python -m card_envs.train.curve runs/<run>`` plots the ``eval/`` curve of a run.

A "step" is one decision asked of a seat (forced single-choice decisions are played by the env
and not counted); SPS counts all seats' steps, learner and opponents.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

import card_envs
from card_envs.agents import make_policy, named_bots_text, opponent_names, policy_names
from card_envs.agents.neural import active_columns, load_checkpoint, network_from_checkpoint, save_checkpoint
from card_envs.evaluate.report import check_writable
from card_envs.evaluate.runner import available_cores
from card_envs.train.acting import (COMPUTE_DTYPES, ENGINES, Rollout, game_engine, make_actor, make_network,
                          resolve_compute_dtype, torch_dtype)
from card_envs.train.configs import DEFAULTS
from card_envs.train.loss import compiled, minibatch_loss
from card_envs.train.policy_terms import mask_offsets
from card_envs.train.pretrain import check_scored_teacher, clone, student_games, teacher_games, workers_for
from card_envs.train.evaluating import (  # noqa: F401 - elo_ratings: public here too
    FINAL_CHUNK, EvalProcess, elo_ratings, evaluate_checkpoint, evaluate_policy, games_per_deal)


# Under --max-minutes: the final evaluation's share of the limit (training, cloning included, has the
# rest); cloning's share of the training time at most; the teacher's games' share of cloning's time
# (the fit has the rest: Illimat's recipe spent 14.6 minutes on the games and 7.4 on the fit).
# Illimat's hour (cloning 22 of 54 minutes, a final evaluation of 2) fits within these shares.
FINAL_EVAL_SHARE = 0.1
CLONING_SHARE = 0.5
TEACHER_GAMES_SHARE = 2 / 3


def training_seconds(max_minutes: float) -> float:
    """The training time (cloning and PPO) of a run on ``--max-minutes`` (0: no limit, inf)."""
    return 60 * max_minutes * (1 - FINAL_EVAL_SHARE) if max_minutes else math.inf


@dataclass(frozen=True)
class TimePlan:
    """When each part of a run ends, in `time.perf_counter` seconds (inf: no time limit), from
    ``--max-minutes`` and the training time already spent (a resumed run's)."""

    teacher_games: float
    cloning: float
    training: float
    final_eval_seconds: float  # from the final evaluation's start

    @classmethod
    def of(cls, max_minutes: float, trained_seconds: float, now: float) -> "TimePlan":
        budget = training_seconds(max_minutes)
        cloning = now + CLONING_SHARE * budget - trained_seconds
        return cls(now + TEACHER_GAMES_SHARE * (cloning - now), cloning, now + budget - trained_seconds,
                   60 * max_minutes * FINAL_EVAL_SHARE if max_minutes else math.inf)

    @staticmethod
    def wall(at: float) -> float:
        """``at`` as a `time.time` (what another process can compare with)."""
        return time.time() + (at - time.perf_counter())


def arg(default: Any, help: str) -> Any:  # noqa: A002 - mirrors argparse's keyword
    if isinstance(default, (dict, list, tuple)):
        return field(default_factory=lambda: type(default)(default), metadata={"help": help})
    return field(default=default, metadata={"help": help})


@dataclass
class Args:
    env_id: str = arg("three_piles_v0", "registered env id")
    env_config: dict = arg({}, "game arguments as JSON, e.g. '{\"num_players\": 3}' (merged into the game's default)")
    run_name: str = arg("", "the run's folder in runs_dir, a name without path separators "
                            "(default: <env_id>__s<seed>__<time>)")
    runs_dir: str = arg("runs", "where runs (TensorBoard logs, checkpoints) are written")
    seed: int = arg(1, "seeds deals, sampling and network initialisation")
    total_steps: int = arg(2_000_000, "decisions to train for (all seats)")
    max_minutes: float = arg(0.0, "also stop after this much wall time (in all, across resumes; 0: no limit): the "
                                  "whole run, cloning and final evaluation included. Training (cloning and PPO) "
                                  "has 90%% of it, the learning rate decaying to 0 by whichever limit comes first; "
                                  "cloning at most half of that, its teacher's games two thirds of cloning's share "
                                  "(fewer games than --pretrain-games where they do not fit); the final "
                                  "evaluation 10%% (fewer deals than --final-eval-deals where they do not fit, "
                                  f"but at least {FINAL_CHUNK} against each baseline)")
    num_games: int = arg(128, "games stepped together")
    num_steps: int = arg(32, "steps of every game per rollout")
    hidden: tuple = arg((256, 256), "hidden layer widths")
    critic: str = arg("observation", "value input: 'observation' (a head on the policy's trunk) or 'state' "
                                     "(a separate network on the full game state and the seat: "
                                     "training only, the policy still sees its observation alone)")
    entity_heads: bool = arg(False, "score the game's entity actions (Illimat's cards) with one small network shared "
                                    "by all of them, from each one's own observation entries (card_envs.agents.neural."
                                    "EntityScorer), besides the policy head; for games that declare action_entities")
    learning_rate: float = arg(3e-4, "Adam learning rate")
    anneal_lr: bool = arg(True, "decay the learning rate linearly to 0")
    gamma: float = arg(1.0, "discount per own decision")
    gae_lambda: float = arg(0.95, "GAE lambda")
    update_epochs: int = arg(2, "passes over each rollout")
    num_minibatches: int = arg(4, "minibatches per pass")
    clip_coef: float = arg(0.2, "PPO ratio clip")
    ent_coef: float = arg(0.01, "entropy bonus")
    vf_coef: float = arg(0.5, "value loss weight")
    max_grad_norm: float = arg(0.5, "gradient norm clip")
    opponent_share: float = arg(0.25, "share of games against the opponent pool (0 = pure self-play)")
    opponents: tuple = arg(("heuristic", "random"), "scripted members of the opponent pool: random, heuristic, "
                           f"a game's named bots ({named_bots_text()}) or checkpoint .pt files")
    teacher: str = arg("", "kickstarting: a scripted agent (a name --opponents takes) whose choice at each of the "
                           "learner's decisions is imitated too, by a cross-entropy term ('': none)")
    teacher_coef: float = arg(1.0, "the imitation term's weight at the start, decaying linearly to 0 at --teacher-until")
    teacher_until: float = arg(0.25, "the fraction of the run (of total_steps or max_minutes, whichever ends it, as for "
                                     "the learning rate) at which the imitation weight reaches 0 and the teacher stops")
    pretrain_games: int = arg(0, "behaviour cloning before PPO: the teacher (--teacher) plays this many games against "
                                 "itself and the network is fitted to its choices, the value head to the results "
                                 "(train/pretrain.py; the time counts toward --max-minutes; 0: none)")
    pretrain_epochs: int = arg(10, "passes over the teacher's decisions when cloning (--pretrain-games)")
    pretrain_temperature: float = arg(0.0, "cloning's policy target: 0, the teacher's choice; above 0, softmax(score / T) "
                                           "of the teacher's score of each action, so that its close calls read as "
                                           "close (a teacher with action scores: Illimat's heuristic, lookahead)")
    dagger_rounds: int = arg(0, "after cloning, rounds of DAgger: the clone (greedy) plays --dagger-games games "
                                "against --opponents, the teacher labels each of its decisions, and the network is "
                                "refitted to all the decisions so far for --dagger-epochs passes (on the run's "
                                "clock; needs --pretrain-games)")
    dagger_games: int = arg(1000, "the clone's games per DAgger round (--dagger-rounds)")
    dagger_epochs: int = arg(2, "passes over all the decisions so far after each DAgger round")
    init_from: str = arg("", "start from the weights of this checkpoint (a run's, or a shipped weights-only one, e.g. "
                             "agents/checkpoints/illimat_v0.pt) instead of a fresh network, with a fresh optimizer: "
                             "fine-tuning; the network's shape must match, and cloning (--pretrain-games) is skipped")
    snapshot_every: int = arg(25, "updates between frozen snapshots added to the pool")
    pool_size: int = arg(4, "frozen snapshots kept in the pool (oldest dropped)")
    eval_every: int = arg(500_000, "steps between evaluations (0: only at the end)")
    eval_deals: int = arg(200, "deals per evaluation and baseline, each played in every seating")
    eval_process: bool = arg(True, "play the periodic evaluations in a low-priority process beside training "
                                   "(--no-eval-process: in the learner, which pauses meanwhile)")
    final_eval_deals: int = arg(1000, "deals for the evaluation at the end of the run")
    checkpoint_every: int = arg(1_000_000, "steps between checkpoints (one is always written at the end)")
    actors: int = arg(1, "processes that play the games while the learner trains (each num_games / actors of "
                         "them: more than 1 where the games, not the learner, are the bottleneck); 0: in-process")
    engine: str = arg("auto", "what steps the training games: 'batch' (the game's batched engine, "
                              "card_envs.batch; its ENGINES name the games with one), 'reference' (the rules engines) "
                              "or 'auto' (batch where the game has one and numba is installed)")
    compute_dtype: str = arg("float32", "the network's matrix products in training (the learner's updates and the "
                                        "actor's forward passes): 'float32', 'bfloat16' (CPU autocast: twice as fast on "
                                        "some CPUs with native bf16, slower on others, 6x slower where emulated) or "
                                        "'auto' (bfloat16 where a 0.2 s timing at the start finds it faster); "
                                        "weights, optimizer and losses stay float32; evaluation is always float32")
    threads: int = arg(1, "torch CPU threads per process (more threads than free cores is very slow); cloning "
                          "(--pretrain-games) fits on every core, nothing else running then")
    compile: bool = arg(False, "compile the learner's PPO loss with torch.compile: each update 5-15%% faster, after "
                               "5-30 s of compiling at the start (cached on disk for later runs); it needs a C++ "
                               "compiler, and without one the run says so and goes on uncompiled")
    resume: bool = arg(False, "continue run_name from its latest checkpoint")
    progress: bool = arg(True, "show a progress bar")

    def validate(self) -> None:
        """ValueError naming the first nonsensical argument (``python -m card_envs.train`` shows it as a usage error)."""
        if self.env_id not in card_envs.list_envs():
            raise ValueError(f"unknown env_id {self.env_id!r}; available: {card_envs.list_envs()}")
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(f"{_flag(f.name)} must be a finite number, got {value}")
        for names, ok, rule in _LIMITS:
            for name in names:
                if not ok(getattr(self, name)):
                    raise ValueError(f"{_flag(name)} must be {rule}, got {getattr(self, name)}")
        if self.critic not in ("observation", "state"):
            raise ValueError(f"--critic must be 'observation' or 'state', got {self.critic!r}")
        if self.compute_dtype not in (*COMPUTE_DTYPES, "auto"):
            raise ValueError(f"--compute-dtype must be one of {', '.join(COMPUTE_DTYPES)}, auto; "
                             f"got {self.compute_dtype!r}")
        if self.engine not in ENGINES:
            raise ValueError(f"--engine must be one of {', '.join(ENGINES)}, got {self.engine!r}")
        if self.engine == "batch":
            from card_envs import batch

            if self.env_id not in batch.ENGINES:
                raise ValueError(f"--engine batch: {self.env_id} has no batched engine; the games with one are "
                                 f"{', '.join(batch.ENGINES)} (use --engine reference)")
        if self.pretrain_games and not self.teacher:
            raise ValueError("--pretrain-games clones the teacher's games: it needs --teacher (e.g. --teacher heuristic)")
        if self.dagger_rounds and not self.pretrain_games:
            raise ValueError("--dagger-rounds corrects a clone: it needs --pretrain-games (and --teacher)")
        if self.pretrain_temperature and not self.pretrain_games:
            raise ValueError("--pretrain-temperature sets cloning's target: it needs --pretrain-games (and --teacher)")
        if self.actors < 0 or (self.actors > 1 and self.num_games % self.actors):
            raise ValueError(f"--actors must be 0 or a divisor of --num-games ({self.num_games}), got {self.actors}")
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"--hidden needs positive widths, got {self.hidden}")
        if self.num_games * self.num_steps < self.num_minibatches:
            raise ValueError("a rollout (num_games * num_steps) must hold at least one sample per minibatch")
        game = card_envs.make_game(self.env_id, **self.env_config)  # a bad --env-config fails here
        # The pool and the teacher act in batches from observations: no search policies.
        named = [("opponent", "--opponents", name) for name in self.opponents]
        named += [("teacher", "--teacher", self.teacher)] if self.teacher else []
        for role, flag, name in named:
            if name not in opponent_names(game) and not name.endswith(".pt"):
                raise ValueError(f"unknown {role} {name!r}; {flag} takes {opponent_names(game)} "
                                 "or checkpoint .pt files")
            if getattr(make_policy(name, game), "needs_state", False):  # a checkpoint that does not fit fails here
                raise ValueError(f"{role} {name} was trained with other observation options than "
                                 f"{game.config}; {flag} acts from this game's observations: pass its "
                                 "options in --env-config")
        if self.pretrain_games and self.pretrain_temperature:
            check_scored_teacher(make_policy(self.teacher, game), self.teacher)

    def to_json(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(self).items()}


# (fields, test, rule): what `Args.validate` requires of numeric arguments beyond being finite.
_LIMITS = [
    (("total_steps", "num_games", "num_steps", "update_epochs", "num_minibatches", "snapshot_every",
      "eval_deals", "final_eval_deals", "checkpoint_every", "threads", "pretrain_epochs", "dagger_games",
      "dagger_epochs"), lambda v: v >= 1,
     "at least 1"),
    (("learning_rate", "clip_coef", "max_grad_norm"), lambda v: v > 0, "> 0"),
    (("seed", "max_minutes", "eval_every", "pool_size", "ent_coef", "vf_coef", "teacher_coef", "pretrain_games",
      "pretrain_temperature", "dagger_rounds"), lambda v: v >= 0, ">= 0"),
    (("gamma", "gae_lambda", "opponent_share", "teacher_until"), lambda v: 0 <= v <= 1, "in [0, 1]"),
]


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


# ----- command line -------------------------------------------------------------------------
def parse_args(argv: list[str] | None = None, parser: argparse.ArgumentParser | None = None
               ) -> tuple[Args, set[str]]:
    """Args from ``Args()`` < ``DEFAULTS[env_id]`` < the command line; also the names given.
    ``--env-config`` is merged into the game's default one (Illimat's recipe needs its
    ``harvest_features``, whatever else is asked): a key given wins."""
    parser = parser or build_parser(_env_id_in(argv))
    given = {k: tuple(v) if isinstance(v, list) else v for k, v in vars(parser.parse_args(argv)).items()
             if v is not None}
    tuned = DEFAULTS.get(given.get("env_id", Args.env_id), {})
    if "env_config" in given:
        given["env_config"] = {**tuned.get("env_config", {}), **given["env_config"]}
    return Args(**{**tuned, **given}), set(given)


def _env_id_in(argv: list[str] | None) -> str:
    """The env id on the command line (the default's if none), before parsing: --help shows
    that game's defaults."""
    return next((a for a in (sys.argv[1:] if argv is None else argv) if a in card_envs.list_envs()), Args.env_id)


def build_parser(env_id: str = Args.env_id) -> argparse.ArgumentParser:
    """One option per `Args` field, its help showing the default `env_id` will use (`Args()` <
    `DEFAULTS[env_id]`); defaults are suppressed so that `parse_args` sees what was given."""
    game_defaults = DEFAULTS.get(env_id, {})
    parser = argparse.ArgumentParser(prog="python -m card_envs.train", description=__doc__.splitlines()[0],
                                     usage="%(prog)s [env_id] [--option VALUE ...]  (--help lists the options)",
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=f"The defaults shown are {env_id}'s (per-game defaults: train/configs.py)")
    parser.add_argument("env_id", nargs="?", default=None, choices=card_envs.list_envs(),
                        help="registered env id (default three_piles_v0)")
    for f in dataclasses.fields(Args):
        if f.name == "env_id":
            continue
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        shown = game_defaults.get(f.name, default)
        flag, help_text = "--" + f.name.replace("_", "-"), f"{f.metadata['help']} (default {shown!r})"
        if isinstance(default, bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=argparse.SUPPRESS, help=help_text)
        elif isinstance(default, tuple):
            item = type(default[0]) if default else str
            parser.add_argument(flag, nargs="*", type=item, default=argparse.SUPPRESS, help=help_text)
        elif isinstance(default, dict):
            parser.add_argument(flag, type=_json_object, default=argparse.SUPPRESS, help=help_text)
        else:
            parser.add_argument(flag, type=type(default), default=argparse.SUPPRESS, help=help_text)
    return parser


def _json_object(text: str) -> dict:
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"not JSON ({error}): {text!r}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"expected a JSON object like '{{\"num_players\": 3}}', got {text!r}")
    return value


def _no_constant(name: str):
    raise argparse.ArgumentTypeError(f"{name} is not a number this program accepts")


# ----- advantage estimation -----------------------------------------------------------------
def seat_gae(values: np.ndarray, seats: np.ndarray, done: np.ndarray, returns: np.ndarray,
             bootstrap: np.ndarray, gamma: float, lam: float) -> np.ndarray:
    """GAE along each (game, seat) trajectory of a turn-based rollout.

    Args:
        values: [T, N] value of the decision taken at step t in game i.
        seats: [T, N] the seat that took it.
        done: [T, N] the game ended with that step (a fresh deal follows at t+1).
        returns: [T, N, P] terminal rewards of every seat where ``done``.
        bootstrap: [N, P] value of each seat's current observation after the rollout.

    A seat's successor is its own next decision in the same game; its reward arrives as the
    game's terminal reward on its last decision. Returns the advantages [T, N].
    """
    num_steps, num_games = values.shape
    rows = np.arange(num_games)
    next_value = bootstrap.astype(np.float64).copy()  # [N, P]: value of each seat's next decision
    next_advantage = np.zeros_like(next_value)
    pending_reward = np.zeros_like(next_value)  # terminal reward not yet given to a decision
    advantages = np.zeros((num_steps, num_games))
    for t in reversed(range(num_steps)):
        ended = done[t]
        next_value[ended] = 0.0
        next_advantage[ended] = 0.0
        pending_reward[ended] = returns[t][ended]
        seat = seats[t]
        delta = pending_reward[rows, seat] + gamma * next_value[rows, seat] - values[t]
        advantages[t] = delta + gamma * lam * next_advantage[rows, seat]
        pending_reward[rows, seat] = 0.0
        next_value[rows, seat] = values[t]
        next_advantage[rows, seat] = advantages[t]
    return advantages


# ----- the run ------------------------------------------------------------------------------
class TrainingDiverged(RuntimeError):
    """A loss or a weight became NaN or infinite: the run stops, and nothing of it is saved."""


class Trainer:
    """The learner: PPO updates, evaluation, checkpoints; an actor plays the games (`card_envs.train.acting`)."""

    def __init__(self, args: Args, checkpoint: dict[str, Any] | None = None):
        self.args = args
        torch.set_num_threads(args.threads)
        self.game = card_envs.make_game(args.env_id, **args.env_config)
        torch.manual_seed(args.seed)  # before the network: its initial weights come from the seed
        self.network = make_network(self.game, args)
        # fused: one kernel over all the parameters, 3x faster than the default per-tensor loop on a CPU.
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=args.learning_rate, eps=1e-5, fused=True)
        self.minibatch_loss = compiled(minibatch_loss) if args.compile else minibatch_loss
        self.pool_states: list[dict[str, torch.Tensor]] = []  # mirrors the actor's frozen snapshots
        self.step, self.update = 0, 0
        self.trained_seconds = 0.0  # wall time of training (cloning and PPO), in all runs (a resumed run's clock)
        # Cloning is done (or none asked); a run stopped during it clones again when resumed.
        self.cloned = not args.pretrain_games or bool(args.init_from)
        self.teacher_coef = args.teacher_coef if args.teacher else 0.0  # decays with the run (--teacher-until)
        self.rng = np.random.default_rng(args.seed)
        self.last_eval: dict[str, float] = {}
        if checkpoint is not None:
            self._restore(checkpoint)
        elif args.init_from:  # a new run only: a resume has its own weights, and needs this file no more
            self._load_weights(load_checkpoint(args.init_from, args.env_id), args.init_from)
        self.run_dir = Path(args.runs_dir) / args.run_name
        self.last_checkpoint = self.run_dir / "checkpoints" / "latest.pt" if checkpoint is not None else None
        self.actor = None
        self.evaluator: EvalProcess | None = None  # --eval-process: evaluations beside training
        self.eval_due = False  # an evaluation fell due while the evaluator was busy
        self.baseline_results: dict[tuple[str, str], tuple[int, int, int]] | None = None  # for the Elo
        self.stop_requested: str | None = None  # a signal's name: stop after this update, keep it
        self.finishing = False  # trained to the end and saved: only the final evaluation is left
        self.final_deals = 0  # the final evaluation's deals (fewer than asked where --max-minutes cut it)
        self._start_clock()

    def _start_clock(self) -> None:
        """From now, this process's training time adds to ``trained_seconds``, and the run's
        `TimePlan` counts what is left of --max-minutes."""
        self.began, self.seconds_before = time.perf_counter(), self.trained_seconds
        self.plan = TimePlan.of(self.args.max_minutes, self.trained_seconds, self.began)

    def _tick(self) -> None:
        self.trained_seconds = self.seconds_before + time.perf_counter() - self.began

    def start_actor(self) -> None:
        # The actor's seed depends on where the run (re)starts, so a resumed run deals new games.
        seed = int(np.random.default_rng([self.args.seed, self.update]).integers(2**63))
        self.actor = make_actor(self.args.actors, self.game, self.args, seed, self.pool_states,
                                self.network.state_dict(), self.update, teaching=self.teacher_coef > 0)

    def stop_actor(self) -> None:
        if self.actor is not None:
            self.actor.close()
            self.actor = None

    # ----- PPO update -------------------------------------------------------------------
    def learn(self, rollout: Rollout) -> dict[str, float]:
        args = self.args
        advantages = seat_gae(rollout.values, rollout.seats, rollout.done, rollout.returns,
                              rollout.bootstrap, args.gamma, args.gae_lambda)
        keep = rollout.learner
        # Inputs in the compute dtype once: the minibatches then gather half the bytes in bfloat16
        # (autocast would cast them to it anyway).
        dtype = torch_dtype(args.compute_dtype)
        observations = torch.from_numpy(rollout.observations[keep]).to(dtype)
        # The first layer multiplies the active columns alone (`active_columns`), in float32 only:
        # there its products differ from the actor's by float rounding, in bfloat16 by more.
        columns = active_columns(observations) if self.network.takes_columns and dtype == torch.float32 else None
        if columns is not None:
            observations = observations.index_select(1, columns)
        offsets = mask_offsets(torch.from_numpy(rollout.masks[keep]))  # the masks, once for all minibatches
        critic_inputs = torch.from_numpy(rollout.critic_inputs[keep]).to(dtype) if self.network.critic else None
        actions = torch.from_numpy(rollout.actions[keep])
        teacher_actions = torch.from_numpy(rollout.teacher_actions[keep])
        # The teacher labels all the learner's decisions of a rollout or none (its flag comes with the weights).
        imitating = self.teacher_coef > 0 and bool((teacher_actions >= 0).all())
        chosen = torch.stack([actions, teacher_actions], 1) if imitating else actions[:, None]
        old_log_probs = torch.from_numpy(rollout.log_probs[keep])
        old_values = rollout.values[keep]
        advantages = torch.from_numpy(advantages[keep]).float()
        targets = advantages + torch.from_numpy(old_values)
        size = len(actions)
        minibatch = max(1, size // args.num_minibatches)
        teacher_coef = torch.tensor(self.teacher_coef if imitating else 0.0)  # a tensor: no recompile as it decays
        clip_fractions = []
        for _epoch in range(args.update_epochs):
            order = torch.from_numpy(self.rng.permutation(size))
            for start in range(0, size - minibatch + 1, minibatch):
                idx = order[start:start + minibatch]
                # index_select: 6x faster than [idx] on rows
                loss, terms = self.minibatch_loss(
                    self.network, observations.index_select(0, idx),
                    None if critic_inputs is None else critic_inputs.index_select(0, idx),
                    offsets.index_select(0, idx), chosen.index_select(0, idx), old_log_probs[idx],
                    advantages[idx], targets[idx], teacher_coef, args.clip_coef, args.ent_coef, args.vf_coef,
                    args.compute_dtype, columns)
                clip_fractions.append(terms["clipfrac"].item())
                if not torch.isfinite(loss):  # before the step: the weights are still the last good ones
                    raise FloatingPointError(f"non-finite loss (policy {terms['policy_loss'].item():.3g}, "
                                             f"value {terms['value_loss'].item():.3g}, "
                                             f"entropy {terms['entropy'].item():.3g})")
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.network.parameters(), args.max_grad_norm)
                self.optimizer.step()
        explained = 1 - np.var(targets.numpy() - old_values) / (np.var(targets.numpy()) + 1e-8)
        losses = {name: terms[name].item() for name in ("policy_loss", "value_loss", "entropy", "approx_kl")}
        losses.update(clipfrac=float(np.mean(clip_fractions)), explained_variance=float(explained))
        if imitating:  # how often the acting policy already chose as the teacher does
            losses["imitation"] = terms["imitation"].item()
            losses["teacher_agreement"] = (actions == teacher_actions).float().mean().item()
        return losses

    # ----- evaluation and checkpoints ---------------------------------------------------
    def evaluate(self, deals: int) -> dict[str, float]:
        """Greedy policy vs each baseline over the same seed list every time (comparable curves);
        the baselines' own match, for the Elo, is played once per run."""
        results, self.baseline_results = evaluate_policy(self.game, self.network, deals, self.baseline_results)
        self.network.train()
        return results

    def network_spec(self) -> dict[str, Any]:
        """The network as `card_envs.agents.neural.network_from_checkpoint` rebuilds it (in another process)."""
        return {"env_id": self.args.env_id, "game_config": self.game.config,
                "observation_size": self.game.observation_size, "num_actions": self.game.num_actions,
                "hidden": list(self.args.hidden), "critic_size": self.network.critic_size,
                "entity_heads": self.args.entity_heads, "model": self.network.state_dict()}

    def checkpoint(self) -> dict[str, Any]:
        return {**self.network_spec(), "optimizer": self.optimizer.state_dict(), "args": self.args.to_json(),
                "step": self.step, "update": self.update, "seed": self.args.seed,
                "trained_seconds": self.trained_seconds, "cloned": self.cloned,
                "rng": json.dumps(self.rng.bit_generator.state), "torch_rng": torch.get_rng_state(),
                "opponent_pool": self.pool_states, "eval": self.last_eval}

    def save(self) -> Path:
        folder = self.run_dir / "checkpoints"
        path = folder / f"step_{self.step:012d}.pt"
        state = self.checkpoint()
        save_checkpoint(path, state)
        save_checkpoint(folder / "latest.pt", state)
        self.last_checkpoint = path
        return path

    def _load_weights(self, checkpoint: dict[str, Any], where: str = "checkpoint") -> None:
        """The checkpoint's weights into this run's network, refused (ValueError) where its shape differs."""
        expected = (self.game.observation_size, self.game.num_actions, list(self.args.hidden), self.network.critic_size,
                    self.args.entity_heads)
        found = (checkpoint["observation_size"], checkpoint["num_actions"], list(checkpoint["hidden"]),
                 checkpoint.get("critic_size"), bool(checkpoint.get("entity_heads")))
        if found != expected:
            raise ValueError(f"{where} network (obs, actions, hidden, critic, entity heads) = {found}, "
                             f"this run needs {expected} (its game config {checkpoint['game_config']}, this "
                             f"run's {self.game.config}: match them with --env-config, --hidden, --critic, "
                             "--entity-heads)")
        self.network.load_state_dict(network_from_checkpoint(checkpoint).state_dict())

    def _restore(self, checkpoint: dict[str, Any]) -> None:
        self._load_weights(checkpoint)
        self.optimizer.load_state_dict(checkpoint["optimizer"])
        self.step, self.update = checkpoint["step"], checkpoint["update"]
        self.trained_seconds = checkpoint.get("trained_seconds", 0.0)  # older checkpoints: the clock restarts
        self.cloned = checkpoint.get("cloned", self.update > 0 or not self.args.pretrain_games)
        self.rng.bit_generator.state = json.loads(checkpoint["rng"])
        torch.set_rng_state(checkpoint["torch_rng"])
        self.pool_states = list(checkpoint["opponent_pool"])
        self.last_eval = checkpoint.get("eval", {})

    # ----- main loop --------------------------------------------------------------------
    def pretrain(self, writer=None) -> None:
        """``--pretrain-games``: fit the network to the teacher's own games before the first
        update (`card_envs.train.pretrain`), then ``--dagger-rounds`` of corrections on the clone's own
        games, within cloning's share of ``--max-minutes`` (`TimePlan`: as many games as fit, the
        fit cut at a minibatch). A stop signal ends it at once, unfitted (``cloned`` stays False:
        the checkpoint says so, and a resumed run clones again, on a fresh clock)."""
        args, began = self.args, time.perf_counter()
        stopping = lambda: self.stop_requested is not None  # noqa: E731 - Ctrl-C: go on to the checkpoint
        fitting = lambda: stopping() or time.perf_counter() >= self.plan.cloning  # noqa: E731
        parts = [teacher_games(args.env_id, args.env_config, args.teacher, args.pretrain_games, args.seed, args.gamma,
                               workers_for(args.pretrain_games), args.progress, stopping, **self._recorded(),
                               until=self.plan.wall(self.plan.teacher_games))]
        if stopping():
            self.trained_seconds = self.seconds_before  # its games are dropped: so is their time
            return
        if parts[0].games < args.pretrain_games:
            print(f"--max-minutes: the teacher's games stopped at their share of it "
                  f"({self.plan.teacher_games - began:.0f} s): {parts[0].games:,} of the {args.pretrain_games:,} asked")
        history = self._fit_parts(parts, args.pretrain_epochs, fitting, writer, [])
        if history:  # one line, with or without progress bars: a log kept with --no-progress has it too
            print(f"cloned {len(parts[0]):,} decisions of {args.teacher}'s games in {time.perf_counter() - began:.0f} s: "
                  f"held-out agreement {history[-1]['held_out_agreement']:.3f}")
        for round_ in range(1, args.dagger_rounds + 1):
            if fitting():
                break
            history = self._dagger_round(round_, parts, history, fitting, writer)
        if stopping():  # stopped in the fit: a resumed run clones again
            self.trained_seconds = self.seconds_before
            return
        self.cloned = True
        self._tick()

    def _recorded(self) -> dict[str, bool]:
        """What the teacher's and the clone's games keep beside each decision, the same for every
        part (a refit reads them as one): the privileged critic's inputs, the teacher's scores."""
        return {"privileged": self.network.critic is not None, "scored": self.args.pretrain_temperature > 0}

    def _dagger_round(self, round_: int, parts: list, history: list[dict[str, float]], stopping, writer
                      ) -> list[dict[str, float]]:
        """The clone's games, labelled by the teacher, added to ``parts``, and the refit on them all."""
        args = self.args
        demos, record = student_games(
            args.env_id, args.env_config, args.teacher, self.network_spec(), args.opponents, args.dagger_games,
            int(np.random.SeedSequence([args.seed, round_]).generate_state(1)[0]), args.gamma,
            workers_for(args.dagger_games), args.progress, stopping, **self._recorded())
        parts.append(demos)
        history = self._fit_parts(parts, args.dagger_epochs, stopping, writer, history)
        if writer is not None and record.results:
            writer.add_scalar("dagger/student_win_rate", record.win_rate, round_)
            writer.add_scalar("dagger/student_agreement", record.agreement, round_)
        if history:
            print(f"DAgger round {round_}: the clone won {record.win_rate:.3f} of {len(record.results):,} games "
                  f"against {', '.join(args.opponents)} and chose as {args.teacher} in {record.agreement:.3f} of "
                  f"its {record.decisions:,} decisions; refitted on {sum(map(len, parts)):,} decisions: "
                  f"held-out agreement {history[-1]['held_out_agreement']:.3f}")
        return history

    def _fit_parts(self, parts: list, epochs: int, stopping, writer, history: list[dict[str, float]]
                   ) -> list[dict[str, float]]:
        """`card_envs.train.pretrain.clone` on ``parts``, its epochs logged after ``history``'s; the whole history."""
        args = self.args
        fitted = clone(self.network, parts, epochs, args.seed, args.vf_coef, args.progress, stopping,
                       args.pretrain_temperature)
        if writer is not None:
            for epoch, values in enumerate(fitted, start=len(history)):
                for name, value in values.items():
                    writer.add_scalar(f"pretrain/{name}", value, epoch)
        return history + fitted

    def train(self, writer=None) -> dict[str, float]:
        self._start_clock()
        if self.args.max_minutes:
            print(self._plan_text())
        if not self.cloned and self.update == 0:
            self.pretrain(writer)
            if self.stop_requested:  # unfitted: saved so (``cloned``), for --resume to clone again
                self.save()
                return {}
        self._follow_schedules()  # a run resumed after its teaching ended must not start labelling
        self.start_actor()
        if self.args.eval_process and self.args.eval_every:
            self.evaluator = EvalProcess(self.args)
        try:
            return self._train(writer)
        finally:
            self.stop_actor()
            self.stop_evaluator()

    def stop_evaluator(self) -> None:
        if self.evaluator is not None:
            self.evaluator.close()
            self.evaluator = None

    @property
    def total_updates(self) -> int:
        return -(-self.args.total_steps // (self.args.num_steps * self.args.num_games))

    def _plan_text(self) -> str:
        """One line: what the `TimePlan` of --max-minutes leaves each part of the run."""
        args, plan = self.args, self.plan
        parts = []
        if not self.cloned and self.update == 0:
            parts.append(f"cloning until {_seconds(plan.cloning - self.began)} at most (its teacher's games until "
                         f"{_seconds(plan.teacher_games - self.began)}: the {args.pretrain_games:,} asked or as "
                         "many as fit)")
        parts.append(f"training until {_seconds(plan.training - self.began)}")
        parts.append(f"then the final evaluation {_seconds(plan.final_eval_seconds)} "
                     f"(the {args.final_eval_deals:,} deals asked or as many as fit)")
        return f"--max-minutes {args.max_minutes:g}: " + ", ".join(parts)

    def _follow_schedules(self) -> None:
        """The learning rate and the teacher's weight at the run's progress (by whichever limit
        comes first): both decay linearly, the teacher's to 0 at ``teacher_until``."""
        args = self.args
        done = self.update / self.total_updates
        if args.max_minutes:
            done = max(done, self.trained_seconds / training_seconds(args.max_minutes))
        if args.anneal_lr:
            self.optimizer.param_groups[0]["lr"] = args.learning_rate * max(0.0, 1 - done)
        if self.teacher_coef:
            self.teacher_coef = args.teacher_coef * max(0.0, 1 - done / args.teacher_until) if args.teacher_until else 0.0

    def _train(self, writer) -> dict[str, float]:
        args = self.args
        steps_per_update = args.num_steps * args.num_games
        total_updates = self.total_updates
        next_eval = (self.step // args.eval_every + 1) * args.eval_every if args.eval_every else None
        next_checkpoint = (self.step // args.checkpoint_every + 1) * args.checkpoint_every
        bar = self._progress_bar()
        start_time, start_step = time.perf_counter(), self.step
        # The time limit counts the run's whole training time: a resumed run goes on with its clock.
        deadline = self.plan.training
        while self.update < total_updates and time.perf_counter() < deadline and not self.stop_requested:
            self._tick()
            self._follow_schedules()
            rollout, stats = self.actor.next_rollout()
            losses = self._learn_or_stop(rollout)
            self.update += 1
            self.step += steps_per_update
            self._publish()
            sps = (self.step - start_step) / (time.perf_counter() - start_time)
            self._tick()  # for the checkpoints
            if writer is not None:
                self._log(writer, losses, stats, sps)
            if next_eval is not None and self.step >= next_eval:
                self.eval_due = True
                next_eval += args.eval_every
            self._periodic_eval(writer)
            if self.step >= next_checkpoint:
                self.save()
                next_checkpoint += args.checkpoint_every
            bar.update(min(round(self.trained_seconds) if args.max_minutes else self.step, bar.total) - bar.n)
            bar.set_postfix_str(self._postfix(sps))
        self.stop_actor()  # before the final evaluation: it gets the machine to itself
        if self.stop_requested:  # interrupted: keep the work, skip the final evaluation
            self.stop_evaluator()
            self.save()
            bar.close()
            return {}
        if self.step == start_step and self.last_eval:  # a finished run resumed: its final evaluation stands
            bar.close()
            return self.last_eval
        # The trained weights are kept before the final evaluation (minutes on some games): a stop
        # signal from here on interrupts the evaluation at once (`_stop_on_signals`).
        self.save()
        self.finishing = True
        if self.stop_requested:  # came while saving
            raise KeyboardInterrupt
        self._finish_periodic_evals(writer, out_of_time=time.perf_counter() >= deadline)
        self._final_eval(writer)
        self.save()
        bar.set_postfix_str(self._postfix((self.step - start_step) / (time.perf_counter() - start_time)))
        bar.close()
        return self.last_eval

    def _progress_bar(self) -> tqdm:
        """The run's bar, with one total from start to end: on --max-minutes, the training time
        (cloning's already counted; what ends such runs, the steps are in the postfix); else the steps."""
        args = self.args
        if args.max_minutes:
            total = round(training_seconds(args.max_minutes))
            return tqdm(total=total, initial=min(round(self.trained_seconds), total), desc="training",
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n}/{total} s [{elapsed}<{remaining}{postfix}]",
                        disable=not args.progress, dynamic_ncols=True)
        return tqdm(total=args.total_steps, initial=min(self.step, args.total_steps), unit="step",
                    disable=not args.progress, dynamic_ncols=True)

    def _learn_or_stop(self, rollout: Rollout) -> dict[str, float]:
        """`learn`, raising `TrainingDiverged` on a non-finite loss or weight, before the weights
        reach the actor or a checkpoint."""
        try:
            losses = self.learn(rollout)
            bad = [name for name, p in self.network.named_parameters() if not p.isfinite().all()]
            if bad:
                raise FloatingPointError(f"non-finite weights in {', '.join(bad)}")
        except FloatingPointError as error:
            raise TrainingDiverged(
                f"training diverged at step {self.step + self.args.num_steps * self.args.num_games:,} "
                f"(update {self.update + 1}): {error}; "
                f"last good checkpoint: {self.last_checkpoint or 'none (no checkpoint written yet)'}") from error
        return losses

    def _publish(self) -> None:
        """Send the new weights to the actor; every ``snapshot_every`` updates they also join the
        opponent pool (the actor adds them on its side, this keeps a copy for checkpoints)."""
        weights = self.network.state_dict()
        self.actor.publish(weights, self.update, teaching=self.teacher_coef > 0)
        if self.args.pool_size and self.update % self.args.snapshot_every == 0:
            frozen = {k: v.clone() for k, v in weights.items()}
            self.pool_states = (self.pool_states + [frozen])[-self.args.pool_size:]

    def _log(self, writer, losses: dict[str, float], stats: dict[str, list], sps: float) -> None:
        for name, value in losses.items():
            writer.add_scalar(f"losses/{name}", value, self.step)
        writer.add_scalar("charts/SPS", sps, self.step)
        writer.add_scalar("charts/learning_rate", self.optimizer.param_groups[0]["lr"], self.step)
        if self.args.teacher:
            writer.add_scalar("charts/teacher_coef", self.teacher_coef, self.step)
        if stats["episode_length"]:
            writer.add_scalar("charts/episode_length", np.mean(stats["episode_length"]), self.step)
        if stats["pool_reward"]:
            writer.add_scalar("charts/reward_vs_pool", np.mean(stats["pool_reward"]), self.step)

    def _periodic_eval(self, writer) -> None:
        """Log what the evaluator finished; start a due evaluation (in the learner without one)."""
        if self.evaluator is None:
            if self.eval_due:
                self._log_eval(writer)
                self.eval_due = False
            return
        self._log_finished(writer, self.evaluator.poll())
        if self.eval_due and self.evaluator.submit(self.step, self.network.state_dict()):
            self.eval_due = False

    def _finish_periodic_evals(self, writer, out_of_time: bool) -> None:
        """Log the periodic evaluation in flight and stop the evaluator. Where the run ended on
        --max-minutes, one not yet finished is dropped instead: the final evaluation supersedes it
        and needs the time left (on Illimat a starved one held the end of an hour's run 14 minutes)."""
        if self.evaluator is None:
            return
        self._log_finished(writer, self.evaluator.poll(wait=not out_of_time))
        if self.evaluator.busy:
            print("--max-minutes reached: the periodic evaluation in flight is dropped; the final one follows")
        self.stop_evaluator()

    def _log_finished(self, writer, finished) -> None:
        for step, results, baselines in finished:
            self.baseline_results = baselines  # the final evaluation's Elo reuses their match
            self._write_eval(writer, results, step)

    def _final_eval(self, writer) -> None:
        """`card_envs.evaluate` of the saved checkpoint over ``final_eval_deals``, in one process per core
        when it is longer than a chunk (a pool takes seconds to start); on --max-minutes, within
        its share (`TimePlan`), over fewer deals where they do not fit."""
        deals, began = self.args.final_eval_deals, time.perf_counter()
        workers = available_cores() if deals > FINAL_CHUNK else 1
        results, self.baseline_results = evaluate_checkpoint(
            self.args.env_id, self.game.config, str(self.last_checkpoint), deals, self.baseline_results, workers,
            progress=self.args.progress, until=began + self.plan.final_eval_seconds)
        self.final_deals = results[f"games_vs_{policy_names(self.game)[0]}"] // games_per_deal(self.game)
        if self.final_deals < deals:
            print(f"--max-minutes: the final evaluation stopped at its share of it "
                  f"({_seconds(self.plan.final_eval_seconds)}): {self.final_deals:,} of the {deals:,} deals asked")
        self._write_eval(writer, results, self.step)

    def _log_eval(self, writer, deals: int | None = None) -> None:
        self._write_eval(writer, self.evaluate(deals or self.args.eval_deals), self.step)

    def _write_eval(self, writer, results: dict[str, float], step: int) -> None:
        self.last_eval = results
        if writer is not None:
            for name, value in results.items():
                writer.add_scalar(f"eval/{name}", value, step)
            writer.flush()

    def _postfix(self, sps: float) -> str:
        text = f"{self.step:,} steps | SPS {sps:,.0f}" if self.args.max_minutes else f"SPS {sps:,.0f}"
        for name in policy_names(self.game):
            if f"win_rate_vs_{name}" in self.last_eval:
                low, high = (self.last_eval[f"win_rate_vs_{name}_ci_{s}"] for s in ("low", "high"))
                text += f" | vs {name} {self.last_eval[f'win_rate_vs_{name}']:.3f} [{low:.2f}, {high:.2f}]"
        if "elo" in self.last_eval:
            text += f" | Elo {self.last_eval['elo']:.0f}"
        return text


def _seconds(seconds: float) -> str:
    return f"{max(0.0, seconds):.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def hyperparameter_table(args: Args) -> str:
    rows = "\n".join(f"|{k}|{v}|" for k, v in args.to_json().items())
    return f"|param|value|\n|-|-|\n{rows}"


def resolve_auto(args: Args) -> None:
    """``--engine auto`` and ``--compute-dtype auto`` made what this machine runs, as the
    checkpoints and the log record it (a resume keeps it unless the flag is given)."""
    args.engine = game_engine(args.env_id, args.engine)
    args.compute_dtype = resolve_compute_dtype(args.compute_dtype)


# What a resume may change (its length and resources); the rest is the run's saved recipe.
RESUMABLE = ("total_steps", "max_minutes", "eval_every", "eval_process", "checkpoint_every", "progress", "threads",
             "engine", "compute_dtype", "actors", "compile")


def start(args: Args, given: set[str]) -> Trainer:
    """A new Trainer, or one resumed from ``runs/<run_name>/checkpoints/latest.pt``; ValueError
    (or FileNotFoundError) on a bad argument, before anything is trained."""
    check_run_name(args.run_name)
    if not args.resume:
        if not args.run_name:
            args.run_name = f"{args.env_id}__s{args.seed}__{time.strftime('%Y%m%d-%H%M%S')}"
        if any((Path(args.runs_dir) / args.run_name / "checkpoints").glob("*.pt")):
            raise ValueError(f"run {args.run_name!r} already has checkpoints; use --resume to continue it "
                             "or another --run-name")
        args.validate()
        resolve_auto(args)
        trainer = Trainer(args)  # before the folder: a refused --init-from must not leave one
        check_writable(trainer.run_dir)
        return trainer
    if not args.run_name:
        raise ValueError("--resume needs --run-name (the folder under --runs-dir to continue)")
    path = Path(args.runs_dir) / args.run_name / "checkpoints" / "latest.pt"
    if not path.is_file():
        raise ValueError(f"--resume: run {args.run_name!r} has no checkpoint to resume from (it stopped before "
                         "its first): start it again without --resume" if path.parent.parent.is_dir() else
                         f"--resume: there is no run {args.run_name!r} in {args.runs_dir}")
    checkpoint = load_checkpoint(path)
    missing = [k for k in ("args", "optimizer", "step", "update", "rng", "torch_rng", "opponent_pool")
               if k not in checkpoint]
    if missing:
        raise ValueError(f"cannot resume from {path}: it lacks the training state {missing} (weights only?)")
    saved = {"engine": "reference", **checkpoint["args"]}  # runs from before --engine: as they were
    if "env_id" in given and args.env_id != saved["env_id"]:
        raise ValueError(f"{path} was trained on {saved['env_id']!r}, not {args.env_id!r}")
    load_checkpoint(path, args.env_id if "env_id" in given else saved["env_id"])
    # The saved arguments win, except what may change on a resume.
    overrides = {k: getattr(args, k) for k in RESUMABLE if k in given}
    resumed = Args(**{**{k: tuple(v) if isinstance(v, list) else v for k, v in saved.items()},
                      **overrides, "resume": True, "runs_dir": args.runs_dir, "run_name": args.run_name})
    resumed.validate()
    resolve_auto(resumed)
    check_writable(path.parent)
    return Trainer(resumed, checkpoint)


def check_run_name(name: str) -> None:
    """ValueError unless ``name`` is one folder name: a run stays inside --runs-dir."""
    if name in (".", "..") or any(sep in name for sep in ("/", os.sep, os.altsep) if sep):
        raise ValueError(f"--run-name must be one folder name inside --runs-dir (no path separator, "
                         f"not . or ..), got {name!r}")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser(_env_id_in(argv))
    args, given = parse_args(argv, parser)
    try:
        trainer = start(args, given)
    except (ValueError, FileNotFoundError) as error:
        parser.error(str(error))  # usage, one line of error, exit code 2
    from torch.utils.tensorboard import SummaryWriter  # imported late: it is slow to import

    # On a resume from step S, TensorBoard drops what the killed run logged after S (purge_step
    # hides events at steps >= S + 1), so the two runs' curves never overlap.
    writer = SummaryWriter(str(trainer.run_dir), purge_step=trainer.step + 1 if trainer.step else None)
    writer.add_text("hyperparameters", hyperparameter_table(trainer.args), trainer.step)
    print(f"training {trainer.args.env_id} -> {trainer.run_dir} (tensorboard --logdir {trainer.args.runs_dir})")
    if args.resume:
        kept = sorted(set(given) - set(RESUMABLE) - {"resume", "run_name", "runs_dir", "env_id"})
        note = "" if trainer.update < trainer.total_updates else " (nothing left to train: give a larger --total-steps)"
        if kept:
            note += (f"; kept the run's own {', '.join(map(_flag, kept))} (a resume may change only "
                     f"{', '.join(map(_flag, RESUMABLE))})")
        print(f"resuming from step {trainer.step:,}{note}")
    received = _stop_on_signals(trainer)
    try:
        result = trainer.train(writer)
    except TrainingDiverged as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # a stop during the final evaluation, or a second Ctrl-C
        name = trainer.stop_requested or "SIGINT"
        latest = trainer.run_dir / "checkpoints" / "latest.pt"
        if trainer.finishing:
            print(f"{name}: final evaluation interrupted; the trained checkpoint (step {trainer.step:,}) is "
                  f"{latest}; evaluate it with: python -m card_envs.evaluate {trainer.args.env_id} --gauntlet {latest}")
        else:
            print(f"{name} again: stopped at once; last checkpoint: {trainer.last_checkpoint or 'none'}")
        return 128 + getattr(signal, name)
    finally:
        writer.close()
        for signum, handler in received.items():
            signal.signal(signum, handler)
    if trainer.stop_requested:
        runs_dir = "" if trainer.args.runs_dir == Args.runs_dir else f" --runs-dir {trainer.args.runs_dir}"
        where = "" if trainer.cloned else (" during cloning (the checkpoint's weights are unfitted; the resumed run "
                                           "clones)")
        print(f"{trainer.stop_requested}: stopped at step {trainer.step:,}{where}, checkpoint "
              f"{trainer.run_dir / 'checkpoints' / 'latest.pt'}; resume with: "
              f"python -m card_envs.train --resume --run-name {trainer.args.run_name}{runs_dir}")
        return 128 + getattr(signal, trainer.stop_requested)
    print(f"final checkpoint: {trainer.run_dir / 'checkpoints' / 'latest.pt'}")
    for name in policy_names(trainer.game):
        rate, low, high = (result[f"win_rate_vs_{name}{s}"] for s in ("", "_ci_low", "_ci_high"))
        games = result.get(f"games_vs_{name}", games_per_deal(trainer.game) * trainer.args.final_eval_deals)
        print(f"  vs {name:10} win rate {rate:.3f}  (Wilson 95% [{low:.3f}, {high:.3f}], {games:,} seat-rotated games)")
    return 0


REPEAT_SECONDS = 2.0  # a signal this soon after the first is the same request, sent twice


def _stop_on_signals(trainer: Trainer) -> dict[int, Any]:
    """Ctrl-C (SIGINT) or SIGTERM asks the trainer to stop after the update in progress and save
    a checkpoint; during the final evaluation (the checkpoint already saved) it interrupts it with
    a KeyboardInterrupt. A repeat within `REPEAT_SECONDS` is ignored: `timeout` signals the
    learner and then its whole process group, and a terminal's Ctrl-C may come with a scheduler's
    SIGTERM. A later second signal acts as usual (the previous handlers are put back).
    Returns the previous handlers, to restore when training ends."""
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    first = []  # when the first signal came

    def request_stop(signum, frame) -> None:
        if first and time.monotonic() - first[0] < REPEAT_SECONDS:
            return
        if first:  # asked again: stop as the signal would without us
            for number, handler in previous.items():
                signal.signal(number, handler)
            signal.raise_signal(signum)
            return
        first.append(time.monotonic())
        trainer.stop_requested = signal.Signals(signum).name
        if trainer.finishing:
            raise KeyboardInterrupt

    for signum in previous:
        signal.signal(signum, request_stop)
    return previous
