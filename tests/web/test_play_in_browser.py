"""Playing in a browser (card_envs.web, ``python -m card_envs.agents.play <env_id> --web``).

In headless Chromium driven by Playwright (Debian's ``chromium``, ``$CHROMIUM`` another; never a
browser Playwright would download): every game played by clicks to its end against a random
opponent with no console error, a reload in the middle showing the same position, and every
answer the page received holding that seat's board exactly and no card the seat has never seen.
Without a browser: bad requests refused and nothing changed, a restart resumes the same game, two
people each see their own hand, the CLI's refusals. Skipped where no Chromium is installed.
``WEB_SCREENSHOT=docs/play_web.png`` writes the README's picture.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.human import rules_summary, terminal_help
from card_envs.agents.play import main as play_main
from card_envs.replay import board, load_replay
from card_envs.web import Helpers, PlayServer, WebGame, read_save, targets

# Short games keep the file fast: one Illimat round, ten Dominion turns each.
CONFIGS = {"illimat_v0": {"rounds": 1}, "dominion_v0": {"max_turns": 10}}
ENVS = card_envs.list_envs()


def _chromium() -> str | None:
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def _session(env_id: str, folder: Path, humans=(0,), opponent: str = "random", seed: int = 0, **kwargs) -> WebGame:
    game = card_envs.make_game(env_id, **CONFIGS.get(env_id, {}))
    policy = make_policy(opponent, game)
    others = [s for s in range(game.num_players) if s not in humans]
    return WebGame(env_id, game.config, {s: f"seat{s}token" for s in humans}, {s: policy for s in others},
                   {s: opponent for s in others}, seed, folder / "game.json", folder / "replays",
                   Helpers(rules_summary(env_id), terminal_help(game.name)), delay=0, **kwargs)


def _serve(session: WebGame) -> PlayServer:
    server = PlayServer(session, port=0, wait=5.0)
    server.start_background()
    return server


def _request(server: PlayServer, path: str, body: bytes | None = None, headers=None) -> tuple[int, dict]:
    request = urllib.request.Request(server.address + path, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _post(server, token: str, move) -> tuple[int, dict]:
    body = move if isinstance(move, bytes) else json.dumps(move).encode()
    return _request(server, f"/api/{token}/move", body, {"Content-Type": "application/json"})


def _my_turn(server, token: str) -> dict:
    """The view once it is the seat's move (or the game is over)."""
    status, view = _request(server, f"/api/{token}/view")
    while not view["your_turn"] and view["result"] is None:
        status, view = _request(server, f"/api/{token}/view?since={view['version']}")
    assert status == 200
    return view


