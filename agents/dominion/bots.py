"""Scripted Dominion agents: the buy-rule bots of the rules file (section 7).

Every bot plays its Action cards whenever it can (villages and other non-terminal cards first),
plays all its Treasures, and buys the first card of its priority list that it can afford. Side
decisions are answered by small fixed rules: discard / trash the least useful cards (Curse, then
Victory-only cards, then Copper), always reveal Moat, a Bane, a Gladiator copy or a Gold for
Encampment, take Settlers' Copper, play Sauna's partner, gain Silver with a Workshop, a Duchy from
Sprawling Castle. "Money" is the total $ value of the Treasures the player owns.

Classes: `BigMoneyUltimate`, `SmithyBM`, `BigSmithy`, `WitchBM`, `CatapultRocksBM`,
`TownsfolkFortsBM` (the tier-3 split-pile probe) and `DominionHeuristic` (the default
``heuristic``: Witch-BM where Witch is in the Supply, else Smithy-BM with Smithy, else
Catapult/Rocks-BM with that pile, else Townsfolk/Forts-BM with either pile, else Big Money
Ultimate). The Allies piles' side decisions follow small fixed rules too (name the commonest card
of the deck, hide and take the dearest card, keep Miller's best card, no rotating by default).

`act_batch` makes the same decisions for a batch, compiled with numba: each bot's buy priorities
are also a table (`BUY_RULES`, at the end of this module), which the kernel in
agents/dominion/batch.py reads with the other rules' data (`TABLES`).
"""

from __future__ import annotations

import numpy as np

from card_envs.agents.dominion import batch as compiled
from card_envs.agents.dominion.batch import (  # the tests a buy rule may make
    ALWAYS, GAINS_TO_END_AT_MOST, KIND_RULE, MONEY_ABOVE, ON_TOP, OWNED_UNDER, OWNED_UNDER_TREASURES_OVER,
    OWNED_UNDER_WITH_CARDS, OWNED_UNDER_WITH_TREASURES, OWNS, PROVINCES_AT_MOST, ROTATOR_ON_TOP, WANTED_ON_TOP)
from card_envs.agents.policy import Policy
from card_envs.games.dominion.cards import (
    CARD_ID, CARD_NAMES, COST, GOLD, IS_ACTION, IS_TREASURE, IS_VICTORY, NUM_CARDS, PILE_ID, PILE_OF, PLUS_ACTIONS,
    PLUS_COINS)
from card_envs.games.dominion.effects import CARD0, DECISIONS, DONE, OPTION0, PILE0, PLAY_ALL

COIN_VALUE = np.array([PLUS_COINS[c] if IS_TREASURE[c] else 0 for c in range(NUM_CARDS)], dtype=np.float64)
COIN_VALUE[CARD_ID["Fortune"]] = 3.0  # doubling: worth about a Gold in a money deck
# How much a card is worth keeping in hand (lowest discarded / trashed first).
KEEP = np.array([COIN_VALUE[c] if IS_TREASURE[c] else (2.5 if IS_ACTION[c] else -1.0) for c in range(NUM_CARDS)])
KEEP[CARD_ID["Curse"]] = -2.0
# Action play order: non-terminal (gives +Actions) first, then the biggest draw.
ACTION_ORDER = sorted((c for c in range(NUM_CARDS) if IS_ACTION[c]), key=lambda c: (-(PLUS_ACTIONS[c] > 0), -c))
TRASH_JUNK = (CARD_ID["Curse"], CARD_ID["Estate"])
GAIN_ORDER = tuple(PILE_ID[x] for x in ("Gold", "Duchy", "Silver", "Estate"))  # Workshop, Remodel
# Modal cards' options in order of preference, with a hand of at most 3 cards / a bigger one.
MODE_PREFERENCE = {"Town Crier": ((0, 2, 1),) * 2, "Blacksmith": ((0, 1, 2), (1, 0, 2)),
                   "Hill Fort": ((0, 1),) * 2, "Stronghold": ((0, 1),) * 2}
P = PILE_ID


