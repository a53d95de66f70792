"""Recipes of several stages (`card_envs.train.configs.Stages`): ``python -m card_envs.train <env_id>
--recipe <name>`` trains them one after another, each a whole run of the trainer.

- The run folder (``--runs-dir``/``--run-name``) holds one sub-folder per stage,
  ``stage<k>_<name>`` (its checkpoints and TensorBoard log), and ``stages.json``: the game, the
  recipe, the options given and the stages finished.
- Stage 1 starts as the recipe says (cloning first, or from ``--init-from``); stage k > 1 from the
  final checkpoint of stage k-1 (``init_from``: its weights, a fresh optimizer, no cloning).
- The options given apply to every stage, on top of each stage's settings (``--max-minutes`` and
  ``--total-steps`` bound each stage, as the recipe's own limits do), but ``--init-from``, which
  only stage 1 takes.
- ``--resume --run-name <run>`` skips the finished stages, resumes the one that stopped from its
  last checkpoint and starts the rest; the options a resume may change (`options.RESUMABLE`) given
  then apply to it and to the stages after it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from card_envs.core.files import atomic_write
from card_envs.train.configs import stages
from card_envs.train.options import RESUMABLE, Args, check_run_name, with_options

MANIFEST = "stages.json"
# Given options that name the run rather than set a stage: the chain keeps them itself.
CHAIN_OPTIONS = ("env_id", "recipe", "run_name", "runs_dir", "resume")


@dataclass
class Chain:
    """A run of a recipe's stages: where it is, what was asked, and what is done."""
    env_id: str
    recipe: str
    folder: Path
    options: dict[str, Any]  # the options given, but `CHAIN_OPTIONS`
    finished: list[str] = field(default_factory=list)  # the stages' folder names

    @property
    def stages(self) -> list[tuple[str, dict[str, Any]]]:
        return list(stages(self.env_id, self.recipe))

    def stage_folder(self, k: int) -> str:
        """Stage k's (from 0) sub-folder: stage<k+1>_<name>."""
        return f"stage{k + 1}_{self.stages[k][0]}"

    def checkpoint(self, k: int) -> Path:
        """Stage k's latest checkpoint (its final one once it is finished)."""
        return self.folder / self.stage_folder(k) / "checkpoints" / "latest.pt"

    def args(self, k: int) -> Args:
        """Stage k's arguments as a new run: its settings < the options given; after the first
        stage, from the stage before's final checkpoint."""
        options = {**self.options, "env_id": self.env_id, "recipe": self.recipe, "runs_dir": str(self.folder),
                   "run_name": self.stage_folder(k)}
        if k:
            options["init_from"] = str(self.checkpoint(k - 1))
        return with_options(self.stages[k][1], options)

    def started(self, k: int) -> bool:
        return self.checkpoint(k).is_file()

    def plan_text(self, k: int) -> str:
        """One line: which stage of how many, where, and what it starts from."""
        args = self.args(k)
        if k:
            origin = f"from stage {k}'s final checkpoint"
        else:
            origin = f"from {args.init_from}" if args.init_from else "from a fresh network" + (
                f" (cloning {args.teacher}'s games first)" if args.pretrain_games else "")
        return f"stage {k + 1} of {len(self.stages)} ({self.stages[k][0]}) of --recipe {self.recipe}: {origin} -> " \
               f"{self.folder / self.stage_folder(k)}"

    def resume_command(self) -> str:
        runs_dir = "" if self.folder.parent == Path(Args.runs_dir) else f" --runs-dir {self.folder.parent}"
        return f"python3 -m card_envs.train --resume --run-name {self.folder.name}{runs_dir}"

    def finish(self, k: int) -> None:
        self.finished.append(self.stage_folder(k))
        self.save()

    def save(self) -> None:
        manifest = {"env_id": self.env_id, "recipe": self.recipe, "options": _json_ready(self.options),
                    "stages": [self.stage_folder(k) for k in range(len(self.stages))], "finished": self.finished}
        atomic_write(self.folder / MANIFEST, lambda tmp: Path(tmp).write_text(json.dumps(manifest, indent=1) + "\n"))


def chain_of(args: Args, given: dict[str, Any]) -> Chain | None:
    """The chain of stages the command asks for: a new one where ``--recipe`` names a recipe of
    stages, the saved one where ``--resume`` names a run of stages; None for a run of one.
    ValueError on a folder that is taken, or a stage whose arguments are wrong."""
    folder = Path(args.runs_dir) / args.run_name
    if args.resume:
        if not args.run_name or not (folder / MANIFEST).is_file():
            return None  # a run of one (`checkpoints.resumed_args` says what is wrong)
        saved = json.loads((folder / MANIFEST).read_text())
        options = {**saved["options"], **{k: v for k, v in given.items() if k in RESUMABLE}}
        return Chain(saved["env_id"], saved["recipe"], folder, _from_json(options), saved["finished"])
    if len(stages(args.env_id, args.recipe)) == 1:
        return None
    if not args.run_name:
        folder = folder / f"{args.env_id}__{args.recipe}__s{args.seed}__{time.strftime('%Y%m%d-%H%M%S')}"
    check_run_name(folder.name)
    if (folder / MANIFEST).exists() or (folder / "checkpoints").exists():
        raise ValueError(f"run {folder.name!r} already holds a run in {folder.parent}; use --resume to continue "
                         "it or another --run-name")
    chain = Chain(args.env_id, args.recipe, folder, {k: v for k, v in given.items() if k not in CHAIN_OPTIONS})
    for k in range(len(chain.stages)):  # a bad option fails now, not after the first stage's hour
        chain.args(k).validate()
    return chain


def _json_ready(options: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}


def _from_json(options: dict[str, Any]) -> dict[str, Any]:
    """Options read back from JSON: lists are the tuples `Args` holds."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}
