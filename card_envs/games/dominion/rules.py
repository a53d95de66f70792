"""Dominion state: zones, turn structure (Action, Buy, Clean-up) and the task loop.

Cards are ints (cards.py). Per player: ``hands`` are count lists, ``decks`` lists with the top at
the end, ``deck_known`` a parallel list (0 unknown, 1 known to the owner, 2 known to all),
``discards`` lists with the top at the end, ``in_play`` and ``set_aside`` lists, ``known`` the
counts of hand cards every seat knows (revealed and still there). Supply piles are lists with the
top at the end. Pending work is a stack of tasks (effects.py); the top ``ask`` is the decision of
``current_player``, who may be any seat.
"""

from __future__ import annotations

import hashlib
from operator import mul

import numpy as np

from card_envs.core.game import Game, IllegalActionError, State, named_actions
from card_envs.core.rewards import rank_returns
from card_envs.games.dominion import decisions, effects as fx
from card_envs.games.dominion.cards import (
    ACTION_CARDS, ALLIES, BAND_OF_NOMADS, BANE_CANDIDATES, CARD_NAMES, CASTLE_CARDS, CAVE_DWELLERS, CONJURER,
    COPPER, COST, DEBT, ESTATE, FORTUNE, GARRISON, HUMBLE_CASTLE, IS_ATTACK, KINGDOM_PILES,
    KINGS_CASTLE, LEAGUE_OF_BANKERS, MOUNTAIN_FOLK, NUM_CARDS, PEACEFUL_CULT, PILE_CARDS, PILE_OF,
    PLUS_ACTIONS, PLUS_BUYS, PLUS_CARDS, PLUS_COINS, PLUS_VP, PROVINCE_PILE, STRONGHOLD, TENT, TERRITORY,
    TREASURE_CARDS, VICTORY_CARDS, VOYAGE, VP, WARLORD, WIZARDS_PILE, YOUNG_WITCH, pile_setup)
from card_envs.games.dominion.effects import CARD0, DONE, PILE0, PLAY_ALL

ACTION_PHASE, TREASURE_PHASE, BUY_PHASE, OVER = 0, 1, 2, 3
PHASE_NAMES = ("action", "treasure", "buy", "over")
# Play-all order: every other Treasure first, Fortune last (it doubles the $ made so far).
TREASURE_ORDER = tuple(c for c in TREASURE_CARDS if c != FORTUNE) + (FORTUNE,)
SPECIAL = {CARD_NAMES.index(k): f for k, f in fx.SPECIAL.items()}
ON_GAIN = {CARD_NAMES.index(k): f for k, f in fx.ON_GAIN.items()}
ON_TRASH = {CARD_NAMES.index(k): f for k, f in fx.ON_TRASH.items()}
YOUNG_WITCH_PILE = PILE_OF[YOUNG_WITCH]
FIXED_VP = tuple(v or 0 for v in VP)  # Humble and King's Castle count by a rule