class DominionBot(Policy):
    """A buy-rule bot; subclasses give `priorities(view)`: pile names in the order to try."""

    name = "dominion_bot"

    def __init__(self, game):
        self.layout = game.observation_layout
        self.n = game.num_players

    # ----- what the bot reads ----------------------------------------------------------------
    def _facts(self, obs: np.ndarray) -> dict:
        v = self.layout.views(obs)
        owned = np.rint(v["owned"][0] * 10)
        supply = np.rint(v["pile_size"] * 10)
        in_game = v["supply_in"] > 0
        sizes = np.sort(supply[in_game])
        return {"v": v, "owned": owned, "money": float(owned @ COIN_VALUE),
                "treasures": float(owned[[c for c in range(NUM_CARDS) if IS_TREASURE[c]]].sum()),
                "cards": float(owned.sum()), "provinces": int(supply[P["Province"]]),
                "gains_to_end": int(min(supply[P["Province"]], sizes[:3].sum())), "in_game": in_game,
                "supply_top": v["supply_top"]}

    def priorities(self, f: dict) -> list[str]:
        raise NotImplementedError

    # ----- acting ----------------------------------------------------------------------------
    def act(self, observation, action_mask, rng) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            return int(legal[0])
        v = self.layout.views(observation)
        kind = DECISIONS[int(np.argmax(v["decision"]))]
        mask = action_mask
        cards = [int(a) - CARD0 for a in legal if CARD0 <= a < PILE0]
        if kind == "action":
            for c in ACTION_ORDER:
                if mask[CARD0 + c]:
                    return CARD0 + c
            return DONE
        if kind == "treasure":
            return PLAY_ALL if mask[PLAY_ALL] else DONE
        if kind == "buy":
            for name in self.priorities(self._facts(observation)):
                if mask[PILE0 + P[name]]:
                    return PILE0 + P[name]
            return DONE
        if kind in ("moat", "bane", "gladiator_copy", "encampment", "settlers", "bustling", "sauna_avanto",
                    "avanto_sauna"):
            return CARD0 + cards[0] if cards else DONE
        if kind in ("discard_down", "yw_discard", "haunted", "remodel_trash", "catapult"):
            return CARD0 + min(cards, key=lambda c: (KEEP[c], c)) if cards else int(legal[0])
        if kind in ("chapel", "sauna_trash"):
            junk = [c for c in cards if c in TRASH_JUNK]
            return CARD0 + junk[0] if junk else DONE
        if kind == "cellar":
            junk = [c for c in cards if KEEP[c] < 0]
            return CARD0 + junk[0] if junk else DONE
        if kind == "opulent":  # $2 beats holding a green card
            return CARD0 + cards[0] if cards else DONE
        if kind == "gladiator":  # the card the neighbour is least likely to hold: the dearest
            return CARD0 + max(cards, key=lambda c: (KEEP[c] if not IS_VICTORY[c] else 9, c))
        if kind in ("workshop", "remodel_gain"):
            for pile in GAIN_ORDER:
                if mask[PILE0 + pile]:
                    return PILE0 + pile
            return int(legal[-1])
        if kind == "sprawling":
            return OPTION0
        return self._tier3(kind, v, legal, mask, cards)

    def act_batch(self, observations, action_masks, rng) -> np.ndarray:
        """`act` on every row, compiled with numba (agents/dominion/batch.py); `act` per row
        without numba, or for a subclass whose rules have no compiled table."""
        tables = TABLES if self._compiled() else None
        return compiled.act_batch(self, observations, action_masks, rng, tables, self._table_rows)

    def _compiled(self) -> bool:
        """Whether `_table_rows` gives rows of the compiled tables (a subclass with rules of its
        own has none)."""
        return type(self) in BOT_ID

    def _table_rows(self, observations: np.ndarray) -> np.ndarray:
        """The row of the compiled tables (`BOT_ID`) that plays each observation."""
        return np.full(len(observations), BOT_ID[type(self)], np.int64)

    def _tier3(self, kind, v, legal, mask, cards) -> int:
        """The Allies piles' side decisions, by small fixed rules."""
        if kind in ("rotate", "rotate_any", "acolyte_self"):
            return DONE
        if kind == "mode":  # in the card's order of preference (Elder: a second, different one)
            card = CARD_NAMES[int(np.argmax(v["decision_card"]))]
            hand = float(v["hand"].sum() * 10)
            for k in MODE_PREFERENCE[card][hand > 3]:
                if mask[OPTION0 + k]:
                    return OPTION0 + k
            return DONE
        if kind in ("sorceress", "sorcerer"):  # the card most common in the unseen deck
            deck = v["deck"]
            return CARD0 + max(cards, key=lambda c: (deck[c], -c))
        if kind in ("archer_hide", "miller", "archer_pick", "lich"):  # the most useful card
            return CARD0 + max(cards, key=lambda c: (KEEP[c] + COST[c] / 10, c))
        if kind == "elder":
            for c in ACTION_ORDER:
                if mask[CARD0 + c]:
                    return CARD0 + c
            return DONE
        if kind == "herb_gatherer":
            return CARD0 + max(cards, key=lambda c: (COIN_VALUE[c], c)) if cards else DONE
        if kind in ("hill_fort", "conjurer", "sunken_treasure"):
            piles = [int(a) - PILE0 for a in legal if a >= PILE0 and a < OPTION0]
            for name in ("Gold", "Silver"):
                if P[name] in piles:
                    return PILE0 + P[name]
            return PILE0 + max(piles, key=lambda q: (v["pile_size"][q] > 0, q))
        if kind in ("acolyte", "peaceful_cult", "cave_dwellers"):
            junk = [c for c in cards if c in TRASH_JUNK]
            return CARD0 + junk[0] if junk else DONE
        if kind in ("student", "old_map", "sibyl_top", "sibyl_bottom"):
            return CARD0 + min(cards, key=lambda c: (KEEP[c], c))
        if kind in ("battle_plan", "tent"):
            return CARD0 + cards[0] if cards else DONE
        if kind == "mountain_folk":
            return OPTION0
        if kind == "band_of_nomads":  # +1 Buy when buying, else +1 Card
            return OPTION0 + 2 if v["phase"][2] > 0 else OPTION0
        return int(legal[0])


