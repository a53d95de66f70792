"""Card and pile data: every card is one row (name, cost in $ and Debt, types, VP, the vanilla
bonuses it gives when played); piles list their cards top to bottom with counts per player count.

Cards are small ints (their row index), piles too. Special effects live in `effects.py`, keyed by
card name, so a card is a data row plus at most one small function.
"""

from __future__ import annotations

# Types (bit flags).
ACTION, TREASURE, VICTORY, CURSE, ATTACK, REACTION, CASTLE, DURATION, LIAISON = 1, 2, 4, 8, 16, 32, 64, 128, 256
TYPE_NAMES = {ACTION: "Action", TREASURE: "Treasure", VICTORY: "Victory", CURSE: "Curse", ATTACK: "Attack",
              REACTION: "Reaction", CASTLE: "Castle", DURATION: "Duration", LIAISON: "Liaison"}
A, T, V, K, D = ACTION, TREASURE, VICTORY, CASTLE, DURATION

# name, $ cost, Debt cost, types, VP (None: counted by a rule), +Cards, +Actions, +Buys, +$, +VP tokens
CARD_ROWS = (
    ("Copper", 0, 0, T, 0, 0, 0, 0, 1, 0),
    ("Silver", 3, 0, T, 0, 0, 0, 0, 2, 0),
    ("Gold", 6, 0, T, 0, 0, 0, 0, 3, 0),
    ("Estate", 2, 0, V, 1, 0, 0, 0, 0, 0),
    ("Duchy", 5, 0, V, 3, 0, 0, 0, 0, 0),
    ("Province", 8, 0, V, 6, 0, 0, 0, 0, 0),
    ("Curse", 0, 0, CURSE, -1, 0, 0, 0, 0, 0),
    ("Cellar", 2, 0, A, 0, 0, 1, 0, 0, 0),
    ("Chapel", 2, 0, A, 0, 0, 0, 0, 0, 0),
    ("Moat", 2, 0, A | REACTION, 0, 2, 0, 0, 0, 0),
    ("Village", 3, 0, A, 0, 1, 2, 0, 0, 0),
    ("Workshop", 3, 0, A, 0, 0, 0, 0, 0, 0),
    ("Smithy", 4, 0, A, 0, 3, 0, 0, 0, 0),
    ("Militia", 4, 0, A | ATTACK, 0, 0, 0, 0, 2, 0),
    ("Remodel", 4, 0, A, 0, 0, 0, 0, 0, 0),
    ("Market", 5, 0, A, 0, 1, 1, 1, 1, 0),
    ("Laboratory", 5, 0, A, 0, 2, 1, 0, 0, 0),
    ("Festival", 5, 0, A, 0, 0, 2, 1, 2, 0),
    ("Witch", 5, 0, A | ATTACK, 0, 2, 0, 0, 0, 0),
    ("Young Witch", 4, 0, A | ATTACK, 0, 2, 0, 0, 0, 0),
    ("Encampment", 2, 0, A, 0, 2, 2, 0, 0, 0),
    ("Plunder", 5, 0, T, 0, 0, 0, 0, 2, 1),
    ("Patrician", 2, 0, A, 0, 1, 1, 0, 0, 0),
    ("Emporium", 5, 0, A, 0, 1, 1, 0, 1, 0),
    ("Settlers", 2, 0, A, 0, 1, 1, 0, 0, 0),
    ("Bustling Village", 5, 0, A, 0, 1, 3, 0, 0, 0),
    ("Catapult", 3, 0, A | ATTACK, 0, 0, 0, 0, 1, 0),
    ("Rocks", 4, 0, T, 0, 0, 0, 0, 1, 0),
    ("Gladiator", 3, 0, A, 0, 0, 0, 0, 2, 0),
    ("Fortune", 8, 8, T, 0, 0, 0, 1, 0, 0),
    ("Sauna", 4, 0, A, 0, 1, 1, 0, 0, 0),
    ("Avanto", 5, 0, A, 0, 3, 0, 0, 0, 0),
    ("Humble Castle", 3, 0, T | V | K, None, 0, 0, 0, 1, 0),
    ("Crumbling Castle", 4, 0, V | K, 1, 0, 0, 0, 0, 0),
    ("Small Castle", 5, 0, A | V | K, 2, 0, 0, 0, 0, 0),
    ("Haunted Castle", 6, 0, V | K, 2, 0, 0, 0, 0, 0),
    ("Opulent Castle", 7, 0, A | V | K, 3, 0, 0, 0, 0, 0),
    ("Sprawling Castle", 8, 0, V | K, 4, 0, 0, 0, 0, 0),
    ("Grand Castle", 9, 0, V | K, 5, 0, 0, 0, 0, 0),
    ("King's Castle", 10, 0, V | K, None, 0, 0, 0, 0, 0),
    # Allies split piles (4 x 4 each); the pile types (Augur, Clash, ...) are not modelled: no
    # implemented card refers to them.
    ("Herb Gatherer", 3, 0, A, 0, 0, 0, 1, 0, 0),
    ("Acolyte", 4, 0, A, 0, 0, 0, 0, 0, 0),
    ("Sorceress", 5, 0, A | ATTACK, 0, 0, 1, 0, 0, 0),
    ("Sibyl", 6, 0, A, 0, 4, 1, 0, 0, 0),
    ("Battle Plan", 3, 0, A, 0, 1, 1, 0, 0, 0),
    ("Archer", 4, 0, A | ATTACK, 0, 0, 0, 0, 2, 0),
    ("Warlord", 5, 0, A | D | ATTACK, 0, 0, 1, 0, 0, 0),
    ("Territory", 6, 0, V, None, 0, 0, 0, 0, 0),
    ("Tent", 3, 0, A, 0, 0, 0, 0, 2, 0),
    ("Garrison", 4, 0, A | D, 0, 0, 0, 0, 2, 0),
    ("Hill Fort", 5, 0, A, 0, 0, 0, 0, 0, 0),
    ("Stronghold", 6, 0, A | V | D, 2, 0, 0, 0, 0, 0),
    ("Old Map", 3, 0, A, 0, 1, 1, 0, 0, 0),
    ("Voyage", 4, 0, A | D, 0, 0, 1, 0, 0, 0),
    ("Sunken Treasure", 5, 0, T, 0, 0, 0, 0, 0, 0),
    ("Distant Shore", 6, 0, A | V, 2, 2, 1, 0, 0, 0),
    ("Town Crier", 2, 0, A, 0, 0, 0, 0, 0, 0),
    ("Blacksmith", 3, 0, A, 0, 0, 0, 0, 0, 0),
    ("Miller", 4, 0, A, 0, 0, 1, 0, 0, 0),
    ("Elder", 5, 0, A, 0, 0, 0, 0, 2, 0),
    ("Student", 3, 0, A | LIAISON, 0, 0, 1, 0, 0, 0),
    ("Conjurer", 4, 0, A | D, 0, 0, 0, 0, 0, 0),
    ("Sorcerer", 5, 0, A | ATTACK, 0, 1, 1, 0, 0, 0),
    ("Lich", 6, 0, A, 0, 6, 2, 0, 0, 0),
)

