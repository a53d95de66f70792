"""Batched Split the Hoard (card_envs.batch.split_the_hoard.engine) against the reference engine.

Positions come from uniformly random play of the reference, every decision of 20 games per
configuration (all 16 decisions and every waiting stage of every effect occur in them); each is
loaded into the batched engine, which must give back the same snapshot, mask, observations of
every seat and state vector, bit for bit. Then both engines play the same random games side by
side: CARD_ENVS_BATCH_GAMES / 50 games per configuration (20 by default);
`benchmarks/batch_differential.py --env split_the_hoard_v0` runs 10,000
per configuration."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
import torch

from card_envs import batch
from card_envs.core.registry import make_game
from card_envs.games.split_the_hoard.effects import DECISION_NAMES, OVER
from tests.conftest import assert_illegal_actions_refused

pytestmark = pytest.mark.skipif(not batch.has_numba(), reason="numba not installed")

GAMES = max(4, int(os.environ.get("CARD_ENVS_BATCH_GAMES", 1000)) // 50)
POSITION_GAMES = 20  # enough for every decision to occur (test_positions_cover_every_decision)
CONFIGS = [{"num_players": 2}, {}, {"num_players": 3, "class_powers": "tiebreak_only"}, {"num_players": 4},
           {"num_players": 5, "reward": "score"}]


def positions(config: dict, games: int, seed: int = 0) -> list:
    """Every position (the terminal ones included) of `games` random reference games."""
    game = make_game("split_the_hoard_v0", **config)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        state = game.new_state(rng)
        while True:
            out.append(state.clone())
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(len(legal))]))
    return out


def engine(config: dict, states: list):
    from card_envs.batch.split_the_hoard.engine import SplitTheHoardBatch

    env = SplitTheHoardBatch(len(states), **config)
    return env, env.load(states)


def engine_with_finished_games(config: dict, states: list):
    """`engine`, for positions that include finished games: `load` refuses those (it takes only
    positions where a seat is to act), so they go in through `_load_positions`, the loader it
    calls after its checks, to compare finished positions with the reference too."""
    from card_envs.batch.split_the_hoard.engine import SplitTheHoardBatch

    env = SplitTheHoardBatch(len(states), **config)
    return env, env._load_positions(states, env._rows)


def first_difference(got: np.ndarray, want: np.ndarray, states: list, layout=None) -> str:
    rows = np.flatnonzero((got != want).reshape(len(got), -1).any(1))
    if not rows.size:
        return ""
    i = int(rows[0])
    where = np.flatnonzero(got[i] != want[i])
    if layout is not None:
        where = [k for k, sl in layout.slices.items() if any(sl.start <= j < sl.stop for j in where)]
    return f"{rows.size} positions differ; the first, {i}, at {where}: {states[i].to_json()}"


@pytest.fixture(scope="module", params=CONFIGS, ids=str)
def loaded(request):
    states = positions(request.param, POSITION_GAMES)
    env, out = engine_with_finished_games(request.param, states)
    return request.param, states, env, out


def test_positions_cover_every_decision(loaded):
    config, states, _, _ = loaded
    seen = {s.decision for s in states}
    want = set(range(len(DECISION_NAMES)))
    if config.get("class_powers") == "tiebreak_only":
        want.discard(DECISION_NAMES.index("scry"))  # the Wizard's power
    assert seen >= want, f"never asked: {[DECISION_NAMES[d] for d in want - seen]}"
    assert sum(s.decision == OVER for s in states) == POSITION_GAMES


def test_load_then_state_is_the_same_position(loaded):
    _, states, env, _ = loaded
    for i, s in enumerate(states):
        assert env.to_json(i) == s.to_json(), f"position {i}"
    for i in range(0, len(states), 97):  # through the reference snapshot loader too
        assert env.state(i).to_json() == states[i].to_json()


def test_acting_seat_and_mask(loaded):
    _, states, env, out = loaded
    assert out.seat.tolist() == [s.current_player for s in states]
    want = np.stack([s.legal_mask() for s in states]).astype(bool)
    assert not first_difference(out.mask.numpy(), want, states)
    assert env._terminal().tolist() == [s.is_terminal() for s in states]


def test_observation_of_every_seat(loaded):
    config, states, env, out = loaded
    layout = states[0].game.observation_layout
    want = np.stack([s.observation(s.current_player) for s in states])
    assert out.obs.dtype == torch.float32
    assert not first_difference(out.obs.numpy(), want, states, layout)
    every = env.all_seat_observations().numpy()
    for seat in range(states[0].game.num_players):
        want = np.stack([s.observation(seat) for s in states])
        assert not first_difference(every[:, seat], want, states, layout), f"seat {seat}"


def test_state_vector(loaded):
    _, states, env, _ = loaded
    want = np.stack([s.state_tensor() for s in states])
    assert not first_difference(env.state_tensors().numpy(), want, states, states[0].game.state_layout)


def test_load_refuses_another_configuration():
    states = positions({"num_players": 2}, 1)[:3]
    env, _ = engine({"num_players": 2}, states)
    other = positions({"num_players": 2, "class_powers": "tiebreak_only"}, 1)[:3]
    with pytest.raises(ValueError, match="load: state 0 is of"):
        env.load(other)


def test_the_engine_runs_on_the_cpu_only():
    from card_envs.batch.split_the_hoard.engine import SplitTheHoardBatch

    with pytest.raises(ValueError, match="runs on the CPU"):
        SplitTheHoardBatch(2, device="meta")


def play_side_by_side(config: dict, games: int, batch: int, seed: int) -> int:
    """Play `games` games (at least) in both engines from reference deals loaded into the batched
    one, the same uniformly random legal actions in both; at every decision the snapshots, acting
    seats, masks and observations must be identical, and a game must end in both at once with the
    same returns and length. A game that ends is redealt by the batched engine and played on from
    `state(i)`. Returns the number of decisions compared."""
    from card_envs.batch.split_the_hoard.engine import SplitTheHoardBatch

    game = make_game("split_the_hoard_v0", **config)
    rng = np.random.default_rng(seed)
    states = [game.new_state(rng) for _ in range(batch)]
    env = SplitTheHoardBatch(batch, seed=seed, **config)
    out = env.load(states)
    asked = np.zeros(batch, dtype=np.int64)
    finished = decisions = 0
    while finished < games:
        for i, s in enumerate(states):
            assert env.to_json(i) == s.to_json(), f"game {i} after {asked[i]} decisions"
        assert out.seat.tolist() == [s.current_player for s in states]
        masks = np.stack([s.legal_mask() for s in states]).astype(bool)
        assert not first_difference(out.mask.numpy(), masks, states)
        want = np.stack([s.observation(s.current_player) for s in states])
        assert not first_difference(out.obs.numpy(), want, states, game.observation_layout)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
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


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_same_games_as_the_reference(config):
    assert play_side_by_side(config, games=GAMES, batch=16, seed=7) > 0


@pytest.mark.parametrize("config", [{"num_players": 2}, {"num_players": 5, "class_powers": "tiebreak_only"}], ids=str)
def test_differential_check_with_forced_decisions_played(config):
    """`card_envs.batch.check.differential` (the registered engine), single-choice decisions
    played unasked in both."""
    from card_envs.batch.check import differential

    counts = differential("split_the_hoard_v0", config, games=GAMES, batch=16, seed=3, auto_forced=True)
    assert counts["games"] >= GAMES


def test_deals_are_reference_positions_from_the_seed():
    """Every batched deal is a position the reference loader accepts; one seed, one set of deals;
    every seat gets every class, and every seat is first player, in some deal (shuffled, not fixed)."""
    from card_envs.batch.split_the_hoard.engine import SplitTheHoardBatch

    env, again = SplitTheHoardBatch(300, seed=5), SplitTheHoardBatch(300, seed=5)
    deals = [env.state(i).to_json() for i in range(300)]
    assert deals == [again.to_json(i) for i in range(300)]
    assert deals != [SplitTheHoardBatch(300, seed=6).to_json(i) for i in range(300)]
    classes = {(p, d["classes"][p]) for d in deals for p in range(3)}
    assert len(classes) == 3 * 5
    assert {d["dragon"] for d in deals} == {0, 1, 2}
    assert len({tuple(d["hidden_titles"]) for d in deals}) > 250


def test_same_games_with_another_cards_file(tmp_path):
    """The card list is data for the batched engine too: more than 127 cards, a FLIP_COIN of 3,
    a DISCOUNT with a floor, a second Deal-like card, another class power."""
    from card_envs.games.split_the_hoard.cards import DEFAULT_CARDS

    data = json.loads(DEFAULT_CARDS.read_text())
    rows = {row["name"]: row for row in data["hoard"]}
    rows["Emerald"]["copies"] = rows["Ruby"]["copies"] = 20
    rows["Ancient Scroll"]["effect"] = ["FLIP_COIN", 3]
    rows["Bribe"]["effect"] = ["DISCOUNT", 3, 1]
    data["hoard"].append({"name": "Golden Goose", "copies": 4, "rank": None, "modifier": False, "vp": 1,
                          "condition": None, "phase": "reaction", "effect": ["GAIN", 2], "trigger": "enter_haul"})
    data["classes"][0]["effect"] = ["DRAW_TREASURE", 1]
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data))
    config = {"num_players": 4, "cards": str(path)}
    assert make_game("split_the_hoard_v0", **config).cards.num_cards > 127
    assert play_side_by_side(config, games=max(4, GAMES // 2), batch=8, seed=9) > 0


def hauls(game, count: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """(tcount int8[count, n, names], coins int16[count, n]): half random Hauls of up to 24
    Treasures, half built to stress Warlord's run search (many modifiers of every value beside
    clustered fixed ranks), with Coin counts about the hidden Titles' thresholds."""
    cs, n = game.cards, game.num_players
    copies = np.bincount(np.array(cs.NAME), minlength=cs.num_names)
    mods = [i for i in range(cs.num_names) if cs.is_mod[i]]
    fixed = [i for i in range(cs.num_names) if cs.fixed[i]]
    tcount = np.zeros((count, n, cs.num_names), np.int8)
    for b in range(count):
        for p in range(n):
            if b % 2 == 0:
                cards = rng.choice(cs.num_cards, size=rng.integers(0, 25), replace=False)
                np.add.at(tcount[b, p], np.array(cs.NAME)[cards], 1)
                continue
            for i in mods:
                tcount[b, p, i] = rng.integers(0, copies[i] + 1)
            for i in rng.choice(fixed, size=rng.integers(0, 10), replace=False):
                tcount[b, p, i] = rng.integers(1, copies[i] + 1)
    coins = rng.integers(0, 15, (count, n)).astype(np.int16)
    return tcount, coins