def money_rules(f, province_money: int) -> list[str]:
    """Big Money's buys before its last resort, Silver: Province once the total money in the
    deck exceeds `province_money`, Duchy and Estate as the Provinces run low, else Gold."""
    out = []
    if f["money"] > province_money:
        out.append("Province")
    if f["provinces"] <= 4:
        out.append("Duchy")
    if f["provinces"] <= 2:
        out.append("Estate")
    out.append("Gold")
    if f["provinces"] <= 6:
        out.append("Duchy")
    return out


class BigMoneyUltimate(DominionBot):
    name = "big_money_ultimate"

    def priorities(self, f):
        return money_rules(f, province_money=18) + ["Silver"]


class SmithyBM(DominionBot):
    name = "smithy_bm"
    engine = "Smithy"

    def priorities(self, f):
        out = money_rules(f, province_money=15)
        if f["owned"][CARD_ID[self.engine]] < f["treasures"] / 11:
            out.append(self.engine)
        return out + ["Silver"]


class BigSmithy(DominionBot):
    """dominiate's BigSmithy. Its first rule reads "Province if 6 or fewer Colonies are left, or 6
    or fewer Provinces" (the rules file keeps only the second half); without a Colony pile the
    Colony count is 0, so dominiate buys a Province whenever it can, and so does this bot."""

    name = "big_smithy"

    def priorities(self, f):
        out = ["Province"]
        if f["gains_to_end"] <= 5:
            out.append("Duchy")
        if f["gains_to_end"] <= 2:
            out.append("Estate")
        out.append("Gold")
        smithies = f["owned"][CARD_ID["Smithy"]]
        if smithies < 2 and f["cards"] >= 16:
            out.append("Smithy")
        if smithies < 1:
            out.append("Smithy")
        return out + ["Silver"]


class WitchBM(DominionBot):
    name = "witch_bm"

    def priorities(self, f):
        out = []
        if f["owned"][GOLD] > 0:
            out.append("Province")
        if f["provinces"] <= 5:
            out.append("Duchy")
        if f["provinces"] <= 2:
            out.append("Estate")
        witches = f["owned"][CARD_ID["Witch"]]
        if witches < 1:
            out.append("Witch")
        out.append("Gold")
        if witches < 2:
            out.append("Witch")
        return out + ["Silver"]


