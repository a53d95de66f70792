"""python -m card_envs.agents.play <env_id> --human: a whole game of every game driven through stdin, refused
input explained, quit and resume from a snapshot file, the end of input, bad arguments."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest

import card_envs
from card_envs.agents.human import SAVE_FORMAT, load_save
from card_envs.agents.play import main as play_main

ENVS = card_envs.list_envs()


def _play(monkeypatch, capsys, argv: list[str], answers: str) -> tuple[int, str]:
    """Run ``python -m card_envs.agents.play argv`` in this process with ``answers`` as its stdin."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    code = play_main(argv)
    return code, capsys.readouterr().out


@pytest.mark.parametrize("env_id", ENVS)
def test_a_whole_game_through_stdin(monkeypatch, capsys, tmp_path, env_id):
    """Always answering '1' finishes every game; the human sees his own view only."""
    save = tmp_path / "game.json"
    code, out = _play(monkeypatch, capsys, [env_id, "--human", "--save", str(save)], "1\n" * 5000)
    assert code == 0
    assert "Game over." in out and re.search(r"You (win|lose)\.|A draw\.", out)
    assert not save.exists(), "nothing to save after a finished game"
    assert "(you)" in out and not re.search(r"player_[1-9]\d* \(you\)", out), "player_0's view only"
    assert re.search(r"^\s+1: ", out, re.M), "legal actions listed by number"


def test_the_human_never_sees_the_other_hands(monkeypatch, capsys, tmp_path):
    code, out = _play(monkeypatch, capsys, ["three_piles_v0", "--human", "--seat", "1", "--save",
                                            str(tmp_path / "s.json")], "1\n" * 2000)
    assert code == 0
    hands = re.findall(r"player_0: score\s+\d+ \| hand (.*)", out)
    assert hands and all(re.fullmatch(r"\d+ hidden", h) for h in hands)
    assert re.search(r"player_1 \(you\): score\s+\d+ \| hand [2-9AJQK]", out)


def test_secret_choices_of_the_agents_are_not_named(monkeypatch, capsys, tmp_path):
    """Split the Hoard's commits are secret: the human is told a choice was made, not which."""
    code, out = _play(monkeypatch, capsys, ["split_the_hoard_v0", "--human", "--save", str(tmp_path / "s.json")],
                      "1\n" * 5000)
    assert code == 0
    assert "made a choice hidden from you" in out
    assert re.search(r"^player_\d \(heuristic\): \S", out, re.M), "public moves are named"


def test_refused_input_is_explained_and_asked_again(monkeypatch, capsys, tmp_path):
    answers = "\n".join(["", "foo", "0", "99", "play 3D -> pile 0", "help", "DRAW"]) + "\n" + "1\n" * 2000
    code, out = _play(monkeypatch, capsys, ["three_piles_v0", "--human", "--save", str(tmp_path / "s.json")],
                      answers)
    assert code == 0 and "Game over." in out
    assert "Nothing typed: type a number 1..10, an action name as listed, 'help' or 'quit'." in out
    assert "'foo' is neither a listed number nor an action name" in out
    assert "0 is not one of the listed numbers: choose 1..10." in out
    assert "99 is not one of the listed numbers: choose 1..10." in out
    assert "'play 3D -> pile 0' is an action of this game but not a legal one now" in out
    assert out.count("   10: draw") >= 2, "help lists the actions again"
    assert "last move: player_0 drew a card" in out, "an action name is accepted (case aside)"


def test_quit_saves_a_snapshot_and_resume_goes_on_from_it(monkeypatch, capsys, tmp_path):
    save = tmp_path / "saved" / "illimat.json"
    code, out = _play(monkeypatch, capsys, ["illimat_v0", "--human", "--seat", "1", "--opponent", "random",
                                            "--save", str(save)], "1\n1\n1\nquit\n")
    assert code == 0 and "Game over." not in out
    assert f"python -m card_envs.agents.play illimat_v0 --human --resume {save}" in out
    saved = load_save(save)
    assert saved["format"] == SAVE_FORMAT and (saved["seat"], saved["opponent"]) == (1, "random")
    assert set(saved["snapshot"]) == {"env_id", "config", "state"}
    game = card_envs.make_game("illimat_v0", **saved["snapshot"]["config"])

    def board(text: str) -> str:
        return text.strip()

    position = board(game.render(game.state_from_json(saved["snapshot"]["state"]), 1))
    assert "  last play: player_" in position, "the snapshot keeps the last play (the render's line)"
    assert board(out.rstrip().split("-" * 72)[-1]).startswith(position), "saved where the human quit"

    code, out = _play(monkeypatch, capsys, ["--human", "--resume", str(save)], "1\n" * 5000)
    assert code == 0 and out.startswith(f"Resumed {save}.")
    assert "you are player_1; the other seats are played by 'random'" in out
    assert board(out.split("-" * 72)[1]).startswith(position), "the resumed game starts where it stopped"
    assert "Game over." in out


