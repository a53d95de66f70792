"""Replays in a browser: ``python -m card_envs.replay view`` pages (card_envs.replay.html, card_envs.replay.boards).

The page tests need no browser. The browser test opens one recorded game of every registered game
in headless Chromium (Debian's ``chromium``; ``$CHROMIUM`` names another binary) with a seat
chosen in the URL, screenshots it, dumps the document after the scripts ran and checks that it
shows that seat's view only, and that nothing was logged to the console; another presses real keys
over the DevTools pipe. They are skipped where no Chromium is installed. With
``REPLAY_SCREENSHOTS=docs/replays`` the screenshots are the docs' (docs/replays/<env_id>.png).
"""

from __future__ import annotations

import html
import json
import os
import re
import select
import shutil
import subprocess
import time
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import card_envs
from card_envs.replay import (
    action_known, board, load_replay, main as replay_main, replay_data, replay_html, save_replay)
from tests.envs.test_replay_public import random_replay

# Short games keep the file fast: one Illimat round, ten Dominion turns each.
CONFIGS = {"illimat_v0": {"rounds": 1}, "dominion_v0": {"max_turns": 10}}
ENVS = card_envs.list_envs()


def _random_replay(env_id: str, seed: int = 0):
    return random_replay(env_id, CONFIGS.get(env_id, {}), seed)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """env_id -> (replay, page path, page data) for one random game of every registered game."""
    folder = tmp_path_factory.mktemp("replay_pages")
    out = {}
    for env_id in ENVS:
        replay = _random_replay(env_id)
        path = folder / f"{env_id}.html"
        text = replay_html(replay)
        path.write_text(text, encoding="utf-8")
        out[env_id] = (replay, path, embedded(text))
    return out


def embedded(text: str) -> dict:
    """The page's data, as its script reads it from the HTML."""
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S)
    assert match, "the page embeds its data in one JSON script element"
    return json.loads(match.group(1))


def _frame(data: dict, step: int, view: str) -> dict:
    """The strings one view holds at one position: head, zones, text lines, action."""
    f = data["steps"][step]["v"][view]
    strings = data["strings"]
    return {"head": strings[f["h"]], "zones": [json.loads(strings[i]) for i in f["z"]],
            "text": "\n".join(strings[i] for i in f["t"]), "action": strings[f["a"]]}


def said(data: dict, step: int, view: str, key: str, position: int) -> str:
    """A step's move (``a``) or turn line (``m``) as the page shows it at ``position``: reworded
    from where the rules made a secret move in it public (``ar``, ``mr``)."""
    f = data["steps"][step]["v"][view]
    words = f[key]
    for at, later in f.get(key + "r", []):
        if at <= position:
            words = later
    return data["strings"][words]


# ----- the page, no browser -------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENVS)
def test_the_page_is_self_contained(pages, env_id):
    text = pages[env_id][1].read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert not re.search(r"https?:|//[a-z]", text.replace("<!DOCTYPE html>", "")), "no network address"
    assert not re.search(r"\b(src|href)=\"(?!data:)", text), "nothing loaded from elsewhere"
    assert text.count("<style>") == 1 and text.count("<script") == 2  # the data and the code, inline


@pytest.mark.parametrize("env_id", ENVS)
def test_each_view_holds_what_that_viewer_sees_and_nothing_more(pages, env_id):
    replay, _, data = pages[env_id]
    game = replay.game
    n = game.num_players
    assert data["views"] == ["public"] + [str(k) for k in range(n)]  # no "everything" view unless asked
    assert len(data["steps"]) == len(replay.actions) + 1
    state, middle = replay.initial_state(), None
    for step, action in enumerate(replay.actions + [None]):
        if step == len(replay.actions) // 2:
            middle = state.clone()
        if step % 5 == 0 or action is None:
            for view, viewer in [("public", None)] + [(str(k), k) for k in range(n)]:
                frame = _frame(data, step, view)
                assert frame["zones"] == board(game, state, viewer)["zones"]
                assert frame["text"] == game.render(state, viewer)
        if action is not None:
            state.apply(action)
    # The whole state never travels: not the snapshot, not the render of everything.
    strings = set(data["strings"])
    assert json.dumps(replay.snapshot["state"]) not in strings
    everything = game.render(middle, -1).split("\n")
    assert [line for line in everything if line not in strings], "the render of everything is not embedded"