# ----- in the browser -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    binary = _chromium()
    if binary is None:
        pytest.skip("no chromium binary (apt-get install chromium, or set $CHROMIUM)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=binary, args=["--no-sandbox", "--disable-gpu"])
        yield chromium
        chromium.close()


def _watch(page) -> tuple[list, list]:
    """(console errors and page errors, (url, status, body) of every answer the page got)."""
    errors, answers = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def answered(response):
        if "/api/" in response.url:
            try:
                answers.append((response.url, response.status, response.text()))
            except Exception:  # noqa: BLE001 (a long poll cut short by the reload has no body)
                pass
    page.on("response", answered)
    return errors, answers


def _wait_for_my_move(page, version: int | None) -> None:
    """Until the page shows a newer position where the seat moves, or the end."""
    after = "true" if version is None else f"document.body.dataset.version !== '{version}'"
    page.wait_for_function(f"({after}) && (document.body.dataset.mine === '1' || document.body.dataset.over === '1')",
                           timeout=30000)


def _click_a_move(page, rng) -> None:
    """Mostly clicks on the board (a card, a zone, a field: each click keeps the moves naming it;
    the last one plays), else a button; a click that leaves no move is answered by the buttons."""
    version = page.evaluate("document.body.dataset.version")
    for _ in range(3):
        playable = page.locator("#board .playable")
        count = playable.count()
        if count == 0 or rng.random() < 0.3:
            break
        playable.nth(int(rng.integers(count))).click()
        page.wait_for_function("document.body.dataset.busy !== '1'")  # a move sent: its answer shown
        if page.evaluate("document.body.dataset.version") != version:
            return
    buttons = page.locator("#choices button:not(.dim)")
    buttons.nth(int(rng.integers(buttons.count()))).click()


def _named(label: str, text: str) -> bool:
    return re.search(rf"(?<![\w*]){re.escape(label)}(?![\w*])", text) is not None


def _known_labels(game, states, seat: int, labels: set[str]) -> list[set[str]]:
    """Per version, every card label the seat has seen by then: face up on its board, or named by
    its render (a card on its way, "move so far: card JA"; not the render's legend, the same in
    every position)."""
    seen, legend, out = set(), set(game.render(states[0], seat).split("\n")), []
    for state in states:
        for zone in board(game, state, seat)["zones"]:
            seen.update(c["label"] for c in zone["cards"] if not c.get("hidden"))
        news = "\n".join(line for line in game.render(state, seat).split("\n") if line not in legend)
        seen.update(label for label in labels - seen if _named(label, news))
        out.append(set(seen))
    return out


def _check_answers(session: WebGame, answers: list, seat: int = 0) -> int:
    """Every view the page received is the seat's board at its version, with the seat's legal
    moves, and names no card the seat had not seen face up by then."""
    game, terminal = session.game, terminal_help(session.game.name)
    states = [game.state_from_json(session.initial["state"])]
    for action in session.actions:
        states.append(states[-1].clone())
        states[-1].apply(action)
    every_label = {c["label"] for s in states for z in board(game, s, -1)["zones"] for c in z["cards"]
                   if not c.get("hidden")}
    known_by = _known_labels(game, states, seat, every_label)
    checked = 0
    for url, status, text in answers:
        if "/help" in url or status != 200:
            continue
        view = json.loads(text)
        state = states[view["version"]]
        assert view["seat"] == seat
        drawn = board(game, state, seat)
        assert (view["head"], view["zones"]) == (drawn["head"], drawn["zones"]), url
        mine = not state.is_terminal() and state.current_player == seat
        assert [m["action"] for m in view["legal"]] == (state.legal_actions() if mine else [])
        rendered = game.render(state, seat)  # the seat's text view (Dominion's supply as a table)
        assert view["text"] == (terminal.board(rendered, state) if hasattr(terminal, "board") else rendered)
        # The rest names no card the seat has not seen (the text view's legend names cards: "AA is ...").
        rest = json.dumps({k: v for k, v in view.items() if k != "text"})
        known = known_by[view["version"]]
        for label in sorted(known, key=len, reverse=True):  # "[2] Ancient Scroll +1" holds "[2] Ancient Scroll"
            rest = rest.replace(label, " ")
        leaked = [label for label in every_label - known if _named(label, rest)]
        assert not leaked, (f"version {view['version']}: the answer names {leaked[:5]}, never seen by player_{seat}: "
                            + ", ".join(rest[max(0, m.start() - 200):m.end() + 50] for label in leaked[:1]
                                        for m in re.finditer(re.escape(label), rest)))
        checked += 1
    return checked


@pytest.mark.parametrize("env_id", ENVS)
def test_a_whole_game_by_clicks_with_a_reload_and_no_leak(browser, tmp_path, env_id):
    session = _session(env_id, tmp_path, seed=1)
    server = _serve(session)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors, answers = _watch(page)
    rng = np.random.default_rng(0)
    try:
        page.goto(server.links()[0])
        _wait_for_my_move(page, None)
        moves, reloaded = 0, False
        while page.evaluate("document.body.dataset.over") != "1":
            if moves == 4 and not reloaded:  # the same position after a reload
                before = page.inner_text("#board"), page.inner_text("#choices"), page.evaluate(
                    "document.body.dataset.version")
                page.reload()
                _wait_for_my_move(page, None)
                after = page.inner_text("#board"), page.inner_text("#choices"), page.evaluate(
                    "document.body.dataset.version")
                assert after == before
                reloaded = True
            if moves == 6 and env_id == "illimat_v0" and os.environ.get("WEB_SCREENSHOT"):
                page.screenshot(path=os.environ["WEB_SCREENSHOT"])  # the README's picture
            version = page.evaluate("document.body.dataset.version")
            _click_a_move(page, rng)
            _wait_for_my_move(page, version)
            moves += 1
        assert reloaded and moves > 4
        assert "Game over" in page.inner_text("#result")
        assert page.inner_text("#help-text").startswith("Help topics: 'rules'")  # shown from the start
        page.fill("#help-topic", "rules")
        page.click("#help-button")
        page.wait_for_function("document.getElementById('help-text').textContent.indexOf('Rules of') === 0")
        assert f"Rules of {env_id}" in page.inner_text("#help-text")
    finally:
        page.close()
        server.stop()
    assert not errors, errors
    assert session.state.is_terminal()
    assert _check_answers(session, answers) > moves
    replay = load_replay(session.replay_file)
    assert replay.actions == session.actions and replay.players[0] == "human"
    assert replay.players[1:] == ["random"] * (session.game.num_players - 1)
    assert replay.final_state().scores() == session.state.scores()


def test_clicking_a_card_then_a_place_plays_that_move(browser, tmp_path):
    """Piles: its card from the hand, then a Castle position: the move that names both."""
    session = _session("piles_v0", tmp_path, seed=2)
    server = _serve(session)
    page = browser.new_page()
    try:
        page.goto(server.links()[0])
        _wait_for_my_move(page, None)
        view = session.view("seat0token")
        move = next(m for m in view["legal"] if m["name"].startswith("place "))
        card, position = re.match(r"place (\S+) on (\S+)", move["name"]).groups()
        version = page.evaluate("document.body.dataset.version")
        page.click(f"[data-group='player_0'] .card[data-card='{card}']")
        assert page.locator("#choices button.lit").count() > 1  # every place for that card
        page.click(f"[data-group='castle'] .zone[data-zone='{position}'] .zone-name")
        page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        assert session.actions[int(version)] == move["action"]
    finally:
        page.close()
        server.stop()


def test_an_open_page_goes_on_after_the_server_restarts(browser, tmp_path):
    """The game is saved after each move: a new server from the save, on the same port, serves the
    same links, and the page left open reconnects to it and plays on."""
    session = _session("three_piles_v0", tmp_path, seed=5)
    server = _serve(session)
    port = server.server_address[1]
    page = browser.new_page()
    try:
        page.goto(server.links()[0])
        _wait_for_my_move(page, None)
        version = page.evaluate("document.body.dataset.version")
        page.locator("#choices button").first.click()
        _wait_for_my_move(page, version)
        board_before = page.inner_text("#board")
        server.stop()
        saved = read_save(tmp_path / "game.json")
        policy = make_policy("random", session.game)
        again = WebGame(saved["env_id"], saved["config"], saved["humans"], {1: policy}, saved["policies"],
                        saved["seed"], tmp_path / "game.json", tmp_path / "replays", actions=saved["actions"],
                        initial=saved["initial"], delay=0, game_id=saved["game_id"])
        server = PlayServer(again, port=port, wait=5.0)
        server.start_background()
        version = page.evaluate("document.body.dataset.version")
        assert version == str(again.version) and page.inner_text("#board") == board_before
        page.locator("#choices button").first.click()  # the page's next request reaches the new server
        _wait_for_my_move(page, version)
        assert again.version > int(version)
    finally:
        page.close()
        server.stop()


# ----- without a browser ------------------------------------------------------------------------------
def test_bad_requests_are_refused_and_change_nothing(tmp_path):
    session = _session("three_piles_v0", tmp_path, humans=(0, 1))
    server = _serve(session)
    try:
        view = _my_turn(server, "seat0token")
        saved = (tmp_path / "game.json").read_bytes()
        version, legal = view["version"], [m["action"] for m in view["legal"]]
        illegal = next(a for a in range(session.game.num_actions) if a not in legal)
        cases = [("seat0token", b"{not json", 400, "malformed JSON"),
                 ("seat0token", {"action": legal[0]}, 400, "a move is a JSON object"),
                 ("seat0token", {"action": "1", "version": version}, 400, "must be integers"),
                 ("seat0token", {"action": legal[0], "version": version - 1}, 409, "stale move"),
                 ("seat0token", {"action": illegal, "version": version}, 422, "is not legal now"),
                 ("seat1token", {"action": legal[0], "version": version}, 409, "not your turn"),
                 ("nobody", {"action": legal[0], "version": version}, 404, "unknown player link"),
                 ("seat0token", b"[" * 5000, 413, "at most")]
        for token, body, status, words in cases:
            got, answer = _post(server, token, body)
            assert (got, words) == (status, words) and words in answer["error"], (body, answer)
        assert session.version == version and (tmp_path / "game.json").read_bytes() == saved
        assert _request(server, "/api/seat0token/move")[0] == 405
        assert _request(server, "/elsewhere")[0] == 404
        assert _post(server, "seat0token", {"action": legal[0], "version": version})[0] == 200
    finally:
        server.stop()


def test_each_person_sees_their_own_hand_and_a_restart_resumes(tmp_path):
    session = _session("three_piles_v0", tmp_path, humans=(0, 1), seed=4)
    server = _serve(session)
    try:
        for _ in range(6):  # both people play, each on their own link
            for token in ("seat0token", "seat1token"):
                view = _request(server, f"/api/{token}/view")[1]
                if view["your_turn"]:
                    assert _post(server, token, {"action": view["legal"][-1]["action"],
                                                 "version": view["version"]})[0] == 200
        views = {s: _request(server, f"/api/seat{s}token/view")[1] for s in (0, 1)}
    finally:
        server.stop()
    for seat in (0, 1):
        hands = {z["owner"]: z["cards"] for z in views[seat]["zones"] if z["name"] == "hand"}
        assert all("label" in c for c in hands[seat]) and all(c.get("hidden") for c in hands[1 - seat])
    saved = read_save(tmp_path / "game.json")
    assert saved["actions"] == session.actions and saved["humans"] == {0: "seat0token", 1: "seat1token"}
    again = WebGame(saved["env_id"], saved["config"], saved["humans"], {}, {}, saved["seed"], tmp_path / "game.json",
                    tmp_path / "replays", actions=saved["actions"], initial=saved["initial"],
                    game_id=saved["game_id"])
    for seat in (0, 1):
        assert again.view(f"seat{seat}token") == views[seat]


def test_targets_name_what_a_move_names():
    zones = [{"group": "table", "name": "stack 0", "owner": None, "cards": [{"label": "7H"}]},
             {"group": "player_0", "name": "hand", "owner": 0, "cards": [{"label": "2C"}, {"hidden": True}]},
             {"group": "player_0", "name": "pile 1", "owner": 0, "cards": []},
             {"group": "player_1", "name": "pile 1", "owner": 1, "cards": []},
             {"group": "field 0 (summer)", "name": "stockpile", "owner": None, "cards": []}]
    assert targets("play 2C -> stack 0", zones, 0) == ["z0", "c1:2C"]
    assert targets("take stack 0 top -> pile 1", zones, 0) == ["z0", "z2"]  # not the other seat's pile
    assert targets("place 2C on r2c0", zones, 0) == ["c1:2C"]  # "2C" is not in "r2c0"
    assert targets("field 0", zones, 0) == ["g:field 0 (summer)"] and targets("stockpile", zones, 0) == []


def test_a_game_may_say_where_a_moves_cards_lie():
    """Dominion's "card Copper" is a card of the mover's (played from hand), "pile Copper" the Supply's."""
    places = terminal_help("dominion").move_places
    zones = [{"group": "supply", "name": "Copper", "owner": None, "cards": [{"label": "Copper", "n": 46}]},
             {"group": "player_0", "name": "hand", "owner": 0, "cards": [{"label": "Copper"}]}]
    assert targets("card Copper", zones, 0, places("card Copper")) == ["c1:Copper"]
    assert targets("pile Copper", zones, 0, places("pile Copper")) == ["z0", "c0:Copper"]
    assert set(targets("card Copper", zones, 0)) == {"z0", "c0:Copper", "c1:Copper"}  # by default: anywhere


def _start(argv: list[str]) -> tuple[subprocess.Popen, str]:
    """The command in a process of its own, and the first link it prints."""
    process = subprocess.Popen([sys.executable, "-m", "card_envs.agents.play", *argv], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    for line in process.stdout:
        if found := re.search(r"player_0: (http://\S+)", line):
            return process, found.group(1)
    raise AssertionError(f"no link printed: {process.communicate()[1][-2000:]}")


def _stop(process: subprocess.Popen) -> str:
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err[-2000:]
    return err


def test_the_command_serves_the_game_and_resumes_it_after_a_restart(tmp_path):
    save = tmp_path / "game.json"
    process, link = _start(["three_piles_v0", "--web", "--port", "0", "--opponent", "random", "--delay", "0",
                            "--save", str(save), "--replays", str(tmp_path / "replays")])
    try:
        api = link.replace("/play/", "/api/")
        with urllib.request.urlopen(link, timeout=30) as answer:
            assert answer.read().decode().startswith("<!DOCTYPE html>")
        with urllib.request.urlopen(api + "/view", timeout=30) as answer:
            view = json.loads(answer.read())
        move = json.dumps({"action": view["legal"][0]["action"], "version": view["version"]}).encode()
        with urllib.request.urlopen(urllib.request.Request(api + "/move", data=move), timeout=30) as answer:
            assert json.loads(answer.read())["version"] > view["version"]
    finally:
        err = _stop(process)
    assert "--web --resume" in err and read_save(save)["actions"]
    process, again = _start(["--web", "--resume", str(save), "--port", "0"])
    try:
        assert again.split("/play/")[1] == link.split("/play/")[1], "the same link, so an open page reconnects"
        with urllib.request.urlopen(again.replace("/play/", "/api/") + "/view", timeout=30) as answer:
            assert json.loads(answer.read())["version"] == read_save(save)["version"]
    finally:
        _stop(process)


@pytest.mark.parametrize("argv, words", [
    (["three_piles_v0", "--web", "--seat", "0", "5"], "--seat takes distinct seats in 0..1"),
    (["three_piles_v0", "--web", "--human"], "not both"),
    (["three_piles_v0", "--human", "--seat", "0", "1"], "several people play with --web"),
    (["piles_v0", "--web", "--opponent", "random", "heuristic"], "one per other seat (3"),
    (["three_piles_v0", "--web", "--opponent", "nobody"], "unknown policy 'nobody'"),
])
def test_the_command_refuses_bad_arguments(capsys, argv, words):
    with pytest.raises(SystemExit) as exit_info:
        play_main(argv + ["--port", "0"])
    assert exit_info.value.code == 2
    assert words in capsys.readouterr().err


def test_a_commit_is_named_to_the_other_seats_once_the_flip_makes_it_public(tmp_path):
    """Split the Hoard's committed card is "a hidden choice" to the other seats until the commits are
    flipped, and named from then on (`Game.secret_move_revealed`), as the replay pages do."""
    session = _session("split_the_hoard_v0", tmp_path, humans=(0, 1, 2), seed=3)
    game, hidden_seen, named_seen = session.game, False, False
    for _ in range(400):
        state = session.state
        if state.is_terminal() or named_seen:
            break
        seat = state.current_player
        assert session.move(f"seat{seat}token", {"action": min(state.legal_actions()), "version": session.version})
        for entry in session.log:
            if entry["secret"] is None:
                continue
            before, move, phrase = entry["secret"]
            other = (entry["actor"] + 1) % game.num_players
            shown = session._seen(entry, other)[1]
            if game.secret_move_revealed(before, move, session.state):
                assert shown == phrase and any(phrase in line["text"] for line in session._move_lines(other))
                named_seen = True
            else:
                assert shown is None
                hidden_seen = True
    assert hidden_seen and named_seen