@pytest.mark.parametrize("config", [{"num_players": 2}, {"num_players": 3}, {"num_players": 5, "reward": "score"}],
                         ids=str)
def test_returns_kernel_scores_as_the_reference(config):
    """The returns kernel (Starting Titles with Warlord's exact run search, hidden Titles,
    Treasure VP, ranking) against `scoring.score_game` and `SplitTheHoardState.returns`."""
    from card_envs.batch.split_the_hoard.scoring import longest_run, returns, score_tables
    from card_envs.core.rewards import rank_returns, score_returns
    from card_envs.games.split_the_hoard import scoring

    game, rng = make_game("split_the_hoard_v0", **config), np.random.default_rng(3)
    cs, n, count, tables = game.cards, game.num_players, 120, score_tables(game)
    tcount, coins = hauls(game, count, rng)
    classes = np.array([rng.permutation(len(cs.classes))[:n] for _ in range(count)], np.int8)
    titles = np.array([rng.permutation(len(cs.hidden))[:n] for _ in range(count)], np.int8)
    classes[::3] = classes[::3, :1]  # ties of Starting Titles among seats of one class too
    got = np.empty((count, n), np.float32)
    returns(tcount, coins, classes, titles, tables, np.arange(count), got)
    runs = []
    for b in range(count):
        board = scoring.score_game(tcount[b].tolist(), coins[b].tolist(), classes[b].tolist(), titles[b].tolist(),
                                   cs, game.starting_title_vp)
        want = (score_returns([x["total"] for x in board], game.max_score) if game.reward == "score"
                else rank_returns([x["total"] * 1000 + x["coins"] for x in board]))
        assert got[b].tolist() == want.astype(np.float32).tolist(), (b, board)
        for p in range(n):
            runs.append(scoring.longest_run(tcount[b, p].tolist(), cs))
            assert longest_run(tcount[b, p].astype(np.int64), tables) == runs[-1], tcount[b, p].tolist()
    assert max(runs) >= 6 and len(set(runs)) >= 5  # the search had real work