class CatapultRocksBM(DominionBot):
    """Split-pile probe: Smithy-BM's money rules with 1-2 Catapults, and Rocks once exposed."""

    name = "catapult_rocks_bm"
    CATAPULT_TRASH = tuple(CARD_ID[c] for c in ("Rocks", "Curse", "Copper", "Estate"))

    def priorities(self, f):
        out = money_rules(f, province_money=15)
        top_rocks = f["supply_top"][CARD_ID["Rocks"]] > 0
        if top_rocks:
            out.append("Catapult/Rocks")  # Rocks: $1 and a Silver on gain
        elif f["owned"][CARD_ID["Catapult"]] < (1 if f["treasures"] < 12 else 2):
            out.append("Catapult/Rocks")
        return out + ["Silver"]

    def act(self, observation, action_mask, rng) -> int:
        v = self.layout.views(observation)
        if DECISIONS[int(np.argmax(v["decision"]))] == "catapult":
            # Rocks gives a Silver back and hits with both halves; then Curse, Copper (a discard attack), Estate.
            for c in self.CATAPULT_TRASH:
                if action_mask[CARD0 + c]:
                    return CARD0 + c
        return super().act(observation, action_mask, rng)


class TownsfolkFortsBM(DominionBot):
    """Split-pile probe for tier 3 (Townsfolk and Forts): Smithy-BM's money rules with a few
    terminals from the Townsfolk (Blacksmith draws, Elder or Town Crier for $) and the Forts
    (Garrison, Hill Fort, Stronghold); while a pile shows its rotator (Town Crier, Tent) it buys one
    of those, and rotates it away (exposing Blacksmith, Garrison) when the rotate question comes."""

    name = "townsfolk_bm"
    WANT = {"Townsfolk": ("Blacksmith", "Elder", "Miller"), "Forts": ("Garrison", "Hill Fort", "Stronghold")}
    ROTATORS = {"Townsfolk": "Town Crier", "Forts": "Tent"}

    def priorities(self, f):
        out = money_rules(f, province_money=15)
        owned, top = f["owned"], f["supply_top"]
        terminals = sum(owned[CARD_ID[c]] for cards in self.WANT.values() for c in cards)
        if terminals < max(1, f["treasures"] / 8):
            for pile, wanted in self.WANT.items():
                if f["in_game"][P[pile]] and any(top[CARD_ID[c]] > 0 for c in wanted):
                    out.append(pile)
        for pile, rotator in self.ROTATORS.items():  # one rotator to expose the cards under it
            if f["in_game"][P[pile]] and top[CARD_ID[rotator]] > 0 and not owned[CARD_ID[rotator]]:
                out.append(pile)
        return out + ["Silver"]

    def act(self, observation, action_mask, rng) -> int:
        v = self.layout.views(observation)
        if DECISIONS[int(np.argmax(v["decision"]))] == "rotate" and action_mask[OPTION0]:
            card = CARD_NAMES[int(np.argmax(v["decision_card"]))]
            if card in ("Town Crier", "Tent"):  # its own pile: rotate away a card it does not want
                return OPTION0 if v["supply_top"][CARD_ID[card]] > 0 else DONE
        return super().act(observation, action_mask, rng)


class DominionHeuristic(DominionBot):
    """The default scripted agent: the strongest of the bots the Supply allows."""

    name = "heuristic"
    # The bot of the first of these piles in the Supply; Big Money Ultimate without any.
    CHOICES = (("Witch", WitchBM), ("Smithy", SmithyBM), ("Catapult/Rocks", CatapultRocksBM),
               ("Townsfolk", TownsfolkFortsBM), ("Forts", TownsfolkFortsBM))
    FALLBACK = BigMoneyUltimate

    def __init__(self, game):
        super().__init__(game)
        self._bots = {key: cls(game) for key, cls in self.CHOICES + (("", self.FALLBACK),)}

    def act(self, observation, action_mask, rng) -> int:
        present = self.layout.views(observation)["supply_in"]
        for key, _ in self.CHOICES:
            if present[P[key]] > 0:
                return self._bots[key].act(observation, action_mask, rng)
        return self._bots[""].act(observation, action_mask, rng)

    def _compiled(self) -> bool:
        return True

    def _table_rows(self, observations: np.ndarray) -> np.ndarray:
        """Each row's pick from that row's Supply, as `act` picks (so a batch may mix kingdoms)."""
        start = self.layout.slices["supply_in"].start
        present = observations[:, [start + PILE_ID[key] for key, _ in self.CHOICES]] > 0
        picks = np.array([BOT_ID[cls] for _, cls in self.CHOICES] + [BOT_ID[self.FALLBACK]], np.int64)
        return picks[np.where(present.any(axis=1), present.argmax(axis=1), len(self.CHOICES))]



