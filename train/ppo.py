"""Self-play PPO with a masked actor-critic, for any registered card_envs game.

    python -m card_envs.train                                  # three_piles_v0 with its default config
    python -m card_envs.train three_piles_v0 --total-steps 2000000 --seed 3
    python -m card_envs.train three_piles_v0 --run-name mine --resume   # continue a killed run
    python -m card_envs.train illimat_v0 --init-from shipped:illimat_v0   # fine-tune a shipped checkpoint
    python -m card_envs.train illimat_v0 --recipe shipped   # a recipe of stages, one after another
    tensorboard --logdir runs

How it works (in the spirit of CleanRL's single-file PPO: the loop is this file; its options and command
line are `card_envs.train.options`, its time limit `card_envs.train.timeplan`, its checkpoints
`card_envs.train.checkpoints`, its evaluations `card_envs.train.evaluating` and its recipes of
stages `card_envs.train.stages`):

- ``num_games`` games are stepped together; in each, one seat must act, and one batched forward
  pass serves every seat that the learner controls. ``--engine batch`` steps them with the game's
  batched engine (`card_envs.batch`, numba kernels on the CPU; `card_envs.batch.ENGINES` names the
  games with one), ``--engine reference`` with the rules engines (`card_envs.vector.VectorGames`); the default
  (``auto``) is the batched engine where the game has one and numba is installed. Same rules,
  observations and masks, so nothing else changes: pool, evaluation (always on the reference
  engine) and checkpoints are the same.
- Each (game, seat) pair is its own trajectory: a seat's next state is its next decision, not
  the opponent's. Rewards are terminal, and the terminal (team) reward reaches the last decision
  of every seat. GAE runs backwards along each seat's trajectory; at the end of a rollout,
  unfinished trajectories bootstrap from the value of that seat's current observation.
- Illegal actions have the lowest logit, so they are never sampled.
- An opponent pool: in a share ``opponent_share`` of the games, the seats outside one learner
  seat's team are played by a scripted agent from `agents/` or a frozen past snapshot of the
  network; their decisions are not trained on.
- Every ``eval_every`` steps the greedy policy plays seat-rotated, paired games against random
  and the game's scripted agent (win rate with its Wilson 95% interval, logged under ``eval/``),
  and its Bradley-Terry rating against those baselines (``eval/elo``, random anchored at 0).
  These evaluations run beside training in a low-priority process (`card_envs.train.evaluating`), logged
  at the step whose weights they played; ``--no-eval-process`` plays them in the learner, which
  pauses meanwhile. The final evaluation plays the saved checkpoint once the actor has stopped,
  with ``python -m card_envs.evaluate``'s runner in one process per core (`evaluating.evaluate_checkpoint`).
- Two processes by default (``--actors 1``, `card_envs.train.acting`): an actor plays rollout k+1 with
  the weights after update k-1 while this learner trains on rollout k, so both cores work; the
  one-update lag is absorbed by PPO's importance ratio. ``--actors 0`` plays in this process.
- The loss of a minibatch is one function (`card_envs.train.loss`); ``--compile`` hands it to
  torch.compile, which fuses its forward and backward passes (where the learner, not the games,
  limits the speed: 3 Piles on the batched engine).
- An observation covers every card of the game, so it is mostly zeros: the first layer multiplies
  the columns non-zero somewhere in the rollout (`active_columns`) or, with entity heads, where it
  is sparse enough, each row's non-zero entries (`card_envs.train.sparse_linear`); entity heads score
  the legal actions alone. Illimat's minibatch takes an eighth of the time it took dense.
- ``--max-minutes`` bounds the whole run (`timeplan.TimePlan`): training has 90% of it (cloning at most half
  of that: as many of the teacher's games as fit, the fit cut short at the end), the final
  evaluation 10% (as many deals as fit, at least a chunk of each pairing). The progress bar then
  counts seconds, to the end of training. The clock starts once the numba kernels are compiled
  (`acting.warm_up`: on a fresh install, once; later runs load them from numba's cache).
- Checkpoints go atomically to ``runs/<run>/checkpoints/`` (format: `card_envs.agents.neural`, with the
  sha256 of the weights). A NaN or infinite loss or weight stops the run (exit code 1) with a
  message naming the step and the last good checkpoint; nothing non-finite is ever saved.
- A resumed run's TensorBoard log hides what the killed run logged after its last checkpoint.
- ``--critic state``: the value comes from a separate privileged critic on the full game state
  (``game.state_layout``) and the seat; only training reads it, the policy acts on its own
  observation. Off by default: on 3 Piles it learned more slowly than the shared-trunk critic,
  and on Dominion, cloned with the policy (`card_envs.train.pretrain`) and then trained 16 minutes against
  the scripted agent, it ended at 0.245 against it where the shared trunk ended at 0.423.
- ``python -m card_envs.train.curve runs/<run>`` plots the ``eval/`` curve of a run.

A "step" is one decision asked of a seat (forced single-choice decisions are played by the env
and not counted); SPS counts all seats' steps, learner and opponents.
"""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

