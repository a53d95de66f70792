"""Illimat's cards, seasons and Luminaries, its decisions and action ids: the tables and small
helpers that every other module of the package reads (this one imports none of them)."""

from __future__ import annotations

from card_envs.core.cards import RANK, SUIT, card_name
from card_envs.core.text import show

# ----- cards, seasons, Luminaries -------------------------------------------------------------
NUM_CARDS = 65  # 5 suits x 13; the Stars (suit 4) are out of play in 1st-edition 2-3 player games
SUITS = "PSAW*"  # card names: rank (A = Fool, J = Knight, Q, K) + suit letter, e.g. "AS", "10W", "J*"
SPRING, SUMMER, AUTUMN, WINTER, STARS = range(5)  # a suit's season is its index (Stars: none)
SEASON_NAMES = ("spring", "summer", "autumn", "winter")
NUM_FIELDS = 4
RING = (SUMMER, AUTUMN, WINTER, SPRING)  # season of field f = RING[(f - summer_field) % 4]
RING_POS = tuple(RING.index(s) for s in range(4))
HAND_SIZE = 4
MAX_STOCKPILE = 14
MAX_VALUE = 28  # a harvest with the Union: two Fools as 14 each (a full harvest's value is never asked)
SUM_MASK = 0x3FFFFFFF  # field sums kept in the bitmasks: 0..29 (every value a card, a pair or a stockpile asks)
WIDE_SUM_MASK = (1 << 57) - 1  # with full_harvest=True: 0..56 (four Fools as 14 each)
FACE = tuple(RANK[c] in (1, 11, 12, 13) for c in range(NUM_CARDS))
IS_FOOL = tuple(RANK[c] == 1 for c in range(NUM_CARDS))
ACTIVE_VALUE = tuple(RANK[c] for c in range(NUM_CARDS))  # an active (stockpiled) Fool counts 1
PASSIVE_VALUE = tuple(14 if RANK[c] == 1 else RANK[c] for c in range(NUM_CARDS))  # a passive Fool: 14
HARVEST_VALUES = tuple((1, 14) if RANK[c] == 1 else (RANK[c],) for c in range(NUM_CARDS))
PAIR_VALUES = tuple(tuple(tuple(sorted({a + b for a in HARVEST_VALUES[c] for b in HARVEST_VALUES[d]}))
                          for d in range(NUM_CARDS)) for c in range(NUM_CARDS))

LUMINARIES = ("Maiden", "Changeling", "River", "Children", "Forest Queen", "Rake", "Union", "Newborn")
MAIDEN, CHANGELING, RIVER, CHILDREN, FOREST_QUEEN, RAKE, UNION, NEWBORN = range(8)
NUM_LUMINARIES = 8
NO_LUMINARY = -1

# What each Luminary does (the doc page's table: reveal, while face up, claim; "-": nothing), and
# what each season forbids: the text a player reads (``help <Luminary>``, ``help seasons``).
LUMINARY_TEXT = {  # name: (reveal, while face up, claim)
    "Maiden": ("-", "harvesting is allowed in Winter", "-"),
    "Changeling": ("-", "once per turn, before or after the play, swap a hand card with a loose card of her field",
                   "swap up to two hand cards with loose cards anywhere"),
    "River": ("her field gets 3 more cards (6)", "-", "Frostbit gives +2 instead of -2"),
    "Children": ("3 cards face down under her (hidden from all)", "-",
                 "they join the claimer's harvest pile, secretly"),
    "Forest Queen": ("her field becomes Summer", "her field is Summer; nothing rotates",
                     "choose any position of the Illimat"),
    "Rake": ("-", "each turn, sow one extra card into her field (any season), before or after the play",
             "each other player gives a Summer card from his harvest pile"),
    "Union": ("-", "a harvest in her field may play two hand cards as one of their total value", "-"),
    "Newborn": ("reveal the opposite field's Luminary (with its 3 cards; a random unused one if that was claimed)",
                "-", "-"),
}
SEASON_RULES = ("no stockpiling", "no restriction", "no sowing",
                "no harvesting, unless the Maiden is face up")  # in SEASON_NAMES order

# ----- decisions and actions ------------------------------------------------------------------
(TURN, FIELD, ACTION, PARTNER, VALUE, ITEMS, SEASON, RAKE_CARD, SWAP_GIVE, SWAP_TAKE, CLAIM_GIVE,
 CLAIM_TAKE, CLAIM_SEASON, OVER) = range(14)
DECISION_NAMES = ("turn", "field", "action", "partner", "value", "items", "season", "rake_card",
                  "swap_give", "swap_take", "claim_give", "claim_take", "claim_season", "game_over")
NUM_DECISIONS = 13  # OVER is not a decision
MID_MOVE = (FIELD, ACTION, PARTNER, VALUE, ITEMS, SWAP_TAKE, CLAIM_TAKE)  # a chosen card is pending

CARD0 = 0  # 0..64: card c
FIELD0 = NUM_CARDS  # 65..68: field f
SOW, HARVEST, STOCKPILE = 69, 70, 71
PLAY_NAMES = ("sow", "harvest", "stockpile")
VALUE0 = 71  # 72..99: value v = action - 71 (1..28)
SEASON0 = 100  # 100..103: season s (spring, summer, autumn, winter)
DONE, RAKE_SOW, SWAP = 104, 105, 106
NUM_ACTIONS = 107
SEASON_ACTIONS = tuple(range(SEASON0, SEASON0 + 4))


def cname(card: int) -> str:
    return card_name(card, SUITS)


def cnames(cards) -> list[str]:
    return [card_name(c, SUITS) for c in cards]


def describe_action(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {show(action)} is not in 0..{NUM_ACTIONS - 1}")
    if action < FIELD0:
        return f"card {cname(action)}"
    if action < SOW:
        return f"field {action - FIELD0}"
    if action <= STOCKPILE:
        return PLAY_NAMES[action - SOW]
    if action < SEASON0:
        return f"value {action - VALUE0}"
    if action < DONE:
        return f"season {SEASON_NAMES[action - SEASON0]}"
    return {DONE: "done", RAKE_SOW: "rake sow", SWAP: "changeling swap"}[action]


def full_totals(cards) -> tuple[int, ...]:
    """The values a full harvest of `cards` may take: their total, each Fool 1 or 14."""
    totals = {0}
    for c in cards:
        totals = {t + v for t in totals for v in HARVEST_VALUES[c]}
    return tuple(sorted(totals))


def face_seasons(cards) -> int:
    """Bitmask of the seasons the face cards among `cards` may give their field (a Stars face
    card: any)."""
    mask = 0
    for c in cards:
        if FACE[c]:
            mask |= 15 if SUIT[c] == STARS else 1 << SUIT[c]
    return mask


def season_of(field: int, summer: int) -> int:
    return RING[(field - summer) % 4]


def summer_for(field: int, season: int) -> int:
    """The Summer field that gives `field` the season `season`."""
    return (field - RING_POS[season]) % 4


# A stockpile is a tuple (key card, value, multiple?, cards sorted); a field's stockpiles are kept
# sorted by key.
Pile = tuple
