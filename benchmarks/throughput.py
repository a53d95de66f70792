"""Decisions per second: raw engine vs the wrapped PettingZoo env, plus a PettingZoo reference.

    python benchmarks/throughput.py [env_id ...] [--seconds 5] [--config '{"num_players": 3}']
    python benchmarks/throughput.py three_piles_v0 piles_v0 --batch 256 1024 4096 [--device cuda]

Every loop does the same per-decision work: the acting seat's observation and action mask, a
uniformly random legal action (picked from the mask the same way everywhere) and the step; one
seed, then one random stream for all deals. One process, timed in CPU seconds (the figure for one
core). The reference is PettingZoo's texas_holdem_v4 / leduc_holdem_v4 when the ``bench`` extra
(rlcard, pygame) is installed.

``--batch B ...`` adds the batched engines (`card_envs.batch`) in the same run: B games per step,
each step the B acting seats' observations and masks, one random legal action per game (on the
numba backend the k-th legal action, k from a pre-drawn uniform, as the raw loop picks, by a
compiled scan of the mask: `numba_pick`; on torch the legal action with the largest of pre-drawn
random keys: `torch_pick`) and the step with its resets. The numba
backend runs on one core (serial kernels, torch's operations on one thread) and is timed in CPU
seconds like the raw engine, so "x raw" compares one core with one core; the torch backend uses
torch's threads (or the GPU) and is timed by the wall clock. The load average is printed before
and after: on a shared machine, rerun when it is high.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

import card_envs

# CPU time of this process: the figure for one core, and robust to other work on the machine.
clock = time.process_time
PICKS = np.random.default_rng(0).random(1 << 16)  # pre-drawn uniforms shared by every loop


def pick(mask: np.ndarray, i: int) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[int(PICKS[i & 0xFFFF] * legal.size)])


def bench_raw(env_id: str, seconds: float, config: dict) -> float:
    game = card_envs.make_game(env_id, **config)
    rng = np.random.default_rng(0)
    decisions, start = 0, clock()
    while clock() - start < seconds:
        state = game.new_state(rng)
        while not state.is_terminal():
            state.observation(state.current_player)
            state.apply(pick(state.legal_mask(), decisions))
            decisions += 1
    return decisions / (clock() - start)


def bench_aec(env, seconds: float) -> float:
    env.reset(seed=0)  # one seed, then one random stream for every deal, as in bench_raw
    decisions, start = 0, clock()
    while clock() - start < seconds:
        env.reset()
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(pick(obs["action_mask"], decisions))
            decisions += 1
    return decisions / (clock() - start)


def torch_pick(batch: int, num_actions: int, device: str):
    """A random legal action per game on any device: the legal action with the largest of random
    keys, read at a rotating offset (no random numbers drawn per step)."""
    import torch

    # Keys from 1: a legal action's key * mask is never 0, so argmax never lands on an illegal one.
    keys = torch.randint(1, 1 << 15, (batch + 997, num_actions), dtype=torch.int16,
                         generator=torch.Generator().manual_seed(0)).to(device)

    def pick(mask: "torch.Tensor", i: int) -> "torch.Tensor":
        offset = (i * 389) % 997
        return (keys[offset:offset + batch] * mask).argmax(1)
    return pick


def numba_pick(batch: int):
    """A random legal action per game on the CPU, as `pick` draws one in the raw loop (the k-th legal
    action, k from a pre-drawn uniform): a compiled scan of the mask. The torch pick's key product
    over every action cost Piles' 625 actions half of a step, the agent's cost and not the engine's;
    the raw loop's own pick is a small part of its decision."""
    import numba
    import torch

    @numba.njit(cache=True, nogil=True)
    def pick_rows(mask, uniforms, offset, out):
        for row in range(mask.shape[0]):
            legal = 0
            for a in range(mask.shape[1]):
                legal += mask[row, a]
            k = int(uniforms[(offset + row) % uniforms.shape[0]] * legal)
            for a in range(mask.shape[1]):
                if mask[row, a]:
                    if k == 0:
                        out[row] = a
                        break
                    k -= 1

    actions = np.zeros(batch, dtype=np.int64)

    def pick(mask: "torch.Tensor", i: int) -> "torch.Tensor":
        pick_rows(mask.numpy().view(np.uint8), PICKS, (i * 389) % PICKS.size, actions)
        return torch.from_numpy(actions)
    return pick