def test_reveal_all_adds_an_everything_view():
    replay = _random_replay("three_piles_v0", seed=3)
    data = replay_data(replay, reveal_all=True)
    assert data["views"][-1] == "all"
    last = _frame(data, len(data["steps"]) - 1, "all")
    assert last["text"] == replay.game.render(replay.final_state(), -1)


@pytest.mark.parametrize("env_id", ENVS)
def test_boards_hide_what_the_render_hides(env_id):
    """A seat's board is the same in every position that seat cannot tell from the real one, and
    so is the public board; the board of everything is not."""
    game = card_envs.make_game(env_id, **CONFIGS.get(env_id, {}))
    rng = np.random.default_rng(5)
    state = game.new_state(np.random.default_rng(5))
    step, everything_changed = 0, False
    while not state.is_terminal():
        if step % 4 == 0:
            for seat in range(game.num_players):
                copy = state.determinize(seat, np.random.default_rng(step))
                assert board(game, copy, seat) == board(game, state, seat), (step, seat)
                assert board(game, copy, None) == board(game, state, None), (step, seat)
                everything_changed |= board(game, copy, -1) != board(game, state, -1)
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        step += 1
    assert everything_changed, "the determinized copies do differ where hidden"


def test_a_secret_choice_is_shown_to_its_player_only(pages):
    """Split the Hoard's commits are secret: the page names the card to its player only."""
    replay, _, data = pages["split_the_hoard_v0"]
    n, seen = replay.game.num_players, 0
    for step, entry in enumerate(data["steps"][:-1]):
        if "(commit_card)" not in _frame(data, step, "public")["head"]:
            continue
        actor = entry["actor"]
        name = replay.game.action_to_string(replay.actions[step])
        assert name in _frame(data, step, str(actor))["action"]
        for view in ["public"] + [str(k) for k in range(n) if k != actor]:
            action_line = _frame(data, step, view)["action"]
            assert "hidden from" in action_line and name not in action_line
            move_line = data["strings"][entry["v"][view]["m"]]  # the turn's line in the move list
            assert re.search(r"a hidden choice( x\d+)?$", move_line) and name not in move_line, move_line
        seen += 1
    assert seen


def test_a_public_move_is_named_to_everyone_and_a_forced_secret_one_is_not():
    game = card_envs.make_game("three_piles_v0")
    state = game.new_state(np.random.default_rng(0))
    take = next(a for a in state.legal_actions() if game.action_to_string(a).startswith("take"))
    rng = np.random.default_rng(0)
    assert action_known(state, take, 1, rng) and action_known(state, take, 0, rng)
    # Split the Hoard: the last dealt card to commit is a forced choice; the others still may not
    # learn which card it is (the determinized positions give the player other cards).
    checked = 0
    for seed in range(20):  # such positions are rare: look through a few games
        replay = _random_replay("split_the_hoard_v0", seed=seed)
        for state, action in replay:
            if "(commit_card)" in replay.game.render(state, None).split("\n")[0] and len(state.legal_actions()) == 1:
                other = (state.current_player + 1) % replay.game.num_players
                assert not action_known(state, action, other, np.random.default_rng(0))
                checked += 1
        if checked:
            break
    assert checked or pytest.skip("no forced commit in 20 random games")


def test_view_command_writes_the_page_and_refuses_a_bad_replay(tmp_path, capsys):
    replay = _random_replay("three_piles_v0", seed=2)
    path = tmp_path / "game.json"
    save_replay(path, replay)
    assert replay_main(["view", str(path), "-o", str(tmp_path / "out" / "page.html")]) == 0
    assert (tmp_path / "out" / "page.html").read_text().startswith("<!DOCTYPE html>")
    assert replay_main(["view", str(path), "--reveal-all"]) == 0  # default: beside the replay
    assert '"all"' in (tmp_path / "game.html").read_text()
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(SystemExit) as exit_info:
        replay_main(["view", str(tmp_path / "bad.json")])
    assert exit_info.value.code == 2
    assert "not a card_envs replay" in capsys.readouterr().err


