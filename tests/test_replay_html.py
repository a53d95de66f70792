"""Replays in a browser: ``python -m card_envs.replay view`` pages (card_envs.replay_html, card_envs.boards).

The page tests need no browser. The browser test opens one recorded game of every registered game
in headless Chromium (Debian's ``chromium``; ``$CHROMIUM`` names another binary) with a seat
chosen in the URL, screenshots it, dumps the document after the scripts ran and checks that it
shows that seat's view only, and that nothing was logged to the console; it is skipped where no
Chromium is installed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import card_envs
from card_envs.boards import board
from card_envs.replay import load_replay, main as replay_main, record_game, save_replay
from card_envs.replay_html import action_known, replay_data, replay_html

# Short games keep the file fast: one Illimat round, ten Dominion turns each.
CONFIGS = {"illimat_v0": {"rounds": 1}, "dominion_v0": {"max_turns": 10}}
ENVS = card_envs.list_envs()


def _random_replay(env_id: str, seed: int = 0):
    game = card_envs.make_game(env_id, **CONFIGS.get(env_id, {}))
    rng = np.random.default_rng(seed)
    initial = game.new_state(np.random.default_rng(seed))
    state, decisions = initial.clone(), []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        if len(legal) > 1:  # record_game plays forced decisions itself
            decisions.append(action)
        state.apply(action)
    return record_game(game, env_id, initial, decisions, ["random"] * game.num_players, {"seed": seed})


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
        out[env_id] = (replay, path, _embedded(text))
    return out


def _embedded(text: str) -> dict:
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S)
    assert match, "the page embeds its data in one JSON script element"
    return json.loads(match.group(1))


def _frame(data: dict, step: int, view: str) -> dict:
    """The strings one view holds at one position: head, zones, text lines, action."""
    f = data["steps"][step]["v"][view]
    strings = data["strings"]
    return {"head": strings[f["h"]], "zones": [json.loads(strings[i]) for i in f["z"]],
            "text": "\n".join(strings[i] for i in f["t"]), "action": strings[f["a"]]}


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
    from evaluate.__main__ import main as evaluate_main

    record = tmp_path / "games"
    evaluate_main(["three_piles_v0", "heuristic", "random", "--deals", "1", "--record", str(record), "--html",
                   "--out", str(tmp_path / "out"), "--no-plots", "--no-progress"])
    replays = sorted(record.rglob("*.json"))
    assert len(replays) == 2
    for path in replays:
        page = path.with_suffix(".html").read_text(encoding="utf-8")
        assert _embedded(page)["env_id"] == "three_piles_v0"
        assert len(_embedded(page)["steps"]) == len(load_replay(path).actions) + 1


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
    worked = folder / "controls.html"
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
  document.querySelectorAll("#log li")[3].click();
  var done = document.createElement("div");
  done.id = "worked";
  done.textContent = document.body.dataset.view + "@" + document.body.dataset.step;
  document.body.appendChild(done);
})();
</script>"""


def test_the_controls_work_without_errors(browser_runs):
    dom, err, _, _ = browser_runs["controls"]
    assert not [line for line in err.splitlines() if ":CONSOLE" in line or "Uncaught" in line]
    assert '<div id="worked">1@3</div>' in dom
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
            assert not re.search(rf"(?<![\w]){re.escape(label)}(?![\w])", text), f"{label} of player_{other}"
        secret_total += len(secret)
    if env_id in ("three_piles_v0", "piles_v0", "illimat_v0"):  # unique cards: some are secret
        assert secret_total, "the check had secret cards to look for"
    # The screenshot draws cards: their grey borders and the face-down cards' red stripes.
    assert shot.stat().st_size > 20_000
    image = pytest.importorskip("matplotlib.image").imread(shot)[..., :3]
    pixels = (image * 255).round().astype(int).reshape(-1, 3)
    borders = np.all(np.abs(pixels - [119, 119, 119]) <= 2, axis=1).sum()
    backs = sum(np.all(np.abs(pixels - colour) <= 6, axis=1).sum() for colour in ([123, 36, 36], [163, 58, 58]))
    assert borders > 1000 and backs > 200, (borders, backs)
