"""The compiled `act_batch` of Split the Hoard's scripted agent (agents/split_the_hoard/batch.py)
against its `act`, decision by decision: on positions of games with 2-5 players (and
``class_powers="tiebreak_only"``, another cards file, other parameters) played by random moves and
by the agent itself (whole games: the later, richer positions too), and on positions made from
them for every decision kind and reaction role, with ties and positions where `act` raises.
CARD_ENVS_AGENT_STEPS sets the positions recorded per game and configuration (40 by default, to
keep the suite fast; 700 gives 11,200 positions per configuration and kind of play)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import card_envs.agents.split_the_hoard.batch as compiled
import card_envs
from card_envs.agents.split_the_hoard.heuristic import SplitTheHoardHeuristic
from card_envs.games.split_the_hoard.cards import DEFAULT_CARDS
from card_envs.games.split_the_hoard.effects import (
    BUY_SLOT, COMMIT_CARD, COMMIT_COINS, DEAL, DECISION_NAMES, EXTRA_COIN, FLIP, GIVE, NUM_DECISIONS, ORDER, PICK,
    PRIMITIVES, PRIORITY, REACT, RECOVER, SCRY, TAKE, TARGET, TURN)
from card_envs.vector import VectorGames

STEPS = int(os.environ.get("CARD_ENVS_AGENT_STEPS", 40))
GAMES = 16  # games played together per configuration
STRIDE = 4  # every 4th step recorded: 40 steps reach the end of the first games (about 130-150 decisions)
CONFIGS = [{"num_players": 2}, {"num_players": 3}, {"num_players": 4}, {"num_players": 5},
           {"num_players": 3, "class_powers": "tiebreak_only"}]
PARAMETERS = {"coin_value": 0.8, "denial": 0.0, "ability_margin": 0.0, "max_protect": 6, "protect_share": 0.6,
              "temperature": 0.5}


def other_cards(tmp_path_factory) -> str:
    """A cards file unlike the default (tests/split_the_hoard/test_batch.py's): more cards, a
    FLIP_COIN of 3, a DISCOUNT with a floor, a second Deal-like card, another class power, and a
    positive and a negative modifier of the same size (`_run_from` tries them in a set's order)."""
    data = json.loads(DEFAULT_CARDS.read_text())
    rows = {row["name"]: row for row in data["hoard"]}
    rows["Emerald"]["copies"] = rows["Ruby"]["copies"] = 20
    rows["Ancient Scroll"]["effect"] = ["FLIP_COIN", 3]
    rows["Bribe"]["effect"] = ["DISCOUNT", 3, 1]
    rows["Rune Stone"]["rank"] = 2
    rows["Blessing"]["rank"] = -1
    data["hoard"].append({"name": "Golden Goose", "copies": 4, "rank": None, "modifier": False, "vp": 1,
                          "condition": None, "phase": "reaction", "effect": ["GAIN", 2], "trigger": "enter_haul"})
    data["classes"][0]["effect"] = ["DRAW_TREASURE", 1]
    path = tmp_path_factory.mktemp("cards") / "cards.json"
    path.write_text(json.dumps(data))
    return str(path)


def played(game, agent, seed: int, by_agent: bool) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of the decisions of GAMES games at STEPS steps, one in STRIDE
    played: by random moves, or by the agent (compiled, to reach late positions cheaply; `act`
    checks every recorded one)."""
    vector, rng = VectorGames(game, GAMES, seed=seed, auto_forced=False), np.random.default_rng(seed)
    observations, masks = [], []
    for step in range(STEPS * STRIDE):
        observation, mask, _ = vector.observe()
        if step % STRIDE == STRIDE - 1:
            observations.append(observation.copy())
            masks.append(mask.astype(np.int8))
        if by_agent:
            actions = agent.act_batch(observation, mask, rng)
        else:
            actions = [rng.choice(np.flatnonzero(m)) for m in mask]
        vector.step(actions)
    return np.concatenate(observations), np.concatenate(masks)


def expected(agent, observations, masks) -> tuple[np.ndarray, list]:
    """`act` on every row (-1 where it raises) and the rows where it raised, with the error."""
    rng, out, failing = np.random.default_rng(0), np.full(len(masks), -1), []
    for i, (o, m) in enumerate(zip(observations, masks)):
        try:
            out[i] = agent.act(o, m, rng)
        except (ValueError, TypeError, IndexError, StopIteration) as error:
            failing.append((i, error))
    return out, failing


def assert_same_decisions(agent, observations, masks) -> tuple[int, int]:
    """act_batch equals `act` on every row where `act` answers; where `act` raises, act_batch on
    that row raises the same error. The numbers of rows answered and refused."""
    want, failing = expected(agent, observations, masks)
    answered = np.setdiff1d(np.arange(len(masks)), [i for i, _ in failing])
    got = agent.act_batch(observations[answered], masks[answered], np.random.default_rng(1))
    differ = got != want[answered]
    assert got.dtype == np.int64 and not differ.any(), (
        f"{differ.sum()} of {len(answered)} rows differ: rows {answered[differ][:10]}, "
        f"act {want[answered][differ][:10]}, act_batch {got[differ][:10]}")
    for i, error in failing[:20]:
        with pytest.raises(type(error)):
            agent.act_batch(observations[i:i + 1], masks[i:i + 1], np.random.default_rng(1))
    return len(answered), len(failing)


def decisions_of(game, observations) -> set[int]:
    start = game.observation_layout.slices["decision"].start
    return set(observations[:, start:start + NUM_DECISIONS].argmax(axis=1).tolist())


@pytest.fixture(scope="module")
def cards_path(tmp_path_factory) -> str:
    return other_cards(tmp_path_factory)


def test_numba_is_there():
    assert compiled._decide_batch is not None, "numba is in the test extra"


@pytest.mark.parametrize("config", CONFIGS + ["cards"], ids=str)
@pytest.mark.parametrize("by_agent", [False, True], ids=["random_play", "agent_play"])
def test_act_batch_decides_as_act_in_played_games(config, by_agent, cards_path):
    config = {"num_players": 4, "cards": cards_path} if config == "cards" else config
    game = card_envs.make_game("split_the_hoard_v0", **config)
    agent = SplitTheHoardHeuristic(game)
    observations, masks = played(game, agent, seed=len(str(config)) + by_agent, by_agent=by_agent)
    answered, refused = assert_same_decisions(agent, observations, masks)
    assert answered == len(masks) >= GAMES * STEPS and not refused
    assert len(decisions_of(game, observations)) >= 6


def test_parameters_are_honoured():
    """Another parameter set decides as its `act` does, and differently from the defaults."""
    game = card_envs.make_game("split_the_hoard_v0", num_players=3)
    agent, default = SplitTheHoardHeuristic(game, **PARAMETERS), SplitTheHoardHeuristic(game)
    observations, masks = played(game, agent, seed=5, by_agent=True)
    assert_same_decisions(agent, observations, masks)
    rng = np.random.default_rng(2)
    assert (agent.act_batch(observations, masks, rng) != default.act_batch(observations, masks, rng)).sum() > 10


# ----- made positions: every decision kind and reaction role ---------------------------------------
def made_positions(game, observations: np.ndarray, rng: np.random.Generator, per_kind: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """``per_kind`` positions of every decision kind (REACT once per reaction role, TARGET once per
    targeting effect): real observations with the pending decision, the effect in progress, the
    seats and the legal actions redrawn as the rules would ask them, and sometimes not (any name,
    no choice, a Treasure with no effect), so that `act`'s errors are reached too."""
    cs, n, nn = game.cards, game.num_players, game.cards.num_names
    at = game.observation_layout.slices
    names_with = {kind: [x for x in range(nn) if cs.effect[x] and cs.effect[x][0] == kind] for kind in PRIMITIVES}
    roles = {role: [x for x in range(nn) if cs.effect[x] and PRIMITIVES[cs.effect[x][0]].role == role]
             for role in ("refuse", "cancel_coin", "cancel_treasure")}
    abilities = [x for x in range(nn) if cs.effect[x] and PRIMITIVES[cs.effect[x][0]].role == "effect"]
    kinds = [(d, None) for d in range(NUM_DECISIONS) if d not in (REACT, TARGET)]
    kinds += [(REACT, role) for role in roles] + [(TARGET, kind) for kind in ("STEAL", "SWAP", "TAKE_COINS")]
    rows = observations[rng.integers(len(observations), size=per_kind * len(kinds))].copy()
    masks = np.zeros((len(rows), game.num_actions), np.int8)

    def one_hot(row, piece: str, index: int, offset: int = 0, size: int = 0) -> None:
        start = at[piece].start + offset
        row[start:start + (size or at[piece].stop - at[piece].start)] = 0
        if index >= 0:
            row[start + index] = 1

    for i, row in enumerate(rows):
        decision, what = kinds[i // per_kind]
        odd = rng.random() < 0.1  # an arbitrary choice: any names, maybe none with an effect
        one_hot(row, "decision", decision)
        target = int(rng.integers(1, n))
        one_hot(row, "effect_seats", int(rng.integers(n)), 0, n)
        one_hot(row, "effect_seats", target, n, n)
        one_hot(row, "effect_card", -1)
        one_hot(row, "effect_give", -1)
        one_hot(row, "effect_take", int(rng.integers(nn)))
        one_hot(row, "effect_slot", int(rng.integers(3)))
        if rng.random() < 0.3:  # the agent's own class, so that each class power is asked
            one_hot(row, "classes", int(rng.integers(len(cs.classes))), 0, len(cs.classes))
        names = np.arange(nn) if odd else None
        mask = masks[i]
        if decision in (COMMIT_CARD, EXTRA_COIN, SCRY, RECOVER, PICK, ORDER, FLIP):
            mask[rng.choice(nn, size=int(rng.integers(0 if odd else 1, 6)), replace=False)] = 1
            mask[game.DONE] = decision == FLIP
        elif decision == COMMIT_COINS:
            mask[game.SLOT0:game.SLOT0 + 3] = rng.random(3) < 0.7
            mask[game.DONE] = 1
        elif decision == TURN:
            pool = names if odd else [x for x in abilities if PRIMITIVES[cs.effect[x][0]].role == "effect"]
            mask[rng.choice(pool, size=int(rng.integers(0, 4)), replace=False)] = 1
            mask[game.TARGET0:game.TARGET0 + n - 1] = rng.random(n - 1) < 0.7
            mask[game.DRAW2] = rng.random() < 0.9
            mask[game.POWER] = rng.random() < 0.5
        elif decision == BUY_SLOT:
            mask[game.SLOT0:game.SLOT0 + 3] = rng.random(3) < 0.6
        elif decision == PRIORITY:
            mask[rng.choice(names if odd else abilities, size=int(rng.integers(0, 4)), replace=False)] = 1
            mask[game.POWER] = rng.random() < 0.5
            mask[game.DONE] = 1
        elif decision == DEAL:
            one_hot(row, "effect_card", int(rng.choice(names if odd else abilities)))
            mask[[game.YES, game.DONE]] = 1
        elif decision == REACT:
            mask[rng.choice(names if odd else roles[what], size=int(rng.integers(1, 3)))] = 1
            mask[game.POWER] = rng.random() < 0.2
            mask[game.DONE] = 1
            taking = {"refuse": [], "cancel_coin": names_with["TAKE_COINS"] + names_with["TAKE_EACH"],
                      "cancel_treasure": names_with["STEAL"] + names_with["SWAP"]}[what]
            if taking and rng.random() < 0.7:
                one_hot(row, "effect_card", int(rng.choice(taking)))
            if what == "refuse":
                one_hot(row, "effect_card", int(rng.integers(nn)))
            if what == "cancel_treasure" and rng.random() < 0.5:
                one_hot(row, "effect_give", int(rng.integers(nn)))
        elif decision == TARGET:
            one_hot(row, "effect_card", int(rng.choice(names_with[what])) if rng.random() < 0.8 else -1)
            mask[game.TARGET0:game.TARGET0 + n - 1] = rng.random(n - 1) < 0.8
            mask[game.DONE] = rng.random() < 0.5
        elif decision in (TAKE, GIVE):
            one_hot(row, "effect_card", int(rng.choice(names_with["STEAL"] + names_with["SWAP"])))
            mask[rng.choice(nn, size=3)] = 1
        if not mask.any():
            mask[game.DONE] = 1
    return rows, masks


@pytest.mark.parametrize("config", [{"num_players": 3}, {"num_players": 5}, "tiebreak", "cards"], ids=str)
def test_act_batch_decides_as_act_on_every_decision_kind(config, cards_path):
    config = {"cards": cards_path} if config == "cards" else {"class_powers": "tiebreak_only"} \
        if config == "tiebreak" else config
    game = card_envs.make_game("split_the_hoard_v0", **config)
    agent = SplitTheHoardHeuristic(game)
    observations, _ = played(game, agent, seed=3, by_agent=False)
    rng = np.random.default_rng(4)
    made, masks = made_positions(game, observations, rng, per_kind=30)
    assert decisions_of(game, made) == set(range(NUM_DECISIONS)), [DECISION_NAMES[d] for d in range(NUM_DECISIONS)]
    answered, refused = assert_same_decisions(agent, made, masks)
    assert answered > 0.8 * len(made) and refused  # both paths taken


def test_without_numba_act_runs_per_row_and_bad_input_is_refused(monkeypatch):
    game = card_envs.make_game("split_the_hoard_v0", num_players=3)
    agent = SplitTheHoardHeuristic(game)
    observations, masks = played(game, agent, seed=6, by_agent=False)
    rng = np.random.default_rng(3)
    fast = agent.act_batch(observations[:200], masks[:200], rng)
    monkeypatch.setattr(compiled, "_decide_batch", None)
    slow = agent.act_batch(observations[:200], masks[:200], rng)
    assert slow.dtype == fast.dtype == np.int64 and (slow == fast).all()
    monkeypatch.undo()
    empty = masks[:3].copy()
    empty[1] = 0
    with pytest.raises(ValueError, match="an action_mask row has no legal action"):
        agent.act_batch(observations[:3], empty, rng)
    width = game.observation_layout.size
    with pytest.raises(ValueError, match=rf"takes observations \[rows, {width}\] and action masks \[rows, "
                                         rf"{game.num_actions}\] of this game, not \(3, 100\)"):
        agent.act_batch(observations[:3, :100], masks[:3], rng)


def test_a_subclass_is_played_by_its_act():
    """An agent whose methods are overridden has no compiled twin: its own `act` plays every row."""

    class Greedy(SplitTheHoardHeuristic):
        def _turn(self, f, legal):
            return max(legal)

    game = card_envs.make_game("split_the_hoard_v0", num_players=3)
    agent = Greedy(game)
    observations, masks = played(game, SplitTheHoardHeuristic(game), seed=7, by_agent=False)
    rng = np.random.default_rng(0)
    want = [agent.act(o, m, rng) for o, m in zip(observations, masks)]
    assert (agent.act_batch(observations, masks, rng) == want).all()
