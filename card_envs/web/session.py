"""One game played in the browser (`card_envs.web`): the whole state lives here, on the server;
each seat gets its own view only (`view`), every move is checked against the seat, the legal
actions and the position's version (`move`), and the game is saved after each move (`save`).

The version is the number of actions played: a move names the version it was chosen at, so a
click on a board that has changed since (an opponent moved, another tab moved) is refused.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from card_envs.core.files import atomic_write
from card_envs.core.game import Game, State
from card_envs.core.registry import make_game
from card_envs.replay import action_known, board, canonical, result_lines
from card_envs.replay.log import last_move, turn_line
from card_envs.replay.record import Replay, save_replay

SAVE_FORMAT = 1
SAVE_KIND = "card_envs web game"


class Refused(Exception):
    """A request the game refuses, unchanged: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class Helpers:
    """What the terminal game explains, given to the page (`card_envs.agents.human`): the rules in
    brief, and the game's optional helpers (``choice_note``, ``missing``, ``card_help``,
    ``board``, ``HELP_TOPIC``; see `card_envs.agents.human.terminal_help`; and for the page only
    ``move_places(action name)``: where a move's cards lie, "own", "shared" or "all", see `targets`)."""

    rules: str = ""
    module: Any = None

    def get(self, name: str):
        return getattr(self.module, name, None) if self.module is not None else None


def _phrase_in(phrase: str, text: str) -> bool:
    """``phrase`` occurs in ``text`` as whole words ("7C" in "place 7C on r0c0", not "2C" in "r2c0")."""
    return bool(phrase) and re.search(rf"(?<![\w*]){re.escape(phrase)}(?![\w*])", text) is not None


def targets(name: str, zones: list[dict[str, Any]], seat: int, where: str = "all") -> list[str]:
    """What on the board an action names, as the page's click keys: ``c<zone>:<label>`` a face-up
    card, ``z<zone>`` a zone (by its name), ``g:<group>`` a group (its name before " (", Illimat's
    "field 0"). In the seat's own zones and the shared ones (``where="all"``), or only its own
    (``"own"``) or only the shared (``"shared"``): the game's terminal helpers may say which
    (``move_places``: Dominion's "card Silver" is in hand, "pile Silver" in the Supply). An action
    that is a zone's whole name (Illimat's "stockpile", a kind of play) is a button, not that zone."""
    places = {"all": (None, seat), "own": (seat,), "shared": (None,)}
    if where not in places:
        raise ValueError(f"where={where!r}: a move's cards lie in 'all', 'own' or 'shared' zones")
    owners = places[where]
    found: list[str] = []
    for i, z in enumerate(zones):
        if z["owner"] not in owners:
            continue
        stem = z["group"].split(" (")[0]
        if not stem.startswith("player_") and _phrase_in(stem, name):
            found.append(f"g:{z['group']}")
        if z["name"] != name and _phrase_in(z["name"], name):
            found.append(f"z{i}")
        found += [f"c{i}:{c['label']}" for c in z["cards"] if not c.get("hidden") and _phrase_in(c["label"], name)]
    return list(dict.fromkeys(found))


