"""High Card's rules engine: the toy sixth game of docs/adding_a_game.md.

In a game of the package these pieces sit in ``card_envs/games/<game>/``: the Game class in
``game.py``, the State in ``rules.py``, `validate` and the JSON in ``snapshot.py``, the text
picture in ``render.py``, the replay page's board in ``board.py``; the doc page is the package docstring (here `tests.adding_a_game`'s).
Pure Python + numpy, like every rules engine: nothing from pettingzoo, gymnasium, torch or the
batch, agents, train and evaluate layers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from card_envs.core.boards import Zone, face, hidden, zone
from card_envs.core.game import ArgumentError, Game, IllegalActionError, State, is_integer
from card_envs.core.layout import Layout, Piece
from card_envs.core.rewards import check_reward_mode, terminal_returns
from card_envs.core.snapshot import check_keys, read_int, read_list
from card_envs.core.text import show

NUM_CARDS = 10  # cards 1..10; action a plays card a + 1
HAND_SIZE = 3  # dealt to each seat; the other 4 cards stay face down, unseen all game
NUM_TRICKS = 3

OBSERVATION = Layout([  # what one seat sees; seats relative: 0 = the observer, 1 = the other
    Piece("hand", (NUM_CARDS,), "1 where the card is in the observer's hand"),
    Piece("table", (NUM_CARDS,), "1 at the card led in the trick in progress"),
    Piece("played", (2, NUM_CARDS), "1 where that seat played the card in a finished trick (relative seats)"),
    Piece("unseen", (NUM_CARDS,), "1 where the card is in the other hand or face down (unknown to the observer)"),
    Piece("tricks", (2,), "tricks won / 3 (relative seats)"),
    Piece("to_move", (2,), "1 at the seat to play (relative seats; none once the game is over)"),
])
STATE = Layout([  # full information, absolute seats, for centralised critics
    Piece("hands", (2, NUM_CARDS), "1 where the card is in that seat's hand"),
    Piece("table", (NUM_CARDS,), "1 at the card led in the trick in progress"),
    Piece("played", (2, NUM_CARDS), "1 where that seat played the card in a finished trick"),
    Piece("undealt", (NUM_CARDS,), "1 where the card lies face down"),
    Piece("tricks", (2,), "tricks won / 3"),
    Piece("to_move", (2,), "1 at the seat to play"),
])


def describe_action(action: int) -> str:
    if not is_integer(action) or not 0 <= action < NUM_CARDS:
        raise ValueError(f"action {show(action)} is not in 0..{NUM_CARDS - 1}")
    return f"play {action + 1}"


def trick_winner(leader: int, led: int, answer: int) -> int:
    """The higher card takes the trick."""
    return leader if led > answer else 1 - leader


class HighCardState(State):
    def __init__(self, game: Game, hands: list[list[int]], undealt: list[int],
                 tricks: list[tuple[int, int, int]], table: int | None, current: int):
        self.game = game
        self.hands = hands  # per seat, sorted card numbers
        self.undealt = undealt  # the face-down rest, sorted: never drawn, never seen
        self.tricks = tricks  # finished tricks: (leader, led card, answer)
        self.table = table  # the card led in the trick in progress, or None
        self.current_player = current

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [card - 1 for card in self.hands[self.current_player]]

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_CARDS, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def apply(self, action: int) -> None:
        if type(action) is not int:  # numpy ints are welcome; floats and bools are refused
            action = self.game.check_action(action)
        if action not in self.legal_actions():
            self._refuse(action)
        card, seat = action + 1, self.current_player
        self.hands[seat].remove(card)
        if self.table is None:  # a lead: the other seat answers
            self.table, self.current_player = card, 1 - seat
        else:  # an answer: the higher card takes the trick, and its player leads the next
            leader, led = 1 - seat, self.table
            self.tricks.append((leader, led, card))
            self.table, self.current_player = None, trick_winner(leader, led, card)

    def _refuse(self, action: Any) -> None:
        self.game.check_action(action)  # raises for non-integers and out-of-range values
        legal = ", ".join(f"{a} ({describe_action(a)})" for a in self.legal_actions())
        raise IllegalActionError(f"action {action} ({describe_action(action)}) is illegal for seat "
                                 f"{self.current_player}; legal: {legal or 'none (game over)'}")

    def is_terminal(self) -> bool:
        return len(self.tricks) == NUM_TRICKS

    def scores(self) -> list[int]:
        won = [trick_winner(*trick) for trick in self.tricks]
        return [won.count(0), won.count(1)]

    def returns(self) -> np.ndarray:
        if not self.is_terminal():
            return np.zeros(2)
        return terminal_returns(self.scores(), self.game.reward, NUM_TRICKS)

    def _features(self, layout: Layout, seats: list[int]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """A zero vector of `layout` and its views, with the pieces both layouts share filled in
        for `seats` (absolute seats in the order the layout lists them)."""
        out = np.zeros(layout.size, dtype=np.float32)
        v = layout.views(out)
        if self.table is not None:
            v["table"][self.table - 1] = 1
        for leader, led, answer in self.tricks:
            v["played"][seats.index(leader), led - 1] = 1
            v["played"][seats.index(1 - leader), answer - 1] = 1
        scores = self.scores()
        v["tricks"][:] = [scores[s] / NUM_TRICKS for s in seats]
        if not self.is_terminal():
            v["to_move"][seats.index(self.current_player)] = 1
        return out, v

    def observation(self, player: int) -> np.ndarray:
        other = 1 - player
        out, v = self._features(OBSERVATION, [player, other])
        v["hand"][[c - 1 for c in self.hands[player]]] = 1
        v["unseen"][[c - 1 for c in self.hands[other] + self.undealt]] = 1
        return out

    def state_tensor(self) -> np.ndarray:
        out, v = self._features(STATE, [0, 1])
        for seat, hand in enumerate(self.hands):
            v["hands"][seat, [c - 1 for c in hand]] = 1
        v["undealt"][[c - 1 for c in self.undealt]] = 1
        return out

    def clone(self) -> "HighCardState":
        return HighCardState(self.game, [h[:] for h in self.hands], self.undealt[:], self.tricks[:], self.table,
                             self.current_player)

    def determinize(self, player: int, rng: np.random.Generator) -> "HighCardState":
        """Deal the other hand anew from the cards `player` cannot see (the other hand and the
        face-down rest), drawn from a sorted pool: the copy depends only on what `player` knows
        and on `rng`. Play reveals nothing about a hand but its size, so any deal is consistent."""
        other = 1 - player
        dealt = rng.permutation(sorted(self.hands[other] + self.undealt)).tolist()
        size = len(self.hands[other])
        hands = [h[:] for h in self.hands]
        hands[other] = sorted(dealt[:size])
        return HighCardState(self.game, hands, sorted(dealt[size:]), self.tricks[:], self.table,
                             self.current_player)


# ----- snapshot (snapshot.py in a game of the package) -----------------------------------------
KEYS = {1: ("game", "format", "num_players", "current_player", "hands", "table", "tricks", "undealt")}


def read_card(value: Any, field: str) -> int:
    return read_int(value, field, NUM_CARDS, low=1)


def validate(game: Game, data: Any) -> tuple:
    """The position `data` describes, once checked to be one the rules can reach:
    (hands, undealt, tricks, table, current player). A refusal names the field."""
    check_keys(data, game, KEYS)  # a dict with exactly these keys, for this game and player count
    current = read_int(data["current_player"], "current_player", 1)
    hands = [sorted(read_card(c, f"hands[{s}][{i}]") for i, c in enumerate(read_list(h, f"hands[{s}]", most=HAND_SIZE)))
             for s, h in enumerate(read_list(data["hands"], "hands", 2))]
    undealt = sorted(read_card(c, f"undealt[{i}]") for i, c in enumerate(read_list(data["undealt"], "undealt",
                                                                                     most=NUM_CARDS)))
    table = None if data["table"] is None else read_card(data["table"], "table")
    tricks = []
    for k, trick in enumerate(read_list(data["tricks"], "tricks", most=NUM_TRICKS)):
        if not isinstance(trick, dict) or set(trick) != {"leader", "led", "answer"}:
            raise ValueError(f"tricks[{k}]: {show(trick)} must be a dict with keys 'leader', 'led', 'answer'")
        tricks.append((read_int(trick["leader"], f"tricks[{k}].leader", 1),
                       read_card(trick["led"], f"tricks[{k}].led"), read_card(trick["answer"], f"tricks[{k}].answer")))
    # Card conservation: each of the 10 cards lies in exactly one place.
    where: dict[int, str] = {}
    places = [(f"hands[{s}]", h) for s, h in enumerate(hands)] + [("undealt", undealt)] + \
        [(f"tricks[{k}]", t[1:]) for k, t in enumerate(tricks)] + [("table", [] if table is None else [table])]
    for field, cards in places:
        for card in cards:
            if card in where:
                raise ValueError(f"{field}: card {card} is also in {where[card]}; each card lies in one place")
            where[card] = field
    if len(where) != NUM_CARDS:
        raise ValueError(f"cards: {sorted(set(range(1, NUM_CARDS + 1)) - set(where))} missing; a snapshot "
                         f"holds each of the {NUM_CARDS} cards exactly once")
    # Who leads: seat 0 the first trick, the winner of a trick the next.
    leader = 0
    for k, (who, led, answer) in enumerate(tricks):
        if who != leader:
            raise ValueError(f"tricks[{k}].leader: {who}, but seat {leader} leads trick {k} (seat 0 leads the "
                             "first, the winner of a trick the next)")
        leader = trick_winner(who, led, answer)
    if table is not None and len(tricks) == NUM_TRICKS:
        raise ValueError(f"table: {table}, but the game ends with trick {NUM_TRICKS}")
    to_play = leader if table is None else 1 - leader
    if current != to_play:
        raise ValueError(f"current_player: {current}, but seat {to_play} plays next (the leader, or the other "
                         "seat once a card is led)")
    for s, hand in enumerate(hands):  # one card fewer for each card played
        size = HAND_SIZE - len(tricks) - (table is not None and s == leader)
        if len(hand) != size:
            raise ValueError(f"hands[{s}]: {len(hand)} cards, but seat {s} holds {size} here: {HAND_SIZE} "
                             "dealt, one fewer for each card it played")
    return hands, undealt, tricks, table, current


def state_to_json(state: HighCardState) -> dict[str, Any]:
    return {"game": state.game.name, "format": state.game.snapshot_format, "num_players": 2,
            "current_player": state.current_player, "hands": [h[:] for h in state.hands], "table": state.table,
            "tricks": [{"leader": leader, "led": led, "answer": answer} for leader, led, answer in state.tricks],
            "undealt": state.undealt[:]}


# ----- render (render.py in a game of the package) -----------------------------------------------
def render_text(state: HighCardState, viewer: int | None) -> str:
    """`viewer`: a seat sees its own hand; None shows only public information; -1 shows all."""
    scores = state.scores()
    if state.is_terminal():
        winner = f"player_{int(scores[1] > scores[0])} wins"
        head = f"game over: player_0 {scores[0]}, player_1 {scores[1]} | {winner}"
    elif state.table is None:
        head = f"player_{state.current_player} to lead | tricks {scores[0]}-{scores[1]}"
    else:
        head = f"player_{state.current_player} to answer {state.table} | tricks {scores[0]}-{scores[1]}"
    lines = [f"High Card | {head}"]
    for k, (leader, led, answer) in enumerate(state.tricks):
        lines.append(f"  trick {k}: player_{leader} led {led}, player_{1 - leader} answered {answer} -> "
                     f"player_{trick_winner(leader, led, answer)}")
    for seat, hand in enumerate(state.hands):
        shown = " ".join(map(str, hand)) if viewer in (seat, -1) else f"{len(hand)} hidden"
        lines.append(f"  player_{seat}{' (you)' if viewer == seat else ''}: hand {shown or '-'}")
    if viewer == -1:
        lines.append(f"  face down: {' '.join(map(str, state.undealt))}")
    return "\n".join(lines)


# ----- board (board.py in a game of the package) -------------------------------------------------
def board_zones(state: HighCardState, viewer: int | None) -> list[Zone]:
    """What `render_text` shows, as zones of cards for the replay page, with the same visibility."""
    scores = state.scores()
    led = [] if state.table is None else [face(str(state.table))]
    zones = [zone("table", "trick in progress", led)]
    for k, (leader, card, answer) in enumerate(state.tricks):
        zones.append(zone("table", f"trick {k}", [face(str(card)), face(str(answer))],
                          info=f"player_{leader} led, player_{trick_winner(leader, card, answer)} won"))
    for seat, hand in enumerate(state.hands):
        cards = [face(str(c)) for c in hand] if viewer in (seat, -1) else hidden(len(hand))
        zones.append(zone(f"player_{seat}", "hand", cards, seat, f"tricks {scores[seat]}"))
    undealt = [face(str(c)) for c in state.undealt] if viewer == -1 else hidden(len(state.undealt))
    zones.append(zone("table", "face down", undealt))
    return zones


# ----- the Game (game.py in a game of the package) ------------------------------------------------
class HighCardGame(Game):
    name = "high_card"  # the env id is f"{name}_v{version}": high_card_v0
    version = 0
    snapshot_format = 1

    def __init__(self, num_players: int = 2, reward: str = "win"):
        if not is_integer(num_players) or num_players != 2:
            raise ArgumentError(f"num_players={num_players!r} is not supported; High Card is a game for 2")
        self.num_players = 2
        self.reward = check_reward_mode(reward)
        self.num_actions = NUM_CARDS
        self.observation_layout = OBSERVATION
        self.state_layout = STATE
        self.max_game_length = 2 * NUM_TRICKS
        self.reward_range = (-1.0, 1.0)

    @property
    def config(self) -> dict[str, Any]:
        return {"num_players": 2, "reward": self.reward}

    def new_state(self, rng: np.random.Generator) -> HighCardState:
        deck = (rng.permutation(NUM_CARDS) + 1).tolist()
        hands = [sorted(deck[:HAND_SIZE]), sorted(deck[HAND_SIZE:2 * HAND_SIZE])]
        return HighCardState(self, hands, sorted(deck[2 * HAND_SIZE:]), [], None, current=0)

    def action_to_string(self, action: int) -> str:
        return describe_action(action)

    def render(self, state: State, viewer: int | None) -> str:
        return render_text(state, viewer)

    def board_zones(self, state: HighCardState, viewer: int | None) -> list[Zone]:
        return board_zones(state, viewer)

    def state_from_json(self, data: dict[str, Any]) -> HighCardState:
        return HighCardState(self, *validate(self, data))

    def state_to_json(self, state: HighCardState) -> dict[str, Any]:
        return state_to_json(state)
