"""How long a user waits for numba on a cold cache: per env, per command, per kernel.

    python benchmarks/compile_times.py [env_id ...] [--commands trainer evaluate quickstart warm]
                                       [--top 8] [--json FILE]
    python benchmarks/compile_times.py --compare BEFORE.json AFTER.json     # a table of two runs

Each (env, command) runs in a fresh Python process with an empty numba cache (``NUMBA_CACHE_DIR``
pointed at a new temporary folder), as a first use after an install does, and reports:

- wall and CPU seconds of the whole process (imports included) and the seconds until the command's
  games start (``ready``: the compiles it waits for, then the first step);
- how many numba functions compiled (a function once per specialization: its argument types), and
  the CPU seconds the compiles took, in all and per kernel (exclusive: a kernel's time without the
  functions it compiled inside it), the ``--top`` dearest.

The commands (what a user runs first):
  trainer     the trainer's warm-up (`card_envs.train.acting.warm_up` with the default arguments):
              what ``python3 -m card_envs.train <env_id>`` compiles before its clock starts;
  evaluate    ``python3 -m card_envs.evaluate <env_id> shipped:<env_id> heuristic --deals 2``;
  quickstart  the README's batched Quickstart (``batch.make``, 100 steps of 4,096 games);
  warm        ``python3 -m card_envs.agents.warm <env_id>``: every kernel of the env.

The times are CPU seconds of one core: numba compiles on one thread, so they hold on a busy machine,
where the wall time grows with the load (both are printed).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = ("trainer", "evaluate", "quickstart", "warm")


def _child(env_id: str, command: str, out: str) -> None:
    """Run ``command`` in this process with a listener on numba's compile events; write the record."""
    from numba.core import event

    began, cpu_began = time.perf_counter(), time.process_time()
    kernels: dict[str, float] = {}
    counts: dict[str, int] = {}  # compiles per kernel: one per specialization (argument types)
    stack: list[list] = []  # [name, cpu at start, cpu of nested compiles]

    class Compiles(event.Listener):
        def on_start(self, ev) -> None:
            function = ev.data["dispatcher"].py_func
            stack.append([f"{function.__module__}.{function.__qualname__}", time.process_time(), 0.0])

        def on_end(self, ev) -> None:
            name, start, nested = stack.pop()
            spent = time.process_time() - start
            kernels[name] = kernels.get(name, 0.0) + spent - nested
            counts[name] = counts.get(name, 0) + 1
            if stack:
                stack[-1][2] += spent

    ready: list[float] = []
    with event.install_listener("numba:compile", Compiles()):
        _run(env_id, command, ready)
    record = {"env_id": env_id, "command": command, "in_process_wall_s": time.perf_counter() - began,
              "in_process_cpu_s": time.process_time() - cpu_began, "ready_s": ready[0] if ready else None,
              "compiled": sum(counts.values()), "compile_cpu_s": sum(kernels.values()), "kernels": kernels,
              "specializations": counts}
    Path(out).write_text(json.dumps(record))


def _run(env_id: str, command: str, ready: list[float]) -> None:
    """The command itself; ``ready`` gets the seconds since the process began when its games start."""
    if command == "trainer":
        from card_envs.train.acting import warm_up
        from card_envs.train.options import parse_args

        warm_up(parse_args([env_id])[0])
        ready.append(time.perf_counter() - _STARTED_AT)
    elif command == "evaluate":
        from card_envs.evaluate.__main__ import main

        with tempfile.TemporaryDirectory() as folder:
            main([env_id, f"shipped:{env_id}", "heuristic", "--deals", "2", "--out", folder, "--no-progress"])
        ready.append(time.perf_counter() - _STARTED_AT)
    elif command == "quickstart":
        import torch

        from card_envs import batch

        env = batch.make(env_id, batch_size=4096, seed=0)
        out = env.reset()
        picks = torch.Generator().manual_seed(0)
        for step in range(100):
            out = env.step(torch.multinomial(out.mask.float(), 1, generator=picks)[:, 0])
            if step == 0:
                ready.append(time.perf_counter() - _STARTED_AT)
    elif command == "warm":
        from card_envs.agents.warm import main

        main([env_id])
        ready.append(time.perf_counter() - _STARTED_AT)
    else:
        raise ValueError(f"unknown command {command!r}; known: {', '.join(COMMANDS)}")


