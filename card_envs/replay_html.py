"""A replay as one self-contained HTML page: ``python -m card_envs.replay view REPLAY.json -o game.html``.

The page needs no server and no network (its CSS and JavaScript are inline). It steps through
the game with the board drawn as cards (`card_envs.boards`), beside it the move that led to that
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
Hoard's cards show their cost or rank, types and effect on hover. The keys act whatever has
focus: left/right arrows step, Space plays and pauses, Home/End jump (up/down still pick a view in
the menu).

Hidden information. The page holds, per position and per view, only what that view shows:
``game.render(state, viewer)`` (as lines) and ``boards.board(state, viewer)``, never the whole
state. A move is named to its actor; to another seat only when it could tell it from every
other move (`card_envs.replay_log.action_known`), and to spectators only when every seat could
and the public record tells it apart too (`card_envs.replay_log.public_known`); otherwise the
line says a choice was made. The script reads its data once and removes it from the document, so
the document only ever holds the selected view. ``reveal_all=True`` (``--reveal-all``) adds an
"everything" view (every hand, the deck order): for post-mortems, not for showing a player.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from card_envs.boards import board, card_notes
from card_envs.core.files import atomic_write
from card_envs.core.game import Game, State
from card_envs.replay_log import (  # noqa: F401  (action_known: agents/human.py imports it from here)
    action_known, action_line, canonical, describe, last_move, public_known, result_lines, turn_line)


class Recorded(Protocol):
    """What the page reads of a replay (`card_envs.replay.Replay`, which imports this module)."""

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
    the next one, each as the view saw it."""
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
        context, phrase = describe(game, state, move)
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
        state.apply(action)
    _add_move_lines(steps, texts, seen, strings, [key for key, _ in views])
    labels = [("spectator (public information)" if viewer is None else "everything (all hidden cards)"
               if viewer == -1 else f"player_{viewer}"
               + (f" ({replay.players[viewer]})" if replay.players and viewer < len(replay.players) else ""))
              for _, viewer in views]
    return {"env_id": replay.env_id, "game": game.name, "config": replay.config, "players": replay.players,
            "views": [key for key, _ in views], "view_labels": labels, "notes": card_notes(game),
            "strings": strings.items, "steps": steps}


def _add_move_lines(steps: list[dict], texts: list[dict], seen: list[dict], strings: _Strings,
                    views: list[str]) -> None:
    """Each position's ``turn`` and, per view, ``m``: its turn's line up to the move made there."""
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
            line = turn_line(step["actor"], [seen[j][key] for j in range(start, i + 1)],
                             last_move(texts[start][key]), after)
            f["m"] = strings(line)


def replay_html(replay: Recorded, reveal_all: bool = False, title: str | None = None) -> str:
    """The whole page as a string (see the module docstring)."""
    data = replay_data(replay, reveal_all)
    title = title or f"{replay.env_id} replay"
    # JSON inside <script>: "<" escaped, so no "</script>" or "<!--" can end or bend the element.
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    return (_PAGE.replace("%TITLE%", html.escape(title)).replace("%CSS%", _CSS).replace("%JS%", _JS)
            .replace("%DATA%", payload))


def write_replay_html(replay: Recorded, path: str | Path, reveal_all: bool = False) -> None:
    """Write the page atomically (a temporary file beside ``path``, then a rename)."""
    text = replay_html(replay, reveal_all, title=f"{replay.env_id}: {Path(path).stem}")
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>%TITLE%</title>
<style>%CSS%</style>
</head>
<body>
<header>
  <h1 id="title">%TITLE%</h1>
  <div class="controls">
    <label>view <select id="seat"></select></label>
    <button id="first" title="first position (Home)">|&#x25C0;</button>
    <button id="prev" title="previous (left arrow)">&#x25C0;</button>
    <button id="play" title="play / pause (space)">play</button>
    <button id="next" title="next (right arrow)">&#x25B6;</button>
    <button id="last" title="last position (End)">&#x25B6;|</button>
    <input id="slider" type="range" min="0" value="0">
    <span id="counter"></span>
    <span class="keys">keys: &larr; &rarr; step, space play/pause, Home/End</span>
  </div>
