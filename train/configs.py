"""Per-game default training recipes, in one place.

``python -m card_envs.train <env_id>`` starts from ``Args()`` overridden by ``DEFAULTS[env_id]`` and then by
the command line; ``--recipe NAME`` takes ``RECIPES[env_id][NAME]`` instead of ``DEFAULTS[env_id]``. A named
recipe may be a sequence of stages (`Stages`), trained one after another (train/stages.py).
Each entry is tuned to finish within an hour on a 2-core machine and is the
recipe of the game's shipped checkpoint (agents/checkpoints/<env_id>.pt); the three_piles_v0 entry
is the README's main job. Each game's results and the history of its recipe:
docs/results/<env_id>.md.
"""

from __future__ import annotations

from typing import Any

# An hour's run: the step limit or the time limit ends it, whichever comes first, and the learning
# rate decays to 0 by the same limit. The time limit bounds the whole command: 54 minutes of
# training (cloning included) and 6 for the final evaluation. Only 3 Piles in bfloat16 reaches the
# step limit (in about 40 minutes); the other games, and 3 Piles in float32, stop at the time limit.
HOUR = {"total_steps": 200_000_000, "max_minutes": 60, "num_games": 256, "num_steps": 32,
        "learning_rate": 5e-4, "ent_coef": 0.01, "eval_every": 2_000_000}

# Kickstarted against the scripted agent alone: it labels the learner's decisions and the learner
# imitates it (weight 1 decaying to 0 at `teacher_until` of the run) while PPO trains on the
# result. No self-play or snapshots: on Dominion, once imitation had faded, self-play lost all it
# had imitated, in games that nobody ended.
KICKSTARTED = {**HOUR, "hidden": (256, 256), "teacher": "heuristic", "teacher_coef": 1.0,
               "opponent_share": 1.0, "opponents": ("heuristic",), "pool_size": 0}

# Cloning's settings (train/pretrain.py: the teacher's games, their fit, DAgger): what a run that
# must not clone (an exploiter, a speed benchmark) leaves out of a game's defaults.
CLONING = ("pretrain_games", "pretrain_epochs", "pretrain_temperature", "dagger_rounds", "dagger_games",
           "dagger_epochs")


