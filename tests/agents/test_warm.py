"""`card_envs.agents.warm.warm_up` (and ``python -m card_envs.agents.warm``): it says "compiling" when numba
compiles and nothing when the kernels come from the cache, and it warms every kernel a training
rollout and an evaluation then use (none compiles or loads after it)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import card_envs
from card_envs.agents import warm
from card_envs.agents.warm import Warmup, compiled_agents, warm_up

pytest.importorskip("numba")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh(monkeypatch):
    """A process where nothing is warmed yet (the warm-ups of earlier tests forgotten)."""
    monkeypatch.setattr(warm, "_done", set())


def test_the_compiled_agents_are_found():
    assert compiled_agents(card_envs.make_game("three_piles_v0")) == ["heuristic"]
    assert compiled_agents(card_envs.make_game("piles_v0")) == []  # its heuristic is Python
    assert compiled_agents(card_envs.make_game("illimat_v0")) == ["heuristic", "lookahead"]


def test_it_says_compiling_as_numba_compiles_and_how_long_it_took(monkeypatch, fresh):
    """A compilation during the warm-up (here a fresh function, compiled where the agents would
    play) is announced as it starts, with the cache's place, and timed at the end."""
    from numba import njit

    def compile_something(game, specs):
        njit(lambda x: x + 1)(1)  # a new function: numba compiles it

    monkeypatch.setattr(warm, "_play_reference", compile_something)
    out = io.StringIO()
    warmed = warm_up("three_piles_v0", engine=False, out=out)
    lines = out.getvalue().splitlines()
    assert warmed.compiled >= 1 and len(lines) == 2
    assert lines[0].startswith("three_piles_v0: compiling the numba kernels of its scripted agents, once per version")
    assert "cached in " in lines[0] and ("NUMBA_CACHE_DIR" in lines[0] or "__pycache__" in lines[0])
    assert lines[1].startswith(f"three_piles_v0: compiled {warmed.compiled} numba functions in ")
    assert "later runs load them" in lines[1]


def test_nothing_is_said_when_nothing_compiles(monkeypatch, fresh):
    monkeypatch.setattr(warm, "_play_reference", lambda game, specs: None)
    out = io.StringIO()
    assert warm_up("three_piles_v0", engine=False, out=out).compiled == 0
    assert out.getvalue() == ""
    calls = []
    monkeypatch.setattr(warm, "_play_reference", lambda game, specs: calls.append(specs))
    warm_up("three_piles_v0", engine=False, out=out)
    assert calls == []  # warmed once per process


def dispatchers() -> dict[int, tuple[object, set]]:
    """Every numba kernel of card_envs loaded so far, with the signatures it holds."""
    from numba.core.dispatcher import Dispatcher

    found = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("card_envs.") and module is not None:
            for value in vars(module).values():
                if isinstance(value, Dispatcher):
                    found[id(value)] = (value, set(value.overloads))
    return found


def new_signatures(before: dict[int, tuple[object, set]]) -> list[str]:
    return [f"{d.py_func.__module__}.{d.py_func.__name__}{sorted(set(d.overloads) - before.get(key, (d, set()))[1])}"
            for key, (d, _) in dispatchers().items() if set(d.overloads) - before.get(key, (d, set()))[1]]


def test_after_the_trainers_warm_up_a_rollout_needs_no_other_kernel(tmp_path):
    """The trainer's warm-up (the batched engine with ``auto_forced``, the scripted agents) leaves
    nothing for a rollout with the scripted agent as opponent and teacher, nor for an evaluation
    of it on the reference engine, to compile or load."""
    from card_envs.evaluate.players import Player
    from card_envs.evaluate.runner import play_pairings
    from card_envs.train.acting import Collector, Rollout
    from card_envs.train.acting import warm_up as trainer_warm_up
    from tests.train.test_train import tiny_args

    args = tiny_args(tmp_path, engine="batch", opponents=("heuristic",), opponent_share=1.0, teacher="heuristic",
                     num_games=64, num_steps=64)
    trainer_warm_up(args)
    before = dispatchers()
    game = card_envs.make_game(args.env_id)
    collector = Collector(game, args, seed=0, pool_states=[])
    collector.collect(Rollout.empty(args.num_steps, args.num_games, game))
    play_pairings(args.env_id, {}, [(Player("heuristic", "heuristic"), Player("random", "random"))], deals=2,
                  progress=False, compile_agents=True)
    assert not new_signatures(before)


