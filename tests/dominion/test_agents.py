"""Dominion's scripted bots (agents/dominion/bots.py): built by name, full legal games on every preset
kingdom from the observation alone, their buy rules visible in what they own, and the known
orderings in small deterministic matches."""

from __future__ import annotations

import numpy as np
import pytest

import card_envs
from card_envs.agents import NAMED, baseline_names, make_policy, named_bots, opponent_names
from card_envs.agents.dominion.bots import (
    BigMoneyUltimate, BigSmithy, CatapultRocksBM, DominionHeuristic, SmithyBM, TownsfolkFortsBM, WitchBM)
from card_envs.agents.match import play_game, rotated_match
from card_envs.agents.policy import Policy
from card_envs.games.dominion.cards import CARD_ID, IS_ACTION, NUM_CARDS, PILE_CARDS, PRESETS, PROVINCE

BOTS = {"heuristic": DominionHeuristic, "bmu": BigMoneyUltimate, "smithy_bm": SmithyBM, "big_smithy": BigSmithy,
        "witch_bm": WitchBM, "catapult_bm": CatapultRocksBM, "townsfolk_bm": TownsfolkFortsBM}
KINGDOMS = list(PRESETS)


def game_of(n=2, kingdom="T1-B"):
    return card_envs.make_game("dominion_v0", num_players=n, kingdom=kingdom)


# ----- names -------------------------------------------------------------------------------
def test_every_bot_is_built_by_name():
    game = game_of()
    assert named_bots(game) == ["bmu", "smithy_bm", "big_smithy", "witch_bm", "catapult_bm", "townsfolk_bm", "best_bot"]
    for spec, cls in BOTS.items():
        assert type(make_policy(spec, game)) is cls
    assert opponent_names(game) == ["random", "heuristic", *named_bots(game)]
    assert baseline_names(game) == ["random", "greedy", "heuristic", *named_bots(game), "ismcts"]
    assert set(NAMED["dominion"]) == set(BOTS) - {"heuristic"} | {"best_bot"}  # best_bot: test_best_bot.py


@pytest.mark.parametrize("spec, env_id, message", [
    ("bmu:x=1", "dominion_v0", r"policy 'bmu' takes no options"),
    ("smithy", "dominion_v0", r"unknown policy 'smithy'.*the dominion bots \['bmu', 'smithy_bm', 'big_smithy', "
                              r"'witch_bm', 'catapult_bm', 'townsfolk_bm', 'best_bot'\]"),
    ("bmu", "three_piles_v0", r"unknown policy 'bmu' for three_piles; available: \['random', 'heuristic'\] "
                              r"\(batched baselines\), 'greedy'"),
])
def test_names_refused_with_what_is_accepted(spec, env_id, message):
    with pytest.raises(ValueError, match=message):
        make_policy(spec, card_envs.make_game(env_id))


def test_training_takes_the_bots_as_opponents_and_the_help_texts_list_them():
    from card_envs.evaluate.__main__ import build_parser as evaluate_parser
    from card_envs.train.ppo import build_parser, parse_args

    args, _ = parse_args(["dominion_v0", "--opponents", "bmu", "witch_bm", "catapult_bm", "random"])
    args.validate()
    assert args.opponents == ("bmu", "witch_bm", "catapult_bm", "random")
    bad, _ = parse_args(["dominion_v0", "--opponents", "smithy"])
    with pytest.raises(ValueError, match=r"unknown opponent 'smithy'.*'bmu', 'smithy_bm'"):
        bad.validate()
    three, _ = parse_args(["three_piles_v0", "--opponents", "bmu"])
    with pytest.raises(ValueError, match="unknown opponent 'bmu'"):
        three.validate()
    for text in (" ".join(build_parser("dominion_v0").format_help().split()),
                 " ".join(evaluate_parser().format_help().split())):
        assert "dominion: bmu, smithy_bm, big_smithy, witch_bm, catapult_bm" in text


# ----- full games --------------------------------------------------------------------------
class Watched(Policy):
    """A bot that gets read-only copies of its observation and mask (writing to them raises), and
    a twin that must choose the same action from them at every decision: a fresh instance of the
    same bot (so no memory and no other input), or for the heuristic the bot it stands for."""

    def __init__(self, spec, game, twin):
        self.bot, self.twin, self.decisions = make_policy(spec, game), twin, 0

    def act(self, observation, action_mask, rng):
        observation, action_mask = observation.copy(), action_mask.copy()
        observation.flags.writeable = action_mask.flags.writeable = False
        action = self.bot.act(observation, action_mask, rng)
        assert action_mask[action] == 1
        assert self.twin.act(observation, action_mask, np.random.default_rng(self.decisions)) == action
        self.decisions += 1
        return action


