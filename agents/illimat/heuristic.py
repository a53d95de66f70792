"""Scripted Illimat agents: `IllimatHeuristic` (``heuristic``) and `IllimatLookahead` (``lookahead``).

Strategy (a one-move lookahead, from the observation and the mask only). At the start of a turn
it lists its main plays from what it sees (its hand, the fields, seasons, face-up Luminaries) and
scores each:

- **harvest**: the heaviest set of disjoint groups it can take (a small search over the groups
  each totalling the card's value; Fools tried as 1 and 14; Union pairs in the Union's field),
  worth the weight of every card that reaches its harvest pile, the played card(s) included.
  A card weighs 1 (Bumper Crop is a race for cards), +0.6 if Summer (Sunkissed), -0.8 if Winter
  (Frostbit) and +1.5 if a Fool (a point each). Emptying the field adds 2.5 while okus are left
  (a point, and a refill), 1.5 for a face-up Luminary (claimed: a point) and 0.5 for a face-down
  one (revealed);
- **stockpile** (the engine's mask guarantees the passive card): the heaviest stockpile it can
  build, worth 0.7 times its cards' weight times the chance that the next player holds no card
  of its value (from the unseen cards and his hand size), minus 0.3 for the tempo; so it
  stockpiles only when the pile is rich and hard to steal;
- **sow**: minus what the card would be worth in its own harvest pile later (0.5 of its weight),
  so it sows Winter cards and low, plain cards first, and keeps Fools and Summer cards.

The best-scoring play is carried out over the following decisions (the plan is recomputed from
the observation at each one and must agree with the move so far; anything unexpected falls back
to the first legal answer). Other decisions: the main play comes before an owed Rake sow, which
sows the least valuable card; a Changeling swap is made when a loose card of her field outweighs
its least valuable hand card by 1.5 (e.g. a Fool for a Winter card); a Stars face card and the
Forest Queen's claim choose Summer; a season decision that does not offer Summer (after a full
harvest: its face cards' seasons only) takes the first offered of Spring, Autumn, Winter (the
fewest plays forbidden: a stockpile, then a sow, then a harvest); the Changeling's claim swaps
nothing.

`IllimatLookahead` (the named bot ``lookahead``) plays the same way but also looks at the next
player's reply: each main play's score loses the expected weight of the best harvest the next
player could make on the board it leaves (his hand drawn from the cards unseen by us, of the size
he holds; each of his cards taking the heaviest harvest of its value in any field where harvesting
is allowed after the play's face card turned the Illimat, plus that card and the clearing bonus).
So it stops sowing the card that completes a sum for him or leaving a field he can empty. It wins
0.63 of 600 games against ``heuristic`` (300 deals in both seatings), at the same speed.
"""

from __future__ import annotations

from collections import OrderedDict
from math import comb

import numpy as np

from card_envs.agents.illimat import batch as compiled
from card_envs.agents.policy import Policy
from card_envs.core.cards import RANK, SUIT
from card_envs.games.illimat.cards import (
    ACTION, ACTIVE_VALUE, AUTUMN, CARD0, CHANGELING, CLAIM_GIVE, CLAIM_SEASON, CLAIM_TAKE, DONE, FACE, FIELD, FIELD0,
    FOREST_QUEEN, HARVEST, HARVEST_VALUES, IS_FOOL, ITEMS, MAIDEN, NUM_CARDS, NUM_FIELDS, PAIR_VALUES, PARTNER,
    PASSIVE_VALUE, RAKE_CARD, RAKE_SOW, RING, SEASON, SEASON0, SOW, SPRING, STARS, STOCKPILE, SUMMER, SWAP, SWAP_GIVE,
    SWAP_TAKE, TURN, UNION, VALUE, VALUE0, WINTER, summer_for)
from card_envs.games.illimat.game import IllimatGame
from card_envs.games.illimat.groups import MULTIPLE_CODE, heaviest_groups
from card_envs.games.illimat.play_features import card_weight as weight  # a card's worth in one's harvest pile
from card_envs.games.illimat.threat_features import best_of_hand, harvest_table, ordered_sum

PLAN_CACHE = 2048  # turns whose plans are kept: a batch of games interleaves many turns' decisions


PLANNED = (TURN, FIELD, ACTION, PARTNER, VALUE, ITEMS)  # the decisions a turn's plans make
SEASON_ORDER = (SUMMER, SPRING, AUTUMN, WINTER)  # a season decision's choice: the first offered


