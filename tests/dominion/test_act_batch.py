"""The compiled `act_batch` of Dominion's scripted agents (agents/dominion/batch.py) against their
`act`, decision by decision: on positions of games of every kingdom preset and random kingdoms
with 2, 3 and 4 players, played by a mix of the bots and random moves, and on positions made from
them for every decision kind (those that play reaches rarely or never, and rules that have no
answer, where both must raise). CARD_ENVS_AGENT_STEPS sets the steps played per configuration (100
by default, to keep the suite fast; 1,000 for a full run)."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

import card_envs.agents.dominion.batch as dominion_batch
import card_envs
from card_envs.agents import make_policy
from card_envs.games.dominion.cards import CARD_ID, NUM_CARDS, PILE_ID, PRESETS
from card_envs.games.dominion.effects import CARD0, DECISIONS, NUM_ACTIONS, OPTION0, PILE0
from card_envs.vector import VectorGames

STEPS = int(os.environ.get("CARD_ENVS_AGENT_STEPS", 100))
GAMES = 24  # games played together per configuration
BOTS = ("heuristic", "bmu", "smithy_bm", "big_smithy", "witch_bm", "catapult_bm", "townsfolk_bm")
CONFIGS = [(n, kingdom) for n in (2, 3, 4) for kingdom in (*PRESETS, "random")]
# Kinds that these games reach too rarely to count on (each is made below from real positions).
RARE = {"bustling", "avanto_sauna", "small_castle", "haunted", "opulent", "sprawling", "acolyte", "acolyte_self",
        "sorceress", "sibyl_top", "sibyl_bottom", "archer_hide", "archer_pick", "sunken_treasure", "conjurer",
        "sorcerer", "lich", "elder", "mountain_folk", "hill_fort"}


def played_positions(num_players: int, kingdom: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and int8 masks of every decision (forced ones too) of games in which each
    decision is a random move a quarter of the time, else a bot's (a different bot per game)."""
    game = card_envs.make_game("dominion_v0", num_players=num_players, kingdom=kingdom)
    players = [make_policy(BOTS[i % len(BOTS)], game) for i in range(GAMES)]
    vector, rng = VectorGames(game, GAMES, seed=seed, auto_forced=False), np.random.default_rng(seed)
    observations, masks = [], []
    for _ in range(STEPS):
        observation, mask, _ = vector.observe()
        observations.append(observation.copy())
        masks.append(mask.astype(np.int8))
        actions = [player.act(o, m, rng) if rng.random() < 3 / 4 else rng.choice(np.flatnonzero(m))
                   for player, o, m in zip(players, observation, mask)]
        vector.step(actions)
    return np.concatenate(observations), np.concatenate(masks)


@pytest.fixture(scope="module")
def positions() -> dict:
    return {config: played_positions(*config, seed=k) for k, config in enumerate(CONFIGS)}


def kinds_of(game, observations: np.ndarray) -> set[str]:
    start = game.observation_layout.slices["decision"].start
    return {DECISIONS[k] for k in observations[:, start:start + len(DECISIONS)].argmax(axis=1)}


