"""Neural policies: the masked actor-critic network, its checkpoints, and `NeuralPolicy`.

A checkpoint is a ``torch.save`` dict of plain types and tensors, so it loads with
``torch.load(path, weights_only=True)`` (no pickled code):

| key | meaning |
|---|---|
| ``format`` | checkpoint format version (`CHECKPOINT_FORMAT`) |
| ``env_id``, ``game_config`` | the env it was trained on (id includes the env version) |
| ``observation_size``, ``num_actions`` | sizes the network was built for |
| ``hidden`` | hidden layer widths |
| ``critic_size`` | input size of a separate (privileged) critic; absent or None: shared trunk |
| ``entity_heads`` | True: the game's entity actions are scored by shared heads (`EntityScorer`); absent: False |
| ``model`` | the network's ``state_dict`` |
| ``optimizer`` | the optimizer's ``state_dict`` (for ``--resume``), may be absent |
| ``args`` | the training arguments, a dict of JSON-compatible values |
| ``step`` | env steps (decisions) taken when it was saved |
| ``update`` | PPO updates done |
| ``seed`` | the run's seed |
| ``rng`` | optional numpy bit-generator state of the trainer (for ``--resume``) |
| ``model_sha256`` | `weights_digest` of ``model``, checked on load; files saved before it existed have none |

`save_checkpoint` refuses non-finite tensors and adds ``model_sha256``; `load_checkpoint` refuses
a file whose weights no longer match it or are not finite, lacks a required key, holds more than
tensors and plain data (loading that could run code), or whose sizes (outside the hash) are not
positive ints and its game's own; the network is built only once they fit its weights.
"""

from __future__ import annotations

import hashlib
import pickle
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

import card_envs
from card_envs.agents.policy import OwnObservationPolicy, Policy  # noqa: F401 - OwnObservationPolicy: its older home
from card_envs.agents.shipped import checkpoint_path
from card_envs.core.files import atomic_write
from card_envs.core.snapshot import show

CHECKPOINT_FORMAT = 1
REQUIRED_KEYS = ("env_id", "game_config", "observation_size", "num_actions", "hidden", "model")
MASKED_LOGIT = -1e9  # exp() underflows to exactly 0; real logits stay within a few tens


def sample(logits: torch.Tensor, uniforms: torch.Tensor) -> torch.Tensor:
    """One action per row of masked ``logits`` [B, A], drawn from their softmax by inverse CDF
    with ``uniforms`` [B, 1] in [0, 1): one number per row, where Gumbel-max needs one per action
    and two logarithms (2.6x slower for 256 x 323 logits; torch.multinomial is slower still).
    Masked actions have probability exactly 0, so they are never drawn."""
    cdf = logits.float().softmax(-1).cumsum_(-1)
    total = cdf[:, -1:].contiguous()
    drawn = torch.searchsorted(cdf, uniforms.to(cdf.dtype) * total, right=True)
    # u * total can round up to the total: the last action with any probability takes it.
    return torch.minimum(drawn, torch.searchsorted(cdf, total))[:, 0]


