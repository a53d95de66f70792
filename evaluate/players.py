"""Players of an evaluation: baseline specs, checkpoint files, shipped checkpoints (``shipped:<env_id>``)
and checkpoint folders."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from card_envs.agents import make_policy
from card_envs.agents.shipped import SHIPPED, checkpoint_path
from card_envs.core.game import Game

STEP_FILE = re.compile(r"^step_(\d+)\.pt$")


@dataclass(frozen=True)
class Player:
    """One rated entity. ``spec`` is what `card_envs.agents.make_policy` builds (a name or a .pt path;
    a shipped checkpoint's is its file, its label ``shipped:<env_id>``)."""

    label: str  # shown in tables: "heuristic", "ismcts:iterations=200", "mine@120000", "shipped:illimat_v0"
    spec: str
    group: str | None = None  # the checkpoint folder it came from (its rating curve), else None
    step: int | None = None  # training step of a checkpoint from a folder
    observes: dict | None = None  # a checkpoint's own observation options where the match's differ


def _run_name(folder: Path) -> str:
    """runs/<run>/checkpoints -> <run>; any other folder -> its own name."""
    folder = folder.resolve()
    return folder.parent.name if folder.name == "checkpoints" else folder.name


def expand(spec: str) -> list[Player]:
    """A player spec -> players: a checkpoint folder gives one player per ``step_*.pt`` in it
    (by step; ``latest.pt`` is a copy of the last one and is skipped); ``shipped:<env_id>`` gives
    the shipped checkpoint's file, labelled with that name (ValueError listing them where unknown)."""
    if spec.startswith(SHIPPED):
        return [Player(spec, str(checkpoint_path(spec)))]
    path = Path(spec)
    if path.is_dir():
        found = sorted((int(m.group(1)), p) for p in path.iterdir() if (m := STEP_FILE.match(p.name)))
        if not found:
            raise ValueError(f"checkpoint folder {spec!r} holds no step_*.pt files")
        run = _run_name(path)
        return [Player(f"{run}@{step}", str(p), group=run, step=step) for step, p in found]
    if spec.endswith(".pt"):
        if not path.is_file():
            raise ValueError(f"no checkpoint file at {spec!r}")
        run = _run_name(path.parent)
        m = STEP_FILE.match(path.name)
        return [Player(f"{run}@{int(m.group(1))}" if m else f"{run}/{path.stem}", spec)]
    return [Player(spec, spec)]


def expand_all(specs: list[str], game: Game) -> list[Player]:
    """Expand every spec and build each policy once, so a bad name, option or checkpoint fails
    here with a clear message (before any worker starts). Duplicate labels are refused."""
    players: list[Player] = []
    for spec in specs:
        players += expand(spec)
    labels = [p.label for p in players]
    dupes = sorted({x for x in labels if labels.count(x) > 1})
    if dupes:
        raise ValueError(f"player(s) {dupes} given more than once")
    return [_with_options(player, make_policy(player.spec, game), game) for player in players]


def _with_options(player: Player, policy, game: Game) -> Player:
    """The player, noting the observation options its checkpoint reads with where they differ from
    the match's (`card_envs.agents.policy.OwnObservationPolicy`): the report names them."""
    own = getattr(policy, "game", game)
    options = {k: own.config[k] for k in game.observation_options if own.config.get(k) != game.config.get(k)}
    return replace(player, observes=options) if options else player
