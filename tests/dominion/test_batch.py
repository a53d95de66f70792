"""Batched Dominion (card_envs.batch.dominion.engine) against the reference engine.

Positions come from random and greedy play of the reference: every decision of a few games per
configuration (each kingdom preset, a random kingdom, a list with Young Witch's Bane and a fixed
Ally, a list of Allies piles; 2-4 players), every decision kind among them. Each is loaded into
the batched engine, which must give back the same snapshot (and, through the reference's
validating loader, the same state), acting seat, terminal flag, mask, observation of every seat
and state vector, bit for bit, and the same position after one random answer. Some
configurations are also played side by side, and through `check.differential` with
``auto_forced``. `benchmarks/batch_differential.py --env dominion_v0` runs the full-sized check."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest
import torch

from card_envs import batch
from card_envs.core.registry import make_game
from card_envs.games.dominion.cards import BASIC_PILES, COST, PILE_CARDS
from card_envs.games.dominion.effects import CARD0, DECISIONS, OPTION0, PILE0
from tests.conftest import assert_illegal_actions_refused

pytestmark = pytest.mark.skipif(not batch.has_numba(), reason="numba not installed")

WITCH_LIST = ["Young Witch", "Castles", "Gladiator/Fortune", "Sauna/Avanto", "Chapel", "Moat", "Remodel",
              "Festival", "Witch", "Encampment/Plunder"]
ALLIES_LIST = ["Augurs", "Wizards", "Castles", "Sauna/Avanto", "Odysseys", "Forts", "Clashes", "Townsfolk",
               "Village", "Market"]
# (config, games, seed): the seeds and game counts are chosen so that the positions hold every
# decision kind (`test_positions_cover_every_decision`) at a CI-sized cost (about 20,000 positions).
CONFIGS = [
    ({"kingdom": "T1-A"}, 4, 0),
    ({"kingdom": "T1-B", "num_players": 3}, 3, 0),
    ({"kingdom": "T2", "num_players": 4}, 2, 0),  # Bustling Village's pick
    ({"kingdom": "T3"}, 4, 0),
    ({"kingdom": "T3", "num_players": 4, "reward": "score", "ally": "Cave Dwellers"}, 2, 0),
    ({"kingdom": "random", "num_players": 3}, 4, 0),  # Band of Nomads
    ({"kingdom": WITCH_LIST, "bane": "Wizards", "ally": "Peaceful Cult", "num_players": 2}, 3, 0),
    ({"kingdom": ALLIES_LIST, "ally": "Mountain Folk", "num_players": 3}, 4, 10),  # the Castles, Sibyl
    ({"kingdom": ALLIES_LIST, "ally": "Mountain Folk", "num_players": 3}, 2, 15),  # a Lich trashed
    ({"kingdom": ALLIES_LIST, "ally": "Mountain Folk", "num_players": 3}, 2, 11),  # Sunken Treasure
]
IDS = ["T1-A-2", "T1-B-3", "T2-4", "T3-2", "T3-4-score", "random-3", "list-bane-ally", "allies-list-3",
       "allies-list-3-lich", "allies-list-3-sunken"]
SIDE_BY_SIDE = [0, 4, 5, 7]  # the configurations played side by side (each plays every decision compared)


def choose(state, rng, favourite: int) -> int:
    """A random legal action, or, in games with a `favourite` Kingdom pile (-1: none), a greedy
    one: play an Action card whenever allowed; half the buys and gains take the favourite pile,
    else the costliest Kingdom card, else any; so that games reach the expensive cards and those
    deep in split piles (Lich, Sibyl, Sprawling Castle...) and what they ask."""
    legal = state.legal_actions()
    if favourite >= 0:
        plays = [a for a in legal if CARD0 <= a < PILE0] if not state.tasks and state.phase == 0 else []
        piles = [a for a in legal if PILE0 + len(BASIC_PILES) <= a < OPTION0]
        if plays:
            return int(plays[rng.integers(len(plays))])
        if piles and rng.random() < 0.5:
            if PILE0 + favourite in piles:
                return PILE0 + favourite
            if rng.random() < 0.5:
                return int(piles[rng.integers(len(piles))])
            return max(piles, key=lambda a: COST[state.piles[a - PILE0][-1]])
    return int(legal[rng.integers(len(legal))])


def positions(config: dict, games: int, seed: int = 0) -> list:
    """Every position (the terminal ones included) of `games` reference games, every other one
    greedy (`choose`) with the kingdom's split piles as favourites in turn."""
    game = make_game("dominion_v0", **config)
    rng = np.random.default_rng(seed)
    out = []
    for k in range(games):
        state = game.new_state(rng)
        splits = [p for p in sorted(state.kingdom) if len(PILE_CARDS[p]) > 1] or sorted(state.kingdom)
        favourite = splits[(k // 2) % len(splits)] if k % 2 else -1  # the split piles in turn
        while True:
            out.append(state.clone())
            if state.is_terminal():
                break
            state.apply(choose(state, rng, favourite))
    return out


def engine(config: dict, states: list):
    from card_envs.batch.dominion.engine import DominionBatch

    env = DominionBatch(len(states), **config)
    return env, env.load(states)


def engine_with_finished_games(config: dict, states: list):
    """`engine`, for positions that include finished games: `load` refuses those (it takes only
    positions where a seat is to act), so they go in through `_load_positions`, the loader it
    calls after its checks, to compare finished positions with the reference too."""
    from card_envs.batch.dominion.engine import DominionBatch

    env = DominionBatch(len(states), **config)
    return env, env._load_positions(states, env._rows)


def first_difference(got: np.ndarray, want: np.ndarray, states: list, layout) -> str:
    rows = np.flatnonzero((got != want).reshape(len(got), -1).any(1))
    if not rows.size:
        return ""
    i = int(rows[0])
    j = int(np.flatnonzero(got[i].reshape(-1) != want[i].reshape(-1))[0]) % got.shape[-1]
    piece = next((k for k, sl in layout.slices.items() if sl.start <= j < sl.stop), "?") if layout else "mask"
    return (f"{len(rows)} positions differ; first: position {i}, index {j} ({piece}): got "
            f"{got[i].reshape(-1, got.shape[-1])[:, j]}, want {want[i].reshape(-1, want.shape[-1])[:, j]}\n"
            + json.dumps(states[i].to_json())[:3000])


@functools.lru_cache(maxsize=None)
def config_positions(k: int) -> list:
    config, games, seed = CONFIGS[k]
    return positions(config, games, seed)


@pytest.fixture(scope="module", params=range(len(CONFIGS)), ids=IDS)
def loaded(request):
    config = CONFIGS[request.param][0]
    states = config_positions(request.param)
    env, step = engine_with_finished_games(config, states)
    return config, states, env, step


def test_snapshots_round_trip(loaded):
    """Every snapshot equals the reference's; every third one (and every terminal one) also
    loads back through the reference's validating loader."""
    config, states, env, _ = loaded
    for i, st in enumerate(states):
        want = st.to_json()
        assert env.to_json(i) == want, f"position {i}"
        if i % 3 == 0 or st.is_terminal():
            assert env.state(i).to_json() == want, f"position {i}"


def test_seats_terminal_and_mask(loaded):
    config, states, env, step = loaded
    assert step.seat.tolist() == [st.current_player for st in states]
    assert env._terminal().tolist() == [st.is_terminal() for st in states]
    want = np.stack([st.legal_mask().astype(bool) for st in states])
    got = step.mask.numpy()
    assert not first_difference(got, want, states, None), first_difference(got, want, states, None)


def test_observations_of_every_seat(loaded):
    config, states, env, step = loaded
    n = env.num_players
    want = np.stack([[st.observation(q) for q in range(n)] for st in states])
    got = env.all_seat_observations().numpy()
    layout = env.game.observation_layout
    assert got.dtype == np.float32
    assert not first_difference(got, want, states, layout), first_difference(got, want, states, layout)
    acting = np.stack([st.observation(st.current_player) for st in states])
    assert np.array_equal(step.obs.numpy(), acting)


def test_state_vectors(loaded):
    config, states, env, _ = loaded
    want = np.stack([st.state_tensor() for st in states])
    got = env.state_tensors().numpy()
    layout = env.game.state_layout
    assert not first_difference(got, want, states, layout), first_difference(got, want, states, layout)


def test_returns_of_finished_games(loaded):
    config, states, env, _ = loaded
    rows = [i for i, st in enumerate(states) if st.is_terminal()]
    got = env._returns(torch.tensor(rows)).numpy()
    want = np.stack([states[i].returns() for i in rows]).astype(np.float32)
    assert np.array_equal(got, want)


def test_one_step_from_every_position(loaded):
    """Every non-terminal position, one random legal answer in both engines at once: the same
    snapshot after it, or the same returns and length when it ends the game (every decision
    kind, every answer kind that random play reaches)."""
    config, states, env, step = loaded
    rng = np.random.default_rng(5)
    live = [i for i, st in enumerate(states) if not st.is_terminal()]
    sub, _ = engine(config, [states[i] for i in live])
    after = [states[i].clone() for i in live]
    actions = [int(rng.choice(st.legal_actions())) for st in after]
    for st, a in zip(after, actions):
        st.apply(a)
    out = sub.step(torch.tensor(actions))
    ended = [st.is_terminal() for st in after]
    assert out.done.tolist() == ended
    for k, st in enumerate(after):
        if ended[k]:
            assert np.array_equal(out.reward[k].numpy(), st.returns().astype(np.float32)), f"position {live[k]}"
            assert out.length[k] == 1
        else:
            assert sub.to_json(k) == st.to_json(), f"position {live[k]}, action {actions[k]}"


def play_side_by_side(config: dict, games: int, batch: int, seed: int) -> int:
    """Play `games` games (at least) in both engines from reference deals loaded into the batched
    one, the same actions in both (`choose`: uniform in even rows, greedy in odd ones); at every
    decision the snapshots, acting seats, masks and observations must be identical, and a game
    must end in both at once with the same returns and length. A game that ends is redealt by the
    batched engine and played on from `state(i)`. Returns the number of decisions compared."""
    from card_envs.batch.dominion.engine import DominionBatch

    game = make_game("dominion_v0", **config)
    rng = np.random.default_rng(seed)
    states = [game.new_state(rng) for _ in range(batch)]
    env = DominionBatch(batch, seed=seed, **config)
    out = env.load(states)
    favourite = [-1 if i % 2 == 0 else int(rng.choice(st.kingdom)) for i, st in enumerate(states)]
    asked = np.zeros(batch, dtype=np.int64)
    finished = decisions = 0
    while finished < games:
        for i, s in enumerate(states):
            assert env.to_json(i) == s.to_json(), f"game {i} after {asked[i]} decisions"
        assert out.seat.tolist() == [s.current_player for s in states]
        masks = np.stack([s.legal_mask() for s in states]).astype(bool)
        assert not first_difference(out.mask.numpy(), masks, states, None)
        want = np.stack([s.observation(s.current_player) for s in states])
        layout = game.observation_layout
        assert not first_difference(out.obs.numpy(), want, states, layout)
        actions = np.array([choose(s, rng, f) for s, f in zip(states, favourite)])
        for s, a in zip(states, actions):
            s.apply(int(a))
        out = env.step(torch.as_tensor(actions))
        asked += 1
        decisions += batch
        ended = np.array([s.is_terminal() for s in states])
        assert out.done.numpy().tolist() == ended.tolist()
        assert out.length.numpy().tolist() == np.where(ended, asked, 0).tolist()
        want = np.zeros((batch, game.num_players), dtype=np.float32)
        for i in np.flatnonzero(ended):
            want[i] = states[i].returns()
            states[i] = env.state(int(i))  # the batched deal, checked by the reference loader
            finished += 1
        assert np.array_equal(out.reward.numpy(), want)
        asked[ended] = 0
    return decisions


@pytest.mark.parametrize("k", SIDE_BY_SIDE, ids=[IDS[k] for k in SIDE_BY_SIDE])
def test_same_games_as_the_reference(k):
    assert play_side_by_side(CONFIGS[k][0], games=4, batch=4, seed=7) > 0


@pytest.mark.parametrize("config", [CONFIGS[0][0], CONFIGS[4][0]], ids=[IDS[0], IDS[4]])
def test_differential_check_with_forced_decisions_played(config):
    """`card_envs.batch.check.differential` (the registered engine), single-choice decisions
    played unasked in both."""
    from card_envs.batch.check import differential

    counts = differential("dominion_v0", config, games=8, batch=8, seed=3, auto_forced=True)
    assert counts["games"] >= 8


def test_positions_cover_every_decision():
    """The configurations above reach every decision kind (so the tests above check each)."""
    seen = set()
    for k in range(len(CONFIGS)):
        for st in config_positions(k):
            if not st.is_terminal():
                seen.add(st.tasks[-1]["kind"] if st.tasks else DECISIONS[st.phase])
    assert seen == set(DECISIONS), sorted(set(DECISIONS) - seen)


def test_deals_are_reference_positions_and_reproducible():
    from card_envs.batch.dominion.engine import DominionBatch

    a = DominionBatch(6, seed=3, kingdom="random", num_players=3)
    b = DominionBatch(6, seed=3, kingdom="random", num_players=3)
    snaps = [a.to_json(i) for i in range(6)]
    assert snaps == [b.to_json(i) for i in range(6)]
    assert len({json.dumps(s["kingdom"]) for s in snaps}) > 1
    for i in range(6):
        assert a.state(i).to_json() == snaps[i]


def test_load_refuses_other_configurations():
    from card_envs.batch.dominion.engine import DominionBatch

    env = DominionBatch(1)
    other = make_game("dominion_v0", kingdom="T2").new_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="load: state 0 is of"):
        env.load([other])
    with pytest.raises(ValueError, match="runs on the CPU"):
        DominionBatch(1, device="meta")


def test_make_gives_the_numba_engine_and_refuses_what_it_cannot_run(monkeypatch):
    from card_envs.batch.dominion.engine import DominionBatch
    from card_envs.core.game import ArgumentError

    env = batch.make("dominion_v0", 4, seed=1, num_players=3, kingdom="T2")
    assert type(env) is DominionBatch and env.num_players == 3 and env.observe().obs.shape[0] == 4
    for bad in ({"backend": "torch"}, {"device": "meta"}, {"device": "meta", "backend": "numba"}):
        with pytest.raises(ValueError, match="dominion_v0's batched engine has the numba backend only"):
            batch.make("dominion_v0", 4, **bad)
    with pytest.raises(ArgumentError, match="unexpected keyword argument 'bogus'"):
        batch.make("dominion_v0", 4, bogus=1)  # the reference's error (a TypeError too)
    with pytest.raises(ArgumentError, match="kingdom='T9' is not supported"):
        batch.make("dominion_v0", 4, kingdom="T9")
    monkeypatch.setattr(batch, "has_numba", lambda: False)
    with pytest.raises(ImportError, match=r"needs numba .*\.\[batch\]"):
        batch.make("dominion_v0", 4)


@pytest.mark.parametrize("auto_forced", [False, True])
def test_an_illegal_action_is_refused_and_changes_nothing(auto_forced):
    """The kernels do not check bounds (an illegal action would write into other games), so
    `step` checks each action against the mask it returned; a caller's edits to that tensor do
    not loosen the check."""
    env = batch.make("dominion_v0", 8, seed=3, auto_forced=auto_forced, kingdom="T3")
    assert_illegal_actions_refused(env)


def test_observations_kept_by_the_caller_are_never_written_again():
    """A step's observations go into an array the engine returned before only when nothing
    holds it any more (the pool of `_step_observations`)."""
    env = batch.make("dominion_v0", 8, seed=2)
    out, kept = env.observe(), []
    for k in range(8):
        out = env.step(out.mask.to(torch.uint8).argmax(1))
        if k % 2:
            kept.append((out.obs, out.obs.clone(), out.obs[:, :5]))
    for obs, copy, view in kept:
        assert torch.equal(obs, copy) and torch.equal(view, copy[:, :5])
