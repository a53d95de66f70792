"""Card effects (what a played, gained or trashed card does) and the pending decisions they ask.

A played card gives its vanilla bonuses (cards.py) and then runs its entry of `SPECIAL`. Effects
never call an agent back: a choice is pushed as an ``ask`` task (a pending decision owned by any
seat) on the state's task stack, and decisions.py resumes the effect when the owner answers.
Gain and trash triggers are tasks too (``on_gain`` / ``on_trash``), so they resolve in order with
everything else. Every task is a dict with the same keys (op, kind, p, card, lo, hi, x):
JSON-ready, cloned by copying.
"""

from __future__ import annotations

from card_envs.games.dominion.cards import (
    CONJURER, COST, CURSE_PILE, ESTATE_PILE, GARRISON, GLADIATOR, GLADIATOR_PILE, GOLD_PILE, IS_ACTION, IS_VICTORY,
    LICH, NUM_CARDS, NUM_PILES, PILE_ID, SILVER_PILE, VOYAGE, WARLORD)

DONE, PLAY_ALL = 0, 1
CARD0 = 2
PILE0 = CARD0 + NUM_CARDS
OPTION0 = PILE0 + NUM_PILES
NUM_OPTIONS = 4
NUM_ACTIONS = OPTION0 + NUM_OPTIONS

# A yes/no question is asked whatever the owner holds (DONE is always an answer), so being asked
# reveals nothing hidden; decisions whose existence depends only on public facts (hand sizes, the
# Supply) may lapse when they have no answer.
# Pending decisions, in the observation's one-hot order. The first three are the turn's phases.
DECISIONS = ("action", "treasure", "buy", "cellar", "chapel", "moat", "workshop", "discard_down", "remodel_trash",
             "remodel_gain", "yw_discard", "bane", "encampment", "settlers", "bustling", "catapult", "gladiator",
             "gladiator_copy", "sauna_avanto", "avanto_sauna", "sauna_trash", "small_castle", "haunted", "opulent",
             "sprawling",
             # tier 3: the Allies piles, Favors and the Allies
             "rotate", "rotate_any", "herb_gatherer", "acolyte", "acolyte_self", "sorceress", "sibyl_top",
             "sibyl_bottom", "battle_plan", "archer_hide", "archer_pick", "tent", "hill_fort", "mode", "old_map",
             "sunken_treasure", "student", "conjurer", "sorcerer", "lich", "elder", "miller", "mountain_folk",
             "band_of_nomads", "peaceful_cult", "cave_dwellers")
DECISION_INDEX = {k: i for i, k in enumerate(DECISIONS)}
# Decisions that pick cards from the owner's hand one at a time: lo/hi = picks still required/allowed.
PICK_KINDS = frozenset({"cellar", "chapel", "discard_down", "remodel_trash", "yw_discard", "catapult", "gladiator",
                        "sauna_trash", "haunted", "opulent", "acolyte", "sibyl_top", "sibyl_bottom", "archer_hide",
                        "old_map", "student", "peaceful_cult", "cave_dwellers"})
TASK_OPS = ("ask", "resolve", "on_gain", "on_trash", "play_all", "yw_victim", "cleanup")
# Modal cards: how many options their "choose one" offers (option k = OPTION0 + k, in the card's order).
MODES = {"Town Crier": 3, "Blacksmith": 3, "Hill Fort": 2, "Stronghold": 2}
AUGURS, CLASHES, FORTS, ODYSSEYS, TOWNSFOLK, WIZARDS = (
    PILE_ID[x] for x in ("Augurs", "Clashes", "Forts", "Odysseys", "Townsfolk", "Wizards"))


def task(op: str, p: int, card: int = -1, kind: str = "", lo: int = 0, hi: int = 0, x: int = 0) -> dict:
    return {"op": op, "kind": kind, "p": p, "card": card, "lo": lo, "hi": hi, "x": x}


def ask(kind: str, p: int, card: int = -1, lo: int = 0, hi: int = 0, x: int = 0) -> dict:
    return {"op": "ask", "kind": kind, "p": p, "card": card, "lo": lo, "hi": hi, "x": x}


def others(s, p: int) -> list[int]:
    """The other seats in turn order from p's left."""
    n = s.n
    return [(p + k) % n for k in range(1, n)]


# ----- on-play specials ----------------------------------------------------------------------
def _cellar(s, p, c):
    if s.hand_size(p):
        s.push(ask("cellar", p, c, 0, s.hand_size(p)))


def _chapel(s, p, c):
    if s.hand_size(p):
        s.push(ask("chapel", p, c, 0, 4))


def _workshop(s, p, c):
    s.push(ask("workshop", p, c, x=4))


def _militia(s, p, c):
    for v in reversed(others(s, p)):  # pushed last-first: the left neighbour decides first
        if not s.immune[v] and s.hand_size(v) > 3:
            s.push(ask("discard_down", v, c, s.hand_size(v) - 3, s.hand_size(v) - 3))


def _remodel(s, p, c):
    if s.hand_size(p):
        s.push(ask("remodel_trash", p, c, 1, 1))


