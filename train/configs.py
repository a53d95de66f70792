"""Per-game default training configurations, in one place.

``python -m train <env_id>`` starts from ``Args()`` overridden by ``DEFAULTS[env_id]`` and then by
the command line. Each entry is tuned so that, on a 2-core machine, it finishes within an hour;
the three_piles_v0 entry is the README's main job.
"""

from __future__ import annotations

from typing import Any

# An hour's run: the time limit or the step limit ends it, whichever comes first (3 Piles on the
# batched engine reaches 200M steps in about 40 minutes in bfloat16 on 2 cores with native bf16;
# in float32 on an AVX2-only 2-core machine, 39.5k steps/s, and the other games everywhere, stop
# at the time limit), and the learning rate decays to 0 by the same limit. The limit bounds the
# whole command: 54 minutes of training (cloning included) and 6 for the final evaluation.
HOUR = {"total_steps": 200_000_000, "max_minutes": 60, "num_games": 256, "num_steps": 32,
        "learning_rate": 5e-4, "ent_coef": 0.01, "eval_every": 2_000_000}

# Kickstarted against the scripted agent alone: it labels the learner's decisions and the learner
# imitates it (weight 1 decaying to 0 at `teacher_until` of the run) while PPO trains on the
# result. No self-play: on Dominion, once imitation had faded, self-play drifted to games of 300
# decisions that nobody ended and lost all it had (0.0 against the scripted agent).
KICKSTARTED = {**HOUR, "hidden": (256, 256), "teacher": "heuristic", "teacher_coef": 1.0,
               "opponent_share": 1.0, "opponents": ("heuristic",), "pool_size": 0}

# Cloning's settings (train/pretrain.py: the teacher's games, their fit, DAgger): what a run that
# must not clone (an exploiter, a speed benchmark) leaves out of a game's defaults.
CLONING = ("pretrain_games", "pretrain_epochs", "pretrain_temperature", "dagger_rounds", "dagger_games",
           "dagger_epochs")


