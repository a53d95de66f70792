"""Scripted Split the Hoard agent.

Strategy (one-step evaluation, from the observation and the mask only):

- A position is worth ``J``: its own estimated VP minus half the others' mean and half their
  best. Estimated VP: each Starting Title's VP times the seat's soft share of it (a softmax over
  the seats' criterion values, marked down below the eligibility minimum, sharper as the deck
  empties), Treasure VP (an unmet condition counts a third), ``coin_value`` per Coin (buying
  power, fading with the deck) and, for itself only, its hidden Title's VP times its progress
  (met: all of it; partial progress: little). Treasures on Negotiate Cards count for their
  owner, to whom they return unsold.
- Buy or draw: the purchase (its price paid to the seller) or the draw 2 worth most.
- Abilities (own turn, Reveal and Claim windows, the Deal, class powers): used when the
  position after discarding the Treasure and resolving the effect (random draws at their
  expectation over the unseen cards) is worth ``ability_margin`` more; Bribe, Intimidate and
  Boots by the better action they allow. Targets, and the Treasure to take, give, recover,
  pick, flip or put on top: the best resulting position.
- Reactions: refuse or cancel only when the loss outweighs the Treasure spent.
- Pricing ("I cut, you choose"): a dealt card's desirability is its value to itself plus
  ``denial`` times its value to the seat it would help most; the least desirable goes on
  Negotiate Card 1, the most desirable on card 3, and Scry / EXTRA_DRAW give up the least
  desirable. Coins are added to the card it would lose most by selling only when pricing it
  above every other seat's Coins (at most ``max_protect``) costs under ``protect_share`` of
  that loss: added Coins are lost unless the card sells, so this is rare (protecting at half
  the loss lost games between scripted agents).
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from card_envs.agents.split_the_hoard import batch as compiled
from card_envs.agents.split_the_hoard import layout as layout
from card_envs.agents.policy import Policy
from card_envs.games.split_the_hoard.cards import HIDDEN_CRITERIA, STARTING_CRITERIA
from card_envs.games.split_the_hoard.effects import (
    BUY_SLOT, COMMIT_CARD, COMMIT_COINS, DEAL, EXTRA_COIN, FLIP, GIVE, ORDER, PICK, PRIMITIVES, PRIORITY, REACT,
    RECOVER, SCRY, TAKE, TARGET, TURN)
from card_envs.games.split_the_hoard.rules import STARTING_COINS
from card_envs.games.split_the_hoard.scoring import hidden_met, max_rank, starting_eligible, starting_value

# Softmax temperature of each Starting Title's criterion, in its own units (early in the game).
TEMPERATURE = {"highest_total_rank": 5.0, "lowest_total_rank": 3.0, "longest_run": 0.8, "balance": 1.0,
               "most_coins": 1.5}
COIN_CRITERIA = ("balance", "most_coins")  # the Starting Titles whose criterion counts Coins
TIE_BONUS = 0.3  # the tie-break class wins ties: a small edge in its criterion


class SplitTheHoardHeuristic(Policy):
    name = "heuristic"

    def __init__(self, game, coin_value: float = 0.5, denial: float = 0.5, ability_margin: float = 0.25,
                 max_protect: int = 3, protect_share: float = 0.1, temperature: float = 1.0):
        self.layout = game.observation_layout
        self.cs = cs = game.cards
        self.n = game.num_players
        self.svp = game.starting_title_vp
        self.game = game
        self.coin_value, self.denial = coin_value, denial
        self.ability_margin, self.max_protect, self.protect_share = ability_margin, max_protect, protect_share
        self.temperature = temperature
        self.copies = np.array([r.copies for r in cs.rows])
        self.fixed_names = [i for i in range(cs.num_names) if cs.fixed[i]]
        self.mod_names = [i for i in range(cs.num_names) if cs.is_mod[i]]
        self.start_deck = cs.num_cards - STARTING_COINS * self.n
        self._coin_titles = [t for t, title in enumerate(cs.starting) if title.criterion in COIN_CRITERIA]
        self._feats: dict = {}
        self._runs: dict = {}

    # ----- reading the observation -----------------------------------------------------------
    def _read(self, obs: np.ndarray) -> dict:
        v = self.layout.views(obs)
        cs, n = self.cs, self.n
        mc, nc = cs.max_copies, cs.num_cards
        haul = np.rint(v["treasures"] * mc).astype(int)
        offers = np.where(v["offers"].any(axis=2), v["offers"].argmax(axis=2), -1)  # [seat, slot] name or -1
        hold = haul.copy()
        for q in range(n):
            for x in offers[q]:
                if x >= 0:
                    hold[q, x] += 1
        hand = np.rint(v["hand"] * mc).astype(int)
        discard = np.rint(v["treasure_discard"] * mc).astype(int)
        seen = np.rint(v["seen_held"] * mc).astype(int).sum(axis=0) + np.rint(v["seen_deck"] * mc).astype(int)
        pool = np.maximum(self.copies - hold.sum(axis=0) - hand - discard - seen, 0)
        deck = int(round(float(v["deck_size"][0]) * nc))
        frac = min(1.0, deck / self.start_deck)
        f = {
            "v": v, "haul": [tuple(r) for r in haul.tolist()], "hold": [tuple(r) for r in hold.tolist()],
            "coins": np.rint(v["coins"] * nc).astype(int).tolist(), "offers": offers.tolist(),
            "added": np.rint(v["offer_coins"] * nc).astype(int).tolist(), "discard": discard,
            "pool": pool, "deck": deck, "coin_discard": int(round(float(v["coin_discard_size"][0]) * nc)),
            "uncertainty": 0.35 + 0.65 * frac,  # 1 at the start, 0.35 once the deck is empty
            "classes": v["classes"].argmax(axis=1).tolist(),
            "title": int(v["hidden_title"].argmax()), "refused": v["refused"] > 0,
        }
        f["temps"] = [TEMPERATURE[t.criterion] * self.temperature * f["uncertainty"] for t in cs.starting]
        f["tie"] = [[TIE_BONUS if cs.classes[c].name == t.tie_class else 0.0 for t in cs.starting]
                    for c in f["classes"]]
        f["now"] = self._worth(f, f["hold"], f["coins"])
        return f

    # ----- valuing a position ----------------------------------------------------------------
    def _seat_feats(self, tc: tuple, coins: int) -> tuple[list[float], float]:
        """(criterion value of each Starting Title, Treasure VP) of one Haul."""
        values, tvp = self._haul_feats(tc)
        values = values[:]
        for t in self._coin_titles:
            values[t] = self._criterion(self.cs.starting[t], tc, coins)
        return values, tvp

    def _haul_feats(self, tc: tuple) -> tuple[list[float], float]:
        """The part of `_seat_feats` that does not depend on Coins, cached by Haul."""
        hit = self._feats.get(tc)
        if hit is not None:
            return hit
        cs = self.cs
        values = [0.0 if t.criterion in COIN_CRITERIA else self._criterion(t, tc, 0) for t in cs.starting]
        tvp = 0.0
        for i, k in enumerate(tc):
            if k and cs.vp[i]:
                cond = cs.condition[i]
                ok = cond is None or (cond[0] == "has_any" and any(tc[j] for j in cond[1]))
                tvp += k * cs.vp[i] * (1.0 if ok else 0.34)
        if len(self._feats) > 100_000:
            self._feats.clear()
        self._feats[tc] = out = (values, tvp)
        return out

    def _criterion(self, title, tc: tuple, coins: int) -> float:
        """A Starting Title's criterion value (higher is better), marked down below its minimum."""
        if title.criterion == "longest_run":  # the exact search costs milliseconds on big Hauls
            run = self._run_estimate(tc)
            return run - (run < title.min)
        value, high = starting_value(title.criterion, tc, coins, self.cs)
        value = value if high else -value
        if title.criterion == "lowest_total_rank":
            missing = max(0, title.min - sum(tc[i] for i in self.fixed_names))
            return value - 3 * missing  # each missing fixed-rank Treasure will add ranks
        return value - (not starting_eligible(title.criterion, title.min, tc, coins, self.cs))

    def _run_estimate(self, tc: tuple) -> int:
        """Warlord's run length, greedily (a lower bound of `scoring.longest_run`, exact in ~95% of
        random Hauls): from each start, the next rank is a Treasure of that rank, else a spare
        Treasure shifted by one or two modifiers (one whose rank the run has passed, or a
        duplicate; a second pass also takes Treasures the run would reach later). Cached by the
        ranks held."""
        cs = self.cs
        mods = tuple(sorted(cs.rank[i] for i in self.mod_names for _ in range(tc[i])))
        bases: dict[int, int] = {}
        for i in self.fixed_names:
            if tc[i]:
                bases[cs.rank[i]] = bases.get(cs.rank[i], 0) + tc[i]
        key = (tuple(sorted(bases.items())), mods)
        hit = self._runs.get(key)
        if hit is not None:
            return hit
        best = 0
        for start in sorted({b + m for b in bases for m in (0,) + mods}):
            for lenient in (False, True):
                best = max(best, self._run_from(start, dict(bases), list(mods), lenient))
        if len(self._runs) > 100_000:
            self._runs.clear()
        self._runs[key] = best
        return best

    @staticmethod
    def _run_from(v: int, left: dict, unused: list, lenient: bool) -> int:
        start = v
        while True:
            if left.get(v, 0):
                left[v] -= 1
                v += 1
                continue
            shifts = [(m,) for m in sorted(set(unused), key=abs)] + list(combinations(unused, 2))
            pick = next(((v - sum(ms), ms) for ms in shifts if left.get(v - sum(ms), 0)
                         and (v - sum(ms) < v or left[v - sum(ms)] > 1 or lenient)), None)
            if pick is None:
                return v - start
            left[pick[0]] -= 1
            for m in pick[1]:
                unused.remove(m)
            v += 1

    def _progress(self, f: dict, tc: tuple, coins: int) -> float:
        """Expected share of the own hidden Title's VP: met counts fully, partial progress little."""
        title = self.cs.hidden[f["title"]]
        crit = title.criterion
        if hidden_met(crit, tc, coins, self.cs):
            return 1.0
        idx = self.cs.name_index
        kind = crit["type"]
        if kind == "k_of":
            ratio = sum(1 for x in crit["names"] if tc[idx[x]]) / crit["k"]
        elif kind == "all_of":
            ratio = sum(1 for grp in crit["groups"] if any(tc[idx[x]] for x in grp)) / len(crit["groups"])
        elif kind == "distinct_names":
            ratio = sum(1 for k in tc if k) / crit["k"]
        elif kind == "max_rank":
            top = max_rank(tc, self.cs)
            ratio = max(0, top or 0) / crit["min"]
        elif kind == "coins_vs_treasures":
            ratio = min(1.0, coins / max(1, crit["min_coins"], crit["ratio"] * sum(tc)))
        elif kind == "coins_at_most":
            ratio = (crit["n"] + 1) / (coins + 1)
        else:  # icons
            ratio = sum(k for i, k in enumerate(tc) if k and self.cs.phase[i] in crit["phases"]) / crit["k"]
        return 0.5 * f["uncertainty"] * min(1.0, ratio) ** 2

    def _worth(self, f: dict, hold: list, coins: list) -> float:
        """J: own estimated VP minus half the others' mean and half their best."""
        n = self.n
        feats = [self._seat_feats(hold[p], coins[p]) for p in range(n)]
        vp = [feats[p][1] + self.coin_value * f["uncertainty"] * coins[p] for p in range(n)]
        for t, temp in enumerate(f["temps"]):
            xs = [(feats[p][0][t] + f["tie"][p][t]) / temp for p in range(n)]
            top = max(xs)
            es = [math.exp(x - top) for x in xs]
            total = sum(es)
            for p in range(n):
                vp[p] += self.svp * es[p] / total
        hidden = self.cs.hidden[f["title"]].vp
        vp[0] += hidden * self._progress(f, hold[0], coins[0])
        others = vp[1:]
        return vp[0] - 0.5 * sum(others) / len(others) - 0.5 * max(others)

    def _apply(self, f: dict, cards=(), coin_moves=()) -> tuple[list, list]:
        """Holdings and Coins after moving cards ((seat, name, +1/-1), ...) and Coins
        ((from seat or -1: the deck, to seat or -1: a discard pile, count), ...)."""
        hold, coins = list(f["hold"]), list(f["coins"])
        for p, x, d in cards:
            row = list(hold[p])
            row[x] += d
            hold[p] = tuple(row)
        for src, dst, k in coin_moves:
            if src >= 0:
                k = min(k, coins[src])
                coins[src] -= k
            if dst >= 0:
                coins[dst] += k
        return hold, coins

    def _after(self, f: dict, cards=(), coin_moves=()) -> float:
        """J after these changes (see `_apply`)."""
        return self._worth(f, *self._apply(f, cards, coin_moves))

    def _expected_max(self, values: list[tuple[float, int]], draws: int) -> float:
        """E[max of `draws` draws] from (value, copies) pairs (draws with replacement)."""
        total = sum(c for _, c in values)
        if not total or draws <= 0:
            return 0.0
        out, cum, prev = 0.0, 0, 0.0
        for value, c in sorted(values):
            cum += c
            now = (cum / total) ** draws
            out += value * (now - prev)
            prev = now
        return out

    def _pool_values(self, f: dict, cards=(), coin_moves=()) -> list[tuple[float, int]]:
        """(J after also gaining each unseen name, its unseen copies), on top of the given changes."""
        return [(self._after(f, cards + ((0, x, 1),), coin_moves), int(c))
                for x, c in enumerate(f["pool"]) if c]

    # ----- abilities -------------------------------------------------------------------------
    def _ability(self, f: dict, effect: tuple, src: int) -> float:
        """Estimated J after using `effect` (discarding Treasure `src`, or a class power: -1)."""
        outcomes = self._outcomes(f, effect, src)
        if outcomes is not None:
            return max((self._after(f, *o) for o in outcomes), default=-math.inf)
        cards = ((0, src, -1),) if src >= 0 else ()
        kind, args = effect[0], effect[1:]
        if kind == "PICK_TOP":  # the best of the top cards
            return self._expected_max(self._pool_values(f, cards), args[0])
        if kind == "DRAW_TREASURE":  # each draw adds the mean unseen card's worth
            values, base = self._pool_values(f, cards), self._after(f, cards)
            mean = sum(v * c for v, c in values) / max(1, sum(c for _, c in values))
            return base + args[0] * (mean - base)
        if kind == "FLIP_COIN":
            if not f["coins"][0]:
                return -math.inf
            keep = self._after(f, cards)  # declining to flip keeps the Coin
            values = [(max(v, keep), c) for v, c in self._pool_values(f, cards, ((0, -1, 1),))]
            return self._expected_max(values, args[0])
        if kind == "EXTRA_DRAW":
            return self._after(f, cards, ((-1, 0, 1),)) + 0.3
        if kind == "STEAL":
            return self._steal(f, cards, args[0])[0]
        if kind == "SWAP":
            return self._swap(f, cards)[0]
        if kind in ("PEEK_DECK", "TAKE_DRAGON"):
            return self._after(f, cards) + 0.2
        return -math.inf  # turn effects (DISCOUNT, PRINTED_ONLY, EXTRA_ACTION) are valued by the turn plan

    def _outcomes(self, f: dict, effect: tuple, src: int) -> list[tuple[tuple, tuple]] | None:
        """The positions (cards, Coin moves) a sure effect can lead to, one per choice the agent
        would make; None for effects with chance or a plan of their own."""
        cards = ((0, src, -1),) if src >= 0 else ()
        kind, args = effect[0], effect[1:]
        others = range(1, self.n)
        if kind == "GAIN":
            return [(cards, ((-1, 0, min(args[0], f["deck"])),))]
        if kind == "RECOVER_COINS":
            return [(cards, ((-1, 0, min(args[0], f["coin_discard"])),))]
        if kind == "TAKE_COINS":
            return [(cards, ((q, 0, args[0]),)) for q in others]
        if kind == "TAKE_EACH":
            return [(cards, tuple((q, 0, args[0]) for q in others))]
        if kind == "RECOVER_TREASURE":
            return [(cards + ((0, x, 1),), ()) for x in np.flatnonzero(f["discard"]).tolist() if x != src]
        return None

    def _steal(self, f: dict, cards: tuple, pay: int, only: int | None = None) -> tuple[float, int, int]:
        """Best (J, seat, name) for paying `pay` Coins to a seat and taking one of its Haul Treasures."""
        best = (-math.inf, -1, -1)
        for q in range(1, self.n) if only is None else (only,):
            for x in np.flatnonzero(f["haul"][q]).tolist():
                value = self._after(f, cards + ((0, x, 1), (q, x, -1)), ((0, q, pay),))
                best = max(best, (value, q, x), key=lambda b: b[0])
        return best

    def _swap(self, f: dict, cards: tuple, only: int | None = None) -> tuple[float, int, int, int]:
        """Best (J, give name, seat, take name) of a SWAP."""
        mine = np.array(f["haul"][0])
        for _, x, d in cards:
            mine[x] += d
        best = (-math.inf, -1, -1, -1)
        for give in np.flatnonzero(mine).tolist():
            for q in range(1, self.n) if only is None else (only,):
                for x in np.flatnonzero(f["haul"][q]).tolist():
                    moves = cards + ((0, give, -1), (q, give, 1), (0, x, 1), (q, x, -1))
                    value = self._after(f, moves)
                    if value > best[0]:
                        best = (value, give, q, x)
        return best

    def _power(self, f: dict) -> tuple:
        return self.cs.classes[f["classes"][0]].effect

    # ----- negotiating -----------------------------------------------------------------------
    def _price(self, f: dict, q: int, k: int, printed_only: bool | None = None, discount: int | None = None) -> int:
        """What Negotiate Card k of seat q costs now (the observation's turn piece: discount,
        printed price only), or with the given Bribe / Intimidate applied."""
        turn = f["v"]["turn"]
        printed_only = turn[2] > 0 if printed_only is None else printed_only
        discount = int(round(float(turn[1]) * 6)) if discount is None else discount
        full = k + 1 + (0 if printed_only else f["added"][q][k])
        return max(0, full - discount)

    def _buy(self, f: dict, q: int, k: int, cards=(), coin_moves=(), **price) -> float:
        """J after buying Negotiate Card k of seat q (the price goes to q), after the given changes."""
        x = f["offers"][q][k]
        pay = ((0, q, self._price(f, q, k, **price)),)
        return self._after(f, cards + ((0, x, 1), (q, x, -1)), coin_moves + pay)

    def _buys(self, f: dict, cards=(), coin_moves=(), **price) -> list[tuple[float, int, int]]:
        """(J, seat, card) of every purchase the agent can pay, after the given changes."""
        have = self._apply(f, (), coin_moves)[1][0]
        return [(self._buy(f, q, k, cards, coin_moves, **price), q, k) for q in range(1, self.n) for k in range(3)
                if f["offers"][q][k] >= 0 and not f["refused"][q][k] and self._price(f, q, k, **price) <= have]

    def _draw(self, f: dict, cards=(), coin_moves=()) -> float:
        return self._after(f, cards, coin_moves + ((-1, 0, min(2, f["deck"])),))

    def _best_action(self, f: dict, cards=(), coin_moves=(), **price) -> float:
        """J after the best Negotiate action (a purchase or draw 2), after the given changes."""
        return max([self._draw(f, cards, coin_moves)] + [b[0] for b in self._buys(f, cards, coin_moves, **price)])

    def _turn(self, f: dict, legal: list[int]) -> int:
        """The action worth most; an own-turn ability first when it and the best action it leaves
        are worth ``ability_margin`` more than the best action alone."""
        g, cs = self.game, self.cs
        plain = {g.DRAW2: self._draw(f)}
        for value, q, _ in self._buys(f):
            plain[g.TARGET0 + q - 1] = max(value, plain.get(g.TARGET0 + q - 1, -math.inf))
        best = max(plain.values())
        options = [(self._turn_ability(f, cs.effect[a], a, best), a) for a in legal if a < cs.num_names]
        if g.POWER in legal:
            options.append((self._turn_ability(f, self._power(f), -1, best), g.POWER))
        if options:
            value, action = _best(options)
            if value > best + self.ability_margin:
                return action
        return _best((value, a) for a, value in plain.items() if a in legal)[1]

    def _turn_ability(self, f: dict, effect: tuple, src: int, best: float) -> float:
        """J after an own-turn ability and the best action after it (`best`: without it)."""
        cards = ((0, src, -1),) if src >= 0 else ()
        kind = effect[0]
        if kind == "DISCOUNT":
            return self._best_action(f, cards, discount=int(round(float(f["v"]["turn"][1]) * 6)) + effect[1])
        if kind == "PRINTED_ONLY":
            return self._best_action(f, cards, printed_only=True)
        if kind == "EXTRA_ACTION":  # a second action: at least another draw 2
            return self._best_action(f, cards) + self._draw(f) - f["now"]
        outcomes = self._outcomes(f, effect, src)
        if outcomes is None:
            return self._ability(f, effect, src) + best - f["now"]
        return max(self._best_action(f, *o) for o in outcomes)

    def _buy_slot(self, f: dict, legal: list[int]) -> int:
        g = self.game
        q = int(f["v"]["effect_seats"][1].argmax())
        return _best((self._buy(f, q, a - g.SLOT0), a) for a in legal)[1]

    # ----- pricing ---------------------------------------------------------------------------
    def _desirability(self, f: dict, x: int) -> float:
        """Value of card x kept, plus `denial` times its value to the seat it helps most."""
        mine = self._after(f, ((0, x, 1),)) - f["now"]
        theirs = max(f["now"] - self._after(f, ((q, x, 1),)) for q in range(1, self.n))
        return mine + self.denial * theirs

    def _least_desirable(self, f: dict, names: list[int]) -> int:
        return _best((-self._desirability(f, x), x) for x in names)[1]

    def _commit_coins(self, f: dict, legal: list[int]) -> int:
        """Add a Coin to the card it would lose most by selling, while pricing it above every
        other seat's Coins costs less than `protect_share` of that loss (added Coins are lost
        unless the card sells, so this is rare)."""
        g = self.game
        richest = max(f["coins"][1:])
        best = (0.0, g.DONE)
        for k, x in enumerate(f["offers"][0]):
            if x < 0 or g.SLOT0 + k not in legal:
                continue
            price = k + 1 + f["added"][0][k]
            sold = min(self._after(f, ((0, x, -1), (q, x, 1)), ((q, 0, price),)) for q in range(1, self.n))
            loss = f["now"] - sold
            need = richest + 1 - price
            if loss > best[0] and 0 < need <= min(self.max_protect, f["coins"][0]):
                cost = f["now"] - self._after(f, (), ((0, -1, need),))
                if cost < self.protect_share * loss:
                    best = (loss, g.SLOT0 + k)
        return best[1]

    # ----- reactions -------------------------------------------------------------------------
    def _react(self, f: dict, legal: list[int]) -> int:
        """Cancel (or refuse) only when what the effect would cost outweighs what the reaction spends."""
        g, cs = self.game, self.cs
        v = f["v"]
        actor = int(v["effect_seats"][0].argmax())
        card = int(v["effect_card"].argmax()) if v["effect_card"].any() else -1
        role = next(self._role(a, f) for a in legal if a != g.DONE)
        if role == "refuse":  # a negotiation for one of our Treasures: it would sell at its price
            slot = int(v["effect_slot"].argmax())
            accept = self._after(f, ((0, card, -1), (actor, card, 1)), ((actor, 0, self._price(f, 0, slot)),))
        elif role == "cancel_coin":  # Lockpicks, Lute, or Pickpocket (a class power: no card shown)
            effect = cs.effect[card] if card >= 0 else cs.classes[f["classes"][actor]].effect
            accept = self._after(f, (), ((0, actor, effect[1]),))
        else:  # STEAL or SWAP: we lose the Treasure taken and get its Coins, or the Treasure given
            taken = int(v["effect_take"].argmax())
            moves = ((0, taken, -1), (actor, taken, 1))
            if v["effect_give"].any():
                given = int(v["effect_give"].argmax())
                accept = self._after(f, moves + ((0, given, 1), (actor, given, -1)))
            else:
                effect = cs.effect[card] if card >= 0 else cs.classes[f["classes"][actor]].effect
                accept = self._after(f, moves, ((actor, 0, effect[1]),))
        value, action = _best((self._after(f, ((0, a, -1),)) if a < cs.num_names else f["now"], a)
                              for a in legal if a != g.DONE)
        return action if value > accept + self.ability_margin else g.DONE

    def _role(self, a: int, f: dict) -> str:
        effect = self._power(f) if a == self.game.POWER else self.cs.effect[a]
        return PRIMITIVES[effect[0]].role

    # ----- acting ----------------------------------------------------------------------------
    def act(self, observation, action_mask, rng) -> int:
        legal = np.flatnonzero(action_mask).tolist()
        if len(legal) == 1:
            return legal[0]
        f = self._read(observation)
        return self._decide(f, int(f["v"]["decision"].argmax()), legal)

    def act_batch(self, observations, action_masks, rng) -> np.ndarray:
        """`act` on every row, compiled with numba (agents/split_the_hoard/batch.py); `act` per row
        without numba, for a subclass (its overrides have no compiled twin), or for a cards file
        with more than `MAX_MOD_VALUES` distinct modifier ranks."""
        tables = self._tables() if type(self) is SplitTheHoardHeuristic else None
        return compiled.act_batch(self, observations, action_masks, rng, tables)

    def _tables(self) -> tuple | None:
        """The kernel's tables (`split_the_hoard_layout.TABLE_NAMES`), built once per parameter set."""
        params = (self.coin_value, self.denial, self.ability_margin, self.max_protect, self.protect_share,
                  self.temperature)
        if getattr(self, "_tables_for", None) != params:
            self._tables_for, self._compiled_tables = params, _kernel_tables(self)
        return self._compiled_tables

    def _decide(self, f: dict, decision: int, legal: list[int]) -> int:
        g, cs = self.game, self.cs
        names = [a for a in legal if a < cs.num_names]
        if decision in (COMMIT_CARD, EXTRA_COIN, SCRY):  # the card cheapest to sell / to lose
            return self._least_desirable(f, names)
        if decision == COMMIT_COINS:
            return self._commit_coins(f, legal)
        if decision == TURN:
            return self._turn(f, legal)
        if decision == BUY_SLOT:
            return self._buy_slot(f, legal)
        if decision == PRIORITY:
            return self._priority(f, legal)
        if decision == DEAL:
            card = int(f["v"]["effect_card"].argmax())
            return g.YES if self._ability(f, cs.effect[card], card) > f["now"] else g.DONE
        if decision == REACT:
            return self._react(f, legal)
        if decision == TARGET:
            return self._target(f, legal)
        if decision in (TAKE, GIVE):
            return self._take_give(f, decision)
        if decision in (RECOVER, PICK, ORDER):  # the card worth most to us (on top, for ORDER)
            return _best((self._after(f, ((0, x, 1),)), x) for x in names)[1]
        if decision == FLIP:  # turn the best looked-at Coin face up, if it beats keeping the Coin
            value, x = _best((self._after(f, ((0, x, 1),), ((0, -1, 1),)), x) for x in names)
            return x if value > f["now"] else g.DONE
        raise ValueError(f"unknown decision {decision}")

    def _priority(self, f: dict, legal: list[int]) -> int:
        """Use the ability that gains most, if it gains `ability_margin`; else pass."""
        g, cs = self.game, self.cs
        value, action = _best((self._ability(f, self._power(f), -1) if a == g.POWER
                               else self._ability(f, cs.effect[a], a), a) for a in legal if a != g.DONE)
        return action if value > f["now"] + self.ability_margin else g.DONE

    def _effect(self, f: dict) -> tuple:
        """The effect in progress: its Treasure's, or (no Treasure shown) the own class power's."""
        v = f["v"]
        return self.cs.effect[int(v["effect_card"].argmax())] if v["effect_card"].any() else self._power(f)

    def _target(self, f: dict, legal: list[int]) -> int:
        g = self.game
        effect = self._effect(f)
        seats = [a - g.TARGET0 + 1 for a in legal if g.TARGET0 <= a < g.SLOT0]
        if effect[0] == "STEAL":
            value, q = _best((self._steal(f, (), effect[1], only=q)[0], q) for q in seats)
        elif effect[0] == "SWAP":
            value, q = _best((self._swap(f, (), only=q)[0], q) for q in seats)
        else:  # TAKE_COINS: rob whoever it hurts most; Pickpocket may decline
            value, q = _best((self._after(f, (), ((q, 0, effect[1]),)), q) for q in seats)
            if g.DONE in legal and value <= f["now"]:
                return g.DONE
        return g.TARGET0 + q - 1

    def _take_give(self, f: dict, decision: int) -> int:
        """SWAP's give, then STEAL's / SWAP's take: the best plan for the chosen seat (the plan is
        recomputed from the same Hauls, so take agrees with the give made before)."""
        if decision == GIVE:
            return self._swap(f, ())[1]
        effect = self._effect(f)
        q = int(f["v"]["effect_seats"][1].argmax())
        if effect[0] == "STEAL":
            return self._steal(f, (), effect[1], only=q)[2]
        return self._swap(f, (), only=q)[3]