def bench_batch(env_id: str, batch: int, device: str, backend: str, seconds: float, config: dict) -> float:
    import torch

    from card_envs.batch import make

    env = make(env_id, batch, device=device, backend=backend, **config)
    out = env.reset(seed=0)
    pick = numba_pick(batch) if backend == "numba" else torch_pick(batch, env.num_actions, device)

    def sync() -> None:
        if env.device.type == "cuda":
            torch.cuda.synchronize()

    # The numba engine on one core (its kernels are serial; torch's ops, the pick included, on one
    # thread), timed in CPU seconds like the raw engine: a per-core figure, robust to other load.
    # The torch backend uses torch's threads (or the GPU), timed by the wall clock.
    one_core = backend == "numba"
    clock_ = clock if one_core else time.perf_counter
    threads_before = torch.get_num_threads()
    if one_core:
        torch.set_num_threads(1)
    try:
        for i in range(5):  # warm-up: compilation, allocator
            out = env.step(pick(out.mask, i))
        sync()
        steps, start = 0, clock_()
        while clock_() - start < seconds:
            out = env.step(pick(out.mask, steps))
            steps += 1
        sync()
        return steps * batch / (clock_() - start)
    finally:
        torch.set_num_threads(threads_before)


def batch_backends(device: str, backend: str) -> list[str]:
    from card_envs.batch import has_numba

    numba = device == "cpu" and has_numba()
    if backend == "auto":
        return ["numba" if numba else "torch"]
    return ["torch", "numba"] if backend == "all" and numba else ["torch"] if backend == "all" else [backend]


def threads(backend: str) -> str:
    import torch

    if backend == "numba":
        return "one core, CPU time"
    return f"wall clock, {torch.get_num_threads()} torch threads"


def reference_env():
    try:
        from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4
    except ImportError as error:
        return None, f"not installed ({error}); pip install -e '.[bench]'"
    return [("texas_holdem_v4", texas_holdem_v4.env()), ("leduc_holdem_v4", leduc_holdem_v4.env())], ""


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" (1, 5, 15 min; {os.cpu_count()} cores)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_ids", nargs="*", default=["three_piles_v0"], help=", ".join(card_envs.list_envs()))
    parser.add_argument("--seconds", type=float, default=6.0, help="time per measurement (3 rounds)")
    parser.add_argument("--config", type=json.loads, default={}, help="game config as JSON")
    parser.add_argument("--batch", type=int, nargs="+", default=[], metavar="B",
                        help="also time the batched engine (card_envs.batch) with B games per step")
    parser.add_argument("--device", default="cpu", help="device of the batched engine, e.g. cuda")
    parser.add_argument("--backend", default="auto", choices=("auto", "torch", "numba", "all"),
                        help="batched engine backend (auto: numba on a CPU where installed)")
    args = parser.parse_args()
    if not args.seconds > 0 or any(size < 1 for size in args.batch):
        parser.error("--seconds must be positive and every --batch size at least 1")
    unknown = [env_id for env_id in args.env_ids if env_id not in card_envs.list_envs()]
    if unknown:
        parser.error(f"unknown env {', '.join(unknown)}; there are: {', '.join(card_envs.list_envs())}")
    print(f"load average {load_average()}")
    for env_id in args.env_ids:
        # Interleaved rounds, best of each: robust to another process taking the core for a while.
        rounds = [(bench_raw(env_id, args.seconds / 3, args.config),
                   bench_aec(card_envs.make(env_id, auto_forced=False, **args.config), args.seconds / 3),
                   bench_aec(card_envs.make(env_id, **args.config), args.seconds / 3)) for _ in range(3)]
        raw, adapter, default = (max(column) for column in zip(*rounds))
        print(f"{env_id} {args.config or ''}")
        print(f"  raw engine                      {raw:>10,.0f} decisions/s")
        print(f"  make() env, auto_forced=False   {adapter:>10,.0f} decisions/s  (adapter cost {raw / adapter - 1:+.1%})")
        print(f"  make() env, default             {default:>10,.0f} decisions/s")
        if args.batch:
            from card_envs.batch import ENGINES, NUMBA_ONLY

            if env_id not in ENGINES:
                print(f"  no batched engine (there are: {', '.join(ENGINES)})")
                continue
            backends = batch_backends(args.device, args.backend)
            if env_id in NUMBA_ONLY:  # no torch backend to time
                backends = [b for b in backends if b == "numba"] or (["numba"] if args.device == "cpu" else [])
                if not backends:
                    print(f"  batched engine: numba on the CPU only (not {args.device}, backend {args.backend})")
        for backend in backends if args.batch else []:
            for size in args.batch:
                rate = max(bench_batch(env_id, size, args.device, backend, args.seconds / 3, args.config)
                           for _ in range(3))
                label = f"batched B={size} {args.device} {backend}"
                print(f"  {label:32}{rate:>10,.0f} decisions/s  ({rate / raw:.1f}x raw; {threads(backend)})")
    print(f"load average {load_average()}")
    references, why = reference_env()
    if references is None:
        print(f"reference: {why}")
    for name, env in references or []:
        print(f"reference {name:22}{bench_aec(env, args.seconds):>10,.0f} decisions/s")


if __name__ == "__main__":
    main()