def _mlp(width: int, hidden: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    return nn.Sequential(*layers)


ENTITY_WIDTH = 64  # hidden width of an entity scorer


class EntityScorer(nn.Module):
    """Scores a run of actions that each name one entity (the game's `ActionEntities`, e.g. a card)
    with one small MLP shared by all of them, from the trunk's output and that entity's own
    observation entries and constant features. A policy head over the flat observation learns each
    card's logit from the decisions about that card alone; shared, every decision teaches every
    card (cloning 1,000 of Illimat's scripted games: 0.868 held-out agreement against 0.833, a
    clone winning 0.158 of 400 games against the scripted agent against 0.095).

    The gathered indices and the constant features are buffers: saved with the weights, so a
    checkpoint keeps the layout it was trained on."""

    def __init__(self, width: int, first_action: int, index: np.ndarray, identity: np.ndarray):
        super().__init__()
        self.first_action, self.count = first_action, len(index)
        self.register_buffer("index", torch.as_tensor(index, dtype=torch.long))
        self.register_buffer("identity", torch.as_tensor(identity, dtype=torch.float32))
        self.context = nn.Linear(width, ENTITY_WIDTH)
        self.own = nn.Linear(index.shape[1], ENTITY_WIDTH, bias=False)
        self.constant = nn.Linear(identity.shape[1], ENTITY_WIDTH, bias=False)
        self.score = nn.Sequential(nn.ReLU(), nn.Linear(ENTITY_WIDTH, ENTITY_WIDTH), nn.ReLU(),
                                   nn.Linear(ENTITY_WIDTH, 1))

    def forward(self, observations: torch.Tensor, hidden: torch.Tensor,
                legal: torch.Tensor | None = None) -> torch.Tensor:
        """Scores [B, count] of the entities' actions. With ``legal`` (bool [B, count]) only the legal
        actions are scored, the others get 0: a decision has a few legal entities of dozens (Illimat:
        a hand of 4 cards of 65), and the scores of illegal ones are masked away (gradient 0)."""
        constant = self.constant(self.identity.to(hidden.dtype))  # [count, width]
        if legal is None:
            own = self.own(observations[:, self.index])  # [B, count, width]
            return self.score(own + self.context(hidden).unsqueeze(1) + constant).squeeze(-1)
        rows, entities = legal.nonzero(as_tuple=True)
        # Each legal pair's observation entries gathered by flat position (index_select: far
        # faster than advanced indexing on a CPU).
        flat = (rows * observations.shape[1]).unsqueeze(1) + self.index.index_select(0, entities)
        own = self.own(observations.reshape(-1).index_select(0, flat.view(-1)).view(flat.shape))
        hidden_pairs = own + self.context(hidden).index_select(0, rows) + constant.index_select(0, entities)
        scores = self.score(hidden_pairs).view(-1)
        count = self.count
        return scores.new_zeros(legal.shape[0] * count).index_copy(0, rows * count + entities, scores).view(-1, count)


def entity_arrays(game) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(first action, observation indices [count, F], constant features [count, S]) for each of
    the game's `action_entities`: what `ActorCritic(entities=...)` takes."""
    return [(e.first_action, e.index(game.observation_layout), e.identity) for e in game.action_entities]


class ActorCritic(nn.Module):
    """A policy head (one logit per action) and a value head on MLPs.

    By default the two heads share one trunk over the observation. With ``critic_size`` the value
    comes from a separate MLP over a ``critic_size`` input instead (the trainer's privileged critic:
    the full game state and the seat, `card_envs.train.acting.critic_inputs`); the policy never sees it, so
    a `NeuralPolicy` acts on the observation alone. With ``entities`` (`entity_arrays`), each run of
    entity actions (a card game's card actions) gets an `EntityScorer`'s scores added to its logits.

    Illegal actions get the logit `MASKED_LOGIT`: probability exactly 0 in float32, never sampled
    (and unlike the lowest float, it keeps softmax on its fast path).
    """

    def __init__(self, observation_size: int, num_actions: int, hidden: Sequence[int] = (256, 256),
                 critic_size: int | None = None, entities: Sequence[tuple[int, np.ndarray, np.ndarray]] = ()):
        super().__init__()
        width = hidden[-1] if hidden else observation_size
        self.trunk = _mlp(observation_size, hidden)
        self.policy_head = nn.Linear(width, num_actions)
        self.critic_size = critic_size
        self.critic = _mlp(critic_size, hidden) if critic_size else None
        self.value_head = nn.Linear(hidden[-1] if hidden else critic_size or observation_size, 1)
        self.entity_scorers = nn.ModuleList(EntityScorer(width, *entity) for entity in entities)
        # Small policy outputs start near uniform over the legal actions (as in CleanRL's PPO).
        nn.init.orthogonal_(self.policy_head.weight, 0.01)
        nn.init.zeros_(self.policy_head.bias)
        nn.init.orthogonal_(self.value_head.weight, 1.0)
        nn.init.zeros_(self.value_head.bias)

    def forward(self, observations: torch.Tensor, masks: torch.Tensor, critic_inputs: torch.Tensor | None = None,
                first_layer: Callable | None = None) -> tuple[torch.Tensor, torch.Tensor | None]:
        """(masked logits [B, A], values [B]); with a separate critic the values need
        ``critic_inputs`` and are None without them. ``first_layer``: as `heads` takes it."""
        logits, values = self.heads(observations, critic_inputs, legal=masks, first_layer=first_layer)
        return logits.masked_fill(~masks, MASKED_LOGIT), values

    def heads(self, observations: torch.Tensor, critic_inputs: torch.Tensor | None = None,
              columns: torch.Tensor | None = None,
              legal: torch.Tensor | None = None,
              first_layer: Callable | None = None) -> tuple[torch.Tensor, torch.Tensor | None]:
        """`forward` without the mask: raw logits (the learner masks them in its fused loss terms).
        With ``columns`` (`takes_columns`), ``observations`` hold only those columns of the
        observation, the others being zero (`active_columns`), and the first layer multiplies them alone.
        With ``legal`` (the bool masks [B, A]), the entity scorers score the legal actions alone: the
        logits of legal actions are the same (up to float rounding), those of illegal ones are not
        meant to be read. ``first_layer``: what computes the trunk's first layer in place of
        ``F.linear(observations, weight, bias)`` (the learner's `sparse_linear`)."""
        first = self.trunk[0] if len(self.trunk) else None
        if columns is not None:
            hidden = self.trunk[1:](F.linear(observations, first.weight.index_select(1, columns), first.bias))
        elif first_layer is not None and first is not None:
            hidden = self.trunk[1:](first_layer(observations, first.weight, first.bias))
        else:
            hidden = self.trunk(observations)
        logits = self.policy_head(hidden)
        for scorer in self.entity_scorers:
            start, end = scorer.first_action, scorer.first_action + scorer.count
            scores = scorer(observations, hidden, None if legal is None else legal[:, start:end])
            logits = torch.cat([logits[:, :start], logits[:, start:end] + scores, logits[:, end:]], 1)
        if self.critic is None:
            return logits, self.value_head(hidden).squeeze(-1)
        return logits, None if critic_inputs is None else self.value(critic_inputs)

    @property
    def takes_columns(self) -> bool:
        """Whether `heads` can take the observation's active columns alone: the trunk has a first
        layer and no entity scorer reads the observation by position."""
        return len(self.trunk) > 0 and len(self.entity_scorers) == 0

    def value(self, inputs: torch.Tensor) -> torch.Tensor:
        """Values [B] of observations, or of critic inputs with a separate critic."""
        return self.value_head((self.critic or self.trunk)(inputs)).squeeze(-1)


def active_columns(observations: torch.Tensor) -> torch.Tensor | None:
    """The columns of ``observations`` [B, size] that are not zero in every row, or None where all
    are. Why: a game's observation covers every card of the game, a deal uses few (Dominion's
    default kingdom fills 367 of its 1,863 features), and the first layer's products with the
    always-zero columns are most of a learner update; without them it takes half the time, with
    the same gradients (those columns' are exactly zero) up to float rounding."""
    active = observations.ne(0).any(0)
    return None if bool(active.all()) else active.nonzero().squeeze(1)


# ----- checkpoints ----------------------------------------------------------------------------
def weights_digest(state_dict: dict[str, torch.Tensor]) -> str:
    """sha256 over a state_dict: every tensor's name, dtype, shape and bytes, in sorted key order."""
    digest = hashlib.sha256()
    for name in sorted(state_dict):
        tensor = state_dict[name].detach().cpu().contiguous()
        digest.update(f"{name}|{tensor.dtype}|{tuple(tensor.shape)}\n".encode())
        digest.update(tensor.reshape(-1).view(torch.uint8).numpy().tobytes())
    return digest.hexdigest()


def _tensors(value: Any, where: str) -> Iterator[tuple[str, torch.Tensor]]:
    """(key path, tensor) for every tensor in nested dicts and lists."""
    if isinstance(value, torch.Tensor):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _tensors(item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _tensors(item, f"{where}[{i}]")


def save_checkpoint(path: str | Path, checkpoint: dict[str, Any]) -> None:
    """Write atomically (a temporary file beside it, then a rename), with the weights' hash.

    Refuses non-finite tensors: a diverged run must never leave a checkpoint behind.
    """
    bad = [where for where, t in _tensors(checkpoint, "") if t.is_floating_point() and not t.isfinite().all()]
    if bad:
        raise ValueError(f"refusing to save {path}: non-finite values in {', '.join(bad[:5])}")
    state = {"format": CHECKPOINT_FORMAT, **checkpoint}
    if "model" in state:
        state["model_sha256"] = weights_digest(state["model"])
    atomic_write(path, lambda tmp: torch.save(state, tmp))


def load_checkpoint(path: str | Path, env_id: str | None = None) -> dict[str, Any]:
    """Load a checkpoint with ``weights_only=True``; with ``env_id``, refuse one for another env.
    ``path`` is a file or a shipped checkpoint's name, ``shipped:<env_id>`` (`checkpoint_path`)."""
    path = checkpoint_path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no checkpoint at {path}")
    checkpoint = _torch_load(path)
    if not isinstance(checkpoint, dict) or checkpoint.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{path} is not a card_envs checkpoint of format {CHECKPOINT_FORMAT}")
    missing = [key for key in REQUIRED_KEYS if key not in checkpoint]
    if missing:
        raise ValueError(f"{path} is not a complete card_envs checkpoint: it lacks the key(s) {missing}")
    model = checkpoint["model"]
    if not isinstance(model, dict) or not all(isinstance(t, torch.Tensor) for t in model.values()):
        raise ValueError(f"{path} is not a card_envs checkpoint: its 'model' is not a dict of tensors")
    stored = checkpoint.get("model_sha256")  # absent in files saved before hashes: accepted as they are
    if stored is not None and stored != weights_digest(model):
        raise ValueError(f"{path} is corrupted or was altered: its weights do not match the sha256 "
                         "saved with them; refusing to load it")
    if env_id is not None and checkpoint["env_id"] != env_id:
        raise ValueError(f"{path} was trained on {checkpoint['env_id']!r}, not {env_id!r}; "
                         f"use a checkpoint for {env_id!r} or train one")
    if checkpoint["env_id"] not in card_envs.list_envs():
        raise ValueError(f"{path} was trained on {show(checkpoint['env_id'])}, which this version of "
                         f"card_envs does not provide (available: {card_envs.list_envs()})")
    _check_network_fields(path, checkpoint)
    return checkpoint


# What `_check_network_fields` requires of the fields that shape the network.
FIELD_RULES = {"observation_size": "a positive int", "num_actions": "a positive int",
               "hidden": "a list of positive ints (the hidden layer widths)",
               "critic_size": "absent, None or a positive int", "entity_heads": "absent, None, True or False"}


def _is_size(value: Any) -> bool:
    return type(value) is int and value >= 1  # not a bool, a float or a numpy scalar


def _check_network_fields(path: Path, checkpoint: dict[str, Any]) -> None:
    """ValueError unless the fields outside the weights' hash describe a network of the game the
    checkpoint names: sizes are positive ints, and the game's own (the network is built from them,
    so an edited size would otherwise allocate whatever it says), and every weight is finite."""
    hidden, critic = checkpoint["hidden"], checkpoint.get("critic_size")
    for key, ok in (("observation_size", _is_size(checkpoint["observation_size"])),
                    ("num_actions", _is_size(checkpoint["num_actions"])),
                    ("hidden", isinstance(hidden, (list, tuple)) and all(map(_is_size, hidden))),
                    ("critic_size", critic is None or _is_size(critic)),
                    ("entity_heads", type(checkpoint.get("entity_heads")) in (type(None), bool))):
        if not ok:
            raise ValueError(f"{path} is not a valid card_envs checkpoint: its {key} is "
                             f"{show(checkpoint.get(key))}, expected {FIELD_RULES[key]}")
    config = checkpoint["game_config"]
    try:
        if not isinstance(config, dict) or not all(isinstance(k, str) for k in config):
            raise ValueError("not a dict of arguments")
        game = card_envs.make_game(checkpoint["env_id"], **config)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{path} is not a valid card_envs checkpoint: its game_config {show(config)} is "
                         f"refused by {checkpoint['env_id']}: {error}") from None
    for key, size in (("observation_size", game.observation_size), ("num_actions", game.num_actions)):
        if checkpoint[key] != size:
            raise ValueError(f"{path} is not a valid card_envs checkpoint: its {key} is {checkpoint[key]}, but "
                             f"{checkpoint['env_id']} with its game_config {show(config)} has {size}")
    bad = [name for name, t in checkpoint["model"].items() if t.is_floating_point() and not t.isfinite().all()]
    if bad:
        raise ValueError(f"{path} holds non-finite weights (NaN or infinite) in {', '.join(bad[:5])}; "
                         "refusing to load it")


def _torch_load(path: Path) -> Any:
    """torch.load, weights only, with errors in our words: torch's own suggest loading the file
    with ``weights_only=False``, which would run whatever code it holds."""
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as error:
        found = re.search(r"GLOBAL (\S+)", str(error))
        reason = (f"it holds a Python object ({found.group(1)}), and only tensors and plain data are "
                  "loaded (anything else could run code)") if found else "its contents are not a torch checkpoint"
        raise ValueError(f"{path} is not a readable card_envs checkpoint: {reason}") from None
    except Exception as error:  # a truncated file, or not a torch file at all
        reason = str(error).splitlines()[0].split(". ")[0] if str(error) else type(error).__name__
        raise ValueError(f"{path} is not a readable card_envs checkpoint: {reason}") from None


def network_from_checkpoint(checkpoint: dict[str, Any]) -> ActorCritic:
    entities = []
    if checkpoint.get("entity_heads"):  # shaped by the game: the weights then restore the saved indices
        entities = entity_arrays(card_envs.make_game(checkpoint["env_id"], **checkpoint["game_config"]))
    sizes = (checkpoint["observation_size"], checkpoint["num_actions"], checkpoint["hidden"],
             checkpoint.get("critic_size"), entities)
    with torch.device("meta"):  # shapes only, no memory: checked against the weights before any allocation
        expected = ActorCritic(*sizes).state_dict()
    found = checkpoint["model"]
    missing, unexpected = sorted(set(expected) - set(found)), sorted(set(found) - set(expected))
    misshapen = [k for k in expected if k in found and found[k].shape != expected[k].shape]
    if missing or unexpected or misshapen:
        raise ValueError(f"the checkpoint's weights do not fit its network (hidden {show(checkpoint['hidden'])}): "
                         f"missing {missing}, unexpected {unexpected}, wrong shape {misshapen}")
    net = ActorCritic(*sizes)
    net.load_state_dict(found)
    return net.eval()


class NeuralPolicy(Policy):
    """A trained network behind the `Policy` interface.

    Args:
        network: the actor-critic.
        greedy: play the most probable legal action (default) instead of sampling.
    """

    name = "neural"

    def __init__(self, network: ActorCritic, greedy: bool = True):
        self.network, self.greedy = network.eval(), greedy

    @classmethod
    def from_checkpoint(cls, path: str | Path, env_id: str | None = None, greedy: bool = True) -> "NeuralPolicy":
        checkpoint = load_checkpoint(path, env_id)
        policy = cls(network_from_checkpoint(checkpoint), greedy)
        policy.name = f"neural:{Path(path).name}"
        policy.checkpoint_info = {k: checkpoint.get(k) for k in ("env_id", "game_config", "step", "seed")}
        return policy

    def act(self, observation, action_mask, rng) -> int:
        return int(self.act_batch(observation[None], action_mask[None], rng)[0])

    @torch.inference_mode()
    def act_batch(self, observations, action_masks, rng) -> np.ndarray:
        masks = torch.as_tensor(np.asarray(action_masks) != 0)
        if not masks.any(dim=-1).all():
            raise ValueError("an action_mask row has no legal action")
        logits, _ = self.network(torch.as_tensor(observations, dtype=torch.float32), masks)
        if self.greedy:
            return logits.argmax(dim=-1).numpy()
        # Drawn with the caller's generator: sampling stays reproducible from `rng`.
        return sample(logits, torch.from_numpy(rng.random((len(logits), 1)))).numpy()
