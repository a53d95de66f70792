"""Where does an Illimat checkpoint choose otherwise than the `lookahead` bot it was cloned from, and
what does that cost by the bot's own reckoning?
A research probe; its findings are on docs/results/illimat_v0.md.

    python experiments/illimat_disagreements.py                           # the shipped checkpoint, 256 games (~1 min)
    python experiments/illimat_disagreements.py runs/NAME/checkpoints/latest.pt --games 512

The checkpoint plays ``--games`` games greedily against the scripted agent (its seat alternating),
as in DAgger (`card_envs.train.pretrain.play_student`), and the bot labels each of its decisions. Printed:
the agreement per decision kind; then, at the card to play (the ``turn`` decision, when both chose
a card), the bot's *regret* for the checkpoint's card (the bot's score of its best plan, less its
best plan with that card: the score is the scripted agent's gain less the next player's expected
best harvest, in card weights) and the bot's *margin* (its best plan's score less its best with
another card) where the two disagree and where they agree.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import card_envs  # noqa: E402
from card_envs.agents import make_policy  # noqa: E402
from card_envs.agents.neural import NeuralPolicy  # noqa: E402
from card_envs.games.illimat.cards import DECISION_NAMES, NUM_CARDS, TURN  # noqa: E402
from card_envs.train.pretrain import play_student  # noqa: E402

PIECES = {"harvest_features": True, "play_features": True, "threat_features": True}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint", nargs="?", default="agents/checkpoints/illimat_v0.pt")
    parser.add_argument("--games", type=int, default=256)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    game = card_envs.make_game("illimat_v0", **PIECES)
    bot, student = make_policy("lookahead", game), NeuralPolicy.from_checkpoint(args.checkpoint, "illimat_v0")
    demos, record = play_student(game, student, bot, make_policy("heuristic", game), args.games, args.seed)
    views = demos.observations.astype(np.float32)
    chosen = student.act_batch(views, demos.masks, None)
    kinds = game.observation_layout.views(views)["decision"].argmax(1)
    print(f"{args.checkpoint}: won {record.win_rate:.3f} of {args.games} games against the scripted agent; "
          f"chose as lookahead in {record.agreement:.3f} of its {len(demos):,} decisions")
    for kind in np.unique(kinds):
        at = kinds == kind
        print(f"  {DECISION_NAMES[kind]:>12}: {at.sum():6,} decisions, agreement {np.mean(chosen[at] == demos.actions[at]):.3f}")
    cards = (kinds == TURN) & (chosen < NUM_CARDS) & (demos.actions < NUM_CARDS)
    regret, margin_apart, margin_agreed = [], [], []
    for row in np.flatnonzero(cards):
        plans = bot._plans(bot._read(views[row]))  # (score, plan) best first; a plan is (card, field, ..., partner, ...)
        best, best_card = plans[0][0], plans[0][1][0]
        margin = best - max((score for score, plan in plans if plan[0] != best_card), default=best)
        if chosen[row] == demos.actions[row]:
            margin_agreed.append(margin)
        else:
            margin_apart.append(margin)
            regret.append(best - max(score for score, plan in plans if chosen[row] in (plan[0], plan[3])))
    quartiles = lambda values: ", ".join(f"{q:.2f}" for q in np.quantile(values, [0.25, 0.5, 0.75]))  # noqa: E731
    print(f"the card to play, where they differ ({len(regret):,}): the bot's regret for the checkpoint's card, "
          f"quartiles {quartiles(regret)}; under 0.05 in {np.mean(np.array(regret) < 0.05):.3f}")
    print(f"the bot's margin for its card: where they differ {quartiles(margin_apart)}; "
          f"where they agree ({len(margin_agreed):,}) {quartiles(margin_agreed)}")


if __name__ == "__main__":
    main()
