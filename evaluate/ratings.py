"""Ratings from pairwise game results: a Bradley-Terry (Elo) fit and openskill's Plackett-Luce.

The Bradley-Terry fit is written here by hand with numpy rather than taken from a library: it is
about forty lines (Hunter's MM iterations and a closed-form Hessian), it needs exactly our
conventions (draws as half wins, an optional prior of virtual draws, an anchor player, Elo units),
and the libraries that offer it (choix, scipy-based ones) would add dependencies for one fit
without giving intervals in this form.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

ELO_PER_NAT = 400.0 / math.log(10.0)  # Elo = 400 log10(odds) = ELO_PER_NAT * ln(odds)
Z95 = 1.959964


def bradley_terry(wins: np.ndarray, prior: float = 0.0, anchor: int | None = None,
                  tol: float = 1e-10, max_iter: int = 200_000) -> dict[str, np.ndarray]:
    """Maximum-likelihood Bradley-Terry strengths, in Elo, with Hessian-based 95% intervals.

    Args:
        wins: ``wins[i, j]`` = games i won against j, a draw counting 0.5 for each side.
        prior: virtual games added to every pair that played, as draws (``prior / 2`` wins each
            way); it keeps the fit finite when a player won or lost every game. 0 = plain MLE.
        anchor: index of the player fixed at 0 Elo (intervals are then relative to it); None
            centres the ratings on mean 0.

    Model: P(i beats j) = p_i / (p_i + p_j); Elo_i = 400 log10 p_i, so a 75% score is a
    400 log10(3) ≈ 190.8 Elo gap. Fitted by Hunter's (2004) MM iterations
    ``p_i <- W_i / sum_j n_ij / (p_i + p_j)``, which increase the likelihood monotonically.
    Standard errors come from the observed information at the optimum: with
    ``theta = ln p`` the Hessian of the log-likelihood is minus the graph Laplacian with weights
    ``n_ij q_ij (1 - q_ij)``; its inverse on the anchored (or mean-zero) subspace is the covariance.

    Returns a dict with ``elo``, ``se`` (standard errors, Elo), ``low``/``high`` (95% intervals)
    and ``games`` (per player). Raises ValueError when the MLE does not exist (a player without
    games, a player who won or lost everything without a prior, or disconnected groups).
    """
    w = np.array(wins, dtype=np.float64)
    m = w.shape[0]
    if w.shape != (m, m) or (w < 0).any() or np.diag(w).any():
        raise ValueError("wins must be a square, non-negative matrix with a zero diagonal")
    played = (w + w.T) > 0
    w = w + prior / 2.0 * played
    n = w + w.T
    totals = w.sum(axis=1)
    games = n.sum(axis=1)
    if m < 2 or (games == 0).any():
        raise ValueError("every player needs games against another player")
    if not _connected(played):
        raise ValueError("the players form disconnected groups: ratings are not comparable")
    if (totals == 0).any() or (totals == games).any():
        raise ValueError("a player won or lost every game: the MLE is infinite; use prior > 0")
    p = np.ones(m)
    for _ in range(max_iter):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = totals / denom
        new /= np.exp(np.log(new).mean())
        change = np.abs(np.log(new) - np.log(p)).max()
        p = new
        if change < tol:
            break
    theta = np.log(p)
    q = p[:, None] / (p[:, None] + p[None, :])
    weights = n * q * q.T
    info = np.diag(weights.sum(axis=1)) - weights  # minus the Hessian of the log-likelihood
    if anchor is None:
        theta = theta - theta.mean()
        cov = np.linalg.pinv(info)
    else:
        theta = theta - theta[anchor]
        keep = [i for i in range(m) if i != anchor]
        cov = np.zeros((m, m))
        cov[np.ix_(keep, keep)] = np.linalg.inv(info[np.ix_(keep, keep)])
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None)) * ELO_PER_NAT
    elo = theta * ELO_PER_NAT
    return {"elo": elo, "se": se, "low": elo - Z95 * se, "high": elo + Z95 * se, "games": games}


def _connected(adjacent: np.ndarray) -> bool:
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(adjacent[i]):
            if j not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return len(seen) == adjacent.shape[0]


def openskill_ratings(names: Sequence[str], games: Iterable[tuple[int, int, float]]) -> dict[str, dict[str, float]]:
    """openskill's Plackett-Luce ratings from ``(i, j, outcome)`` games in order.

    ``outcome`` is +1 if i won, 0 for a draw, -1 if j won; a player occupying several seats (a
    team game) is one rating. ``tau`` (openskill's per-game skill drift) is 0: an agent's skill
    does not change during an evaluation, and the default drift would make the ratings track
    the last few hundred games. The updates are still online approximations, so ``mu`` depends
    somewhat on the order of the games (the evaluator uses deal order, pairings interleaved);
    the Bradley-Terry fit is the order-free estimate. Returns per name: ``mu``, ``sigma`` and
    ``ordinal`` (mu - 3 sigma, a conservative skill estimate)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    ratings = [model.rating(name=name) for name in names]
    for i, j, outcome in games:
        ranks = [0, 1] if outcome > 0 else [1, 0] if outcome < 0 else [0, 0]
        [[ratings[i]], [ratings[j]]] = model.rate([[ratings[i]], [ratings[j]]], ranks=ranks)
    return {name: {"mu": float(r.mu), "sigma": float(r.sigma), "ordinal": float(r.ordinal())}
            for name, r in zip(names, ratings)}