def test_make_gives_the_numba_engine_and_refuses_what_it_cannot_run(monkeypatch):
    from card_envs.batch.split_the_hoard.engine import SplitTheHoardBatch
    from card_envs.core.game import ArgumentError

    env = batch.make("split_the_hoard_v0", 4, seed=1, num_players=4)
    assert type(env) is SplitTheHoardBatch and env.num_players == 4 and env.observe().obs.shape[0] == 4
    for bad in ({"backend": "torch"}, {"device": "meta"}, {"device": "meta", "backend": "numba"}):
        with pytest.raises(ValueError, match="split_the_hoard_v0's batched engine has the numba backend only"):
            batch.make("split_the_hoard_v0", 4, **bad)
    with pytest.raises(ArgumentError, match="unexpected keyword argument 'bogus'"):
        batch.make("split_the_hoard_v0", 4, bogus=1)  # the reference's error (a TypeError too)
    monkeypatch.setattr(batch, "has_numba", lambda: False)
    with pytest.raises(ImportError, match=r"needs numba .*\.\[batch\]"):
        batch.make("split_the_hoard_v0", 4)


@pytest.mark.parametrize("auto_forced", [False, True])
def test_an_illegal_action_is_refused_and_changes_nothing(auto_forced):
    """The kernels do not check bounds (an illegal action would write into other games), so
    `step` checks each action against the mask it returned; a caller's edits to that tensor do
    not loosen the check."""
    env = batch.make("split_the_hoard_v0", 8, seed=3, auto_forced=auto_forced)
    assert_illegal_actions_refused(env)


def test_observations_kept_by_the_caller_are_never_written_again():
    """A step's observations go into an array the engine returned before only when nothing
    holds it any more (the pool of `_step_observations`), and games dealt during a step get
    their own mask and observation (the fused step's `refresh`)."""
    env = batch.make("split_the_hoard_v0", 8, seed=2)
    out, kept, done = env.observe(), [], 0
    for k in range(400):
        out = env.step(out.mask.to(torch.uint8).argmax(1))
        done += int(out.done.sum())
        if k % 2:
            kept.append((out.obs, out.obs.clone(), out.obs[:, :5]))
    assert done > 0
    for obs, copy, view in kept:
        assert torch.equal(obs, copy) and torch.equal(view, copy[:, :5])
    assert torch.equal(out.obs, env._observe(env.cur)) and torch.equal(out.mask, env._mask())
