"""The replay page's template, style sheet and script (`card_envs.replay.html` fills them in).

The script knows no game: what a game draws its own way comes in the page's data (``style``:
suit symbols, rank names, how card names in text are drawn, a group's CSS class, groups laid
around a centre; ``notes``: a card's hover text), and its colours in the style sheet
(``Game.replay_style``'s ``css``, added after `CSS`). The play page (`card_envs.web.page`) uses
the same head and end (`HEAD`, `foot`), style sheet and board drawing (`SCRIPT_START`, `DRAW_JS`).
"""

# The top of the page, the play page's too (`card_envs.web.page`): both fill in %TITLE% and %CSS%.
HEAD = """<!DOCTYPE html>
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
"""


def foot(data_id: str) -> str:
    """The end of both pages: the box script errors show in (`SCRIPT_START`), the page's data (JSON
    in the element ``data_id``, %DATA% filled in), the script (%JS%)."""
    return (f'<div id="errors" hidden></div>\n<script type="application/json" id="{data_id}">%DATA%</script>\n'
            '<script>%JS%</script>\n</body>\n</html>\n')


PAGE = HEAD + """  <div class="controls">
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
""" + foot("replay-data")

CSS = """
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
.players { display: flex; flex-wrap: wrap; gap: 10px; flex-basis: 100%; }
aside { background: #fff; border-radius: 6px; padding: 8px; max-height: 80vh; overflow: auto; font-size: 12px; }
#log { padding-left: 32px; margin: 0; }
#log li { cursor: pointer; padding: 1px 0; } #log li.current { background: #ffe9a8; }
#log li.hidden { color: #888; }
#text { font-size: 11px; white-space: pre-wrap; }
#errors { background: #b00; color: #fff; padding: 8px; }
/* the game's card classes and layouts (Game.replay_style's css) follow */
"""

# The start of both pages' scripts (this one and `card_envs.web.page`'s): a script error shows on
# the page (#errors), where a reader and the browser tests see it.
SCRIPT_START = r"""
"use strict";
(function () {
  function showError(message) {
    var box = document.getElementById("errors");
    box.hidden = false;
    box.textContent += message + "\n";
  }
  window.addEventListener("error", function (e) { showError("error: " + e.message); });
"""

# How both pages draw a board; the play page adds its clicks through drawBoard's zoneElement. Each
# script defines `data` (with the game's ``notes`` and ``style``) before this part.
DRAW_JS = r"""
  // The game's drawing, as data: card class -> [suit letter, symbol, suit name]; rank letter ->
  // word; card names in text ([regex, suit letter -> symbol]); group -> CSS class; a ring of
  // groups around a centre one.
  var notes = data.notes || {}, style = data.style || {};
  var SUITS = style.suits || {}, RANK_NAMES = style.rank_names || {}, groupClass = style.group_class || {};
  var cardText = style.card_text ? [new RegExp(style.card_text[0], "g"), style.card_text[1]] : null;
  var ring = style.ring || null, places = ring ? new RegExp(ring.places) : null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function symbols(text) {  // card names in a line of text, suits as symbols
    if (!cardText) return text;
    return text.replace(cardText[0], function (_, r, s) { return r + cardText[1][s]; });
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
        title = shown + ": " + (RANK_NAMES[rank] || rank) + " of " + suit[2];
      }
      e = el("div", "card " + (c.cls || "") + (suit ? "" : " long"), shown);  // names in small type
      e.dataset.card = c.label;
      var note = c.note || notes[c.label];  // the card's own, else its name's
      if (note) { title = note; e.dataset.note = "1"; }
      e.title = title;
    }
    if (c.n && c.n > 1) e.appendChild(el("span", "n", "x" + c.n));
    return e;
  }
  function drawZone(z, onCard) {  // onCard(element, card): what the page adds to each card
    var ze = el("div", "zone");
    ze.dataset.zone = z.name;
    if (z.owner !== null) ze.dataset.owner = String(z.owner);
    var label = el("div", "");
    label.appendChild(el("span", "zone-name", z.name));
    if (z.info) label.appendChild(el("span", "zone-info", symbols(z.info)));
    ze.appendChild(label);
    var cards = el("div", "cards");
    if (z.cards.length === 0) cards.appendChild(el("span", "empty", "(none)"));
    z.cards.forEach(function (c) {
      var e = card(c);
      onCard(e, c);
      cards.appendChild(e);
    });
    ze.appendChild(cards);
    return ze;
  }

  // The board: the zones, zoneElement(zone, its index) drawn, in a box per group. who: {seat: the
  // view's seat, mover: the seat to move (or null), players: names by seat (if known), you: what
  // the seat's own group title adds}.
  function groupTitle(name, who) {
    var h = el("h3", "", name), m = /^player_(\d+)$/.exec(name);
    if (m && who.players && who.players[+m[1]]) h.appendChild(el("span", "name", " \u00b7 " + who.players[+m[1]]));
    if (name === "player_" + who.seat) h.appendChild(el("span", "name", who.you));
    return h;
  }
  function drawBoard(zones, zoneElement, who) {
    var boardEl = document.getElementById("board"), groups = {}, order = [], around = null, players = null;
    boardEl.textContent = "";
    zones.forEach(function (z, i) {
      if (!(z.group in groups)) { groups[z.group] = []; order.push(z.group); }
      groups[z.group].push(zoneElement(z, i));
    });
    order.forEach(function (name) {
      var g = el("div", "group");
      g.dataset.group = name;
      if (name === "player_" + who.seat) g.className += " me";
      if (who.mover !== null && name === "player_" + who.mover) g.className += " mover";
      if (name in groupClass) g.className += " " + groupClass[name];
      g.appendChild(groupTitle(name, who));
      groups[name].forEach(function (ze) { g.appendChild(ze); });
      var place = ring && places.test(name);
      if (ring && (place || name === ring.centre)) {  // the ring's places around its centre
        if (around === null) { around = el("div", ring["class"]); boardEl.appendChild(around); }
        g.className += place ? " " + name.replace(places, ring.place_class) : " mid";
        if (!place) g.firstChild.textContent = ring.title;
        around.appendChild(g);
      } else if (/^player_/.test(name)) {
        if (players === null) { players = el("div", "players"); boardEl.appendChild(players); }
        players.appendChild(g);
      } else {
        boardEl.appendChild(g);
      }
    });
  }
"""

