"""Differential check: a batched engine and the reference engine, step by step on the same games.

B reference games are dealt from one seeded numpy generator and loaded into the batched engine;
both then play the same uniformly random legal actions. At every step the acting seats, the
observations and the masks must be identical (and every seat's observation and the full state
tensor, at every fifth step), and a game must end in both at the same step with identical returns and length. A game that ends is redealt by the batched engine; that deal is checked by the
reference snapshot validator, then played on as a reference state (3 Piles), or replaced by a
fresh reference deal (Piles: its pass draws come from the reference's chance seed, which a
batched deal does not have).

    python -m card_envs.batch.check three_piles_v0 --games 10000 --config '{"num_players": 3}'
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import torch

from card_envs.batch import make
from card_envs.core.registry import make_game


def _mismatch(what: str, layout, got: np.ndarray, want: np.ndarray, rows: np.ndarray, states) -> AssertionError:
    i = int(rows[0])
    where = np.flatnonzero(got[i] != want[i])
    if layout is not None:  # name the pieces that differ
        names = [name for name, sl in layout.slices.items() if any(sl.start <= j < sl.stop for j in where)]
        where = f"pieces {names}"
    else:
        where = f"indices {where[:10].tolist()}"
    return AssertionError(f"{what} differ in {len(rows)} games; game {i}: {where}; state {states[i].to_json()}")


def differential(env_id: str, config: dict[str, Any] | None = None, games: int = 1000, batch: int = 256,
                 device: str = "cpu", seed: int = 0, backend: str = "auto",
                 auto_forced: bool = False, engine: type | None = None) -> dict[str, int]:
    """Play `games` games in both engines (at least; B run together); raises AssertionError on the
    first difference. With `auto_forced`, both play single-choice decisions unasked (as
    `VectorGames` does). `engine`: a `BatchGame` class to check instead of `make`'s (an engine
    not registered yet; `backend` is then unused). Returns counts: games, decisions."""
    config = config or {}
    game = make_game(env_id, **config)
    rng = np.random.default_rng(seed)
    def play_forced(state):
        while auto_forced and not state.is_terminal() and len(legal := state.legal_actions()) == 1:
            state.apply(legal[0])
        return state

    states = [play_forced(game.new_state(rng)) for _ in range(batch)]
    if engine is None:
        env = make(env_id, batch, device=device, seed=seed, backend=backend, auto_forced=auto_forced, **config)
    else:
        env = engine(batch, device=device, seed=seed, auto_forced=auto_forced, **config)
    out = env.load(states)
    finished = decisions = step = 0
    asked = np.zeros(batch, dtype=np.int64)  # decisions asked in each reference game
    replay = env.whole_states  # batched deals play on as reference states
    while finished < games:
        seats = np.array([s.current_player for s in states])
        masks = np.stack([s.legal_mask() for s in states]).astype(bool)
        obs = np.stack([s.observation(s.current_player) for s in states])
        got_seats, got_masks, got_obs = (x.cpu().numpy() for x in (out.seat, out.mask, out.obs))
        for what, got, want, layout in (("seats", got_seats[:, None], seats[:, None], None),
                                        ("masks", got_masks, masks, None),
                                        ("observations", got_obs, obs, game.observation_layout)):
            bad = np.flatnonzero((got != want).any(1))
            if bad.size:
                raise _mismatch(what, layout, got, want, bad, states)
        if step % 5 == 0:
            every = env.all_seat_observations().cpu().numpy()
            for seat in range(game.num_players):
                want = np.stack([s.observation(seat) for s in states])
                bad = np.flatnonzero((every[:, seat] != want).any(1))
                if bad.size:
                    raise _mismatch(f"seat {seat}'s observations", game.observation_layout, every[:, seat], want,
                                    bad, states)
            got, want = env.state_tensors().cpu().numpy(), np.stack([s.state_tensor() for s in states])
            bad = np.flatnonzero((got != want).any(1))
            if bad.size:
                raise _mismatch("state tensors", game.state_layout, got, want, bad, states)
        # Uniform random legal actions, the same in both engines.
        counts = masks.sum(1)
        picks = (rng.random(batch) * counts).astype(np.int64)
        actions = np.array([np.flatnonzero(m)[k] for m, k in zip(masks, picks)])
        for s, a in zip(states, actions):
            s.apply(int(a))
            play_forced(s)
        decisions += batch
        asked += 1
        step += 1
        out = env.step(torch.as_tensor(actions))
        ended = np.array([s.is_terminal() for s in states])
        done = out.done.cpu().numpy()
        if (ended != done).any():
            i = int(np.flatnonzero(ended != done)[0])
            raise AssertionError(f"game {i}: reference terminal {ended[i]}, batched done {done[i]}: "
                                 f"{states[i].to_json()}")
        if not np.array_equal(out.length.cpu().numpy(), np.where(ended, asked, 0)):
            raise AssertionError(f"lengths {out.length.cpu().numpy()[ended]}, reference {asked[ended]}")
        asked[ended] = 0
        rows = np.flatnonzero(ended)
        if rows.size:
            want = np.stack([states[i].returns() for i in rows]).astype(np.float32)
            got = out.reward.cpu().numpy()[rows]
            if not np.array_equal(got, want):
                raise _mismatch("returns", None, got, want, np.arange(len(rows)), [states[i] for i in rows])
            if not (out.reward.cpu().numpy()[~ended] == 0).all():
                raise AssertionError("a reward in a game that did not end")

            finished += rows.size
            fresh = []
            for i in rows:
                dealt = env.state(int(i))
                game.state_from_json(dealt.to_json())  # the reference validator accepts the deal
                states[i] = dealt if replay else play_forced(game.new_state(rng))
                fresh.append(states[i])
            if not replay:
                out = env.load(fresh, rows.tolist())
    return {"games": finished, "decisions": decisions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id")
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--backend", default="auto", choices=("auto", "torch", "numba"))
    parser.add_argument("--config", type=json.loads, default={})
    parser.add_argument("--auto-forced", action="store_true")
    args = parser.parse_args()
    start = time.perf_counter()
    counts = differential(args.env_id, args.config, args.games, args.batch, args.device, args.seed, args.backend,
                          args.auto_forced)
    print(f"{args.env_id} {args.config or ''} on {args.device} ({args.backend}): {counts['games']} games, "
          f"{counts['decisions']} decisions identical ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
