"""The options of ``python -m card_envs.train`` (`card_envs.train.ppo`): the `Args` dataclass, one
field per option with its help, its validation, and the command line built from it (`parse_args`,
`build_parser`: ``Args()`` < the game's ``DEFAULTS`` < the flags given); also what the command does
on Ctrl-C or SIGTERM (`stop_on_signals`).
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
from typing import Any

import card_envs
from card_envs.agents import is_checkpoint, make_policy, named_bots_text, opponent_names
from card_envs.train.acting import COMPUTE_DTYPES, ENGINES, game_engine, resolve_compute_dtype
from card_envs.train.configs import DEFAULTS, recipe_names, recipes_text, stages
from card_envs.train.evaluating import FINAL_CHUNK
from card_envs.train.pretrain import check_scored_teacher

DESCRIPTION = "Self-play PPO with a masked actor-critic, for any registered card_envs game."  # ppo.py's first line


def arg(default: Any, help: str) -> Any:  # noqa: A002 - mirrors argparse's keyword
    """An `Args` field with its --help text (a dict, list or tuple default is copied for each `Args`)."""
    if isinstance(default, (dict, list, tuple)):
        return field(default_factory=lambda: type(default)(default), metadata={"help": help})
    return field(default=default, metadata={"help": help})


@dataclass
class Args:
    env_id: str = arg("three_piles_v0", "registered env id")
    env_config: dict = arg({}, "game arguments as JSON, e.g. '{\"num_players\": 3}' (merged into the game's default)")
    recipe: str = arg("", "a named recipe of the game instead of its default one (train/configs.py RECIPES). A "
                          "recipe of stages trains them one after another in --run-name's folder, each in its "
                          "own sub-folder stage<k>_<name>, stage k > 1 from stage k-1's final checkpoint; the "
                          "options given apply to every stage (--max-minutes and --total-steps: to each one), "
                          "--init-from to the first; --resume goes on with the first unfinished stage")
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
                             "shipped:illimat_v0) instead of a fresh network, with a fresh optimizer: "
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
                raise ValueError(f"{flag(f.name)} must be a finite number, got {value}")
        for names, ok, rule in _LIMITS:
            for name in names:
                if not ok(getattr(self, name)):
                    raise ValueError(f"{flag(name)} must be {rule}, got {getattr(self, name)}")
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
            unbatched = batch.unbatched(self.env_id, self.env_config or {})
            if unbatched:
                raise ValueError(f"--engine batch: {self.env_id}'s batched engine does not compute "
                                 f"{', '.join(unbatched)} yet (use --engine reference or auto)")
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
        for role, option, name in named:
            if name not in opponent_names(game) and not is_checkpoint(name):
                raise ValueError(f"unknown {role} {name!r}; {option} takes {opponent_names(game)}, "
                                 "checkpoint .pt files or shipped:<env_id>")
            if getattr(make_policy(name, game), "needs_state", False):  # a checkpoint that does not fit fails here
                raise ValueError(f"{role} {name} was trained with other observation options than "
                                 f"{game.config}; {option} acts from this game's observations: pass its "
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


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


# ----- command line -------------------------------------------------------------------------
def parse_args(argv: list[str] | None = None, parser: argparse.ArgumentParser | None = None
               ) -> tuple[Args, set[str]]:
    """Args from ``Args()`` < ``DEFAULTS[env_id]`` (or the ``--recipe``'s, `configs.RECIPES`) < the
    command line; also the names given.
    ``--env-config`` is merged into the game's default one (Illimat's recipe needs its
    ``harvest_features``, whatever else is asked): a key given wins."""
    parser = parser or build_parser(env_id_in(argv))
    given = options_given(argv, parser)
    env_id = given.get("env_id", Args.env_id)
    try:
        first = stages(env_id, given.get("recipe", ""))[0][1]  # a recipe of stages: its first one's
    except KeyError:
        parser.error(f"--recipe {given['recipe']!r}: {env_id}'s recipes are {recipe_names(env_id) or 'none'} "
                     "(besides its default)")
    return with_options(first, given), set(given)


def options_given(argv: list[str] | None, parser: argparse.ArgumentParser) -> dict[str, Any]:
    """The options on the command line (``parser``: `build_parser`'s), by field name."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in vars(parser.parse_args(argv)).items()
            if v is not None}