JS = SCRIPT_START + r"""
  var holder = document.getElementById("replay-data");
  var data = JSON.parse(holder.textContent);
  holder.remove();  // the document holds only the selected view from here on
  var S = data.strings, steps = data.steps, zoneCache = {};
  var seatSel = document.getElementById("seat"), slider = document.getElementById("slider");
  var playButton = document.getElementById("play");
  var state = {view: data.views[0], step: 0}, timer = null;
""" + DRAW_JS + r"""
  data.views.forEach(function (key, i) {
    var o = document.createElement("option");
    o.value = key; o.textContent = data.view_labels[i];
    seatSel.appendChild(o);
  });
  slider.max = String(steps.length - 1);

  function zone(id) {
    if (!(id in zoneCache)) zoneCache[id] = JSON.parse(S[id]);
    return zoneCache[id];
  }
  function frame(step) { return steps[step].v[state.view]; }
  function said(f, key) {  // a move or turn line as this view reads it at the position shown:
    var id = f[key];       // reworded from where the rules made a secret move in it public
    (f[key + "r"] || []).forEach(function (r) { if (r[0] <= state.step) id = r[1]; });
    return S[id];
  }
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

  function changedZone(z, before) {  // a zone, marked where it differs from the position before
    var had = before ? counts(before) : null, changed = had && JSON.stringify(had) !== JSON.stringify(counts(z));
    var ze = drawZone(z, function (e, c) {
      if (!had) return;
      var n = c.n || 1, l = c.hidden ? "\u0000back" : c.label;  // more of this card than before: new here
      if ((had[l] || 0) < n) e.className += " fresh";
      had[l] = Math.max(0, (had[l] || 0) - n);
    });
    if (changed) ze.className += " changed";
    return ze;
  }
  function drawFrame(f) {  // the board at the position shown, what changed since the one before marked
    var previous = {}, seen = {};
    if (state.step > 0) {
      frame(state.step - 1).z.forEach(function (id) { var z = zone(id); previous[key(z, seen)] = z; });
    }
    seen = {};
    drawBoard(f.z.map(zone), function (z) {
      return changedZone(z, state.step > 0 ? (previous[key(z, seen)] || {cards: []}) : null);
    }, {seat: state.view, mover: steps[state.step].actor, players: data.players, you: " (this view)"});
  }

  function drawLog() {  // the moves that led to this board: those made at positions 0 .. step - 1
    var log = document.getElementById("log"), last = state.step - 1;
    log.textContent = "";
    for (var i = 0; i <= last; i++) {
      if (i < last && steps[i + 1].turn === steps[i].turn) continue;  // the turn's last line so far
      var text = said(steps[i].v[state.view], "m");
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
      : "the move that led here: " + symbols(said(frame(state.step - 1), "a"));
    document.getElementById("next-move").textContent = last ? ""
      : "next move (not on this board yet): " + symbols(said(f, "a"));
    var result = document.getElementById("result");
    result.hidden = !last;
    result.textContent = last ? S[f.a] : "";
    document.getElementById("text").textContent = f.t.map(function (i) { return S[i]; }).join("\n");
    drawFrame(f);
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