</header>
<div id="result" hidden></div>
<main>
  <section id="status"><div id="head"></div>
    <div id="moves"><div id="led-here"></div><div id="next-move"></div></div>
    <div class="legend"><span class="swatch zone-swatch"></span> a zone the move that led here changed
      <span class="swatch card-swatch"></span> a card new there (more of it than before)</div></section>
  <section id="board"></section>
  <aside>
    <h2>the moves that led here, one line per turn, as this view saw them (click: the board after it)</h2>
    <ol id="log"></ol>
    <details><summary>text view</summary><pre id="text"></pre></details>
  </aside>
</main>
<div id="errors" hidden></div>
<script type="application/json" id="replay-data">%DATA%</script>
<script>%JS%</script>
</body>
</html>
"""

_CSS = """
body { font-family: system-ui, "DejaVu Sans", sans-serif; margin: 0; background: #eef1ec; color: #1d2521; }
header { background: #24452f; color: #f4f4ee; padding: 8px 16px; position: sticky; top: 0; z-index: 2; }
h1 { font-size: 18px; margin: 0 0 6px; }
h2 { font-size: 13px; margin: 4px 0; }
.controls { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
.controls button { min-width: 34px; }
.keys { font-size: 11px; opacity: 0.75; }
#slider { flex: 1; min-width: 160px; }
#result { background: #ffd75e; color: #3a2a00; font-size: 13px; padding: 10px 16px; white-space: pre-line;
          text-align: center; border-bottom: 2px solid #b48a00; }
#result::first-line { font-size: 17px; font-weight: 700; }
main { display: grid; grid-template-columns: minmax(0, 1fr) 320px; gap: 12px; padding: 12px 16px; }
#status { grid-column: 1 / 3; background: #fff; border-radius: 6px; padding: 8px 12px; }
#head { white-space: pre-wrap; font-weight: 600; }
#moves { margin-top: 4px; color: #5a2d0c; }
#next-move { color: #555; }
.legend { margin-top: 4px; font-size: 11px; color: #555; }
.swatch { display: inline-block; width: 14px; height: 11px; vertical-align: -1px; border-radius: 2px;
          margin-left: 8px; }
.zone-swatch { background: rgba(255, 215, 94, 0.6); }
.card-swatch { background: #fffef8; outline: 3px solid #ffb300; outline-offset: -3px; }
#board { display: flex; flex-wrap: wrap; gap: 10px; align-content: flex-start; }
.group { background: #2f6b43; border-radius: 8px; padding: 6px 8px 8px; color: #f4f4ee; min-width: 160px;
         display: flex; flex-wrap: wrap; align-content: flex-start; column-gap: 14px; max-width: 100%;
         box-sizing: border-box; }
.group.me { background: #3a5f8f; }
.group.mover { box-shadow: 0 0 0 3px #ffd75e; }
.group > h3 { font-size: 13px; margin: 0 0 2px; flex-basis: 100%; }
.group > h3 .name { font-weight: 400; opacity: 0.85; }
.zone { margin: 4px 0; border-radius: 5px; padding: 1px 3px; }
.zone.changed { background: rgba(255, 215, 94, 0.28); }
.zone-name { font-size: 11px; opacity: 0.9; }
.zone-info { font-size: 11px; opacity: 0.8; }
.zone-info::before { content: " \\00b7\\00a0"; }
.cards { display: flex; flex-wrap: wrap; gap: 3px; min-height: 20px; padding-top: 5px; }
.empty { font-size: 11px; opacity: 0.6; }
.card { position: relative; min-width: 34px; height: 48px; padding: 2px 4px; box-sizing: border-box;
        border-radius: 5px; background: #fffef8; color: #222; border: 1px solid #777; font-weight: 700;
        font-size: 15px; display: flex; align-items: center; justify-content: center; text-align: center;
        box-shadow: 1px 1px 1px rgba(0,0,0,0.3); }
.card.long { font-size: 10px; max-width: 84px; font-weight: 600; }
.card.fresh { outline: 3px solid #ffb300; outline-offset: 0; }
.card[data-note] { cursor: help; }
.card.back { background: repeating-linear-gradient(45deg, #7b2424, #7b2424 4px, #a33a3a 4px, #a33a3a 8px);
             color: #fff; }
.card .n { position: absolute; right: -5px; top: -6px; background: #111; color: #fff; border-radius: 8px;
           font-size: 10px; padding: 0 4px; font-weight: 600; }
.s-C, .s-S { color: #111; } .s-D, .s-H { color: #c0141c; }
.i-P { color: #1c7a2b; background: #eefbea; } .i-S { color: #a66f00; background: #fff8d8; }
.i-A { color: #b5520c; background: #fff3e6; } .i-W { color: #1f4e9c; background: #eaf1ff; }
.i-X { color: #6b2fa3; background: #f4ecff; }
.lum { background: #fff6c8; color: #5b4700; }
.t-treasure { background: #fbeaa6; } .t-victory { background: #cfe9c5; } .t-curse { background: #dcc6ea; }
.t-action { background: #f2f2ee; } .t-treasure.t-victory { background: linear-gradient(#fbeaa6, #cfe9c5); }
.t-action.t-victory { background: linear-gradient(#f2f2ee, #cfe9c5); }
.p-reveal { background: #e8f0ff; } .p-negotiate { background: #fff1e0; } .p-claim { background: #eaf7e6; }
.p-reaction { background: #fde8e8; } .title { background: #f3e6ff; }
.castle { display: grid; grid-template-columns: repeat(4, minmax(120px, 1fr)); gap: 6px; }
.castle > h3 { grid-column: 1 / 5; }
.castle .zone { background: rgba(0, 0, 0, 0.15); margin: 0; padding: 3px 5px; }
.castle .zone.changed { background: rgba(255, 215, 94, 0.35); }
.castle .cards .card { margin-right: -18px; } .castle .cards .card:last-child { margin-right: 0; }
.illimat { display: grid; grid-template-columns: 1fr auto 1fr; grid-template-areas: ". f0 ." "f3 mid f1" ". f2 .";
           gap: 8px; align-items: center; justify-items: center; flex-basis: 100%; }
.illimat .f0 { grid-area: f0; } .illimat .f1 { grid-area: f1; } .illimat .f2 { grid-area: f2; }
.illimat .f3 { grid-area: f3; } .illimat .mid { grid-area: mid; background: #5b3b1a; border-radius: 18px;
           min-width: 170px; max-width: 230px; justify-content: center; text-align: center; }
.illimat .mid .zone { text-align: center; } .illimat .mid .cards { justify-content: center; }
.illimat .group { min-width: 200px; }
.season-summer { background: #8a6d16; } .season-spring { background: #2f7a3a; }
.season-autumn { background: #9a4b16; } .season-winter { background: #2f5683; }
.players { display: flex; flex-wrap: wrap; gap: 10px; flex-basis: 100%; }
aside { background: #fff; border-radius: 6px; padding: 8px; max-height: 80vh; overflow: auto; font-size: 12px; }
#log { padding-left: 32px; margin: 0; }
#log li { cursor: pointer; padding: 1px 0; } #log li.current { background: #ffe9a8; }
#log li.hidden { color: #888; }
#text { font-size: 11px; white-space: pre-wrap; }
#errors { background: #b00; color: #fff; padding: 8px; }
"""

_JS = r"""
"use strict";
(function () {
  function showError(message) {
    var box = document.getElementById("errors");
    box.hidden = false;
    box.textContent += message + "\n";
  }
  window.addEventListener("error", function (e) { showError("error: " + e.message); });
  var holder = document.getElementById("replay-data");
  var data = JSON.parse(holder.textContent);
  holder.remove();  // the document holds only the selected view from here on
  var S = data.strings, steps = data.steps, zoneCache = {}, notes = data.notes || {};
  var seatSel = document.getElementById("seat"), slider = document.getElementById("slider");
  var playButton = document.getElementById("play");
  var state = {view: data.views[0], step: 0}, timer = null;
  // Suit letters drawn as symbols: standard decks, and Illimat's seasons and stars.
  var SUITS = {"s-C": ["C", "\u2663"], "s-D": ["D", "\u2666"], "s-H": ["H", "\u2665"], "s-S": ["S", "\u2660"],
               "i-P": ["P", "\u273F"], "i-S": ["S", "\u2600"], "i-A": ["A", "\u2766"], "i-W": ["W", "\u2744"],
               "i-X": ["*", "\u2605"]};
  var SUIT_NAMES = {"s-C": "Clubs", "s-D": "Diamonds", "s-H": "Hearts", "s-S": "Spades", "i-P": "Spring",
                    "i-S": "Summer", "i-A": "Autumn", "i-W": "Winter", "i-X": "Stars"};
  var RANK_NAMES = data.game === "illimat" ? {A: "Fool", J: "Knight", Q: "Queen", K: "King"}  // Illimat's A, J
                                           : {A: "Ace", J: "Jack", Q: "Queen", K: "King"};
  var STD = /\b(10|[2-9AJQK])([CDHS])\b/g, ILL = /\b(10|[2-9AJQKN])([PSAW*])(?![\w*])/g;
  var STD_SYM = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  var ILL_SYM = {P: "\u273F", S: "\u2600", A: "\u2766", W: "\u2744", "*": "\u2605"};

  data.views.forEach(function (key, i) {
    var o = document.createElement("option");
    o.value = key; o.textContent = data.view_labels[i];
    seatSel.appendChild(o);
  });
  slider.max = String(steps.length - 1);

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function symbols(text) {  // card names in a line of text, suits as symbols
    if (data.game === "three_piles" || data.game === "piles")
      return text.replace(STD, function (_, r, s) { return r + STD_SYM[s]; });
    if (data.game === "illimat") return text.replace(ILL, function (_, r, s) { return r + ILL_SYM[s]; });
    return text;
  }
  function zone(id) {
    if (!(id in zoneCache)) zoneCache[id] = JSON.parse(S[id]);
    return zoneCache[id];
  }
  function noteOf(label) {  // Split the Hoard's Negotiate Cards read "[1] Name +2": price 1 + 2 added Coins
    var m = /^\[(\d)\] (.+?)(?: \+(\d+))?$/.exec(label);
    if (!m || !(m[2] in notes)) return notes[label];
    var added = m[3] ? +m[3] : 0;
    return "price " + (+m[1] + added) + " Coins before discounts (Negotiate Card " + m[1]
      + (added ? " + " + added + " added" : "") + ") | " + notes[m[2]];
  }
  function card(c) {
    var e;
    if (c.hidden) {
      e = el("div", "card back", "?");
      e.title = "face down";
    } else {
      var shown = c.label, title = c.label, suit = SUITS[(c.cls || "").split(" ")[0]];
      if (suit && shown.slice(-1) === suit[0]) {  // the card as drawn, then its name: "K\u2600: King of Summer"
        var rank = shown.slice(0, -1);
        shown = rank + suit[1];
        title = shown + ": " + (RANK_NAMES[rank] || rank) + " of " + SUIT_NAMES[c.cls];
      }
      e = el("div", "card " + (c.cls || "") + (suit ? "" : " long"), shown);  // names in small type
      e.dataset.card = c.label;
      var note = noteOf(c.label);
      if (note) { title = note; e.dataset.note = "1"; }
      e.title = title;
    }
    if (c.n && c.n > 1) e.appendChild(el("span", "n", "x" + c.n));
    return e;
  }
  function frame(step) { return steps[step].v[state.view]; }
  function key(z, seen) {  // a zone's identity from one position to the next
    var k = z.group + "|" + z.name;
    seen[k] = (seen[k] || 0) + 1;
    return k + "|" + seen[k];
  }
  function counts(z) {
    var out = {};
    z.cards.forEach(function (c) { var l = c.hidden ? "\u0000back" : c.label; out[l] = (out[l] || 0) + (c.n || 1); });
    return out;
  }

  function readHash() {
    var h = new URLSearchParams(location.hash.replace(/^#/, ""));
    var v = h.get("seat"), s = parseInt(h.get("step"), 10);
    if (v !== null && data.views.indexOf(v) >= 0) state.view = v;
    if (!isNaN(s)) state.step = Math.max(0, Math.min(steps.length - 1, s));
  }
  function writeHash() {
    var h = "#seat=" + state.view + "&step=" + state.step;
    if (location.hash !== h) history.replaceState(null, "", h);
  }

  function groupTitle(name) {
    var h = el("h3", "", name), m = /^player_(\d+)$/.exec(name);
    if (m && data.players && data.players[+m[1]]) h.appendChild(el("span", "name", " \u00b7 " + data.players[+m[1]]));
    if (name === "player_" + state.view) h.appendChild(el("span", "name", " (this view)"));
    return h;
  }
  function drawZone(z, before) {
    var ze = el("div", "zone");
    ze.dataset.zone = z.name;
    if (z.owner !== null) ze.dataset.owner = String(z.owner);
    var label = el("div", "");
    label.appendChild(el("span", "zone-name", z.name));
    if (z.info) label.appendChild(el("span", "zone-info", symbols(z.info)));
    ze.appendChild(label);
    var cards = el("div", "cards"), had = before ? counts(before) : null;
    if (had && JSON.stringify(had) !== JSON.stringify(counts(z))) ze.className += " changed";
    if (z.cards.length === 0) cards.appendChild(el("span", "empty", "(none)"));
    z.cards.forEach(function (c) {
      var e = card(c), l = c.hidden ? "\u0000back" : c.label;
      if (had) {  // more of this card than before: new here
        var n = c.n || 1;
        if ((had[l] || 0) < n) e.className += " fresh";
        had[l] = Math.max(0, (had[l] || 0) - n);
      }
      cards.appendChild(e);
    });
    ze.appendChild(cards);
    return ze;
  }

  function drawBoard(f) {
    var boardEl = document.getElementById("board"), groups = {}, order = [], previous = {}, seen = {};
    boardEl.textContent = "";
    if (state.step > 0) {
      frame(state.step - 1).z.forEach(function (id) { var z = zone(id); previous[key(z, seen)] = z; });
    }
    seen = {};
    f.z.forEach(function (id) {
      var z = zone(id);
      if (!(z.group in groups)) { groups[z.group] = []; order.push(z.group); }
      groups[z.group].push([z, state.step > 0 ? (previous[key(z, seen)] || {cards: []}) : null]);
    });
    var mover = steps[state.step].actor, illimat = null, players = null;
    order.forEach(function (name) {
      var g = el("div", "group");
      g.dataset.group = name;
      if (name === "player_" + state.view) g.className += " me";
      if (mover !== null && name === "player_" + mover) g.className += " mover";
      if (name === "castle") g.className += " castle";
      g.appendChild(groupTitle(name));
      groups[name].forEach(function (pair) { g.appendChild(drawZone(pair[0], pair[1])); });
      var field = /^field (\d) \((\w+)\)$/.exec(name);
      if (data.game === "illimat" && (field || name === "table")) {  // the four fields around the Illimat
        if (illimat === null) { illimat = el("div", "illimat"); boardEl.appendChild(illimat); }
        g.className += field ? " f" + field[1] + " season-" + field[2] : " mid";
        if (!field) g.firstChild.textContent = "the Illimat";
        illimat.appendChild(g);
      } else if (/^player_/.test(name)) {
        if (players === null) { players = el("div", "players"); boardEl.appendChild(players); }
        players.appendChild(g);
      } else {
        boardEl.appendChild(g);
      }
    });
  }

  function drawLog() {  // the moves that led to this board: those made at positions 0 .. step - 1
    var log = document.getElementById("log"), last = state.step - 1;
    log.textContent = "";
    for (var i = 0; i <= last; i++) {
      if (i < last && steps[i + 1].turn === steps[i].turn) continue;  // the turn's last line so far
      var text = S[steps[i].v[state.view].m];
      var li = el("li", i === last ? "current" : "", symbols(text));
      if (/hidden from|a hidden choice/.test(text)) li.className += " hidden";
      li.value = steps[i].turn + 1;
      li.dataset.step = String(i + 1);  // the board this line's moves led to
      li.addEventListener("click", function (e) { go(parseInt(e.currentTarget.dataset.step, 10)); });
      log.appendChild(li);
    }
  }

  function draw() {
    var f = frame(state.step), last = state.step === steps.length - 1;
    seatSel.value = state.view;
    slider.value = String(state.step);
    document.getElementById("counter").textContent = "position " + state.step + " / " + (steps.length - 1);
    document.getElementById("head").textContent = symbols(S[f.h]);
    document.getElementById("led-here").textContent = state.step === 0 ? "the starting position"
      : "the move that led here: " + symbols(S[frame(state.step - 1).a]);
    document.getElementById("next-move").textContent = last ? ""
      : "next move (not on this board yet): " + symbols(S[f.a]);
    var result = document.getElementById("result");
    result.hidden = !last;
    result.textContent = last ? S[f.a] : "";
    document.getElementById("text").textContent = f.t.map(function (i) { return S[i]; }).join("\n");
    drawBoard(f);
    drawLog();  // the moves up to this position only
    var aside = document.querySelector("aside");
    aside.scrollTop = aside.scrollHeight;  // the current move is the last one listed
    writeHash();
    document.body.dataset.view = state.view;
    document.body.dataset.step = String(state.step);
  }
  function go(step) {
    state.step = Math.max(0, Math.min(steps.length - 1, step));
    draw();
  }
  function stop() {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    playButton.textContent = "play";
    document.body.dataset.playing = "0";
  }
  function togglePlay() {
    if (timer !== null) { stop(); return; }
    if (state.step >= steps.length - 1) go(0);  // played to the end: play again from the start
    playButton.textContent = "pause";
    document.body.dataset.playing = "1";
    timer = setInterval(function () { if (state.step >= steps.length - 1) stop(); else go(state.step + 1); }, 700);
  }

  seatSel.addEventListener("change", function () { state.view = seatSel.value; draw(); });
  slider.addEventListener("input", function () { stop(); go(parseInt(slider.value, 10)); });
  document.getElementById("first").addEventListener("click", function () { stop(); go(0); });
  document.getElementById("last").addEventListener("click", function () { stop(); go(steps.length - 1); });
  document.getElementById("prev").addEventListener("click", function () { stop(); go(state.step - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); go(state.step + 1); });
  playButton.addEventListener("click", togglePlay);
  // The keys step and play whatever has focus: caught before the focused control (a button would
  // click again on Space, the view menu would change the view on an arrow); Up/Down still pick a view.
  var KEYS = {ArrowRight: function () { stop(); go(state.step + 1); },
              ArrowLeft: function () { stop(); go(state.step - 1); },
              Home: function () { stop(); go(0); }, End: function () { stop(); go(steps.length - 1); },
              " ": togglePlay};
  window.addEventListener("keydown", function (e) {
    if (!(e.key in KEYS) || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    e.stopPropagation();
    if (!e.repeat) KEYS[e.key]();
  }, true);
  window.addEventListener("keyup", function (e) {  // a focused button clicks on Space's keyup
    if (e.key === " ") { e.preventDefault(); e.stopPropagation(); }
  }, true);
  window.addEventListener("hashchange", function () { readHash(); draw(); });

  readHash();
  draw();
  document.body.dataset.ready = "1";
})();
"""