def test_evaluate_html_writes_a_page_beside_each_replay(tmp_path):
    from card_envs.evaluate.__main__ import main as evaluate_main

    record = tmp_path / "games"
    evaluate_main(["three_piles_v0", "heuristic", "random", "--deals", "1", "--record", str(record), "--html",
                   "--out", str(tmp_path / "out"), "--no-plots", "--no-progress"])
    replays = sorted(record.rglob("*.json"))
    assert len(replays) == 2
    for path in replays:
        page = path.with_suffix(".html").read_text(encoding="utf-8")
        assert embedded(page)["env_id"] == "three_piles_v0"
        assert len(embedded(page)["steps"]) == len(load_replay(path).actions) + 1


@pytest.mark.parametrize("env_id", ENVS)
def test_the_move_list_has_one_line_per_turn(pages, env_id):
    """Consecutive decisions of one seat make one turn; its line grows with them and says what
    was played, in words, never a bare "yes" or "done"."""
    replay, _, data = pages[env_id]
    steps = data["steps"]
    turns = [step["turn"] for step in steps]
    assert turns[0] == 0 and all(b - a in (0, 1) for a, b in zip(turns, turns[1:]))
    assert turns[-1] < len(steps) - 1 or env_id in ("three_piles_v0", "piles_v0"), "some turns take decisions"
    for i, step in enumerate(steps[:-1]):
        same = i > 0 and step["turn"] == steps[i - 1]["turn"]
        assert same == (i > 0 and step["actor"] == steps[i - 1]["actor"])
        for view in data["views"]:
            line = data["strings"][step["v"][view]["m"]]
            assert line.startswith(f"player_{step['actor']}")
            assert not re.match(r"player_\d+: (yes|no|done)\b", line), line
    ends = [i for i in range(len(steps) - 1) if steps[i + 1]["turn"] != steps[i]["turn"]]
    lines = [data["strings"][steps[i]["v"]["public"]["m"]] for i in ends]
    words = {"illimat_v0": r"^player_\d (sowed|harvested|stockpiled) ", "three_piles_v0": r"^player_\d (took|drew) ",
             "piles_v0": r"^player_\d placed ", "dominion_v0": r"^player_\d: .*\bbuys ",
             "split_the_hoard_v0": r"^player_\d: commit card: "}
    assert any(re.search(words[env_id], line) for line in lines), lines[:5]
    assert data["strings"][steps[-1]["v"]["public"]["a"]].startswith("Game over: ")


def test_a_turn_line_reads_as_sentences_or_decisions_under_their_kind():
    from card_envs.replay.log import turn_line

    assert turn_line(1, [("", "draw", False), ("", "play 4H -> stack 2", False)], "player_0 took 8C",
                      ["player_1 drew a card", "player_1 played 4H onto stack 2"]) == \
        "player_1 drew a card, then played 4H onto stack 2"
    assert turn_line(0, [("commit card", "Ruby", False), ("commit card", None, False),
                          ("commit coins", "negotiate card 2 (2 coins)", False),
                          ("commit coins", "negotiate card 2 (2 coins)", False), ("commit coins", "done", True)],
                      None, [None] * 5) == \
        "player_0: commit card: Ruby, a hidden choice; commit coins: negotiate card 2 (2 coins) x2"