class IllimatHeuristic(Policy):
    name = "heuristic"

    def __init__(self, game: IllimatGame):
        self.layout = game.observation_layout
        self.num_players = game.num_players
        # A turn's reading of the board and its plans, by the observation before its decision
        # fields and its turn flags (unchanged while a move is chosen over several decisions):
        # computed once per turn, not once per decision.
        self._turns: OrderedDict[bytes, dict] = OrderedDict()
        self._decision_start = self.layout.slices["decision"].start
        self._turn_flags = self.layout.slices["turn"]

    # ----- reading the observation ----------------------------------------------------------
    def _read(self, obs: np.ndarray) -> dict:
        v = self.layout.views(obs)
        fields = []
        for f in range(NUM_FIELDS):
            loose = np.flatnonzero(v["loose"][f]).tolist()
            values = np.rint(v["stockpiled"][f] * 14).astype(int)
            piles = []
            for kind, name in ((False, "single_key"), (True, "multiple_key")):
                for key in np.flatnonzero(v[name][f]).tolist():
                    piles.append((key, int(values[key]), kind))
            by_value: dict[tuple[int, bool], list[int]] = {}
            for key, value, kind in piles:
                by_value.setdefault((value, kind), []).append(key)
            cards_of = {}
            for (value, kind), keys in by_value.items():
                cards = [c for c in np.flatnonzero(values == value).tolist()]
                for i, key in enumerate(sorted(keys)):  # equal stockpiles: split their cards evenly
                    cards_of[key] = cards[i::len(keys)]
            items = [(c, 0 if IS_FOOL[c] else RANK[c], (c,)) for c in loose]
            items += [(key, value + MULTIPLE_CODE if kind else value, tuple(cards_of[key])) for key, value, kind in piles]
            items.sort()
            fields.append(items)
        up = v["luminary_up"]
        lum_field = {L: int(np.flatnonzero(up[:, L])[0]) for L in range(up.shape[1]) if up[:, L].any()}
        return {
            "hand": np.flatnonzero(v["hand"]).tolist(), "fields": fields,
            "seasons": v["seasons"].argmax(axis=1).tolist(), "lum_field": lum_field,
            "lum_up_at": up.any(axis=1).tolist(), "lum_down_at": v["luminary_down"].astype(bool).tolist(),
            "okus_left": v["okus_left"][0] > 0, "turn": v["turn"].astype(bool).tolist(),
            "unseen": np.flatnonzero(v["unseen"]).tolist(), "next_hand": int(round(v["hand_sizes"][1] * 4)),
        }

    # ----- scoring the main plays -----------------------------------------------------------
    def _clear_bonus(self, s: dict, f: int) -> float:
        return 2.5 * s["okus_left"] + 1.5 * s["lum_up_at"][f] + 0.5 * s["lum_down_at"][f]

    def _steal_chance(self, s: dict, value: int) -> float:
        unseen, h = s["unseen"], s["next_hand"]
        m = sum(1 for c in unseen if value in HARVEST_VALUES[c])
        u = len(unseen)
        if h <= 0 or m == 0 or u == 0:
            return 0.0
        h = min(h, u)
        return 1.0 - comb(u - m, h) / comb(u, h)

    def _plans(self, s: dict) -> list[tuple[float, tuple]]:
        """(score, plan) for every main play found; plan = (card, field, action, partner, value, items)."""
        hand, seasons = s["hand"], s["seasons"]
        maiden = MAIDEN in s["lum_field"]
        union_field = s["lum_field"].get(UNION, -1)
        rake_owed = s["turn"][1]
        plans = []
        for c in hand:
            for f in range(NUM_FIELDS):
                season = seasons[f]
                items = s["fields"][f]
                codes = tuple(it[1] for it in items)
                weights = tuple(sum(weight(x) for x in it[2]) for it in items)
                n = len(items)
                if season != AUTUMN:
                    plans.append((-0.5 * weight(c) - 0.01 * RANK[c], (c, f, SOW, -1, 0, ())))
                if (season != WINTER or maiden) and n:
                    options = [(-1, v) for v in HARVEST_VALUES[c]]
                    if f == union_field and not (rake_owed and len(hand) < 3):
                        options += [(d, v) for d in hand if d != c for v in PAIR_VALUES[c][d]]
                    for partner, v in options:
                        gain, mask = heaviest_groups(v, codes, weights, 0)
                        if mask == 0:
                            continue
                        played = weight(c) + (weight(partner) if partner >= 0 else 0.0)
                        score = gain + played + (self._clear_bonus(s, f) if mask == (1 << n) - 1 else 0.0)
                        keys = tuple(items[i][0] for i in range(n) if mask >> i & 1)
                        plans.append((score, (c, f, HARVEST, partner, v, keys)))
                if season != SPRING and n:
                    active = 1 << n
                    for T in sorted({PASSIVE_VALUE[d] for d in hand if d != c}):
                        gain, mask = heaviest_groups(T, codes, weights + (weight(c),), ACTIVE_VALUE[c])
                        if mask & ~active == 0:
                            continue
                        score = 0.7 * gain * (1.0 - self._steal_chance(s, T)) - 0.3
                        keys = tuple(items[i][0] for i in range(n) if mask >> i & 1)
                        plans.append((score, (c, f, STOCKPILE, -1, T, keys)))
        plans.sort(key=lambda sp: -sp[0])
        return plans

    # ----- acting ---------------------------------------------------------------------------
    def act(self, observation, action_mask, rng) -> int:
        legal = np.flatnonzero(action_mask).tolist()
        if len(legal) == 1:
            return legal[0]
        legal_set = set(legal)
        view = self.layout.views(observation)
        decision = int(view["decision"].argmax())
        hand = np.flatnonzero(view["hand"]).tolist()
        if decision in (SEASON, CLAIM_SEASON):
            return next((SEASON0 + s for s in SEASON_ORDER if SEASON0 + s in legal_set), legal[0])
        if decision == CLAIM_GIVE:
            return DONE
        if decision in (RAKE_CARD, SWAP_GIVE):
            return min(hand, key=lambda c: (weight(c), RANK[c], c))
        if decision in (SWAP_TAKE, CLAIM_TAKE):
            return max(legal, key=lambda c: (weight(c), -c))
        s = self._turn(observation)
        if decision == TURN:
            if s["turn"][0]:  # main play done: the Rake sow if owed, else end the turn
                return RAKE_SOW if RAKE_SOW in legal_set else DONE
            if SWAP in legal_set:
                g = s["lum_field"][CHANGELING]
                best_loose = max((weight(it[0]) for it in s["fields"][g] if it[2] == (it[0],)), default=-9.0)
                worst_hand = min(weight(c) for c in hand)
                if best_loose - worst_hand >= 1.5:
                    return SWAP
            cards = [a for a in legal if a < NUM_CARDS]
            if not cards:
                return RAKE_SOW if RAKE_SOW in legal_set else legal[0]
        plan = self._plan(s, view)
        if plan is not None:
            action = self._next_action(decision, plan, view)
            if action in legal_set:
                return action
        return DONE if DONE in legal_set and decision == ITEMS else legal[0]

    def act_batch(self, observations, action_masks, rng) -> np.ndarray:
        """`act` on every row, compiled with numba (agents/illimat/batch.py); `act` per row for a
        subclass (its overrides have no compiled twin)."""
        if type(self) not in (IllimatHeuristic, IllimatLookahead):
            return super().act_batch(observations, action_masks, rng)
        return compiled.act_batch(self, observations, action_masks, rng, type(self) is IllimatLookahead)

    def action_scores_batch(self, observations, action_masks, rng) -> tuple[np.ndarray, np.ndarray]:
        """`action_scores` of every row: (int64 [B] actions, float32 [B, A] scores), compiled as
        `act_batch` is."""
        if type(self) not in (IllimatHeuristic, IllimatLookahead):
            chosen, scores = zip(*(self.action_scores(o, m, rng) for o, m in zip(observations, action_masks)))
            return np.array(chosen, np.int64), np.stack(scores)
        return compiled.act_batch(self, observations, action_masks, rng, type(self) is IllimatLookahead, scored=True)

    def action_scores(self, observation, action_mask, rng) -> tuple[int, np.ndarray]:
        """(the action `act` takes, float32[A] scores of the legal actions): an action's score is
        that of the best plan, allowed by the move chosen so far, whose next step it is (-inf where
        no plan goes through it). Where the choice is not the best plan's next step (seasons, the
        Rake, swaps, claims), the scores are one-hot: 0 at the choice, -inf elsewhere. They say how
        close each call was (experiments/illimat_soft_labels.py distils them)."""
        chosen = self.act(observation, action_mask, rng)
        scores = np.full(len(action_mask), -np.inf, np.float32)
        view = self.layout.views(observation)
        decision = int(view["decision"].argmax())
        if decision in PLANNED:
            for score, plan in self.consistent_plans(self._turn(observation), view):
                action = self._next_action(decision, plan, view)
                if 0 <= action < len(action_mask) and action_mask[action] and scores[action] == -np.inf:
                    scores[action] = score
        if scores[chosen] == -np.inf or scores[chosen] < scores.max():
            scores[:] = -np.inf
            scores[chosen] = 0.0
        return chosen, scores

    def _turn(self, observation) -> dict:
        """`_read` of this turn's observation, cached (its plans are added when first needed)."""
        key = observation[:self._decision_start].tobytes() + observation[self._turn_flags].tobytes()
        s = self._turns.get(key)
        if s is None:
            s = self._turns[key] = self._read(observation)
            if len(self._turns) > PLAN_CACHE:
                self._turns.popitem(last=False)
        return s

    def _plan(self, s, view):
        return next(self.consistent_plans(s, view), (None, None))[1]

    def consistent_plans(self, s, view):
        """(score, plan) of the turn's plans that the move chosen so far (``view``'s move pieces)
        allows, best first."""
        if "plans" not in s:
            s["plans"] = self._plans(s)
        plans = s["plans"]
        chosen_card = np.flatnonzero(view["move_cards"]).tolist()
        field = int(view["move_field"].argmax()) if view["move_field"].any() else -1
        action = SOW + int(view["move_action"].argmax()) if view["move_action"].any() else -1
        value = int(round(view["move_value"][0] * 28))
        items = set(np.flatnonzero(view["move_items"]).tolist())
        for score, plan in plans:
            c, f, a, partner, v, keys = plan
            if chosen_card and c not in chosen_card:
                continue
            if partner >= 0 and len(chosen_card) == 2 and partner not in chosen_card:
                continue
            if field >= 0 and f != field or action >= 0 and a != action or value and v != value:
                continue
            if any(k not in keys for k in items if k in {it[0] for it in s["fields"][f]}):
                continue
            yield score, plan

    @staticmethod
    def _next_action(decision: int, plan, view) -> int:
        c, f, a, partner, v, keys = plan
        if decision == TURN:
            return CARD0 + c
        if decision == FIELD:
            return FIELD0 + f
        if decision == ACTION:
            return a
        if decision == PARTNER:
            return partner if partner >= 0 else DONE
        if decision == VALUE:
            return VALUE0 + v
        if decision == ITEMS:
            picked = set(np.flatnonzero(view["move_items"]).tolist())
            for k in keys:
                if k not in picked:
                    return k
            return DONE
        return -1


