"""Play a game against agents in the terminal: ``python -m card_envs.agents.play <env_id> --human``.

    python -m card_envs.agents.play three_piles_v0 --human                    # you are player_0, vs the heuristic
    python -m card_envs.agents.play illimat_v0 --human --seat 1 --opponent random
    python -m card_envs.agents.play dominion_v0 --human --resume dominion_v0_seat0.snapshot.json

You see your own view only (``game.render(state, your_seat)``; Dominion's supply as a table of
piles, costs and cards left). At each of your decisions the legal actions are listed as ``number:
action name`` (a Dominion buy or gain with its cost and cards left; in Illimat, each field or play
left out with the reason, such as a season's rule); answer with the number or the exact name. A turn
made of several decisions (an Illimat harvest, a Dominion card's choices) is asked one decision at
a time; a decision with one legal answer is played for you and said so. An answer that is not
accepted is explained and asked again. ``help`` lists the choices again, ``help rules`` shows the
rules summary (the "Description" of the game's doc page, `rules_summary`) and where to read the
rest, and ``help <topic>`` what the game's terminal helpers explain (a Dominion card's cost, types
and text; a Split the Hoard card, Title or class; an Illimat Luminary or season; a playing card's
meaning in 3 Piles and Piles); an unknown topic is answered with the accepted ones. ``quit`` (or
the end of the input) saves the position to a
snapshot file, written atomically, and prints the command that resumes it. The other seats are
played by ``make_policy(--opponent)``; you are told their moves as far as you could see them (a
secret choice, such as a card committed face down, is not named: `card_envs.replay.log.action_known`;
moves are worded as in a replay's move list, seats named absolutely).
"""

from __future__ import annotations

import importlib
import json
import re
import shlex
import sys
import textwrap
from pathlib import Path
from typing import Any, TextIO

import numpy as np

import card_envs
from card_envs.agents import make_policy
from card_envs.core.files import atomic_write
from card_envs.core.registry import game_class
from card_envs.docpages import game_package
from card_envs.replay.log import action_known, canonical

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?", "h")
SAVE_FORMAT = 1


def default_opponent(game) -> str:
    """The game's scripted heuristic where it has one, else random."""
    from card_envs.agents import SCRIPTED

    return "heuristic" if game.name in SCRIPTED else "random"


def config_arg(args) -> dict | None:
    """``python -m card_envs.agents.play``'s ``--config`` as a dict, None where not given (the
    terminal's game and the browser's read it alike); a bad one is the parser's error."""
    try:
        config = json.loads(args.config) if args.config is not None else None
    except json.JSONDecodeError as error:
        args.parser.error(f"--config is not valid JSON: {error}")
    if config is not None and not isinstance(config, dict):
        args.parser.error("--config must be a JSON object, e.g. '{\"num_players\": 3}'")
    return config


