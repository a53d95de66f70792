"""A replay as one self-contained HTML page: ``python -m card_envs.replay view REPLAY.json -o game.html``.

The page needs no server and no network (its CSS and JavaScript are inline). It steps through
the game with the board drawn as cards (`card_envs.boards`), the action taken at each step, and
a seat selector: "spectator" shows public information only, "player_k" what seat k saw. The URL
hash picks the view and the position (``game.html#seat=1&step=40``; ``seat=public``).

Hidden information. The page holds, per position and per view, only what that view shows:
``game.render(state, viewer)`` (as lines) and ``boards.board(state, viewer)``, never the whole
state. The action taken is shown to its actor; to another seat only when it could tell it from
every alternative (`action_known`), and to spectators only when every other seat could and the
public render tells it apart too; otherwise the line says a choice was made. The script reads
its data once and removes it from the document, so the document only ever holds the selected
view. ``reveal_all=True`` (``--reveal-all``) adds an "everything" view (every hand, the deck
order): for post-mortems, not for showing a player.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import numpy as np

from card_envs.boards import board
from card_envs.core.files import atomic_write
from card_envs.core.game import Game, State
from card_envs.replay import Replay

WORLDS = 2  # determinized positions per seat, besides the real one, for `action_known`


def action_known(state: State, action: int, seat: int, rng: np.random.Generator, worlds: int = WORLDS) -> bool:
    """Whether ``seat`` can tell that ``action`` was played at ``state`` from its observation after it.

    True for the player who acts. For another seat: no other action, legal in the real position
    or in ``worlds`` positions drawn by ``state.determinize(seat, rng)`` (positions the seat cannot
    tell from the real one), leaves it the same observation. The determinized positions catch a
    forced choice among hidden cards (one legal action here, but the seat does not know which)."""
    if seat == state.current_player:
        return True
    after = state.clone()
    after.apply(action)
    target = after.observation(seat)
    for w in range(worlds + 1):
        world = state if w == 0 else state.determinize(seat, rng)
        for other in world.legal_actions():
            if other != action:
                copy = world.clone()
                copy.apply(other)
                if np.array_equal(copy.observation(seat), target):
                    return False
    return True


def _public_known(game: Game, state: State, action: int, seats_know: bool) -> bool:
    if not seats_know:
        return False
    after = state.clone()
    after.apply(action)
    text = game.render(after, None)
    for other in state.legal_actions():
        if other != action:
            copy = state.clone()
            copy.apply(other)
            if game.render(copy, None) == text:
                return False
    return True


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


def replay_data(replay: Replay, reveal_all: bool = False, seed: int = 0) -> dict[str, Any]:
    """The page's data: per position and per view only what that view shows (module docstring)."""
    game = replay.game
    n = game.num_players
    views: list[tuple[str, int | None]] = [("public", None)] + [(str(k), k) for k in range(n)]
    if reveal_all:
        views.append(("all", -1))
    strings = _Strings()
    rng = np.random.default_rng(seed)

    def frame(state: State, viewer: int | None, action_text: str) -> dict[str, Any]:
        b = board(game, state, viewer)
        return {"h": strings(b["head"]),
                "z": [strings(json.dumps(z, separators=(",", ":"))) for z in b["zones"]],
                "t": [strings(line) for line in game.render(state, viewer).split("\n")],
                "a": strings(action_text)}

    steps = []
    state = replay.initial_state()
    for i, action in enumerate(replay.actions + [None]):
        if action is None:
            if not state.is_terminal():
                raise ValueError(f"replay ends after {len(replay.actions)} actions but the game is not over")
            scores = ", ".join(f"player_{k} {s}" for k, s in enumerate(state.scores()))
            returns = ", ".join(f"player_{k} {r:+g}" for k, r in enumerate(state.returns()))
            text = f"game over | scores: {scores} | rewards: {returns}"
            steps.append({"actor": None, "v": {key: frame(state, viewer, text) for key, viewer in views}})
            break
        if state.is_terminal():
            raise ValueError(f"replay has {len(replay.actions) - i} action(s) after the game ended")
        actor = state.current_player
        name = game.action_to_string(action)
        forced = len(state.legal_actions()) == 1
        known = {k: action_known(state, action, k, rng) for k in range(n)}
        public = _public_known(game, state, action, all(known.values()))
        step_views = {}
        for key, viewer in views:
            if viewer == actor or viewer == -1:
                text = f"player_{actor}: {name}" + (" (the only legal action)" if forced else "")
            elif (public if viewer is None else known[viewer]):
                text = f"player_{actor}: {name}"
            else:
                text = f"player_{actor} made a choice hidden from " + ("spectators" if viewer is None else "you")
            step_views[key] = frame(state, viewer, text)
        steps.append({"actor": actor, "v": step_views})
        state.apply(action)
    labels = [("spectator (public information)" if viewer is None else "everything (all hidden cards)"
               if viewer == -1 else f"player_{viewer}"
               + (f" ({replay.players[viewer]})" if replay.players and viewer < len(replay.players) else ""))
              for _, viewer in views]
    return {"env_id": replay.env_id, "config": replay.config, "players": replay.players,
            "views": [key for key, _ in views], "view_labels": labels, "strings": strings.items, "steps": steps}