def test_the_end_of_input_quits_cleanly(monkeypatch, capsys, tmp_path):
    save = tmp_path / "eof.json"
    code, out = _play(monkeypatch, capsys, ["dominion_v0", "--human", "--save", str(save)], "1\n")
    assert code == 0 and "(end of input)" in out and "--resume" in out
    assert json.loads(save.read_text())["snapshot"]["env_id"] == "dominion_v0"


def test_a_game_through_a_real_pipe(tmp_path):
    result = subprocess.run([sys.executable, "-m", "card_envs.agents.play", "piles_v0", "--human", "--seat", "2",
                             "--opponent", "random", "--save", str(tmp_path / "s.json")],
                            input="1\n" * 500, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Game over." in result.stdout and "player_0 (random, your partner)" in result.stdout


def test_a_played_game_seats_the_games_default_number_of_players(capsys):
    """Piles is a 4-player game: by default heuristic and random alternate over its 4 seats."""
    assert play_main(["piles_v0", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "player_3 (random)" in out and "player_2 (heuristic)" in out


@pytest.mark.parametrize("argv, message", [
    (["three_piles_v0", "--human", "--seat", "5"], "--seat must be a seat in 0..1"),
    (["three_piles_v0", "--seat", "1"], "--seat: for a game you play yourself only; add --human"),
    (["three_piles_v0", "--human", "--opponent", "nobody"], "unknown policy 'nobody'"),
    (["three_piles_v0", "--human", "--config", "[1]"], "--config must be a JSON object"),
    (["--human", "--resume", "/nonexistent/file.json"], "cannot read the snapshot file"),
    (["three_piles_v0", "--human", "--save", "/proc/nope/x.json"], "--save /proc/nope/x.json: cannot write"),
    (["three_piles_v0", "--human", "--save", "/tmp"], "--save /tmp: cannot write"),
    (["three_piles_v0", "--seed", "-1"], "--seed must be 0 or more"),
    (["three_piles_v0", "--games", "0"], "--games must be 1 or more"),
])
def test_bad_arguments_are_refused(monkeypatch, capsys, argv, message):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as exit_info:
        play_main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_resume_refuses_another_games_snapshot(monkeypatch, capsys, tmp_path):
    env = card_envs.make("piles_v0")
    env.reset(seed=1)
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(env.unwrapped.snapshot()))  # a bare env snapshot is accepted too
    with pytest.raises(SystemExit):
        play_main(["three_piles_v0", "--human", "--resume", str(path)])
    assert "holds a 'piles_v0' game, not 'three_piles_v0'" in capsys.readouterr().err
    code, out = _play(monkeypatch, capsys, ["--human", "--resume", str(path), "--opponent", "random"],
                      "1\n" * 500)
    assert code == 0 and "Game over." in out


def _blocks(out: str) -> list[list[str]]:
    """The lines of each decision shown to the human, from its choices to the prompt."""
    return [block.split("\n") for block in re.findall(r"Your decision, player_\d:\n(.*?)\nType a number", out, re.S)]


def test_dominion_shows_its_supply_as_a_table_and_the_cost_of_each_buy(monkeypatch, capsys, tmp_path):
    from card_envs.games.dominion.cards import CARD_ID, COST

    code, out = _play(monkeypatch, capsys, ["dominion_v0", "--human", "--config", '{"max_turns": 6}', "--save",
                                            str(tmp_path / "s.json")], "2\n" * 3000)
    assert code == 0 and "Game over." in out
    assert "supply (top first):" not in out, "not the one long line"
    assert re.search(r"^  supply: pile +cost +left", out, re.M)
    assert re.search(r"^ {10}Province +\$8 +\d+$", out, re.M) and re.search(r"^ {10}Copper +\$0 +\d+$", out, re.M)
    assert max(len(line) for line in out.split("\n") if "supply" in line) < 100
    buys = re.findall(r"^ +\d+: pile ([^(]+?)  \(((?:[A-Z][\w' ]+ )?)\$(\d+), (\d+) left\)$", out, re.M)
    assert buys, "buy options name their cost"
    for pile, top, cost, _ in buys:
        card = (top.strip() or pile)
        assert COST[CARD_ID[card]] == int(cost), (pile, top, cost)


def test_illimat_says_why_a_field_or_a_play_is_not_offered(monkeypatch, capsys, tmp_path):
    code, out = _play(monkeypatch, capsys, ["illimat_v0", "--human", "--opponent", "random", "--seed", "1",
                                            "--save", str(tmp_path / "s.json")], "1\n" * 3000)
    assert code == 0
    checked = plays = 0
    for lines in _blocks(out):
        offered = {int(m) for line in lines for m in re.findall(r"^ +\d+: field (\d)$", line)}
        missing = {int(m) for line in lines for m in re.findall(r"^  not offered: field (\d) \(\w+\): ", line)}
        if offered:
            assert offered.isdisjoint(missing) and offered | missing == {0, 1, 2, 3}, lines
            checked += bool(missing)
        plays += any(re.match(r"  not offered: (sow|harvest|stockpile): ", line) for line in lines)
    assert checked and plays
    assert re.search(r"not offered: field \d \(autumn\): Autumn there: no sowing, and \w+ can neither", out)


def _description(env_id: str) -> str:
    """The first sentence's start of the doc page's Description, as `help rules` prints it."""
    from card_envs.docpages import game_package

    doc = game_package(env_id).__doc__
    first = doc.split("## Description", 1)[1].strip().split("\n")[0]
    return re.sub(r"`+|\*+", "", first)[:40]


@pytest.mark.parametrize("env_id", ENVS)
def test_help_lists_the_choices_the_topics_and_the_rules(monkeypatch, capsys, tmp_path, env_id):
    """Every game: 'help' lists the choices and the help topics, 'help rules' shows the doc page's
    Description and where the page is, an unknown topic is answered with the accepted ones."""
    code, out = _play(monkeypatch, capsys, [env_id, "--human", "--save", str(tmp_path / "s.json")],
                      "help\nhelp rules\nhelp no such topic\nquit\n")
    assert code == 0 and "Saved the game" in out
    assert "Type 'help rules' at any decision for the rules in brief and where the whole page is" in out
    block = out.split("> help\n", 1)[1].split("> help rules\n", 1)[0]
    assert re.search(r"^ +1: ", block, re.M), "help lists the choices again"
    assert "Help topics: 'help rules': the rules summary; 'help <" in block, "and the help topics"
    rules = out.split("> help rules\n", 1)[1].split("> help no such topic\n", 1)[0]
    assert rules.startswith(f"Rules of {env_id}, in brief:")
    assert _description(env_id) in " ".join(rules.split()), "the doc page's Description"
    assert "python3 -m pydoc card_envs.games." in rules and "shared/" not in rules  # what ships, not the repo's files
    assert "``" not in rules and "**" not in rules, "markdown marks are dropped"
    assert "No help on 'no such topic'. Accepted: 'help' (your choices), 'help rules': the rules summary; " \
           "'help <" in " ".join(out.split())


@pytest.mark.parametrize("env_id, topics, expected", [
    ("dominion_v0", ["Smithy", "kings castle", "Encampment/Plunder", "Mountain Folk", "rotate"],
     ["Smithy: $4, Action. +3 Cards.\nIn this game: 10 left in the Smithy pile.",
      "King's Castle: $10, Victory-Castle. Worth 2 VP per Castle you have.",
      "Encampment/Plunder: a split pile of 10 cards (2 players), top to bottom:\n  5 x Encampment: $2, Action.",
      "Mountain Folk (an Ally): At the start of your turn, you may spend 5 Favors for +3 Cards.",
      "Rotate a pile: its top card and the identical cards directly under it go to the bottom"]),
    ("split_the_hoard_v0", ["Emerald", "knight", "Wizard", "Wealthiest"],
     ["Emerald (a Hoard card, 4 in the deck): unranked, 2 VP.\nAbility (discard it from your Haul in Claim): "
      "draw 4 card(s) face down into your Haul as Coins.\nHidden Titles that name it: Jeweller.",
      "Knight (a hidden Title, 20 VP to the player dealt it, if met at the end): Sword and Shield and "
      "(Plate Armour or Holy Symbol).",
      "Wizard (a class): power Scry, once per round, when the Reveal deal is made: draw 1 more card",
      "Wealthiest (a Starting Title, public, 30 VP): won by the most Coins; eligible with at least 1 Coin(s)."]),
    ("illimat_v0", ["Maiden", "seasons", "AS"],
     ["Maiden (a Luminary): when revealed: nothing; while face up: harvesting is allowed in Winter; when "
      "claimed: nothing.",
      "  Winter: no harvesting, unless the Maiden is face up\nNow: field 0 ",
      "AS: the Fool of Summer, worth 1 or 14"]),
    ("three_piles_v0", ["10D", "ks"],
     ["10D: the 10 of Diamonds, rank 10 (Ace low = 1 .. King = 13).", "A pile holding both an Ace and a King "
      "scores 3."]),
    ("piles_v0", ["AS"],
     ["AS: the Ace of Spades, black, intrinsic value 1 (Ace 1 .. King 13).", "At the end it scores 9 (Ace 9, "
      "King 4, Queen 3, Jack 2, any other 1) for the red team"]),
])
def test_help_card_explains_a_card_of_the_game(monkeypatch, capsys, tmp_path, env_id, topics, expected):
    answers = "".join(f"help {topic}\n" for topic in topics) + "quit\n"
    code, out = _play(monkeypatch, capsys, [env_id, "--human", "--save", str(tmp_path / "s.json")], answers)
    assert code == 0
    unwrapped = re.sub(r"\n  (?=\S)", " ", out)  # long help lines are folded at 100 columns
    for text in expected:
        assert text in out or text in unwrapped, text
    assert "No help on" not in out
    answered = out.split("> help", 1)[1].split("> quit", 1)[0]
    assert max(len(line) for line in answered.split("\n")) <= 100, "folded for a terminal"