def run(command: list[str], cache: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_a_cold_cache_evaluation_says_it_compiles_and_keeps_it_out_of_the_cpu_time_per_game(tmp_path):
    """With an empty numba cache (NUMBA_CACHE_DIR, which numba honours for ``cache=True``
    kernels), the evaluation compiles the scripted agent's kernels before its clocks, says so, and
    reports the CPU time of play alone; run again, it loads them and says nothing of compiling."""
    cache = tmp_path / "numba_cache"
    command = ["-m", "card_envs.evaluate", "three_piles_v0", "heuristic", "random", "--deals", "2", "--no-plots",
               "--no-progress", "--out", str(tmp_path / "out"), "--compiled", "yes"]
    first = run(command, cache, tmp_path)
    assert first.returncode == 0, first.stderr
    assert "three_piles_v0: compiling the numba kernels" in first.stderr and f"cached in {cache}" in first.stderr
    assert any(cache.rglob("*.nbi")), "numba wrote no cache where NUMBA_CACHE_DIR points"
    report = json.loads((tmp_path / "out" / "results.json").read_text())
    compiled_s = float(first.stderr.split(" numba functions in ")[1].split(" s")[0])
    per_game = report["pairings"][0]["cpu_s_per_game"]
    assert per_game < 0.1 < compiled_s, (per_game, compiled_s)  # a 3 Piles game: milliseconds
    assert report["meta"]["wall_s"] < compiled_s
    again = run(command + ["--overwrite"], cache, tmp_path)  # the same --out again: the first report is replaced
    assert again.returncode == 0, again.stderr
    assert "compiling" not in again.stderr


def test_the_compile_command_refuses_an_unknown_env(capsys):
    from card_envs.agents.warm import main

    with pytest.raises(SystemExit) as stop:
        main(["no_such_v0"])
    assert stop.value.code == 2 and "unknown env id(s) no_such_v0" in capsys.readouterr().err


def test_the_text_of_a_warm_up_that_compiled_nothing():
    text = Warmup("piles_v0", 0.4, 0).text()
    assert text == "piles_v0: numba kernels ready in 0.4 s (from the cache: nothing compiled)"


ASIDE = """
import json
from numba.core import event
from card_envs.agents.warm import warm_up

class Modules(event.Listener):
    names = []
    def on_start(self, ev):
        self.names.append(ev.data["dispatcher"].py_func.__module__)
    def on_end(self, ev):
        pass

modules = Modules()
with event.install_listener("numba:compile", modules):
    warmed = warm_up("three_piles_v0", auto_forced=(True,), quiet=True)
print(json.dumps({"compiled": warmed.compiled, "here": modules.names}))
"""


def test_on_two_cores_the_agents_compile_in_a_second_process_beside_the_engine(tmp_path):
    """A cold warm-up of the engine and the agents compiles the engine here and the agents' kernels in a
    process of their own at the same time (numba compiles on one thread); they are then loaded here."""
    if warm._cores() < 2:
        pytest.skip("one core: the warm-up compiles everything in one process")
    cache = tmp_path / "numba_cache"
    done = run(["-c", ASIDE], cache, tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    here = set(report["here"])
    assert any(name.startswith("card_envs.batch.three_piles") for name in here), here
    assert not any(name.startswith("card_envs.agents.") for name in here), here  # compiled aside, loaded here
    assert report["compiled"] > len(report["here"])  # the aside's functions counted too
    assert list(cache.rglob("heuristic*.nbi")), "the agents' kernels were not cached"