class WebGame:
    """A game between human seats (each with its own secret token) and policies.

    ``policies``: seat -> a policy (``act(obs, mask, rng)``, or ``act_state(state, seat, rng)``
    where ``needs_state``) for every seat that is not human; ``labels``: who plays each seat (for
    the page, the save and the replay); ``specs``: the policy spec of each non-human seat, saved so
    that a restart builds the same players. ``delay``: seconds before each policy move, so a person
    sees the moves one at a time."""

    def __init__(self, env_id: str, config: dict[str, Any], humans: dict[int, str], policies: dict[int, Any],
                 specs: dict[int, str], seed: int, save_path: str | Path, replay_dir: str | Path,
                 helpers: Helpers | None = None, actions: list[int] | None = None,
                 initial: dict[str, Any] | None = None, delay: float = 0.5, game_id: str | None = None):
        self.env_id, self.seed, self.delay = env_id, seed, delay
        self.game: Game = make_game(env_id, **config)
        n = self.game.num_players
        if sorted(list(humans) + list(policies)) != list(range(n)):
            raise ValueError(f"every seat 0..{n - 1} needs exactly one player: humans at {sorted(humans)}, "
                             f"policies at {sorted(policies)}")
        self.humans, self.policies, self.specs = dict(humans), dict(policies), dict(specs)
        self.seat_of = {token: seat for seat, token in self.humans.items()}
        self.labels = ["human" if s in humans else specs.get(s) or getattr(policies[s], "name", "policy")
                       for s in range(n)]
        self.save_path, self.replay_dir = Path(save_path), Path(replay_dir)
        self.helpers = helpers or Helpers()
        self.game_id = game_id or time.strftime("%Y%m%d_%H%M%S") + "_" + secrets.token_hex(3)
        self.initial = initial or {"env_id": env_id, "config": self.game.config,
                                   "state": self.game.new_state(np.random.default_rng(seed)).to_json()}
        self.state: State = self.game.state_from_json(self.initial["state"])
        self.actions: list[int] = []
        self.log: list[dict[str, Any]] = []  # per action: its actor, and what each human seat saw of it
        self.lines: list[dict[int, str | None]] = [self._last_moves()]  # per position: each human's last-move line
        self.replay_file: Path | None = None
        self.lock = threading.Condition()
        self._views: dict[tuple[int, int], dict[str, Any]] = {}
        self._closed = False
        for i, action in enumerate(actions or []):
            try:
                self._apply(self.game.check_action(action))
            except ValueError as error:
                raise ValueError(f"saved action {i} ({action!r}) cannot be played: {error}") from None
        self._play_forced()
        self._worker = threading.Thread(target=self._play_policies, daemon=True, name=f"web-{self.game_id}")

    # ----- playing ----------------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.actions)

    def start(self) -> None:
        """Save the position, then let the policies play their seats (in a thread of their own)."""
        with self.lock:
            self.save()
        self._worker.start()

    def close(self) -> None:
        with self.lock:
            self._closed = True
            self.lock.notify_all()

    def _last_moves(self) -> dict[int, str | None]:
        return {s: last_move(self.game.render(self.state, s).split("\n")) for s in self.humans}

    def _apply(self, action: int) -> None:
        """Play ``action`` (legal, checked by the caller) and note what each human seat saw of it."""
        state, game = self.state, self.game
        if action not in state.legal_actions():
            raise ValueError(f"action {action} ({game.action_to_string(action)}) is not legal here")
        actor, forced = state.current_player, len(state.legal_actions()) == 1
        move = canonical(state, action)
        context, phrase = game.describe_move(state, move)
        rng = np.random.default_rng([self.seed, len(self.actions)])
        seen = {s: (context, phrase if action_known(state, move, s, rng) else None, forced) for s in self.humans}
        # A secret move (Game.secret_move) is kept with its position: the rules may make it public later
        secret = (state.clone(), move, phrase) if game.secret_move(state, move) else None
        state.apply(action)
        self.actions.append(int(action))
        self.log.append({"actor": actor, "seen": seen, "secret": secret})
        self.lines.append(self._last_moves())
        if state.is_terminal():
            self._save_replay()

    def _play_forced(self) -> None:
        """A human seat's decision with one legal answer is played for it, as in the terminal."""
        while not self.state.is_terminal() and self.state.current_player in self.humans \
                and len(self.state.legal_actions()) == 1:
            self._apply(self.state.legal_actions()[0])

    def move(self, token: str, body: Any) -> dict[str, Any]:
        """A human's move: ``{"action": int, "version": int}``; the seat's new view, or Refused."""
        seat = self.seat(token)
        if not isinstance(body, dict) or set(body) != {"action", "version"}:
            raise Refused(400, 'a move is a JSON object {"action": <int>, "version": <int>}, got '
                               + (f"keys {sorted(body)}" if isinstance(body, dict) else type(body).__name__))
        action, version = body["action"], body["version"]
        if type(action) is not int or type(version) is not int:
            raise Refused(400, f'"action" and "version" must be integers, got {action!r} and {version!r}')
        with self.lock:
            if self.state.is_terminal():
                raise Refused(409, "the game is over: no more moves")
            if version != self.version:
                raise Refused(409, f"stale move: it was chosen at version {version}, the position is now at "
                                   f"version {self.version}; look at the board again")
            if self.state.current_player != seat:
                raise Refused(409, f"not your turn: player_{self.state.current_player} is to move, you are "
                                   f"player_{seat}")
            legal = self.state.legal_actions()
            if action not in legal:
                names = ", ".join(f"{a} ({self.game.action_to_string(a)})" for a in legal[:12])
                raise Refused(422, f"action {action} is not legal now; legal: {names}"
                                   + (f" ... {len(legal)} in all" if len(legal) > 12 else ""))
            self._apply(action)
            self._play_forced()
            self.save()
            self.lock.notify_all()
            return self._view(seat)

    def _play_policies(self) -> None:
        """The policies' seats, one move at a time, ``delay`` apart; a slow policy thinks outside the lock."""
        while True:
            with self.lock:
                while not self._closed and (self.state.is_terminal() or self.state.current_player in self.humans):
                    self.lock.wait()
                if self._closed:
                    return
                version, seat, state = self.version, self.state.current_player, self.state.clone()
            started = time.monotonic()
            action = self._policy_action(state, seat, version)
            time.sleep(max(0.0, self.delay - (time.monotonic() - started)))
            with self.lock:
                if self.version == version and not self._closed:
                    self._apply(action)
                    self._play_forced()
                    self.save()
                    self.lock.notify_all()

    def _policy_action(self, state: State, seat: int, version: int) -> int:
        policy = self.policies[seat]
        rng = np.random.default_rng([self.seed, version, 1])  # the same moves after a restart
        if getattr(policy, "needs_state", False):
            return int(policy.act_state(state, seat, rng))
        return int(policy.act(state.observation(seat), state.legal_mask(), rng))

    def wait_for_change(self, version: int, timeout: float) -> None:
        """Block until the version differs from ``version`` (or ``timeout`` seconds pass)."""
        with self.lock:
            self.lock.wait_for(lambda: self.version != version or self._closed, timeout)

    # ----- what a seat may know -----------------------------------------------------------------
    def seat(self, token: str) -> int:
        if token not in self.seat_of:
            raise Refused(404, "unknown player link: use the address the server printed for your seat")
        return self.seat_of[token]

    def view(self, token: str) -> dict[str, Any]:
        seat = self.seat(token)
        with self.lock:
            return self._view(seat)

    def _view(self, seat: int) -> dict[str, Any]:
        key = (seat, self.version)
        if key not in self._views:
            self._views = {k: v for k, v in self._views.items() if k[1] == self.version}
            self._views[key] = self._build_view(seat)
        return self._views[key]

    def _build_view(self, seat: int) -> dict[str, Any]:
        """Everything the page gets: built from ``seat``'s view of the state only (its board and
        render; the helpers read a copy with everything hidden from the seat redrawn)."""
        game, state = self.game, self.state
        over = state.is_terminal()
        drawn = board(game, state, seat)
        text = game.render(state, seat)
        mine = not over and state.current_player == seat
        known = state if over else state.determinize(seat, np.random.default_rng([self.seed, self.version, 2]))
        board_text = self.helpers.get("board")
        view = {"version": self.version, "seat": seat, "env_id": self.env_id, "players": self.labels,
                "head": drawn["head"], "zones": drawn["zones"], "text": board_text(text, known) if board_text else text,
                "to_move": None if over else state.current_player, "your_turn": mine,
                "legal": self._legal(known, seat, drawn["zones"]) if mine else [],
                "not_offered": [], "moves": self._move_lines(seat),
                "result": result_lines(game, state, self.labels) if over else None,
                "replay": self.replay_file.name if over and self.replay_file else None}
        missing = self.helpers.get("missing")
        if mine and missing:
            view["not_offered"] = list(missing(known, [m["action"] for m in view["legal"]]) or [])
        return view

    def _legal(self, known: State, seat: int, zones: list[dict[str, Any]]) -> list[dict[str, Any]]:
        game, note, places = self.game, self.helpers.get("choice_note"), self.helpers.get("move_places")
        moves = []
        for a in known.legal_actions():
            name = game.action_to_string(a)
            moves.append({"action": int(a), "name": name, "phrase": game.describe_move(known, a)[1],
                          "note": (note(known, a) or "") if note else "",
                          "targets": targets(name, zones, seat, places(name) if places else "all")})
        return moves

    def _move_lines(self, seat: int) -> list[dict[str, Any]]:
        """The moves so far as ``seat`` saw them, one line per turn (`card_envs.replay.log.turn_line`)."""
        out, start = [], 0
        for i, entry in enumerate(self.log):
            if i + 1 < len(self.log) and self.log[i + 1]["actor"] == entry["actor"]:
                continue
            decisions = [self._seen(self.log[j], seat) for j in range(start, i + 1)]
            after = [self.lines[j + 1][seat] for j in range(start, i + 1)]
            line = turn_line(entry["actor"], decisions, self.lines[start][seat], after, self.game.quiet_forced_moves)
            out.append({"actor": entry["actor"], "text": line, "version": i + 1})
            start = i + 1
        return out

    def _seen(self, entry: dict[str, Any], seat: int) -> tuple:
        """What ``seat`` saw of a move, named once the rules have made a secret move public
        (`Game.secret_move_revealed`: Split the Hoard's committed cards from the flip on), as the replays do."""
        context, phrase, forced = entry["seen"][seat]
        secret = entry["secret"]
        if phrase is None and secret is not None and self.game.secret_move_revealed(secret[0], secret[1], self.state):
            phrase = secret[2]
        return context, phrase, forced

    def help(self, token: str, topic: str) -> str:
        """The terminal's ``help``: the topics, ``rules``, or a card's text (`card_envs.agents.human`)."""
        seat = self.seat(token)
        key = " ".join(topic.lower().split())
        extra = self.helpers.get("HELP_TOPIC")
        topics = "'rules': the rules summary" + (f"; {extra}".replace("'help ", "'") if extra else "")
        if not key:
            return f"Help topics: {topics}."
        if key in ("rules", "rule", "the rules"):
            return self.helpers.rules or "No rules summary for this game."
        card_help = self.helpers.get("card_help")
        if card_help:
            with self.lock:
                known = self.state.determinize(seat, np.random.default_rng([self.seed, self.version, 3])) \
                    if not self.state.is_terminal() else self.state.clone()
            text = card_help(topic.strip(), known)
            if text:
                return text
        return f"No help on '{topic.strip()}'. Accepted: {topics}."

    # ----- files ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "kind": SAVE_KIND, "env_id": self.env_id, "config": self.game.config,
                "seed": self.seed, "game_id": self.game_id, "version": self.version, "initial": self.initial,
                "actions": self.actions,
                "humans": {str(s): t for s, t in self.humans.items()},
                "policies": {str(s): spec for s, spec in self.specs.items()},
                "snapshot": {"env_id": self.env_id, "config": self.game.config, "state": self.state.to_json()},
                "replay": str(self.replay_file) if self.replay_file else None}

    def save(self) -> None:
        """The game so far, written atomically (after each move): what a restart resumes."""
        text = json.dumps(self.to_json())
        atomic_write(self.save_path, lambda tmp: Path(tmp).write_text(text))

    def _save_replay(self) -> None:
        state = self.state
        replay = Replay(self.env_id, self.game.config, self.initial, list(self.actions), list(state.scores()),
                        [float(r) for r in state.returns()], list(self.labels),
                        {"seed": self.seed, "game_id": self.game_id, "played": "card_envs.web",
                         "humans": sorted(self.humans), "finished": time.strftime("%Y-%m-%dT%H:%M:%S")})
        path = self.replay_dir / f"{self.env_id}_{self.game_id}.json"
        save_replay(path, replay)
        self.replay_file = path


def read_save(path: str | Path) -> dict[str, Any]:
    """A file written by `WebGame.save`; ValueError naming what is wrong with it."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot read the saved web game {path}: {error}") from None
    if not isinstance(data, dict) or data.get("kind") != SAVE_KIND or data.get("format") != SAVE_FORMAT:
        raise ValueError(f"{path} is not a saved web game (format {SAVE_FORMAT}, written by --web)")
    for key, kind in (("env_id", str), ("config", dict), ("seed", int), ("game_id", str), ("initial", dict),
                      ("actions", list), ("humans", dict), ("policies", dict)):
        if not isinstance(data.get(key), kind):
            raise ValueError(f"{path}: {key!r} must be a {kind.__name__}, got {type(data.get(key)).__name__}")
    try:
        data["humans"] = {int(s): str(t) for s, t in data["humans"].items()}
        data["policies"] = {int(s): str(p) for s, p in data["policies"].items()}
    except ValueError:
        raise ValueError(f"{path}: the seats of 'humans' and 'policies' must be numbers") from None
    return data