NUM_CARDS = len(CARD_ROWS)
CARD_NAMES = tuple(r[0] for r in CARD_ROWS)
CARD_ID = {name: i for i, name in enumerate(CARD_NAMES)}
COST = tuple(r[1] for r in CARD_ROWS)
DEBT = tuple(r[2] for r in CARD_ROWS)
TYPES = tuple(r[3] for r in CARD_ROWS)
VP = tuple(r[4] for r in CARD_ROWS)
PLUS_CARDS = tuple(r[5] for r in CARD_ROWS)
PLUS_ACTIONS = tuple(r[6] for r in CARD_ROWS)
PLUS_BUYS = tuple(r[7] for r in CARD_ROWS)
PLUS_COINS = tuple(r[8] for r in CARD_ROWS)
PLUS_VP = tuple(r[9] for r in CARD_ROWS)
IS_ACTION = tuple(bool(t & ACTION) for t in TYPES)
IS_TREASURE = tuple(bool(t & TREASURE) for t in TYPES)
IS_VICTORY = tuple(bool(t & VICTORY) for t in TYPES)
IS_ATTACK = tuple(bool(t & ATTACK) for t in TYPES)
IS_CASTLE = tuple(bool(t & CASTLE) for t in TYPES)
IS_DURATION = tuple(bool(t & DURATION) for t in TYPES)
TREASURE_CARDS = tuple(c for c in range(NUM_CARDS) if IS_TREASURE[c])
ACTION_CARDS = tuple(c for c in range(NUM_CARDS) if IS_ACTION[c])
VICTORY_CARDS = tuple(c for c in range(NUM_CARDS) if IS_VICTORY[c])
CASTLE_CARDS = tuple(c for c in range(NUM_CARDS) if IS_CASTLE[c])