def made_positions(game, observations: np.ndarray, rng: np.random.Generator, per_kind: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """``per_kind`` positions of every decision kind: real observations with the pending decision,
    the card asking it and the legal actions redrawn (cards of the hand or any cards, piles of the
    Supply, the options, done), sometimes none of a kind, so that every branch of every rule is
    taken, ties included."""
    layout = game.observation_layout.slices
    decision, card, hand, supply_in = (layout[k].start for k in ("decision", "decision_card", "hand", "supply_in"))
    rows = observations[rng.integers(len(observations), size=per_kind * len(DECISIONS))].copy()
    masks = np.zeros((len(rows), NUM_ACTIONS), np.int8)
    modal = [CARD_ID[c] for c in ("Town Crier", "Blacksmith", "Hill Fort", "Stronghold", "Tent")]
    for i, row in enumerate(rows):
        row[decision:decision + len(DECISIONS)] = 0
        row[decision + i // per_kind] = 1
        row[card:card + NUM_CARDS] = 0
        row[card + (modal[i % 5] if i % 7 else rng.integers(NUM_CARDS))] = 1
        held = np.flatnonzero(row[hand:hand + NUM_CARDS]) if i % 2 else np.arange(NUM_CARDS)  # or any: ties
        masks[i, CARD0 + held[rng.random(held.size) < rng.choice([0.0, 0.2, 1.0])]] = 1
        piles = np.flatnonzero(row[supply_in:supply_in + len(PILE_ID)])
        masks[i, PILE0 + piles[rng.random(piles.size) < rng.choice([0.0, 0.3, 1.0])]] = 1
        masks[i, OPTION0:][rng.random(NUM_ACTIONS - OPTION0) < 0.5] = 1
        masks[i, :2] = rng.random(2) < 0.5
        if not masks[i].any():
            masks[i, 0] = 1
    return rows, masks


def assert_same_decisions(bot, observations: np.ndarray, masks: np.ndarray, rng) -> tuple[int, int]:
    """act_batch on all rows where `act` answers equals `act`; where `act` raises, act_batch on
    that row raises the same error. The numbers of rows `act` answered and refused."""
    expected, failing = np.full(len(masks), -1), []
    for i, (o, m) in enumerate(zip(observations, masks)):
        try:
            expected[i] = bot.act(o, m, rng)
        except (ValueError, KeyError) as error:
            failing.append((i, error))
    answered = np.flatnonzero(expected >= 0)
    batch = bot.act_batch(observations[answered], masks[answered], rng)
    differ = batch != expected[answered]
    assert not differ.any(), \
        f"{bot.name}: rows {answered[differ][:10]}: act {expected[answered][differ][:10]}, batch {batch[differ][:10]}"
    for i, error in failing[:20]:
        with pytest.raises(type(error), match=re.escape(str(error).strip("'"))):
            bot.act_batch(observations[i:i + 1], masks[i:i + 1], rng)
    return len(answered), len(failing)


@pytest.mark.parametrize("name", BOTS)
def test_act_batch_decides_as_act_in_played_games(positions, name):
    assert dominion_batch._decide_batch is not None, "numba is in the test extra"
    rng, total, seen = np.random.default_rng(0), 0, set()
    for (num_players, kingdom), (observations, masks) in positions.items():
        game = card_envs.make_game("dominion_v0", num_players=num_players, kingdom=kingdom)
        answered, refused = assert_same_decisions(make_policy(name, game), observations, masks, rng)
        assert not refused
        total += answered
        seen |= kinds_of(game, observations)
    assert total >= 20_000
    assert set(DECISIONS) - seen <= RARE, sorted(set(DECISIONS) - seen - RARE)


@pytest.mark.parametrize("name", BOTS)
def test_act_batch_decides_as_act_on_every_decision_kind(positions, name):
    """Made positions: every kind of DECISIONS, with a few hundred rows each per player count."""
    rng = np.random.default_rng(1)
    for num_players in (2, 3, 4):
        game = card_envs.make_game("dominion_v0", num_players=num_players, kingdom="T3")
        observations = np.concatenate([o for (n, _), (o, _) in positions.items() if n == num_players])
        made, masks = made_positions(game, observations, rng, per_kind=40)
        assert kinds_of(game, made) == set(DECISIONS)
        answered, refused = assert_same_decisions(make_policy(name, game), made, masks, rng)
        assert answered > 0.8 * len(made) and refused  # both paths taken


def test_heuristic_picks_its_bot_per_row_in_a_mixed_batch(positions):
    """Rows of different kingdoms in one batch: each row decided by the bot of its own Supply."""
    rng = np.random.default_rng(2)
    observations = np.concatenate([o for (n, _), (o, _) in positions.items() if n == 2])
    masks = np.concatenate([m for (n, _), (_, m) in positions.items() if n == 2])
    order = rng.permutation(len(masks))
    heuristic = make_policy("heuristic", card_envs.make_game("dominion_v0"))
    expected = [heuristic.act(o, m, rng) for o, m in zip(observations[order], masks[order])]
    assert (heuristic.act_batch(observations[order], masks[order], rng) == expected).all()
    picks = heuristic._table_rows(observations)
    assert len(set(picks.tolist())) >= 4  # Witch-BM, Smithy-BM, Townsfolk-BM, Big Money... all play


def test_without_numba_act_runs_per_row_and_bad_masks_are_refused(positions, monkeypatch):
    observations, masks = positions[(3, "T3")]
    bot = make_policy("townsfolk_bm", card_envs.make_game("dominion_v0", num_players=3, kingdom="T3"))
    rng = np.random.default_rng(3)
    compiled = bot.act_batch(observations[:300], masks[:300], rng)
    monkeypatch.setattr(dominion_batch, "_decide_batch", None)
    fallback = bot.act_batch(observations[:300], masks[:300], rng)
    assert fallback.dtype == compiled.dtype == np.int64 and (fallback == compiled).all()
    monkeypatch.undo()
    empty = masks[:3].copy()
    empty[1] = 0
    with pytest.raises(ValueError, match="an action_mask row has no legal action"):
        bot.act_batch(observations[:3], empty, rng)
    with pytest.raises(ValueError, match=r"takes observations \[rows, 2388\] and action masks \[rows, 103\] of this "
                                         r"game, not \(3, 1863\) and \(3, 103\)"):
        bot.act_batch(observations[:3, :1863], masks[:3], rng)  # another player count's width
    with pytest.raises(ValueError, match=r"not \(3, 2388\) and \(2, 103\)"):
        bot.act_batch(observations[:3], masks[:2], rng)


def test_a_subclass_with_its_own_rules_is_played_by_its_act(positions):
    """A bot whose priorities have no compiled table (a benchmark's challenger) keeps its own rules."""
    from card_envs.agents.dominion.bots import SmithyBM

    class SilverOnly(SmithyBM):
        def priorities(self, f):
            return ["Silver"]

    observations, masks = positions[(2, "T1-A")]
    bot = SilverOnly(card_envs.make_game("dominion_v0"))
    rng = np.random.default_rng(4)
    expected = [bot.act(o, m, rng) for o, m in zip(observations, masks)]
    assert (bot.act_batch(observations, masks, rng) == expected).all()
