"""Play games between policies through the AEC env, so each policy sees only its own observation."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from tqdm import tqdm

import card_envs
from agents.policy import Policy


def play_game(env, policies: Sequence[Policy], seed: int,
              on_step: Callable[[str, int], None] | None = None) -> tuple[dict[str, float], list[int]]:
    """One game; ``policies[i]`` plays ``player_i``. Returns (rewards per agent, final scores)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = {agent: 0.0 for agent in env.possible_agents}
    scores: list[int] = []
    seat_of = env.unwrapped.agent_seat
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            scores = info.get("scores", scores)
            env.step(None)
            continue
        action = policies[seat_of[agent]].act(obs["observation"], obs["action_mask"], rng)
        if on_step is not None:
            on_step(agent, action)
        env.step(action)
    return totals, scores


def seat_rotated_results(env_id: str, policies: Sequence[Policy], num_games: int, seed: int = 0,
                         progress: bool = False, **config) -> np.ndarray:
    """Rewards of ``policies[k]`` (columns) over ``num_games`` games, seats rotated each game."""
    env = card_envs.make(env_id, **config)
    n = len(policies)
    results = np.zeros((num_games, n))
    for g in tqdm(range(num_games), desc="games", disable=not progress):
        shift = g % n  # policy k sits at seat (k + shift) % n
        seated = [policies[(seat - shift) % n] for seat in range(n)]
        rewards, _ = play_game(env, seated, seed + g // n)  # each deal is played in every seating
        for k in range(n):
            results[g, k] = rewards[f"player_{(k + shift) % n}"]
    return results