def without_cloning(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` without cloning's settings (`CLONING`): it trains from scratch."""
    return {name: value for name, value in config.items() if name not in CLONING}


# Fine-tuning weights already trained (an exploiter that starts from a checkpoint's), so as not to
# unlearn the start: gently, at most the learning rate and entropy bonus of the recipes that start
# from a clone (Illimat's, Split the Hoard's), and on Monte-Carlo returns (GAE's lambda 1 over
# rollouts of `WHOLE_GAMES` decisions a game, as many decisions in all), not on the critic's guesses:
# a critic trained against other opponents (or on other deals) is wrong about this one, and
# bootstrapping from it at the end of every short rollout led PPO astray. Dominion's exploiters of
# Smithy-BM on T1-A, from the shipped checkpoint (0.523 against it), fell to 0.376-0.429 within 2M
# steps at the recipe's 5e-4 and 0.01 (32-decision rollouts, lambda 0.95). At 2e-4 and 0.003 one fell
# to 0.350 in 1.5M steps (its start: 0.490 on those 400 games), and its reward in training fell at 5e-5
# too; with lambda 1 over 256 decisions the reward held and the exploiter ended at 0.507.
GENTLE = {"learning_rate": 2e-4, "ent_coef": 0.003}
WHOLE_GAMES = 256


def fine_tuning(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` (with its ``num_games`` and ``num_steps``, as every recipe here has) for fine-tuning:
    its learning rate and entropy bonus at most `GENTLE`'s, lambda 1, rollouts of at least
    `WHOLE_GAMES` decisions a game with as many decisions in all (the games a multiple of ``actors``)."""
    tuned = {**config, **{name: min(config.get(name, most), most) for name, most in GENTLE.items()}, "gae_lambda": 1.0}
    steps = max(config["num_steps"], WHOLE_GAMES)
    actors = max(1, config.get("actors", 1))
    games = max(actors, config["num_games"] * config["num_steps"] // steps)
    return {**tuned, "num_steps": steps, "num_games": games - games % actors}


DEFAULTS: dict[str, dict[str, Any]] = {
    # Self-play PPO on the result (+1 / 0 / -1), three games in four against the pool (the scripted
    # agent and past snapshots). On the batched engine the learner is the bottleneck, so its update
    # is made cheap: bfloat16 matrix products where the CPU runs them faster (`auto`: float32
    # elsewhere; emulated bfloat16 is 6x slower), the loss compiled, and two minibatches per
    # pass instead of four, which also learned more (0.766 against 0.672 vs the scripted agent).
    # Results and history: docs/results/three_piles_v0.md
    "three_piles_v0": {**HOUR, "hidden": (128, 128), "update_epochs": 2, "num_minibatches": 2,
                       "opponent_share": 0.75, "opponents": ("heuristic",), "compute_dtype": "auto", "compile": True},
    # Self-play PPO on the result; the learner's network plays both seats of its team, and in three
    # games in four the other team is the pool: the scripted agent, random and past snapshots.
    # Random stays in it: a 12-minute run against the scripted agent alone beat random in only 76%.
    # Results and history: docs/results/piles_v0.md
    "piles_v0": {**HOUR, "hidden": (256, 256), "opponent_share": 0.75, "opponents": ("heuristic", "random")},
    # Cloned first (train/pretrain.py): the `lookahead` bot's 5,000 games, fitted for 4 passes to
    # softmax(score / 0.3) of its score of each legal action, on the observation with the harvest,
    # play and threat pieces and with entity heads (PPO alone never came near the scripted agent).
    # Then PPO against the scripted agent and `lookahead`, each game's opponent drawn from the two
    # (against the scripted agent alone it never beat `lookahead`), gently (lr 2e-4, a small entropy
    # bonus, no labels) so as not to unlearn the clone, in two actor processes; evaluations small
    # enough (30 deals every 1M steps, 120 at the end) that the command ends within the hour.
    # Results and history: docs/results/illimat_v0.md
    "illimat_v0": {**HOUR, "env_config": {"harvest_features": True, "play_features": True, "threat_features": True},
                   "hidden": (256, 256), "entity_heads": True, "teacher": "lookahead", "teacher_coef": 0.0,
                   "pretrain_games": 5000, "pretrain_epochs": 4, "pretrain_temperature": 0.3,
                   "opponent_share": 1.0, "opponents": ("heuristic", "lookahead"),
                   "pool_size": 0, "learning_rate": 2e-4, "ent_coef": 0.003, "actors": 2,
                   "eval_every": 1_000_000, "eval_deals": 30, "final_eval_deals": 120},
    # Cloned first (2,000 of the scripted agent's games, 8 passes): PPO from scratch and
    # kickstarting stayed far below it. Then PPO, gently (lr 2e-4, a small entropy bonus) so as not
    # to unlearn the clone, with a quarter of the games in self-play and the rest against the
    # scripted agent or the 4 latest snapshots: trained against the scripted agent alone, it did
    # as well against it but handed the game to the third seat whenever two copies sat at a table.
    # Results and history: docs/results/split_the_hoard_v0.md
    "split_the_hoard_v0": {**HOUR, "hidden": (256, 256), "teacher": "heuristic", "teacher_coef": 0.0,
                           "pretrain_games": 2000, "pretrain_epochs": 8, "opponent_share": 0.75,
                           "opponents": ("heuristic",), "pool_size": 4, "learning_rate": 2e-4,
                           "ent_coef": 0.003},
    # Random kingdoms, a new one every game, from the nine tenths held in for training
    # (`kingdom="random_train"`; evaluations deal "random_test"): the agent of one kingdom (the `t1a`
    # recipe) lost to every bot on random kingdoms, and this one beats it on T1-A too.
    # Kickstarted by `heuristic`, which picks its bot from each game's Supply, for the first
    # third of the hour; every game's opponents drawn from all seven scripted bots (each
    # kingdom calls for another one) and, in a fifth of the games, from past snapshots.
    # Results and history: docs/results/dominion_v0.md
    "dominion_v0": {**KICKSTARTED, "env_config": {"kingdom": "random_train"}, "teacher_until": 0.3,
                    "opponent_share": 0.8, "pool_size": 4,
                    "opponents": ("heuristic", "bmu", "smithy_bm", "big_smithy", "witch_bm", "catapult_bm",
                                  "townsfolk_bm")},
}


# A recipe of stages trained one after another, each a (name, settings) pair with settings like a
# DEFAULTS entry: stage k > 1 starts from stage k-1's final checkpoint (its weights, a fresh
# optimizer, no cloning: ``init_from``); each has its own limits (``max_minutes``) and run folder.
Stages = tuple[tuple[str, dict[str, Any]], ...]

# A game's further named recipes (``python -m card_envs.train <env_id> --recipe <name>``), each a whole
# recipe like a DEFAULTS entry, or its `Stages`; its results have their own section of the game's
# results page.
RECIPES: dict[str, dict[str, dict[str, Any] | Stages]] = {
    "dominion_v0": {
        # One kingdom, the default T1-A (`KICKSTARTED`): the scripted agent (Smithy-BM there) labels
        # every decision for the first half of the hour, every game is played against it, and PPO
        # trains on the result throughout. Self-play PPO from scratch stayed far below it, and
        # nothing tried on T1-A alone (fresh clones, the privileged critic, fine-tuning) passed parity.
        "t1a": {**KICKSTARTED, "teacher_until": 0.5},
    },
    "illimat_v0": {
        # The shipped checkpoint's two hours: the default hour, then an hour of PPO against
        # `lookahead` alone from its final checkpoint, every other setting the default's (the
        # curve of the first hour was still rising at its end; against `lookahead` alone it went
        # from 0.548 to 0.604 against it).
        "shipped": (("default", DEFAULTS["illimat_v0"]),
                    ("vs_lookahead", {**DEFAULTS["illimat_v0"], "opponents": ("lookahead",)})),
    },
}


# What learning from the game's result alone leaves out of a game's defaults besides cloning: the
# teacher's labels (kickstarting) and the teacher itself.
TEACHING = ("teacher", "teacher_coef", "teacher_until")


def reward_only(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` learning from the game's result alone, as sb3-contrib's MaskablePPO does on the
    gymnasium view: without cloning (`without_cloning`) and without a teacher's labels (`TEACHING`);
    the same network, opponents, learning rate, game arguments and everything else."""
    return {name: value for name, value in without_cloning(config).items() if name not in TEACHING}


# Every game's ``reward_only`` recipe, derived from its default one (`reward_only`): our PPO in the
# benchmark's comparison of two algorithms at a fixed budget (docs/benchmark.md; its sweep,
# card_envs.evaluate.benchmark.sweep, sets the budget).
for _env_id, _defaults in DEFAULTS.items():
    RECIPES.setdefault(_env_id, {})["reward_only"] = reward_only(_defaults)

# Evaluations deal what training held out: per game, an ``env_config`` setting that trains on a part
# of the deals -> the value the trainer's evaluations (periodic and final) deal instead
# (`evaluation_config`; train/evaluating.py). Dominion's "random_train" kingdoms never include the
# tenth that "random_test" deals (`card_envs.games.dominion.rules.held_out`).
HELD_OUT: dict[str, dict[str, dict[str, Any]]] = {
    "dominion_v0": {"kingdom": {"random_train": "random_test"}},
}


def evaluation_config(env_id: str, config: dict[str, Any]) -> dict[str, Any]:
    """The game arguments the trainer's evaluations play: ``config`` with each held-in setting
    replaced by its held-out one (`HELD_OUT`); unchanged for every other setting and game."""
    held_out = dict(config)
    for name, swaps in HELD_OUT.get(env_id, {}).items():
        value = held_out.get(name)
        if isinstance(value, str) and value in swaps:
            held_out[name] = swaps[value]
    return held_out


def recipe(env_id: str, name: str = "") -> dict[str, Any] | Stages:
    """The game's default recipe, or its named one (KeyError where the game has none of that name)."""
    return RECIPES[env_id][name] if name else DEFAULTS.get(env_id, {})


def stages(env_id: str, name: str = "") -> Stages:
    """The recipe as its stages: one, named "", for a recipe of one (KeyError as `recipe`)."""
    chosen = recipe(env_id, name)
    return chosen if isinstance(chosen, tuple) else (("", chosen),)


def recipe_names(env_id: str) -> list[str]:
    return list(RECIPES.get(env_id, {}))


def recipes_text(env_id: str) -> str:
    """The game's named recipes for --help, a staged one with its stages; "none" where it has none."""
    texts = [f"{name!r}" + (f" ({len(parts)} stages: {', '.join(part for part, _ in parts)})"
                            if len(parts := stages(env_id, name)) > 1 else "") for name in recipe_names(env_id)]
    return ", ".join(texts) or "none"
