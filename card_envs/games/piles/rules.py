"""Piles rules engine: pure Python + numpy, no RL imports. See the package docstring.

Hot-path notes: cards are ints (see `card_envs.core.cards`); the state keeps every pile's top
card, its colour and its total value, updated on each placement (a placement changes the value of
its position and, when the top colour flips, of its neighbours only); team points are kept per
colour, so scoring is O(1) per move; the legal action list is computed once per position and
cached; the feature vector behind `observation()` and `state_tensor()` is updated incrementally
by `apply`, so an observation is a single numpy gather.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from card_envs.core.cards import (
    ACE, DIAMONDS, HEARTS, JACK, KING, QUEEN, RANK, SUIT, card_names)
from card_envs.core.game import Game, IllegalActionError, State
from card_envs.core.text import show
from card_envs.core.layout import Layout, Piece

NUM_CARDS = 52
ROWS, COLS = 3, 4
NUM_POSITIONS = ROWS * COLS  # the Castle; position p is row p // 4, column p % 4
HAND_SIZE = 10
SET_ASIDE = 20  # two-player variant: dealt 10 each when both hands are empty
MAX_POINTS = 54  # all cards of one colour: 2 suits x (9 + 4 + 3 + 2 + 9 x 1)
MAX_TURNS = 40  # every turn takes one hand card: 4 x 10, or 2 x (10 + 10)
MAX_PILE = NUM_CARDS  # pile positions are encoded as (height index + 1) / 52
VALUE_LOW, VALUE_HIGH = 1 - 4, 13 + 4  # an Ace with 4 opposite neighbours .. a King with 4 alike

# Action table: place card c on position p = c * 12 + p; then pass.
PASS = NUM_CARDS * NUM_POSITIONS  # 624
NUM_ACTIONS = PASS + 1  # 625

RED, BLACK = 0, 1
COLOUR_NAMES = ("red", "black")
COLOUR = tuple(RED if SUIT[c] in (DIAMONDS, HEARTS) else BLACK for c in range(NUM_CARDS))
POINTS = tuple({ACE: 9, KING: 4, QUEEN: 3, JACK: 2}.get(RANK[c], 1) for c in range(NUM_CARDS))
POSITIONS = tuple(range(NUM_POSITIONS))


def _neighbours(p: int) -> tuple[int, ...]:
    row, col = divmod(p, COLS)
    cells = ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col))
    return tuple(r * COLS + c for r, c in cells if 0 <= r < ROWS and 0 <= c < COLS)


NEIGHBOURS = tuple(_neighbours(p) for p in POSITIONS)  # orthogonal: 2 at corners, 3 on edges, 4 inside


def place_action(card: int, position: int) -> int:
    return card * NUM_POSITIONS + position


def position_name(position: int) -> str:
    return "r{}c{}".format(*divmod(position, COLS))


def describe_action(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {show(action)} is not in 0..{NUM_ACTIONS - 1}")
    if action == PASS:
        return "pass"
    card, position = divmod(action, NUM_POSITIONS)
    return f"place {card_names([card])[0]} on {position_name(position)}"


def team_of(seat: int) -> int:
    """Seats 0 and 2 are team 0, seats 1 and 3 team 1 (with two players: the seat itself)."""
    return seat % 2


def total_value(tops: list[int], position: int) -> int:
    """Intrinsic value of the top card, +1 per neighbouring top of its colour, -1 per other."""
    top = tops[position]
    colour, value = COLOUR[top], RANK[top]
    for q in NEIGHBOURS[position]:
        value += 1 if COLOUR[tops[q]] == colour else -1
    return value


def _points_by_colour(cards: list[int]) -> list[int]:
    """[points of the red cards, points of the black cards]."""
    points = [0, 0]
    for c in cards:
        points[COLOUR[c]] += POINTS[c]
    return points


def state_layout(n: int) -> Layout:
    """Full information, absolute seats and teams. Also the store observations are gathered from."""
    return Layout([
        Piece("hands", (n, NUM_CARDS), "1 where the card is in that seat's hand"),
        Piece("set_aside", (n, NUM_CARDS), "1 where a set-aside card will be dealt to that seat (2 players)"),
        Piece("top", (NUM_POSITIONS, NUM_CARDS), "1 at the top card of each Castle position"),
        Piece("pile_cards", (NUM_POSITIONS, NUM_CARDS),
              "(height from the bottom + 1) / 52 for each card in the pile at that position"),
        Piece("top_value", (NUM_POSITIONS,), "(total value of the top card + 3) / 20"),
        Piece("captured", (2, NUM_CARDS), "1 where the card was taken by that team after a pass"),
        Piece("unseen", (n, NUM_CARDS), "1 where the card is hidden from that seat (others' hands, set aside)"),
        Piece("hand_sizes", (n,), "cards in hand / 10"),
        Piece("turns_left", (1,), "decisions left in the game / 40"),
        Piece("seat_team", (n, 2), "one-hot team of each seat (constant)"),
        Piece("team_colour", (2, 2), "one-hot colour (red, black) of each team; zeros until fixed"),
        Piece("scores", (2,), "each team's points if the game ended now / 54"),
        Piece("to_move", (n,), "1 at the seat to decide"),
        Piece("second_deal", (1,), "1 once the set-aside cards were dealt (2 players)"),
    ])


def observation_layout(n: int) -> Layout:
    """What one seat sees; seats and teams are relative (seat 0 = the observer, team 0 = his)."""
    return Layout([
        Piece("hand", (NUM_CARDS,), "1 where the card is in the observer's hand"),
        Piece("team", (2,), "one-hot absolute team of the observer (team 0: seat 0, and seat 2 with 4 players)"),
        Piece("team_colour", (2, 2), "one-hot colour (red, black) of own team, other team; zeros until fixed"),
        Piece("top", (NUM_POSITIONS, NUM_CARDS), "1 at the top card of each Castle position (row-major)"),
        Piece("pile_cards", (NUM_POSITIONS, NUM_CARDS),
              "(height from the bottom + 1) / 52 for each card in the pile at that position"),
        Piece("top_value", (NUM_POSITIONS,), "(total value of the top card + 3) / 20"),
        Piece("captured", (2, NUM_CARDS), "1 where the card was taken after a pass by own team, other team"),
        Piece("unseen", (NUM_CARDS,), "1 where the card is in another hand or set aside"),
        Piece("hand_sizes", (n,), "cards in hand / 10 (relative seats)"),
        Piece("turns_left", (1,), "decisions left in the game / 40"),
        Piece("scores", (2,), "points if the game ended now / 54: own team, other team"),
        Piece("to_move", (n,), "1 at the seat to decide (relative seats)"),
        Piece("second_deal", (1,), "1 once the set-aside cards were dealt (2 players; always 0 with 4)"),
    ])


def observation_gathers(n: int, store: Layout) -> list[np.ndarray]:
    """For each seat, the store indices that form its observation, in observation-layout order."""
    gathers = []
    for seat in range(n):
        order = [(seat + k) % n for k in range(n)]  # relative seat k -> absolute seat
        teams = [team_of(seat), 1 - team_of(seat)]  # relative team -> absolute team
        parts = [
            store.index("hands")[seat],
            store.index("seat_team")[seat],
            store.index("team_colour")[teams].ravel(),
            store.index("top").ravel(),
            store.index("pile_cards").ravel(),
            store.index("top_value"),
            store.index("captured")[teams].ravel(),
            store.index("unseen")[seat],
            store.index("hand_sizes")[order],
            store.index("turns_left"),
            store.index("scores")[teams],
            store.index("to_move")[order],
            store.index("second_deal"),
        ]
        gathers.append(np.concatenate(parts).astype(np.intp))
    return gathers


class PilesState(State):
    def __init__(self, game: Game, hands, piles, captured, set_aside, team_colours, current, chance_seed,
                 last_move=None, _copy=None):
        self.game = game
        self.hands: list[list[int]] = hands  # per seat, sorted
        self.piles: list[list[int]] = piles  # per position, bottom .. top
        self.captured: list[list[int]] = captured  # per team, in the order taken
        self.set_aside: list[int] = set_aside  # next dealt first, alternately to seat 0 and seat 1
        self.team_colours: list[int | None] = team_colours  # per team: RED, BLACK or None (not fixed)
        self.current_player = current
        self.chance_seed = chance_seed  # pass k draws from np.random.default_rng((chance_seed, k))
        # (seat, action, card placed or taken after the pass): all public, for render.
        self.last_move: tuple[int, int, int] | None = last_move
        self._legal: list[int] | None = None
        if _copy is None:
            self._rebuild_derived()
        else:
            (self.tops, self.top_colour, self.values, self.pile_points, self.held, self.captured_points,
             self.turns_left, self.features) = _copy

    # ----- derived data -------------------------------------------------------------------
    def _rebuild_derived(self) -> None:
        """Recompute the legal actions, tops, values, points and the feature store from the cards."""
        g, n = self.game, self.game.num_players
        self._legal = None
        self.tops = [pile[-1] for pile in self.piles]
        self.top_colour = [COLOUR[c] for c in self.tops]
        self.values = [total_value(self.tops, p) for p in POSITIONS]
        # pile_points[p][colour]: points of that colour's cards in the pile; held[colour]: the
        # points the team of that colour would take from the piles it tops.
        self.pile_points = [_points_by_colour(pile) for pile in self.piles]
        self.held = [0, 0]
        for points, colour in zip(self.pile_points, self.top_colour):
            self.held[colour] += points[1 - colour]
        self.captured_points = [_points_by_colour(cards) for cards in self.captured]
        self.turns_left = sum(len(h) for h in self.hands) + len(self.set_aside)
        self.features = f = np.zeros(g.state_layout.size, dtype=np.float32)
        # Flat indices rather than named views: a fresh deal runs this, so it is kept short.
        ones = []
        for seat, hand in enumerate(self.hands):
            ones += [g.o_hands + seat * NUM_CARDS + c for c in hand]
            ones.append(g.o_seat_team + 2 * seat + team_of(seat))
            base = g.o_unseen + seat * NUM_CARDS
            ones += [base + c for q in g.others[seat] for c in self.hands[q]]
            ones += [base + c for c in self.set_aside]
        ones += [g.o_set_aside + (i % 2) * NUM_CARDS + c for i, c in enumerate(self.set_aside)]
        ones += [g.o_top + p * NUM_CARDS + c for p, c in enumerate(self.tops)]
        ones += [g.o_captured + t * NUM_CARDS + c for t in (0, 1) for c in self.captured[t]]
        ones += [g.o_colour + 2 * t + k for t, k in enumerate(self.team_colours) if k is not None]
        if self.turns_left:
            ones.append(g.o_move + self.current_player)
        if n == 2 and not self.set_aside:
            ones.append(g.o_second)
        f[ones] = 1
        heights = [(g.o_pile + p * NUM_CARDS + c, (h + 1) / MAX_PILE)
                   for p, pile in enumerate(self.piles) for h, c in enumerate(pile)]
        f[[i for i, _ in heights]] = [x for _, x in heights]
        f[g.o_value:g.o_value + NUM_POSITIONS] = [(x - VALUE_LOW) / (VALUE_HIGH - VALUE_LOW) for x in self.values]
        f[g.o_sizes:g.o_sizes + n] = [len(h) / HAND_SIZE for h in self.hands]
        f[g.o_turns] = self.turns_left / g.max_game_length
        f[g.o_scores:g.o_scores + 2] = [x / MAX_POINTS for x in self.team_points()]

    # ----- queries ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return not self.turns_left

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def legal_mask(self) -> np.ndarray:
        mask = bytearray(NUM_ACTIONS)  # a bytearray loop beats numpy fancy indexing at this size
        for a in self.legal_actions():
            mask[a] = 1
        return np.frombuffer(mask, dtype=np.int8)

    def _compute_legal(self) -> list[int]:
        if not self.turns_left:
            return []
        top_colour, values = self.top_colour, self.values
        legal = []
        for c in self.hands[self.current_player]:  # sorted hand: the list comes out sorted
            colour, rank, base = COLOUR[c], RANK[c], c * NUM_POSITIONS
            legal += [base + p for p in POSITIONS if top_colour[p] == colour or values[p] < rank]
        legal.append(PASS)
        return legal

    def team_points(self) -> list[int]:
        """Points of team 0 and team 1 if the game ended now (0 and 0 before colours are fixed)."""
        if self.team_colours[0] is None:
            return [0, 0]
        return [self.held[k] + self.captured_points[t][1 - k] for t, k in enumerate(self.team_colours)]

    def scores(self) -> list[int]:
        """Each seat's team points: teammates share one score."""
        points = self.team_points()
        return [points[team_of(seat)] for seat in range(self.game.num_players)]

    def returns(self) -> np.ndarray:
        n = self.game.num_players
        if self.turns_left:
            return np.zeros(n)
        a, b = self.team_points()
        diff = float(np.sign(a - b)) if self.game.reward == "win" else (a - b) / MAX_POINTS
        return np.array([diff if team_of(seat) == 0 else -diff for seat in range(n)])

    def observation(self, player: int) -> np.ndarray:
        return self.features.take(self.game._gathers[player])

    def state_tensor(self) -> np.ndarray:
        return self.features.copy()

    # ----- transitions --------------------------------------------------------------------
    def apply(self, action: int) -> None:
        if type(action) is not int:  # numpy ints are welcome; floats and bools are refused
            action = self.game.check_action(action)
        p = self.current_player
        if action == PASS and self.turns_left:
            self._pass(p)
        else:
            # Checked from the rules directly: cheaper than a search of the legal list.
            card, pos = divmod(action, NUM_POSITIONS)
            if not (0 <= action < PASS and card in self.hands[p]
                    and (COLOUR[card] == self.top_colour[pos] or RANK[card] > self.values[pos])):
                self._raise_illegal(action)
            self._place(p, card, pos)
        self._end_turn(p)

    def _raise_illegal(self, action: Any) -> None:
        self.game.check_action(action)  # raises for non-integers and out-of-range values
        desc = describe_action(int(action))
        legal = self.legal_actions()
        first = legal[-1:] + legal[:11]  # pass (always legal, listed last) first, then placements
        shown = ", ".join(f"{a} ({describe_action(a)})" for a in first)
        more = "" if len(legal) <= 12 else f", ... {len(legal)} in all"
        raise IllegalActionError(
            f"action {action} ({desc}) is illegal for seat {self.current_player}; "
            f"legal: {shown or 'none (game over)'}{more}")

    def _place(self, p: int, card: int, pos: int) -> None:
        g, f = self.game, self.features
        self._left_hand(p, card)
        self.last_move = (p, card * NUM_POSITIONS + pos, card)
        pile, old_top = self.piles[pos], self.tops[pos]
        old_colour, colour = self.top_colour[pos], COLOUR[card]
        pile.append(card)
        self.tops[pos] = card
        self.top_colour[pos] = colour
        f[g.o_top + pos * NUM_CARDS + old_top] = 0
        f[g.o_top + pos * NUM_CARDS + card] = 1
        f[g.o_pile + pos * NUM_CARDS + card] = len(pile) / MAX_PILE
        # Points: the pile moves from the holder of its old top colour to that of the new one.
        points = self.pile_points[pos]
        self.held[old_colour] -= points[1 - old_colour]
        points[colour] += POINTS[card]
        self.held[colour] += points[1 - colour]
        # Values: the neighbours' +1/-1 at pos keep their signs if the colour stays, else flip;
        # and each neighbour gains 2 (now alike) or loses 2 (now unlike) when it flips.
        values, scale = self.values, VALUE_HIGH - VALUE_LOW
        bonus = values[pos] - RANK[old_top]
        values[pos] = RANK[card] + (bonus if colour == old_colour else -bonus)
        f[g.o_value + pos] = (values[pos] - VALUE_LOW) / scale
        if colour != old_colour:
            for q in NEIGHBOURS[pos]:
                values[q] += 2 if self.top_colour[q] == colour else -2
                f[g.o_value + q] = (values[q] - VALUE_LOW) / scale
        if self.team_colours[0] is None:  # the first card placed fixes the colours
            team = team_of(p)
            self.team_colours[team], self.team_colours[1 - team] = colour, 1 - colour
            f[g.o_colour + 2 * team + colour] = 1
            f[g.o_colour + 2 * (1 - team) + 1 - colour] = 1

    def _pass(self, p: int) -> None:
        """The opponent on the left (the next seat) takes a random card of p's hand, face up."""
        hand = self.hands[p]
        k = len(self.captured[0]) + len(self.captured[1])  # passes so far: a fresh draw per pass
        card = hand[int(np.random.default_rng((self.chance_seed, k)).integers(len(hand)))]
        self.last_move = (p, PASS, card)
        self._left_hand(p, card)
        team = team_of((p + 1) % self.game.num_players)
        self.captured[team].append(card)
        self.captured_points[team][COLOUR[card]] += POINTS[card]
        self.features[self.game.o_captured + team * NUM_CARDS + card] = 1

    def _left_hand(self, p: int, card: int) -> None:
        """`card` leaves p's hand face up: now seen by everyone."""
        g, f = self.game, self.features
        hand = self.hands[p]
        hand.remove(card)
        f[g.o_hands + p * NUM_CARDS + card] = 0
        f[g.o_sizes + p] = len(hand) / HAND_SIZE
        for q in g.others[p]:
            f[g.o_unseen + q * NUM_CARDS + card] = 0

    def _end_turn(self, p: int) -> None:
        g, f = self.game, self.features
        self.turns_left -= 1
        self._legal = None
        f[g.o_turns] = self.turns_left / g.max_game_length
        f[g.o_move + p] = 0
        colours = self.team_colours
        if colours[0] is not None:
            held, captured = self.held, self.captured_points
            f[g.o_scores] = (held[colours[0]] + captured[0][colours[1]]) / MAX_POINTS
            f[g.o_scores + 1] = (held[colours[1]] + captured[1][colours[0]]) / MAX_POINTS
        p = self.current_player = (p + 1) % g.num_players
        if not self.hands[p]:  # hands shrink in turn order: the next hand empty = all empty
            if not self.set_aside:
                return  # game over
            self._deal_set_aside()
        f[g.o_move + p] = 1

    def _deal_set_aside(self) -> None:
        """Two players: the 20 set-aside cards, dealt alternately starting with seat 0."""
        g, f = self.game, self.features
        for i, card in enumerate(self.set_aside):
            seat = i % 2
            self.hands[seat].append(card)
            f[g.o_set_aside + seat * NUM_CARDS + card] = 0
            f[g.o_hands + seat * NUM_CARDS + card] = 1
            f[g.o_unseen + seat * NUM_CARDS + card] = 0  # still unseen by the other seat
        for seat in (0, 1):
            self.hands[seat].sort()
            f[g.o_sizes + seat] = len(self.hands[seat]) / HAND_SIZE
        self.set_aside = []
        f[g.o_second] = 1

    # ----- copies, snapshots, determinization --------------------------------------------
    def clone(self) -> "PilesState":
        derived = (self.tops[:], self.top_colour[:], self.values[:], [x[:] for x in self.pile_points],
                   self.held[:], [x[:] for x in self.captured_points], self.turns_left, self.features.copy())
        copy = PilesState(self.game, [h[:] for h in self.hands], [p[:] for p in self.piles],
                          [c[:] for c in self.captured], self.set_aside[:], self.team_colours[:],
                          self.current_player, self.chance_seed, self.last_move, _copy=derived)
        copy._legal = self._legal  # never mutated, only replaced: safe to share
        return copy

    def determinize(self, player: int, rng: np.random.Generator) -> "PilesState":
        """Deal the other hands and the set-aside cards anew for `player`; new future pass draws.

        Nothing about another hand is ever revealed in Piles (cards leave a hand face up and are
        then public; placements are free choices that constrain nothing; the card a pass takes
        is uniform among the hand), so a uniform deal of the cards `player` cannot see is
        consistent with what he has seen. The pool is sorted first, so the copy depends only on
        what `player` knows and on `rng`. The chance seed is hidden too and must be redrawn: with
        it, the public outcome of each past pass would tell where the taken card ranked in the
        passer's hand, hence something about the cards still in it.
        """
        others = self.game.others[player]
        pool = sorted([c for q in others for c in self.hands[q]] + self.set_aside)
        dealt = rng.permutation(pool).tolist()
        hands = [h[:] for h in self.hands]
        for q in others:
            size = len(hands[q])
            hands[q], dealt = sorted(dealt[:size]), dealt[size:]
        return PilesState(  # built afresh: no cache of the real position survives
            self.game, hands, [p[:] for p in self.piles], [c[:] for c in self.captured], dealt,
            self.team_colours[:], self.current_player, int(rng.integers(2**63)), self.last_move)

    def __repr__(self) -> str:
        return f"PilesState({self.to_json()})"
