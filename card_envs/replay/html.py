"""A replay as one self-contained HTML page: ``python -m card_envs.replay view REPLAY.json -o game.html``.

The page needs no server and no network (its CSS and JavaScript are inline). It steps through
the game with the board drawn as cards (`card_envs.replay.boards`), beside it the move that led to that
board and the next one, and a seat selector: "spectator" shows public information only,
"player_k" what seat k saw. The URL hash picks the view and the position
(``game.html#seat=1&step=40``; ``seat=public``).

For people: the move list has one line per turn (a seat's consecutive decisions) for the moves
that led to the board shown, worded from the game's "last move" line where it has one ("player_1
harvested KS from field 0 with KW"), else the decisions under their kind ("commit card: Ruby,
Emerald"), seats named absolutely; what the move that led here changed is marked (a legend says
how); the seats carry the agents' names; a banner gives the result at the end, with the final
scoring in full where the game has more than a number (Split the Hoard's Titles and VP per
source); Piles' Castle is its 3x4 grid, Illimat's four fields lie around the Illimat; suits are
drawn as symbols, and a card's hover names it ("K\u2600: King of Summer"); Dominion's and Split the
Hoard's cards show their cost or rank, types and effect on hover. Each game says how, as data
(``Game.replay_style``, ``Game.card_notes``): the page's script knows no game. The keys act whatever has
focus: left/right arrows step, Space plays and pauses, Home/End jump (up/down still pick a view in
the menu).

Hidden information. The page holds, per position and per view, only what that view shows:
``game.render(state, viewer)`` (as lines) and ``boards.board(game, state, viewer)``, never the
whole state. A move is named to its actor; to another seat only when it could tell it from every
other move (`card_envs.replay.log.action_known`), and to spectators only when every seat could
and the public record tells it apart too (`card_envs.replay.log.public_known`); otherwise the
line says a choice was made. A move the rules make secret (``Game.secret_move``) and later turn
face up (``Game.secret_move_revealed``: Split the Hoard's flip shows the committed cards) is
named to every view from the position of its reveal on; before it, the move and its turn's line
keep hiding it (the page holds both wordings, the later one dated). The script reads its data once and removes it from the document, so
the document only ever holds the selected view. ``reveal_all=True`` (``--reveal-all``) adds an
"everything" view (every hand, the deck order): for post-mortems, not for showing a player.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from card_envs.core.files import atomic_write
from card_envs.core.game import Game, State
from card_envs.replay.boards import board
from card_envs.replay.log import action_known, action_line, canonical, last_move, public_known, result_lines, turn_line
from card_envs.replay.page import CSS, JS, PAGE


class Recorded(Protocol):
    """What the page reads of a replay (`card_envs.replay.record.Replay`)."""

    env_id: str
    config: dict[str, Any]
    actions: list[int]
    players: list[str] | None

    @property
    def game(self) -> Game: ...

    def initial_state(self) -> State: ...


class _Strings:
    """Interned strings: the page stores each line and each zone once."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.ids: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        i = self.ids.get(text)
        if i is None:
            i = self.ids[text] = len(self.items)
            self.items.append(text)
        return i