(COPPER, SILVER, GOLD, ESTATE, DUCHY, PROVINCE, CURSE_CARD, CELLAR, CHAPEL, MOAT, VILLAGE, WORKSHOP, SMITHY,
 MILITIA, REMODEL, MARKET, LABORATORY, FESTIVAL, WITCH, YOUNG_WITCH, ENCAMPMENT, PLUNDER, PATRICIAN, EMPORIUM,
 SETTLERS, BUSTLING_VILLAGE, CATAPULT, ROCKS, GLADIATOR, FORTUNE, SAUNA, AVANTO, HUMBLE_CASTLE, CRUMBLING_CASTLE,
 SMALL_CASTLE, HAUNTED_CASTLE, OPULENT_CASTLE, SPRAWLING_CASTLE, GRAND_CASTLE, KINGS_CASTLE,
 HERB_GATHERER, ACOLYTE, SORCERESS, SIBYL, BATTLE_PLAN, ARCHER, WARLORD, TERRITORY, TENT, GARRISON, HILL_FORT,
 STRONGHOLD, OLD_MAP, VOYAGE, SUNKEN_TREASURE, DISTANT_SHORE, TOWN_CRIER, BLACKSMITH, MILLER, ELDER, STUDENT,
 CONJURER, SORCERER, LICH) = range(NUM_CARDS)

# Piles: name, randomizer $ cost, randomizer types, segments top to bottom as (card, count for 2/3/4 players).
# Basic pile counts depend on the player count (rules file 1); None means "see basic_count".
_KINGDOM = (10, 10, 10)
_VICTORY = (8, 12, 12)
_HALF = (5, 5, 5)
_QUARTER = (4, 4, 4)
PILE_ROWS = (
    ("Copper", 0, T, (("Copper", (46, 39, 32)),)),
    ("Silver", 3, T, (("Silver", (40, 40, 40)),)),
    ("Gold", 6, T, (("Gold", (30, 30, 30)),)),
    ("Estate", 2, V, (("Estate", _VICTORY),)),
    ("Duchy", 5, V, (("Duchy", _VICTORY),)),
    ("Province", 8, V, (("Province", _VICTORY),)),
    ("Curse", 0, CURSE, (("Curse", (10, 20, 30)),)),
    ("Cellar", 2, A, (("Cellar", _KINGDOM),)),
    ("Chapel", 2, A, (("Chapel", _KINGDOM),)),
    ("Moat", 2, A | REACTION, (("Moat", _KINGDOM),)),
    ("Village", 3, A, (("Village", _KINGDOM),)),
    ("Workshop", 3, A, (("Workshop", _KINGDOM),)),
    ("Smithy", 4, A, (("Smithy", _KINGDOM),)),
    ("Militia", 4, A | ATTACK, (("Militia", _KINGDOM),)),
    ("Remodel", 4, A, (("Remodel", _KINGDOM),)),
    ("Market", 5, A, (("Market", _KINGDOM),)),
    ("Laboratory", 5, A, (("Laboratory", _KINGDOM),)),
    ("Festival", 5, A, (("Festival", _KINGDOM),)),
    ("Witch", 5, A | ATTACK, (("Witch", _KINGDOM),)),
    ("Young Witch", 4, A | ATTACK, (("Young Witch", _KINGDOM),)),
    ("Encampment/Plunder", 2, A, (("Encampment", _HALF), ("Plunder", _HALF))),
    ("Patrician/Emporium", 2, A, (("Patrician", _HALF), ("Emporium", _HALF))),
    ("Settlers/Bustling Village", 2, A, (("Settlers", _HALF), ("Bustling Village", _HALF))),
    ("Catapult/Rocks", 3, A | ATTACK, (("Catapult", _HALF), ("Rocks", _HALF))),
    ("Gladiator/Fortune", 3, A, (("Gladiator", _HALF), ("Fortune", _HALF))),
    ("Sauna/Avanto", 4, A, (("Sauna", _HALF), ("Avanto", _HALF))),
    ("Castles", 3, V | K, (("Humble Castle", (1, 2, 2)), ("Crumbling Castle", (1, 1, 1)),
                           ("Small Castle", (1, 2, 2)), ("Haunted Castle", (1, 1, 1)),
                           ("Opulent Castle", (1, 2, 2)), ("Sprawling Castle", (1, 1, 1)),
                           ("Grand Castle", (1, 1, 1)), ("King's Castle", (1, 2, 2)))),
    ("Augurs", 3, A, tuple((x, _QUARTER) for x in ("Herb Gatherer", "Acolyte", "Sorceress", "Sibyl"))),
    ("Clashes", 3, A, tuple((x, _QUARTER) for x in ("Battle Plan", "Archer", "Warlord", "Territory"))),
    ("Forts", 3, A, tuple((x, _QUARTER) for x in ("Tent", "Garrison", "Hill Fort", "Stronghold"))),
    ("Odysseys", 3, A, tuple((x, _QUARTER) for x in ("Old Map", "Voyage", "Sunken Treasure", "Distant Shore"))),
    ("Townsfolk", 2, A, tuple((x, _QUARTER) for x in ("Town Crier", "Blacksmith", "Miller", "Elder"))),
    ("Wizards", 3, A, tuple((x, _QUARTER) for x in ("Student", "Conjurer", "Sorcerer", "Lich"))),
)
NUM_PILES = len(PILE_ROWS)
PILE_NAMES = tuple(r[0] for r in PILE_ROWS)
PILE_ID = {name: i for i, name in enumerate(PILE_NAMES)}
PILE_COST = tuple(r[1] for r in PILE_ROWS)
PILE_TYPES = tuple(r[2] for r in PILE_ROWS)
BASIC_PILES = tuple(range(7))
KINGDOM_PILES = tuple(range(7, NUM_PILES))
(COPPER_PILE, SILVER_PILE, GOLD_PILE, ESTATE_PILE, DUCHY_PILE, PROVINCE_PILE, CURSE_PILE) = BASIC_PILES
CASTLES_PILE = PILE_ID["Castles"]
GLADIATOR_PILE = PILE_ID["Gladiator/Fortune"]
ENCAMPMENT_PILE = PILE_ID["Encampment/Plunder"]
WIZARDS_PILE = PILE_ID["Wizards"]
ALLIES_PILES = tuple(PILE_ID[x] for x in ("Augurs", "Clashes", "Forts", "Odysseys", "Townsfolk", "Wizards"))
PILE_CARDS = tuple(tuple(CARD_ID[name] for name, _ in r[3]) for r in PILE_ROWS)
PILE_OF = [0] * NUM_CARDS  # the pile each card comes from
for _p, _cards in enumerate(PILE_CARDS):
    for _c in _cards:
        PILE_OF[_c] = _p
