"""Per-game default training configurations, in one place.

``python -m train <env_id>`` starts from ``Args()`` overridden by ``DEFAULTS[env_id]`` and then by
the command line. The three_piles_v0 entry is the README's main job: tuned so that, on a 2-core
machine, it finishes within an hour and its final checkpoint beats the scripted agent.
"""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, dict[str, Any]] = {
    "three_piles_v0": {
        # Trained on the score difference (a denser signal than win/loss; its sign is the
        # result, so win rates are unchanged), three games in four against the opponent pool.
        "env_config": {"reward": "score"},
        "total_steps": 40_000_000,
        "max_minutes": 50,  # whichever comes first; the learning rate reaches 0 either way
        "num_games": 256,
        "num_steps": 32,
        "hidden": (128, 128),
        "learning_rate": 5e-4,
        "update_epochs": 2,
        "num_minibatches": 4,
        "ent_coef": 0.01,
        "opponent_share": 0.75,
        "opponents": ("heuristic",),
        "eval_every": 1_000_000,
    },
}
