"""A game's raw result from its matches, the normalized score, and the aggregate statistics across
games, which are rliable's (Agarwal et al., 2021, "Deep RL at the edge of the statistical
precipice"): interquartile mean and optimality gap with stratified bootstrap intervals, and the
performance profile."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from card_envs.evaluate.runner import PairResult

Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution


def game_scores(result: PairResult) -> np.ndarray:
    """Per game, the policy's (player A's) score: 1 a win, 1/2 a draw, 0 a loss."""
    return (result.outcomes + 1) / 2


def raw_result(results: list[PairResult]) -> dict[str, Any]:
    """The policy's raw result against a panel (one match per opponent): its score rate averaged over
    the opponents, each weighing the same, with a 95% normal interval from the games' sampling error
    (the opponents' matches are independent: their variances add), clipped to [0, 1]."""
    if not results:
        raise ValueError("no matches: the panel is empty")
    rates, variances, per_opponent = [], [], {}
    for result in results:
        scores = game_scores(result)
        rate = float(scores.mean())
        variance = float(scores.var(ddof=1)) / len(scores) if len(scores) > 1 else 0.0
        rates.append(rate)
        variances.append(variance)
        per_opponent[result.b.label] = {"score_rate": rate, "se": math.sqrt(variance), "games": len(scores),
                                        "wins": int((result.outcomes > 0).sum()),
                                        "draws": int((result.outcomes == 0).sum()),
                                        "losses": int((result.outcomes < 0).sum())}
    raw = float(np.mean(rates))
    se = math.sqrt(sum(variances)) / len(rates)
    interval = [max(0.0, raw - Z95 * se), min(1.0, raw + Z95 * se)]  # a score rate lies in [0, 1]
    return {"raw": raw, "raw_se": se, "raw_ci95": interval, "per_opponent": per_opponent}


def normalize(raw: float, anchors: dict[str, Any]) -> float:
    """0 at random's raw result (``anchors["low"]``), 1 at the strongest scripted agent's (``"high"``)."""
    low, high = anchors["low"], anchors["high"]
    if not high > low:
        raise ValueError(f"anchors must have high > low, got low {low}, high {high}")
    return (raw - low) / (high - low)


class seeded_global_numpy:
    """numpy's global generator seeded for the block, and put back as it was after it. rliable 1.2's
    stratified bootstrap draws its resamples from ``np.random.choice`` (the global generator), not
    from the ``random_state`` it is given: seeding the global one is what makes intervals repeat.
    arch's notice that RandomState is deprecated (rliable passes one on) is silenced."""

    def __init__(self, seed: int):
        self.seed = seed

    def __enter__(self):
        self.saved = np.random.get_state()
        np.random.seed(self.seed)
        self.warnings = warnings.catch_warnings()
        self.warnings.__enter__()
        warnings.filterwarnings("ignore", category=FutureWarning, message=".*random_state is deprecated.*")
        return self

    def __exit__(self, *exc):
        self.warnings.__exit__(*exc)
        np.random.set_state(self.saved)


def _interval_estimates(matrix: np.ndarray, func, reps: int, seed: int, task_bootstrap: bool):
    """rliable's stratified bootstrap of ``func`` over a (runs, games) score matrix: point and 95%
    interval (rows low, high)."""
    from rliable import library

    with seeded_global_numpy(seed):
        points, intervals = library.get_interval_estimates(
            {"x": matrix}, func, reps=reps, task_bootstrap=task_bootstrap, random_state=np.random.RandomState(seed))
    return points["x"], intervals["x"]


def _iqm_and_gap(scores: np.ndarray) -> np.ndarray:
    from rliable import metrics

    return np.array([metrics.aggregate_iqm(scores), metrics.aggregate_optimality_gap(scores)])


def aggregate(matrix: np.ndarray, reps: int = 50_000, seed: int = 0) -> dict[str, Any]:
    """IQM and optimality gap (below 1, the strongest scripted agent) of a (runs, games) matrix of
    normalized scores, each with two 95% intervals: rliable's stratified bootstrap over the runs of
    each game (``ci95``, the field's default), and over the games as well (``ci95_games_too``: also
    the uncertainty of which games make the benchmark; wider); and each game's mean over its runs
    with the first kind of interval. With one run per game the run intervals have zero width."""
    matrix = check_matrix(matrix)
    points, runs = _interval_estimates(matrix, _iqm_and_gap, reps, seed, task_bootstrap=False)
    _, games_too = _interval_estimates(matrix, _iqm_and_gap, reps, seed, task_bootstrap=True)
    out = {name: {"point": float(points[k]), "ci95": [float(runs[0, k]), float(runs[1, k])],
                  "ci95_games_too": [float(games_too[0, k]), float(games_too[1, k])]}
           for k, name in enumerate(("iqm", "optimality_gap"))}
    return {**out, **game_means(matrix, reps, seed)}


def game_means(matrix: np.ndarray, reps: int = 50_000, seed: int = 0) -> dict[str, Any]:
    """Each game's mean over its runs with rliable's stratified bootstrap 95% interval over them
    (all that a partial report, which covers some of the games, has of `aggregate`)."""
    matrix = check_matrix(matrix)
    means, intervals = _interval_estimates(matrix, lambda s: s.mean(axis=0), reps, seed, task_bootstrap=False)
    return {"game_means": [{"mean": float(means[g]), "ci95": [float(intervals[0, g]), float(intervals[1, g])]}
                           for g in range(matrix.shape[1])],
            "reps": reps, "seed": seed, "runs": matrix.shape[0], "games": matrix.shape[1]}


def check_matrix(matrix) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=float)
    if matrix.ndim != 2 or min(matrix.shape) < 1:
        raise ValueError(f"scores must be a (runs, games) matrix with at least one of each, got shape {matrix.shape}")
    if not np.isfinite(matrix).all():
        raise ValueError("scores must be finite numbers")
    return matrix


def taus(score_dict: dict[str, np.ndarray], points: int = 101) -> np.ndarray:
    """The profile's thresholds: from below 0 (or the lowest score) to above 1 (or the highest)."""
    every = np.concatenate([np.ravel(m) for m in score_dict.values()])
    return np.linspace(min(0.0, every.min()) - 0.05, max(1.0, every.max()) + 0.05, points)


def profile_plot(score_dict: dict[str, np.ndarray], path, reps: int = 2_000, seed: int = 0) -> None:
    """rliable's performance profile (fraction of runs above each normalized score, with stratified
    bootstrap bands) of every algorithm in ``score_dict`` (name -> (runs, games) matrix), as a PNG
    written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from rliable import library, plot_utils

    from card_envs.evaluate.report import save_figure

    thresholds = taus(score_dict)
    with seeded_global_numpy(seed):
        profiles, bands = library.create_performance_profile(score_dict, thresholds, reps=reps)
    fig, ax = plt.subplots(figsize=(7, 4))
    plot_utils.plot_performance_profiles(profiles, thresholds, performance_profile_cis=bands, ax=ax,
                                         xlabel="normalized score (τ)", ylabel="fraction of runs with score > τ",
                                         labelsize=11, ticklabelsize=9)
    ax.legend(ax.get_lines()[:len(score_dict)], list(score_dict), fontsize=8, loc="upper right")
    for anchor in (0.0, 1.0):
        ax.axvline(anchor, ls=":", lw=1, color="grey")
    ax.set_title("performance profile (0 = random, 1 = strongest scripted agent)", fontsize=10)
    save_figure(fig, path)