import card_envs
from card_envs.agents import policy_names
from card_envs.agents.neural import active_columns, load_checkpoint
from card_envs.evaluate.report import check_writable
from card_envs.train.acting import Rollout, game_engine, make_actor, make_network, torch_dtype, warm_up
from card_envs.train.checkpoints import Checkpoints, resumed_args
from card_envs.train.evaluating import (  # noqa: F401 - elo_ratings: public here too
    EvalProcess, Evaluations, elo_ratings, games_per_deal)
from card_envs.train.loss import compiled, minibatch_loss
from card_envs.train.sparse_linear import worth_it
from card_envs.train.options import (
    RESUMABLE, Args, build_parser, check_run_name, env_id_in, flag, hyperparameter_table, options_given, parse_args,
    resolve_auto, stop_on_signals)
from card_envs.train.policy_terms import mask_offsets
from card_envs.train.progress import RecentRate, TrainingProgress
from card_envs.train.stages import Chain, chain_of
from card_envs.train.pretrain import clone, student_games, teacher_games, workers_for
from card_envs.train.timeplan import (  # noqa: F401 - the shares: public here too
    CLONING_SHARE, FINAL_EVAL_SHARE, TEACHER_GAMES_SHARE, TimePlan, seconds_text, training_seconds)


# ----- advantage estimation -----------------------------------------------------------------
def seat_gae(values: np.ndarray, seats: np.ndarray, done: np.ndarray, returns: np.ndarray,
             bootstrap: np.ndarray, gamma: float, lam: float) -> np.ndarray:
    """GAE along each (game, seat) trajectory of a turn-based rollout.

    Args:
        values: [T, N] value of the decision taken at step t in game i.
        seats: [T, N] the seat that took it.
        done: [T, N] the game ended with that step (a fresh deal follows at t+1).
        returns: [T, N, P] terminal rewards of every seat where ``done``.
        bootstrap: [N, P] value of each seat's current observation after the rollout.

    A seat's successor is its own next decision in the same game; its reward arrives as the
    game's terminal reward on its last decision. Returns the advantages [T, N].
    """
    num_steps, num_games = values.shape
    rows = np.arange(num_games)
    next_value = bootstrap.astype(np.float64).copy()  # [N, P]: value of each seat's next decision
    next_advantage = np.zeros_like(next_value)
    pending_reward = np.zeros_like(next_value)  # terminal reward not yet given to a decision
    advantages = np.zeros((num_steps, num_games))
    for t in reversed(range(num_steps)):
        ended = done[t]
        next_value[ended] = 0.0
        next_advantage[ended] = 0.0
        pending_reward[ended] = returns[t][ended]
        seat = seats[t]
        delta = pending_reward[rows, seat] + gamma * next_value[rows, seat] - values[t]
        advantages[t] = delta + gamma * lam * next_advantage[rows, seat]
        pending_reward[rows, seat] = 0.0
        next_value[rows, seat] = values[t]
        next_advantage[rows, seat] = advantages[t]
    return advantages


# ----- the run ------------------------------------------------------------------------------
class TrainingDiverged(RuntimeError):
    """A loss or a weight became NaN or infinite: the run stops, and nothing of it is saved."""