def load_save(path: str | Path) -> dict[str, Any]:
    """A file written by ``quit`` ({"snapshot", "seat", "opponent", "seed"}) or a bare env snapshot
    (``env.unwrapped.snapshot()``: {"env_id", "config", "state"}); ValueError naming the problem."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot read the snapshot file {path}: {error}") from None
    if isinstance(data, dict) and set(data) == {"env_id", "config", "state"}:
        return {"snapshot": data}
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or not isinstance(data.get("snapshot"), dict):
        raise ValueError(f"{path} is neither a saved human game (format {SAVE_FORMAT}) nor an env snapshot "
                         "({'env_id', 'config', 'state'})")
    return data


class HumanGame:
    """One game: ``seat`` answered from ``stdin``, every other seat by the ``opponent`` policy."""

    def __init__(self, env_id: str, config: dict[str, Any], seat: int, opponent: str, seed: int,
                 save_path: str | Path, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 snapshot: dict[str, Any] | None = None):
        self.env_id, self.seat, self.opponent, self.seed = env_id, seat, opponent, seed
        self.save_path = Path(save_path)
        self.stdin, self.out = stdin or sys.stdin, stdout or sys.stdout
        self.env = card_envs.raw_env(env_id, render_mode="ansi", render_seat=seat, auto_forced=False, **config)
        self.game = self.env.game
        self.policy = make_policy(opponent, self.game)
        self.helpers = terminal_help(self.game.name)
        self.rng = np.random.default_rng(seed)
        if snapshot is not None:
            self.env.reset(seed=seed, options={"state": snapshot})
        else:
            self.env.reset(seed=seed)
        self.echo = not (hasattr(self.stdin, "isatty") and self.stdin.isatty())

    # ----- output -----------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def who(self, seat: int) -> str:
        if seat == self.seat:
            return f"player_{seat} (you)"
        mate = self.game.team_of(seat) == self.game.team_of(self.seat)
        return f"player_{seat} ({self.opponent}{', your partner' if mate else ''})"

    def show_choices(self, legal: list[int], state=None) -> None:
        notes = getattr(self.helpers, "choice_note", None)
        for k, action in enumerate(legal, 1):
            note = notes(state, action) if notes and state is not None else ""
            self.say(f"  {k:>3}: {self.game.action_to_string(action)}" + (f"  ({note})" if note else ""))
        missing = getattr(self.helpers, "missing", None)
        for line in missing(state, legal) if missing and state is not None else []:
            self.say(f"  not offered: {line}")
        self.say(f"Type a number 1..{len(legal)} or an action name as listed; 'help' lists them again with the "
                 "help topics, 'quit' saves and stops.")

    def help_topics(self) -> str:
        """The topics ``help`` answers: the rules, and the game's own (``HELP_TOPIC`` of its helpers)."""
        topic = getattr(self.helpers, "HELP_TOPIC", "")
        return "'help rules': the rules summary" + (f"; {topic}" if topic else "")

    def help(self, topic: str, legal: list[int], state) -> None:
        """``help`` (the choices again), ``help rules`` or ``help <topic>`` of the game's helpers."""
        key = " ".join(topic.lower().split())
        if not key:
            self.show_choices(legal, state)
            self.say(wrapped(f"Help topics: {self.help_topics()}."))
        elif key in ("rules", "rule", "the rules"):
            self.say(rules_summary(self.env_id))
        else:
            card_help = getattr(self.helpers, "card_help", None)
            text = card_help(topic.strip(), state) if card_help else None
            self.say(wrapped(text if text else f"No help on '{topic.strip()}'. Accepted: 'help' (your choices), "
                             f"{self.help_topics()}."))

    def board(self, state) -> str:
        """Your view, as the game's terminal helpers present it (Dominion's supply as a table)."""
        board = getattr(self.helpers, "board", None)
        return board(self.env.render(), state) if board else self.env.render()

    # ----- the game -----------------------------------------------------------------------------
    def run(self) -> int:
        env, game = self.env, self.game
        self.say(f"{self.env_id}: you are player_{self.seat}; the other seats are played by {self.opponent!r}.")
        self.say(f"Type 'help rules' at any decision for the rules in brief and where the whole page is, "
                 "'help' for your choices and the other help topics.")
        final: dict[str, float] = {}
        scores = None
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                final[agent], scores = reward, info.get("scores", scores)
                env.step(None)
                continue
            seat = env.agent_seat[agent]
            legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
            if seat == self.seat:
                action = self.ask(legal)
                if action is None:
                    return self.quit()
            else:
                state = game.state_from_json(env.snapshot()["state"])
                if getattr(self.policy, "needs_state", False):
                    action = int(self.policy.act_state(state, seat, self.rng))
                else:
                    action = int(self.policy.act(obs["observation"], obs["action_mask"], self.rng))
                shown = canonical(state, action)  # Dominion's "play all treasures" with none: "ends treasures"
                if action_known(state, shown, self.seat, np.random.default_rng(self.seed)):
                    self.say(f"{self.who(seat)}: {game.describe_move(state, shown)[1]}")
                else:
                    self.say(f"{self.who(seat)} made a choice hidden from you")
            env.step(action)
        self.finish(final, scores)
        return 0

    def ask(self, legal: list[int]) -> int | None:
        """Your action, or None to quit. A single legal action is played for you."""
        game = self.game
        state = game.state_from_json(self.env.snapshot()["state"])
        self.say("-" * 72)
        self.say(self.board(state))
        if len(legal) == 1:
            self.say(f"Your only legal action: {game.action_to_string(legal[0])} (played for you)")
            missing = getattr(self.helpers, "missing", None)
            for line in missing(state, legal) if missing else []:
                self.say(f"  not offered: {line}")
            return legal[0]
        self.say(f"Your decision, player_{self.seat}:")
        self.show_choices(legal, state)
        names = {game.action_to_string(a): a for a in legal}
        folded = {" ".join(name.lower().split()): a for name, a in names.items()}
        while True:
            self.out.write("> ")
            self.out.flush()
            line = self.stdin.readline()
            if line == "":  # end of input
                self.say("(end of input)")
                return None
            answer = line.strip()
            if self.echo:
                self.say(answer)
            if answer.lower() in QUIT_WORDS:
                return None
            first, _, topic = answer.partition(" ")
            if first.lower() in HELP_WORDS:
                self.help(topic, legal, state)
                continue
            refused = self.refusal(answer, legal, names, folded)
            if isinstance(refused, int):
                return refused
            self.say(refused)

    def refusal(self, answer: str, legal: list[int], names: dict[str, int], folded: dict[str, int]) -> int | str:
        """The chosen action, or a sentence saying why ``answer`` is refused and what is accepted."""
        accepted = f"type a number 1..{len(legal)}, an action name as listed, 'help' or 'quit'"
        if not answer:
            return f"Nothing typed: {accepted}."
        if answer.lstrip("+-").isdigit():
            number = int(answer)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            return f"{number} is not one of the listed numbers: choose 1..{len(legal)}."
        if answer in names:
            return names[answer]
        key = " ".join(answer.lower().split())
        if key in folded:
            return folded[key]
        every = {" ".join(self.game.action_to_string(a).lower().split()) for a in range(self.game.num_actions)}
        if key in every:
            return f"'{answer}' is an action of this game but not a legal one now; {accepted}."
        return f"'{answer}' is neither a listed number nor an action name; {accepted}."

    def quit(self) -> int:
        data = {"format": SAVE_FORMAT, "snapshot": self.env.snapshot(), "seat": self.seat,
                "opponent": self.opponent, "seed": self.seed}
        text = json.dumps(data)
        atomic_write(self.save_path, lambda tmp: Path(tmp).write_text(text))
        self.say(f"Saved the game to {self.save_path}. Resume it with:")
        self.say(f"  python -m card_envs.agents.play {self.env_id} --human --resume {shlex.quote(str(self.save_path))}")
        return 0

    def finish(self, rewards: dict[str, float], scores: list[int] | None) -> None:
        env = self.env
        self.say("")
        self.say(self.board(self.game.state_from_json(env.snapshot()["state"])))
        self.say("Game over.")
        for seat, agent in enumerate(env.possible_agents):
            score = f"score {scores[seat]}, " if scores is not None else ""
            self.say(f"  {self.who(seat)}: {score}reward {rewards[agent]:+.2f}")
        mine = rewards[env.possible_agents[self.seat]]
        best = max(rewards.values())
        self.say("You win." if mine == best and mine > min(rewards.values())
                 else "A draw." if mine == best else "You lose.")