# ----- act_batch: the bots' rules as tables, which agents/dominion/batch.py's kernel reads -------
def _money_rules(province_money: int) -> list[tuple]:
    """`money_rules`."""
    return [("Province", MONEY_ABOVE, None, province_money), ("Duchy", PROVINCES_AT_MOST, None, 4),
            ("Estate", PROVINCES_AT_MOST, None, 2), ("Gold", ALWAYS), ("Duchy", PROVINCES_AT_MOST, None, 6)]


SILVER_LAST = [("Silver", ALWAYS)]
BUY_RULES = {
    BigMoneyUltimate: _money_rules(18) + SILVER_LAST,
    SmithyBM: _money_rules(15) + [("Smithy", OWNED_UNDER_TREASURES_OVER, "Smithy", 11)] + SILVER_LAST,
    BigSmithy: [("Province", ALWAYS), ("Duchy", GAINS_TO_END_AT_MOST, None, 5),
                ("Estate", GAINS_TO_END_AT_MOST, None, 2), ("Gold", ALWAYS),
                ("Smithy", OWNED_UNDER_WITH_CARDS, "Smithy", 2, 16), ("Smithy", OWNED_UNDER, "Smithy", 1)]
    + SILVER_LAST,
    WitchBM: [("Province", OWNS, "Gold"), ("Duchy", PROVINCES_AT_MOST, None, 5), ("Estate", PROVINCES_AT_MOST, None, 2),
              ("Witch", OWNED_UNDER, "Witch", 1), ("Gold", ALWAYS), ("Witch", OWNED_UNDER, "Witch", 2)] + SILVER_LAST,
    # Rocks on top, else fewer Catapults than 1 (fewer than 12 Treasures) or 2.
    CatapultRocksBM: _money_rules(15) + [("Catapult/Rocks", ON_TOP, "Rocks"),
                                         ("Catapult/Rocks", OWNED_UNDER, "Catapult", 1),
                                         ("Catapult/Rocks", OWNED_UNDER_WITH_TREASURES, "Catapult", 2, 12)]
    + SILVER_LAST,
    TownsfolkFortsBM: _money_rules(15) + [(pile, WANTED_ON_TOP, None, 8) for pile in TownsfolkFortsBM.WANT]
    + [(pile, ROTATOR_ON_TOP, rotator) for pile, rotator in TownsfolkFortsBM.ROTATORS.items()] + SILVER_LAST,
}
BOT_ID = {cls: i for i, cls in enumerate(BUY_RULES)}  # a bot's row in the tables


def _rules_table() -> tuple[np.ndarray, np.ndarray]:
    table = np.zeros((len(BUY_RULES), max(map(len, BUY_RULES.values())), 5), np.int64)
    for b, rules in enumerate(BUY_RULES.values()):
        for r, rule in enumerate(rules):
            table[b, r] = _rule_row(*rule)
    return table, np.array([len(rules) for rules in BUY_RULES.values()], np.int64)


def _rule_row(pile: str, test: int, card: str | None = None, x: int = 0, y: int = 0) -> tuple[int, ...]:
    return PILE_ID[pile], test, -1 if card is None else CARD_ID[card], x, y


def _tables() -> tuple:
    """The tuple of `dominion_batch.TABLE_NAMES`."""
    values = np.array([KEEP, COIN_VALUE, COST], np.float64)
    wanted = {CARD_ID[c] for cards in TownsfolkFortsBM.WANT.values() for c in cards}
    rotators = {CARD_ID[c] for c in TownsfolkFortsBM.ROTATORS.values()}
    flags = np.array([IS_VICTORY, IS_TREASURE, [c in TRASH_JUNK for c in range(NUM_CARDS)],
                      [c in wanted for c in range(NUM_CARDS)], PILE_OF, [c in rotators for c in range(NUM_CARDS)]],
                     np.int64)
    modes = np.full((NUM_CARDS, 2, 3), -1, np.int64)  # options in order, with a small / big hand
    for card, orders in MODE_PREFERENCE.items():
        for big, order in enumerate(orders):
            modes[CARD_ID[card], big, :len(order)] = order
    rules, num_rules = _rules_table()
    overrides = np.array([[cls is CatapultRocksBM, cls is TownsfolkFortsBM] for cls in BUY_RULES], np.int64)
    return (values, flags, np.array(ACTION_ORDER, np.int64), KIND_RULE, modes, rules, num_rules, overrides,
            np.array(CatapultRocksBM.CATAPULT_TRASH, np.int64), np.array(GAIN_ORDER, np.int64))


TABLES = _tables()
