"""The Game / State contract every rules engine implements.

A `Game` holds the static facts of one configuration (declared once) and creates states; a
`State` is one mutable position. Engines import nothing from pettingzoo, gymnasium or torch and
know players only as seats 0..n-1. The generic adapter (`card_envs.aec`) turns any Game into a
PettingZoo AEC env.
"""

from __future__ import annotations

import abc
import copy
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from card_envs.core.layout import ActionEntities, Layout
from card_envs.core.text import show


def is_integer(value: Any) -> bool:
    """An int or numpy integer, but not a bool: a flag or a float that happens to equal a number
    is refused rather than guessed at."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_finite_number(value: Any) -> bool:
    """An int or float (numpy's too, but not a bool) that is neither NaN nor infinite."""
    return (is_integer(value) or isinstance(value, (float, np.floating))) and bool(np.isfinite(value))


def is_flag(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


class ArgumentError(TypeError, ValueError):
    """An argument an env does not take, or a value it does not support.

    A TypeError as well as a ValueError: libraries probe envs with keyword arguments (TorchRL's
    ``GymEnv`` passes ``frameskip``, SB3's ``make_vec_env`` passes ``render_mode="rgb_array"``)
    and retry without them only on a TypeError, as Python itself raises for unknown keywords."""


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


def named_actions(actions: Sequence[int], name: Callable[[int], str], limit: int = 12) -> str:
    """``"3 (buy Silver), 7 (done)"``: the first `limit` actions with their words, then how many in all."""
    shown = [f"{a} ({name(a)})" for a in actions[:limit]]
    return ", ".join(shown + [f"... {len(actions)} in all"] * (len(actions) > limit))


class Game(abc.ABC):
    name: ClassVar[str]  # e.g. "three_piles"
    version: ClassVar[int]  # bumped on every behaviour change: env id is f"{name}_v{version}"
    snapshot_format: ClassVar[int]  # version of the JSON snapshot layout

    num_players: int
    num_actions: int
    observation_layout: Layout  # what one seat sees, own seat first
    state_layout: Layout  # full information, absolute seats (for centralised critics)
    max_game_length: int  # upper bound on decisions in one episode
    reward_range: tuple[float, float]
    # Actions that each name an entity the observation describes (cards): empty for most games.
    action_entities: tuple[ActionEntities, ...] = ()
    # Constructor arguments that change only what a seat observes, never the rules: games whose
    # configs differ only in these play the same states, each encoding its own view (`observe`).
    observation_options: ClassVar[tuple[str, ...]] = ()

    @abc.abstractmethod
    def new_state(self, rng: np.random.Generator) -> "State":
        """A freshly dealt state; `rng` drives every chance event of the game."""

    @abc.abstractmethod
    def state_from_json(self, data: dict[str, Any]) -> "State":
        """Rebuild a state from `State.to_json()`; raises ValueError on a bad snapshot."""

    @abc.abstractmethod
    def state_to_json(self, state: "State") -> dict[str, Any]:
        """A human-readable, versioned snapshot of the whole `state` (what `State.to_json` returns).
        Here, on the Game, so that a game's rules need not import its snapshot code."""

    @abc.abstractmethod
    def action_to_string(self, action: int) -> str: ...

    @abc.abstractmethod
    def render(self, state: "State", viewer: int | None) -> str:
        """Text picture of `state` as seat `viewer` sees it (None: public view, -1: everything)."""

    # ----- for pictures and replays (card_envs.replay): optional, neutral by default -------------
    # The render's lines above the board on the replay page (Dominion's second names the kingdom).
    render_head_lines: ClassVar[int] = 1
    # A move's words that a turn's line leaves out where the move was forced (an ending nobody chose).
    quiet_forced_moves: ClassVar[tuple[str, ...]] = ("done",)

    def board_zones(self, state: "State", viewer: int | None) -> list[dict[str, Any]]:
        """What `render` shows, as zones of cards (`card_envs.core.boards`, same visibility
        rules); none by default: the replay page then shows the render's text alone."""
        return []

    def card_notes(self) -> dict[str, str]:
        """Card label -> one line about the card (cost, types, rank, VP, effect): a page's hover
        text. Empty for games whose cards say all in their label."""
        return {}

    def replay_style(self) -> dict[str, Any]:
        """How the replay page draws this game's cards, as data (`card_envs.core.boards`,
        ``STANDARD_STYLE``): ``suits`` (card class -> [suit letter, symbol, suit name]),
        ``rank_names`` (rank letter -> word), ``card_text`` ([regex of a card name in text,
        {suit letter: symbol}]), ``css`` (the card classes' colours), ``group_class`` (group ->
        a CSS class) and ``ring`` (groups laid around a centre group: ``class``, ``centre``,
        ``title``, ``places`` (a regex of the groups' names), ``place_class``)."""
        return {}

    def describe_move(self, state: "State", action: int) -> tuple[str, str]:
        """(context, phrase) of a decision for a replay's move list: the public kind of decision
        asked, where the action's name alone is bare ("yes", "done"), and the action worded as a
        move, seats named absolutely (``player_2``). By default: no context, the action's name."""
        return "", self.action_to_string(action)

    def secret_move(self, state: "State", action: int) -> bool:
        """Whether the rules make this move in secret (a card committed face down), so that a
        replay names it to its player only (until `secret_move_revealed`); by default none is."""
        return False

    def secret_move_revealed(self, state: "State", action: int, later: "State") -> bool:
        """Whether the rules have made a secret move (`secret_move`: ``action`` at ``state``) public
        by ``later``, a position after it in the same game (Split the Hoard's flip turns the
        committed cards face up): a replay names it to every view from there on. Never, by default."""
        return False

    def final_scoring(self, state: "State") -> list[str]:
        """Lines on how the final scores add up, where the game says more than a number (a
        replay's result banner); none by default."""
        return []

    @property
    def config(self) -> dict[str, Any]:
        """The constructor arguments of this configuration."""
        return {}

    def observe(self, state: "State", player: int) -> np.ndarray:
        """``player``'s observation of ``state`` as this game encodes it. ``state`` may come from a
        game that differs from this one only in `observation_options` (the caller checks): a
        checkpoint trained with other options plays that way in a match of the same rules."""
        if state.game is self:
            return state.observation(player)
        view = copy.copy(state)  # shares the position (read only); only the encoding differs
        view.game = self
        return view.observation(player)

    def team_of(self, seat: int) -> int:
        """The team a seat plays for (teammates share rewards); by default every seat alone."""
        return seat

    @property
    def observation_size(self) -> int:
        return self.observation_layout.size

    def check_action(self, action: Any) -> int:
        """The action as a Python int, or an IllegalActionError naming the accepted range.

        Only integers are actions: an int, a numpy integer, or a 0-d integer array or tensor (what
        ``Discrete.contains`` accepts and ``policy(obs).argmax()`` returns); a float or a bool
        that happens to equal a legal index is refused rather than guessed at."""
        if getattr(action, "ndim", None) == 0 and hasattr(action, "item"):
            action = action.item()  # numpy's and torch's 0-d arrays: a Python int, float or bool
        if not is_integer(action) or not 0 <= action < self.num_actions:
            # show(): a short echo, however large the input (repr(10**5000) raises, a long list floods).
            raise IllegalActionError(f"action {show(action)} is not an integer in 0..{self.num_actions - 1}")
        return int(action)


class State(abc.ABC):
    game: Game
    current_player: int  # the seat to decide; meaningless once terminal

    @abc.abstractmethod
    def legal_actions(self) -> list[int]: ...

    @abc.abstractmethod
    def legal_mask(self) -> np.ndarray:
        """int8[num_actions], 1 exactly at `legal_actions()`."""

    @abc.abstractmethod
    def apply(self, action: int) -> None:
        """Play `action` for `current_player`; raises IllegalActionError (state unchanged)."""

    @abc.abstractmethod
    def is_terminal(self) -> bool: ...

    @abc.abstractmethod
    def returns(self) -> np.ndarray:
        """float64[num_players]: the terminal rewards (zeros before the end)."""

    @abc.abstractmethod
    def scores(self) -> list[int]:
        """Each seat's current score by the game's scoring rules."""

    @abc.abstractmethod
    def observation(self, player: int) -> np.ndarray:
        """float32[observation_size]: what `player` may know, nothing more."""

    @abc.abstractmethod
    def state_tensor(self) -> np.ndarray:
        """float32[state_layout.size]: the full information vector."""

    @abc.abstractmethod
    def clone(self) -> "State": ...

    def to_json(self) -> dict[str, Any]:
        """A human-readable, versioned snapshot of the whole state."""
        return self.game.state_to_json(self)

    @abc.abstractmethod
    def determinize(self, player: int, rng: np.random.Generator) -> "State":
        """A copy where everything hidden from `player` is resampled consistently."""
