"""What an install gives: the shipped checkpoints by name (``shipped:<env_id>``) from any folder,
and a wheel that holds ``card_envs`` alone (the repo's agents/, train/ and evaluate/ inside it as
card_envs.agents, .train and .evaluate), its checkpoints and data files, and console scripts that
point into it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.shipped import checkpoint_path, is_checkpoint, shipped_names

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ["dominion_v0", "illimat_v0", "piles_v0", "split_the_hoard_v0", "three_piles_v0"]
PROGRAMS = ("agents", "train", "evaluate")  # repo folders installed as card_envs.<folder> (setup.py)


# ----- shipped:<env_id> -----------------------------------------------------------------------
def test_shipped_checkpoints_are_found_through_importlib_resources():
    assert shipped_names() == SHIPPED
    folder = resources.files("card_envs.agents").joinpath("checkpoints")
    for env_id in SHIPPED:
        path = checkpoint_path(f"shipped:{env_id}")
        assert path.is_file() and path == folder.joinpath(f"{env_id}.pt"), path
        assert is_checkpoint(f"shipped:{env_id}")


@pytest.mark.parametrize("env_id", SHIPPED)
def test_shipped_checkpoint_loads_by_name_from_another_folder(env_id, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing relative to the repo resolves here
    policy = make_policy(f"shipped:{env_id}", card_envs.make_game(env_id))
    assert policy.checkpoint_info["env_id"] == env_id


def test_unknown_shipped_name_is_refused_listing_the_shipped_ones(tmp_path, monkeypatch):
    from card_envs.agents.neural import load_checkpoint

    monkeypatch.chdir(tmp_path)
    listed = ", ".join(f"shipped:{env_id}" for env_id in SHIPPED)
    for call in (lambda: checkpoint_path("shipped:illimat_v9"),
                 lambda: make_policy("shipped:illimat_v9", card_envs.make_game("illimat_v0")),
                 lambda: load_checkpoint("shipped:illimat_v9")):
        with pytest.raises(ValueError, match="unknown shipped checkpoint 'shipped:illimat_v9'") as error:
            call()
        assert listed in str(error.value)


def test_plain_paths_are_unchanged(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert checkpoint_path("runs/mine/checkpoints/latest.pt") == Path("runs/mine/checkpoints/latest.pt")
    assert checkpoint_path(Path("a.pt")) == Path("a.pt")
    with pytest.raises(ValueError, match="no checkpoint file at 'missing.pt'"):
        make_policy("missing.pt", card_envs.make_game("three_piles_v0"))
    shutil.copy(checkpoint_path("shipped:three_piles_v0"), tmp_path / "mine.pt")
    assert make_policy("mine.pt", card_envs.make_game("three_piles_v0")).checkpoint_info["env_id"] == "three_piles_v0"


def test_trainer_init_from_takes_the_name():
    """The trainer's --init-from reads its file with load_checkpoint, which resolves the name."""
    from card_envs.agents.neural import load_checkpoint

    assert load_checkpoint("shipped:piles_v0", "piles_v0")["env_id"] == "piles_v0"


def test_trainer_opponents_and_teacher_take_the_name():
    from card_envs.train.options import parse_args

    args = parse_args(["three_piles_v0", "--opponents", "shipped:three_piles_v0", "heuristic",
                       "--teacher", "shipped:three_piles_v0"])[0]
    args.validate()
    assert list(args.opponents) == ["shipped:three_piles_v0", "heuristic"]
    with pytest.raises(ValueError, match="checkpoint .pt files or shipped:<env_id>"):
        parse_args(["three_piles_v0", "--opponents", "shipped_three_piles_v0"])[0].validate()


def test_evaluate_players_take_the_name(tmp_path, monkeypatch):
    """Head-to-head, --gauntlet and --exploit: the player is labelled by the name, played from its file."""
    from card_envs.evaluate.__main__ import parse_args, plan
    from card_envs.evaluate.exploit import start_of

    monkeypatch.chdir(tmp_path)
    game = card_envs.make_game("three_piles_v0")
    file = str(checkpoint_path("shipped:three_piles_v0"))
    _, players, pairs = plan(parse_args(["three_piles_v0", "shipped:three_piles_v0", "heuristic"]), game)
    assert [(p.label, p.spec) for p in players] == [("shipped:three_piles_v0", file), ("heuristic", "heuristic")]
    assert len(pairs) == 1
    mode, players, _ = plan(parse_args(["three_piles_v0", "--gauntlet", "shipped:three_piles_v0", "random"]), game)
    assert mode == "gauntlet" and players[0].label == "shipped:three_piles_v0"
    mode, (target,), _ = plan(parse_args(["three_piles_v0", "--exploit", "shipped:three_piles_v0"]), game)
    assert mode == "exploit" and target.spec == file and start_of(target.spec, None) == "target"
    with pytest.raises(ValueError, match="shipped:piles_v0"):
        plan(parse_args(["three_piles_v0", "shipped:three_pile", "heuristic"]), game)


