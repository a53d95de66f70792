"""Does cloning the `lookahead` bot learn more from its scores than from its choices alone?
A research probe; its findings are on docs/results/illimat_v0.md.

    python experiments/illimat_soft_labels.py                    # 800 games, 6 passes, 600 test games (~20 min on 2 cores)
    python experiments/illimat_soft_labels.py --games 200 --test-games 100 --temperatures 0.3

The bot scores every plan of its turn (the scripted agent's gain less the next player's expected
best harvest, in card weights) and plays the best. A hard label says which action it took; a
soft one spreads the target over the legal actions by the best score of a plan through each,
softmax(score / T). `experiments/illimat_disagreements.py` found the clone missing the bot's close
calls: soft labels say how close each call was.

The bot plays ``--games`` games against itself (both seats; the observation with every piece),
each decision scored by `IllimatHeuristic.action_scores`: an action's score is that of the best
plan, allowed by the move chosen so far, whose next step it is; actions no plan goes through get
none, and decisions the plans do not decide (seasons, the Rake, swaps, claims) are one-hot. The
same network as the trainer's default (entity heads, 256x256), from the same start, is fitted to
them for ``--epochs`` passes with each target, by the trainer's own code (`card_envs.train.pretrain`, as
``--pretrain-temperature`` does; 5% held out). Each fit then plays ``--test-games`` games
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import card_envs  # noqa: E402
from card_envs.agents import make_policy  # noqa: E402
from card_envs.agents.match import wilson_interval  # noqa: E402
from card_envs.agents.neural import ActorCritic, NeuralPolicy, entity_arrays  # noqa: E402
from card_envs.train.pretrain import clone, play_student, play_teacher  # noqa: E402

PIECES = {"harvest_features": True, "play_features": True, "threat_features": True}


def fit(game, demos, temperature: float, epochs: int, seed: int) -> tuple[ActorCritic, float]:
    """The trainer's default network for Illimat, fitted from one start by `card_envs.train.pretrain.clone`
    (0: the bot's choices; above 0: softmax(score / T)); its held-out agreement with the choices."""
    torch.manual_seed(seed)
    network = ActorCritic(game.observation_size, game.num_actions, (256, 256), None, entity_arrays(game))
    history = clone(network, demos, epochs, seed, progress=True, temperature=temperature)
    return network.eval(), history[-1]["held_out_agreement"]


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
    demos = play_teacher(game, bot, args.games, args.seed, progress=True, scored=True)
    soft_share = float(np.mean(np.isfinite(demos.scores.astype(np.float32)).sum(1) > 1))
    print(f"{len(demos):,} decisions in {time.perf_counter() - began:.0f} s; {soft_share:.3f} with more than one "
          f"scored action")
    print("| target | held-out agreement | agreement on its own positions | win rate vs the scripted agent [95%] |")
    print("|---|---:|---:|---|")
    for temperature in [0.0, *args.temperatures]:
        network, agreement = fit(game, demos, temperature, args.epochs, args.seed)
        _, record = play_student(game, NeuralPolicy(network), bot, scripted, args.test_games, args.seed + 1)
        wins = int(np.sum(np.asarray(record.results) > 0))
        low, high = wilson_interval(wins, len(record.results))
        name = "hard (the choice)" if temperature == 0 else f"soft, T = {temperature:g}"
        print(f"| {name} | {agreement:.3f} | {record.agreement:.3f} | {record.win_rate:.3f} [{low:.3f}, {high:.3f}] |",
              flush=True)


if __name__ == "__main__":
    main()
