"""Split the Hoard rules engine: the State with its phases. Pure Python + numpy.

Cards are ints 0..102 (`CardSet.NAME[c]` is the name index); every pile is a list. The engine
never calls an agent back: a pending decision is state (`decision`, `current_player`, the
phase's progress fields and ``eff``, the effect in progress), and `_advance` runs everything
that needs no decision until the next one. Effects live in effects.py, scoring in scoring.py, the
observation in encode.py, snapshots in snapshot.py, the Game (configuration, wiring) in game.py.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

import numpy as np

from card_envs.core.game import Game, IllegalActionError, State, named_actions
from card_envs.core.rewards import rank_returns, score_returns
from card_envs.games.split_the_hoard import effects
from card_envs.games.split_the_hoard.effects import (
    COMMIT_CARD, COMMIT_COINS, DEAL, DECISION_NAMES, OVER, PRIORITY, TURN)
from card_envs.games.split_the_hoard.scoring import score_game

REVEAL, NEGOTIATE, CLAIM, GAME_OVER = range(4)
PHASE_NAMES = ("reveal", "negotiate", "claim", "over")
STARTING_COINS = 4
HAND = 3  # cards dealt to each player in Reveal, one per Negotiate Card
SLOTS = 3  # Negotiate Cards worth 1, 2, 3 Coins
MAX_OTHERS = 4  # target-player actions: relative seats +1..+4
CLASS_POWER_MODES = ("full", "tiebreak_only")
EFFECT_DECISIONS = frozenset(range(17)) - {PRIORITY, COMMIT_CARD, COMMIT_COINS, TURN, DEAL, OVER}


class SplitTheHoardState(State):
    """One position. Public attributes (seats are absolute, 0..n-1; cards are ints, see CardSet):

    - ``deck`` (bottom..top, ``pop()`` draws), ``coin_discard`` (hidden), ``treasure_discard`` (public)
    - ``coins[p]``: p's face-down Coins, oldest first (payments and thefts take the newest);
      ``treasures[p]``: p's face-up Treasures (sorted); ``tcount[p]``: their count per name index
    - ``hand[p]``: the cards dealt to p this Reveal, not yet committed (known to p only)
    - ``offer[p][k]``: the Treasure on p's Negotiate Card worth k+1 Coins (-1: empty);
      ``added[p][k]``: the Coins added to it; ``flipped``: the commits are public (Negotiate on)
    - ``known_by[c]``: bitmask of the seats that know card c while it lies face down somewhere
      (peeked on the deck, looked-at Coins); a seat also knows its own hand and commits
    - ``classes[p]``, ``titles[p]`` (hidden Title index), ``title_deck``, ``power_used[p]``
    - ``dragon`` (the Dragon Card holder: first player), ``dragon_taker`` (TAKE_DRAGON this round)
    - ``phase`` (REVEAL, NEGOTIATE, CLAIM, GAME_OVER), ``stage``, ``round``, ``end_flag`` (a draw
      came up short: the game ends as resolution 10 says)
    - the pending decision: ``decision`` (effects.DECISION_NAMES), ``current_player``; its context:
      ``eff`` (the effect in progress, a dict with ``k``, ``actor``, ``stage``...), ``deals``
      (Deal triggers waiting: (seat, card)), ``prio``/``passes`` (priority loop),
      ``commit_i``/``commit_slot`` (secret commits), ``turn_i``, ``actions_left``, ``discount``,
      ``discount_floor``, ``printed_only``, ``refused``, ``acted`` (the Negotiate turn).
    """

    def __init__(self, game: Game):
        self.game = game
        n = game.num_players
        self.deck: list[int] = []
        self.coin_discard: list[int] = []
        self.treasure_discard: list[int] = []
        self.coins: list[list[int]] = [[] for _ in range(n)]
        self.treasures: list[list[int]] = [[] for _ in range(n)]
        self.tcount: list[list[int]] = [[0] * game.cards.num_names for _ in range(n)]
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.offer: list[list[int]] = [[-1] * SLOTS for _ in range(n)]
        self.added: list[list[list[int]]] = [[[] for _ in range(SLOTS)] for _ in range(n)]
        self.flipped = False
        self.known_by: list[int] = [0] * game.cards.num_cards
        self.seen: set[int] = set()  # every card whose known_by is not 0 (and maybe a few that are 0 again)
        self.classes: list[int] = list(range(n))
        self.titles: list[int] = list(range(n))
        self.title_deck: list[int] = []
        self.power_used = [False] * n
        self.dragon = 0
        self.dragon_taker = -1
        self.phase = REVEAL
        self.stage = "window"
        self.round = 0
        self.end_flag = False
        self.decision = PRIORITY
        self.current_player = 0
        self.eff: dict | None = None
        self.deals: list[tuple[int, int]] = []
        self.prio = 0
        self.passes = 0
        self.commit_i = 0
        self.commit_slot = 0
        self.turn_i = 0
        self.actions_left = 1
        self.discount = 0
        self.discount_floor = 0
        self.printed_only = False
        self.refused: list[tuple[int, int]] = []
        self.acted = False
        self.refill: list[int] = []
        self._legal: list[int] | None = None
        self._mask: np.ndarray | None = None
        self._scores: list[dict] | None = None

    # ----- queries -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def scoring(self) -> list[dict]:
        """Each seat's score breakdown by the end-of-game rules, as if the game ended now."""
        if self._scores is None or not self.is_terminal():
            g = self.game
            self._scores = score_game(self.tcount, [len(c) for c in self.coins], self.classes, self.titles,
                                      g.cards, g.starting_title_vp)
        return self._scores

    def scores(self) -> list[int]:
        return [b["total"] for b in self.scoring()]

    def returns(self) -> np.ndarray:
        n = self.game.num_players
        if not self.is_terminal():
            return np.zeros(n)
        board = self.scoring()
        if self.game.reward == "score":
            return score_returns([b["total"] for b in board], self.game.max_score)
        return rank_returns([b["total"] * 1000 + b["coins"] for b in board])  # ties: most Coins, then shared

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
            mask[self._legal] = 1
            self._mask = mask
        return self._legal

    def legal_mask(self) -> np.ndarray:
        if self._legal is None:
            self.legal_actions()
        return self._mask.copy()

    def observation(self, player: int) -> np.ndarray:
        return self.game.encoder.observation(self, player)

    def state_tensor(self) -> np.ndarray:
        return self.game.encoder.state_tensor(self)

    def offered_names(self, p: int) -> list[int]:
        names = self.game.cards.NAME
        return [names[c] if c >= 0 else -1 for c in self.offer[p]]

    # ----- legal answers -------------------------------------------------------------------
    def _compute_legal(self) -> list[int]:
        d = self.decision
        g = self.game
        if d == OVER:
            return []
        p = self.current_player
        names = g.cards.NAME
        if d in EFFECT_DECISIONS:
            return effects.legal(self, self.eff, d)
        if d == PRIORITY:
            return self._ability_options(p, PHASE_NAMES[self.phase]) + [g.DONE]
        if d == TURN:
            out = self._ability_options(p, "negotiate")
            out += sorted(g.target_action(p, q) for q in g.others[p] if self.buyable_slots(p, q))
            return sorted(out + [g.DRAW2])
        if d == COMMIT_CARD:
            return sorted({names[c] for c in self.hand[p]})
        if d == COMMIT_COINS:
            return ([g.SLOT0, g.SLOT0 + 1, g.SLOT0 + 2] if self.coins[p] else []) + [g.DONE]
        if d == DEAL:
            return [g.YES, g.DONE]
        raise AssertionError(f"unknown decision {d}")

    def _ability_options(self, p: int, phase: str) -> list[int]:
        """Name actions of p's Treasures usable now in `phase`, and the class power if it is."""
        cs = self.game.cards
        out = []
        tc = self.tcount[p]
        for i in range(cs.num_names):
            if tc[i] and cs.phase[i] == phase and effects.usable(self, p, cs.effect[i], i):
                out.append(i)
        if self._power_available(p, phase):
            out.append(self.game.POWER)
        return out

    def _power_available(self, p: int, phase: str) -> bool:
        if not self.game.powers or self.power_used[p]:
            return False
        row = self.game.cards.classes[self.classes[p]]
        return row.phase == phase and effects.usable(self, p, row.effect, -1)

    def _window_has_options(self, p: int, phase: str) -> bool:
        return bool(self._ability_options(p, phase))

    def buyable_slots(self, buyer: int, seller: int) -> list[int]:
        have = len(self.coins[buyer])
        return [k for k in range(SLOTS) if self.offer[seller][k] >= 0 and (seller, k) not in self.refused
                and self.price(seller, k) <= have]

    def price(self, seller: int, k: int) -> int:
        """What the Treasure on `seller`'s Negotiate Card k costs the player to move now."""
        full = k + 1 + (0 if self.printed_only else len(self.added[seller][k]))
        return max(min(full, self.discount_floor), full - self.discount) if self.discount else full

    def others_with_treasures(self, p: int) -> list[int]:
        return [q for q in self.game.others[p] if self.treasures[q]]

    def reactions(self, q: int, role: str) -> list[int]:
        """Name actions (and the class power) with which q may cancel an effect of this role."""
        cs = self.game.cards
        tc = self.tcount[q]
        out = [i for i in range(cs.num_names)
               if tc[i] and cs.effect[i] is not None and effects.PRIMITIVES[cs.effect[i][0]].role == role]
        if role == "refuse" and self._power_available(q, "negotiate-react"):
            out.append(self.game.POWER)
        return out

    # ----- card movements (the only places cards move) -------------------------------------
    def draw(self) -> int:
        """The top card, or -1 when the deck is empty: that sets the end flag (resolution 10)."""
        if self.deck:
            return self.deck.pop()
        self.end_flag = True
        return -1

    def gain(self, p: int, k: int) -> None:
        for _ in range(k):
            c = self.draw()
            if c < 0:
                return
            self.coins[p].append(c)

    def add_coin(self, p: int, c: int) -> None:
        self.coins[p].append(c)

    def remove_coin_at(self, p: int, i: int) -> int:
        return self.coins[p].pop(i)

    def move_coins(self, src: int, dst: int, k: int) -> None:
        """Move up to k Coins, newest first, from src's Haul to dst's."""
        source, target = self.coins[src], self.coins[dst]
        for _ in range(min(k, len(source))):
            target.append(source.pop())

    def add_treasure(self, p: int, c: int) -> None:
        """A Treasure enters p's Haul (public); a Deal-like card queues its trigger (res. 14)."""
        self.known_by[c] = 0
        self.seen.discard(c)
        insort(self.treasures[p], c)
        name = self.game.cards.NAME[c]
        self.tcount[p][name] += 1
        if self.game.cards.enter_trigger[name]:
            self.deals.append((p, c))

    def remove_treasure(self, p: int, c: int) -> None:
        self.treasures[p].remove(c)
        self.tcount[p][self.game.cards.NAME[c]] -= 1

    def find_treasure(self, p: int, name: int) -> int:
        names = self.game.cards.NAME
        return next(c for c in self.treasures[p] if names[c] == name)

    def discard_treasure(self, p: int, name: int) -> None:
        c = self.find_treasure(p, name)
        self.remove_treasure(p, c)
        self.treasure_discard.append(c)

    def add_hand(self, p: int, c: int) -> None:
        self.hand[p].append(c)

    def remove_hand(self, p: int, name: int) -> int:
        names = self.game.cards.NAME
        c = next(c for c in self.hand[p] if names[c] == name)
        self.hand[p].remove(c)
        return c

    def look_at_deck(self, p: int, m: int) -> None:
        """p sees the top m cards; the others lose track of them (p may reorder them)."""
        for c in self.deck[len(self.deck) - m:]:
            self.known_by[c] = 1 << p
            self.seen.add(c)

    def look_at_coins(self, p: int, k: int) -> list[int]:
        """p looks at k of his Coins: the oldest he has not seen, then the oldest he has."""
        bit, coins = 1 << p, self.coins[p]
        unseen = [i for i, c in enumerate(coins) if not self.known_by[c] & bit]
        seen = [i for i, c in enumerate(coins) if self.known_by[c] & bit]
        pos = sorted((unseen + seen)[:k])
        for i in pos:
            self.known_by[coins[i]] |= bit
            self.seen.add(coins[i])
        return pos

    def use_reaction(self, q: int, action: int) -> None:
        if action == self.game.POWER:
            self.power_used[q] = True
        else:
            self.discard_treasure(q, action)

    def complete_purchase(self, buyer: int, seller: int, k: int) -> None:
        """Pay the price to the seller, discard the added Coins, take the Treasure (one action)."""
        self.move_coins(buyer, seller, self.price(seller, k))
        self.coin_discard.extend(self.added[seller][k])
        self.added[seller][k] = []
        c, self.offer[seller][k] = self.offer[seller][k], -1
        self.discount, self.discount_floor, self.printed_only = 0, 0, False  # this purchase's
        self.add_treasure(buyer, c)
        self.acted = True

    # ----- applying a decision -------------------------------------------------------------
    def apply(self, action: int) -> None:
        if type(action) is not int:
            action = self.game.check_action(action)
        if self._legal is None:
            self.legal_actions()
        if not 0 <= action < self.game.num_actions or not self._mask[action]:
            self._raise_illegal(action)
        g = self.game
        d, p = self.decision, self.current_player
        if d in EFFECT_DECISIONS:
            effects.answer(self, self.eff, d, action)
        elif d == PRIORITY:
            self.prio = (p + 1) % g.num_players
            if action == g.DONE:
                self.passes += 1
            else:
                self.passes = 0
                self._use(p, action)
        elif d == TURN:
            self._turn(p, action)
        elif d == COMMIT_CARD:
            self.offer[p][self.commit_slot] = self.remove_hand(p, action)
            self.commit_slot += 1
        elif d == COMMIT_COINS:
            if action == g.DONE:
                self.commit_i += 1
                self.commit_slot = 0
            else:
                self.added[p][action - g.SLOT0].append(self.coins[p].pop())
        elif d == DEAL:
            seat, c = self.deals.pop(0)
            if action == g.YES:
                self.remove_treasure(seat, c)
                self.treasure_discard.append(c)
                effects.start(self, seat, g.cards.effect[g.cards.NAME[c]], g.cards.NAME[c])
        self._advance()

    def _raise_illegal(self, action: Any) -> None:
        self.game.check_action(action)
        shown = named_actions(self.legal_actions(), self.game.action_to_string)
        raise IllegalActionError(
            f"action {action} ({self.game.action_to_string(int(action))}) is illegal for seat {self.current_player} "
            f"at the {DECISION_NAMES[self.decision]} decision; legal: {shown or 'none (game over)'}")

    def _use(self, p: int, action: int) -> None:
        """Use an ability: discard the Treasure (or spend the class power), then its effect."""
        g = self.game
        if action == g.POWER:
            self.power_used[p] = True
            effects.start(self, p, g.cards.classes[self.classes[p]].effect, -1)
        else:
            self.discard_treasure(p, action)
            effects.start(self, p, g.cards.effect[action], action)

    def _turn(self, p: int, action: int) -> None:
        g = self.game
        if action == g.DRAW2:
            self.gain(p, 2)
            self.acted = True
            if self._power_available(p, "draw2"):  # Rogue: Pickpocket, once per round (spent when taken)
                row = g.cards.classes[self.classes[p]]
                effects._take_coins(self, p, row.effect[1:], -1, optional=True)
        elif g.TARGET0 <= action < g.SLOT0:
            self.eff = {"k": "buy", "actor": p, "src": -1, "target": g.seat_of_target(p, action), "slot": -1,
                        "stage": "slot"}
        else:
            self._use(p, action)

    # ----- the phases ----------------------------------------------------------------------
    def _advance(self) -> None:
        """Run everything that needs no decision, up to the next decision or the end."""
        self._legal = None
        self._scores = None
        while True:
            if self.phase == GAME_OVER:
                self.decision = OVER
                return
            if self.eff is not None:
                asked = effects.decide(self, self.eff)
                if asked is not None:
                    self.current_player, self.decision = asked
                    return
                continue
            if self.end_flag and self.phase == REVEAL:
                self._end_game()
                continue
            if self.deals:
                seat, c = self.deals[0]
                if self.end_flag and self.phase == NEGOTIATE:
                    self.deals.clear()
                    continue
                if c in self.treasures[seat]:
                    self.current_player, self.decision = seat, DEAL
                    return
                self.deals.pop(0)
                continue
            if self._drive():
                return

    def _drive(self) -> bool:
        """One step of the phase in progress; True when it set a decision."""
        n = self.game.num_players
        if self.phase == REVEAL:
            if self.stage == "window":
                return self._window("reveal", "commit")
            if self.commit_i == n:
                self._flip()
                return False
            p = (self.dragon + self.commit_i) % n
            if self.commit_slot < SLOTS - 1:
                return self._ask(p, COMMIT_CARD)
            if self.commit_slot == SLOTS - 1:
                self.offer[p][SLOTS - 1] = self.hand[p].pop()
                self.commit_slot = SLOTS
            if self.coins[p]:
                return self._ask(p, COMMIT_COINS)
            self.commit_i, self.commit_slot = self.commit_i + 1, 0
            return False
        if self.phase == NEGOTIATE:
            if self.end_flag:
                self._end_game()
                return False
            if self.acted:
                self.acted = False
                self.actions_left -= 1
                self.refused = []
                if self.actions_left <= 0:
                    self.turn_i += 1
                    self._new_turn()
                    if self.turn_i == n:
                        self._start_claim()
                        return False
            return self._ask((self.dragon + self.turn_i) % n, TURN)
        # CLAIM
        if self.stage == "refill":
            for p in self.refill:
                for _ in range(HAND):
                    c = self.draw()
                    if c < 0:
                        break
                    self.add_treasure(p, c)
            self.refill = []
            self._start_window("window")
            return False
        if self.stage == "window":
            return self._window("claim", "dragon")
        if self.end_flag:
            self._end_game()
            return False
        self.dragon = self.dragon_taker if self.dragon_taker >= 0 else (self.dragon + 1) % n
        self.dragon_taker = -1
        self.round += 1
        self._start_round()
        return False

    def _ask(self, p: int, decision: int) -> bool:
        self.current_player, self.decision = p, decision
        return True

    def _window(self, phase: str, after: str) -> bool:
        """The priority loop (F15): from the Dragon Card holder, each seat uses one ability or
        passes, until all pass in a row. A seat with nothing to use passes without being asked."""
        n = self.game.num_players
        while self.passes < n:
            p = self.prio
            if self._window_has_options(p, phase):
                return self._ask(p, PRIORITY)
            self.passes += 1
            self.prio = (p + 1) % n
        self.stage = after
        self.prio, self.passes = self.dragon, 0
        self.commit_i = self.commit_slot = 0
        return False

    def _start_window(self, stage: str) -> None:
        self.stage, self.prio, self.passes = stage, self.dragon, 0

    def _start_round(self) -> None:
        g = self.game
        n = g.num_players
        self.phase = REVEAL
        self.power_used = [False] * n
        self.flipped = False
        if len(self.deck) < HAND * n:  # resolution 4a/10: too few cards to deal: the game ends
            self._end_game()
            return
        scry = -1
        if g.powers and len(self.deck) >= HAND * n + 1:  # Wizard: only if the deck can supply it
            scry = next((p for p in range(n) if g.cards.classes[self.classes[p]].phase == "deal"), -1)
        for i in range(n):
            p = (self.dragon + i) % n
            for _ in range(HAND + (p == scry)):
                self.add_hand(p, self.deck.pop())
        self._start_window("window")
        if scry >= 0:
            self.power_used[scry] = True
            effects.start(self, scry, g.cards.classes[self.classes[scry]].effect, -1)

    def _flip(self) -> None:
        """All commits turn face up at once: Negotiate begins."""
        for p in range(self.game.num_players):
            for c in self.offer[p]:
                if c >= 0:
                    self.known_by[c] = 0
        self.flipped = True
        self.commit_i = self.commit_slot = 0
        self.phase = NEGOTIATE
        self.stage = "turns"
        self.turn_i = 0
        self._new_turn()

    def _new_turn(self) -> None:
        self.actions_left, self.discount, self.discount_floor = 1, 0, 0
        self.printed_only, self.refused, self.acted = False, [], False

    def _start_claim(self) -> None:
        """Added Coins to the Coin discard; unsold Treasures to their owners (in order from the
        Dragon Card holder); players who sold all three then draw 3 Treasures each."""
        n = self.game.num_players
        self.phase = CLAIM
        self.turn_i = 0
        self._new_turn()
        order = [(self.dragon + i) % n for i in range(n)]
        self.refill = [p for p in order if all(c < 0 for c in self.offer[p])]
        for p in order:
            for k in range(SLOTS):
                self.coin_discard.extend(self.added[p][k])
                self.added[p][k] = []
        for p in order:
            for k in range(SLOTS):
                if self.offer[p][k] >= 0:
                    self.add_treasure(p, self.offer[p][k])
                    self.offer[p][k] = -1
        self.stage = "refill"

    def _end_game(self) -> None:
        """Resolution 10's clean-up: this Reveal's dealt cards are discarded; Treasures still on
        Negotiate Cards are discarded and their added Coins go back to their owners."""
        for p in range(self.game.num_players):
            self.treasure_discard.extend(self.hand[p])
            self.hand[p] = []
            for k in range(SLOTS):
                if self.offer[p][k] >= 0:
                    self.treasure_discard.append(self.offer[p][k])
                    self.offer[p][k] = -1
                self.coins[p].extend(self.added[p][k])
                self.added[p][k] = []
        for c in self.treasure_discard:
            self.known_by[c] = 0
        self.eff = None
        self.deals = []
        self.dragon_taker = -1
        self.prio, self.passes, self.refill = self.dragon, 0, []
        self.commit_i = self.commit_slot = self.turn_i = 0
        self._new_turn()
        self.phase = GAME_OVER
        self.stage = "over"
        self.decision = OVER

    # ----- copies, determinization, snapshots ---------------------------------------------
    def clone(self) -> "SplitTheHoardState":
        c = SplitTheHoardState.__new__(SplitTheHoardState)
        c.__dict__.update(self.__dict__)
        c.deck, c.coin_discard, c.treasure_discard = self.deck[:], self.coin_discard[:], self.treasure_discard[:]
        c.coins = [x[:] for x in self.coins]
        c.treasures = [x[:] for x in self.treasures]
        c.tcount = [x[:] for x in self.tcount]
        c.hand = [x[:] for x in self.hand]
        c.offer = [x[:] for x in self.offer]
        c.added = [[y[:] for y in x] for x in self.added]
        c.known_by = self.known_by[:]
        c.seen = set(self.seen)
        c.classes, c.titles, c.title_deck = self.classes[:], self.titles[:], self.title_deck[:]
        c.power_used = self.power_used[:]
        c.eff = _copy_eff(self.eff)
        c.deals = self.deals[:]
        c.refused = self.refused[:]
        c.refill = self.refill[:]
        c._scores = None
        return c

    def hidden_slots(self, player: int) -> list[tuple[list, int]]:
        """Every face-down place `player` cannot see into, in a canonical order: (pile, index)."""
        bit = 1 << player
        known = self.known_by
        piles = [self.deck, self.coin_discard] + self.coins
        piles += [a for added in self.added for a in added]
        piles += [self.hand[q] for q in range(self.game.num_players) if q != player]
        if not self.flipped:
            piles += [self.offer[q] for q in range(self.game.num_players) if q != player]
        return [(pile, i) for pile in piles for i, c in enumerate(pile) if c >= 0 and not known[c] & bit]

    def determinize(self, player: int, rng: np.random.Generator) -> "SplitTheHoardState":
        """Resample everything hidden from `player` (resolution §3.5): the deck order, every face-
        down Coin (his own too, but for those he has looked at), the Coin discard pile, the other
        hands and unflipped commits, the other hidden Titles and the Title deck. The cards he knows
        stay where they are; the others are drawn from the sorted pool of the unseen cards, and
        each face-down place keeps who else knows it (that is public: everyone saw them peek).
        Before the flip, where another seat put its dealt cards (hand or which Negotiate Card) and
        how its added Coins are split between the cards are hidden too, even for cards `player`
        knows: only how many went there is public (see `_rearrange_commits`).
        The copy depends only on what `player` knows and on `rng`."""
        copy = self.clone()
        if not copy.flipped:
            copy._rearrange_commits(player, rng)
        slots = copy.hidden_slots(player)
        pool = sorted(pile[i] for pile, i in slots)
        bits = [copy.known_by[pile[i]] for pile, i in slots]
        order = rng.permutation(len(pool))
        for (pile, i), j, b in zip(slots, order, bits):
            c = pool[j]
            pile[i] = c
            copy.known_by[c] = b
        copy.seen = {c for c in copy.seen | set(pool) if copy.known_by[c]}
        copy._legal = copy._mask = None
        copy._scores = None
        n = self.game.num_players
        if self.is_terminal():  # the hidden Titles were revealed at scoring
            return copy
        titles = sorted(self.title_deck + [self.titles[q] for q in range(n) if q != player])
        titles = [titles[i] for i in rng.permutation(len(titles))]
        for q in range(n):
            if q != player:
                copy.titles[q] = titles.pop()
        copy.title_deck = sorted(titles)
        return copy

    def _rearrange_commits(self, player: int, rng: np.random.Generator) -> None:
        """Deal each other seat's cards of this Reveal (hand and unflipped commits) anew among the
        same places, and put each of its added Coins on a uniformly random Negotiate Card. The
        places are public (the hand's size, the Negotiate Cards filled in order 1, 2, 3, how many
        Coins were added in all); what lies where is not, even for a card `player` saw before the
        deal or a Coin he paid: he knows that the seat holds it, not where. The cards go in a
        canonical order first (known ones by id, the others by who knows them, the one thing
        public about them, as they are resampled next), so their real places never enter."""
        bit, known = 1 << player, self.known_by

        def shuffled(cards: list[int]) -> list[int]:
            cards = sorted(cards, key=lambda c: (0, c) if known[c] & bit else (1, known[c]))
            return [cards[j] for j in rng.permutation(len(cards))]

        for q in self.game.others[player]:
            places = [(self.hand[q], i) for i in range(len(self.hand[q]))]
            places += [(self.offer[q], k) for k in range(SLOTS) if self.offer[q][k] >= 0]
            for (pile, i), c in zip(places, shuffled([pile[i] for pile, i in places])):
                pile[i] = c
            coins = shuffled([c for pile in self.added[q] for c in pile])
            self.added[q] = [[] for _ in range(SLOTS)]
            for c, k in zip(coins, rng.integers(SLOTS, size=len(coins))):
                self.added[q][k].append(c)

    def __repr__(self) -> str:
        return f"SplitTheHoardState(round={self.round}, phase={PHASE_NAMES[self.phase]}, " \
               f"decision={DECISION_NAMES[self.decision]}, player={self.current_player})"


def _copy_eff(e: dict | None) -> dict | None:
    if e is None:
        return None
    c = dict(e)
    for key in ("queue", "pos"):
        if key in c:
            c[key] = c[key][:]
    return c
