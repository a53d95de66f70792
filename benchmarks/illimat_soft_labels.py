"""Does cloning the `lookahead` bot learn more from its scores than from its choices alone?

    python benchmarks/illimat_soft_labels.py                    # 800 games, 6 passes, 600 test games (~20 min on 2 cores)
    python benchmarks/illimat_soft_labels.py --games 200 --test-games 100 --temperatures 0.3

The bot scores every plan of its turn (the scripted agent's gain less the next player's expected
best harvest, in card weights) and plays the best. A hard label says which action it took; a
soft one spreads the target over the legal actions by the best score of a plan through each,
softmax(score / T). `benchmarks/illimat_disagreements.py` found the clone missing the bot's close
calls: soft labels say how close each call was.

The bot plays ``--games`` games against itself (both seats; the observation with every piece),
each decision scored by `IllimatHeuristic.action_scores`: an action's score is that of the best
plan, allowed by the move chosen so far, whose next step it is; actions no plan goes through get
none, and decisions the plans do not decide (seasons, the Rake, swaps, claims) are one-hot. The same network as the
trainer's default (entity heads, 256x256), from the same start, is fitted to the first 90% of the
decisions for ``--epochs`` passes with each target. Each fit then plays ``--test-games`` games
greedily against the scripted agent (seats alternating, the same deals for each, labelled by the
bot as in DAgger). Printed: held-out agreement with the bot's choices, agreement on its own
positions, and the win rate with its Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import card_envs  # noqa: E402
from agents import make_policy  # noqa: E402
from agents.match import wilson_interval  # noqa: E402
from agents.neural import ActorCritic, NeuralPolicy, entity_arrays  # noqa: E402
from card_envs.vector import VectorGames  # noqa: E402
from train.policy_terms import mask_offsets  # noqa: E402
from train.pretrain import play_student  # noqa: E402

PIECES = {"harvest_features": True, "play_features": True, "threat_features": True}


def bot_games(game, bot, games: int, seed: int):
    """(observations float16, masks, choices, scores float32) of every decision of ``games`` games."""
    rng = np.random.default_rng(seed)
    vector = VectorGames(game, min(games, 64), seed=seed)
    rows, finished = [], 0
    with tqdm(total=games, desc="bot games", unit="game") as bar:
        while finished < games:
            observations, masks, _ = vector.observe()
            actions = np.empty(vector.num_games, np.int64)
            for i in range(vector.num_games):
                actions[i], scores = bot.action_scores(observations[i], masks[i].astype(np.int8), rng)
                rows.append((observations[i].astype(np.float16), masks[i].copy(), int(actions[i]), scores))
            done, _, _ = vector.step(actions)
            finished += int(done.sum())
            bar.update(int(done.sum()))
    x, m, y, s = zip(*rows)
    return np.stack(x), np.stack(m), np.array(y), np.stack(s)


def targets(choices: np.ndarray, scores: np.ndarray, temperature: float | None) -> torch.Tensor:
    """Soft targets softmax(score / T) over the scored actions; None: one-hot of the bot's choice."""
    if temperature is None:
        return torch.nn.functional.one_hot(torch.from_numpy(choices), scores.shape[1]).float()
    return torch.softmax(torch.from_numpy(scores) / temperature, dim=1)


def fit(game, data, train_rows, target: torch.Tensor, epochs: int, seed: int) -> ActorCritic:
    torch.manual_seed(seed)
    network = ActorCritic(game.observation_size, game.num_actions, (256, 256), None, entity_arrays(game))
    optimizer = torch.optim.Adam(network.parameters(), lr=1e-3)
    x, masks = torch.from_numpy(data[0]), torch.from_numpy(data[1])
    generator = torch.Generator().manual_seed(seed)
    for _ in tqdm(range(epochs), desc="fit", unit="pass", leave=False):
        for batch in train_rows[torch.randperm(len(train_rows), generator=generator)].split(256):
            logits, _ = network.heads(x[batch].float())
            log_p = torch.log_softmax(logits + mask_offsets(masks[batch]), dim=1)
            loss = -(target[batch] * log_p).sum(1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return network.eval()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=800)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--test-games", type=int, default=600)
    parser.add_argument("--temperatures", type=float, nargs="+", default=[0.3, 1.0])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(2)
    game = card_envs.make_game("illimat_v0", **PIECES)
    bot, scripted = make_policy("lookahead", game), make_policy("heuristic", game)
    began = time.perf_counter()
    data = bot_games(game, bot, args.games, args.seed)
    soft_share = float(np.mean(np.isfinite(data[3]).sum(1) > 1))
    print(f"{len(data[2]):,} decisions in {time.perf_counter() - began:.0f} s; {soft_share:.3f} with more than one "
          f"scored action")
    order = torch.randperm(len(data[2]), generator=torch.Generator().manual_seed(args.seed))
    held, train_rows = order[:len(order) // 10], order[len(order) // 10:]
    print("| target | held-out agreement | agreement on its own positions | win rate vs the scripted agent [95%] |")
    print("|---|---:|---:|---|")
    for temperature in [None, *args.temperatures]:
        network = fit(game, data, train_rows, targets(data[2], data[3], temperature), args.epochs, args.seed)
        policy = NeuralPolicy(network)
        chosen = policy.act_batch(data[0][held.numpy()].astype(np.float32), data[1][held.numpy()], None)
        agreement = float(np.mean(chosen == data[2][held.numpy()]))
        _, record = play_student(game, policy, bot, scripted, args.test_games, args.seed + 1)
        wins = int(np.sum(np.asarray(record.results) > 0))
        low, high = wilson_interval(wins, len(record.results))
        name = "hard (the choice)" if temperature is None else f"soft, T = {temperature:g}"
        print(f"| {name} | {agreement:.3f} | {record.agreement:.3f} | {record.win_rate:.3f} [{low:.3f}, {high:.3f}] |",
              flush=True)


if __name__ == "__main__":
    main()