_STARTED_AT = time.perf_counter()


def measure(env_id: str, command: str) -> dict:
    """One cold run of ``command`` on ``env_id`` in a fresh process and an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as work:
        out = Path(work) / "record.json"
        environment = dict(os.environ, NUMBA_CACHE_DIR=cache)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--child", env_id, command, str(out)], env=environment,
                       cwd=work, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        record = json.loads(out.read_text())
    record["wall_s"] = time.perf_counter() - began
    record["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return record


def compare(before: list[dict], after: list[dict]) -> str:
    """A markdown table: for each (env, command) of ``after``, wall, CPU and ready seconds, the CPU
    seconds of compiling and the distinct functions compiled, before -> after."""
    earlier = {(r["env_id"], r["command"]): r for r in before}
    lines = ["| env | command | wall s | CPU s | ready s | compile CPU s | functions compiled |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for record in before + after:
        record["functions"] = len(record["kernels"])
    for r in after:
        b = earlier.get((r["env_id"], r["command"]), {})

        def pair(key: str, digits: int = 1) -> str:
            old = b.get(key)
            new = r.get(key)
            show = (lambda v: "-" if v is None else f"{v:.{digits}f}")
            return f"{show(old)} -> {show(new)}"

        lines.append(f"| {r['env_id']} | {r['command']} | {pair('wall_s')} | {pair('cpu_s')} | {pair('ready_s')} | "
                     f"{pair('compile_cpu_s')} | {pair('functions', 0)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import card_envs

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("env_ids", nargs="*", help="envs to measure (default: all)")
    parser.add_argument("--commands", nargs="+", choices=COMMANDS, default=list(COMMANDS))
    parser.add_argument("--top", type=int, default=8, help="the dearest kernels shown per run")
    parser.add_argument("--json", type=Path, help="also write every record (every kernel) to this file")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"),
                        help="print two runs' --json records side by side (a markdown table) and exit")
    args = parser.parse_args(argv)
    if args.compare:
        print(compare(*(json.loads(path.read_text()) for path in args.compare)))
        return 0
    envs = card_envs.list_envs()
    unknown = [env_id for env_id in args.env_ids if env_id not in envs]
    if unknown:
        parser.error(f"unknown env id(s) {', '.join(unknown)}; registered: {', '.join(envs)}")
    records = []
    print("| env | command | wall s | CPU s | ready s | functions compiled | compile CPU s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for env_id in args.env_ids or envs:
        for command in args.commands:
            record = measure(env_id, command)
            records.append(record)
            ready = "" if record["ready_s"] is None else f"{record['ready_s']:.1f}"
            print(f"| {env_id} | {command} | {record['wall_s']:.1f} | {record['cpu_s']:.1f} | {ready} | "
                  f"{record['compiled']} | {record['compile_cpu_s']:.1f} |", flush=True)
    for record in records:
        dearest = sorted(record["kernels"].items(), key=lambda kv: -kv[1])[:args.top]
        counts = record.get("specializations", {})
        if dearest:
            print(f"\n{record['env_id']} {record['command']}: " + ", ".join(
                f"{name} {s:.1f} s" + (f" ({counts[name]} specializations)" if counts.get(name, 1) > 1 else "")
                for name, s in dearest))
    if args.json:
        args.json.write_text(json.dumps(records, indent=1))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        _child(*sys.argv[2:])
        sys.exit(0)
    sys.exit(main())