PILE_OF = tuple(PILE_OF)
RETURNS_TO_PILE = frozenset({ENCAMPMENT})  # cards that may go back on top of their pile
# Young Witch's Bane: a Kingdom pile whose randomizer costs $2 or $3 (pile-level cost, rule 5).
BANE_CANDIDATES = tuple(p for p in KINGDOM_PILES if 2 <= PILE_COST[p] <= 3)


def pile_setup(pile: int, num_players: int) -> list[int]:
    """The pile's cards at setup, top first (cheapest on top, pairs of Castles kept together)."""
    column = min(num_players, 4) - 2
    return [CARD_ID[name] for name, counts in PILE_ROWS[pile][3] for _ in range(counts[column])]


def card_coin_limit_ok(card: int, coins: int, debt: int = 0) -> bool:
    """'Costing up to $coins (and `debt` Debt)': a card with more Debt than allowed never qualifies."""
    return COST[card] <= coins and DEBT[card] <= debt


# Kingdom presets (rules file section 3).
PRESETS = {
    "T1-A": ("Encampment/Plunder", "Patrician/Emporium", "Settlers/Bustling Village", "Catapult/Rocks", "Cellar",
             "Village", "Smithy", "Militia", "Market", "Laboratory"),
    "T1-B": ("Gladiator/Fortune", "Sauna/Avanto", "Chapel", "Moat", "Workshop", "Remodel", "Festival", "Witch",
             "Smithy", "Village"),
    "T2": ("Encampment/Plunder", "Patrician/Emporium", "Settlers/Bustling Village", "Catapult/Rocks", "Cellar",
           "Village", "Smithy", "Militia", "Market", "Castles"),
    "T3": ("Townsfolk", "Forts", "Odysseys", "Clashes", "Wizards", "Moat", "Village", "Smithy", "Market", "Witch"),
}

