"""The play page: the replay page's head, style sheet (`card_envs.replay.page.CSS` and the game's
``replay_style`` css) and way of drawing a board (`card_envs.replay.page.DRAW_JS`: groups of zones
of cards, suit symbols, a card's hover note, Piles' grid, Illimat's ring), plus what playing needs:
the legal moves as buttons, the cards and zones a move names as things to click, the moves so far,
help, the result.

The script knows no game and holds no state of its own: it shows the last view the server sent
(`card_envs.web.session.WebGame.view`) and asks for the next one. A click on a card or zone keeps
the moves that name it (``targets``); when one is left it is played, else the next click narrows
them further (Piles: the card, then the Castle position), and the buttons always offer every move.
"""

from __future__ import annotations

import html
import json

from card_envs.core.game import Game
from card_envs.replay.page import CSS, DRAW_JS, HEAD, SCRIPT_START, foot

PAGE = HEAD + """  <div class="controls"><span id="turn">connecting...</span></div>
</header>
<div id="result" hidden></div>
<main>
  <section id="status"><div id="head"></div>
    <div id="refusal" hidden></div>
    <div id="choices"></div>
    <div id="hint"></div>
    <ul id="not-offered"></ul></section>
  <section id="board"></section>
  <aside>
    <h2>the moves so far, one line per turn, as you saw them</h2>
    <ol id="log"></ol>
    <form id="help-form"><input id="help-topic" placeholder="rules, or a card's name" size="22">
      <button type="submit" id="help-button">help</button></form>
    <pre id="help-text"></pre>
    <details><summary>text view</summary><pre id="text"></pre></details>
  </aside>
</main>
""" + foot("play-data")

PLAY_CSS = """
#turn { font-weight: 600; }
#turn.mine { background: #ffd75e; color: #3a2a00; padding: 2px 8px; border-radius: 4px; }
#choices { display: flex; flex-wrap: wrap; gap: 5px; margin-top: 6px; }
#choices button { font-size: 13px; padding: 3px 8px; cursor: pointer; }
#choices button.dim { opacity: 0.35; }
#choices button.lit { background: #ffd75e; }
#hint { font-size: 12px; color: #555; margin-top: 4px; }
#not-offered { font-size: 11px; color: #777; margin: 4px 0 0; }
#refusal { background: #fbe3e3; color: #8a0000; padding: 4px 8px; margin-top: 4px; border-radius: 4px; }
.playable { cursor: pointer; }
.card.playable { outline: 2px solid #ffd75e; outline-offset: 1px; }
.zone.playable, .group.playable > h3 { box-shadow: inset 0 0 0 2px rgba(255, 215, 94, 0.8); }
.card.selected, .zone.selected { outline: 3px solid #1e90ff; outline-offset: 1px; }
#log li { cursor: default; } #log li.new { background: #ffe9a8; }
#help-form { margin-top: 8px; } #help-text { white-space: pre-wrap; font-size: 11px; }
"""