class DominionState(State):
    def __init__(self, game):
        self.game = game
        self.n = n = game.num_players
        self.treasure_order = TREASURE_ORDER
        self.kingdom: list[int] = []
        self.bane = -1
        self.supply: list[int] = []  # pile ids in this game, basic piles first
        self.piles: list[list[int]] = [[] for _ in range(len(PILE_CARDS))]
        self.trash = [0] * NUM_CARDS
        self.hands = [[0] * NUM_CARDS for _ in range(n)]
        self.hsize = [0] * n
        self.known = [[0] * NUM_CARDS for _ in range(n)]
        self.decks: list[list[int]] = [[] for _ in range(n)]
        self.deck_known: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.in_play: list[list[int]] = [[] for _ in range(n)]
        self.set_aside: list[list[int]] = [[] for _ in range(n)]
        self.owned = [[0] * NUM_CARDS for _ in range(n)]
        self.vp = [0] * n
        self.debt = [0] * n
        self.turns = [0] * n
        self.turn_player = 0
        self.current_player = 0
        self.phase = ACTION_PHASE
        self.coins, self.actions, self.buys, self.saunas = 0, 1, 1, 0
        self.fortune_used = False
        self.immune = [False] * n
        # Allies (tier 3): the Ally (-1: none), Favors, Duration effects waiting for each seat's
        # next turn ([card, x] with x = Garrison's tokens or Warlord's Moat-immune seats as a
        # bitmask), turns to skip (Lich), the seat that took the previous turn (-1: none yet),
        # whether this is a Voyage extra turn and how many cards it may still play from hand.
        self.ally = -1
        self.favors = [0] * n
        self.durations: list[list[list[int]]] = [[] for _ in range(n)]
        self.skips = [0] * n
        self.prev_turn = -1
        self.extra_turn = False
        self.plays_left = -1
        self.elder_card = -1  # transient: the card Elder is playing (never set between decisions)
        self.tasks: list[dict] = []
        self.seed, self.shuffles = 0, 0
        self._trig: list[dict] = []
        self._legal: list[int] | None = None
        # The observation's cached blocks (encode.py): the Supply and trash block, cleared whenever
        # a pile or the trash changes; per seat its owned counts and card VP, cleared when they do.
        self._supply_obs = None
        self._owned_obs: list = [None] * self.n

    # ----- setup ---------------------------------------------------------------------------
    def setup(self, kingdom: list[int], bane: int, seed: int, ally: int = -1) -> None:
        n = self.n
        self.kingdom, self.bane, self.seed = list(kingdom), bane, seed
        self.ally = ally
        if ally >= 0:
            self.favors = [1] * n
        self.supply = list(range(7)) + sorted(set(self.kingdom) | ({bane} if bane >= 0 else set()))
        for p in self.supply:
            self.piles[p] = pile_setup(p, n)[::-1]
        for p in range(n):
            self.discards[p] = [COPPER] * 7 + [ESTATE] * 3
            self.owned[p][COPPER], self.owned[p][ESTATE] = 7, 3
            self.draw(p, 5)
        self._start_turn(0)
        self._run()

    def bane_cards(self) -> tuple[int, ...]:
        """Every card of the Bane pile counts as a Bane (split-pile rule 6)."""
        return PILE_CARDS[self.bane] if self.bane >= 0 else ()

    # ----- the Game/State contract ------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(fx.NUM_ACTIONS, dtype=np.int8)
        if self._legal is None:
            self._legal = self._compute_legal()
        mask[self._legal] = 1
        return mask

    def scores(self) -> list[int]:
        return [self.score(p) for p in range(self.n)]

    def score(self, p: int) -> int:
        owned = self.owned[p]
        total = self.vp[p] + sum(map(mul, owned, FIXED_VP))
        if owned[HUMBLE_CASTLE] or owned[KINGS_CASTLE]:  # 1 / 2 VP per Castle you own
            castles = sum(owned[c] for c in CASTLE_CARDS)
            total += castles * (owned[HUMBLE_CASTLE] + 2 * owned[KINGS_CASTLE])
        if owned[TERRITORY]:  # 1 VP per differently named Victory card you have
            total += owned[TERRITORY] * sum(1 for c in VICTORY_CARDS if owned[c])
        return total

    def game_cards(self) -> list[int]:
        """Every card name in this game (the Supply's piles): what Sorceress and Sorcerer may name."""
        return sorted({c for q in self.supply for c in PILE_CARDS[q]})

    def warlord_locked(self, q: int) -> set[int]:
        """Action cards seat q may not play from hand: 2+ copies in play while another seat's
        Warlord (not blocked by q's Moat) waits for its owner's next turn."""
        for p in range(self.n):
            if p != q:
                for card, x in self.durations[p]:
                    if card == WARLORD and not (x >> q) & 1:
                        play = self.in_play[q]
                        return {c for c in set(play) if play.count(c) >= 2}
        return set()

    def playable_actions(self, p: int) -> list[int]:
        """Action cards p may play from hand now (the Voyage limit and Warlord's lock applied)."""
        if self.plays_left == 0:
            return []
        hand = self.hands[p]
        out = [c for c in ACTION_CARDS if hand[c]]
        if out and any(self.durations):
            locked = self.warlord_locked(p)
            if locked:
                out = [c for c in out if c not in locked]
        return out

    def returns(self) -> np.ndarray:
        if self.phase != OVER:
            return np.zeros(self.n)
        s = self.scores()
        if self.game.reward == "score":
            arr = np.asarray(s, dtype=np.float64)
            d = arr - (arr.sum() - arr) / (self.n - 1)
            return d / max(100.0, float(np.abs(d).max()))
        # Ties go to the player with the fewest turns; still tied, they share the rank.
        return rank_returns([s[p] * 10_000 - self.turns[p] for p in range(self.n)])

    def observation(self, player: int) -> np.ndarray:
        return self.game.encoder.observation(self, player)

    def state_tensor(self) -> np.ndarray:
        return self.game.encoder.state_tensor(self)

    def clone(self) -> "DominionState":
        c = DominionState.__new__(DominionState)
        c.__dict__.update(self.__dict__)
        c.kingdom, c.supply = self.kingdom, self.supply  # never mutated after setup
        c.piles = [list(x) for x in self.piles]
        c.trash = list(self.trash)
        c.hands = [list(x) for x in self.hands]
        c.hsize = list(self.hsize)
        c.known = [list(x) for x in self.known]
        c.decks = [list(x) for x in self.decks]
        c.deck_known = [list(x) for x in self.deck_known]
        c.discards = [list(x) for x in self.discards]
        c.in_play = [list(x) for x in self.in_play]
        c.set_aside = [list(x) for x in self.set_aside]
        c.owned = [list(x) for x in self.owned]
        c.vp, c.debt, c.turns, c.immune = list(self.vp), list(self.debt), list(self.turns), list(self.immune)
        c.favors, c.skips = list(self.favors), list(self.skips)
        c.durations = [[list(e) for e in d] for d in self.durations]
        c.tasks = [dict(t) for t in self.tasks]
        c._owned_obs = list(self._owned_obs)
        c._trig = []
        c._legal = None
        return c

    def determinize(self, player: int, rng: np.random.Generator) -> "DominionState":
        """Everything `player` cannot see, resampled from sorted pools: the other players' hands
        (but their revealed cards), decks (but cards known to all) and discards (but the top), his
        own deck order (but known cards), and the seed of every later shuffle."""
        c = self.clone()
        c.seed = int(rng.integers(2**62))
        for q in range(self.n):
            deck, flags = c.decks[q], c.deck_known[q]
            if q == player:
                slots = [i for i, f in enumerate(flags) if f == 0]
                pool = sorted(deck[i] for i in slots)
                hand_free, disc_free = 0, 0
            else:
                slots = [i for i, f in enumerate(flags) if f < 2]
                hand_free = c.hsize[q] - sum(c.known[q])
                disc_free = max(0, len(c.discards[q]) - 1)
                pool = sorted([deck[i] for i in slots] + c.discards[q][:disc_free]
                              + [x for x in range(NUM_CARDS) for _ in range(c.hands[q][x] - c.known[q][x])])
            if not pool:
                continue
            pool = [pool[i] for i in rng.permutation(len(pool))]
            for i in slots:
                deck[i] = pool.pop()
            if q != player:
                c.discards[q][:disc_free] = [pool.pop() for _ in range(disc_free)]
                hand = list(c.known[q])
                for _ in range(hand_free):
                    hand[pool.pop()] += 1
                c.hands[q] = hand
        return c

    # ----- legal actions ---------------------------------------------------------------------
    def _compute_legal(self) -> list[int]:
        if self.phase == OVER:
            return []
        if self.tasks:
            t = self.tasks[-1]
            return decisions.ANSWERS[t["kind"]](self, t)
        hand = self.hands[self.turn_player]
        # Both phase steps always have two answers or more (``play all treasures`` ends the Action
        # phase too): with auto_forced, a single answer would be skipped and so reveal the hand.
        if self.phase == ACTION_PHASE:
            if self.actions <= 0:
                return [DONE, PLAY_ALL]
            return [DONE, PLAY_ALL] + [CARD0 + c for c in self.playable_actions(self.turn_player)]
        if self.phase == TREASURE_PHASE:
            out = [CARD0 + c for c in TREASURE_CARDS if hand[c]] if self.plays_left != 0 else []
            return [DONE, PLAY_ALL] + out
        return [DONE] + self._buyable()

    def _buyable(self) -> list[int]:
        if self.buys <= 0 or self.debt[self.turn_player]:
            return []
        coins, piles = self.coins, self.piles
        return [PILE0 + p for p in self.supply if piles[p] and COST[piles[p][-1]] <= coins]

    # ----- apply -----------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        action = self.game.check_action(action)
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(f"action {named_actions([action], self.game.action_to_string)} is illegal; "
                                     f"legal: {named_actions(legal, self.game.action_to_string)}")
        self._legal = None
        if self.tasks:
            t = self.tasks.pop()
            mark = len(self.tasks)
            if decisions.answer(self, t, action):
                self.tasks.insert(mark, t)
                if self._trig:  # a trigger during a multi-card pick waits until the pick ends
                    self.tasks[mark:mark] = self._trig[::-1]
                    self._trig = []
        else:
            self._phase_answer(action)
        self._run()

    def _phase_answer(self, action: int) -> None:
        p = self.turn_player
        if self.phase == ACTION_PHASE:
            if action == DONE:
                self._enter_treasure()
            elif action == PLAY_ALL:
                self.push(fx.task("play_all", p))
                self._enter_treasure()
            else:
                self.actions -= 1
                self.play_from_hand(p, action - CARD0)
        elif self.phase == TREASURE_PHASE:
            if action == DONE:
                self._enter_buy()
            elif action == PLAY_ALL:
                self.push(fx.task("play_all", p))
            else:
                self.play_from_hand(p, action - CARD0)
        elif action == DONE:
            self._begin_cleanup()
        else:
            self._buy(action - PILE0)

    def _run(self) -> None:
        """Resolve tasks until a decision with a legal answer is pending, or the game ends."""
        tasks = self.tasks
        while True:
            if self._trig:
                tasks.extend(reversed(self._trig))
                self._trig = []
            if self.phase == OVER:
                return
            if tasks:
                t = tasks[-1]
                if t["op"] == "ask":
                    if decisions.ANSWERS[t["kind"]](self, t):
                        self.current_player = t["p"]
                        return
                    tasks.pop()  # nothing to choose: the decision lapses
                    if t["kind"] in fx.PICK_KINDS:
                        decisions.finish_pick(self, t)
                    continue
                tasks.pop()
                OPS[t["op"]](self, t)
                continue
            # The phase decisions are asked even with DONE alone (skipping would reveal a hand).
            self.current_player = self.turn_player
            return

    # ----- turn structure --------------------------------------------------------------------
    def _enter_treasure(self) -> None:
        """The Buy phase starts (its first step plays Treasures): League of Bankers, Peaceful Cult."""
        self.phase = TREASURE_PHASE
        p = self.turn_player
        if self.ally == LEAGUE_OF_BANKERS:
            self.coins += self.favors[p] // 4
        elif self.ally == PEACEFUL_CULT and self.favors[p]:
            self.push(fx.ask("peaceful_cult", p, -1, 0, self.favors[p]))

    def _begin_cleanup(self) -> None:
        """Clean-up: Tents discarded from play may go onto the deck first, then `_end_turn`."""
        p = self.turn_player
        self.push(fx.task("cleanup", p))
        tents = self.in_play[p].count(TENT)
        if tents:
            self.push(fx.ask("tent", p, TENT, 0, tents))

    def _start_turn(self, p: int) -> None:
        """Start of p's turn: Duration effects (in the order played), then the Ally's."""
        entries, self.durations[p] = self.durations[p], []
        for card, x in entries:
            if card == WARLORD:
                self.draw(p, 2)
            elif card == GARRISON:
                self.draw(p, x)
            elif card == STRONGHOLD:
                self.draw(p, 3)
            elif card == CONJURER:
                play = self.in_play[p]
                if CONJURER in play:
                    del play[len(play) - 1 - play[::-1].index(CONJURER)]
                    self._to_hand(p, CONJURER, True)
            elif card == VOYAGE:
                self.plays_left = 3
        if self.ally == MOUNTAIN_FOLK and self.favors[p] >= 5:
            self.push(fx.ask("mountain_folk", p))
        elif self.ally == CAVE_DWELLERS and self.favors[p] and self.hsize[p]:
            self.push(fx.ask("cave_dwellers", p, -1, 0, self.favors[p]))

    def _enter_buy(self) -> None:
        self.phase = BUY_PHASE
        self._pay_debt()

    def _pay_debt(self) -> None:
        """Debt is repaid automatically, as much as possible, whenever the Buy phase has $ (resolution)."""
        p = self.turn_player
        pay = min(self.coins, self.debt[p])
        self.coins -= pay
        self.debt[p] -= pay

    def _buy(self, pile: int) -> None:
        p = self.turn_player
        card = self.piles[pile][-1]
        self.coins -= COST[card]
        self.debt[p] += DEBT[card]
        self.buys -= 1
        self.gain(p, pile)
        self._pay_debt()

    def _end_turn(self) -> None:
        p = self.turn_player
        for c in self.set_aside[p]:  # Encampment: back on top of its pile when Clean-up starts
            self.piles[PILE_OF[c]].append(c)
            self._supply_obs = self._owned_obs[p] = None
            self.owned[p][c] -= 1
        self.set_aside[p] = []
        hand, discard = self.hands[p], self.discards[p]
        for c in range(NUM_CARDS):
            if hand[c]:
                discard.extend([c] * hand[c])
                hand[c] = 0
        # Duration cards with effects still to come stay in play (a Garrison without tokens goes).
        entries = [e for e in self.durations[p] if e[0] != GARRISON or e[1] > 0]
        self.durations[p] = entries
        stay: list[int] = []
        if entries:
            keep = [e[0] for e in entries]
            for c in self.in_play[p]:
                if c in keep:
                    keep.remove(c)
                    stay.append(c)
                else:
                    discard.append(c)
        else:
            discard.extend(self.in_play[p])  # played cards on top: the visible top was seen by all
        self.in_play[p] = stay
        self.hsize[p] = 0
        self.known[p] = [0] * NUM_CARDS
        self.draw(p, 5)
        if not self.extra_turn:  # extra turns do not count for the tie-break
            self.turns[p] += 1
        self.coins, self.actions, self.buys, self.saunas, self.fortune_used = 0, 1, 1, 0, False
        self.plays_left, self.extra_turn = -1, False
        self.immune = [False] * self.n
        self.prev_turn = p
        if self.game_should_end(p):
            self.phase = OVER
            return
        voyage = any(e[0] == VOYAGE for e in entries)
        q = p if voyage else (p + 1) % self.n
        while self.skips[q]:  # Lich: the skipped turn has no phases but counts as a turn taken
            self.skips[q] -= 1
            if q == p and voyage:  # the skipped turn is the Voyage extra turn: it is lost
                self._drop_voyage(p)
                voyage = False
            else:
                self.turns[q] += 1
                if min(self.turns) >= self.game.max_turns:
                    self.turn_player = q
                    self.phase = OVER
                    return
            q = (q + 1) % self.n
        self.turn_player = q
        self.extra_turn = voyage and q == p
        self.current_player = q
        self.phase = ACTION_PHASE
        self._start_turn(q)

    def _drop_voyage(self, p: int) -> None:
        self.durations[p] = [e for e in self.durations[p] if e[0] != VOYAGE]
        play = self.in_play[p]
        if VOYAGE in play:
            play.remove(VOYAGE)
            self.discards[p].append(VOYAGE)

    def empty_piles(self) -> int:
        return sum(1 for p in self.supply if not self.piles[p])

    def game_should_end(self, p: int) -> bool:
        if not self.piles[PROVINCE_PILE] or self.empty_piles() >= 3:
            return True
        return min(self.turns) >= self.game.max_turns  # the max_turns cap

    # ----- zone primitives (used by effects) ---------------------------------------------------
    def push(self, t: dict) -> None:
        self.tasks.append(t)

    def hand_size(self, p: int) -> int:
        return self.hsize[p]

    def _to_hand(self, p: int, c: int, public: bool) -> None:
        self.hands[p][c] += 1
        self.hsize[p] += 1
        if public:
            self.known[p][c] += 1

    def _from_hand(self, p: int, c: int, public: bool = True) -> None:
        self.hands[p][c] -= 1
        self.hsize[p] -= 1
        if public:  # seen leaving: one fewer known copy (it may have been the known one)
            if self.known[p][c]:
                self.known[p][c] -= 1
        else:  # left unseen: the others no longer know which revealed cards remain
            self.known[p] = [0] * NUM_CARDS

    def _shuffle(self, p: int) -> None:
        cards = sorted(self.discards[p])  # sorted: the new order depends only on the multiset
        perm = np.random.default_rng([self.seed, self.shuffles]).permutation(len(cards))
        self.shuffles += 1
        self.decks[p] = [cards[i] for i in perm] + self.decks[p]
        self.deck_known[p] = [0] * len(cards) + self.deck_known[p]
        self.discards[p] = []

    def draw(self, p: int, k: int) -> None:
        hand, known = self.hands[p], self.known[p]
        for _ in range(k):
            if not self.decks[p]:
                if not self.discards[p]:
                    break
                self._shuffle(p)
            c = self.decks[p].pop()
            if self.deck_known[p].pop() == 2:
                known[c] += 1
            hand[c] += 1
            self.hsize[p] += 1

    def reveal_top(self, p: int) -> int:
        if not self.decks[p] and self.discards[p]:
            self._shuffle(p)
        if not self.decks[p]:
            return -1
        self.deck_known[p][-1] = 2
        return self.decks[p][-1]

    def top_to_hand(self, p: int) -> None:
        c = self.decks[p].pop()
        self.deck_known[p].pop()
        self._to_hand(p, c, True)

    def reveal_in_hand(self, p: int, c: int) -> None:
        if self.known[p][c] < 1:
            self.known[p][c] = 1

    def reveal_hand(self, p: int) -> None:
        self.known[p] = list(self.hands[p])

    def hand_to_deck(self, p: int, c: int) -> None:
        self._from_hand(p, c, public=False)
        self.decks[p].append(c)
        self.deck_known[p].append(1)

    def discard_from_hand(self, p: int, c: int) -> None:
        self._from_hand(p, c)
        self.discards[p].append(c)

    def discard_to_hand(self, p: int, c: int) -> None:
        self.discards[p].remove(c)  # the deepest copy: the visible top stays if it can
        self._to_hand(p, c, True)

    def trash_from_hand(self, p: int, c: int) -> None:
        self._from_hand(p, c)
        self._trashed(p, c)

    def trash_from_play(self, p: int, c: int) -> None:
        play = self.in_play[p]
        del play[len(play) - 1 - play[::-1].index(c)]
        self._trashed(p, c)

    def _trashed(self, p: int, c: int) -> None:
        self.trash[c] += 1
        self.owned[p][c] -= 1
        self._supply_obs = self._owned_obs[p] = None
        if c in ON_TRASH:
            self._trig.append(fx.task("on_trash", p, c))

    def trash_from_supply(self, pile: int) -> None:
        self.trash[self.piles[pile].pop()] += 1
        self._supply_obs = None

    def rotate_pile(self, pile: int) -> None:
        """Split-pile rule 7 (Allies, for tier 3): the top card and the copies directly under it
        go to the bottom. A one-name pile does not change."""
        cards = self.piles[pile]  # top at the end
        if not cards:
            return
        k = 1
        while k < len(cards) and cards[-1 - k] == cards[-1]:
            k += 1
        self.piles[pile] = cards[-k:] + cards[:-k]
        self._supply_obs = None

    def set_aside_from_play(self, p: int, c: int) -> None:
        play = self.in_play[p]
        if c in play:
            del play[len(play) - 1 - play[::-1].index(c)]
            self.set_aside[p].append(c)

    def gain(self, p: int, pile: int, dest: str = "discard") -> int:
        """Gain the top card of `pile` (rule 1: only the top); -1 when the pile is empty."""
        cards = self.piles[pile]
        if not cards:
            return -1
        c = cards.pop()
        self._gained(p, c, dest)
        return c

    def gain_from_trash(self, p: int, c: int) -> None:
        self.trash[c] -= 1
        self._gained(p, c, "discard")

    def _gained(self, p: int, c: int, dest: str) -> None:
        self._supply_obs = self._owned_obs[p] = None
        self.owned[p][c] += 1
        if p == self.turn_player and self.phase != OVER:
            if self.durations[p]:  # Garrison: a token per card gained this turn
                for e in self.durations[p]:
                    if e[0] == GARRISON:
                        e[1] += 1
            if self.ally == BAND_OF_NOMADS and self.favors[p] and COST[c] >= 3:
                self._trig.append(fx.ask("band_of_nomads", p, c))
        if dest == "discard":
            self.discards[p].append(c)
        elif dest == "hand":
            self._to_hand(p, c, True)
        else:  # onto the deck, in view of all
            self.decks[p].append(c)
            self.deck_known[p].append(2)
        if c in ON_GAIN:
            self._trig.append(fx.task("on_gain", p, c))

    def to_deck_bottom(self, p: int, c: int) -> None:
        self._from_hand(p, c, public=False)
        self.decks[p].insert(0, c)
        self.deck_known[p].insert(0, 1)

    def from_play_to_deck(self, p: int, c: int) -> None:
        """A card in play put onto the deck, in view of all (Tent, Student)."""
        play = self.in_play[p]
        del play[len(play) - 1 - play[::-1].index(c)]
        self.decks[p].append(c)
        self.deck_known[p].append(2)

    def fill_deck(self, p: int, k: int) -> int:
        """Shuffle the discard pile under the deck when it holds fewer than k cards (looking at
        the top k); returns how many cards can be looked at."""
        if len(self.decks[p]) < k and self.discards[p]:
            self._shuffle(p)
        return min(k, len(self.decks[p]))

    def play_from_hand(self, p: int, c: int) -> None:
        if self.plays_left > 0:  # a Voyage extra turn: at most 3 cards played from hand
            self.plays_left -= 1
        self._from_hand(p, c)
        self.in_play[p].append(c)
        if IS_ATTACK[c]:  # reactions come before any of the Attack's effects
            self.immune = [False] * self.n
            self.push(fx.task("resolve", p, c))
            for v in reversed(fx.others(self, p)):  # asked of all: being asked reveals no Moat
                self.push(fx.ask("moat", v, c))
        else:
            self.resolve(p, c)

    def resolve(self, p: int, c: int) -> None:
        if PLUS_CARDS[c]:
            self.draw(p, PLUS_CARDS[c])
        self.actions += PLUS_ACTIONS[c]
        self.buys += PLUS_BUYS[c]
        self.coins += PLUS_COINS[c]
        self.vp[p] += PLUS_VP[c]
        special = SPECIAL.get(c)
        if special is not None:
            special(self, p, c)


