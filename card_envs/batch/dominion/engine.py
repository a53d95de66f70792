"""Batched Dominion (numba, CPU): B games as a few arrays, the same observations and masks as
`card_envs.games.dominion` (the reference).

State, one row per game; seats are absolute, cards and piles the reference's ids (C = 64 card
names, NP = 33 piles, n seats). Ordered piles are arrays in the reference's list order (bottom
first: a deck's top is its last card) with their lengths among the seat's scalars:

| array | dtype, shape | reference fields |
|---|---|---|
| `g` | int64[B, 19] | per-game scalars, columns `K.G_FIELDS`: `current_player`, `turn_player`, `phase`, `coins`, `actions`, `buys`, `saunas`, `fortune_used`, `ally` (-1 none), `bane` (-1 none), `prev_turn`, `extra_turn`, `plays_left` (-1 outside a Voyage turn), `shuffles`, `seed` (its uint64 bits), the task count; `max_turns`, `elder_card` and the count of `_trig` |
| `ps` | int32[B, n, 12] | per-seat scalars, columns `K.P_FIELDS`: `hsize`, `vp`, `debt`, `turns`, `favors`, `skips`, `immune`, and the lengths of the deck, discard, in-play, set-aside and durations lists |
| `counts` | int16[B, n, 3, C] | `hands`, `known`, `owned` (planes `K.H_*`) |
| `zones` | int8[B, n, 5, M] | `decks`, `deck_known`, `discards`, `in_play`, `set_aside` (planes `K.Z_*`; M: every card of the game) |
| `dur` | int32[B, n, 20, 2] | `durations`: [card, x] in the order played |
| `piles`, `plen` | int8[B, NP, 46], int16[B, NP] | `piles[p]` (top last) and their lengths |
| `supply` | bool[B, NP] | the pile is in `supply` |
| `kingdom` | int8[B, 10] | `kingdom`, in its order |
| `trash` | int16[B, C] | `trash` |
| `tasks` | int32[B, 64, 7] | `tasks` bottom first, columns `K.T_FIELDS` (op: `TASK_OPS` index; kind: `DECISIONS` index, -1 for a task that asks nothing) |

`cur` (the acting seat, int64[B]) is a torch view of `g`'s first column. The reference's
transient fields (`elder_card`, `_trig`) are empty between decisions and not kept; its
observation caches are recomputed.

Requires numba (`card_envs.batch.make` gives this engine; it has no torch backend). Kernels: the
rules (`dominion_zones`: the task stack, the zones and the shuffle; `dominion_effects`: every card
effect; `dominion_play`: every decision, phase and the step), the mask and the observation /
state vector (`dominion_kernels`); the fused step (`dominion_step`). Python, once per game: the
deal and the returns.

Decisions:

- Cards and piles are the reference's ids; a pile's names are consecutive ids (asserted at
  import), so the kernels walk a pile from `PILE_FIRST`. Ordered lists keep the reference's
  orientation (bottom first), so the ports follow the reference line by line.
- `seed` is kept as its uint64 bits in the int64 row (the reference allows seeds up to 2**63);
  shuffle k of a game is ``default_rng([seed, k])``'s permutation of the sorted discard pile
  (`numpy_random.shuffle_pair`), as the reference's, so loaded games continue identically.
- Deals replay the reference: each dealt game is ``game.new_state(np.random.default_rng(s))``
  with s drawn from the torch generator, then loaded (the kingdom, Bane, Ally and shuffle seed are
  the reference's own draws). About 0.1 ms of Python per dealt game; with random play a game
  lasts 400-1,200 decisions, so at B=4,096 a few games end per step.
- Observations follow numpy 2's float32 rules (NEP 50): a count piece is the count in float32
  times float32 0.1 (`TENTH`), Python float values are rounded once when stored, and a split
  pile's copy count is 0.1 added k times in float64 (`TENTHS`), as the reference sums it.
- `step` checks its actions against its own copy of the last mask (inside the fused step), as
  Split the Hoard's does: the
  kernels do not check bounds, and an illegal action (a card not in hand, an empty pile, an index
  past the actions) would write into other games' rows.
- Speed: every entry kernel takes the state's arrays through `borrowed` (no reference counting
  at each call: the mask 7.4 -> 2.4 ms, apply 11.1 -> 5.8 ms per step of 4,096 games, T1-A), and
  each count of the observation is scaled once. A step is mostly memory: the observation is 30 MB
  (T1-A, 2 players) to 48 MB (4 players) at B=4,096, and each game's rows lie in a dozen arrays.
  So a step without ``auto_forced`` is one fused kernel (`dominion_step`: apply, mask and
  observation 16 games at a time, their rows still in the cache, the next block's state rows
  asked from memory meanwhile: `numba_prefetch`), and its observations go into an array returned
  before that nothing holds any more (`_step_observations`; fresh memory is zeroed page by page on
  first touch). At 4 players this took B=4,096 from 9.3x to 11.3x the reference's decisions/s;
  the prefetch, the smaller blocks and per-card counts written without a branch (`count_tenths`:
  a loop numba vectorises, 8 of them in each 4-player observation) gave 1.29x more (2026-12-06).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import torch

from card_envs.batch.dominion import kernels as K
from card_envs.batch.dominion import play as play
from card_envs.batch.dominion import step as dominion_step
from card_envs.batch.base import BatchGame
from card_envs.batch.numpy_random import new_generator
from card_envs.games.dominion import effects as fx
from card_envs.games.dominion.cards import BANE_CANDIDATES, NUM_PILES, PILE_OF, YOUNG_WITCH, pile_setup
from card_envs.games.dominion.rules import DominionState
from card_envs.games.dominion.snapshot import to_json as snapshot_json

MAX_TASKS = 64  # deeper stacks than any reachable position holds (load refuses deeper ones)
MAX_TRIGGERS = 16  # gain and trash triggers raised by one effect before they are pushed
MAX_DURATIONS = 20  # every Duration card of the game (4 Warlords, Garrisons, Conjurers, Voyages, Strongholds)
MAX_PILE = max(len(pile_setup(p, n)) for p in range(NUM_PILES) for n in (2, 3, 4))


def zone_size(game) -> int:
    """The most cards one list can hold: every card of the game (the largest Supply this
    configuration can deal, plus the starting decks)."""
    n = game.num_players
    size = {p: len(pile_setup(p, n)) for p in range(NUM_PILES)}
    if game.fixed_kingdom is None:
        piles = list(range(NUM_PILES))
    else:
        piles = list(range(7)) + list(game.fixed_kingdom)
        if PILE_OF[YOUNG_WITCH] in game.fixed_kingdom:
            piles.append(max((p for p in BANE_CANDIDATES if p not in game.fixed_kingdom), key=size.get))
    return sum(size[p] for p in piles) + 10 * n


class DominionBatch(BatchGame):
    env_id = "dominion_v0"
    backend = "numba"

    def __init__(self, batch_size: int, device: str | torch.device = "cpu", seed: int = 0,
                 auto_forced: bool = False, **config: Any):
        if torch.device(device).type != "cpu":
            raise ValueError(f"dominion_v0's batched engine runs on the CPU (numba), not on {device!r}")
        super().__init__(batch_size, device, seed, auto_forced, **config)

    # ----- the state arrays ---------------------------------------------------------------------
    def _allocate(self) -> None:
        B, n = self.batch_size, self.num_players
        self.zone_size = zone_size(self.game)
        self.g = np.zeros((B, len(K.G_FIELDS)), np.int64)
        self.ps = np.zeros((B, n, len(K.P_FIELDS)), np.int32)
        self.counts = np.zeros((B, n, 3, K.C), np.int16)
        self.zones = np.zeros((B, n, 5, self.zone_size), np.int8)
        self.dur = np.zeros((B, n, MAX_DURATIONS, 2), np.int32)
        self.piles = np.zeros((B, NUM_PILES, MAX_PILE), np.int8)
        self.plen = np.zeros((B, NUM_PILES), np.int16)
        self.supply = np.zeros((B, NUM_PILES), np.bool_)
        self.kingdom = np.zeros((B, 10), np.int8)
        self.trash = np.zeros((B, K.C), np.int16)
        self.tasks = np.zeros((B, MAX_TASKS, len(K.T_FIELDS)), np.int32)
        self.trig = np.zeros((B, MAX_TRIGGERS, len(K.T_FIELDS)), np.int32)
        self.scratch = (new_generator(), np.zeros(self.num_actions, np.bool_),
                        np.zeros((2, len(K.T_FIELDS)), np.int32), np.zeros((2, K.C), np.int64))
        self.cur = torch.from_numpy(self.g)[:, K.G_CUR]  # the kernels write it through g
        self.obs_offsets = K.offsets(self.game.observation_layout)
        self.state_offsets = K.offsets(self.game.state_layout)
        self._ready: tuple[np.ndarray, np.ndarray] | None = None  # see _apply

    def _rules_state(self) -> tuple:
        """The tuple `S` the rules kernels take (`dominion_play`)."""
        return (*self._arrays(), self.trig, *self.scratch)

    def _arrays(self) -> tuple:
        return (self.g, self.ps, self.counts, self.zones, self.dur, self.piles, self.plen, self.supply, self.trash,
                self.tasks)

    # ----- deals and conversions -----------------------------------------------------------------
    def _deal(self, rows: torch.Tensor) -> None:
        """Fresh games in `rows`: the reference's deal from a seed the torch generator draws."""
        seeds = torch.randint(0, 2**62, (len(rows),), generator=self.generator).tolist()
        states = [self.game.new_state(np.random.default_rng(s)) for s in seeds]
        ready = self._ready
        self._load(states, rows)
        if ready is not None:  # the step's mask and observations, those of the new games again
            dominion_step.refresh(self._rules_state(), self.game.max_turns, self.obs_offsets, rows.numpy(), *ready)
            self._ready = ready

    def _load(self, states: Sequence[DominionState], rows: torch.Tensor) -> None:
        self._ready = None
        for state, b in zip(states, rows.tolist()):
            self._load_one(state, b)

    def _load_one(self, st: DominionState, b: int) -> None:
        if len(st.tasks) > MAX_TASKS:
            raise ValueError(f"load: {len(st.tasks)} pending tasks; this engine holds at most {MAX_TASKS}")
        if st.elder_card >= 0 or st._trig:
            raise ValueError("load: a state in the middle of resolving an effect (pending triggers or Elder)")
        g = self.g[b]
        g[:] = (st.current_player, st.turn_player, st.phase, st.coins, st.actions, st.buys, st.saunas,
                st.fortune_used, st.ally, st.bane, st.prev_turn, st.extra_turn, st.plays_left, st.shuffles,
                np.uint64(st.seed).view(np.int64), len(st.tasks), self.game.max_turns, -1, 0)
        for q in range(self.num_players):
            self._load_seat(st, b, q)
        self.piles[b], self.plen[b], self.supply[b] = 0, 0, False
        for p in st.supply:
            self.supply[b, p] = True
            self.plen[b, p] = len(st.piles[p])
            self.piles[b, p, :len(st.piles[p])] = st.piles[p]
        self.kingdom[b] = st.kingdom
        self.trash[b] = st.trash
        self.tasks[b] = 0
        for k, t in enumerate(st.tasks):
            self.tasks[b, k] = (fx.TASK_OPS.index(t["op"]), fx.DECISION_INDEX[t["kind"]] if t["kind"] else -1,
                                t["p"], t["card"], t["lo"], t["hi"], t["x"])

    def _load_seat(self, st: DominionState, b: int, q: int) -> None:
        zones = (st.decks[q], st.deck_known[q], st.discards[q], st.in_play[q], st.set_aside[q])
        if max(map(len, zones)) > self.zone_size or len(st.durations[q]) > MAX_DURATIONS:
            raise ValueError(f"load: seat {q} holds more cards than this game has")
        self.ps[b, q] = (st.hsize[q], st.vp[q], st.debt[q], st.turns[q], st.favors[q], st.skips[q], st.immune[q],
                         len(st.decks[q]), len(st.discards[q]), len(st.in_play[q]), len(st.set_aside[q]),
                         len(st.durations[q]))
        self.counts[b, q] = (st.hands[q], st.known[q], st.owned[q])
        self.zones[b, q] = 0
        for z, cards in enumerate(zones):
            self.zones[b, q, z, :len(cards)] = cards
        self.dur[b, q] = 0
        if st.durations[q]:
            self.dur[b, q, :len(st.durations[q])] = st.durations[q]

    def reference_state(self, i: int) -> DominionState:
        """Game i as a reference state object, unvalidated (`state(i)` validates)."""
        st, n = DominionState(self.game), self.num_players
        g = self.g[i].tolist()
        (st.current_player, st.turn_player, st.phase, st.coins, st.actions, st.buys, st.saunas, fortune, st.ally,
         st.bane, st.prev_turn, extra, st.plays_left, st.shuffles, seed, ntasks, _, _, _) = g
        st.fortune_used, st.extra_turn = bool(fortune), bool(extra)
        st.seed = int(np.int64(seed).view(np.uint64))
        st.kingdom = self.kingdom[i].tolist()
        st.supply = np.flatnonzero(self.supply[i]).tolist()
        for p in st.supply:
            st.piles[p] = self.piles[i, p, :self.plen[i, p]].tolist()
        st.trash = self.trash[i].tolist()
        for q in range(n):
            (st.hsize[q], st.vp[q], st.debt[q], st.turns[q], st.favors[q], st.skips[q], immune, deck, disc, play,
             aside, durs) = self.ps[i, q].tolist()
            st.immune[q] = bool(immune)
            st.hands[q], st.known[q], st.owned[q] = self.counts[i, q].tolist()
            z = self.zones[i, q]
            st.decks[q], st.deck_known[q] = z[K.Z_DECK, :deck].tolist(), z[K.Z_FLAGS, :deck].tolist()
            st.discards[q], st.in_play[q] = z[K.Z_DISC, :disc].tolist(), z[K.Z_PLAY, :play].tolist()
            st.set_aside[q] = z[K.Z_ASIDE, :aside].tolist()
            st.durations[q] = self.dur[i, q, :durs].tolist()
        st.tasks = [fx.task(fx.TASK_OPS[op], p, card, fx.DECISIONS[kind] if kind >= 0 else "", lo, hi, x)
                    for op, kind, p, card, lo, hi, x in self.tasks[i, :ntasks].tolist()]
        return st

    def to_json(self, i: int) -> dict[str, Any]:
        """Game i as the reference's ``state.to_json()``."""
        return snapshot_json(self.reference_state(i))

    def state(self, i: int) -> DominionState:
        """Game i as a reference state, through the reference's snapshot (validated)."""
        return self.game.state_from_json(self.to_json(i))

    # ----- rules ---------------------------------------------------------------------------------
    def _apply(self, actions: torch.Tensor, active: torch.Tensor) -> None:
        self._fused_apply(actions, active, lambda a, on: play.apply(self._rules_state(), a, on),
                          lambda a, mask, obs: dominion_step.step(self._rules_state(), a, self._legal,
                                                                  self.game.max_turns, self.obs_offsets, mask, obs))

    def _returns(self, rows: torch.Tensor) -> torch.Tensor:
        """The reference's `returns()`: ranks by score, then fewer turns (or score differences)."""
        out = torch.zeros(len(rows), self.num_players)
        for k, b in enumerate(rows.tolist()):
            st = self.reference_state(b)
            out[k] = torch.from_numpy(np.asarray(st.returns(), dtype=np.float32))
        return out

    def _mask(self) -> torch.Tensor:
        """The legal mask (a copy of it is kept to check the next actions with)."""
        if self._ready is not None:
            out = self._ready[0]
        else:
            out = np.empty((self.batch_size, self.num_actions), dtype=np.bool_)
            K.mask(self._arrays(), self.num_players, out)
        self._legal = out
        return torch.from_numpy(out.copy())

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        if seat is None and self._ready is not None:  # the step's, once
            out, self._ready = self._ready[1], None
            return torch.from_numpy(out)
        out = np.zeros((self.batch_size, self.observation_size), dtype=np.float32)
        seats = np.ascontiguousarray((self.cur if seat is None else seat).numpy(), dtype=np.int64)
        K.encode(self._arrays(), self.num_players, self.game.max_turns, self.obs_offsets, seats, False, out)
        return torch.from_numpy(out)

    def state_tensors(self) -> torch.Tensor:
        """float32[B, state_size]: each game's `state_tensor()` (full information, for centralised
        critics only)."""
        out = np.zeros((self.batch_size, self.game.state_layout.size), dtype=np.float32)
        seats = np.zeros(self.batch_size, np.int64)
        K.encode(self._arrays(), self.num_players, self.game.max_turns, self.state_offsets, seats, True, out)
        return torch.from_numpy(out)

    def _terminal(self) -> torch.Tensor:
        return torch.from_numpy(self.g[:, K.G_PHASE] == K.OVER)

