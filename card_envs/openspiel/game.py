"""Any `card_envs.core.game.Game` as an OpenSpiel Python game: the game, its states, its observer.

Written once for every env (no game is named here), like the PettingZoo adapter `card_envs.aec`.
The package's docstring (`card_envs.openspiel`) documents the choices: the chance model, the
parameters, what each tensor and string holds.
"""

from __future__ import annotations

import functools
import inspect
import json
from typing import Any

import numpy as np
import pyspiel

from card_envs.core.game import ArgumentError, Game, State
from card_envs.core.registry import game_class, list_envs, make_game, spec

PREFIX = "card_envs_"
SEED = "rng_seed"  # our one parameter beside the env's arguments, OpenSpiel's name for it: the deals' seed (-1: fresh entropy)
PLAYER_COUNTS = range(1, 11)  # the counts probed for a game's min and max number of players
NONE_TEXT = ""  # how an option whose value is None (e.g. no Bane) is given as an OpenSpiel parameter


def short_name(env_id: str) -> str:
    """The name under which `env_id` is registered in OpenSpiel: ``dominion_v0`` -> ``card_envs_dominion``."""
    return PREFIX + env_id.rpartition("_v")[0]


def env_id_of(name: str) -> str:
    """The env id behind an OpenSpiel short name (the inverse of `short_name`)."""
    for env_id in list_envs():
        if short_name(env_id) == name:
            return env_id
    raise ValueError(f"{name!r} is not a card_envs game; these are: {[short_name(e) for e in list_envs()]}")


# ----- parameters ------------------------------------------------------------------------------
@functools.cache
def defaults(env_id: str) -> dict[str, Any]:
    """The env's arguments with their defaults (the registry's over the class's)."""
    params = inspect.signature(game_class(env_id)).parameters
    return {**{k: p.default for k, p in params.items() if p.default is not inspect.Parameter.empty},
            **spec(env_id).kwargs}


def parameter_specification(env_id: str) -> dict[str, Any]:
    """OpenSpiel's parameters: each env argument whose default is a bool, int, float or text (None
    given as the empty text), and `SEED`. An argument OpenSpiel cannot type (a list) keeps its default."""
    spec_ = {k: NONE_TEXT if v is None else v for k, v in defaults(env_id).items()
             if v is None or isinstance(v, (bool, int, float, str))}
    return {**spec_, SEED: -1}


def config_of(env_id: str, params: dict[str, Any]) -> dict[str, Any]:
    """The env's arguments from OpenSpiel's parameters (`SEED` left out)."""
    known = parameter_specification(env_id)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ArgumentError(f"{short_name(env_id)} has no parameter(s) {unknown}; its parameters are {sorted(known)}")
    return {k: None if defaults(env_id)[k] is None and v == NONE_TEXT else v
            for k, v in params.items() if k != SEED}


@functools.cache
def player_counts(env_id: str) -> tuple[int, ...]:
    """The numbers of players the env takes, found by asking its Game class (no game named here)."""
    if "num_players" not in defaults(env_id):
        return (make_game(env_id).num_players,)
    counts = []
    for n in PLAYER_COUNTS:
        try:
            make_game(env_id, num_players=n)
        except ArgumentError:
            continue
        counts.append(n)
    return tuple(counts)


@functools.cache
def game_type(env_id: str) -> pyspiel.GameType:
    """Sequential, imperfect information, sampled stochastic (chance happens inside the rules'
    transitions), zero-sum terminal rewards, every string and tensor but the factored one."""
    counts = player_counts(env_id)
    return pyspiel.GameType(
        short_name=short_name(env_id), long_name=f"card_envs {env_id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts), min_num_players=min(counts),
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameter_specification(env_id))


def game_info(game: Game) -> pyspiel.GameInfo:
    low, high = game.reward_range
    return pyspiel.GameInfo(num_distinct_actions=game.num_actions, max_chance_outcomes=0,
                            num_players=game.num_players, min_utility=float(low), max_utility=float(high),
                            utility_sum=0.0, max_game_length=game.max_game_length)


# ----- the engine state behind an OpenSpiel state ----------------------------------------------
@functools.cache
def _engine_game(env_id: str, config_json: str) -> Game:
    return make_game(env_id, **json.loads(config_json))


def _restore(env_id: str, config_json: str, snapshot_json: str | None, moves: list) -> "Position":
    game = _engine_game(env_id, config_json)
    state = None if snapshot_json is None else game.state_from_json(json.loads(snapshot_json))
    return Position(game, state, [tuple(m) for m in moves])