# The simple Allies (rules file section 4), dealt only when a Liaison (Student) is in the Kingdom.
ALLIES = ("Mountain Folk", "League of Bankers", "Band of Nomads", "Peaceful Cult", "Cave Dwellers")
MOUNTAIN_FOLK, LEAGUE_OF_BANKERS, BAND_OF_NOMADS, PEACEFUL_CULT, CAVE_DWELLERS = range(len(ALLIES))

# What each card does, as implemented (rules file section 3 and the doc page's rulings): the text a
# player reads (`python -m card_envs.agents.play dominion_v0 --human`, ``help <card>``). Cost, types
# and VP come from CARD_ROWS; "rotate" a pile: its top card and the identical cards under it go to
# the bottom.
CARD_TEXT = {
    "Copper": "+$1.",
    "Silver": "+$2.",
    "Gold": "+$3.",
    "Estate": "1 VP.",
    "Duchy": "3 VP.",
    "Province": "6 VP. The game ends after a turn in which the Province pile is empty.",
    "Curse": "-1 VP.",
    "Cellar": "+1 Action. Discard any number of cards from your hand, then draw that many.",
    "Chapel": "Trash up to 4 cards from your hand.",
    "Moat": "+2 Cards. When another player plays an Attack, you may reveal this from your hand to be "
            "unaffected by it.",
    "Village": "+1 Card, +2 Actions.",
    "Workshop": "Gain a card costing up to $4.",
    "Smithy": "+3 Cards.",
    "Militia": "+$2. Each other player discards down to 3 cards in hand.",
    "Remodel": "Trash a card from your hand. Gain a card costing up to $2 more than it.",
    "Market": "+1 Card, +1 Action, +1 Buy, +$1.",
    "Laboratory": "+2 Cards, +1 Action.",
    "Festival": "+2 Actions, +1 Buy, +$2.",
    "Witch": "+2 Cards. Each other player gains a Curse.",
    "Young Witch": "+2 Cards. Discard 2 cards. Each other player may reveal a Bane card from their hand; if "
                   "they don't, they gain a Curse. (Setup: an 11th Kingdom pile, costing $2 or $3, is the Bane.)",
    "Encampment": "+2 Cards, +2 Actions. You may reveal a Gold or Plunder from your hand. If you don't, set "
                  "this aside, and return it to the top of its pile at the start of Clean-up.",
    "Plunder": "+$2, +1 VP token.",
    "Patrician": "+1 Card, +1 Action. Reveal the top card of your deck. If it costs $5 or more, put it into "
                 "your hand.",
    "Emporium": "+1 Card, +1 Action, +$1. When you gain this, if you have at least 5 Action cards in play, "
                "+2 VP tokens.",
    "Settlers": "+1 Card, +1 Action. You may put a Copper from your discard pile into your hand.",
    "Bustling Village": "+1 Card, +3 Actions. You may put a Settlers from your discard pile into your hand.",
    "Catapult": "+$1. Trash a card from your hand. If it costs $3 or more, each other player gains a Curse. "
                "If it's a Treasure, each other player discards down to 3 cards in hand.",
    "Rocks": "+$1. When you gain or trash this, gain a Silver: onto your deck during your Buy phase, else "
             "into your hand.",
    "Gladiator": "+$2. Reveal a card from your hand. The player to your left may reveal a copy of it from "
                 "their hand. If they don't, +$1 and trash a Gladiator from the top of its Supply pile.",
    "Fortune": "+1 Buy. Double your $, once per turn (a second Fortune played does not double it "
               "again). When you gain this, gain a Gold per Gladiator you have in play. (Debt: you cannot "
               "buy while you owe any; Debt is repaid with $ automatically.)",
    "Sauna": "+1 Card, +1 Action. You may play an Avanto from your hand. This turn, each Silver you play "
             "lets you trash a card from your hand (one per Sauna played).",
    "Avanto": "+3 Cards. You may play a Sauna from your hand.",
    "Humble Castle": "+$1. Worth 1 VP per Castle you have.",
    "Crumbling Castle": "1 VP. When you gain or trash this, +1 VP token and gain a Silver.",
    "Small Castle": "2 VP. Trash this or a Castle from your hand. If you do, gain a Castle (the top of the "
                    "Castles pile).",
    "Haunted Castle": "2 VP. When you gain this during your turn, gain a Gold, and each other player with 5 "
                      "or more cards in hand puts 2 cards from their hand onto their deck.",
    "Opulent Castle": "3 VP. Discard any number of Victory cards from your hand for +$2 each.",
    "Sprawling Castle": "4 VP. When you gain this, gain a Duchy or 3 Estates.",
    "Grand Castle": "5 VP. When you gain this, reveal your hand: +1 VP token per Victory card in your hand "
                    "and per Victory card you have in play.",
    "King's Castle": "Worth 2 VP per Castle you have.",
    "Herb Gatherer": "+1 Buy. Put your deck into your discard pile. You may play a Treasure from it. You may "
                     "rotate the Augurs.",
    "Acolyte": "You may trash an Action or Victory card from your hand to gain a Gold. You may trash this "
               "to gain an Augur.",
    "Sorceress": "+1 Action. Name a card. Reveal the top card of your deck and put it into your hand. If "
                 "it's the named card, each other player gains a Curse.",
    "Sibyl": "+4 Cards, +1 Action. Put a card from your hand onto your deck, and another on the bottom of "
             "your deck.",
    "Battle Plan": "+1 Card, +1 Action. You may reveal an Attack card from your hand for +1 Card. You may "
                   "rotate any Supply pile.",
    "Archer": "+$2. Each other player with 5 or more cards in hand reveals all but one of them; you choose "
              "one of the revealed cards for them to discard.",
    "Warlord": "+1 Action. At the start of your next turn, +2 Cards. Until then, other players can't play "
               "an Action card from their hand if they have 2 or more copies of it in play.",
    "Territory": "Worth 1 VP per differently named Victory card you have. When you gain this, gain a Gold "
                 "per empty Supply pile.",
    "Tent": "+$2. You may rotate the Forts. When you discard this from play, you may put it onto your deck.",
    "Garrison": "+$2. This turn, when you gain a card, add a token here. At the start of your next turn, "
                "remove them for +1 Card each.",
    "Hill Fort": "Gain a card costing up to $4. Choose one: put it into your hand; or +1 Card and +1 Action.",
    "Stronghold": "2 VP. Choose one: +$3; or at the start of your next turn, +3 Cards.",
    "Old Map": "+1 Card, +1 Action. Discard a card. +1 Card. You may rotate the Odysseys.",
    "Voyage": "+1 Action. If the previous turn wasn't yours, take an extra turn after this one, during "
              "which you can play only 3 cards from your hand.",
    "Sunken Treasure": "Gain an Action card you don't have a copy of in play. (It makes no $.)",
    "Distant Shore": "2 VP. +2 Cards, +1 Action. Gain an Estate.",
    "Town Crier": "Choose one: +$2; or gain a Silver; or +1 Card and +1 Action. You may rotate the "
                  "Townsfolk.",
    "Blacksmith": "Choose one: draw until you have 6 cards in hand; or +2 Cards; or +1 Card and +1 Action.",
    "Miller": "+1 Action. Look at the top 4 cards of your deck. Put one into your hand and discard the rest.",
    "Elder": "+$2. You may play an Action card from your hand. If it gives you a choice (\"choose one\"), "
             "you may choose an extra, different option.",
    "Student": "+1 Action. You may rotate the Wizards. Trash a card from your hand. If it's a Treasure, "
               "+1 Favor, and put this onto your deck. (Liaison: with Wizards in the Supply, one Ally is "
               "dealt and each player starts with 1 Favor.)",
    "Conjurer": "Gain a card costing up to $4. At the start of your next turn, put this into your hand.",
    "Sorcerer": "+1 Card, +1 Action. Each other player names a card, then reveals the top card of their "
                "deck. If wrong, they gain a Curse.",
    "Lich": "+6 Cards, +2 Actions. Skip a turn. When you trash this, discard it and gain a cheaper card "
            "from the trash.",
}
ALLY_TEXT = {
    "Mountain Folk": "At the start of your turn, you may spend 5 Favors for +3 Cards.",
    "League of Bankers": "At the start of your Buy phase, +$1 per 4 Favors you have.",
    "Band of Nomads": "When you gain a card costing $3 or more in your turn, you may spend a Favor for +1 "
                      "Card, or +1 Action, or +1 Buy.",
    "Peaceful Cult": "At the start of your Buy phase, you may spend any number of Favors to trash that many "
                     "cards from your hand.",
    "Cave Dwellers": "At the start of your turn, you may spend a Favor to discard a card and then draw a "
                     "card. Repeat as desired.",
}