def replay_data(replay: Recorded, reveal_all: bool = False, seed: int = 0) -> dict[str, Any]:
    """The page's data: per position and per view only what that view shows (module docstring).

    Per position and view: ``h`` head, ``z`` zones, ``t`` render lines, ``a`` the move made there
    (the next one; at the end, the result), ``m`` the move list's line for the turn up to that
    move; per position ``actor`` and ``turn`` (consecutive decisions of one seat make one turn).
    The page shows beside each board the move that led to it (the previous position's ``a``) and
    the next one, each as the view saw it. ``style`` and ``notes``: how the page draws the
    game's cards (``Game.replay_style``, ``Game.card_notes``)."""
    game = replay.game
    n = game.num_players
    views: list[tuple[str, int | None]] = [("public", None)] + [(str(k), k) for k in range(n)]
    if reveal_all:
        views.append(("all", -1))
    strings = _Strings()
    rng = np.random.default_rng(seed)
    steps: list[dict[str, Any]] = []
    texts: list[dict[str, list[str]]] = []  # per position and view: the render's lines
    seen: list[dict[str, tuple[str, str | None, bool]]] = []  # per action and view: its decision as seen
    secrets: list[tuple] = []  # secret moves not public yet: (step, position before it, move, line, phrase)
    reveals: dict[int, tuple[int, str, str]] = {}  # step of a secret move -> (position public from, line, phrase)

    def frame(state: State, viewer: int | None, action_text: str) -> dict[str, Any]:
        b = board(game, state, viewer)
        lines = game.render(state, viewer).split("\n")
        return {"h": strings(b["head"]), "z": [strings(json.dumps(z, separators=(",", ":"))) for z in b["zones"]],
                "t": [strings(line) for line in lines], "a": strings(action_text)}, lines

    state = replay.initial_state()
    for i, action in enumerate(replay.actions + [None]):
        if action is None:
            if not state.is_terminal():
                raise ValueError(f"replay ends after {len(replay.actions)} actions but the game is not over")
            result = "\n".join(result_lines(game, state, replay.players))
            done = {key: frame(state, viewer, result) for key, viewer in views}
            steps.append({"actor": None, "v": {key: f for key, (f, _) in done.items()}})
            texts.append({key: lines for key, (_, lines) in done.items()})
            break
        if state.is_terminal():
            raise ValueError(f"replay has {len(replay.actions) - i} action(s) after the game ended")
        actor = state.current_player
        forced = len(state.legal_actions()) == 1
        move = canonical(state, action)  # what the move did, named plainly
        context, phrase = game.describe_move(state, move)
        known = {k: action_known(state, move, k, rng) for k in range(n)}
        public = public_known(game, state, move, rng, all(known.values()))
        named = action_line(actor, context, phrase)
        step_views, step_texts, step_seen = {}, {}, {}
        for key, viewer in views:
            if viewer == actor or viewer == -1:
                text, shown = named + (" (the only legal action)" if forced else ""), phrase
            elif (public if viewer is None else known[viewer]):
                text, shown = named, phrase
            else:
                text, shown = f"player_{actor} made a choice hidden from " + (
                    "spectators" if viewer is None else "you") + (f" ({context})" if context else ""), None
            step_views[key], step_texts[key] = frame(state, viewer, text)
            step_seen[key] = (context, shown, forced)
        steps.append({"actor": actor, "v": step_views})
        texts.append(step_texts)
        seen.append(step_seen)
        if game.secret_move(state, move):
            secrets.append((i, state.clone(), move, named, phrase))
        state.apply(action)
        secrets = _revealed(game, secrets, state, i + 1, reveals)
    _add_move_lines(steps, texts, seen, strings, [key for key, _ in views], game.quiet_forced_moves, reveals)
    labels = [("spectator (public information)" if viewer is None else "everything (all hidden cards)"
               if viewer == -1 else f"player_{viewer}"
               + (f" ({replay.players[viewer]})" if replay.players and viewer < len(replay.players) else ""))
              for _, viewer in views]
    return {"env_id": replay.env_id, "game": game.name, "config": replay.config, "players": replay.players,
            "views": [key for key, _ in views], "view_labels": labels, "notes": game.card_notes(),
            "style": {k: v for k, v in game.replay_style().items() if k != "css"},
            "strings": strings.items, "steps": steps}


def _revealed(game: Game, secrets: list[tuple], later: State, position: int,
              reveals: dict[int, tuple[int, str, str]]) -> list[tuple]:
    """The secret moves still hidden at ``later`` (position ``position``); those the rules have
    made public by then go to ``reveals`` (`Game.secret_move_revealed`)."""
    hidden = []
    for secret in secrets:
        step, before, move, line, phrase = secret
        if game.secret_move_revealed(before, move, later):
            reveals[step] = (position, line, phrase)
        else:
            hidden.append(secret)
    return hidden


def _add_move_lines(steps: list[dict], texts: list[dict], seen: list[dict], strings: _Strings,
                    views: list[str], quiet: tuple[str, ...], reveals: dict[int, tuple[int, str, str]]) -> None:
    """Each position's ``turn`` and, per view, ``m``: its turn's line up to the move made there.
    Where that line or the move (``a``) held a secret move the rules later made public (``reveals``),
    ``mr`` / ``ar`` list [position, words]: how they read from that position on."""
    turn, start = -1, 0
    for i, step in enumerate(steps):
        if i == 0 or step["actor"] is None or step["actor"] != steps[i - 1]["actor"]:
            turn, start = turn + 1, i
        step["turn"] = turn
        for key in views:
            f = step["v"][key]
            if step["actor"] is None:
                f["m"] = f["a"]
                continue
            after = [last_move(texts[j + 1][key]) for j in range(start, i + 1)]
            decisions = [seen[j][key] for j in range(start, i + 1)]
            f["m"] = strings(turn_line(step["actor"], decisions, last_move(texts[start][key]), after, quiet))
            hidden = [j for j in range(start, i + 1) if j in reveals and seen[j][key][1] is None]
            if i in hidden:
                f["ar"] = [[reveals[i][0], strings(reveals[i][1])]]
            for position in sorted({reveals[j][0] for j in hidden}):
                for j in hidden:
                    if reveals[j][0] == position:
                        context, _, forced = decisions[j - start]
                        decisions[j - start] = (context, reveals[j][2], forced)
                line = turn_line(step["actor"], decisions, last_move(texts[start][key]), after, quiet)
                f.setdefault("mr", []).append([position, strings(line)])


def replay_html(replay: Recorded, reveal_all: bool = False, title: str | None = None) -> str:
    """The whole page as a string (see the module docstring)."""
    data = replay_data(replay, reveal_all)
    title = title or f"{replay.env_id} replay"
    # JSON inside <script>: "<" escaped, so no "</script>" or "<!--" can end or bend the element.
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    css = CSS + replay.game.replay_style().get("css", "")
    return (PAGE.replace("%TITLE%", html.escape(title)).replace("%CSS%", css).replace("%JS%", JS)
            .replace("%DATA%", payload))


def write_replay_html(replay: Recorded, path: str | Path, reveal_all: bool = False) -> None:
    """Write the page atomically (a temporary file beside ``path``, then a rename)."""
    text = replay_html(replay, reveal_all, title=f"{replay.env_id}: {Path(path).stem}")
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
