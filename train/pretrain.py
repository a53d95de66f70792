"""Behaviour cloning before PPO (``--pretrain-games``): fit the network to the teacher's own games.

Kickstarting (``--teacher``) imitates the teacher on the learner's games inside PPO's loss; on
Illimat that taught far less than fitting the same network offline did (after 2.5M steps the
acting policy chose as the scripted agent in 56-60% of its decisions and won none of 400 games
against it; fitted on 1,000 of the agent's games, it agrees in 80% and wins 15%). So, before
the first rollout, the teacher plays ``games`` games against itself (every seat; forced
single-choice decisions played unasked, as in training), every decision with more than one legal
action is kept, and the network is fitted to them for ``epochs`` passes: the policy by masked
cross-entropy to the teacher's choices, the value head to the result each decision led to for the
seat that took it (discounted by ``gamma`` per own decision, as PPO's returns are), so that PPO
starts with a critic that already knows the game. A separate privileged critic (``--critic
state``) is fitted the same way on the full state each decision was taken in: left at its random
start, its advantages undid a Dominion clone within 2M steps (0.045 against the teacher, where
the same run with the shared-trunk critic stood at 0.475). Written here rather than taken from a
library: imitation libraries (e.g. ``imitation``) wrap gymnasium envs and SB3 policies, not our
AEC games' batched engines and our network.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import torch
from tqdm import tqdm

from agents.neural import ActorCritic
from card_envs.vector import VectorGames
from train.acting import critic_inputs
from train.policy_terms import mask_offsets

LEARNING_RATE = 1e-3  # Adam's, for cloning: fitting fixed labels tolerates more than PPO's step
MINIBATCH = 256
HELD_OUT = 0.05  # the share of decisions kept out of the fit, to report agreement on unseen ones
PARALLEL_GAMES = 64  # games stepped together while the teacher plays (it acts on all of them at once)


@dataclass
class Demonstrations:
    """The teacher's decisions: what it saw, could do and did, and where that led."""

    observations: np.ndarray  # [D, obs] float32
    masks: np.ndarray  # [D, A] bool
    actions: np.ndarray  # [D] int64, the teacher's choice
    returns: np.ndarray  # [D] float32, the deciding seat's result, discounted per own later decision
    critic_inputs: np.ndarray | None = None  # [D, C] float32, the privileged critic's (train.acting.critic_inputs)

    def __len__(self) -> int:
        return len(self.actions)


def never() -> bool:
    return False


def play_teacher(game, teacher, games: int, seed: int, gamma: float = 1.0, progress: bool = False,
                 stop: Callable[[], bool] = never, privileged: bool = False) -> Demonstrations:
    """``games`` games of ``teacher`` in every seat; the decisions with a choice, in game order.
    ``privileged`` keeps each decision's critic inputs too (the full state and the seat).
    ``stop()`` true ends it early with the games finished so far (Ctrl-C)."""
    rng = np.random.default_rng(seed)
    vector = VectorGames(game, min(games, PARALLEL_GAMES), seed=int(rng.integers(2**63)))
    open_games: list[list[tuple]] = [[] for _ in range(vector.num_games)]
    kept: list[Demonstrations] = []  # one per finished game
    finished = 0
    with tqdm(total=games, desc="teacher games", unit="game", disable=not progress) as bar:
        while finished < games and not stop():
            observations, masks, seats = vector.observe()
            actions = teacher.act_batch(observations, masks.astype(np.int8), rng)
            full = critic_inputs(vector.state_tensors(), seats, game.num_players) if privileged else None
            # VectorGames plays forced decisions unasked: every decision it shows has a choice.
            for i in range(vector.num_games):
                open_games[i].append((observations[i].copy(), masks[i].copy(), int(actions[i]), int(seats[i]),
                                      None if full is None else full[i]))
            done, returns, _ = vector.step(actions)
            for i in np.flatnonzero(done):
                if finished < games:  # games still in play when the count is reached are dropped
                    kept.append(_game_demonstrations(open_games[i], returns[i], gamma))
                    finished += 1
                    bar.update()
                open_games[i] = []
    return _concatenate(kept, game.observation_size, game.num_actions)


