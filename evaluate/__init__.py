"""Evaluation: ``python -m evaluate <env_id> <player> <player> ...`` (see `evaluate.__main__`).

- `evaluate.players`: player specs, checkpoint files and folders.
- `evaluate.runner`: fair seatings (teams, rotations, paired deals), chunks, worker processes,
  replays (``--record``; ``--html``: a page beside each, `card_envs.replay_html`).
- `evaluate.ratings`: Bradley-Terry Elo (hand-written MLE with Hessian intervals) and openskill.
- `evaluate.report`: W/D/L, Wilson intervals, tables, JSON/Markdown/PNG files written atomically.
"""