class Position:
    """The rules engine's state behind one OpenSpiel state, and its moves as (seat, action, secret).

    OpenSpiel's Clone deep-copies a Python state's attributes and its Serialize pickles them: this
    object copies with the engine's ``clone()`` and pickles through the game's JSON snapshot
    (``to_json`` / ``state_from_json``, whose loader checks what it reads)."""

    __slots__ = ("game", "state", "moves")

    def __init__(self, game: Game, state: State | None, moves: list[tuple[int, int, bool]]):
        self.game, self.state, self.moves = game, state, moves

    def __deepcopy__(self, memo) -> "Position":
        return Position(self.game, None if self.state is None else self.state.clone(), self.moves[:])

    def __reduce__(self):
        env_id = f"{self.game.name}_v{self.game.version}"
        snapshot = None if self.state is None else json.dumps(self.state.to_json())
        return _restore, (env_id, json.dumps(self.game.config), snapshot, self.moves)


class OpenSpielGame(pyspiel.Game):
    """One configuration of an env as a pyspiel game (`pyspiel.load_game` builds it from its
    parameters: the env's arguments and `SEED`)."""

    def __init__(self, env_id: str, params: dict[str, Any] | None = None, engine: Game | None = None):
        params = {**parameter_specification(env_id), **(params or {})}
        engine = engine if engine is not None else make_game(env_id, **config_of(env_id, params))
        seed = params[SEED]
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < -1:
            raise ArgumentError(f"{SEED}={seed!r} must be an integer >= 0, or -1 for fresh entropy")
        super().__init__(game_type(env_id), game_info(engine), params)
        self.env_id, self.engine = env_id, engine
        self.rng = np.random.default_rng(None if seed == -1 else seed)

    @classmethod
    def of(cls, engine: Game, rng_seed: int = -1) -> "OpenSpielGame":
        """The OpenSpiel game of a rules engine's configuration, whatever its options (an option
        OpenSpiel cannot type, a list, is the engine's own; the game's parameters show the rest)."""
        env_id = f"{engine.name}_v{engine.version}"
        typed = parameter_specification(env_id)
        params = {k: NONE_TEXT if v is None else v for k, v in engine.config.items()
                  if k in typed and (v is None or isinstance(v, type(typed[k])))}
        return cls(env_id, {**params, SEED: rng_seed}, engine=engine)

    def new_initial_state(self, snapshot: Any = None) -> "OpenSpielState":
        """A new deal (drawn from the game's rng when first looked at); with a snapshot (a state's
        ``to_json()`` dict or its JSON text), that position."""
        state = OpenSpielState(self)
        if snapshot is not None:
            data = json.loads(snapshot) if isinstance(snapshot, str) else snapshot
            state.position.state = self.engine.state_from_json(data)
        return state

    def wrap(self, engine_state: State, moves: list[tuple[int, int, bool]] | None = None) -> "OpenSpielState":
        """An OpenSpiel state over a copy of a rules-engine state of this configuration."""
        if engine_state.game.config != self.engine.config or engine_state.game.name != self.engine.name:
            raise ValueError(f"the state is of {engine_state.game.name} {engine_state.game.config}, "
                             f"this game is {self.env_id} {self.engine.config}")
        return OpenSpielState(self, Position(self.engine, engine_state.clone(), list(moves or [])))

    def observation_tensor_size(self) -> int:
        return self.engine.observation_size

    def observation_tensor_shape(self) -> list[int]:
        return [self.engine.observation_size]

    information_state_tensor_size = observation_tensor_size
    information_state_tensor_shape = observation_tensor_shape

    def make_py_observer(self, iig_obs_type=None, params=None) -> "Observer":
        return Observer(self.engine, observer_kind(iig_obs_type), params)


@functools.cache
def game_class_for(env_id: str) -> type[OpenSpielGame]:
    """The OpenSpielGame subclass that pyspiel builds `env_id`'s games with (from parameters alone)."""
    def __init__(self, params: dict[str, Any] | None = None):
        OpenSpielGame.__init__(self, env_id, params)

    name = "".join(part.title() for part in env_id.split("_")) + "OpenSpielGame"
    return type(name, (OpenSpielGame,), {"__init__": __init__, "__module__": __name__})