def _best(options) -> tuple[float, int]:
    """The (value, action) pair of highest value; ties go to the lowest action (deterministic)."""
    return max(options, key=lambda o: (o[0], -o[1]))


# ----- act_batch: the agent's tables, which agents/split_the_hoard/batch.py's kernel reads ---------
MAX_MOD_VALUES = 12  # distinct modifier ranks the kernel's table of `_run_from`'s orders holds (2 ** this rows)


def _kernel_tables(agent: SplitTheHoardHeuristic) -> tuple | None:
    """The tuple of `split_the_hoard_layout.TABLE_NAMES` for this agent and its game."""
    g, cs, n, nn = agent.game, agent.cs, agent.n, agent.cs.num_names
    fixed_ranks = [cs.rank[i] for i in agent.fixed_names] or [0]
    mod_values = sorted({cs.rank[i] for i in agent.mod_names})
    if len(mod_values) > MAX_MOD_VALUES:
        return None
    ints = np.array([n, nn, g.TARGET0, g.SLOT0, g.DRAW2, g.YES, g.DONE, g.POWER, agent.start_deck, cs.max_copies,
                     cs.num_cards, len(cs.classes), min(fixed_ranks), max(fixed_ranks), agent.max_protect], np.int64)
    floats = np.array([agent.coin_value, agent.denial, agent.ability_margin, agent.protect_share, agent.svp, 2.0])
    cond_kind = [0 if c is None else 1 if c[0] == "has_any" else 2 for c in cs.condition]
    cond_set = np.zeros((nn, nn), np.int64)
    for i, c in enumerate(cs.condition):
        if c is not None and c[0] == "has_any":
            cond_set[i, list(c[1])] = 1
    tie = np.array([[TIE_BONUS if cls.name == t.tie_class else 0.0 for t in cs.starting] for cls in cs.classes])
    return (ints, floats, agent.copies.astype(np.int64), _ints(cs.fixed), _ints(cs.is_mod), _ints(cs.rank),
            _ints(cs.vp), _ints(cond_kind), cond_set,
            _ints([STARTING_CRITERIA.index(t.criterion) for t in cs.starting]),
            _ints([t.min for t in cs.starting]),
            np.array([TEMPERATURE[t.criterion] * agent.temperature for t in cs.starting], np.float64), tie,
            _ints(mod_values), _mod_orders(mod_values), *_hidden_tables(cs),
            np.array([_effect_row(e) for e in cs.effect], np.int64).reshape(nn, 4),
            np.array([_effect_row(c.effect) for c in cs.classes], np.int64),
            np.array([agent.layout.slices[k].start for k in layout.PIECES], np.int64))


