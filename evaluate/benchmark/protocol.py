"""The benchmark protocol ``card_envs-bench-v1``, written down as data.

Every game is played at one fixed setting (its rules and player count, ``config``) by the policy
under test against each agent of a fixed opponent panel (``panel``), ``deals`` deals each, deal d
dealt from ``EVAL_SEED + d``, every deal in every distinct seating (the policy in one seat, or its
team's seats, against the opponent in all the others: ``python -m card_envs.evaluate``'s "field"
seating, `card_envs.evaluate.runner`).

The raw result of a game is the policy's score rate (wins + draws / 2, per game) averaged over the
panel's opponents, each opponent weighing the same. The normalized score is
``(raw - low) / (high - low)``: 0 is the uniform-random agent's raw result against the same panel,
1 the strongest scripted agent's (the best raw result among the game's batched scripted agents,
`card_envs.agents.opponent_names` less ``random``). The anchors were measured once with this
protocol (``python -m card_envs.evaluate.benchmark --anchors``) and are part of it: a new panel,
setting, deal count or seed range is a new protocol version, with anchors measured anew.

A game's names in this file are its settings in one table (as train/configs.py holds the
recipes): the protocol is frozen data, not derived from what the registry holds today.
"""

from __future__ import annotations

from typing import Any

VERSION = "card_envs-bench-v1"
# Deal d of every game is dealt from EVAL_SEED + d. Training deals from generator streams derived
# from its --seed (not from consecutive integer seeds), the trainer's evaluations from 10,000 and
# 20,000 on, the results pages' evaluations from seeds below 200,000: no run or page uses these deals.
EVAL_SEED = 3_000_000
SEATING = "field"
CHUNK_DEALS = 10  # deals per task (`card_envs.evaluate.runner`): results depend on it, not on workers

# env id -> its setting, opponent panel and deals. Deals are fewer where games cost more (CPU
# seconds per game, neural policy against a scripted one: 3 Piles 0.002, Piles 0.007, Split the
# Hoard 0.009, Illimat 0.07, Dominion 0.1-0.15): one run of all five costs about 4 CPU minutes.
GAMES: dict[str, dict[str, Any]] = {
    "three_piles_v0": {"config": {"num_players": 2}, "panel": ("random", "heuristic"), "deals": 500},
    "piles_v0": {"config": {"num_players": 4}, "panel": ("random", "heuristic"), "deals": 500},
    "split_the_hoard_v0": {"config": {"num_players": 3}, "panel": ("random", "heuristic"), "deals": 300},
    "illimat_v0": {"config": {"num_players": 2}, "panel": ("random", "heuristic", "lookahead"), "deals": 200},
    # held-out random kingdoms (the tenth that "random_train" never deals), as the headline is measured
    "dominion_v0": {"config": {"num_players": 2, "kingdom": "random_test"},
                    "panel": ("random", "heuristic", "best_bot"), "deals": 150},
}

# env id -> {"low": random's raw result, "high": the strongest scripted agent's, "high_agent": which,
# "candidates": every scripted agent's raw result}. Measured on 2026-12-06 with
# python -m card_envs.evaluate.benchmark --anchors --workers 2 (the table: docs/benchmark.md).
ANCHORS: dict[str, dict[str, Any]] = {
    "three_piles_v0": {"low": 0.24675, "high": 0.749, "high_agent": "heuristic",
                       "candidates": {"heuristic": 0.749}},
    "piles_v0": {"low": 0.2885, "high": 0.718, "high_agent": "heuristic",
                 "candidates": {"heuristic": 0.718}},
    "split_the_hoard_v0": {"low": 0.32, "high": 0.7313888888888889, "high_agent": "heuristic",
                           "candidates": {"heuristic": 0.731389}},
    "illimat_v0": {"low": 0.14958333333333332, "high": 0.7129166666666666, "high_agent": "lookahead",
                   "candidates": {"heuristic": 0.620417, "lookahead": 0.712917}},
    "dominion_v0": {"low": 0.17666666666666667, "high": 0.6833333333333332, "high_agent": "best_bot",
                    "candidates": {"heuristic": 0.65, "bmu": 0.523333, "smithy_bm": 0.566111,
                                   "big_smithy": 0.563333, "witch_bm": 0.654444, "catapult_bm": 0.488889,
                                   "townsfolk_bm": 0.478889, "best_bot": 0.683333}},
}


def protocol() -> dict[str, Any]:
    """The whole protocol as one JSON-ready dict (recorded in every report)."""
    return {"version": VERSION, "eval_seed": EVAL_SEED, "seating": SEATING, "chunk_deals": CHUNK_DEALS,
            "games": {env_id: {**spec, "panel": list(spec["panel"]), "anchors": ANCHORS.get(env_id)}
                      for env_id, spec in GAMES.items()}}