def test_split_the_hoard_shows_its_titles_what_is_under_way_and_how_each_score_adds_up(pages):
    """The face-up Starting Titles on the table; what is under way (a negotiation, an effect with
    its target) over the board for everyone; at the end each player's Titles, the hidden one
    revealed, with the VP of each source, the unawarded Starting Titles left on the table."""
    from card_envs.games.split_the_hoard.render import score_text

    replay, _, data = pages["split_the_hoard_v0"]
    game, final = replay.game, replay.final_state()
    names = [t.name for t in game.cards.starting]

    def zone(frame, group, name):
        return next(z for z in frame["zones"] if z["group"] == group and z["name"] == name)

    assert [c["label"] for c in zone(_frame(data, 0, "public"), "table", "Starting Titles")["cards"]] == names
    heads = [_frame(data, i, "public")["head"] for i in range(len(data["steps"]))]
    assert any(re.search(r"\nin progress: player_\d negotiates with player_\d", h) for h in heads), "under way"
    last = _frame(data, len(data["steps"]) - 1, "public")
    won = []
    for p, b in enumerate(final.scoring()):
        titles = zone(last, f"player_{p}", "Titles")
        assert [c["label"] for c in titles["cards"]] == b["starting"] + [b["hidden"]]
        assert titles["info"] == score_text(final, p) and f"= {b['total']} VP" in titles["info"]
        won += b["starting"]
    assert [c["label"] for c in zone(last, "table", "Starting Titles")["cards"]] == [t for t in names if t not in won]
    notes = data["notes"]
    assert all(f"{t} (Starting Title" in notes[t] for t in names)


def test_a_move_that_is_the_same_as_another_is_named_by_what_it_did():
    """Dominion's "play all treasures" with no Treasure in hand ends the Treasure phase, exactly as
    "done" does: every view says "ends treasures", which every seat saw."""
    from card_envs.games.dominion.cards import IS_TREASURE
    from card_envs.replay.log import canonical

    for seed in range(10):
        replay = _random_replay("dominion_v0", seed)
        for state, action in replay:
            hand = state.hands[state.current_player]
            if replay.game.action_to_string(action) == "play all treasures" and state.phase == 1 \
                    and not any(k and IS_TREASURE[c] for c, k in enumerate(hand)):
                move = canonical(state, action)
                assert replay.game.action_to_string(move) == "done"
                assert replay.game.describe_move(state, move) == ("", "ends treasures")
                return
    pytest.skip("no such move in 10 random games")


def test_the_result_names_the_winner_and_the_agents():
    replay = _random_replay("three_piles_v0", seed=3)
    replay.players = ["heuristic", "random"]
    data = replay_data(replay)
    result = _frame(data, len(data["steps"]) - 1, "public")["action"]
    returns = replay.returns
    winner = max(range(2), key=lambda k: returns[k])
    expected = "a draw" if returns[0] == returns[1] else f"player_{winner} ({replay.players[winner]}) wins"
    assert result.startswith(f"Game over: {expected} | scores: player_0 (heuristic) ")


# ----- in a browser ---------------------------------------------------------------------------
def _chromium() -> str | None:
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


class _Cards(HTMLParser):
    """Every drawn card of a dumped document: (group, zone name, owner, label or None if face down)."""

    VOID = {"meta", "link", "input", "br", "img", "hr"}

    def __init__(self):
        super().__init__()
        self.stack: list[dict] = []
        self.cards: list[tuple] = []
        self.body: dict = {}
        self.errors = ""
        self._in_errors = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if tag in self.VOID:
            return
        self.stack.append(a)
        classes = (a.get("class") or "").split()
        if tag == "div" and "card" in classes:
            group = next((e["data-group"] for e in reversed(self.stack) if "data-group" in e), None)
            z = next((e for e in reversed(self.stack) if "data-zone" in e), {})
            owner = int(z["data-owner"]) if "data-owner" in z else None
            self.cards.append((group, z.get("data-zone"), owner, None if "back" in classes else a.get("data-card")))
        self._in_errors = a.get("id") == "errors"

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()
        self._in_errors = False

    def handle_data(self, data):
        if self._in_errors:
            self.errors += data


def _forms(label: str) -> set[str]:
    """A card label and the forms the page may draw it in: the suit letter as the symbol of a
    standard deck's suit or of an Illimat season."""
    forms = {label}
    for symbols in ({"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"},
                    {"P": "\u273f", "S": "\u2600", "A": "\u2766", "W": "\u2744", "*": "\u2605"}):
        if len(label) in (2, 3) and label[-1] in symbols:
            forms.add(label[:-1] + symbols[label[-1]])
    return forms