def twin_of(spec, game):
    if spec != "heuristic":
        return BOTS[spec](game)
    return WitchBM(game) if "Witch" in PRESETS[game.config["kingdom"]] else SmithyBM(game)  # all hold Smithy


def actions_owned(owned):
    return {c for c in range(NUM_CARDS) if IS_ACTION[c] and owned[c]}


# The Action cards each bot may own, and must own where its pile is in the Supply.
C = CARD_ID
MAY_OWN = {"bmu": set(), "smithy_bm": {C["Smithy"]}, "big_smithy": {C["Smithy"]}, "witch_bm": {C["Witch"]},
           "catapult_bm": {C["Catapult"]},
           "townsfolk_bm": {C[x] for x in ("Blacksmith", "Elder", "Miller", "Garrison", "Hill Fort", "Stronghold",
                                                  "Town Crier", "Tent")}}
# Bots that must own at least one of their cards (not all of them) where their piles are in the Supply.
ANY_OF = {"townsfolk_bm"}


@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("kingdom", KINGDOMS)
@pytest.mark.parametrize("spec", list(BOTS))
def test_bot_plays_full_legal_games_from_its_observation(spec, kingdom, n):
    """Seats: the bot, random, the bot, heuristic (2 players: the bot and random). The env
    raises on an illegal action; the game must end by the rules, not by the turn cap."""
    env = card_envs.make("dominion_v0", num_players=n, kingdom=kingdom, illegal_action="raise")
    game = env.unwrapped.game
    bot = Watched(spec, game, twin_of(spec, game))
    others = [make_policy("random", game), make_policy("heuristic", game)]
    seats = [bot, others[0], bot, others[1]][:n]
    rewards, scores = play_game(env, seats, seed=11 + n)
    state = env.unwrapped._state
    assert state.is_terminal() and len(scores) == n and bot.decisions > 20
    assert max(state.turns) < game.max_turns  # ended by Provinces or three piles
    kinds = MAY_OWN[spec if spec != "heuristic" else type(bot.twin).name]
    present = {c for p in state.supply for c in PILE_CARDS[p]}
    for seat in range(0, n, 2):  # the bot's seats
        owned = state.owned[seat]
        assert actions_owned(owned) <= kinds, (seat, actions_owned(owned))
        if spec in ANY_OF:
            assert not kinds & present or any(owned[c] for c in kinds & present), (seat, kinds & present)
        else:
            assert all(owned[c] for c in kinds & present), (seat, kinds & present)
    assert sum(state.owned[s][PROVINCE] for s in range(0, n, 2)) >= 1
    if n == 2:  # against random alone
        assert rewards["player_0"] == 1.0 and scores[0] > scores[1]


# ----- orderings ---------------------------------------------------------------------------
def test_big_money_ultimate_beats_random_and_smithy_bm_beats_it():
    game = game_of(2, "T1-B")
    vs_random = rotated_match(game, [make_policy("bmu", game), make_policy("random", game)], 15, seed=3)[:, 0]
    assert (vs_random > 0).sum() >= 29  # 30 games
    smithy = rotated_match(game, [make_policy("smithy_bm", game), make_policy("bmu", game)], 60, seed=5)[:, 0]
    assert (smithy > 0).mean() > 0.55, (smithy > 0).mean()  # 0.73 over 2,000 games


# ----- the encoder's cache, which the bots read through the observation ----------------------
@pytest.mark.parametrize("kingdom", ["T1-A", "T1-B", "T2"])
def test_observations_do_not_depend_on_the_cached_public_block(kingdom):
    game = game_of(3, kingdom)
    rng = np.random.default_rng(7)
    state = game.new_state(rng)
    while not state.is_terminal():
        seat = int(rng.integers(3))
        cached, full = state.observation(seat), state.state_tensor()
        state._supply_obs, state._owned_obs = None, [None] * 3  # recomputed from the state
        assert np.array_equal(cached, state.observation(seat)) and np.array_equal(full, state.state_tensor())
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
