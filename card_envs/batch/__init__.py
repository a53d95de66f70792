"""Batched engines: B games of one env stepped at once as PyTorch tensors (CPU or GPU).

```python
from card_envs import batch
env = batch.make("three_piles_v0", batch_size=4096, device="cpu", num_players=2)
obs, mask, seat, reward, done = env.reset(seed=0)
while training:
    actions = policy(obs, mask)                   # int64[B], one legal action per game
    obs, mask, seat, reward, done = env.step(actions)
```

The reference engines (`card_envs.games.*`) play one game per Python object; these play B games
in struct-of-arrays form with no Python loop over games, for the same rules. Every tensor has
one row per game; in each game exactly one seat acts:

| field | shape | meaning |
|---|---|---|
| `obs` | float32[B, observation_size] | the acting seat's `observation(seat)`, own seat first: the reference's layout, bit for bit |
| `mask` | bool[B, num_actions] | exactly the reference's `legal_mask()` |
| `seat` | int64[B] | the acting seat (absolute) |
| `reward` | float32[B, num_players] | by absolute seat: `returns()` of a game that ended in this step, else 0 |
| `done` | bool[B] | the game in that row ended in this step and was replaced by a fresh deal, which `obs`, `mask` and `seat` already show |

The returned tensors are fresh each step (keep them without copying). A trainer keeps, per row,
which seat acted at each step and credits `reward[:, seat]` to it at `done` (teammates in Piles
get equal rewards). `step` trusts the actions: an illegal action is not detected (checking would
stop the GPU for the host) and leaves that game in an unspecified state. Pass
``auto_forced=True`` to have single-choice decisions played without asking, as
`card_envs.vector.VectorGames` does; `observe()` returns the last result again.

Backends: ``backend="torch"`` runs on any device; ``backend="numba"`` (CPU only, the ``batch``
extra) runs the per-step work (apply, mask, observe) as compiled loops over the games, several
times faster on a CPU; ``"auto"`` (default) picks numba on a CPU where it is installed. Both
share one state layout and the deal code, so they play the same games from the same seed. `load(states)` starts the B games from reference
states and `state(i)` returns game i as a reference state: the differential tests use both.
Chance: deals come from a `torch.Generator` seeded by ``seed``/`reset(seed)`; in Piles, pass k
of a game draws with numpy's `integers(len(hand))` algorithm from a 64-bit word per pass, which
`load` computes from the reference's ``chance_seed`` (the first output of
``default_rng((chance_seed, k))``), so loaded games continue exactly as the reference does.

Speed: see `benchmarks/throughput.py --batch B [--device cuda]`.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import torch

from card_envs.batch.base import BatchGame, BatchStep

__all__ = ["BACKENDS", "BatchGame", "BatchStep", "ENGINES", "has_numba", "make"]


def _engines(backend: str) -> dict[str, type[BatchGame]]:
    if backend == "numba":
        from card_envs.batch.cpu import PilesNumba, ThreePilesNumba

        return {cls.env_id: cls for cls in (ThreePilesNumba, PilesNumba)}
    from card_envs.batch.piles import PilesBatch
    from card_envs.batch.three_piles import ThreePilesBatch

    return {cls.env_id: cls for cls in (ThreePilesBatch, PilesBatch)}


ENGINES = ("three_piles_v0", "piles_v0")
BACKENDS = ("auto", "torch", "numba")


def has_numba() -> bool:
    return importlib.util.find_spec("numba") is not None


def make(env_id: str, batch_size: int, device: Any = "cpu", seed: int = 0, auto_forced: bool = False,
         backend: str = "auto", **config: Any) -> BatchGame:
    """The batched engine of `env_id` (one of `ENGINES`) for B = `batch_size` games.

    backend: "torch" (any device), "numba" (CPU only, the ``batch`` extra) or "auto": numba on a
    CPU where it is installed, else torch."""
    if env_id not in ENGINES:
        raise ValueError(f"no batched engine for {env_id!r}; there are: {', '.join(ENGINES)}")
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r}; use one of {BACKENDS}")
    cpu = torch.device(device).type == "cpu"
    if backend == "auto":
        backend = "numba" if cpu and has_numba() else "torch"
    if backend == "numba" and not cpu:
        raise ValueError(f"backend='numba' runs on the CPU only, not on {device!r}; use backend='torch'")
    return _engines(backend)[env_id](batch_size, device=device, seed=seed, auto_forced=auto_forced, **config)
