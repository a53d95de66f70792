"""Playing the protocol: a game's policies against its panel, with `python -m card_envs.evaluate`'s
runner (`card_envs.evaluate.runner.play_pairings`: fair seatings, paired deals, worker processes)."""

from __future__ import annotations

import sys
from typing import Any

import card_envs
from card_envs.agents import opponent_names
from card_envs.evaluate.benchmark.protocol import ANCHORS, CHUNK_DEALS, EVAL_SEED, GAMES, SEATING
from card_envs.evaluate.benchmark.scores import normalize, raw_result
from card_envs.evaluate.players import Player, expand_all
from card_envs.evaluate.runner import distinct_rotations, play_pairings, seating_pattern


def parse_policies(given: list[str]) -> dict[str, list[str]]:
    """``ENV_ID=SPEC`` strings -> env id -> its runs' specs, in the order given and the protocol's
    order of games. The games given may be a subset of the protocol's (a partial report: no
    aggregate, until ``--merge`` joins it with others); each game given must have the same number
    of runs (the score matrix is runs x games)."""
    runs: dict[str, list[str]] = {env_id: [] for env_id in GAMES}
    for text in given:
        env_id, sep, spec = text.partition("=")
        if not sep or not spec:
            raise ValueError(f"--policy wants ENV_ID=SPEC (e.g. three_piles_v0=shipped:three_piles_v0), got {text!r}")
        if env_id not in GAMES:
            raise ValueError(f"--policy {text!r}: {env_id!r} is not a game of the protocol; its games are "
                             f"{', '.join(GAMES)}")
        runs[env_id].append(spec)
    runs = {env_id: specs for env_id, specs in runs.items() if specs}
    counts = {env_id: len(specs) for env_id, specs in runs.items()}
    if len(set(counts.values())) > 1:
        raise ValueError(f"every game needs the same number of runs (one --policy each per run), got "
                         + ", ".join(f"{env_id}: {n}" for env_id, n in counts.items()))
    return runs


def make_game(env_id: str):
    return card_envs.make_game(env_id, **GAMES[env_id]["config"])


def players_of(env_id: str, specs: list[str]) -> list[Player]:
    """One player per spec, each built once here so that a bad spec or checkpoint fails before any
    game is played (ValueError naming it); a checkpoint folder, which holds several, is refused."""
    game, players = make_game(env_id), []
    for spec in specs:
        try:
            found = expand_all([spec], game)
        except (ValueError, KeyError) as error:
            raise ValueError(f"{env_id} policy {spec!r}: {error}") from None
        if len(found) != 1:
            raise ValueError(f"{env_id} policy {spec!r} is {len(found)} checkpoints (a folder): give one file per run")
        players.append(found[0])
    return players


def check_anchors(env_ids) -> None:
    missing = [env_id for env_id in env_ids if env_id not in ANCHORS]
    if missing:
        raise ValueError(f"the protocol has no anchors for {', '.join(missing)} yet: measure them with "
                         "python -m card_envs.evaluate.benchmark --anchors")


def scripted_candidates(env_id: str) -> list[str]:
    """The game's batched scripted agents: the candidates for the normalization's upper anchor."""
    return [name for name in opponent_names(make_game(env_id)) if name != "random"]


def play_game(env_id: str, players: list[Player], deals: int | None = None, workers: int = 1,
              progress: bool = True) -> list[dict[str, Any]]:
    """Each player against the game's panel on the protocol's deals (``deals`` overrides their
    number: a smaller budget, no longer the protocol's); per player its raw result."""
    spec = GAMES[env_id]
    game = make_game(env_id)
    panel = expand_all(list(spec["panel"]), game)
    deals = deals or spec["deals"]
    pairs = [(player, opponent) for player in players for opponent in panel]
    seatings = len(distinct_rotations(seating_pattern(game, SEATING)))
    print(f"{env_id}: {len(players)} polic{'y' if len(players) == 1 else 'ies'} x {len(panel)} opponents x "
          f"{deals} deals x {seatings} seatings = {len(pairs) * deals * seatings} games", file=sys.stderr)
    results = play_pairings(env_id, game.config, pairs, deals, seed=EVAL_SEED, workers=workers,
                            chunk_deals=CHUNK_DEALS, progress=progress, seating=SEATING)
    out = []
    for k, player in enumerate(players):
        mine = results[k * len(panel):(k + 1) * len(panel)]
        out.append({"spec": player.label, **raw_result(mine), "cpu_s": float(sum(r.cpu_s for r in mine))})
    return out


def with_normalized(env_id: str, result: dict[str, Any]) -> dict[str, Any]:
    """A raw result with its normalized score and interval (the anchors are the protocol's, exact)."""
    anchors = ANCHORS[env_id]
    low, high = result["raw_ci95"]
    return {**result, "normalized": normalize(result["raw"], anchors),
            "normalized_ci95": [normalize(low, anchors), normalize(high, anchors)]}


def measure_anchors(deals: int | None, workers: int, progress: bool) -> dict[str, dict[str, Any]]:
    """Random and each scripted agent against each game's panel: the lower anchor is random's raw
    result, the upper one the best scripted agent's."""
    anchors = {}
    for env_id in GAMES:
        candidates = scripted_candidates(env_id)
        game = make_game(env_id)
        results = play_game(env_id, expand_all(["random"] + candidates, game), deals, workers, progress)
        raws = {r["spec"]: r["raw"] for r in results}
        best = max(candidates, key=lambda name: raws[name])
        anchors[env_id] = {"low": raws["random"], "high": raws[best], "high_agent": best,
                           "candidates": {name: round(raws[name], 6) for name in candidates}}
    return anchors