def _symbols(text: str, env_id: str) -> str:
    """A line as the page writes it: a standard deck's or Illimat's card names with suit symbols."""
    if env_id in ("three_piles_v0", "piles_v0"):
        return re.sub(r"\b(10|[2-9AJQK])([CDHS])\b",
                      lambda m: m[1] + "\u2663\u2666\u2665\u2660"["CDHS".index(m[2])], text)
    if env_id == "illimat_v0":
        return re.sub(r"\b(10|[2-9AJQKN])([PSAW*])(?![\w*])",
                      lambda m: m[1] + "\u273f\u2600\u2766\u2744\u2605"["PSAW*".index(m[2])], text)
    return text


def _drawn(zones) -> list[tuple]:
    """The cards a board's zones draw, as `_Cards` lists them (a stack of n is one card)."""
    return [(z["group"], z["name"], z["owner"], None if c.get("hidden") else c["label"]) for z in zones
            for c in z["cards"]]


def _position(data: dict, seat: int) -> int:
    """A position a third into the game or later where another seat holds cards it sees face up."""
    steps = data["steps"]
    for step in range(len(steps) // 3, len(steps)):
        for other in map(str, range(len(data["views"]) - 1)):
            if other != str(seat) and any(z["owner"] == int(other) and z["name"] == "hand"
                                          and any(not c.get("hidden") for c in z["cards"])
                                          for z in _frame(data, step, other)["zones"]):
                return step
    return len(steps) // 3


@pytest.fixture(scope="module")
def browser_runs(pages, tmp_path_factory):
    """Every game's page opened at once in headless Chromium as seat 0: (dumped document, stderr,
    screenshot, position)."""
    binary = _chromium()
    if binary is None:
        pytest.skip("no chromium binary (apt-get install chromium)")
    folder = Path(os.environ.get("REPLAY_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    profiles = tmp_path_factory.mktemp("chromium_profiles")
    runs = {}
    for env_id, (_, path, data) in pages.items():
        step = _position(data, 0)
        shot = folder / f"{env_id}.png"
        command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                   f"--user-data-dir={profiles / env_id}", "--enable-logging=stderr", "--v=0",
                   "--window-size=1400,1000", f"--screenshot={shot}", "--dump-dom",
                   f"{path.as_uri()}#seat=0&step={step}"]
        runs[env_id] = (subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
                        shot, step)
    # The controls, worked by a script added to a copy of one page: selector, buttons, keys, slider, log.
    _, path, _ = pages[ENVS[0]]
    worked = profiles / "controls.html"
    worked.write_text(path.read_text(encoding="utf-8").replace("</body>", _WORK_THE_CONTROLS + "</body>"))
    command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               f"--user-data-dir={profiles / 'controls'}", "--enable-logging=stderr", "--v=0", "--dump-dom",
               worked.as_uri()]
    runs["controls"] = (subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True), None, 0)
    out = {}
    for env_id, (process, shot, step) in runs.items():
        dom, err = process.communicate(timeout=120)
        assert process.returncode == 0, err[-2000:]
        out[env_id] = (dom, err, shot, step)
    return out


_WORK_THE_CONTROLS = """<script>
(function () {
  var seat = document.getElementById("seat");
  function click(id) { document.getElementById(id).click(); }
  seat.value = "public"; seat.dispatchEvent(new Event("change"));
  click("next"); click("next"); click("last"); click("prev"); click("first");
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight"}));
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "End"}));
  var slider = document.getElementById("slider");
  slider.value = "7"; slider.dispatchEvent(new Event("input"));
  click("play"); click("play");
  seat.value = "1"; seat.dispatchEvent(new Event("change"));
  var line = document.querySelectorAll("#log li")[1];  // the second turn: goes to its first position
  line.click();
  var done = document.createElement("div");
  done.id = "worked";
  done.textContent = document.body.dataset.view + "@" + document.body.dataset.step + "@" + line.dataset.step;
  document.body.appendChild(done);
})();
</script>"""