def _witch(s, p, c):
    for v in others(s, p):
        if not s.immune[v]:
            s.gain(v, CURSE_PILE)


def _young_witch(s, p, c):
    for v in reversed(others(s, p)):
        if not s.immune[v]:
            s.push(task("yw_victim", v, c, x=p))
    k = min(2, s.hand_size(p))
    if k:
        s.push(ask("yw_discard", p, c, k, k))


def _encampment(s, p, c):
    s.push(ask("encampment", p, c))  # asked even without Gold or Plunder: the question reveals nothing


def _patrician(s, p, c):
    top = s.reveal_top(p)
    if top >= 0 and COST[top] >= 5:
        s.top_to_hand(p)


def _settlers(s, p, c):
    s.push(ask("settlers", p, c))


def _bustling(s, p, c):
    s.push(ask("bustling", p, c))


def _catapult(s, p, c):
    if s.hand_size(p):
        s.push(ask("catapult", p, c, 1, 1))


def _gladiator(s, p, c):
    if s.hand_size(p):
        s.push(ask("gladiator", p, c, 1, 1))
    else:  # nothing revealed: the neighbour cannot match it
        gladiator_bonus(s)


def gladiator_bonus(s):
    s.coins += 1
    pile = s.piles[GLADIATOR_PILE]
    if pile and pile[-1] == GLADIATOR:  # only a Gladiator on top is trashed (split-pile rule 1)
        s.trash_from_supply(GLADIATOR_PILE)


def _fortune(s, p, c):
    if not s.fortune_used:
        s.fortune_used = True
        s.coins *= 2


def _silver(s, p, c):
    if s.saunas and s.hand_size(p):
        s.push(ask("sauna_trash", p, c, 0, s.saunas))


def _sauna(s, p, c):
    s.saunas += 1
    s.push(ask("sauna_avanto", p, c))


def _avanto(s, p, c):
    s.push(ask("avanto_sauna", p, c))


def _small_castle(s, p, c):
    s.push(ask("small_castle", p, c))


def _opulent(s, p, c):
    s.push(ask("opulent", p, c, 0, s.hand_size(p)))


# ----- tier 3: the Allies piles -------------------------------------------------------------
def _rotate(pile):
    def ask_rotate(s, p, c):
        s.push(ask("rotate", p, c, x=pile))
    return ask_rotate


def _herb_gatherer(s, p, c):
    deck = s.decks[p]
    if deck:  # the deck goes onto the discard pile as it lies: its top card ends on top
        s.discards[p].extend(deck)
        s.decks[p], s.deck_known[p] = [], []
    s.push(ask("rotate", p, c, x=AUGURS))
    s.push(ask("herb_gatherer", p, c))


def _acolyte(s, p, c):
    s.push(ask("acolyte", p, c, 0, 1))


def _sorceress(s, p, c):
    s.push(ask("sorceress", p, c))


def _sibyl(s, p, c):
    s.push(ask("sibyl_bottom", p, c, 1, 1))
    s.push(ask("sibyl_top", p, c, 1, 1))


def _battle_plan(s, p, c):
    s.push(ask("rotate_any", p, c))
    s.push(ask("battle_plan", p, c))


def _archer(s, p, c):
    for v in reversed(others(s, p)):
        if not s.immune[v] and s.hand_size(v) >= 5:
            s.push(ask("archer_hide", v, c, 1, 1, x=p))


def _warlord(s, p, c):
    mask = sum(1 << v for v in range(s.n) if s.immune[v])
    s.durations[p].append([WARLORD, mask])


def _tent(s, p, c):
    s.push(ask("rotate", p, c, x=FORTS))


def _garrison(s, p, c):
    s.durations[p].append([GARRISON, 0])


def _modal(s, p, c, lo=0):
    """A "choose one" (Elder: one extra, different option when Elder plays this card)."""
    s.push(ask("mode", p, c, lo, 2 if s.elder_card == c else 1, 0))


def _town_crier(s, p, c):
    s.push(ask("rotate", p, c, x=TOWNSFOLK))
    _modal(s, p, c)


def _hill_fort(s, p, c):
    s.push(ask("hill_fort", p, c, hi=2 if s.elder_card == c else 1, x=4))


def _old_map(s, p, c):
    s.push(ask("rotate", p, c, x=ODYSSEYS))
    s.push(ask("old_map", p, c, 1, 1))


def _voyage(s, p, c):
    # "If the previous turn wasn't yours" (and, 2023 errata, not a second Voyage this turn).
    if s.prev_turn != p and not s.extra_turn and not any(e[0] == VOYAGE for e in s.durations[p]):
        s.durations[p].append([VOYAGE, 0])


def _sunken_treasure(s, p, c):
    s.push(ask("sunken_treasure", p, c))


def _distant_shore(s, p, c):
    s.gain(p, ESTATE_PILE)


def _miller(s, p, c):
    k = s.fill_deck(p, 4)
    if k:
        flags = s.deck_known[p]
        for i in range(len(flags) - k, len(flags)):
            flags[i] = max(flags[i], 1)
        s.push(ask("miller", p, c, x=k))