def without_cloning(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` without cloning's settings (`CLONING`): it trains from scratch."""
    return {name: value for name, value in config.items() if name not in CLONING}


DEFAULTS: dict[str, dict[str, Any]] = {
    # Trained on the result (+1 / 0 / -1): the score difference learned no faster and plateaued
    # at parity with the scripted agent. Three games in four against the pool. bfloat16 matrix
    # products where the CPU has them (AVX512-BF16 or AMX): the learner's update is 1.5-2x faster,
    # which with the batched engine doubles the steps an hour trains; float32 elsewhere (on an
    # AVX2-only CPU, emulated bfloat16 is 6x slower than float32). On the batched engine the
    # learner is the bottleneck, so its update is compiled (--compile, 5-10% faster) and takes two
    # minibatches of about 2,350 decisions instead of four (15% faster again). The two minibatches
    # also learned more: the hour's run (seed 1) ended at 0.766 against the scripted agent, where
    # the same run with four ended at 0.672.
    "three_piles_v0": {**HOUR, "hidden": (128, 128), "update_epochs": 2, "num_minibatches": 2,
                       "opponent_share": 0.75, "opponents": ("heuristic",), "compute_dtype": "auto", "compile": True},
    # The learner's network plays both seats of its team; the pool (the scripted agent, random and
    # past snapshots) the other team in three games in four. Random is in the pool: trained against
    # the scripted agent alone, a 12-minute run beat random in only 76% of games.
    "piles_v0": {**HOUR, "hidden": (256, 256), "opponent_share": 0.75, "opponents": ("heuristic", "random")},
    # Cloned first (train/pretrain.py): the `lookahead` bot's own 5,000 games, played on both
    # cores (14.6 minutes), fitted for 4 passes before PPO (1.14M decisions, 22 minutes of the
    # hour in all) to softmax(score / 0.3) of the bot's score of each legal action
    # (`--pretrain-temperature`: its close calls read as close, where its choice alone said only
    # which action won; 0.924 agreement with its choices on held-out decisions), on an observation
    # with the harvest, play and threat pieces (what each hand card's harvest, stockpile or sow
    # would do in each field, and what each leaves the next player: the bot's own threat) and the
    # card and field actions scored by entity heads (agents.neural.EntityScorer); then PPO against
    # the scripted agent alone, gently (lr 2e-4, a small entropy bonus) so as not to unlearn the
    # clone, without labels: the hour's run ended at 0.602 against it over 2,000 games (3.8M
    # steps, 2.0k steps/s; docs/training_illimat_v0/soft_labels.md); since the pieces got faster,
    # a slower machine's hour reached 4.6M steps and 0.593 (faster_pieces.md). Fitted to the bot's choices
    # instead, the same recipe ended at 0.564 (before_soft_labels/ there). Why 5,000 games and
    # 4 passes: with 2,500 the held-out agreement stopped at 0.934 after the third pass while the
    # fit went on (the clone learned its games by heart) and the hour ended at 0.530. Their
    # observations are kept in float16 (5,808 floats each: 13 GB). The final evaluation plays 120
    # deals (480 games and the baselines' 240; about 2 minutes on 2 cores), so that the command
    # ends within the hour (games against random are slow: their crowded fields make the pieces
    # costly); the 2,000-game measure is `python -m evaluate` (README). Before
    # (docs/training_illimat_v0/history.md, probes.md): 0.530 with 2,500 games; 0.459 cloning the
    # scripted agent, before the threat pieces; 0.337 before the play pieces. DAgger after 4,000
    # of the bot's games (2 rounds of 2,000 of the clone's, hard labels) ended at 0.535: the clone
    # already chose as the bot on its own positions (dagger.md there).
    # Periodic evaluations: 30 deals every 1M steps. The two actors and the learner keep both cores
    # busy, and the evaluator (niceness 10) gets about a fifteenth of a core: the generic 200 deals
    # every 2M steps (about 5 CPU minutes with the baselines' own match) did not finish within the
    # time limit, and the run's TensorBoard curve had only its final point. With 30, the hour's run
    # logged three besides the final one and ended at 0.589 (periodic_evals.md).
    "illimat_v0": {**HOUR, "env_config": {"harvest_features": True, "play_features": True, "threat_features": True},
                   "hidden": (256, 256), "entity_heads": True, "teacher": "lookahead", "teacher_coef": 0.0,
                   "pretrain_games": 5000, "pretrain_epochs": 4, "pretrain_temperature": 0.3,
                   "opponent_share": 1.0, "opponents": ("heuristic",),
                   "pool_size": 0, "learning_rate": 2e-4, "ent_coef": 0.003, "actors": 2,
                   "eval_every": 1_000_000, "eval_deals": 30, "final_eval_deals": 120},
    # Cloned first, as Illimat (2,000 of the scripted agent's games), then PPO with a quarter of
    # the games in self-play and the rest against the scripted agent or past snapshots, gently
    # (lr 2e-4, a small entropy bonus). Trained against the scripted agent alone instead, it did
    # as well against it (0.452) but handed the game to the third seat whenever two copies of it
    # sat at one table (the scripted agent won 97% of those games, random 47%). Without cloning:
    # 0.267 (self-play with a pool, 25 minutes), kickstarted 0.191; parity is 1/3 with 3 players.
    "split_the_hoard_v0": {**HOUR, "hidden": (256, 256), "teacher": "heuristic", "teacher_coef": 0.0,
                           "pretrain_games": 2000, "pretrain_epochs": 8, "opponent_share": 0.75,
                           "opponents": ("heuristic",), "pool_size": 4, "learning_rate": 2e-4,
                           "ent_coef": 0.003},
    # Self-play with a pool reached 0.057 against the scripted agent in 25 minutes on one core.
    "dominion_v0": {**KICKSTARTED, "teacher_until": 0.5},
}