def test_the_controls_work_without_errors(browser_runs):
    dom, err, _, _ = browser_runs["controls"]
    assert not [line for line in err.splitlines() if ":CONSOLE" in line or "Uncaught" in line]
    worked = re.search(r'<div id="worked">(.*?)</div>', dom).group(1).split("@")
    assert worked[0] == "1" and worked[1] == worked[2] and int(worked[1]) > 0, worked
    assert re.search(r'<div id="errors" hidden(="")?></div>', dom)


@pytest.mark.parametrize("env_id", ENVS)
def test_the_page_opens_in_chromium_and_shows_the_chosen_seat_only(pages, browser_runs, env_id):
    replay, _, data = pages[env_id]
    dom, err, shot, step = browser_runs[env_id]
    console = [line for line in err.splitlines() if ":CONSOLE" in line or "Uncaught" in line]
    assert not console, f"console messages: {console}"
    parsed = _Cards()
    parsed.feed(dom)
    assert parsed.body.get("data-ready") == "1", "the script ran to its end"
    assert (parsed.body.get("data-view"), parsed.body.get("data-step")) == ("0", str(step))
    assert not parsed.errors.strip()
    assert 'id="replay-data"' not in dom, "the script removes the data: the document holds one view"
    mine = _frame(data, step, "0")
    assert parsed.cards == _drawn(mine["zones"]), "the document draws seat 0's board at that position"
    # Another seat's hand as that seat saw it is not in the document; the cards only it could
    # see appear nowhere in the document's text (nor in anything seat 0 saw until then).
    seen_by_0 = " ".join([mine["head"], mine["text"]] + [_frame(data, s, "0")["action"] for s in range(step + 1)]
                         + [json.dumps(mine["zones"])])
    text = re.sub(r"<[^>]+>", " ", dom)
    secret_total = 0
    for other in range(1, replay.game.num_players):
        theirs = [c for c in _drawn(_frame(data, step, str(other))["zones"]) if c[2] == other and c[1] == "hand"]
        shown = [c for c in parsed.cards if c[2] == other and c[1] == "hand"]
        if any(c[3] for c in theirs):
            assert shown != theirs, f"player_{other}'s hand is drawn as player_{other} saw it"
        secret = {c[3] for c in theirs if c[3] and not re.search(rf"(?<![\w]){re.escape(c[3])}(?![\w])", seen_by_0)}
        for label in secret:
            for form in _forms(label):
                assert not re.search(rf"(?<![\w]){re.escape(form)}(?![\w])", text), f"{label} of player_{other}"
        secret_total += len(secret)
    if env_id in ("three_piles_v0", "piles_v0", "illimat_v0"):  # unique cards: some are secret
        assert secret_total, "the check had secret cards to look for"
    # For people: the agents' names on the board, what changed since the position before, suit
    # symbols, each game's own layout, and the cards' notes on hover.
    assert "\u00b7 random" in dom, "the agents' names head their seats"
    if step > 0 and _frame(data, step - 1, "0")["zones"] != mine["zones"]:
        assert re.search(r'class="zone[^"]* changed"', dom), "what the last action changed is marked"
    assert re.search(r'class="legend">.*a zone the move that led here changed.*a card new there', dom, re.S)
    # Beside the board: the move that led to it, then the next one, said as such; the move list
    # ends with the turn of the move that led here, and its line shows the board after it.
    led = [html.unescape(x) for x in re.search(r'<div id="led-here">(.*?)</div><div id="next-move">(.*?)</div>',
                                                 dom).groups()]
    assert led[0] == "the move that led here: " + _symbols(said(data, step - 1, "0", "a", step), env_id)
    assert led[1] == "next move (not on this board yet): " + _symbols(mine["action"], env_id)
    items = re.findall(r'<li(?: class="([^"]*)")? value="(\d+)" data-step="(\d+)">(.*?)</li>', dom)
    assert items and items[-1][0].startswith("current") and items[-1][2] == str(step)
    assert len(items) == len({s["turn"] for s in data["steps"][:step]}), "one line per turn that led here"
    for _, _, shown, line in items:  # each turn's line as it reads at this position
        assert html.unescape(line) == _symbols(said(data, int(shown) - 1, "0", "m", step), env_id)
    if env_id == "split_the_hoard_v0":  # past a flip: another seat's commits are named
        assert any(re.search(r"player_[1-9]: commit card: (?!a hidden)", html.unescape(line)) for *_, line in items)
    # A card's hover names it as drawn, then in words: "K\u2660: King of Spades", "A\u2766: Fool of Autumn".
    if env_id in ("three_piles_v0", "piles_v0", "illimat_v0"):
        titles = [(label, html.unescape(title)) for label, title in
                  re.findall(r'data-card="([^"]+)"[^>]* title="([^"]+)"', dom)
                  if re.fullmatch(r"(10|[2-9AJQK])[CDHSPAW*]", label)]
        words = {"illimat_v0": {"A": "Fool", "J": "Knight"}}.get(env_id, {"A": "Ace", "J": "Jack"})
        assert titles
        for label, title in titles:
            drawn, _, name = title.partition(": ")
            assert drawn in _forms(label) - {label} and re.fullmatch(r"(10|[2-9]|Queen|King|%s) of [A-Z][a-z]+"
                                                                     % "|".join(words.values()), name), title
    layout = {"piles_v0": r'class="group castle"', "illimat_v0":
              r'<div class="illimat"><div class="group mid"(.(?!class="players"))*class="group f3 season-'}
    if env_id in layout:
        assert re.search(layout[env_id], dom, re.S), "the Castle as its grid, Illimat's fields around the Illimat"
    if env_id in ("three_piles_v0", "piles_v0", "illimat_v0"):
        assert re.search("[\u2663\u2666\u2665\u2660\u273f\u2600\u2766\u2744]</div>", dom), "suit symbols"
    if env_id in ("dominion_v0", "split_the_hoard_v0"):
        note = re.search(r'<div class="card [^"]*" data-card="([^"]+)" data-note="1" title="([^"]+)"', dom)
        assert note and note.group(1) in note.group(2) and re.search(r"costs \$\d|rank|modifier", note.group(2))
        offers = r'data-card="\[(\d)\] [^"+]+(?: \+(\d+))?" data-note="1" title="([^"]+)"'
        for slot, added, title in re.findall(offers, dom):
            assert title.startswith(f"price {int(slot) + int(added or 0)} Coins"), title  # a Negotiate Card's price
    # The screenshot draws cards: their grey borders and the face-down cards' red stripes.
    assert shot.stat().st_size > 20_000
    image = pytest.importorskip("matplotlib.image").imread(shot)[..., :3]
    pixels = (image * 255).round().astype(int).reshape(-1, 3)
    borders = np.all(np.abs(pixels - [119, 119, 119]) <= 2, axis=1).sum()
    backs = sum(np.all(np.abs(pixels - colour) <= 6, axis=1).sum() for colour in ([123, 36, 36], [163, 58, 58]))
    assert borders > 1000 and backs > 200, (borders, backs)