class Trainer(Checkpoints, Evaluations):
    """The learner: PPO updates, evaluation (`Evaluations`), checkpoints (`Checkpoints`); an actor plays
    the games (`card_envs.train.acting`)."""

    def __init__(self, args: Args, checkpoint: dict[str, Any] | None = None):
        self.args = args
        torch.set_num_threads(args.threads)
        self.game = card_envs.make_game(args.env_id, **args.env_config)
        torch.manual_seed(args.seed)  # before the network: its initial weights come from the seed
        self.network = make_network(self.game, args)
        # fused: one kernel over all the parameters, 3x faster than the default per-tensor loop on a CPU.
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=args.learning_rate, eps=1e-5, fused=True)
        self.minibatch_loss = compiled(minibatch_loss) if args.compile else minibatch_loss
        self.pool_states: list[dict[str, torch.Tensor]] = []  # mirrors the actor's frozen snapshots
        self.step, self.update = 0, 0
        self.trained_seconds = 0.0  # wall time of training (cloning and PPO), in all runs (a resumed run's clock)
        # Cloning is done (or none asked); a run stopped during it clones again when resumed.
        self.cloned = not args.pretrain_games or bool(args.init_from)
        self.teacher_coef = args.teacher_coef if args.teacher else 0.0  # decays with the run (--teacher-until)
        self.rng = np.random.default_rng(args.seed)
        self.last_eval: dict[str, float] = {}
        if checkpoint is not None:
            self._restore(checkpoint)
        elif args.init_from:  # a new run only: a resume has its own weights, and needs this file no more
            self._load_weights(load_checkpoint(args.init_from, args.env_id), args.init_from)
        self.run_dir = Path(args.runs_dir) / args.run_name
        self.last_checkpoint = self.run_dir / "checkpoints" / "latest.pt" if checkpoint is not None else None
        self.actor = None
        self.evaluator: EvalProcess | None = None  # --eval-process: evaluations beside training
        self.eval_due = False  # an evaluation fell due while the evaluator was busy
        self.baseline_results: dict[tuple[str, str], tuple[int, int, int]] | None = None  # for the Elo
        self.stop_requested: str | None = None  # a signal's name: stop after this update, keep it
        self.finishing = False  # trained to the end and saved: only the final evaluation is left
        self.final_deals = 0  # the final evaluation's deals (fewer than asked where --max-minutes cut it)
        self.progress: TrainingProgress | None = None  # the bar or plain lines, while training
        self.warmed = None  # the numba kernels' warm-up (`acting.warm_up`), done as training starts
        self._start_clock()

    def _start_clock(self) -> None:
        """From now, this process's training time adds to ``trained_seconds``, and the run's
        `TimePlan` counts what is left of --max-minutes."""
        self.began, self.seconds_before = time.perf_counter(), self.trained_seconds
        self.plan = TimePlan.of(self.args.max_minutes, self.trained_seconds, self.began)

    def _tick(self) -> None:
        self.trained_seconds = self.seconds_before + time.perf_counter() - self.began

    def start_actor(self) -> None:
        # The actor's seed depends on where the run (re)starts, so a resumed run deals new games.
        seed = int(np.random.default_rng([self.args.seed, self.update]).integers(2**63))
        self.actor = make_actor(self.args.actors, self.game, self.args, seed, self.pool_states,
                                self.network.state_dict(), self.update, teaching=self.teacher_coef > 0)

    def stop_actor(self) -> None:
        if self.actor is not None:
            self.actor.close()
            self.actor = None

    # ----- main loop --------------------------------------------------------------------
    def train(self, writer=None) -> dict[str, float]:
        self.warmed = warm_up(self.args)  # numba compiles on a fresh install: before the clock starts
        self._start_clock()
        if self.args.max_minutes:
            print(self._plan_text())
        if not self.cloned and self.update == 0:
            self.pretrain(writer)
            if self.stop_requested:  # unfitted: saved so (``cloned``), for --resume to clone again
                self.save()
                return {}
        self._follow_schedules()  # a run resumed after its teaching ended must not start labelling
        self.start_actor()
        if self.args.eval_process and self.args.eval_every:
            self.evaluator = EvalProcess(self.args)
        try:
            return self._train(writer)
        finally:
            self.stop_actor()
            self.stop_evaluator()

    def _train(self, writer) -> dict[str, float]:
        args = self.args
        steps_per_update = args.num_steps * args.num_games
        total_updates = self.total_updates
        next_eval = (self.step // args.eval_every + 1) * args.eval_every if args.eval_every else None
        next_checkpoint = (self.step // args.checkpoint_every + 1) * args.checkpoint_every
        self.progress = progress = self._progress()
        rate, start_step, sps = RecentRate(self.step), self.step, 0.0
        # The time limit counts the run's whole training time: a resumed run goes on with its clock.
        deadline = self.plan.training
        while self.update < total_updates and time.perf_counter() < deadline and not self.stop_requested:
            self._tick()
            self._follow_schedules()
            rollout, stats = self.actor.next_rollout()
            losses = self._learn_or_stop(rollout)
            self.update += 1
            self.step += steps_per_update
            self._publish()
            sps = rate.add(self.step)
            self._tick()  # for the checkpoints
            if writer is not None:
                self._log(writer, losses, stats, sps)
            if next_eval is not None and self.step >= next_eval:
                self.eval_due = True
                next_eval += args.eval_every
            self._periodic_eval(writer)
            if self.step >= next_checkpoint:
                self.say(f"checkpoint at step {self.step:,}: {self.save()}")
                next_checkpoint += args.checkpoint_every
            progress.advance(round(self.trained_seconds) if args.max_minutes else self.step, self._postfix(sps))
        self.stop_actor()  # before the final evaluation: it gets the machine to itself
        if self.stop_requested:  # interrupted: keep the work, skip the final evaluation
            self.stop_evaluator()
            self.save()
            progress.close()
            return {}
        if self.step == start_step and self.last_eval:  # a finished run resumed: its final evaluation stands
            progress.close()
            return self.last_eval
        # The trained weights are kept before the final evaluation (minutes on some games): a stop
        # signal from here on interrupts the evaluation at once (`stop_on_signals`).
        self.save()
        self.finishing = True
        if self.stop_requested:  # came while saving
            raise KeyboardInterrupt
        self._finish_periodic_evals(writer, out_of_time=time.perf_counter() >= deadline)
        self._final_eval(writer)
        self.save()
        progress.close(self._postfix(sps))
        return self.last_eval

    def _learn_or_stop(self, rollout: Rollout) -> dict[str, float]:
        """`learn`, raising `TrainingDiverged` on a non-finite loss or weight, before the weights
        reach the actor or a checkpoint."""
        try:
            losses = self.learn(rollout)
            bad = [name for name, p in self.network.named_parameters() if not p.isfinite().all()]
            if bad:
                raise FloatingPointError(f"non-finite weights in {', '.join(bad)}")
        except FloatingPointError as error:
            raise TrainingDiverged(
                f"training diverged at step {self.step + self.args.num_steps * self.args.num_games:,} "
                f"(update {self.update + 1}): {error}; "
                f"last good checkpoint: {self.last_checkpoint or 'none (no checkpoint written yet)'}") from error
        return losses

    def learn(self, rollout: Rollout) -> dict[str, float]:
        args = self.args
        advantages = seat_gae(rollout.values, rollout.seats, rollout.done, rollout.returns,
                              rollout.bootstrap, args.gamma, args.gae_lambda)
        keep = rollout.learner
        # Inputs in the compute dtype once: the minibatches then gather half the bytes in bfloat16
        # (autocast would cast them to it anyway).
        dtype = torch_dtype(args.compute_dtype)
        observations = torch.from_numpy(rollout.observations[keep]).to(dtype)
        # The first layer multiplies the active columns alone (`active_columns`), in float32 only:
        # there its products differ from the actor's by float rounding, in bfloat16 by more.
        columns = active_columns(observations) if self.network.takes_columns and dtype == torch.float32 else None
        if columns is not None:
            observations = observations.index_select(1, columns)
        sparse = columns is None and len(self.network.trunk) > 0 and worth_it(observations)  # `sparse_linear`
        offsets = mask_offsets(torch.from_numpy(rollout.masks[keep]))  # the masks, once for all minibatches
        critic_inputs = torch.from_numpy(rollout.critic_inputs[keep]).to(dtype) if self.network.critic else None
        actions = torch.from_numpy(rollout.actions[keep])
        teacher_actions = torch.from_numpy(rollout.teacher_actions[keep])
        # The teacher labels all the learner's decisions of a rollout or none (its flag comes with the weights).
        imitating = self.teacher_coef > 0 and bool((teacher_actions >= 0).all())
        chosen = torch.stack([actions, teacher_actions], 1) if imitating else actions[:, None]
        old_log_probs = torch.from_numpy(rollout.log_probs[keep])
        old_values = rollout.values[keep]
        advantages = torch.from_numpy(advantages[keep]).float()
        targets = advantages + torch.from_numpy(old_values)
        size = len(actions)
        minibatch = max(1, size // args.num_minibatches)
        teacher_coef = torch.tensor(self.teacher_coef if imitating else 0.0)  # a tensor: no recompile as it decays
        clip_fractions = []
        for _epoch in range(args.update_epochs):
            order = torch.from_numpy(self.rng.permutation(size))
            for start in range(0, size - minibatch + 1, minibatch):
                idx = order[start:start + minibatch]
                # index_select: 6x faster than [idx] on rows
                loss, terms = self.minibatch_loss(
                    self.network, observations.index_select(0, idx),
                    None if critic_inputs is None else critic_inputs.index_select(0, idx),
                    offsets.index_select(0, idx), chosen.index_select(0, idx), old_log_probs[idx],
                    advantages[idx], targets[idx], teacher_coef, args.clip_coef, args.ent_coef, args.vf_coef,
                    args.compute_dtype, columns, sparse)
                clip_fractions.append(terms["clipfrac"].item())
                if not torch.isfinite(loss):  # before the step: the weights are still the last good ones
                    raise FloatingPointError(f"non-finite loss (policy {terms['policy_loss'].item():.3g}, "
                                             f"value {terms['value_loss'].item():.3g}, "
                                             f"entropy {terms['entropy'].item():.3g})")
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.network.parameters(), args.max_grad_norm)
                self.optimizer.step()
        explained = 1 - np.var(targets.numpy() - old_values) / (np.var(targets.numpy()) + 1e-8)
        losses = {name: terms[name].item() for name in ("policy_loss", "value_loss", "entropy", "approx_kl")}
        losses.update(clipfrac=float(np.mean(clip_fractions)), explained_variance=float(explained))
        if imitating:  # how often the acting policy already chose as the teacher does
            losses["imitation"] = terms["imitation"].item()
            losses["teacher_agreement"] = (actions == teacher_actions).float().mean().item()
        return losses

    def _publish(self) -> None:
        """Send the new weights to the actor; every ``snapshot_every`` updates they also join the
        opponent pool (the actor adds them on its side, this keeps a copy for checkpoints)."""
        weights = self.network.state_dict()
        self.actor.publish(weights, self.update, teaching=self.teacher_coef > 0)
        if self.args.pool_size and self.update % self.args.snapshot_every == 0:
            frozen = {k: v.clone() for k, v in weights.items()}
            self.pool_states = (self.pool_states + [frozen])[-self.args.pool_size:]

    def _log(self, writer, losses: dict[str, float], stats: dict[str, list], sps: float) -> None:
        for name, value in losses.items():
            writer.add_scalar(f"losses/{name}", value, self.step)
        writer.add_scalar("charts/SPS", sps, self.step)
        writer.add_scalar("charts/learning_rate", self.optimizer.param_groups[0]["lr"], self.step)
        if self.args.teacher:
            writer.add_scalar("charts/teacher_coef", self.teacher_coef, self.step)
        if stats["episode_length"]:
            writer.add_scalar("charts/episode_length", np.mean(stats["episode_length"]), self.step)
        if stats["pool_reward"]:
            writer.add_scalar("charts/reward_vs_pool", np.mean(stats["pool_reward"]), self.step)

    def _follow_schedules(self) -> None:
        """The learning rate and the teacher's weight at the run's progress (by whichever limit
        comes first): both decay linearly, the teacher's to 0 at ``teacher_until``."""
        args = self.args
        done = self.update / self.total_updates
        if args.max_minutes:
            done = max(done, self.trained_seconds / training_seconds(args.max_minutes))
        if args.anneal_lr:
            self.optimizer.param_groups[0]["lr"] = args.learning_rate * max(0.0, 1 - done)
        if self.teacher_coef:
            self.teacher_coef = args.teacher_coef * max(0.0, 1 - done / args.teacher_until) if args.teacher_until else 0.0

    @property
    def total_updates(self) -> int:
        return -(-self.args.total_steps // (self.args.num_steps * self.args.num_games))

    def _progress(self) -> TrainingProgress:
        """The run's progress, with one total from start to end: on --max-minutes, the training time
        (cloning's already counted; what ends such runs, the steps are in the postfix); else the steps."""
        args = self.args
        if args.max_minutes:
            total = round(training_seconds(args.max_minutes))
            return TrainingProgress(total, round(self.trained_seconds), seconds=True, enabled=args.progress)
        return TrainingProgress(args.total_steps, self.step, seconds=False, enabled=args.progress)

    def say(self, text: str) -> None:
        """An event of the run (an evaluation, a checkpoint) as a line of its own."""
        if self.progress is not None:
            self.progress.line(text)
        else:
            print(text, flush=True)

    def _plan_text(self) -> str:
        """One line: what the `TimePlan` of --max-minutes leaves each part of the run."""
        args, plan = self.args, self.plan
        parts = []
        if not self.cloned and self.update == 0:
            parts.append(f"cloning until {seconds_text(plan.cloning - self.began)} at most (its teacher's games until "
                         f"{seconds_text(plan.teacher_games - self.began)}: the {args.pretrain_games:,} asked or as "
                         "many as fit)")
        parts.append(f"training until {seconds_text(plan.training - self.began)}")
        parts.append(f"then the final evaluation {seconds_text(plan.final_eval_seconds)} "
                     f"(the {args.final_eval_deals:,} deals asked or as many as fit)")
        warmed = self.warmed
        after = f" (its clock started after {warmed.seconds:.1f} s of compiling)" if warmed and warmed.compiled else ""
        return f"--max-minutes {args.max_minutes:g}{after}: " + ", ".join(parts)

    # ----- cloning, before the first update ---------------------------------------------
    def pretrain(self, writer=None) -> None:
        """``--pretrain-games``: fit the network to the teacher's own games before the first
        update (`card_envs.train.pretrain`), then ``--dagger-rounds`` of corrections on the clone's own
        games, within cloning's share of ``--max-minutes`` (`TimePlan`: as many games as fit, the
        fit cut at a minibatch). A stop signal ends it at once, unfitted (``cloned`` stays False:
        the checkpoint says so, and a resumed run clones again, on a fresh clock)."""
        args, began = self.args, time.perf_counter()
        stopping = lambda: self.stop_requested is not None  # noqa: E731 - Ctrl-C: go on to the checkpoint
        fitting = lambda: stopping() or time.perf_counter() >= self.plan.cloning  # noqa: E731
        parts = [teacher_games(args.env_id, args.env_config, args.teacher, args.pretrain_games, args.seed, args.gamma,
                               workers_for(args.pretrain_games), args.progress, stopping, **self._recorded(),
                               until=self.plan.wall(self.plan.teacher_games), engine=self._engine())]
        if stopping():
            self.trained_seconds = self.seconds_before  # its games are dropped: so is their time
            return
        if parts[0].games < args.pretrain_games:
            print(f"--max-minutes: the teacher's games stopped at their share of it "
                  f"({self.plan.teacher_games - began:.0f} s): {parts[0].games:,} of the {args.pretrain_games:,} asked")
        history = self._fit_parts(parts, args.pretrain_epochs, fitting, writer, [])
        if history:  # one line, with or without progress bars: a log kept with --no-progress has it too
            print(f"cloned {len(parts[0]):,} decisions of {args.teacher}'s games in {time.perf_counter() - began:.0f} s: "
                  f"held-out agreement {history[-1]['held_out_agreement']:.3f}")
        for round_ in range(1, args.dagger_rounds + 1):
            if fitting():
                break
            history = self._dagger_round(round_, parts, history, fitting, writer)
        if stopping():  # stopped in the fit: a resumed run clones again
            self.trained_seconds = self.seconds_before
            return
        self.cloned = True
        self._tick()

    def _engine(self) -> str:
        """The engine of the teacher's and the clone's games: the run's (``--engine``)."""
        return game_engine(self.args.env_id, self.args.engine, self.args.env_config)

    def _recorded(self) -> dict[str, bool]:
        """What the teacher's and the clone's games keep beside each decision, the same for every
        part (a refit reads them as one): the privileged critic's inputs, the teacher's scores."""
        return {"privileged": self.network.critic is not None, "scored": self.args.pretrain_temperature > 0}

    def _dagger_round(self, round_: int, parts: list, history: list[dict[str, float]], stopping, writer
                      ) -> list[dict[str, float]]:
        """The clone's games, labelled by the teacher, added to ``parts``, and the refit on them all."""
        args = self.args
        demos, record = student_games(
            args.env_id, args.env_config, args.teacher, self.network_spec(), args.opponents, args.dagger_games,
            int(np.random.SeedSequence([args.seed, round_]).generate_state(1)[0]), args.gamma,
            workers_for(args.dagger_games), args.progress, stopping, **self._recorded(), engine=self._engine())
        parts.append(demos)
        history = self._fit_parts(parts, args.dagger_epochs, stopping, writer, history)
        if writer is not None and record.results:
            writer.add_scalar("dagger/student_win_rate", record.win_rate, round_)
            writer.add_scalar("dagger/student_agreement", record.agreement, round_)
        if history:
            print(f"DAgger round {round_}: the clone won {record.win_rate:.3f} of {len(record.results):,} games "
                  f"against {', '.join(args.opponents)} and chose as {args.teacher} in {record.agreement:.3f} of "
                  f"its {record.decisions:,} decisions; refitted on {sum(map(len, parts)):,} decisions: "
                  f"held-out agreement {history[-1]['held_out_agreement']:.3f}")
        return history

    def _fit_parts(self, parts: list, epochs: int, stopping, writer, history: list[dict[str, float]]
                   ) -> list[dict[str, float]]:
        """`card_envs.train.pretrain.clone` on ``parts``, its epochs logged after ``history``'s; the whole history."""
        args = self.args
        fitted = clone(self.network, parts, epochs, args.seed, args.vf_coef, args.progress, stopping,
                       args.pretrain_temperature)
        if writer is not None:
            for epoch, values in enumerate(fitted, start=len(history)):
                for name, value in values.items():
                    writer.add_scalar(f"pretrain/{name}", value, epoch)
        return history + fitted


# ----- the command --------------------------------------------------------------------------
def start(args: Args, given: set[str]) -> Trainer:
    """A new Trainer, or one resumed from ``runs/<run_name>/checkpoints/latest.pt``; ValueError
    (or FileNotFoundError) on a bad argument, before anything is trained."""
    check_run_name(args.run_name)
    if not args.resume:
        if not args.run_name:
            args.run_name = f"{args.env_id}__s{args.seed}__{time.strftime('%Y%m%d-%H%M%S')}"
        if any((Path(args.runs_dir) / args.run_name / "checkpoints").glob("*.pt")):
            raise ValueError(f"run {args.run_name!r} already has checkpoints; use --resume to continue it "
                             "or another --run-name")
        args.validate()
        resolve_auto(args)
        trainer = Trainer(args)  # before the folder: a refused --init-from must not leave one
        check_writable(trainer.run_dir)
        return trainer
    resumed, checkpoint = resumed_args(args, given)
    return Trainer(resumed, checkpoint)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser(env_id_in(argv))
    args, given = parse_args(argv, parser)
    try:
        chain = chain_of(args, options_given(argv, parser))
    except (ValueError, FileNotFoundError) as error:
        parser.error(str(error))
    return run(parser, args, given) if chain is None else run_stages(parser, chain)


def run_stages(parser, chain: Chain) -> int:
    """A recipe's stages one after another (`card_envs.train.stages`): the finished ones skipped,
    a started one resumed, the others started; stops where a stage does (its exit code)."""
    chain.save()
    last = len(chain.stages) - 1
    for k in range(len(chain.stages)):
        print(chain.plan_text(k))
        if chain.stage_folder(k) in chain.finished:
            print(f"  finished: {chain.checkpoint(k)}")
            continue
        if chain.started(k):  # stopped or killed: it goes on from its last checkpoint
            resumed = {name: value for name, value in chain.options.items() if name in RESUMABLE}
            args = Args(**resumed, runs_dir=str(chain.folder), run_name=chain.stage_folder(k), resume=True)
            code = run(parser, args, {*resumed, "run_name", "runs_dir", "resume"}, chain.resume_command())
        else:
            code = run(parser, chain.args(k), set(), chain.resume_command())
        if code:
            return code
        chain.finish(k)
    print(f"--recipe {chain.recipe}: all {last + 1} stages finished; its checkpoint: {chain.checkpoint(last)}")
    return 0


def run(parser, args: Args, given: set[str], resume_command: str = "") -> int:
    """One run of the trainer, new or resumed (``given``: the options given), with its output and
    exit code; ``resume_command`` is what a stopped run tells to go on (by default, its own)."""
    try:
        trainer = start(args, given)
    except (ValueError, FileNotFoundError) as error:
        parser.error(str(error))  # usage, one line of error, exit code 2
    from torch.utils.tensorboard import SummaryWriter  # imported late: it is slow to import

    # On a resume from step S, TensorBoard drops what the killed run logged after S (purge_step
    # hides events at steps >= S + 1), so the two runs' curves never overlap.
    writer = SummaryWriter(str(trainer.run_dir), purge_step=trainer.step + 1 if trainer.step else None)
    writer.add_text("hyperparameters", hyperparameter_table(trainer.args), trainer.step)
    print(f"training {trainer.args.env_id} -> {trainer.run_dir} (tensorboard --logdir {trainer.args.runs_dir})")
    if trainer.args.resume:
        kept = sorted(set(given) - set(RESUMABLE) - {"resume", "run_name", "runs_dir", "env_id"})
        note = "" if trainer.update < trainer.total_updates else " (nothing left to train: give a larger --total-steps)"
        if kept:
            note += (f"; kept the run's own {', '.join(map(flag, kept))} (a resume may change only "
                     f"{', '.join(map(flag, RESUMABLE))})")
        print(f"resuming from step {trainer.step:,}{note}")
    received = stop_on_signals(trainer)
    try:
        result = trainer.train(writer)
    except TrainingDiverged as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # a stop during the final evaluation, or a second Ctrl-C
        name = trainer.stop_requested or "SIGINT"
        latest = trainer.run_dir / "checkpoints" / "latest.pt"
        if trainer.finishing:
            print(f"{name}: final evaluation interrupted; the trained checkpoint (step {trainer.step:,}) is "
                  f"{latest}; evaluate it with: python3 -m card_envs.evaluate {trainer.args.env_id} --gauntlet {latest}")
        else:
            print(f"{name} again: stopped at once; last checkpoint: {trainer.last_checkpoint or 'none'}")
        return 128 + getattr(signal, name)
    finally:
        writer.close()
        for signum, handler in received.items():
            signal.signal(signum, handler)
    if trainer.stop_requested:
        runs_dir = "" if trainer.args.runs_dir == Args.runs_dir else f" --runs-dir {trainer.args.runs_dir}"
        where = "" if trainer.cloned else (" during cloning (the checkpoint's weights are unfitted; the resumed run "
                                           "clones)")
        resume_command = resume_command or f"python3 -m card_envs.train --resume --run-name {trainer.args.run_name}" \
                                           f"{runs_dir}"
        print(f"{trainer.stop_requested}: stopped at step {trainer.step:,}{where}, checkpoint "
              f"{trainer.run_dir / 'checkpoints' / 'latest.pt'}; resume with: {resume_command}")
        return 128 + getattr(signal, trainer.stop_requested)
    print(f"final checkpoint: {trainer.run_dir / 'checkpoints' / 'latest.pt'}")
    for name in policy_names(trainer.game):
        rate, low, high = (result[f"win_rate_vs_{name}{s}"] for s in ("", "_ci_low", "_ci_high"))
        games = result.get(f"games_vs_{name}", games_per_deal(trainer.game) * trainer.args.final_eval_deals)
        print(f"  vs {name:10} win rate {rate:.3f}  (Wilson 95% [{low:.3f}, {high:.3f}], {games:,} seat-rotated games)")
    return 0