OPS = {
    "resolve": lambda s, t: s.resolve(t["p"], t["card"]),
    "on_gain": lambda s, t: ON_GAIN[t["card"]](s, t["p"], t["card"]),
    "on_trash": lambda s, t: ON_TRASH[t["card"]](s, t["p"], t["card"]),
    "play_all": fx.run_play_all,
    "yw_victim": fx.run_yw_victim,
    "cleanup": lambda s, t: s._end_turn(),
}


def held_out(kingdom: list[int]) -> bool:
    """Whether a kingdom (its 10 pile ids) is one of the tenth kept out of training (``"random_test"``;
    ``"random_train"`` never deals one): a hash of its piles, the same on every machine and version."""
    return int.from_bytes(hashlib.sha256(bytes(sorted(kingdom))).digest()[:8], "little") % 10 == 0


def in_split(kingdom: list[int], split: str | None) -> bool:
    """Whether a kingdom belongs to a split: "test" (`held_out`), "train" (the rest) or None (any)."""
    return split is None or held_out(kingdom) == (split == "test")


def draw_kingdom(rng: np.random.Generator, kingdom: list[int] | None, bane: int,
                 ally: int = -1, split: str | None = None) -> tuple[list[int], int, int]:
    """The kingdom (random: 10 of the implemented piles; with a `split`, "train" or "test", drawn
    again until it is in that split: `held_out`), the Bane when Young Witch is in it and the Ally
    when a Liaison (Student, in Wizards) is in the Supply (`ally` or drawn)."""
    while kingdom is None:
        kingdom = sorted(int(x) for x in rng.choice(KINGDOM_PILES, 10, replace=False))
        if not in_split(kingdom, split):
            kingdom = None
    if YOUNG_WITCH_PILE in kingdom and bane < 0:
        options = [p for p in BANE_CANDIDATES if p not in kingdom]
        bane = options[int(rng.integers(len(options)))]
    if YOUNG_WITCH_PILE not in kingdom:
        bane = -1
    if WIZARDS_PILE in kingdom or bane == WIZARDS_PILE:
        if ally < 0:
            ally = int(rng.integers(len(ALLIES)))
    else:
        ally = -1
    return list(kingdom), bane, ally


__all__ = ["DominionState", "draw_kingdom", "Game", "held_out"]