class _DevTools:
    """Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``:
    it reads commands on fd 3 and answers on fd 4), so that keys and clicks are real input that
    focused controls act on, as a person's are."""

    def __init__(self, binary: str, profile: Path):
        to_chrome, self._in = os.pipe()
        self._out, from_chrome = os.pipe()

        def fds_3_and_4():  # in the child, before exec
            a, b = os.dup(to_chrome), os.dup(from_chrome)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", f"--user-data-dir={profile}",
             "--remote-debugging-pipe", "--window-size=1200,900", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=False,
            preexec_fn=fds_3_and_4)
        os.close(to_chrome)
        os.close(from_chrome)
        self._buffer, self._id, self._session = b"", 0, None
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]

    def send(self, method: str, **params):
        self._id += 1
        message = {"id": self._id, "method": method, "params": params}
        if self._session:
            message["sessionId"] = self._session
        os.write(self._in, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self._id:
                    assert "error" not in reply, (method, reply["error"])
                    return reply["result"]
            ready, _, _ = select.select([self._out], [], [], 60)
            assert ready, f"no answer to {method} within 60 s"
            chunk = os.read(self._out, 1 << 20)
            assert chunk, "chromium closed its pipe"
            self._buffer += chunk

    def js(self, expression: str):
        return self.send("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def click(self, element_id: str) -> None:
        x, y = self.js(f"(function () {{ var r = document.getElementById('{element_id}').getBoundingClientRect();"
                       " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def key(self, key: str) -> None:
        code, vk = {" ": ("Space", 32), "ArrowLeft": ("ArrowLeft", 37), "ArrowRight": ("ArrowRight", 39),
                    "ArrowDown": ("ArrowDown", 40), "End": ("End", 35), "Home": ("Home", 36)}[key]
        extra = {"text": key} if key == " " else {}
        self.send("Input.dispatchKeyEvent", type="keyDown", key=key, code=code, windowsVirtualKeyCode=vk, **extra)
        self.send("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=vk)

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        os.close(self._in)
        os.close(self._out)


def test_the_keys_step_and_play_whatever_has_focus(pages, tmp_path):
    """Real key presses: Space plays and pauses (a focused button is not clicked again), the arrows
    step after a button, the view menu or the slider was used, End shows the result."""
    binary = _chromium()
    if binary is None:
        pytest.skip("no chromium binary (apt-get install chromium)")
    _, path, data = pages["three_piles_v0"]
    chrome = _DevTools(binary, tmp_path / "profile")
    try:
        chrome.send("Page.enable")
        chrome.send("Page.navigate", url=f"{path.as_uri()}#seat=0&step=0")
        for _ in range(200):
            if chrome.js("document.body && document.body.dataset.ready") == "1":
                break
            time.sleep(0.05)

        def where():
            return chrome.js("[document.body.dataset.view, +document.body.dataset.step, "
                             "document.body.dataset.playing || '0']")

        chrome.click("next")  # the button keeps the focus
        assert where() == ["0", 1, "0"]
        chrome.key(" ")
        assert where()[2] == "1", "Space plays"
        chrome.key(" ")
        view, step, playing = where()
        assert playing == "0" and step >= 1, "Space pauses, and the focused button was not clicked"
        chrome.key("ArrowRight")
        assert where() == ["0", step + 1, "0"]
        chrome.js("document.getElementById('seat').focus()")
        chrome.key("ArrowDown")  # the menu picks the next view
        assert where() == ["1", step + 1, "0"]
        chrome.key("ArrowRight")
        chrome.key("ArrowRight")
        assert where() == ["1", step + 3, "0"], "the arrows step with the view menu focused"
        chrome.key("ArrowLeft")
        assert where() == ["1", step + 2, "0"]
        chrome.js("document.getElementById('slider').focus()")
        chrome.key("ArrowLeft")
        assert where() == ["1", step + 1, "0"], "one step with the slider focused"
        chrome.key("End")
        assert where()[1] == len(data["steps"]) - 1
        assert chrome.js("document.getElementById('result').hidden") is False
        assert chrome.js("document.getElementById('result').textContent").startswith("Game over: ")
        chrome.key("Home")
        assert where()[1] == 0 and chrome.js("document.getElementById('result').hidden") is True
        assert not chrome.js("document.getElementById('errors').textContent")
    finally:
        chrome.close()


@pytest.mark.parametrize("env_id", ENVS)
def test_each_game_has_a_small_screenshot_in_the_docs(env_id):
    """docs/replays/<env_id>.png: ``REPLAY_SCREENSHOTS=docs/replays`` with the browser tests writes them."""
    shot = Path(__file__).resolve().parents[2] / "docs" / "replays" / f"{env_id}.png"
    assert shot.is_file(), f"{shot} is missing"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and 20_000 < shot.stat().st_size < 300_000
