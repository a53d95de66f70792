"""Batched engines: B games of one env stepped at once as PyTorch tensors (CPU or GPU).

```python
from card_envs import batch
env = batch.make("three_piles_v0", batch_size=4096, device="cpu", num_players=2)
obs, mask, seat, reward, done, length = env.reset(seed=0)
while training:
    actions = policy(obs, mask)                   # int64[B], one legal action per game
    obs, mask, seat, reward, done, length = env.step(actions)
```

## What it is

The reference engines (`card_envs.games.*`) play one game per Python object; these play B games
of ``three_piles_v0``, ``piles_v0``, ``split_the_hoard_v0``, ``dominion_v0`` or ``illimat_v0`` in
struct-of-arrays form, with no Python loop over games, for the same rules and every configuration
the reference takes (``num_players``, ``reward``; for Split the Hoard also ``class_powers``,
``starting_title_vp`` and ``cards``, the card list read from the same data file; for Dominion
``kingdom``, a preset, a list or ``random``, ``bane``, ``ally`` and ``max_turns``; for Illimat
``luminaries``, ``stars_always``, ``target_score``, ``rounds``, ``harmonic_convergence``,
``full_harvest`` and the observation pieces ``harvest_features``, ``play_features`` and
``threat_features``). Where an engine lacks an option of its game, `UNBATCHED_OPTIONS` says so
(none today), the engine refuses it (ArgumentError), `unbatched(env_id, config)` names it and the
trainer's ``--engine auto`` plays the reference engine instead. In each game exactly one seat acts;
`reset` and `step` return a `BatchStep`, one row per game:

| field | shape | meaning |
|---|---|---|
| `obs` | float32[B, observation_size] | the acting seat's `observation(seat)` (own seat first), bit for bit |
| `mask` | bool[B, num_actions] | exactly the reference's `legal_mask()` |
| `seat` | int64[B] | the acting seat (absolute) |
| `reward` | float32[B, num_players] | by absolute seat: `returns()` of a game that ended in this step, else 0 |
| `done` | bool[B] | the game ended in this step; `obs`, `mask`, `seat` already show its fresh deal |
| `length` | int64[B] | decisions asked in a game that ended in this step, else 0 |

The tensors are fresh each step: keep them without copying. A trainer remembers which seat acted
in each row at each step and credits `reward[row, seat]` to it at `done` (teammates in Piles get
equal rewards). `observe()` returns the last `BatchStep` again; `all_seat_observations()` gives
float32[B, num_players, observation_size], every seat's view of every game (to bootstrap values);
`state_tensors()` gives float32[B, state_size], the reference's `state_tensor()` of every game
(full information, for centralised critics only).

## Arguments

| argument | default | meaning |
|---|---|---|
| ``batch_size`` | | B, games stepped together |
| ``device`` | ``"cpu"`` | any torch device |
| ``seed`` | 0 | seeds the deals (`reset(seed)` reseeds) |
| ``auto_forced`` | False | play single-choice decisions unasked, as `card_envs.vector.VectorGames` does |
| ``backend`` | ``"auto"`` | ``"torch"`` (any device), ``"numba"`` (CPU, the ``batch`` or ``train`` extra) or numba where it can run; Split the Hoard and Dominion: numba only |
| ``**config`` | | the game's arguments, checked by the reference `Game` |

3 Piles and Piles have both backends; they share one state layout and the deal code: from one
seed they play the same games. The numba backend runs the per-step work (apply, mask, observe,
the forced decisions; for 3 Piles the deal too, from the same shuffle) as compiled loops over the
games on one core, several times faster on a CPU than the torch backend's whole-batch tensor
operations. One core on purpose: numba's OpenMP threads and torch's spin against each other,
which made a step several times slower beside torch (in a trainer, or on a loaded machine); run
one engine per process to use more cores.

Split the Hoard, Dominion and Illimat (`NUMBA_ONLY`) have the numba backend only, on the CPU. Every
piece of Split the Hoard's step (the rules, mask, observation, returns, the deal after its
shuffles) is a kernel, and so is Illimat's but for its returns (from the match scores, in Python)
and each fresh game's chance seed; Dominion's rules (its shuffles included), mask and observation are kernels, while its
deal replays the reference's `new_state` (about 0.1 ms of Python per dealt game) and its returns
are the reference's `returns()` of each finished game. `make` refuses ``backend="torch"`` and any
device but the CPU for them (ValueError), and raises ImportError naming the ``batch`` extra where
numba is missing.

Every engine refuses actions that are not integers or not one per game (shape [B]), and an
``auto_forced`` that is not a bool, as the reference does (IllegalActionError, ArgumentError), before
applying anything. `load` takes only positions where a seat is to act: a finished game
(``is_terminal()``), which would sit in its row with an all-zero mask refusing every step, is
refused with a ValueError naming its index among the states given, as is a state of another
configuration; every state is checked before any is loaded, so no game changes.
The torch backend of 3 Piles and Piles refuses an action outside 0..num_actions-1 (ValueError
naming the games, nothing applied) but trusts the rest: an illegal action in range is not detected
(a check would stop a GPU for the host) and leaves that game in an unspecified state. The numba
engines (all five games) check them fully: their kernels do not check array bounds, and an illegal
action would write past a game's rows into other games' rows or outside the arrays (a crash); so
`step` compares each action with its own copy of the mask it returned and raises ValueError naming
the games and actions, before applying any (the forced decisions of ``auto_forced`` are checked
the same way). Take actions from the mask. 3 Piles' and Piles' `load` reads a state's fields, so
it loads each state as the reference's snapshot loader rebuilds it from `to_json()`: a state
edited in Python into one the rules cannot reach is refused (ValueError).
`make` passes unknown arguments and unsupported values to the reference `Game`, which raises its
`card_envs.core.game.ArgumentError` (a TypeError and a ValueError).

## Same games as the reference

`load(states, rows=None)` continues from reference states (unfinished ones); `state(i)` returns game i as a
reference state (Split the Hoard's goes through the reference snapshot, which validates it; so does Dominion's). Deals
come from a `torch.Generator`. 3 Piles and Split the Hoard have no chance after the deal;
Dominion's shuffles are the reference's: shuffle k of a game is ``default_rng([seed, k])`` of its
dealt seed (`numpy_random.shuffle_pair`), so a loaded game continues exactly as the reference's;
so are Illimat's deals: round r of a game is dealt from ``default_rng((chance_seed, r))``; Piles
has its passes: pass k draws the card with numpy's `Generator.integers(len(hand))` algorithm
(`base.lemire`) from one 64-bit word, which `load` computes from the reference's ``chance_seed``
(the first output of ``default_rng((chance_seed, k))``), so a loaded game continues exactly as
the reference's does.
`card_envs.batch.check` plays both engines side by side on the same actions and compares every
step; the tests and `benchmarks/batch_differential.py` run it.

## Training

`python -m card_envs.train` steps its games with this engine where the game has one (``--engine batch``;
the default ``auto`` does so when numba is installed, ``--engine reference`` keeps the rules
engines): `card_envs.train.acting.BatchGames` gives it the interface of `card_envs.vector.VectorGames`
(forced decisions played unasked), so the rollout code, the opponent pool (its scripted agents act
on these observations, which are the reference's), evaluation and checkpoints are unchanged.
`benchmarks/train_engines.py` times the trainer on both engines.

## Speed

`python benchmarks/throughput.py three_piles_v0 piles_v0 --batch 1024 4096 [--device cuda]`
times both engines in one run, every decision with a random legal pick (on the numba engine a
compiled scan of the mask, drawing as the reference loop does; a torch argmax over random keys had
been a third to a half of a batched step). The numba engine is timed on one core in CPU seconds,
like the reference engine. 2026-12-06, a 2-core AMD EPYC (load average 3.5-4.0; the step one fused
kernel: actions checked, then apply, mask and observation game by game), decisions per second:

| env | reference engine | B=1024 numba | B=4096 numba |
|---|---|---|---|
| three_piles_v0 | 136,000 | 2,383,000 (17.5x) | 2,193,000 (16.1x) |
| piles_v0 | 86,100 | 1,296,000 (15.1x) | 1,189,000 (13.8x) |

Split the Hoard and Dominion, 2026-12-06 (`throughput.py split_the_hoard_v0 --batch 1024 4096`, and
with ``--config '{"num_players": 5}'``; `throughput.py dominion_v0 --batch 1024 4096`, and with
``--config '{"kingdom": "T3", "num_players": 4}'``; a 2-core AMD EPYC, load average 0.3 to 1.0),
decisions per second:

| config | reference engine | B=1024 numba | B=4096 numba |
|---|---|---|---|
| Split the Hoard, 3 players (default) | 51,100 | 810,000 (15.8x) | 820,000 (16.1x) |
| Split the Hoard, 5 players | 48,400 | 769,000 (15.9x) | 757,000 (15.7x) |
| Dominion, T1-A, 2 players (default) | 31,800 | 459,000 (14.5x) | 457,000 (14.4x) |
| Dominion, T3, 4 players | 28,500 | 423,000 (14.8x) | 393,000 (13.8x) |

A step of either (without ``auto_forced``) is one fused kernel (`split_the_hoard/step.py`,
`dominion/step.py`): the actions checked, then applied, then the masks and observations 16 games
at a time while the next 16 games' state rows are prefetched (`numba_prefetch`), each observation
row zeroed by one memset before it is written; Split the Hoard's rules functions take the state by
reference (`numba_borrow`), not as ~50 arrays copied into every call. The observation (at B=4,096
21-28 MB for Split the Hoard, 30 MB for Dominion at 2 players, 48 MB at 4) goes into an array
returned before that nothing holds any more, since fresh memory costs a zeroing of every page. With
``auto_forced`` the forced decisions are played by the shared loop (mask, apply) and the
observation is a kernel of its own. Games under random play last 400-1,200 decisions, so deals
(Python, 0.1 ms each) and returns are a small share.

Illimat, 2026-12-04 near midnight (`throughput.py illimat_v0 --batch 4096`, a 2-core AMD EPYC host
under KVM, where both figures move by a third from one run to the next): 2 players, reference
79,800, B=4096 1,084,000 (13.6x); 4 players 79,500 and 1,122,000 (14.1x; another run 12.7x); with
the three observation pieces (``--config '{"harvest_features": true, "play_features": true,
"threat_features": true}'``) 3,580 and 63,600 (17.8x). A step is one fused kernel, as Dominion's:
the actions checked, then apply, mask and observation 16 games at a time, the next 16 games' state
rows asked from memory meanwhile (`numba_prefetch`: the observations push the state out of the
cache). A 4-player decision is about 0.15 us of apply, 0.24 of mask (the items of a harvest ask the
exact cover: 65% of it) and 0.45 of observation (its card blocks written from the cards' places,
the rest copied from a feature store kept without the pieces that say where each card is; most of
it is the 6.6 KB written to memory).
The pieces are computed from scratch where what they read changed (a game keeps a seat's pieces
through a turn's decisions, `illimat.recall`); the reference caches its fields' tables by
content, across turns and games. `docs/results/illimat_v0.md` has the history.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import torch

from card_envs.core.game import ArgumentError

from card_envs.batch.base import BatchGame, BatchStep

__all__ = ["BACKENDS", "BatchGame", "BatchStep", "ENGINES", "NUMBA_ONLY", "UNBATCHED_OPTIONS", "has_numba", "make",
           "unbatched"]


def _engines(backend: str) -> dict[str, type[BatchGame]]:
    if backend == "numba":
        from card_envs.batch.piles.kernels import PilesNumba
        from card_envs.batch.three_piles.kernels import ThreePilesNumba
        from card_envs.batch.dominion.engine import DominionBatch
        from card_envs.batch.illimat.engine import IllimatBatch
        from card_envs.batch.split_the_hoard.engine import SplitTheHoardBatch

        return {cls.env_id: cls for cls in (ThreePilesNumba, PilesNumba, SplitTheHoardBatch, DominionBatch,
                                            IllimatBatch)}
    from card_envs.batch.piles.engine import PilesBatch
    from card_envs.batch.three_piles.engine import ThreePilesBatch

    return {cls.env_id: cls for cls in (ThreePilesBatch, PilesBatch)}


ENGINES = ("three_piles_v0", "piles_v0", "split_the_hoard_v0", "dominion_v0", "illimat_v0")
NUMBA_ONLY = ("split_the_hoard_v0", "dominion_v0", "illimat_v0")  # no torch backend: numba kernels on the CPU only
# Options of a game's configuration that its batched engine does not compute yet (True refused).
UNBATCHED_OPTIONS: dict[str, tuple[str, ...]] = {}
BACKENDS = ("auto", "torch", "numba")


def unbatched(env_id: str, config: dict[str, Any]) -> list[str]:
    """The options of `config` that `env_id`'s batched engine cannot take yet (the caller then plays
    the reference engine); empty when it batches this configuration."""
    return [k for k in UNBATCHED_OPTIONS.get(env_id, ()) if config.get(k) is True]


def has_numba() -> bool:
    return importlib.util.find_spec("numba") is not None


def make(env_id: str, batch_size: int, device: Any = "cpu", seed: int = 0, auto_forced: bool = False,
         backend: str = "auto", **config: Any) -> BatchGame:
    """The batched engine of `env_id` (one of `ENGINES`) for B = `batch_size` games.

    backend: "torch" (any device), "numba" (CPU only, the ``batch`` extra) or "auto": numba on a
    CPU where it is installed, else torch. The envs of `NUMBA_ONLY` have the numba backend only."""
    if env_id not in ENGINES:
        raise ValueError(f"no batched engine for {env_id!r}; there are: {', '.join(ENGINES)}")
    if unbatched(env_id, config):
        raise ArgumentError(f"{env_id}'s batched engine does not compute {', '.join(unbatched(env_id, config))} "
                            "yet; play the reference engine (card_envs.vector) for them")
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r}; use one of {BACKENDS}")
    cpu = torch.device(device).type == "cpu"
    if env_id in NUMBA_ONLY:
        _check_numba_only(env_id, device, backend, cpu)
        backend = "numba"
    if backend == "auto":
        backend = "numba" if cpu and has_numba() else "torch"
    if backend == "numba" and not cpu:
        raise ValueError(f"backend='numba' runs on the CPU only, not on {device!r}; use backend='torch'")
    return _engines(backend)[env_id](batch_size, device=device, seed=seed, auto_forced=auto_forced, **config)


def _check_numba_only(env_id: str, device: Any, backend: str, cpu: bool) -> None:
    if backend == "torch" or not cpu:
        raise ValueError(f"{env_id}'s batched engine has the numba backend only (the CPU): "
                         f"backend={backend!r}, device={str(device)!r} cannot run it; use device='cpu' with "
                         "backend='numba' or 'auto'")
    if not has_numba():
        raise ImportError(f"{env_id}'s batched engine needs numba (its only backend): "
                          "pip install -e '.[batch]'")