def test_play_takes_the_name(tmp_path, monkeypatch, capsys):
    from card_envs.agents.play import main

    monkeypatch.chdir(tmp_path)
    assert main(["three_piles_v0", "--players", "shipped:three_piles_v0", "random", "--games", "2"]) == 0
    assert "shipped:three_piles_v0 (policy 0)" in capsys.readouterr().out


# ----- the wheel ----------------------------------------------------------------------------------
SKIPPED = {".git", "build", "dist", "runs", "docs", "tests", "benchmarks", "experiments", "examples", ".venv"}


def test_wheel_holds_card_envs_alone_with_its_checkpoints_data_and_scripts(tmp_path):
    """Builds the wheel from a copy of the working tree (an in-tree build would leave build/ in the
    repo, whose stale files a later build packs), offline: no build isolation, no index."""
    import setuptools

    major = int(setuptools.__version__.split(".")[0])
    assert major >= 68, f"setuptools {setuptools.__version__}: the build needs >= 68 (install the test extra)"
    source = tmp_path / "src"
    source.mkdir()
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for entry in ROOT.iterdir():
        if entry.name in SKIPPED or entry.name.endswith(".egg-info"):
            continue
        if entry.is_dir():
            shutil.copytree(entry, source / entry.name, ignore=junk)
        else:
            shutil.copy2(entry, source / entry.name)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "-q", "-w", str(tmp_path / "dist"), str(source)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = (tmp_path / "dist").glob("card_envs-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = {Path(n).name: archive.read(n).decode() for n in names if n.split("/")[0].endswith(".dist-info")}

    # One top-level import name: every file outside the metadata lies under card_envs/.
    outside = [n for n in names if not n.startswith("card_envs/") and not n.split("/")[0].endswith(".dist-info")]
    assert not outside, outside
    if "top_level.txt" in info:
        assert info["top_level.txt"].split() == ["card_envs"]
    # Every module of the package and of the program folders, where setup.py maps them.
    expected = {f"card_envs/{p.relative_to(source / 'card_envs').as_posix()}"
                for p in (source / "card_envs").rglob("*.py")}
    for folder in PROGRAMS:
        expected |= {f"card_envs/{folder}/{p.relative_to(source / folder).as_posix()}"
                     for p in (source / folder).rglob("*.py")}
    assert not expected - set(names), sorted(expected - set(names))  # e.g. a folder without __init__.py
    for required in ("card_envs/train/__main__.py", "card_envs/evaluate/__main__.py", "card_envs/agents/play.py",
                     "card_envs/agents/shipped.py", "card_envs/games/split_the_hoard/cards.json",
                     *(f"card_envs/agents/checkpoints/{env_id}.pt" for env_id in SHIPPED)):
        assert required in names, required
    # The console scripts run modules of card_envs.
    scripts = {line.split("=")[0].strip(): line.split("=")[1].strip()
               for line in info["entry_points.txt"].split("[console_scripts]")[1].strip().splitlines() if "=" in line}
    assert scripts == {"card-envs-train": "card_envs.train.__main__:main",
                       "card-envs-evaluate": "card_envs.evaluate.__main__:main",
                       "card-envs-play": "card_envs.agents.play:main"}


# ----- a checkout runs its own programs -------------------------------------------------------
def test_a_checkout_finds_its_own_programs_first(tmp_path):
    """card_envs.agents/.train/.evaluate come from the checkout that card_envs itself came from,
    whichever checkout an editable install points at; an installed package is left alone."""
    import sys

    from card_envs import checkout

    assert type(sys.meta_path[0]).__name__ == "CheckoutPrograms"  # this checkout's, ahead of the editable finder
    for program in checkout.PROGRAMS:
        (tmp_path / program).mkdir()
        (tmp_path / program / "__init__.py").write_text("")
    finder = checkout.CheckoutPrograms(tmp_path)
    spec = finder.find_spec("card_envs.train")
    assert spec.origin == str(tmp_path / "train" / "__init__.py")
    assert spec.submodule_search_locations == [str(tmp_path / "train")]
    assert finder.find_spec("card_envs.games") is None and finder.find_spec("train") is None
    installed = tmp_path / "site" / "card_envs"
    (installed / "agents").mkdir(parents=True)
    before = list(sys.meta_path)
    checkout.install(installed)  # a wheel's layout: the programs are inside the package
    checkout.install(tmp_path / "card_envs")  # no setup.py beside it: not a checkout
    assert sys.meta_path == before