def _game_demonstrations(decisions: list[tuple], result: np.ndarray, gamma: float) -> Demonstrations:
    """One game's (observation, mask, action, seat, critic inputs or None) decisions as arrays,
    each with the seat's final result discounted by ``gamma`` for each later decision of that
    same seat."""
    later: dict[int, int] = {}  # seat -> its decisions after this one
    returns = np.empty(len(decisions), dtype=np.float32)
    for k in reversed(range(len(decisions))):
        seat = decisions[k][3]
        returns[k] = float(result[seat]) * gamma ** later.get(seat, 0)
        later[seat] = later.get(seat, 0) + 1
    observations, masks, actions, _, full = zip(*decisions)
    return Demonstrations(np.stack(observations).astype(np.float32, copy=False), np.stack(masks).astype(bool, copy=False),
                          np.array(actions, dtype=np.int64), returns,
                          None if full[0] is None else np.stack(full).astype(np.float32, copy=False))


def _concatenate(parts: list[Demonstrations], observation_size: int, num_actions: int) -> Demonstrations:
    """The games' decisions in one set of arrays, each game freed as soon as it is copied: the
    peak stays near one copy (np.empty's pages are only committed as they are written), where
    stacking all at once holds two (300 Illimat games: 0.66 GB over the start instead of 1.19)."""
    total = sum(len(part) for part in parts)
    privileged = bool(parts) and parts[0].critic_inputs is not None
    out = Demonstrations(np.empty((total, observation_size), np.float32), np.empty((total, num_actions), bool),
                         np.empty(total, np.int64), np.empty(total, np.float32),
                         np.empty((total, parts[0].critic_inputs.shape[1]), np.float32) if privileged else None)
    start = 0
    while parts:
        part = parts.pop(0)
        end = start + len(part)
        out.observations[start:end], out.masks[start:end] = part.observations, part.masks
        out.actions[start:end], out.returns[start:end] = part.actions, part.returns
        if privileged:
            out.critic_inputs[start:end] = part.critic_inputs
        start = end
    return out


def clone(network: ActorCritic, demos: Demonstrations, epochs: int, seed: int, vf_coef: float = 0.5,
          progress: bool = False, stop: Callable[[], bool] = never) -> list[dict[str, float]]:
    """Fit ``network`` to ``demos`` for ``epochs`` passes; per epoch, the mean losses on the
    fitted decisions and the share of the held-out ones where the greedy policy chose as the
    teacher. A separate critic (``--critic state``) is fitted on the demonstrations' critic
    inputs, which it needs. ``stop()`` true ends it after the epoch in progress."""
    if network.critic is not None and demos.critic_inputs is None:
        raise ValueError("the network has a separate critic: play_teacher(..., privileged=True) keeps its inputs")
    with all_cores():
        return _fit(network, demos, epochs, seed, vf_coef, progress, stop)


@contextmanager
def all_cores():
    """Torch on every core this process may use, then back to its thread count: nothing else
    runs while cloning (the actors start after it), and the fit is about 2x faster on 2 cores."""
    before = torch.get_num_threads()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1  # macOS: no affinity
    torch.set_num_threads(max(before, cores))
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _fit(network: ActorCritic, demos: Demonstrations, epochs: int, seed: int, vf_coef: float, progress: bool,
         stop: Callable[[], bool]) -> list[dict[str, float]]:
    generator = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(demos), generator=generator)
    held = order[:int(len(demos) * HELD_OUT)]
    fit = order[len(held):]
    x, y = torch.from_numpy(demos.observations), torch.from_numpy(demos.actions)
    offsets = mask_offsets(torch.from_numpy(demos.masks))
    targets = torch.from_numpy(demos.returns)
    full = None if network.critic is None else torch.from_numpy(demos.critic_inputs)
    optimizer = torch.optim.Adam(network.parameters(), lr=LEARNING_RATE)
    history = []
    network.train()
    for _ in tqdm(range(epochs), desc="cloning", unit="epoch", disable=not progress):
        if stop() or not len(fit):
            break
        policy_sum = value_sum = 0.0
        for batch in fit[torch.randperm(len(fit), generator=generator)].split(MINIBATCH):
            logits, values = network.heads(x[batch], None if full is None else full[batch])
            policy_loss = torch.nn.functional.cross_entropy(logits + offsets[batch], y[batch])
            loss = policy_loss
            if values is not None:
                value_loss = 0.5 * (values - targets[batch]).square().mean()
                loss = loss + vf_coef * value_loss
                value_sum += value_loss.item() * len(batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            policy_sum += policy_loss.item() * len(batch)
        with torch.no_grad():
            chosen = (network.heads(x[held])[0] + offsets[held]).argmax(1)
        history.append({"imitation": policy_sum / len(fit), "value_loss": value_sum / len(fit),
                        "held_out_agreement": float((chosen == y[held]).float().mean()) if len(held) else float("nan")})
    return history
