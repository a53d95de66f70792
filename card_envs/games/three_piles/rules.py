"""3 Piles rules engine: pure Python + numpy, no RL imports. See the package docstring.

Hot-path notes: cards are ints (see `card_envs.core.cards`); every pile keeps its lowest and
highest rank so the pile rule is two comparisons; the legal action list is computed once per
position and cached; the feature vector behind `observation()` and `state_tensor()` is updated
incrementally by `apply`, so an observation is a single numpy gather.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

import numpy as np

from card_envs.core.cards import ACE, DIAMONDS, KING, RANK, SUIT, card_names
from card_envs.core.game import Game, IllegalActionError, State, named_actions
from card_envs.core.text import show
from card_envs.core.layout import Layout, Piece
from card_envs.core.rewards import terminal_returns

NUM_CARDS = 52
NUM_PILES = 3  # per player
NUM_STACKS = 3  # center stacks
HAND_SIZE = 3
MAX_SCORE = 35  # 13 (longest pile) + 9 (three Ace-King piles) + 13 (all Diamonds)

# Action table (fixed for every player count).
TAKE_BASE, DRAW, PLAY_BASE = 0, 9, 10
NUM_DESTINATIONS = NUM_PILES + NUM_STACKS  # play destinations: own piles 0..2, then stacks 0..2
PASS = PLAY_BASE + NUM_CARDS * NUM_DESTINATIONS  # 322
NUM_ACTIONS = PASS + 1  # 323

# Phases of a turn.
CHOOSE, PLACE = 0, 1  # CHOOSE: take / draw / play (deck empty) / pass; PLACE: place a hand card after drawing
PHASE_NAMES = ("choose", "place")

EMPTY_LO, EMPTY_HI = 14, 0  # bounds of an empty pile: every rank r satisfies r < 14
NUM_RANKS = 13


def take_action(stack: int, pile: int) -> int:
    """Take the top card of center `stack` onto own `pile`."""
    return TAKE_BASE + stack * NUM_PILES + pile


def play_to_pile(card: int, pile: int) -> int:
    return PLAY_BASE + card * NUM_DESTINATIONS + pile


def play_to_stack(card: int, stack: int) -> int:
    return PLAY_BASE + card * NUM_DESTINATIONS + NUM_PILES + stack


def describe_action(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {show(action)} is not in 0..{NUM_ACTIONS - 1}")
    if action < DRAW:
        stack, pile = divmod(action - TAKE_BASE, NUM_PILES)
        return f"take stack {stack} top -> pile {pile}"
    if action == DRAW:
        return "draw"
    if action == PASS:
        return "pass"
    card, dest = divmod(action - PLAY_BASE, NUM_DESTINATIONS)
    name = card_names([card])[0]
    return f"play {name} -> pile {dest}" if dest < NUM_PILES else f"play {name} -> stack {dest - NUM_PILES}"


# FITS[lo, hi]: which ranks 1..13 may extend a pile whose ranks span lo..hi (EMPTY_LO/EMPTY_HI
# for an empty pile, which takes any rank): the pile-order rule, precomputed for the features.
FITS = np.array([[[float(r < lo or r > hi) for r in range(1, NUM_RANKS + 1)]
                  for hi in range(NUM_RANKS + 1)] for lo in range(EMPTY_LO + 1)], dtype=np.float32)


def state_layout(n: int) -> Layout:
    """Full information, absolute seats. Also the store the observations are gathered from."""
    return Layout([
        Piece("hands", (n, NUM_CARDS), "1 where the card is in that seat's hand"),
        Piece("piles", (n, NUM_PILES, NUM_CARDS), "1 where the card is in that pile"),
        Piece("pile_fits", (n, NUM_PILES, NUM_RANKS), "1 where a card of rank r + 1 may still go on that pile"),
        Piece("stack_top", (NUM_STACKS, NUM_CARDS), "1 at the top card of each center stack"),
        Piece("stack_cards", (NUM_STACKS, NUM_CARDS),
              "(position from the bottom + 1) / 52 for each card in the stack: the order is public"),
        Piece("unseen", (n, NUM_CARDS), "1 where the card is hidden from that seat (deck or others' hands)"),
        Piece("deck", (NUM_CARDS,), "(position from the bottom + 1) / 52 for each card in the deck"),
        Piece("hand_sizes", (n,), "cards in hand / 4"),
        Piece("deck_size", (1,), "cards in the deck / 52"),
        Piece("scores", (n,), "current score / 35"),
        Piece("to_move", (n,), "1 at the seat to decide"),
        Piece("phase", (2,), "one-hot: choose (take/draw/play/pass), place (after a draw)"),
        Piece("passes", (1,), "consecutive forced passes / number of players"),
    ])


def observation_layout(n: int) -> Layout:
    """What one seat sees; seats are relative (0 = the observer, 1 = next to play, ...)."""
    return Layout([
        Piece("hand", (NUM_CARDS,), "1 where the card is in the observer's hand"),
        Piece("piles", (n, NUM_PILES, NUM_CARDS), "1 where the card is in that pile (relative seats)"),
        Piece("pile_fits", (n, NUM_PILES, NUM_RANKS),
              "1 where a card of rank r + 1 may still go on that pile (derived from `piles`, relative seats)"),
        Piece("stack_top", (NUM_STACKS, NUM_CARDS), "1 at the top card of each center stack"),
        Piece("stack_cards", (NUM_STACKS, NUM_CARDS), "(position from the bottom + 1) / 52 for each card in the stack"),
        Piece("unseen", (NUM_CARDS,), "1 where the card is in the deck or another hand (unknown to the observer)"),
        Piece("hand_sizes", (n,), "cards in hand / 4 (relative seats)"),
        Piece("deck_size", (1,), "cards in the deck / 52"),
        Piece("scores", (n,), "current score / 35 (relative seats)"),
        Piece("to_move", (n,), "1 at the seat to decide (relative seats)"),
        Piece("phase", (2,), "one-hot: choose (take/draw/play/pass), place (after a draw)"),
        Piece("passes", (1,), "consecutive forced passes / number of players"),
    ])


def observation_gathers(n: int, store: Layout) -> list[np.ndarray]:
    """For each seat, the store indices that form its observation, in observation-layout order."""
    gathers = []
    for seat in range(n):
        order = [(seat + k) % n for k in range(n)]  # relative seat k -> absolute seat
        parts = [
            store.index("hands")[seat],
            store.index("piles")[order].ravel(),
            store.index("pile_fits")[order].ravel(),
            store.index("stack_top").ravel(),
            store.index("stack_cards").ravel(),
            store.index("unseen")[seat],
            store.index("hand_sizes")[order],
            store.index("deck_size"),
            store.index("scores")[order],
            store.index("to_move")[order],
            store.index("phase"),
            store.index("passes"),
        ]
        gathers.append(np.concatenate(parts).astype(np.intp))
    return gathers


class ThreePilesState(State):
    def __init__(self, game: Game, hands, piles, stacks, deck, current, phase, passes, last_move=None,
                 _copy=None):
        self.game = game
        self._num_players = game.num_players
        self.hands: list[list[int]] = hands  # per seat, sorted
        self.piles: list[list[list[int]]] = piles  # piles[seat][k], sorted by rank
        self.stacks: list[list[int]] = stacks  # bottom .. top
        self.deck: list[int] = deck  # bottom .. top (pop() draws)
        self.current_player = current
        self.phase = phase
        self.passes = passes  # consecutive passes
        # (seat, action, card moved or None): all public, for render. A drawn card stays None.
        self.last_move: tuple[int, int, int | None] | None = last_move
        self._legal: list[int] | None = None
        if _copy is None:
            self._rebuild_derived()
        else:
            self.lo, self.hi, self.features = _copy

    # ----- derived data -------------------------------------------------------------------
    def _rebuild_derived(self) -> None:
        """Recompute the legal actions, pile bounds and the feature store from the card lists."""
        n = self.game.num_players
        self._legal = None
        self.lo = [[min((RANK[c] for c in p), default=EMPTY_LO) for p in seat] for seat in self.piles]
        self.hi = [[max((RANK[c] for c in p), default=EMPTY_HI) for p in seat] for seat in self.piles]
        f = np.zeros(self.game.state_layout.size, dtype=np.float32)
        v = self.game.state_layout.views(f)
        for seat in range(n):
            v["hands"][seat, self.hands[seat]] = 1
            for k in range(NUM_PILES):
                v["piles"][seat, k, self.piles[seat][k]] = 1
                v["pile_fits"][seat, k] = FITS[self.lo[seat][k], self.hi[seat][k]]
        v["unseen"][:, self.deck] = 1  # the deck is hidden from all; a hand from all but its holder
        for seat in range(n):
            others = [q for q in range(n) if q != seat]
            v["unseen"][np.ix_(others, self.hands[seat])] = 1
        for s, stack in enumerate(self.stacks):
            if stack:
                v["stack_top"][s, stack[-1]] = 1
            for pos, c in enumerate(stack):
                v["stack_cards"][s, c] = (pos + 1) / NUM_CARDS
        for pos, c in enumerate(self.deck):
            v["deck"][c] = (pos + 1) / NUM_CARDS
        v["hand_sizes"][:] = [len(h) / 4 for h in self.hands]
        v["deck_size"][0] = len(self.deck) / NUM_CARDS
        v["scores"][:] = [s / MAX_SCORE for s in self.scores()]
        if not self.is_terminal():
            v["to_move"][self.current_player] = 1
            v["phase"][self.phase] = 1
        v["passes"][0] = self.passes / n
        self.features = f

    # ----- queries ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.passes >= self._num_players

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
        if self.is_terminal():
            return []
        p = self.current_player
        lo, hi = self.lo[p], self.hi[p]
        if self.phase == PLACE:
            return self._hand_plays(p, lo, hi)
        legal = []
        for s in range(NUM_STACKS):
            stack = self.stacks[s]
            if stack:
                r = RANK[stack[-1]]
                for k in range(NUM_PILES):
                    if r < lo[k] or r > hi[k]:
                        legal.append(TAKE_BASE + s * NUM_PILES + k)
        if self.deck:
            legal.append(DRAW)
        else:
            legal += self._hand_plays(p, lo, hi)
            if not legal:
                legal.append(PASS)
        return legal

    def _hand_plays(self, p: int, lo: list[int], hi: list[int]) -> list[int]:
        legal = []
        for c in self.hands[p]:  # sorted: the list comes out sorted
            r = RANK[c]
            base = PLAY_BASE + c * NUM_DESTINATIONS
            for k in range(NUM_PILES):
                if r < lo[k] or r > hi[k]:
                    legal.append(base + k)
            legal += (base + 3, base + 4, base + 5)  # a center stack accepts any card
        return legal

    def scores(self) -> list[int]:
        return [_score(seat_piles) for seat_piles in self.piles]

    def returns(self) -> np.ndarray:
        if not self.is_terminal():
            return np.zeros(self.game.num_players)
        return terminal_returns(self.scores(), self.game.reward, MAX_SCORE)

    def observation(self, player: int) -> np.ndarray:
        return self.features.take(self.game._gathers[player])

    def state_tensor(self) -> np.ndarray:
        return self.features.copy()

    # ----- transitions --------------------------------------------------------------------
    def apply(self, action: int) -> None:
        if type(action) is not int:  # numpy ints are welcome; floats and bools are refused
            action = self.game.check_action(action)
        legal = self.legal_actions()
        if action not in legal:
            self._raise_illegal(action)
        p = self.current_player
        if action == DRAW:
            card = self.deck.pop()
            insort(self.hands[p], card)
            self._set_phase(PLACE)
            self._moved_from_deck(card, to_hand_of=p)
            self._legal = None
            self.last_move = (p, DRAW, None)  # the card drawn is hidden
            return
        if action == PASS:
            self.passes += 1
            self.last_move = (p, PASS, None)
        elif action < DRAW:  # take a stack top
            s, k = divmod(action, NUM_PILES)
            card = self.stacks[s].pop()
            self.last_move = (p, action, card)
            self._left_stack(s, card)
            self._add_to_pile(p, k, card)
            if not self.stacks[s] and self.deck:
                refill = self.deck.pop()
                self._moved_from_deck(refill, to_hand_of=None)
                self._push_stack(s, refill)
            self.passes = 0
        else:  # play a hand card
            card, dest = divmod(action - PLAY_BASE, NUM_DESTINATIONS)
            self.last_move = (p, action, card)
            self.hands[p].remove(card)
            self._left_hand(p, card)
            if dest < NUM_PILES:
                self._add_to_pile(p, dest, card)
            else:
                self._push_stack(dest - NUM_PILES, card)
            self.passes = 0
        self._end_turn()

    def _raise_illegal(self, action: Any) -> None:
        self.game.check_action(action)  # raises for non-integers and out-of-range values
        desc = describe_action(int(action))
        shown = named_actions(self.legal_actions(), describe_action)
        raise IllegalActionError(
            f"action {action} ({desc}) is illegal for seat {self.current_player} in phase "
            f"{PHASE_NAMES[self.phase]}; legal: {shown or 'none (game over)'}")

    def _end_turn(self) -> None:
        n = self.game.num_players
        f, off = self.features, self.game._off
        f[off["to_move"] + self.current_player] = 0
        f[off["passes"]] = self.passes / n
        self.current_player = (self.current_player + 1) % n
        self._legal = None
        if self.is_terminal():
            f[off["phase"] + self.phase] = 0
            return
        f[off["to_move"] + self.current_player] = 1
        self._set_phase(CHOOSE)

    def _set_phase(self, phase: int) -> None:
        f, off = self.features, self.game._off["phase"]
        f[off + self.phase] = 0
        f[off + phase] = 1
        self.phase = phase

    # Incremental feature updates: each keeps `features` equal to what `_rebuild_derived` builds.
    def _moved_from_deck(self, card: int, to_hand_of: int | None) -> None:
        f, off, n = self.features, self.game._off, self.game.num_players
        f[off["deck"] + card] = 0
        f[off["deck_size"]] = len(self.deck) / NUM_CARDS
        if to_hand_of is None:  # turned face up: seen by all
            for q in range(n):
                f[off["unseen"] + q * NUM_CARDS + card] = 0
        else:
            f[off["hands"] + to_hand_of * NUM_CARDS + card] = 1
            f[off["unseen"] + to_hand_of * NUM_CARDS + card] = 0
            f[off["hand_sizes"] + to_hand_of] = len(self.hands[to_hand_of]) / 4

    def _left_hand(self, p: int, card: int) -> None:
        f, off, n = self.features, self.game._off, self.game.num_players
        f[off["hands"] + p * NUM_CARDS + card] = 0
        f[off["hand_sizes"] + p] = len(self.hands[p]) / 4
        for q in range(n):  # now face up
            f[off["unseen"] + q * NUM_CARDS + card] = 0

    def _left_stack(self, s: int, card: int) -> None:
        f, off = self.features, self.game._off
        f[off["stack_top"] + s * NUM_CARDS + card] = 0
        f[off["stack_cards"] + s * NUM_CARDS + card] = 0
        if self.stacks[s]:
            f[off["stack_top"] + s * NUM_CARDS + self.stacks[s][-1]] = 1

    def _push_stack(self, s: int, card: int) -> None:
        stack, f, off = self.stacks[s], self.features, self.game._off
        if stack:
            f[off["stack_top"] + s * NUM_CARDS + stack[-1]] = 0
        stack.append(card)
        f[off["stack_top"] + s * NUM_CARDS + card] = 1
        f[off["stack_cards"] + s * NUM_CARDS + card] = len(stack) / NUM_CARDS

    def _add_to_pile(self, p: int, k: int, card: int) -> None:
        pile, r = self.piles[p][k], RANK[card]
        if not pile:
            pile.append(card)
            self.lo[p][k] = self.hi[p][k] = r
        elif r < self.lo[p][k]:
            pile.insert(0, card)
            self.lo[p][k] = r
        else:  # legal moves guarantee r > hi
            pile.append(card)
            self.hi[p][k] = r
        f, off = self.features, self.game._off
        f[off["piles"] + (p * NUM_PILES + k) * NUM_CARDS + card] = 1
        fits = off["pile_fits"] + (p * NUM_PILES + k) * NUM_RANKS
        f[fits:fits + NUM_RANKS] = FITS[self.lo[p][k], self.hi[p][k]]
        f[off["scores"] + p] = _score(self.piles[p]) / MAX_SCORE

    # ----- copies, snapshots, determinization --------------------------------------------
    def clone(self) -> "ThreePilesState":
        derived = ([x[:] for x in self.lo], [x[:] for x in self.hi], self.features.copy())
        copy = ThreePilesState(
            self.game, [h[:] for h in self.hands], [[p[:] for p in seat] for seat in self.piles],
            [s[:] for s in self.stacks], self.deck[:], self.current_player, self.phase, self.passes,
            self.last_move, _copy=derived)
        copy._legal = self._legal  # never mutated, only replaced: safe to share
        return copy

    def determinize(self, player: int, rng: np.random.Generator) -> "ThreePilesState":
        """Deal the deck and the other hands anew from the cards `player` cannot see.

        Nothing about another hand is ever revealed in 3 Piles (hand cards come only from the
        face-down deal and deck; a pass needs an empty hand, which is public), so a uniform
        deal of the unseen cards is consistent. The pool is sorted first: the copy depends only
        on what `player` knows and on `rng`, never on the real order of the hidden cards.
        """
        others = [q for q in range(self.game.num_players) if q != player]
        pool = sorted(self.deck + [c for q in others for c in self.hands[q]])
        dealt = rng.permutation(pool).tolist()
        hands = [h[:] for h in self.hands]
        for q in others:
            size = len(hands[q])
            hands[q], dealt = sorted(dealt[:size]), dealt[size:]
        return ThreePilesState(  # built afresh: no cache of the real position survives
            self.game, hands, [[p[:] for p in seat] for seat in self.piles], [s[:] for s in self.stacks], dealt,
            self.current_player, self.phase, self.passes, self.last_move)

    def __repr__(self) -> str:
        return f"ThreePilesState({self.to_json()})"


def _score(seat_piles: list[list[int]]) -> int:
    longest = max(len(p) for p in seat_piles)
    # Piles are sorted by rank, so an Ace is first and a King is last.
    ace_kings = sum(1 for p in seat_piles if p and RANK[p[0]] == ACE and RANK[p[-1]] == KING)
    diamonds = sum(1 for p in seat_piles for c in p if SUIT[c] == DIAMONDS)
    return longest + 3 * ace_kings + diamonds
