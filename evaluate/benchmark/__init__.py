"""The benchmark (``python -m card_envs.evaluate.benchmark``; docs/benchmark.md): a versioned protocol
and its standard score.

- `card_envs.evaluate.benchmark.protocol`: ``card_envs-bench-v1`` as data: per game its setting, opponent
  panel, deals, evaluation seeds and normalization anchors.
- `card_envs.evaluate.benchmark.play`: the protocol's matches, on `card_envs.evaluate.runner`.
- `card_envs.evaluate.benchmark.scores`: raw results, normalized scores, rliable's aggregates and profile.
- `card_envs.evaluate.benchmark.report`: results.json, results.md, the performance-profile plot.
"""