def replay_html(replay: Replay, reveal_all: bool = False, title: str | None = None) -> str:
    """The whole page as a string (see the module docstring)."""
    data = replay_data(replay, reveal_all)
    title = title or f"{replay.env_id} replay"
    # JSON inside <script>: "<" escaped, so no "</script>" or "<!--" can end or bend the element.
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    return (_PAGE.replace("%TITLE%", html.escape(title)).replace("%CSS%", _CSS).replace("%JS%", _JS)
            .replace("%DATA%", payload))


def write_replay_html(replay: Replay, path: str | Path, reveal_all: bool = False) -> None:
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
  </div>
</header>
<main>
  <section id="status"><div id="head"></div><div id="action"></div></section>
  <section id="board"></section>
  <aside>
    <h2>moves so far, as this view saw them</h2>
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
body { font-family: system-ui, sans-serif; margin: 0; background: #eef1ec; color: #1d2521; }
header { background: #24452f; color: #f4f4ee; padding: 8px 16px; position: sticky; top: 0; z-index: 2; }
h1 { font-size: 18px; margin: 0 0 6px; }
h2 { font-size: 14px; margin: 4px 0; }
.controls { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
.controls button { min-width: 34px; }
#slider { flex: 1; min-width: 160px; }
main { display: grid; grid-template-columns: minmax(0, 1fr) 300px; gap: 12px; padding: 12px 16px; }
#status { grid-column: 1 / 3; background: #fff; border-radius: 6px; padding: 8px 12px; }
#head { white-space: pre-wrap; font-weight: 600; }
#action { margin-top: 4px; color: #5a2d0c; }
#board { display: flex; flex-wrap: wrap; gap: 10px; align-content: flex-start; }
.group { background: #2f6b43; border-radius: 8px; padding: 6px 8px 8px; color: #f4f4ee; min-width: 160px;
         display: flex; flex-wrap: wrap; align-content: flex-start; column-gap: 14px; max-width: 100%; }
.group.me { background: #3a5f8f; }
.group > h3 { font-size: 13px; margin: 0 0 2px; flex-basis: 100%; }
.zone { margin: 4px 0; }
.zone-name { font-size: 11px; opacity: 0.9; }
.zone-info { font-size: 11px; opacity: 0.8; }
.zone-info::before { content: " · "; }
.cards { display: flex; flex-wrap: wrap; gap: 3px; min-height: 20px; }
.empty { font-size: 11px; opacity: 0.6; }
.card { position: relative; min-width: 34px; height: 48px; padding: 2px 4px; box-sizing: border-box;
        border-radius: 5px; background: #fffef8; color: #222; border: 1px solid #777; font-weight: 700;
        font-size: 14px; display: flex; align-items: center; justify-content: center; text-align: center;
        box-shadow: 1px 1px 1px rgba(0,0,0,0.3); }
.card.long { font-size: 10px; max-width: 84px; font-weight: 600; }
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
aside { background: #fff; border-radius: 6px; padding: 8px; max-height: 80vh; overflow: auto; font-size: 12px; }
#log { padding-left: 36px; margin: 0; }
#log li { cursor: pointer; } #log li.current { background: #ffe9a8; } #log li.hidden { color: #888; }
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
  var S = data.strings, steps = data.steps, zoneCache = {};
  var seatSel = document.getElementById("seat"), slider = document.getElementById("slider");
  var state = {view: data.views[0], step: 0}, timer = null;

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
  function zone(id) {
    if (!(id in zoneCache)) zoneCache[id] = JSON.parse(S[id]);
    return zoneCache[id];
  }
  function card(c) {
    var e;
    if (c.hidden) {
      e = el("div", "card back", "?");
      e.title = "face down";
    } else {
      e = el("div", "card " + (c.cls || "") + (c.label.length > 4 ? " long" : ""), c.label);
      e.dataset.card = c.label;
      e.title = c.label;
    }
    if (c.n && c.n > 1) e.appendChild(el("span", "n", "x" + c.n));
    return e;
  }
  function frame(step) { return steps[step].v[state.view]; }

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

  function drawBoard(f) {
    var boardEl = document.getElementById("board"), groups = {}, order = [];
    boardEl.textContent = "";
    f.z.forEach(function (id) {
      var z = zone(id);
      if (!(z.group in groups)) { groups[z.group] = []; order.push(z.group); }
      groups[z.group].push(z);
    });
    order.forEach(function (name) {
      var g = el("div", "group");
      g.dataset.group = name;
      if (name === "player_" + state.view) g.className += " me";
      g.appendChild(el("h3", "", name === "player_" + state.view ? name + " (this view)" : name));
      groups[name].forEach(function (z) {
        var ze = el("div", "zone");
        ze.dataset.zone = z.name;
        if (z.owner !== null) ze.dataset.owner = String(z.owner);
        var label = el("div", "");
        label.appendChild(el("span", "zone-name", z.name));
        if (z.info) label.appendChild(el("span", "zone-info", z.info));
        ze.appendChild(label);
        var cards = el("div", "cards");
        if (z.cards.length === 0) cards.appendChild(el("span", "empty", "(none)"));
        z.cards.forEach(function (c) { cards.appendChild(card(c)); });
        ze.appendChild(cards);
        g.appendChild(ze);
      });
      boardEl.appendChild(g);
    });
  }

  function drawLog() {
    var log = document.getElementById("log");
    log.textContent = "";
    for (var i = 0; i <= state.step; i++) {
      var text = S[steps[i].v[state.view].a];
      var li = el("li", i === state.step ? "current" : "", text);
      if (/hidden from/.test(text)) li.className += " hidden";
      li.value = i;
      li.dataset.step = String(i);
      li.addEventListener("click", function (e) { go(parseInt(e.currentTarget.dataset.step, 10)); });
      log.appendChild(li);
    }
  }

  function draw() {
    var f = frame(state.step);
    seatSel.value = state.view;
    slider.value = String(state.step);
    document.getElementById("counter").textContent = "position " + state.step + " / " + (steps.length - 1);
    document.getElementById("head").textContent = S[f.h];
    document.getElementById("action").textContent =
      (steps[state.step].actor === null ? "" : "action taken here: ") + S[f.a];
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
    document.getElementById("play").textContent = "play";
  }

  seatSel.addEventListener("change", function () { state.view = seatSel.value; draw(); });
  slider.addEventListener("input", function () { go(parseInt(slider.value, 10)); });
  document.getElementById("first").addEventListener("click", function () { stop(); go(0); });
  document.getElementById("last").addEventListener("click", function () { stop(); go(steps.length - 1); });
  document.getElementById("prev").addEventListener("click", function () { stop(); go(state.step - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); go(state.step + 1); });
  document.getElementById("play").addEventListener("click", function () {
    if (timer !== null) { stop(); return; }
    this.textContent = "pause";
    timer = setInterval(function () { if (state.step >= steps.length - 1) stop(); else go(state.step + 1); }, 700);
  });
  document.addEventListener("keydown", function (e) {
    if (e.target === seatSel) return;
    if (e.key === "ArrowRight") go(state.step + 1);
    else if (e.key === "ArrowLeft") go(state.step - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(steps.length - 1);
    else return;
    e.preventDefault();
  });
  window.addEventListener("hashchange", function () { readHash(); draw(); });

  readHash();
  draw();
  document.body.dataset.ready = "1";
})();
"""
