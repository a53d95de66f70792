"""Illimat rules engine: pure Python + numpy, no RL imports. See the package docstring.

`IllimatState` holds a position and its transitions (a turn's decisions, card movements, copies);
its other methods live by concern in mixins: legal moves (moves.py), clearing, round end, scoring
and the deal (rounds.py), the observation (observation.py). The tables are in cards.py, the Game
in game.py.

Hot-path notes: cards are ints (see `card_envs.core.cards`, suit 4 = Stars); a move is built from
small decisions and each decision's legal answers are computed lazily, from what was chosen so
far, never by listing complete moves:

- which card / field / action / value can still be completed is decided from each field's
  subset-sum bitmask (the sums its loose cards and single stockpiles can make, Fools as 1 or
  14; cached per field until the field changes);
- the items of a harvest or stockpile are picked one at a time in ascending card order; an item
  is offered when the items chosen so far plus it can still be covered exactly by disjoint
  groups that each total the value (a small exact-cover search over the groups, which are
  enumerated once per field content and value and memoised);
- the feature vector behind `observation()` and `state_tensor()` is updated incrementally by
  every card movement, so an observation is a single numpy gather.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

import numpy as np

from card_envs.core.cards import RANK, SUIT
from card_envs.core.game import Game, IllegalActionError, State, named_actions
from card_envs.core.rewards import rank_returns, score_returns
from card_envs.games.illimat.cards import (
    ACTION, CHANGELING, CLAIM_GIVE, CLAIM_SEASON, CLAIM_TAKE, DECISION_NAMES, DONE, FACE, FIELD, FIELD0, FOREST_QUEEN,
    HAND_SIZE, HARVEST, HARVEST_VALUES, IS_FOOL, ITEMS, MAX_STOCKPILE, MAX_VALUE, MID_MOVE, NO_LUMINARY, NUM_ACTIONS,
    NUM_CARDS, NUM_DECISIONS, NUM_FIELDS, NUM_LUMINARIES, OVER, PAIR_VALUES, PARTNER, RAKE, RAKE_CARD, RAKE_SOW, RING,
    SEASON, SEASON0, SOW, STARS, SUMMER, SWAP, SWAP_GIVE, SWAP_TAKE, TURN, UNION, VALUE, VALUE0, WINTER, Pile,
    describe_action, face_seasons, summer_for)
from card_envs.games.illimat.groups import MULTIPLE_CODE, one_group_totals
from card_envs.games.illimat.moves import LegalMoves
from card_envs.games.illimat.observation import Encoding
from card_envs.games.illimat.rounds import RoundFlow

# The last card play: (seat, kind, field, cards played or given from the hand, cards taken from the
# field, stockpile value or 0); kind is one of LAST_PLAY_KINDS. Public: every seat saw it.
LastPlay = tuple[int, str, int, tuple[int, ...], tuple[int, ...], int]
LAST_PLAY_KINDS = ("sow", "rake_sow", "harvest", "stockpile", "swap")


class IllimatState(LegalMoves, RoundFlow, Encoding, State):
    def __init__(self, game: Game):
        self.game = game
        n = game.num_players
        self.chance_seed = 0
        self.round = 0
        self.match_scores: list[int] = [0] * n
        self.current_player = 0
        self.deck: list[int] = []  # bottom .. top: pop() draws
        self.hands: list[list[int]] = [[] for _ in range(n)]  # sorted
        self.known: list[list[int]] = [[] for _ in range(n)]  # hand cards taken from the board in view
        self.loose: list[list[int]] = [[] for _ in range(NUM_FIELDS)]  # sorted
        self.piles: list[list[Pile]] = [[] for _ in range(NUM_FIELDS)]
        self.lum = [NO_LUMINARY] * NUM_FIELDS  # the Luminary of each field (face up or down)
        self.lum_up = [False] * NUM_FIELDS
        self.under: list[list[int]] = [[] for _ in range(NUM_FIELDS)]  # cards under the Children
        self.unused: list[int] = []  # Luminaries not dealt this round: pop() deals the next
        self.discarded_down: list[int] = []  # Luminaries discarded unrevealed
        self.discarded_up: list[int] = []  # Luminaries discarded after their reveal
        self.summer = 0
        self.okus_left = 0
        self.okus = [0] * n
        self.claimed: list[list[int]] = [[] for _ in range(n)]
        self.harvest: list[list[int]] = [[] for _ in range(n)]
        self.secret: list[list[int]] = [[] for _ in range(n)]  # subset of harvest, hidden from others
        self.hcounts: list[list[int]] = [[0] * 6 for _ in range(n)]  # derived: see _count_harvest
        self.decision = TURN
        self.converged = False  # the Harmonic Convergence happened (once a match at most)
        # turn flags
        self.main_done = False
        self.rake_owed = False
        self.swap_used = False
        self.cleared = -1  # the field a harvest emptied this turn (cleared at the end of the turn)
        self.okus_taken = False  # during a clearing: whether it gave an okus (refill condition)
        # the pending move
        self.m_card = -1  # main card, Rake card, swap/claim card to give
        self.m_field = -1  # field chosen; for a season decision: the field whose season is chosen
        self.m_action = -1  # SOW, HARVEST, STOCKPILE
        self.m_partner = -1  # Union partner
        self.m_value = 0  # harvest value or stockpile value
        self.m_items: list[int] = []  # key cards of the items chosen (ascending)
        self.m_full: list[int] = []  # a full harvest's cards (the whole hand), through its season decision
        self.c_given: list[int] = []  # Changeling claim: cards given to the board
        self.c_taken: list[int] = []  # and taken from it
        self.features = np.zeros(game.state_layout.size, dtype=np.float32)
        self._legal: list[int] | None = None
        self._mask: bytearray | None = None
        self._sums: list[tuple[int, int] | None] = [None] * NUM_FIELDS
        self._ctx = None  # items decision: (keys, codes, key -> index, active value, targets)
        # the last card play, public (render, snapshot): (seat, kind, field, played, taken, value)
        self.last_play: LastPlay | None = None

    # ----- queries ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.decision == OVER

    def season(self, field: int) -> int:
        return RING[(field - self.summer) % 4]

    def face_up_field(self, luminary: int) -> int:
        """The field where `luminary` lies face up, or -1."""
        for f in range(NUM_FIELDS):
            if self.lum[f] == luminary and self.lum_up[f]:
                return f
        return -1

    def items(self, field: int) -> list[tuple[int, int, Pile | None]]:
        """The field's items in key order: (key card, code, stockpile or None for a loose card)."""
        out = [(c, 0 if IS_FOOL[c] else RANK[c], None) for c in self.loose[field]]
        for pile in self.piles[field]:
            out.append((pile[0], pile[1] + MULTIPLE_CODE if pile[2] else pile[1], pile))
        out.sort()
        return out

    def scores(self) -> list[int]:
        """Each seat's match score: the rounds scored so far."""
        return self.match_scores[:]

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
            mask = bytearray(NUM_ACTIONS)
            for a in self._legal:
                mask[a] = 1
            self._mask = mask
        return self._legal

    def legal_mask(self) -> np.ndarray:
        if self._legal is None:
            self.legal_actions()
        return np.frombuffer(bytearray(self._mask), dtype=np.int8)

    def returns(self) -> np.ndarray:
        n = self.game.num_players
        if self.decision != OVER:
            return np.zeros(n)
        if self.game.reward == "win":
            return rank_returns(self.match_scores)
        return score_returns(self.match_scores, self.game.score_high - self.game.score_low)

    # ----- transitions --------------------------------------------------------------------
    def apply(self, action: int) -> None:
        if type(action) is not int:  # numpy ints are welcome; floats and bools are refused
            action = self.game.check_action(action)
        if self._legal is None:
            self.legal_actions()
        if not 0 <= action < NUM_ACTIONS or not self._mask[action]:
            self._raise_illegal(action)
        self._legal = None
        d = self.decision
        if d == TURN:
            self._turn_choice(action)
        elif d == FIELD:
            self._set_field(action - FIELD0)
        elif d == ACTION:
            self._choose_action(action)
        elif d == PARTNER:
            self._choose_partner(action)
        elif d == VALUE:
            self._choose_value(action - VALUE0)
        elif d == ITEMS:
            self._choose_item(action)
        elif d == SEASON:
            self._set_season(self.m_field, action - SEASON0)
            self._after_part()
        elif d == RAKE_CARD:
            self._rake_sow(action)
        elif d == SWAP_GIVE:
            self._set_move_card(action)
            self._set_decision(SWAP_TAKE)
        elif d == SWAP_TAKE:
            self._swap(action)
        elif d == CLAIM_GIVE:
            self._claim_give(action)
        elif d == CLAIM_TAKE:
            self._claim_take(action)
        elif d == CLAIM_SEASON:
            self._set_season(self.cleared, action - SEASON0)
            self._clear_move()
            self._finish_clearing()

    def _raise_illegal(self, action: Any) -> None:
        self.game.check_action(action)
        shown = named_actions(self.legal_actions(), describe_action)
        raise IllegalActionError(
            f"action {action} ({describe_action(int(action))}) is illegal for seat {self.current_player} "
            f"at the {DECISION_NAMES[self.decision]} decision; legal: {shown or 'none (game over)'}")

    # decisions of the main play
    def _turn_choice(self, action: int) -> None:
        if action < FIELD0:
            self._set_move_card(action)
            self._set_decision(FIELD)
        elif action == HARVEST:  # a full harvest: the whole hand
            self.m_full = self.hands[self.current_player][:]
            o = self.game.off["move_cards"]
            for c in self.m_full:
                self.features[o + c] = 1
            self._set_decision(FIELD)
        elif action == RAKE_SOW:
            self._set_decision(RAKE_CARD)
        elif action == SWAP:
            self._set_decision(SWAP_GIVE)
        else:  # DONE
            self._end_turn()

    def _set_field(self, f: int) -> None:
        self.m_field = f
        self.features[self.game.off["move_field"] + f] = 1
        if self.m_full:  # a full harvest is a harvest: its items come next
            self.m_action = HARVEST
            self.features[self.game.off["move_action"] + HARVEST - SOW] = 1
            self._ctx = None
            self._set_decision(ITEMS)
            return
        self._set_decision(ACTION)

    def _choose_action(self, action: int) -> None:
        self.m_action = action
        self.features[self.game.off["move_action"] + action - SOW] = 1
        if action == SOW:
            c, f = self.m_card, self.m_field
            self.last_play = (self.current_player, "sow", f, (c,), (), 0)
            self._from_hand(c)
            self._add_loose(f, c)
            self._main_played((c,), f)
        elif action == HARVEST:
            if self.face_up_field(UNION) == self.m_field:
                self._set_decision(PARTNER)
            else:
                self._after_partner()
        else:
            self._set_decision(VALUE)

    def _choose_partner(self, action: int) -> None:
        if action != DONE:
            self.m_partner = action
            self.features[self.game.off["move_cards"] + action] = 1
        self._after_partner()

    def _after_partner(self) -> None:
        values = HARVEST_VALUES[self.m_card] if self.m_partner < 0 else PAIR_VALUES[self.m_card][self.m_partner]
        if len(values) > 1:
            self._set_decision(VALUE)
        else:
            self._choose_value(values[0])

    def _choose_value(self, v: int) -> None:
        self.m_value = v
        self.features[self.game.off["move_value"]] = v / MAX_VALUE
        self._ctx = None
        self._set_decision(ITEMS)

    def _choose_item(self, action: int) -> None:
        if action != DONE:
            self.m_items.append(action)
            f = self.m_field
            o = self.game.off["move_items"]
            for key, _, pile in self.items(f):
                if key == action:
                    for c in (pile[3] if pile else (key,)):
                        self.features[o + c] = 1
                    break
            return
        self._resolve_items()

    def _resolve_items(self) -> None:
        f, p = self.m_field, self.current_player
        chosen = set(self.m_items)
        taken: list[int] = []
        piles_taken: list[Pile] = []
        for c in list(self.loose[f]):
            if c in chosen:
                taken.append(c)
        for pile in self.piles[f]:
            if pile[0] in chosen:
                piles_taken.append(pile)
        for c in taken:
            self._remove_loose(f, c)
        for pile in piles_taken:
            self._remove_pile(f, pile)
            taken.extend(pile[3])
        c = self.m_card
        if self.m_action == HARVEST:
            if self.m_full:
                played = tuple(self.m_full)
            else:
                played = (c,) if self.m_partner < 0 else (c, self.m_partner)
            for card in played:
                self._from_hand(card)
                self._add_harvest(p, card, False)
            for card in taken:
                self._add_harvest(p, card, False)
            self.last_play = (p, "harvest", f, played, tuple(sorted(taken)), 0)
            if not self.loose[f] and not self.piles[f]:
                self.cleared = f
            self._main_played(played, f)
        else:
            _, codes, index, active, _ = self._items_context()
            # single: the active card and the items form one group of the value; otherwise
            # several groups of it, or a multiple stockpile taken in
            together = [codes[index[k]] for k in self.m_items] + [active]
            single = not any(pile[2] for pile in piles_taken) and self.m_value in one_group_totals(together)
            self._from_hand(c)
            cards = tuple(sorted(taken + [c]))
            self._add_pile(f, (cards[0], self.m_value, not single, cards))
            self.last_play = (p, "stockpile", f, (c,), tuple(sorted(taken)), self.m_value)
            self._main_played((c,), f)

    def _main_played(self, played: tuple[int, ...], f: int) -> None:
        self.main_done = True
        self.features[self.game.off["turn"]] = 1
        if self._rotate(f, played):
            return
        self._after_part()

    def _rotate(self, f: int, played: tuple[int, ...]) -> bool:
        """Rotate for the last face card played into f; True when the player picks the season."""
        faces = [c for c in played if FACE[c]]
        if not faces or self.face_up_field(FOREST_QUEEN) >= 0:
            return False
        if self.m_full:
            # a full harvest plays its cards at once: the player orders its face cards (the last
            # one sticks), i.e. chooses among their seasons (any season for a Stars face card)
            seasons = face_seasons(faces)
            if seasons & (seasons - 1):
                full = self.m_full
                self._clear_move()
                self.m_full = full
                o = self.game.off["move_cards"]
                for c in full:
                    self.features[o + c] = 1
                self.m_field = f
                self.features[self.game.off["move_field"] + f] = 1
                self._set_decision(SEASON)
                return True
            self._set_season(f, seasons.bit_length() - 1)
            return False
        last = faces[-1]  # with two face cards (Union) the last rotation is the one that sticks
        if SUIT[last] == STARS:
            self._clear_move()
            self.m_field = f
            self.features[self.game.off["move_field"] + f] = 1
            self._set_decision(SEASON)
            return True
        self._set_season(f, SUIT[last])
        return False

    def _set_season(self, f: int, season: int) -> None:
        self._set_summer(summer_for(f, season))

    def _rake_sow(self, c: int) -> None:
        f = self.face_up_field(RAKE)
        if len(self.hands[self.current_player]) == 1 and not self.main_done:
            self.main_done = True  # the last card: the Rake sow is the play
            self.features[self.game.off["turn"]] = 1
        self.rake_owed = False
        self.features[self.game.off["turn"] + 1] = 0
        self.last_play = (self.current_player, "rake_sow", f, (c,), (), 0)
        self._from_hand(c)
        self._add_loose(f, c)
        if self._rotate(f, (c,)):
            return
        self._after_part()

    def _swap(self, x: int) -> None:
        g = self.face_up_field(CHANGELING)
        c, p = self.m_card, self.current_player
        self.swap_used = True
        self.features[self.game.off["turn"] + 2] = 1
        self._remove_loose(g, x)
        self._from_hand(c)
        self._add_loose(g, c)
        self._to_hand(p, x, public=True)
        self.last_play = (p, "swap", g, (c,), (x,), 0)
        self._after_part()

    def _after_part(self) -> None:
        """A part of the turn is done: offer the rest, or end the turn."""
        self._clear_move()
        if self.main_done and not self.rake_owed and not self._swap_available():
            self._end_turn()
        else:
            self._set_decision(TURN)

    # end of turn: draw, clearing, next turn
    def _end_turn(self) -> None:
        p = self.current_player
        hand = self.hands[p]
        while len(hand) < HAND_SIZE and self.deck:
            self._to_hand(p, self._draw(), public=False)
        if self.cleared >= 0:
            self._start_clearing()
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        n = self.game.num_players
        for k in range(1, n + 1):
            q = (self.current_player + k) % n
            if self.hands[q]:
                self._start_turn(q)
                return
        self._end_round()

    def _start_turn(self, q: int) -> None:
        f, o = self.features, self.game.off
        f[o["to_move"] + self.current_player] = 0
        self.current_player = q
        f[o["to_move"] + q] = 1
        self.main_done = self.swap_used = False
        self.rake_owed = self.face_up_field(RAKE) >= 0
        self.cleared = -1
        self.okus_taken = False
        self.c_given, self.c_taken = [], []
        t = o["turn"]
        f[t], f[t + 1], f[t + 2] = 0, 1 if self.rake_owed else 0, 0
        self._clear_move()
        f[o["move_items"]:o["move_items"] + NUM_CARDS] = 0
        self._set_decision(TURN)

    def _draw(self) -> int:
        c = self.deck.pop()
        o = self.game.off
        self.features[o["deck"] + c] = 0
        self.features[o["deck_size"]] = len(self.deck) / NUM_CARDS
        return c

    def _deal_loose(self, f: int, k: int) -> None:
        for _ in range(k):
            c = self._draw()
            self._add_loose(f, c)
            for q in range(self.game.num_players):
                self.features[self.game.off["unseen"] + q * NUM_CARDS + c] = 0

    # ----- card movements (with their feature updates) ------------------------------------
    def _to_hand(self, p: int, c: int, public: bool) -> None:
        f, o = self.features, self.game.off
        insort(self.hands[p], c)
        f[o["hands"] + p * NUM_CARDS + c] = 1
        f[o["hand_sizes"] + p] = len(self.hands[p]) / HAND_SIZE
        if public:  # taken from the board: everybody saw it (kept in card order, as a snapshot lists them)
            insort(self.known[p], c)
            f[o["known"] + p * NUM_CARDS + c] = 1
        else:  # from the draw pile: unseen by everybody but p
            f[o["unseen"] + p * NUM_CARDS + c] = 0

    def _from_hand(self, c: int) -> None:
        """c leaves the current player's hand face up."""
        p = self.current_player
        g, f, o = self.game, self.features, self.game.off
        self.hands[p].remove(c)
        f[o["hands"] + p * NUM_CARDS + c] = 0
        f[o["hand_sizes"] + p] = len(self.hands[p]) / HAND_SIZE
        if c in self.known[p]:
            self.known[p].remove(c)
            f[o["known"] + p * NUM_CARDS + c] = 0
        else:
            for q in g.others[p]:
                f[o["unseen"] + q * NUM_CARDS + c] = 0

    def _add_loose(self, fld: int, c: int) -> None:
        insort(self.loose[fld], c)
        self.features[self.game.off["loose"] + fld * NUM_CARDS + c] = 1
        self._sums[fld] = None

    def _remove_loose(self, fld: int, c: int) -> None:
        self.loose[fld].remove(c)
        self.features[self.game.off["loose"] + fld * NUM_CARDS + c] = 0
        self._sums[fld] = None

    def _add_pile(self, fld: int, pile: Pile) -> None:
        piles = self.piles[fld]
        piles.append(pile)
        piles.sort()
        self._pile_features(fld, pile, True)
        self._sums[fld] = None

    def _remove_pile(self, fld: int, pile: Pile) -> None:
        self.piles[fld].remove(pile)
        self._pile_features(fld, pile, False)
        self._sums[fld] = None

    def _pile_features(self, fld: int, pile: Pile, on: bool) -> None:
        f, o = self.features, self.game.off
        base = fld * NUM_CARDS
        value = pile[1] / MAX_STOCKPILE if on else 0.0
        for c in pile[3]:
            f[o["stockpiled"] + base + c] = value
        f[o["multiple_key" if pile[2] else "single_key"] + base + pile[0]] = 1.0 if on else 0.0

    def _add_harvest(self, p: int, c: int, secret: bool) -> None:
        self.harvest[p].append(c)
        f, o = self.features, self.game.off
        f[o["harvest"] + p * NUM_CARDS + c] = 1
        if secret:
            self.secret[p].append(c)
            f[o["secret"] + p * NUM_CARDS + c] = 1
            f[o["unseen"] + p * NUM_CARDS + c] = 0  # the claimer looks at them
        self._count_harvest(p, c, 1, secret)

    def _remove_harvest(self, q: int, c: int) -> None:
        """c leaves q's harvest pile face up (the Rake's claim)."""
        self.harvest[q].remove(c)
        f, o = self.features, self.game.off
        f[o["harvest"] + q * NUM_CARDS + c] = 0
        secret = c in self.secret[q]
        if secret:
            self.secret[q].remove(c)
            f[o["secret"] + q * NUM_CARDS + c] = 0
            for r in range(self.game.num_players):
                f[o["unseen"] + r * NUM_CARDS + c] = 0
        self._count_harvest(q, c, -1, secret)

    def _count_harvest(self, p: int, c: int, sign: int, secret: bool) -> None:
        f, o = self.features, self.game.off
        full, public = o["harvested"] + 4 * p, o["harvested_public"] + 4 * p
        f[full] = f[public] = len(self.harvest[p]) / NUM_CARDS
        counts = self.hcounts[p]  # Summer, Winter, Fools: all, then public only
        for k, hit, scale in ((0, SUIT[c] == SUMMER, 13), (1, SUIT[c] == WINTER, 13), (2, IS_FOOL[c], 5)):
            if hit:
                counts[k] += sign
                f[full + 1 + k] = counts[k] / scale
                if not secret:
                    counts[3 + k] += sign
                    f[public + 1 + k] = counts[3 + k] / scale

    def _set_luminary(self, fld: int, lum: int, up: bool) -> None:
        f, o = self.features, self.game.off
        old, old_up = self.lum[fld], self.lum_up[fld]
        if old != NO_LUMINARY:
            f[o["luminary_up" if old_up else "luminary_hidden"] + fld * NUM_LUMINARIES + old] = 0
        self.lum[fld], self.lum_up[fld] = lum, up
        if lum != NO_LUMINARY:
            f[o["luminary_up" if up else "luminary_hidden"] + fld * NUM_LUMINARIES + lum] = 1
        f[o["luminary_down"] + fld] = 1 if lum != NO_LUMINARY and not up else 0

    def _set_summer(self, summer: int) -> None:
        self.summer = summer
        o = self.game.off["seasons"]
        f = self.features
        f[o:o + 16] = 0
        for fld in range(NUM_FIELDS):
            f[o + 4 * fld + RING[(fld - summer) % 4]] = 1

    # ----- pending-move bookkeeping -------------------------------------------------------
    def _set_decision(self, d: int) -> None:
        o = self.game.off["decision"]
        f = self.features
        if self.decision < NUM_DECISIONS:
            f[o + self.decision] = 0
        self.decision = d
        if d < NUM_DECISIONS:
            f[o + d] = 1

    def _set_move_card(self, c: int) -> None:
        self.m_card = c
        self.features[self.game.off["move_cards"] + c] = 1

    def _clear_move_fields(self) -> None:
        self.m_card = self.m_field = self.m_action = self.m_partner = -1
        self.m_value = 0
        self.m_items = []
        self.m_full = []
        self._ctx = None

    def _clear_move(self) -> None:
        """Forget the finished part of the move (and its features)."""
        f, o = self.features, self.game.off
        for c in (self.m_card, self.m_partner):
            if c >= 0:
                f[o["move_cards"] + c] = 0
        if self.m_field >= 0:
            f[o["move_field"] + self.m_field] = 0
        if self.m_action >= 0:
            f[o["move_action"] + self.m_action - SOW] = 0
        f[o["move_value"]] = 0
        if self.m_items:
            f[o["move_items"]:o["move_items"] + NUM_CARDS] = 0
        if self.m_full:
            for c in self.m_full:
                f[o["move_cards"] + c] = 0
        self._clear_move_fields()

    # ----- copies, snapshots, determinization --------------------------------------------
    def clone(self) -> "IllimatState":
        c = IllimatState.__new__(IllimatState)
        c.__dict__.update(self.__dict__)
        c.match_scores = self.match_scores[:]
        c.deck = self.deck[:]
        c.hands = [h[:] for h in self.hands]
        c.known = [h[:] for h in self.known]
        c.loose = [x[:] for x in self.loose]
        c.piles = [x[:] for x in self.piles]
        c.lum, c.lum_up = self.lum[:], self.lum_up[:]
        c.under = [x[:] for x in self.under]
        c.unused = self.unused[:]
        c.discarded_down, c.discarded_up = self.discarded_down[:], self.discarded_up[:]
        c.okus = self.okus[:]
        c.claimed = [x[:] for x in self.claimed]
        c.harvest = [x[:] for x in self.harvest]
        c.secret = [x[:] for x in self.secret]
        c.hcounts = [x[:] for x in self.hcounts]
        c.m_items = self.m_items[:]
        c.m_full = self.m_full[:]
        c.c_given, c.c_taken = self.c_given[:], self.c_taken[:]
        c.features = self.features.copy()
        c._sums = self._sums[:]
        return c

    def determinize(self, player: int, rng: np.random.Generator) -> "IllimatState":
        """Resample what `player` cannot see: the draw pile, the other hands (but for the cards
        they took from the board in view of all), the cards under the Children, the other seats'
        secret harvested cards, the face-down and unused Luminaries, and the seed of later rounds.

        While the seat to move is inside a move that rests on its hand (a card chosen to play or
        give, and what the rest of the move may need: a passive card, a Union partner; a full
        harvest's whole hand), its hand is kept: the move so far is public, and nobody else
        decides before it ends.

        The implicit announcement of a stockpile's passive card (a card of that value was in the
        stockpiler's hand) is not used: like any inference from another player's choices."""
        copy = self.clone()
        others = [q for q in self.game.others[player]
                  if not (q == self.current_player and self.decision in MID_MOVE)]
        pool = self.deck[:] + [c for cards in self.under for c in cards]
        for q in others:
            known = set(self.known[q])
            pool += [c for c in self.hands[q] if c not in known]
            pool += self.secret[q]
        # Sorted first: the copy must not depend on the real order of the hidden cards, which
        # a caller holding the rng could otherwise recover from the permutation.
        pool = sorted(pool)
        pool = [pool[i] for i in rng.permutation(len(pool))]
        copy.deck, pool = pool[:len(self.deck)], pool[len(self.deck):]
        for fld in range(NUM_FIELDS):
            k = len(self.under[fld])
            copy.under[fld], pool = pool[:k], pool[k:]
        for q in others:
            known = set(self.known[q])
            k = len(self.hands[q]) - len(known)
            copy.hands[q], pool = sorted(self.known[q] + pool[:k]), pool[k:]
            k = len(self.secret[q])
            new_secret, pool = pool[:k], pool[k:]
            old = set(self.secret[q])
            copy.harvest[q] = [c for c in self.harvest[q] if c not in old] + new_secret
            copy.secret[q] = new_secret
        lums = [L for fld, L in enumerate(self.lum) if L != NO_LUMINARY and not self.lum_up[fld]]
        lums += self.unused + self.discarded_down
        lums = sorted(lums)
        lums = [lums[i] for i in rng.permutation(len(lums))]
        for fld in range(NUM_FIELDS):
            if self.lum[fld] != NO_LUMINARY and not self.lum_up[fld]:
                copy.lum[fld] = lums.pop()
        k = len(self.unused)
        copy.unused, copy.discarded_down = lums[:k], lums[k:]
        copy.chance_seed = int(rng.integers(2**63))
        copy._legal = None
        copy._rebuild_features()
        return copy

    def __repr__(self) -> str:
        return f"IllimatState({self.to_json()})"
