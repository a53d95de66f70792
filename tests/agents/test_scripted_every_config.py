"""Every scripted agent answers from the mask, in every configuration its game takes.

The matrix: each game's options (every argument of its Game class, `OPTIONS`) with the values
worth telling apart. Three Piles and Piles take the full product (6 and 4 configurations); the
others take it pairwise, which keeps the runtime modest: every two values of two options meet in
at least one configuration (`pairwise`, a greedy cover of the valid configurations): Illimat 9
of 3,072, Split the Hoard 8 of 64, Dominion 44 of 1,728 (fewer are valid: a Bane needs a fixed
kingdom with Young Witch, an Ally a Liaison).

In each configuration a few seeded games are played on the rules engine: every other game
uniformly at random (the positions no agent steers to: a full harvest, which the Illimat bots never
start), the others with each seat driven by one of the game's agents and a random move now and
then (`EXPLORE`). At every position EVERY agent of the game is asked (``act``, or ``act_state`` for
``greedy``), and its answer must be in ``state.legal_mask()``; each agent with its own
``act_batch`` then answers all the game's positions at once, every answer in the mask too.

The agents: ``random``, ``greedy``, ``heuristic`` and the game's named bots (`named_bots`);
``best_bot`` plays a 1-game round-robin per kingdom (8 by default) to stay cheap: it still
picks among the same candidates, which are all asked themselves.
"""

from __future__ import annotations

import inspect
import itertools
import json
import zlib

import numpy as np
import pytest

from card_envs.agents import make_policy, named_bots
from card_envs.agents.dominion.best import BestBot
from card_envs.agents.policy import Policy
from card_envs.core.game import ArgumentError
from card_envs.core.registry import game_class, make_game

EXPLORE = (1.0, 0.2)  # in even and odd games: the chance that a move is uniformly random instead of the driver's
EXTRA_CARDS = "extra-card file"  # Split the Hoard's ``cards``: the shipped list plus one card

# A kingdom with Young Witch (so a Bane) and the Allies piles but Wizards (the Liaison's): an
# Ally only when Wizards is the Bane.
YOUNG_WITCH_KINGDOM = ("Young Witch", "Witch", "Smithy", "Festival", "Laboratory", "Augurs", "Clashes", "Forts",
                       "Odysseys", "Townsfolk")

OPTIONS = {
    "three_piles_v0": {"num_players": [2, 3, 4], "reward": ["win", "score"]},
    "piles_v0": {"num_players": [4, 2], "reward": ["win", "score"]},
    "illimat_v0": {
        "num_players": [2, 3, 4], "luminaries": [True, False], "stars_always": [False, True],
        "full_harvest": [False, True], "harmonic_convergence": [False, True], "harvest_features": [False, True],
        "play_features": [False, True], "threat_features": [False, True], "reward": ["win", "score"],
        "rounds": [1, 2], "target_score": [17, 5]},
    "split_the_hoard_v0": {
        "num_players": [2, 3, 4, 5], "class_powers": ["full", "tiebreak_only"], "starting_title_vp": [30, 0],
        "reward": ["win", "score"], "cards": [None, EXTRA_CARDS]},
    "dominion_v0": {
        "num_players": [2, 3, 4],
        "kingdom": ["T1-A", "T1-B", "T2", "T3", "random", "random_train", "random_test", YOUNG_WITCH_KINGDOM],
        "bane": [None, "Wizards", "Chapel"], "ally": [None, "Mountain Folk", "League of Bankers", "Band of Nomads",
                                                      "Peaceful Cult", "Cave Dwellers"],
        "max_turns": [100, 15], "reward": ["win", "score"]},
}
FULL_PRODUCT = {"three_piles_v0", "piles_v0"}


def games(env_id: str, config: dict) -> int:
    """Games per configuration: more where a decision is rare (Illimat's full harvest season
    choice without Summer: about one per 2 random rounds)."""
    if env_id == "illimat_v0":
        return 8 if config["full_harvest"] else 4
    return 2


def valid(env_id: str, config: dict) -> bool:
    """Whether the game takes ``config`` (Dominion's Bane and Ally need fitting kingdoms)."""
    if env_id != "dominion_v0":
        return True
    try:
        make_game(env_id, **resolve(config, None))
    except ArgumentError:
        return False
    return True


def pairwise(env_id: str, options: dict[str, list]) -> list[dict]:
    """Valid configurations covering every pair of values of two options that some valid
    configuration holds: the configuration that covers the most uncovered pairs, again and again."""
    names = list(options)
    rows = [dict(zip(names, values)) for values in itertools.product(*options.values())]
    rows = [row for row in rows if valid(env_id, row)]

    def pairs(row):
        return {(a, repr(row[a]), b, repr(row[b])) for a, b in itertools.combinations(names, 2)}

    row_pairs = [pairs(row) for row in rows]
    uncovered = set().union(*row_pairs)
    chosen = []
    while uncovered:
        best = max(range(len(rows)), key=lambda i: len(row_pairs[i] & uncovered))
        chosen.append(rows[best])
        uncovered -= row_pairs[best]
    return chosen


def matrix() -> list[tuple[str, dict]]:
    cases = []
    for env_id, options in OPTIONS.items():
        if env_id in FULL_PRODUCT:
            rows = [dict(zip(options, values)) for values in itertools.product(*options.values())]
        else:
            rows = pairwise(env_id, options)
        cases += [(env_id, row) for row in rows]
    return cases