def _elder(s, p, c):
    s.push(ask("elder", p, c))


def _student(s, p, c):
    s.push(ask("student", p, c, 1, 1))
    s.push(ask("rotate", p, c, x=WIZARDS))


def _conjurer(s, p, c):
    s.push(ask("conjurer", p, c, x=4))
    s.durations[p].append([CONJURER, 0])


def _sorcerer(s, p, c):
    for v in reversed(others(s, p)):
        if not s.immune[v]:
            s.push(ask("sorcerer", v, c))


def _lich(s, p, c):
    s.skips[p] += 1


SPECIAL = {"Cellar": _cellar, "Chapel": _chapel, "Workshop": _workshop, "Militia": _militia, "Remodel": _remodel,
           "Witch": _witch, "Young Witch": _young_witch, "Encampment": _encampment, "Patrician": _patrician,
           "Settlers": _settlers, "Bustling Village": _bustling, "Catapult": _catapult, "Gladiator": _gladiator,
           "Fortune": _fortune, "Silver": _silver, "Sauna": _sauna, "Avanto": _avanto,
           "Small Castle": _small_castle, "Opulent Castle": _opulent,
           "Herb Gatherer": _herb_gatherer, "Acolyte": _acolyte, "Sorceress": _sorceress, "Sibyl": _sibyl,
           "Battle Plan": _battle_plan, "Archer": _archer, "Warlord": _warlord, "Tent": _tent, "Garrison": _garrison,
           "Hill Fort": _hill_fort, "Stronghold": _modal, "Old Map": _old_map, "Voyage": _voyage,
           "Sunken Treasure": _sunken_treasure, "Distant Shore": _distant_shore, "Town Crier": _town_crier,
           "Blacksmith": _modal, "Miller": _miller, "Elder": _elder, "Student": _student, "Conjurer": _conjurer,
           "Sorcerer": _sorcerer, "Lich": _lich}


# ----- gain and trash triggers (card-level) --------------------------------------------------
def _rocks_silver(s, p, c):
    """Rocks, gained or trashed: a Silver onto your deck in your Buy phase, else into your hand. The
    Buy phase is both of its steps, playing Treasures (phase 1: a Rocks trashed by Sauna or
    Peaceful Cult) and buying (phase 2)."""
    s.gain(p, SILVER_PILE, "deck" if (s.phase in (1, 2) and s.turn_player == p) else "hand")


def _emporium_gain(s, p, c):
    if sum(1 for x in s.in_play[p] if IS_ACTION[x]) >= 5:
        s.vp[p] += 2


def _fortune_gain(s, p, c):
    for _ in range(s.in_play[p].count(GLADIATOR)):
        s.gain(p, GOLD_PILE)


def _crumbling(s, p, c):
    s.vp[p] += 1
    s.gain(p, SILVER_PILE)


def _haunted_gain(s, p, c):
    if p != s.turn_player:  # "when you gain this during your turn"
        return
    s.gain(p, GOLD_PILE)
    for v in reversed(others(s, p)):
        if s.hand_size(v) >= 5:
            s.push(ask("haunted", v, c, 2, 2))


def _sprawling_gain(s, p, c):
    s.push(ask("sprawling", p, c))


def _grand_gain(s, p, c):
    s.reveal_hand(p)
    hand = s.hands[p]
    s.vp[p] += sum(hand[v] for v in range(NUM_CARDS) if IS_VICTORY[v])
    s.vp[p] += sum(1 for x in s.in_play[p] if IS_VICTORY[x])


def _territory_gain(s, p, c):
    for _ in range(s.empty_piles()):
        s.gain(p, GOLD_PILE)


def _lich_trash(s, p, c):
    """Lich, trashed: discard it (from the trash) and gain a cheaper card from the trash."""
    if s.trash[LICH]:
        s.trash[LICH] -= 1
        s.owned[p][LICH] += 1
        s.discards[p].append(LICH)
        s._supply_obs = s._owned_obs[p] = None
    s.push(ask("lich", p, LICH, 1, 1))


ON_GAIN = {"Rocks": _rocks_silver, "Emporium": _emporium_gain, "Fortune": _fortune_gain,
           "Crumbling Castle": _crumbling, "Haunted Castle": _haunted_gain, "Sprawling Castle": _sprawling_gain,
           "Grand Castle": _grand_gain, "Territory": _territory_gain}
ON_TRASH = {"Rocks": _rocks_silver, "Crumbling Castle": _crumbling, "Lich": _lich_trash}


# ----- other tasks ---------------------------------------------------------------------------
def run_yw_victim(s, t):
    s.push(ask("bane", t["p"], t["card"]))  # DONE: no Bane revealed, gain a Curse


def run_play_all(s, t):
    """Play every Treasure in hand, one at a time (Fortunes last, so they double the most), then
    start buying."""
    p = t["p"]
    hand = s.hands[p]
    card = next((c for c in s.treasure_order if hand[c]), -1)
    if card < 0 or s.plays_left == 0:
        s._enter_buy()  # then buying starts
        return
    s.push(t)  # continue after whatever this Treasure asks (Sauna's trash)
    s.play_from_hand(p, card)
