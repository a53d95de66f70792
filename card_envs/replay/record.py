"""Game replays: a recorded game as JSON, loaded back and stepped through.

``python -m card_envs.evaluate ... --record DIR`` writes one file per game. A replay (format 1) is a JSON
object:

| key | meaning |
|---|---|
| ``format`` | replay format version (`REPLAY_FORMAT`) |
| ``env_id``, ``config`` | the env and its game arguments |
| ``snapshot`` | the initial position in the AEC env's snapshot format (``env.unwrapped.snapshot()``: ``{"env_id", "config", "state"}``) |
| ``actions`` | **every** action from that position to the end, in order, forced single-choice decisions included |
| ``final_scores`` | ``state.scores()`` at the end |
| ``returns`` | the terminal rewards per seat |
| ``players`` | optional: who played each seat |
| ``meta`` | optional: free-form details (deal seed, seat rotation, ...) |

Because forced decisions are recorded too, replaying is plain ``state.apply`` of each action in
turn: with the AEC env use ``auto_forced=False``, e.g.
``env = card_envs.make(r.env_id, auto_forced=False, **r.config); env.reset(options={"state": r.snapshot})``
then ``env.step(a)`` for each ``a`` in ``r.actions``. Chance events are part of the state (the
deck order, Piles' ``chance_seed``), so the same actions give the same game.

    from card_envs.replay import load_replay
    replay = load_replay("games/deal000000_shift0.json")
    for state, action in replay:                    # the position before each action (a copy)
        print(replay.game.action_to_string(action))
    assert replay.final_state().scores() == replay.final_scores

In a browser: ``python -m card_envs.replay view REPLAY.json -o game.html`` writes one
self-contained HTML page (no server, no network) stepping through the game, the board drawn as
cards, with a seat selector that shows only what that seat saw (`card_envs.replay.html`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from card_envs.core.files import atomic_write
from card_envs.core.game import Game, State
from card_envs.core.registry import list_envs, make_game

REPLAY_FORMAT = 1
_KEYS = ("format", "env_id", "config", "snapshot", "actions", "final_scores", "returns", "players", "meta")


@dataclass
class Replay:
    env_id: str
    config: dict[str, Any]
    snapshot: dict[str, Any]  # {"env_id", "config", "state"}: the AEC env's snapshot format
    actions: list[int]  # every action, forced ones included
    final_scores: list[float]
    returns: list[float]
    players: list[str] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def game(self) -> Game:
        if not hasattr(self, "_game"):
            self._game = make_game(self.env_id, **self.config)
        return self._game

    def initial_state(self) -> State:
        return self.game.state_from_json(self.snapshot["state"])

    def __iter__(self) -> Iterator[tuple[State, int]]:
        """(position before the action, as a copy; the action) for every recorded action."""
        state = self.initial_state()
        for i, action in enumerate(self.actions):
            if state.is_terminal():
                raise ValueError(f"replay has {len(self.actions) - i} action(s) after the game ended")
            yield state.clone(), action
            state.apply(action)

    def final_state(self) -> State:
        """The position after every action; ValueError if the game has not ended there."""
        state = self.initial_state()
        for i, action in enumerate(self.actions):
            if state.is_terminal():
                raise ValueError(f"replay has {len(self.actions) - i} action(s) after the game ended")
            state.apply(action)
        if not state.is_terminal():
            raise ValueError(f"replay ends after {len(self.actions)} actions but the game is not over")
        return state

    def to_json(self) -> dict[str, Any]:
        return {"format": REPLAY_FORMAT, "env_id": self.env_id, "config": self.config,
                "snapshot": self.snapshot, "actions": self.actions, "final_scores": self.final_scores,
                "returns": self.returns, "players": self.players, "meta": self.meta}


def record_game(game: Game, env_id: str, initial: State, decisions: Sequence[int],
                players: Sequence[str] | None = None, meta: dict[str, Any] | None = None) -> Replay:
    """A replay of the game from ``initial`` in which the players chose ``decisions``.

    ``decisions`` are the actions of the asked decisions only, as a runner with ``auto_forced``
    (`card_envs.vector.VectorGames`, the AEC env's default) sees them: every forced single-choice
    decision is played here exactly as such a runner plays it, and stored, so the replay holds
    every action. ``initial`` is not modified."""
    snapshot = {"env_id": env_id, "config": game.config, "state": initial.to_json()}
    state = initial.clone()
    actions: list[int] = []

    def play_forced() -> None:
        while not state.is_terminal() and len(legal := state.legal_actions()) == 1:
            actions.append(int(legal[0]))
            state.apply(legal[0])

    play_forced()
    for i, action in enumerate(decisions):
        if state.is_terminal():
            raise ValueError(f"{len(decisions) - i} decision(s) left after the game ended")
        state.apply(int(action))
        actions.append(int(action))
        play_forced()
    if not state.is_terminal():
        raise ValueError(f"the game is not over after {len(decisions)} decisions")
    return Replay(env_id, game.config, snapshot, actions, list(state.scores()),
                  [float(r) for r in state.returns()], list(players) if players is not None else None,
                  dict(meta or {}))


def save_replay(path: str | Path, replay: Replay) -> None:
    """Write the replay as JSON atomically (a temporary file in the same folder, then a rename)."""
    text = json.dumps(replay.to_json(), indent=None, separators=(",", ":"))
    atomic_write(path, lambda tmp: Path(tmp).write_text(text))


def load_replay(path: str | Path) -> Replay:
    """Read and check a replay file; ValueError naming what is wrong with a bad one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} is not a readable replay: {error}") from None
    if not isinstance(data, dict) or data.get("format") != REPLAY_FORMAT:
        raise ValueError(f"{path} is not a card_envs replay of format {REPLAY_FORMAT}")
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise ValueError(f"{path}: replay is missing {missing}")
    env_id, config, snapshot = data["env_id"], data["config"], data["snapshot"]
    if env_id not in list_envs():
        raise ValueError(f"{path}: replay is for {env_id!r}, which this card_envs does not provide ({list_envs()})")
    if not isinstance(snapshot, dict) or snapshot.get("env_id") != env_id or snapshot.get("config") != config \
            or "state" not in snapshot:
        raise ValueError(f"{path}: snapshot must be {{'env_id': {env_id!r}, 'config': {config!r}, 'state': ...}}")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(type(a) is int for a in actions):
        raise ValueError(f"{path}: actions must be a list of integers")
    return Replay(env_id, config, snapshot, actions, data["final_scores"], data["returns"],
                  data["players"], data["meta"] or {})
