"""Play games between policies through the AEC env, so each policy sees only its own observation."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from tqdm import tqdm

import card_envs
from card_envs.agents.policy import Policy


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
        policy = policies[seat_of[agent]]
        if getattr(policy, "needs_state", False):  # a search policy: see card_envs.agents.ismcts.SearchPolicy
            raw = env.unwrapped
            state = raw.game.state_from_json(raw.snapshot()["state"])
            action = policy.act_state(state, seat_of[agent], rng)
        else:
            action = policy.act(obs["observation"], obs["action_mask"], rng)
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
    for g in tqdm(range(num_games), desc="games", disable=None if progress else True):
        shift = g % n  # policy k sits at seat (k + shift) % n
        seated = [policies[(seat - shift) % n] for seat in range(n)]
        rewards, _ = play_game(env, seated, seed + g // n)  # each deal is played in every seating
        for k in range(n):
            results[g, k] = rewards[f"player_{(k + shift) % n}"]
    return results


def rotated_match(game, policies: Sequence[Policy], num_deals: int, seed: int = 0,
                  parallel: int = 256, progress: bool = False, rotations: Sequence[int] | None = None,
                  deal_seeds: Sequence[int] | None = None,
                  on_game: Callable[[int, list[int]], None] | None = None) -> np.ndarray:
    """Rewards of ``policies[k]`` (columns) over ``num_deals`` deals, each played in every seating.

    The batched counterpart of `seat_rotated_results`: up to ``parallel`` games are stepped
    together (`card_envs.vector.VectorGames`) and each policy acts for all its seats in one
    ``act_batch`` call. Row ``d * n + r`` is deal ``d`` played with policy k in seat
    ``(k + r) % n``. Deal d is dealt from ``seed + d``: the same seeds give the same results.

    Search policies (``needs_state = True``, `card_envs.agents.ismcts.SearchPolicy`) act one game at a time
    through ``act_state(state, seat, rng)``, which shows them determinizations only.
    A checkpoint that observes with its own options (`card_envs.agents.policy.OwnObservationPolicy`) acts for
    all its seats through ``act_states(states, seats, rng)``.

    Options: ``rotations`` plays only these seat shifts (row ``d * len(rotations) + i`` is deal d
    with shift ``rotations[i]``), e.g. ``[0, 1]`` for a team seating ``[A, B, A, B]`` whose other
    two shifts repeat the same seating; ``deal_seeds`` deals deal d from ``deal_seeds[d]`` instead
    (``seed`` then seeds only the policies' rng); ``on_game(row, actions)`` is called as each game
    ends with the actions the policies chose, in order (forced single-choice decisions, which
    `VectorGames` plays itself, are not in it; `card_envs.replay` rebuilds them).
    """
    from card_envs.vector import VectorGames

    n = game.num_players
    if len(policies) != n:
        raise ValueError(f"{game.name} with this config seats {n} players, got {len(policies)} policies")
    rotations = list(range(n)) if rotations is None else [int(r) for r in rotations]
    if not rotations or any(not 0 <= r < n for r in rotations):
        raise ValueError(f"rotations must be seat shifts in 0..{n - 1}, got {rotations}")
    if deal_seeds is not None and len(deal_seeds) != num_deals:
        raise ValueError(f"deal_seeds holds {len(deal_seeds)} seeds for {num_deals} deals")
    seeds = [seed + d for d in range(num_deals)] if deal_seeds is None else [int(s) for s in deal_seeds]
    jobs = [(deal, shift) for deal in range(num_deals) for shift in rotations]
    parallel = max(1, min(parallel, len(jobs)))
    queue = iter(range(len(jobs)))
    current = np.full(parallel, -1)  # the job each slot is playing (-1: idle, its game is discarded)
    shifts = np.zeros(parallel, dtype=np.int64)

    def next_deal(slot: int) -> int | None:
        current[slot] = job = next(queue, -1)
        shifts[slot] = jobs[job][1] if job >= 0 else 0
        return seeds[jobs[job][0]] if job >= 0 else None  # idle: any deal (VectorGames' own stream)

    games = VectorGames(game, parallel, deal_seed=next_deal)
    rng = np.random.default_rng(seed)
    results = np.zeros((len(jobs), n))
    chosen: list[list[int]] = [[] for _ in jobs] if on_game is not None else []
    finished = 0
    with tqdm(total=len(jobs), desc="games", disable=None if progress else True) as bar:
        while finished < len(jobs):
            observations, masks, seats = games.observe()
            owner = np.where(current >= 0, (seats - shifts) % n, -1)
            actions = masks.argmax(axis=1)  # idle slots: any legal action, their games don't count
            for k, policy in enumerate(policies):
                rows = np.flatnonzero(owner == k)
                if not rows.size:
                    continue
                if hasattr(policy, "act_states"):  # its own observation of each state, in one batch
                    actions[rows] = policy.act_states([games.states[i] for i in rows], seats[rows], rng)
                elif getattr(policy, "needs_state", False):  # one game at a time, on determinizations
                    actions[rows] = [policy.act_state(games.states[i], int(seats[i]), rng) for i in rows]
                else:
                    actions[rows] = policy.act_batch(observations[rows], masks[rows].astype(np.int8), rng)
            playing = current.copy()
            if on_game is not None:
                for slot in np.flatnonzero(playing >= 0):
                    chosen[playing[slot]].append(int(actions[slot]))
            done, returns, _ = games.step(actions)
            for slot in np.flatnonzero(done & (playing >= 0)):
                row = int(playing[slot])
                shift = jobs[row][1]
                results[row] = np.roll(returns[slot], -shift)  # column k: seat (k + shift) % n
                finished += 1
                bar.update()
                if on_game is not None:
                    on_game(row, chosen[row])
    return results


def win_draw_loss(rewards: np.ndarray) -> tuple[int, int, int]:
    """Counts of positive, zero and negative rewards (one policy's column of a match)."""
    return int((rewards > 0).sum()), int((rewards == 0).sum()), int((rewards < 0).sum())


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    Better than the normal approximation near 0 and 1, where win rates against weak baselines
    live; (0, 1) when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * np.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return float(max(0.0, centre - half)), float(min(1.0, centre + half))
