"""Evaluation: ``python -m card_envs.evaluate <env_id> <player> <player> ...`` (see `card_envs.evaluate.__main__`).

- `card_envs.evaluate.players`: player specs, checkpoint files and folders.
- `card_envs.evaluate.runner`: fair seatings (teams, rotations, paired deals), chunks, worker processes,
  replays (``--record``; ``--html``: a page beside each, `card_envs.replay.html`).
- `card_envs.evaluate.ratings`: Bradley-Terry Elo (hand-written MLE with Hessian intervals) and openskill.
- `card_envs.evaluate.report`: W/D/L, Wilson intervals, tables, JSON/Markdown/PNG files written atomically.
"""