JS = SCRIPT_START + r"""
  var data = JSON.parse(document.getElementById("play-data").textContent);
  var api = "/api/" + location.pathname.split("/").pop();
  var view = null, selection = [], busy = false, seenMoves = 0;

""" + DRAW_JS + r"""
  // ----- moves as clicks --------------------------------------------------------------------
  function candidates(sel) {
    return view.legal.filter(function (m) {
      return sel.every(function (keys) { return keys.some(function (k) { return m.targets.indexOf(k) >= 0; }); });
    });
  }
  function clickable(e, keys) {
    e.dataset.keys = keys.join(" ");
    e.addEventListener("click", function (ev) { ev.stopPropagation(); pick(keys); });
  }
  function pick(keys) {
    if (!view || !view.your_turn || busy) return;
    var sel = selection.concat([keys]), found = candidates(sel);
    if (!found.length) { sel = [keys]; found = candidates(sel); }  // a fresh start
    if (!found.length) { selection = []; hint("no legal move uses that; the buttons list every move"); mark(); return; }
    if (found.length === 1) { send(found[0].action); return; }
    selection = sel;
    hint(found.length + " moves use that: click where it goes, or a button");
    mark();
  }
  function hint(text) { document.getElementById("hint").textContent = text; }
  function mark() {  // what can be clicked now, what is selected, which buttons are left
    var left = view.your_turn ? candidates(selection) : [], chosen = {};
    selection.forEach(function (keys) { keys.forEach(function (k) { chosen[k] = true; }); });
    var wanted = {};
    left.forEach(function (m) { m.targets.forEach(function (k) { wanted[k] = true; }); });
    document.querySelectorAll("[data-keys]").forEach(function (e) {
      var keys = e.dataset.keys.split(" ");
      e.classList.toggle("playable", keys.some(function (k) { return wanted[k]; }));
      e.classList.toggle("selected", selection.length > 0 && chosen[keys[0]] === true);
    });
    var ids = {};
    left.forEach(function (m) { ids[m.action] = true; });
    document.querySelectorAll("#choices button").forEach(function (b) {
      b.classList.toggle("dim", selection.length > 0 && !ids[b.dataset.action]);
      b.classList.toggle("lit", selection.length > 0 && ids[b.dataset.action] === true);
    });
  }
  function setBusy(value) { busy = value; document.body.dataset.busy = value ? "1" : "0"; }
  function send(action) {
    setBusy(true);
    var body = JSON.stringify({action: action, version: view.version});
    fetch(api + "/move", {method: "POST", headers: {"Content-Type": "application/json"}, body: body})
      .then(function (r) { return r.json().then(function (b) { return [r.status, b]; }); })
      .then(function (answer) {
        selection = [];
        if (answer[0] === 200) { refusal(""); show(answer[1]); } else { refusal(answer[1].error); }
        setBusy(false);
      })
      .catch(function () { setBusy(false); refusal("the server did not answer; try again"); });
  }
  function refusal(text) {
    var box = document.getElementById("refusal");
    box.hidden = !text;
    box.textContent = text;
  }

  // ----- the board, drawn as the replay page draws it (DRAW_JS), its parts clickable -----------------
  function playableZone(z, i) {  // a zone, and its cards face up, clicks naming them (``targets``)
    var g = "g:" + z.group;
    var ze = drawZone(z, function (e, c) { if (!c.hidden) clickable(e, ["c" + i + ":" + c.label, "z" + i, g]); });
    clickable(ze, ["z" + i, g]);
    return ze;
  }
  function drawPlayBoard() {
    drawBoard(view.zones, playableZone, {seat: view.seat, mover: view.to_move, players: view.players, you: " (you)"});
    document.querySelectorAll("#board .group").forEach(function (g) { clickable(g, ["g:" + g.dataset.group]); });
  }

  // ----- the rest of the page ---------------------------------------------------------------------
  function drawChoices() {
    var box = document.getElementById("choices"), missing = document.getElementById("not-offered");
    box.textContent = "";
    missing.textContent = "";
    view.legal.forEach(function (m) {
      var b = el("button", "", symbols(m.phrase) + (m.note ? " (" + m.note + ")" : ""));
      b.dataset.action = String(m.action);
      b.title = m.name;
      b.addEventListener("click", function () { if (!busy) send(m.action); });
      box.appendChild(b);
    });
    view.not_offered.forEach(function (line) { missing.appendChild(el("li", "", "not offered: " + line)); });
  }
  function drawLog() {
    var log = document.getElementById("log");
    log.textContent = "";
    view.moves.forEach(function (m, i) {
      var li = el("li", i >= seenMoves ? "new" : "", symbols(m.text));
      if (/hidden from|a hidden choice/.test(m.text)) li.className += " hidden";
      log.appendChild(li);
    });
    var aside = document.querySelector("aside");
    aside.scrollTop = aside.scrollHeight;
  }
  function show(next) {
    if (view !== null && next.version < view.version) return;  // an older answer, overtaken
    var changed = view === null || next.version !== view.version;
    if (view !== null && changed) seenMoves = view.moves.length;
    view = next;
    if (changed) selection = [];
    var turn = document.getElementById("turn");
    turn.className = view.your_turn ? "mine" : "";
    turn.textContent = "you are player_" + view.seat + " | " + (view.result ? "game over"
      : view.your_turn ? "your move" : "player_" + view.to_move + " (" + view.players[view.to_move] + ") to move...");
    document.getElementById("head").textContent = symbols(view.head);
    var result = document.getElementById("result");
    result.hidden = !view.result;
    result.textContent = view.result ? symbols(view.result.join("\n")) +
      (view.replay ? "\nsaved as the replay " + view.replay : "") : "";
    document.getElementById("text").textContent = view.text;
    hint(view.your_turn ? "click a card, a pile or a field, or a button" : "");
    drawPlayBoard();
    drawChoices();
    drawLog();
    mark();
    document.body.dataset.version = String(view.version);
    document.body.dataset.mine = view.your_turn ? "1" : "0";
    document.body.dataset.over = view.result ? "1" : "0";
  }
  function poll() {  // the server answers when the position changes (or after a while)
    fetch(api + "/view?since=" + (view ? view.version : -1))
      .then(function (r) { return r.json(); })
      .then(function (next) { show(next); if (!view.result) poll(); })
      .catch(function () { setTimeout(poll, 1000); });
  }
  function help(topic) {  // the terminal's help: "" the topics, "rules", a card's name
    fetch(api + "/help?topic=" + encodeURIComponent(topic))
      .then(function (r) { return r.json(); })
      .then(function (answer) { document.getElementById("help-text").textContent = symbols(answer.text); })
      .catch(function () {});
  }
  document.getElementById("help-form").addEventListener("submit", function (e) {
    e.preventDefault();
    help(document.getElementById("help-topic").value);
  });
  help("");
  window.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && view) { selection = []; hint(""); mark(); }
  });
  poll();
})();
"""


def page_html(game: Game, title: str) -> str:
    """The page for one game: the same for every seat (what a seat sees comes from the server)."""
    payload = {"notes": game.card_notes(), "style": {k: v for k, v in game.replay_style().items() if k != "css"}}
    text = json.dumps(payload, separators=(",", ":")).replace("<", "\\u003c")
    css = CSS + game.replay_style().get("css", "") + PLAY_CSS
    return (PAGE.replace("%TITLE%", html.escape(title)).replace("%CSS%", css).replace("%JS%", JS)
            .replace("%DATA%", text))
