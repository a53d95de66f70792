"""The acting side of training: games, seat assignment, the opponent pool, and rollouts.

`Collector` plays ``num_games`` games with a copy of the learner's network and fills a
`Rollout`. The games are stepped by the reference rules engines (`card_envs.vector.VectorGames`)
or, with ``--engine batch``, by the game's batched engine (`card_envs.batch`) behind the same
interface (`BatchGames`): one rollout function for both. The collector runs either in the
learner's process (`InlineActor`, ``--actors 0``: simplest, rollout k uses the weights after
update k) or in processes of its own (`ProcessActor`, ``--actors 1``: it plays the next rollout
while the learner trains on the last one, so both cores work; rollout k uses the weights after
update k - 1, a one-update lag that PPO's importance ratio absorbs; ``--actors N`` splits the games
over N such processes, for games whose rules or scripted opponents cost more than the learner).
Both are deterministic for a given seed: the actor always waits for exactly the weights it needs.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import queue
import signal
import threading
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.multiprocessing as mp
from torch import nn

from card_envs.agents import make_policy
from card_envs.agents.neural import MASKED_LOGIT, ActorCritic, entity_arrays, sample
import card_envs
from card_envs.vector import VectorGames
from card_envs.train.sparse_linear import first_layer_for, transposed


ENGINES = ("auto", "batch", "reference")
COMPUTE_DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}  # and "auto", resolved at start


def native_bfloat16() -> bool:
    """Whether this CPU reports bfloat16 matrix products in hardware (AVX512-BF16 or AMX). Elsewhere,
    e.g. on an AVX2-only CPU, oneDNN emulates them: 6x slower than float32, not faster. torch has
    no public query for this; its private ones are used where they exist."""
    checks = [getattr(torch.cpu, name, None) for name in ("_is_avx512_bf16_supported", "_is_amx_tile_supported")]
    return any(check() for check in checks if check is not None)


def product_seconds(dtype: torch.dtype, rows: int = 2048, width: int = 256, repeats: int = 5) -> float:
    """Best-of-``repeats`` time of a small MLP's forward and backward in ``dtype`` (CPU autocast):
    the shape of a PPO minibatch through a hidden layer."""
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(rows, width, generator=generator, requires_grad=True)
    w = torch.randn(width, width, generator=generator, requires_grad=True)
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        with torch.autocast("cpu", dtype=dtype, enabled=dtype != torch.float32):
            y = (x @ w).relu() @ w
        y.float().sum().backward()
        best = min(best, time.perf_counter() - began)
    return best


@functools.cache
def bfloat16_faster() -> bool:
    """Whether bfloat16 matrix products beat float32 on this CPU: it must have them natively, and
    a short timing (about 0.2 s) must agree, since CPUs that report AVX512-BF16 differ: bfloat16
    halved a PPO update on an AMD EPYC and made it 1.8x slower on an Intel Xeon."""
    return native_bfloat16() and product_seconds(torch.bfloat16) < product_seconds(torch.float32)


def resolve_compute_dtype(compute_dtype: str) -> str:
    """"float32" or "bfloat16", as ``--compute-dtype`` asks; "auto" is bfloat16 where this CPU
    multiplies bfloat16 faster than float32 (`bfloat16_faster`), else float32."""
    if compute_dtype != "auto":
        return compute_dtype
    return "bfloat16" if bfloat16_faster() else "float32"


def torch_dtype(compute_dtype: str) -> torch.dtype:
    """The torch dtype of ``--compute-dtype`` ("auto" resolved)."""
    return COMPUTE_DTYPES[resolve_compute_dtype(compute_dtype)]


def autocast(compute_dtype: str):
    """The network's matrix products in ``compute_dtype`` (``--compute-dtype``): CPU autocast to
    bfloat16, or nothing for float32."""
    dtype = torch_dtype(compute_dtype)
    return torch.autocast("cpu", dtype=dtype, enabled=dtype != torch.float32)


def game_engine(env_id: str, engine: str, config: dict | None = None) -> str:
    """"batch" or "reference", as ``--engine`` asks; "auto" is the batched engine where the game
    has one for this configuration (`card_envs.batch.unbatched`) and numba (its fast CPU path) is
    installed, else the reference engine."""
    if engine != "auto":
        return engine
    from card_envs import batch

    batched = env_id in batch.ENGINES and not batch.unbatched(env_id, config or {})
    return "batch" if batched and batch.has_numba() else "reference"


def warm_up(args):
    """Compile the numba kernels the run uses (its batched engine where it steps its games with one,
    its game's scripted agents), or load them from numba's cache, saying so where it compiles
    (`card_envs.agents.warm`): the trainer calls it before its --max-minutes clock starts."""
    from card_envs.agents.warm import warm_up

    return warm_up(args.env_id, args.env_config,
                   engine=game_engine(args.env_id, args.engine, args.env_config) == "batch",
                   auto_forced=(True,))


class BatchGames:
    """`VectorGames`' interface over a batched engine (`card_envs.batch`): the same rules,
    observations and masks, forced single-choice decisions played unasked; the arrays are numpy
    views of the engine's tensors (fresh each step)."""

    def __init__(self, env_id: str, config: dict, num_games: int, seed: int):
        from card_envs import batch

        self.engine = batch.make(env_id, num_games, seed=seed, auto_forced=True, **config)
        self.num_games = num_games
        self._last = self.engine.observe()

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        last = self._last
        return last.obs.numpy(), last.mask.numpy(), last.seat.numpy()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self._last = last = self.engine.step(torch.from_numpy(np.asarray(actions, dtype=np.int64)))
        return last.done.numpy(), last.reward.numpy(), last.length.numpy()

    def all_seat_observations(self) -> np.ndarray:
        return self.engine.all_seat_observations().numpy()

    def state_tensors(self) -> np.ndarray:
        return self.engine.state_tensors().numpy()


def make_games(game, args, seed: int) -> "VectorGames | BatchGames":
    """The ``num_games`` games of a rollout, on the engine ``args.engine`` picks."""
    if game_engine(args.env_id, args.engine, args.env_config) == "batch":
        return BatchGames(args.env_id, args.env_config, args.num_games, seed)
    return VectorGames(game, args.num_games, seed=seed)


def make_network(game, args) -> ActorCritic:
    """The run's network for ``game``, shaped by ``args`` (``--hidden``, ``--critic``,
    ``--entity-heads``): the learner, its actors, pool snapshots and evaluator all build this one."""
    if args.entity_heads and not game.action_entities:
        declaring = [env_id for env_id in card_envs.list_envs() if card_envs.make_game(env_id).action_entities]
        raise ValueError(f"--entity-heads: {game.name} declares no entity actions (action_entities); "
                         f"games that do: {declaring}")
    return ActorCritic(game.observation_size, game.num_actions, tuple(args.hidden), critic_size(game, args.critic),
                       entity_arrays(game) if args.entity_heads else ())


def critic_size(game, critic: str) -> int | None:
    """Input size of the separate critic for ``--critic``: None for "observation" (shared trunk)."""
    return game.state_layout.size + game.num_players if critic == "state" else None


def critic_inputs(state_tensors: np.ndarray, seats: np.ndarray, num_players: int) -> np.ndarray:
    """The privileged critic's inputs: the full state (absolute seats) and a one-hot of the seat
    whose value is wanted. Only the critic reads them, during training: acting never does."""
    return np.concatenate([state_tensors, np.eye(num_players, dtype=np.float32)[seats]], axis=-1)


class OpponentPool:
    """Scripted agents plus up to ``size`` frozen snapshots of the learner (sampling policies).
    Members are numbered scripted agents first, then snapshots."""

    def __init__(self, game, scripted: tuple[str, ...], size: int, blank: ActorCritic,
                 dtype: torch.dtype = torch.float32):
        self.scripted = [make_policy(name, game) for name in scripted]
        self.size, self.dtype = size, dtype
        self.blank = blank  # a network of the learner's shape: each snapshot is a copy with its weights
        self.snapshots: list[ActorCritic] = []
        self.stacked: StackedPolicies | None = None

    def __len__(self) -> int:
        return len(self.scripted) + len(self.snapshots)

    def sample(self, rng: np.random.Generator) -> int:
        """A member: a scripted agent half of the time (while there are snapshots)."""
        scripted, snapshots = len(self.scripted), len(self.snapshots)
        if snapshots and (not scripted or rng.random() < 0.5):
            return scripted + int(rng.integers(snapshots))
        return int(rng.integers(scripted))

    def add_snapshot(self, state_dict: dict[str, torch.Tensor]) -> None:
        if self.size == 0:
            return
        frozen = copy.deepcopy(self.blank)
        frozen.load_state_dict(state_dict)
        self.snapshots = (self.snapshots + [frozen])[-self.size:]
        self.stacked = StackedPolicies(self.snapshots, self.dtype)

    def act(self, members: np.ndarray, observations: np.ndarray, masks: np.ndarray,
            rng: np.random.Generator) -> np.ndarray:
        """The actions of ``members[i]`` on row i of the observations and masks."""
        actions = np.empty(len(members), dtype=np.int64)
        scripted = len(self.scripted)
        for k in np.unique(members[members < scripted]):
            picked = np.flatnonzero(members == k)
            actions[picked] = self.scripted[k].act_batch(observations[picked], masks[picked].astype(np.int8), rng)
        frozen = np.flatnonzero(members >= scripted)
        if frozen.size:
            logits = self.stacked.logits(members[frozen] - scripted, observations[frozen], masks[frozen])
            actions[frozen] = sample(logits, torch.from_numpy(rng.random((frozen.size, 1)))).numpy()
        return actions


class StackedPolicies:
    """The policies of networks of one architecture, evaluated together: each layer's weights
    stacked [S, in, out] in ``dtype`` (the run's ``--compute-dtype``) and every network's rows
    padded into one [S, R, in] batch, so a step costs one batched product per layer instead of a
    forward per network. In bfloat16 that is 3x faster than the networks' own float32 forwards
    (with four snapshots in the pool, those took a tenth of a rollout). Networks with entity heads
    (``--entity-heads``) run their own forwards instead: their scorers gather per entity."""

    def __init__(self, networks: list[ActorCritic], dtype: torch.dtype = torch.float32):
        self.networks = networks if networks[0].entity_scorers else None
        if self.networks is not None:
            return
        layers = [[m for m in net.trunk if isinstance(m, nn.Linear)] + [net.policy_head] for net in networks]
        self.weights = [torch.stack([net[i].weight.detach().T for net in layers]).to(dtype).contiguous()
                        for i in range(len(layers[0]))]
        self.biases = [torch.stack([net[i].bias.detach()[None] for net in layers]).to(dtype)
                       for i in range(len(layers[0]))]

    @torch.inference_mode()
    def logits(self, which: np.ndarray, observations: np.ndarray, masks: np.ndarray) -> torch.Tensor:
        """Masked logits [R, A] of network ``which[r]`` for row r."""
        if self.networks is not None:
            logits = torch.empty(len(which), masks.shape[1])
            for k in np.unique(which):
                rows = np.flatnonzero(which == k)
                logits[rows] = self.networks[k](torch.from_numpy(observations[rows]), torch.from_numpy(masks[rows]))[0]
            return logits
        which = torch.from_numpy(which)
        counts = torch.bincount(which, minlength=len(self.weights[0]))
        order = torch.argsort(which, stable=True)
        group = which[order]
        slot = torch.arange(len(which)) - (counts.cumsum(0) - counts)[group]  # the row's place in its group
        x = torch.zeros(len(counts), int(counts.max()), observations.shape[1], dtype=self.weights[0].dtype)
        x[group, slot] = torch.from_numpy(observations)[order].to(x.dtype)
        for i, (weight, bias) in enumerate(zip(self.weights, self.biases)):
            x = torch.baddbmm(bias, x, weight)
            if i < len(self.weights) - 1:
                x = x.relu_()
        logits = torch.empty(len(which), x.shape[-1])
        logits[order] = x[group, slot].float()
        return logits.masked_fill_(~torch.from_numpy(masks), MASKED_LOGIT)


@dataclass
class Rollout:
    """``num_steps`` x ``num_games`` decisions, as numpy arrays (shared memory for `ProcessActor`)."""

    observations: np.ndarray  # [T, N, obs] float32
    masks: np.ndarray  # [T, N, A] bool
    actions: np.ndarray  # [T, N]
    log_probs: np.ndarray  # [T, N] of the action under the acting network
    values: np.ndarray  # [T, N]
    seats: np.ndarray  # [T, N] the seat that decided
    learner: np.ndarray  # [T, N] the learner took this decision (opponents' are not trained on)
    done: np.ndarray  # [T, N] the game ended with this step
    returns: np.ndarray  # [T, N, P] terminal rewards where done
    teacher_actions: np.ndarray  # [T, N] the teacher's choice for a learner decision (--teacher), else -1
    bootstrap: np.ndarray  # [N, P] value of every seat's observation after the last step
    critic_inputs: np.ndarray  # [T, N, C] the privileged critic's inputs (C = 0 without one)

    @classmethod
    def empty(cls, num_steps: int, num_games: int, game, shared: bool = False,
              critic: int | None = None) -> "Rollout":
        t, n, p = num_steps, num_games, game.num_players
        specs = {"observations": ((t, n, game.observation_size), torch.float32),
                 "critic_inputs": ((t, n, critic or 0), torch.float32),
                 "masks": ((t, n, game.num_actions), torch.bool), "actions": ((t, n), torch.int64),
                 "teacher_actions": ((t, n), torch.int64),
                 "log_probs": ((t, n), torch.float32), "values": ((t, n), torch.float32),
                 "seats": ((t, n), torch.int64), "learner": ((t, n), torch.bool), "done": ((t, n), torch.bool),
                 "returns": ((t, n, p), torch.float64), "bootstrap": ((n, p), torch.float32)}
        tensors = {k: torch.zeros(shape, dtype=dtype) for k, (shape, dtype) in specs.items()}
        if shared:
            for tensor in tensors.values():
                tensor.share_memory_()
        rollout = cls(**{k: v.numpy() for k, v in tensors.items()})
        rollout.tensors = tensors  # the torch owners: what another process must be sent to share them
        return rollout

    @classmethod
    def of_games(cls, tensors: dict[str, torch.Tensor], games: slice) -> "Rollout":
        """Views of ``games`` in a rollout's ``tensors`` (games are axis 1, the bootstrap's axis 0):
        what an actor process writes there, the learner reads in the whole rollout."""
        return cls(**{k: v.numpy()[games] if k == "bootstrap" else v.numpy()[:, games] for k, v in tensors.items()})


class Collector:
    """Plays the games for a rollout with a copy of the learner's network."""

    def __init__(self, game, args, seed: int, pool_states: list[dict[str, torch.Tensor]]):
        self.game, self.args = game, args
        self.critic = critic_size(game, args.critic)
        self.network = make_network(game, args)
        # The copy that acts, in the compute dtype: the same products as the learner's autocast
        # (weights, inputs and outputs rounded to bfloat16), without re-casting the weights each step.
        self.dtype = torch_dtype(args.compute_dtype)
        self.acting = self.network if self.dtype == torch.float32 else copy.deepcopy(self.network).to(self.dtype)
        self.pool = OpponentPool(game, tuple(args.opponents), args.pool_size, self.network, self.dtype)
        for state in pool_states:
            self.pool.add_snapshot(state)
        # --teacher: the scripted agent whose choices the learner is also trained to imitate; it
        # labels the learner's decisions while `teaching` (the learner says until when).
        self.teacher = make_policy(args.teacher, game) if args.teacher else None
        self.teaching = self.teacher is not None
        self.rng = np.random.default_rng(seed)
        self.torch_rng = torch.Generator().manual_seed(seed)
        self.games = make_games(game, args, seed=int(self.rng.integers(2**63)))
        teams = np.array([game.team_of(s) for s in range(game.num_players)])
        self.same_team = teams[:, None] == teams[None, :]  # [P, P]
        # controllers[i, seat]: 0 = learner, k >= 1 = pool member k - 1 (fixed for a whole game)
        self.controllers = np.zeros((args.num_games, game.num_players), dtype=np.int64)
        for i in range(args.num_games):
            self._assign_seats(i)

    def load_weights(self, state_dict: dict[str, torch.Tensor], update: int, teaching: bool = False) -> None:
        """The learner's weights after ``update`` (and whether the teacher still labels); every
        ``snapshot_every`` updates they also join the opponent pool (the learner mirrors this in
        its checkpoints)."""
        self.use_weights(state_dict, teaching)
        if update > 0 and update % self.args.snapshot_every == 0:
            self.pool.add_snapshot(state_dict)

    def use_weights(self, state_dict: dict[str, torch.Tensor], teaching: bool) -> None:
        """Act with these weights, the teacher labelling or not (the pool unchanged)."""
        self.teaching = teaching and self.teacher is not None
        self.network.load_state_dict(state_dict)
        if self.acting is not self.network:
            self.acting.load_state_dict(state_dict)  # rounded to the compute dtype

    def _assign_seats(self, i: int) -> None:
        if not len(self.pool) or self.rng.random() >= self.args.opponent_share:
            self.controllers[i] = 0
            return
        learner_seat = self.rng.integers(self.game.num_players)
        opponent = 1 + self.pool.sample(self.rng)
        self.controllers[i] = np.where(self.same_team[learner_seat], 0, opponent)

    @torch.inference_mode()  # lighter than no_grad per operation: a rollout is thousands of small ones
    def collect(self, rollout: Rollout) -> dict[str, list[float]]:
        """Fill ``rollout``; return episode statistics."""
        stats: dict[str, list[float]] = {"episode_length": [], "pool_reward": []}
        rows = np.arange(self.args.num_games)
        # The acting network's first layer, transposed once: its weights do not change in a rollout.
        first = self.acting.trunk[0] if len(self.acting.trunk) and self.dtype == torch.float32 else None
        weight_t = None if first is None else transposed(first.weight)
        for t in range(self.args.num_steps):
            observations, masks, seats = self.games.observe()
            controller = self.controllers[rows, seats]
            rollout.observations[t], rollout.masks[t], rollout.seats[t] = observations, masks, seats
            rollout.learner[t] = learner = controller == 0
            privileged = None
            if self.critic:
                rollout.critic_inputs[t] = critic_inputs(self.games.state_tensors(), seats, self.game.num_players)
                privileged = torch.from_numpy(rollout.critic_inputs[t])
            # The network plays the learner's decisions only; the pool's are not trained on, so
            # their log-probabilities and values stay 0 (each seat's GAE reads its own values).
            mine = np.flatnonzero(learner)
            rows_t = torch.from_numpy(mine)
            observed = torch.from_numpy(rollout.observations[t]).index_select(0, rows_t).to(self.dtype)
            logits, values = self.acting(
                observed, torch.from_numpy(rollout.masks[t]).index_select(0, rows_t),
                None if privileged is None else privileged.index_select(0, rows_t).to(self.dtype),
                first_layer_for(observed, weight_t))
            logits = logits.float()
            drawn = sample(logits, torch.rand((len(logits), 1), generator=self.torch_rng))
            rollout.log_probs[t], rollout.values[t] = 0.0, 0.0
            rollout.log_probs[t, mine] = logits.log_softmax(-1).gather(1, drawn[:, None]).squeeze(1).numpy()
            rollout.values[t, mine] = values.float().numpy()
            actions = np.empty(len(controller), dtype=np.int64)
            actions[mine] = drawn.numpy()
            opponents = np.flatnonzero(~learner)
            if opponents.size:
                actions[opponents] = self.pool.act(controller[opponents] - 1, observations[opponents],
                                                   masks[opponents], self.rng)
            rollout.actions[t] = actions
            rollout.teacher_actions[t] = -1
            if self.teaching:
                rollout.teacher_actions[t, mine] = self.teacher.act_batch(
                    observations[mine], masks[mine].astype(np.int8), self.rng)
            done, returns, lengths = self.games.step(actions)
            rollout.done[t], rollout.returns[t] = done, returns
            for i in np.flatnonzero(done):
                stats["episode_length"].append(float(lengths[i]))
                if self.controllers[i].any():  # a game against the pool: the learner's result
                    learner_seat = int(np.flatnonzero(self.controllers[i] == 0)[0])
                    stats["pool_reward"].append(float(returns[i][learner_seat]))
                self._assign_seats(i)
        rollout.bootstrap[:] = self.network.value(torch.from_numpy(self._every_seat())).numpy()
        return stats

    def _every_seat(self) -> np.ndarray:
        """[N, P, input]: the value inputs of every seat of every game (to bootstrap from)."""
        if not self.critic:
            return self.games.all_seat_observations()
        p = self.game.num_players
        states = np.repeat(self.games.state_tensors()[:, None], p, axis=1)
        return critic_inputs(states, np.broadcast_to(np.arange(p), states.shape[:2]), p)


class InlineActor:
    """Collects in the learner's process: rollout k uses the weights after update k."""

    def __init__(self, game, args, seed: int, pool_states, weights: dict[str, torch.Tensor], update: int,
                 teaching: bool):
        self.collector = Collector(game, args, seed, pool_states)
        self.collector.use_weights(weights, teaching)
        self.rollout = Rollout.empty(args.num_steps, args.num_games, game, critic=self.collector.critic)

    def next_rollout(self) -> tuple[Rollout, dict[str, list[float]]]:
        return self.rollout, self.collector.collect(self.rollout)

    def publish(self, weights: dict[str, torch.Tensor], update: int, teaching: bool = False) -> None:
        self.collector.load_weights(weights, update, teaching)

    def close(self) -> None:
        pass


class ProcessActor:
    """Collects in ``args.actors`` child processes, one rollout ahead of the learner (two shared
    buffers); child w plays games [w * g, (w + 1) * g) of the rollout, g = num_games / actors.

    Rollout k is written to buffer k % 2 with the weights after update max(k - 1, first): each child
    waits for them, which also guarantees the learner is done with that buffer. Child 0 draws its
    games from ``seed`` (so one child plays as it always did), child w > 0 from ``(seed, w)``.
    """

    def __init__(self, game, args, seed: int, pool_states, weights: dict[str, torch.Tensor], update: int,
                 teaching: bool):
        context = mp.get_context("spawn")  # a fresh interpreter: no forked torch thread state
        self.buffers = [Rollout.empty(args.num_steps, args.num_games, game, shared=True,
                                      critic=critic_size(game, args.critic)) for _ in range(2)]
        self.weights = [{k: v.clone().share_memory_() for k, v in weights.items()} for _ in range(2)]
        self.teaching = torch.full((2,), teaching).share_memory_()  # beside each weights slot
        self.version = context.Value("q", update, lock=False)  # the newest published update
        self.stop = context.Event()
        self.next = update  # the rollout index expected next
        share = args.num_games // args.actors
        self.ready = [context.Queue() for _ in range(args.actors)]  # one per child: each delivers in order
        self.processes = []
        for w, ready in enumerate(self.ready):
            child_args = dataclasses.replace(args, num_games=share)
            child_seed = seed if w == 0 else int(np.random.default_rng([seed, w]).integers(2**63))
            process = context.Process(
                target=_actor_main, daemon=True, name=f"card_envs-actor-{w}",
                args=(child_args, child_seed, pool_states, [b.tensors for b in self.buffers],
                      slice(w * share, (w + 1) * share), self.weights, self.teaching, self.version, update,
                      ready, self.stop))
            start_ignoring_stop_signals(process)
            self.processes.append(process)

    def next_rollout(self) -> tuple[Rollout, dict[str, list[float]]]:
        merged: dict[str, list[float]] = {}
        for process, ready in zip(self.processes, self.ready):
            k, stats = self._receive(process, ready)
            assert k == self.next, (k, self.next)
            for name, values in stats.items():
                merged.setdefault(name, []).extend(values)
        self.next += 1
        return self.buffers[(self.next - 1) % 2], merged

    @staticmethod
    def _receive(process, ready) -> tuple[int, dict[str, list[float]]]:
        while True:
            try:
                k, stats = ready.get(timeout=1.0)
                break
            except queue.Empty:
                if not process.is_alive():
                    raise RuntimeError(f"the actor process died (exit code {process.exitcode})") from None
        if isinstance(stats, BaseException):
            raise RuntimeError("the actor process failed") from stats
        return k, stats

    def publish(self, weights: dict[str, torch.Tensor], update: int, teaching: bool = False) -> None:
        for name, tensor in weights.items():
            self.weights[update % 2][name].copy_(tensor)
        self.teaching[update % 2] = teaching
        self.version.value = update

    def close(self) -> None:
        self.stop.set()
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()  # it ignores SIGTERM


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def start_ignoring_stop_signals(process) -> None:
    """Start a child process that ignores Ctrl-C and SIGTERM, which a terminal, `timeout` or a
    job scheduler send to the whole process group: the learner decides when to stop and closes
    its children. Ignored signals survive the spawn's exec, and Python then installs no
    KeyboardInterrupt handler in the child."""
    ignoring = threading.current_thread() is threading.main_thread()
    previous = {s: signal.signal(s, signal.SIG_IGN) for s in STOP_SIGNALS} if ignoring else {}
    try:
        process.start()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _actor_main(args, seed, pool_states, buffers, games, weights, teaching, version, first_update, ready,
                stop) -> None:
    torch.set_num_threads(1)
    import card_envs

    game = card_envs.make_game(args.env_id, **args.env_config)
    collector = Collector(game, args, seed, pool_states)
    rollouts = [Rollout.of_games(b, games) for b in buffers]
    learner = mp.parent_process()
    k = first_update
    try:
        while not stop.is_set():
            needed = max(k - 1, first_update)
            waited = 0
            while version.value < needed:
                if stop.wait(0.0005):
                    return
                waited += 1
                if waited % 200 == 0 and not learner.is_alive():  # the learner was killed: go too
                    return
            if k - 1 >= first_update:
                collector.load_weights(weights[needed % 2], needed, bool(teaching[needed % 2]))
            else:  # the first two rollouts both use the starting weights
                collector.use_weights(weights[needed % 2], bool(teaching[needed % 2]))
            ready.put((k, collector.collect(rollouts[k % 2])))
            k += 1
    except BaseException as error:  # report it to the learner rather than die silently
        ready.put((k, RuntimeError(f"{type(error).__name__}: {error}")))
        raise


def make_actor(kind: int, game, args, seed: int, pool_states, weights, update: int, teaching: bool):
    """The actor ``--actors`` asks for, starting from ``weights`` after ``update`` updates, the
    teacher (if any) labelling its first rollouts when ``teaching``."""
    return (ProcessActor if kind else InlineActor)(game, args, seed, pool_states, weights, update, teaching)