class OpenSpielState(pyspiel.State):
    """A position of an env: the rules engine's state, read and played through OpenSpiel's API."""

    def __init__(self, game: OpenSpielGame, position: Position | None = None):
        super().__init__(game)
        self.position = position or Position(game.engine, None, [])

    @property
    def engine(self) -> State:
        """The rules engine's state; a new state is dealt when first looked at (the first chance event)."""
        position = self.position
        if position.state is None:
            position.state = position.game.new_state(self.get_game().rng)
        return position.state

    def current_player(self) -> int:
        state = self.engine
        return pyspiel.PlayerId.TERMINAL if state.is_terminal() else state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        state = self.engine
        # Sorted, as OpenSpiel requires (an engine may list them in its own order).
        return [] if state.is_terminal() or player != state.current_player else sorted(state.legal_actions())

    def _apply_action(self, action: int) -> None:
        state = self.engine
        seat, secret = state.current_player, bool(self.position.game.secret_move(state, action))
        state.apply(action)
        self.position.moves.append((seat, int(action), secret))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.position.game.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list[float]:
        state = self.engine
        return [float(r) for r in state.returns()] if state.is_terminal() else [0.0] * state.game.num_players

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "OpenSpielState":
        """A state ``player_id`` cannot tell from this one: the engine's ``determinize``, seeded by
        the sampler (a callable giving uniform numbers in [0, 1), as OpenSpiel's bots pass)."""
        seed = int(float(probability_sampler()) * 2**53)
        copy = self.engine.determinize(player_id, np.random.default_rng(seed))
        return OpenSpielState(self.get_game(), Position(self.position.game, copy, self.position.moves[:]))

    # Tensors read from Python skip pyspiel's C++ path, which deals a throwaway state to learn the
    # tensor's size on every call (PyGame's tensor shape comes from a new initial state).
    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self.engine.observation(self.current_player() if player is None else player).tolist()

    information_state_tensor = observation_tensor  # our observation: see the package's docstring

    def snapshot(self) -> dict[str, Any]:
        """The engine's JSON snapshot of this position (`OpenSpielGame.new_initial_state` reads it)."""
        return self.engine.to_json()

    def __str__(self) -> str:
        return self.position.game.render(self.engine, -1)


# ----- observer --------------------------------------------------------------------------------
OBSERVER_KINDS = ("observation", "information_state", "everything")


def observer_kind(iig_obs_type) -> str:
    """Which view an OpenSpiel observation type asks for; ValueError for the views we lack."""
    if iig_obs_type is None:
        return "observation"
    private, public = iig_obs_type.private_info, iig_obs_type.public_info
    if private == pyspiel.PrivateInfoType.SINGLE_PLAYER and public:
        return "information_state" if iig_obs_type.perfect_recall else "observation"
    if private == pyspiel.PrivateInfoType.ALL_PLAYERS and public:
        return "everything"
    raise ValueError(f"observation type {iig_obs_type} is not provided: card_envs games give "
                     "public_info=True with private_info=SINGLE_PLAYER (perfect_recall either way) or ALL_PLAYERS")


def moves_text(moves: list[tuple[int, int, bool]], player: int) -> str:
    """The moves as ``player`` saw them: ``seat:action``, another seat's secret move as ``seat:?``."""
    return " ".join(f"{seat}:{'?' if secret and seat != player else action}" for seat, action, secret in moves)


def nonzero_text(vector: np.ndarray) -> str:
    """``index:value`` for every non-zero entry of a tensor: exact and short (most entries are 0)."""
    return " ".join(f"{i}:{vector[i]:g}" for i in np.flatnonzero(vector))


class Observer:
    """OpenSpiel's PyObserver over the engine's views. ``observation`` and ``information_state``:
    the tensor is the seat's observation (``observation(player)``, its pieces named as the env's
    layout table), the string the text render from that seat (observation) or the moves as the seat
    saw them with the observation's non-zero entries (information state); ``everything``: the full
    state tensor and the render with every card shown."""

    def __init__(self, game: Game, kind: str, params: dict | None = None):
        if params:
            raise ValueError(f"observer parameters are not supported; got {params}")
        if kind not in OBSERVER_KINDS:
            raise ValueError(f"observer kind {kind!r} is not one of {OBSERVER_KINDS}")
        self.kind = kind
        layout = game.state_layout if kind == "everything" else game.observation_layout
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = layout.views(self.tensor)

    def set_from(self, state: OpenSpielState, player: int) -> None:
        engine = state.engine
        self.tensor[:] = engine.state_tensor() if self.kind == "everything" else engine.observation(player)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        engine, game = state.engine, state.position.game
        if self.kind == "everything":
            return game.render(engine, -1)
        if self.kind == "observation":
            return game.render(engine, player)
        return (f"seat {player} | moves {moves_text(state.position.moves, player)} | "
                f"observation {nonzero_text(engine.observation(player))}")