def expected_best(gains: list[float], hand_size: int) -> float:
    """The expected largest gain in a hand of `hand_size` cards drawn without replacement from
    cards worth `gains` (0 when none is positive; `threat_features.best_of_hand`)."""
    ordered = np.maximum(sorted(gains, reverse=True), 0.0)
    return float(ordered_sum(ordered, best_of_hand(len(ordered), hand_size)))  # threat_features' order


class IllimatLookahead(IllimatHeuristic):
    """``heuristic``'s plays, each less the next player's expected best harvest after it (module
    docstring)."""

    name = "lookahead"

    def _plans(self, s: dict) -> list[tuple[float, tuple]]:
        plans = [(score - self._threat(s, *self._board_after(s, plan)), plan) for score, plan in super()._plans(s)]
        plans.sort(key=lambda sp: -sp[0])
        return plans

    @staticmethod
    def _board_after(s: dict, plan: tuple) -> tuple[list[list], list[int]]:
        """(fields as `_read` lists their items, seasons) once ``plan`` is played: its card sown,
        its items harvested or stockpiled with it, the Illimat turned for its last face card (a
        Stars one to Summer, as the agent chooses; never with the Forest Queen face up). The
        refill of an emptied field is unknown: it is left empty."""
        c, f, action, partner, value, keys = plan
        fields = list(s["fields"])
        kept = [item for item in fields[f] if item[0] not in keys]
        if action == SOW:
            kept = fields[f] + [(c, 0 if IS_FOOL[c] else RANK[c], (c,))]
        elif action == STOCKPILE:
            cards = tuple(x for item in fields[f] if item[0] in keys for x in item[2]) + (c,)
            kept.append((min(cards), value, cards))  # valued as a single stockpile of its value
        fields[f] = kept
        seasons = s["seasons"]
        faces = [x for x in (c, partner) if x >= 0 and FACE[x]]
        if faces and FOREST_QUEEN not in s["lum_field"]:
            summer = summer_for(f, SUMMER if SUIT[faces[-1]] == STARS else SUIT[faces[-1]])
            seasons = [RING[(g - summer) % 4] for g in range(NUM_FIELDS)]
        return fields, seasons

    def _threat(self, s: dict, fields: list[list], seasons: list[int]) -> float:
        """The next player's expected best harvest on that board (his hand: ``next_hand`` of the
        cards unseen by us)."""
        maiden = MAIDEN in s["lum_field"]
        open_fields = [(harvest_table(tuple((item[1], sum(weight(x) for x in item[2])) for item in fields[g])),
                        self._clear_bonus(s, g))
                       for g in range(NUM_FIELDS) if fields[g] and (seasons[g] != WINTER or maiden)]
        gains = [max((table[v][0] + weight(c) + bonus * table[v][1]
                      for table, bonus in open_fields for v in HARVEST_VALUES[c] if table[v][0] > 0), default=0.0)
                 for c in s["unseen"]]
        return expected_best(gains, s["next_hand"])