def resolve(config: dict, cards_file) -> dict:
    """The Game's arguments: the extra-card file's path, a kingdom list as a list."""
    out = dict(config)
    if out.get("cards") == EXTRA_CARDS:
        out["cards"] = str(cards_file)
    if isinstance(out.get("kingdom"), tuple):
        out["kingdom"] = list(out["kingdom"])
    return out


def case_id(case) -> str:
    env_id, config = case
    short = {k: ("list" if isinstance(v, tuple) else v) for k, v in config.items()}
    return env_id + "-" + ",".join(f"{k}={v}" for k, v in short.items())


CASES = matrix()


@pytest.fixture(scope="module")
def cards_file(tmp_path_factory):
    """The shipped Split the Hoard card list with one more card (a known effect, as data)."""
    from card_envs.games.split_the_hoard import cards as stf

    data = json.loads(stf.DEFAULT_CARDS.read_text())
    data["hoard"].append({"name": "Golden Goose", "copies": 3, "rank": 2, "modifier": False, "vp": 2,
                          "condition": None, "phase": "claim", "effect": ["GAIN", 6]})
    path = tmp_path_factory.mktemp("cards") / "cards.json"
    path.write_text(json.dumps(data))
    return path


def agents_of(game) -> dict[str, Policy]:
    names = ["random", "greedy", "heuristic"] + named_bots(game)
    agents = {name: make_policy(name, game) for name in names}
    if "best_bot" in agents:
        agents["best_bot"] = BestBot(game, games=1)
    return agents


def answer(agent: Policy, state, observation, mask, rng) -> int:
    if getattr(agent, "needs_state", False):
        return int(agent.act_state(state, state.current_player, rng))
    return int(agent.act(observation.copy(), mask.copy(), rng))  # copies: no agent sees another's edits


def describe(game, name: str, action: int, mask: np.ndarray, where: str) -> str:
    text = game.action_to_string(action) if 0 <= action < len(mask) else "out of range"
    return f"{name} answered {action} ({text}) at {where}; legal: {np.flatnonzero(mask).tolist()}"


def play(game, agents: dict[str, Policy], seed: int, explore: float,
         illegal: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """One game, every agent asked at every position, a move random with chance ``explore`` (see
    the module docstring); each illegal answer is added to ``illegal`` (a driver's is replaced by
    a legal move). The positions' observations and masks."""
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    names = list(agents)
    drivers = [names[(seed + seat) % len(names)] for seat in range(game.num_players)]
    observations, masks = [], []
    while not state.is_terminal():
        mask, observation = state.legal_mask(), state.observation(state.current_player)
        legal = np.flatnonzero(mask)
        observations.append(observation)
        masks.append(mask.astype(np.int8))
        answers = {}
        for name, agent in agents.items():
            answers[name] = a = answer(agent, state, observation, mask, rng)
            if not (0 <= a < len(mask) and mask[a]):
                illegal.append(describe(game, f"{name}.act", a, mask, f"decision {len(masks) - 1} of seed {seed}"))
                answers[name] = int(legal[0])
        if rng.random() < explore:
            action = int(legal[rng.integers(len(legal))])
        else:
            action = answers[drivers[state.current_player]]
        state.apply(action)
    return np.stack(observations), np.stack(masks)


def batch_illegal(game, name: str, agent: Policy, observations, masks, seed: int) -> list[str]:
    """The illegal answers of ``agent.act_batch`` over one game's positions."""
    actions = np.asarray(agent.act_batch(observations, masks, np.random.default_rng(seed)))
    return [describe(game, f"{name}.act_batch", int(actions[i]), masks[i], f"decision {i} of seed {seed}")
            for i in np.flatnonzero(masks[np.arange(len(actions)), actions] == 0)]


def test_the_matrix_names_every_option_of_every_game():
    for env_id, options in OPTIONS.items():
        accepted = set(inspect.signature(game_class(env_id)).parameters)
        assert set(options) == accepted, \
            f"{env_id}: the matrix lists {sorted(options)}, the Game takes {sorted(accepted)}"


def test_pairwise_covers_every_pair():
    options = {"a": [1, 2, 3], "b": [True, False], "c": ["x", "y"], "d": [0, 1]}
    rows = pairwise("three_piles_v0", options)
    for a, b in itertools.combinations(options, 2):
        for va, vb in itertools.product(options[a], options[b]):
            assert any(row[a] == va and row[b] == vb for row in rows), (a, va, b, vb)
    assert len(rows) < 24  # the full product's size


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_every_agent_answers_from_the_mask(case, cards_file):
    env_id, config = case
    game = make_game(env_id, **resolve(config, cards_file))
    agents = agents_of(game)
    batched = {name: agent for name, agent in agents.items()  # those with a batched answer of their own
               if not getattr(agent, "needs_state", False) and type(agent).act_batch is not Policy.act_batch}
    illegal: list[str] = []
    first = zlib.crc32(case_id(case).encode())  # each configuration its own deals
    for i, seed in enumerate(range(first, first + games(env_id, config))):
        observations, masks = play(game, agents, seed, EXPLORE[i % 2], illegal)
        for name, agent in batched.items():
            illegal += batch_illegal(game, name, agent, observations, masks, seed)
    assert not illegal, f"{len(illegal)} illegal answers, e.g.\n" + "\n".join(illegal[:12])
