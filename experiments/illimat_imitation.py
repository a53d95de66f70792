"""Can a network learn an Illimat scripted agent's choices, with and without the optional pieces?
A research probe; its findings are on docs/results/illimat_v0.md.

    python experiments/illimat_imitation.py                      # 250 games, 8 epochs (~10 min on 2 cores)
    python experiments/illimat_imitation.py --games 50 --epochs 3
    python experiments/illimat_imitation.py --teacher lookahead  # the bot the trained default clones

Offline imitation, without RL in the way: the teacher (``heuristic``, the scripted agent, or
``lookahead``) plays both seats of ``--games`` seeded games; every decision with more than one
legal answer is kept (the observation with the harvest, play and threat pieces, the mask, the
teacher's answer). The first 80% of the decisions train a
network of the trainer's default shape (256, 256) by masked cross-entropy: an MLP on the default
observation (the pieces cut off) and on the one with ``harvest_features``, then the trainer's
network with entity heads (`card_envs.agents.neural.ActorCritic`) on the one with ``harvest_features`` and on
with ``play_features`` too (whose field actions are entities as well), and on the whole one
(``threat_features`` too). After each epoch
it prints the agreement on the last 20% overall, at the ``turn`` decision (the card to play) and
at the ``field`` decision.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from card_envs.agents.illimat.heuristic import IllimatHeuristic, IllimatLookahead  # noqa: E402
from card_envs.agents.neural import ActorCritic, entity_arrays  # noqa: E402
from card_envs.games.illimat.cards import NUM_ACTIONS  # noqa: E402
from card_envs.games.illimat.game import IllimatGame  # noqa: E402

TURN, FIELD = 0, 1  # decision indices (the env's docs list them in order)


TEACHERS = {"heuristic": IllimatHeuristic, "lookahead": IllimatLookahead}
ALL_PIECES = {"harvest_features": True, "play_features": True, "threat_features": True}


def collect(games: int, seed: int, teacher_name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    game = IllimatGame(**ALL_PIECES)
    teacher, rng = TEACHERS[teacher_name](game), np.random.default_rng(seed)
    decision = game.observation_layout.slices["decision"]
    rows: list[tuple] = []
    for _ in tqdm(range(games), desc=f"{teacher_name} games", unit="game"):
        state = game.new_state(rng)
        while not state.is_terminal():
            obs, mask = state.observation(state.current_player), state.legal_mask()
            action = teacher.act(obs, mask, rng)
            if mask.sum() > 1:
                rows.append((obs, mask, action, int(obs[decision].argmax())))
            state.apply(int(action))
    obs, masks, actions, decisions = zip(*rows)
    return np.array(obs), np.array(masks, dtype=bool), np.array(actions), np.array(decisions)


def imitate(name: str, x: torch.Tensor, masks: torch.Tensor, y: torch.Tensor, decisions: np.ndarray,
            epochs: int, entities_of: IllimatGame | None = None) -> None:
    """Fits an MLP, or with `entities_of` the trainer's network with that game's entity heads."""
    torch.manual_seed(0)
    split = int(len(y) * 0.8)
    if entities_of is None:
        model = net = nn.Sequential(nn.Linear(x.shape[1], 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                                    nn.Linear(256, NUM_ACTIONS))
    else:
        model = ActorCritic(x.shape[1], NUM_ACTIONS, (256, 256), entities=entity_arrays(entities_of))
        net = lambda inputs: model.heads(inputs)[0]  # noqa: E731
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    held_out = decisions[split:]
    for epoch in range(epochs):
        for batch in torch.randperm(split).split(256):
            logits = net(x[batch]).masked_fill(~masks[batch], -1e9)
            loss = nn.functional.cross_entropy(logits, y[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            agree = (net(x[split:]).masked_fill(~masks[split:], -1e9).argmax(1) == y[split:]).numpy()
        print(f"{name:18s} epoch {epoch}: held-out agreement {agree.mean():.3f}, "
              f"turn {agree[held_out == TURN].mean():.3f}, field {agree[held_out == FIELD].mean():.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=250, help="scripted games to collect (default 250)")
    parser.add_argument("--epochs", type=int, default=8, help="passes over the training decisions (default 8)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the deals (default 0)")
    parser.add_argument("--teacher", choices=sorted(TEACHERS), default="heuristic", help="whose choices (default heuristic)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    start = time.perf_counter()
    obs, masks, actions, decisions = collect(args.games, args.seed, args.teacher)
    print(f"{len(actions)} decisions in {time.perf_counter() - start:.0f} s")
    harvest = IllimatGame(harvest_features=True)
    plain, with_harvest = IllimatGame().observation_layout.size, harvest.observation_layout.size
    x, m, y = torch.from_numpy(obs), torch.from_numpy(masks), torch.from_numpy(actions)
    imitate("plain", x[:, :plain], m, y, decisions, args.epochs)
    imitate("harvest_features", x[:, :with_harvest], m, y, decisions, args.epochs)
    imitate("harvest, entities", x[:, :with_harvest], m, y, decisions, args.epochs, harvest)
    plays = IllimatGame(harvest_features=True, play_features=True)
    imitate("+ play, entities", x[:, :plays.observation_layout.size], m, y, decisions, args.epochs, plays)
    imitate("+ threat, entities", x, m, y, decisions, args.epochs, IllimatGame(**ALL_PIECES))


if __name__ == "__main__":
    main()