def with_options(settings: dict[str, Any], given: dict[str, Any]) -> Args:
    """``Args()`` < a recipe's ``settings`` < the options ``given``; ``env_config`` merged into the recipe's."""
    if "env_config" in given:
        given = {**given, "env_config": {**settings.get("env_config", {}), **given["env_config"]}}
    return Args(**{**settings, **given})


def env_id_in(argv: list[str] | None) -> str:
    """The env id on the command line (the default's if none), before parsing: --help shows
    that game's defaults."""
    return next((a for a in (sys.argv[1:] if argv is None else argv) if a in card_envs.list_envs()), Args.env_id)


def build_parser(env_id: str = Args.env_id) -> argparse.ArgumentParser:
    """One option per `Args` field, its help showing the default `env_id` will use (`Args()` <
    `DEFAULTS[env_id]`); defaults are suppressed so that `parse_args` sees what was given."""
    game_defaults = DEFAULTS.get(env_id, {})
    parser = argparse.ArgumentParser(prog="python -m card_envs.train", description=DESCRIPTION,
                                     usage="%(prog)s [env_id] [--option VALUE ...]  (--help lists the options)",
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=f"The defaults shown are {env_id}'s (per-game defaults and the named "
                                            f"recipes of --recipe: train/configs.py)")
    parser.add_argument("env_id", nargs="?", default=None, choices=card_envs.list_envs(),
                        help="registered env id (default three_piles_v0)")
    for f in dataclasses.fields(Args):
        if f.name == "env_id":
            continue
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        shown = game_defaults.get(f.name, default)
        option, help_text = flag(f.name), f"{f.metadata['help']} (default {shown!r})"
        if f.name == "recipe":
            help_text += f"; {env_id}'s: {recipes_text(env_id)}"
        if isinstance(default, bool):
            parser.add_argument(option, action=argparse.BooleanOptionalAction, default=argparse.SUPPRESS, help=help_text)
        elif isinstance(default, tuple):
            item = type(default[0]) if default else str
            parser.add_argument(option, nargs="*", type=item, default=argparse.SUPPRESS, help=help_text)
        elif isinstance(default, dict):
            parser.add_argument(option, type=_json_object, default=argparse.SUPPRESS, help=help_text)
        else:
            parser.add_argument(option, type=type(default), default=argparse.SUPPRESS, help=help_text)
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


# ----- a run's arguments --------------------------------------------------------------------
def hyperparameter_table(args: Args) -> str:
    rows = "\n".join(f"|{k}|{v}|" for k, v in args.to_json().items())
    return f"|param|value|\n|-|-|\n{rows}"


def resolve_auto(args: Args) -> None:
    """``--engine auto`` and ``--compute-dtype auto`` made what this machine runs, as the
    checkpoints and the log record it (a resume keeps it unless the flag is given)."""
    args.engine = game_engine(args.env_id, args.engine, args.env_config)
    args.compute_dtype = resolve_compute_dtype(args.compute_dtype)


# What a resume may change (its length and resources); the rest is the run's saved recipe.
RESUMABLE = ("total_steps", "max_minutes", "eval_every", "eval_process", "checkpoint_every", "progress", "threads",
             "engine", "compute_dtype", "actors", "compile")


def check_run_name(name: str) -> None:
    """ValueError unless ``name`` is one folder name: a run stays inside --runs-dir."""
    if name in (".", "..") or any(sep in name for sep in ("/", os.sep, os.altsep) if sep):
        raise ValueError(f"--run-name must be one folder name inside --runs-dir (no path separator, "
                         f"not . or ..), got {name!r}")


# ----- signals ------------------------------------------------------------------------------
REPEAT_SECONDS = 2.0  # a signal this soon after the first is the same request, sent twice


def stop_on_signals(trainer) -> dict[int, Any]:
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