_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_EMPHASIS = re.compile(r"(\*\*|\*)(\S(?:.*?\S)?)\1")


def wrapped(text: str, width: int = 100) -> str:
    """`text` with its long lines folded at `width`, continuations indented under their line."""
    lines = []
    for line in text.split("\n"):
        indent = line[:len(line) - len(line.lstrip())]
        lines.append(textwrap.fill(line, width, subsequent_indent=indent + "  ") if len(line) > width else line)
    return "\n".join(lines)


def rules_summary(env_id: str) -> str:
    """The rules in brief, for ``help rules``: the "## Description" section of the game's doc page
    (the docstring of ``card_envs/games/<game>/__init__.py``, as plain text), then where to read
    the whole page."""
    try:
        package = game_package(env_id)
    except ValueError:  # a game registered from outside card_envs.games: its module's docstring
        package = importlib.import_module(game_class(env_id).__module__)
    doc = package.__doc__ or ""
    found = re.search(r"^## Description[ \t]*\n(.*?)(?=^## |\Z)", doc, re.S | re.M)
    text = found.group(1).strip() if found else ""
    text = _EMPHASIS.sub(lambda m: m.group(2), _CODE_SPAN.sub(lambda m: m.group(2).strip(), text))
    where = (f"The full rules as implemented (actions, rewards, end of game, rulings), installed with the package: "
             f"python3 -m pydoc {package.__name__}")
    return f"Rules of {env_id}, in brief:\n\n{text}\n\n{where}" if text else where


def terminal_help(game_name: str):
    """The game's terminal helpers (`card_envs.agents.<game>.terminal`, optional), each optional:
    ``board(text, state)`` rewrites the rendered view, ``choice_note(state, action)`` adds a note to
    a listed choice, ``missing(state, legal)`` says why a choice is not offered, ``card_help(topic,
    state)`` answers ``help <topic>`` (None: not a topic it knows) and ``HELP_TOPIC`` says what it
    answers (``"'help <card>' a card's text"``)."""
    try:
        return importlib.import_module(f"card_envs.agents.{game_name}.terminal")
    except ModuleNotFoundError as error:
        if error.name not in (f"card_envs.agents.{game_name}", f"card_envs.agents.{game_name}.terminal"):
            raise
        return None