def _ints(values) -> np.ndarray:
    return np.array(values, np.int64)


def _mod_orders(values: list[int]) -> np.ndarray:
    """For each set of distinct modifier ranks (a bit mask over `values`), their indices in the
    order `_run_from` tries them: sorted(set(unused), key=abs), ties in the set's own order."""
    out = np.full((1 << len(values), max(1, len(values))), -1, np.int64)
    for mask in range(1 << len(values)):
        held = [v for j, v in enumerate(values) if mask >> j & 1]
        order = [values.index(v) for v in sorted(set(held), key=abs)]
        out[mask, :len(order)] = order
    return out


def _hidden_tables(cs) -> tuple:
    """(kind, VP, parameters, names, groups, icon mask) of each hidden Title, lists padded with -1."""
    idx, titles = cs.name_index, cs.hidden
    width = max([1] + [len(t.criterion.get("names", ())) for t in titles]
                + [len(grp) for t in titles for grp in t.criterion.get("groups", ())])
    groups = max([1] + [len(t.criterion.get("groups", ())) for t in titles])
    par = np.zeros((len(titles), 6), np.int64)
    names = np.full((len(titles), width), -1, np.int64)
    group_names = np.full((len(titles), groups, width), -1, np.int64)
    icons = np.zeros((len(titles), cs.num_names), np.int64)
    for h, title in enumerate(titles):
        crit = title.criterion
        par[h] = [crit.get("k", 0), crit.get("min", 0), crit.get("ratio", 0), crit.get("min_coins", 0),
                  crit.get("n", 0), len(crit.get("groups", ()))]
        for j, x in enumerate(crit.get("names", ())):
            names[h, j] = idx[x]
        for g, grp in enumerate(crit.get("groups", ())):
            group_names[h, g, :len(grp)] = [idx[x] for x in grp]
        icons[h] = [phase in crit.get("phases", ()) for phase in cs.phase]
    kinds = _ints([list(HIDDEN_CRITERIA).index(t.criterion["type"]) for t in titles])
    return kinds, _ints([t.vp for t in titles]), par, names, group_names, icons


def _effect_row(effect: tuple | None) -> list[int]:
    """(primitive code or -1, number of arguments, argument 1, argument 2) of an effect."""
    if effect is None:
        return [-1, 0, 0, 0]
    args = list(effect[1:]) + [0, 0]
    return [layout.KIND[effect[0]], len(effect) - 1, args[0], args[1]]
