"""Card effects and pending decisions.

A played card gives its vanilla bonuses (cards.py) and then runs its entry of `SPECIAL`. Effects
never call an agent back: a choice is pushed as an ``ask`` task (a pending decision owned by any
seat) on the state's task stack, and `ANSWER[kind]` resumes the effect when the owner answers.
Gain and trash triggers are tasks too (``on_gain`` / ``on_trash``), so they resolve in order with
everything else. Every task is a dict with the same keys (op, kind, p, card, lo, hi, x):
JSON-ready, cloned by copying.
"""

from __future__ import annotations

from card_envs.games.dominion.cards import (
    ACOLYTE, AVANTO, BUSTLING_VILLAGE, CASTLES_PILE, CONJURER, COPPER, COST, CURSE_PILE, DEBT, DUCHY_PILE,
    ENCAMPMENT, ESTATE_PILE, GARRISON, GLADIATOR, GLADIATOR_PILE, GOLD, GOLD_PILE, IS_ACTION, IS_ATTACK, IS_CASTLE,
    IS_TREASURE, IS_VICTORY, LICH, MOAT, NUM_CARDS, NUM_PILES, PILE_ID, PLUNDER, SAUNA,
    SETTLERS, SILVER_PILE, SMALL_CASTLE, STRONGHOLD, STUDENT, TENT, VOYAGE, WARLORD, card_coin_limit_ok)

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


# ----- decisions: legal answers and what an answer does ---------------------------------------
def hand_answers(s, t) -> list[int]:
    if t["hi"] <= 0:
        return []
    hand = s.hands[t["p"]]
    kind = t["kind"]
    if kind == "opulent":
        cards = [c for c in range(NUM_CARDS) if hand[c] and IS_VICTORY[c]]
    elif kind == "acolyte":
        cards = [c for c in range(NUM_CARDS) if hand[c] and (IS_ACTION[c] or IS_VICTORY[c])]
    else:
        cards = [c for c in range(NUM_CARDS) if hand[c]]
    out = [CARD0 + c for c in cards]
    if t["lo"] <= 0:
        out.insert(0, DONE)
    return out


def pile_answers(s, t) -> list[int]:
    coins, debt = t["x"], t["lo"]  # workshop: up to $4; remodel_gain: the trashed card's cost + $2
    return [PILE0 + p for p in s.supply if s.piles[p] and card_coin_limit_ok(s.piles[p][-1], coins, debt)]


def _answers_moat(s, t):
    return [DONE, CARD0 + MOAT] if s.hands[t["p"]][MOAT] else [DONE]


def _answers_bane(s, t):
    hand = s.hands[t["p"]]
    return [DONE] + [CARD0 + b for b in s.bane_cards() if hand[b]]


def _answers_card(card):
    def answers(s, t):  # playing a partner from hand: the Voyage limit and Warlord's lock apply
        return [DONE, CARD0 + card] if s.hands[t["p"]][card] and card in s.playable_actions(t["p"]) else [DONE]
    return answers


def _answers_encampment(s, t):
    hand = s.hands[t["p"]]
    return [DONE] + [CARD0 + c for c in (GOLD, PLUNDER) if hand[c]]


def _answers_from_discard(card):
    def answers(s, t):
        return [DONE, CARD0 + card] if card in s.discards[t["p"]] else [DONE]
    return answers


def _answers_gladiator_copy(s, t):
    return [DONE, CARD0 + t["x"]] if s.hands[t["p"]][t["x"]] else [DONE]


def _answers_small_castle(s, t):
    p = t["p"]
    out = [OPTION0] if SMALL_CASTLE in s.in_play[p] else []
    return out + [CARD0 + c for c in range(NUM_CARDS) if IS_CASTLE[c] and s.hands[p][c]]


def _answers_sprawling(s, t):
    return [OPTION0, OPTION0 + 1]


def _answers_yes(s, t):
    return [DONE, OPTION0]


def _answers_rotate(s, t):
    return [DONE, OPTION0] if s.piles[t["x"]] else []


def _answers_rotate_any(s, t):
    return [DONE] + [PILE0 + q for q in s.supply if s.piles[q]]


def _answers_herb(s, t):
    disc = s.discards[t["p"]]
    return [DONE] + [CARD0 + c for c in sorted(set(disc)) if IS_TREASURE[c]]


def _answers_acolyte_self(s, t):
    return [DONE, OPTION0] if ACOLYTE in s.in_play[t["p"]] else []


def _answers_name(s, t):
    return [CARD0 + c for c in s.game_cards()]


def _answers_battle_plan(s, t):
    hand = s.hands[t["p"]]
    return [DONE] + [CARD0 + c for c in range(NUM_CARDS) if hand[c] and IS_ATTACK[c]]


def _answers_archer_pick(s, t):
    known = s.known[t["x"]]
    return [CARD0 + c for c in range(NUM_CARDS) if known[c]]


def _answers_tent(s, t):
    return [DONE, CARD0 + TENT] if t["hi"] > 0 and TENT in s.in_play[t["p"]] else []


def _answers_mode(s, t):
    from card_envs.games.dominion.cards import CARD_NAMES
    k = MODES[CARD_NAMES[t["card"]]]
    out = [OPTION0 + i for i in range(k) if not (t["x"] >> i) & 1]
    return ([DONE] if t["x"] else []) + out


def _answers_sunken(s, t):
    play, piles = s.in_play[t["p"]], s.piles
    return [PILE0 + q for q in s.supply if piles[q] and IS_ACTION[piles[q][-1]] and piles[q][-1] not in play]


def _answers_lich(s, t):
    return [CARD0 + c for c in range(NUM_CARDS) if s.trash[c] and COST[c] < COST[LICH] and DEBT[c] <= DEBT[LICH]]


def _answers_elder(s, t):
    return [DONE] + [CARD0 + c for c in s.playable_actions(t["p"])]


def _answers_miller(s, t):
    deck = s.decks[t["p"]]
    return [CARD0 + c for c in sorted(set(deck[len(deck) - t["x"]:]))] if t["x"] else []


def _answers_nomads(s, t):
    return [DONE, OPTION0, OPTION0 + 1, OPTION0 + 2] if s.favors[t["p"]] else []


ANSWERS = {k: hand_answers for k in PICK_KINDS}
ANSWERS.update({"moat": _answers_moat, "bane": _answers_bane, "workshop": pile_answers,
                "remodel_gain": pile_answers, "encampment": _answers_encampment,
                "settlers": _answers_from_discard(COPPER), "bustling": _answers_from_discard(SETTLERS),
                "gladiator_copy": _answers_gladiator_copy, "sauna_avanto": _answers_card(AVANTO),
                "avanto_sauna": _answers_card(SAUNA), "small_castle": _answers_small_castle,
                "sprawling": _answers_sprawling,
                "rotate": _answers_rotate, "rotate_any": _answers_rotate_any, "herb_gatherer": _answers_herb,
                "acolyte_self": _answers_acolyte_self, "sorceress": _answers_name, "sorcerer": _answers_name,
                "battle_plan": _answers_battle_plan, "archer_pick": _answers_archer_pick, "tent": _answers_tent,
                "hill_fort": pile_answers, "conjurer": pile_answers, "mode": _answers_mode,
                "sunken_treasure": _answers_sunken, "lich": _answers_lich, "elder": _answers_elder,
                "miller": _answers_miller, "mountain_folk": _answers_yes, "band_of_nomads": _answers_nomads})


def answer(s, t, action: int) -> bool:
    """Carry out `action` for the ask `t` (the top task); returns True when `t` stays pending."""
    kind = t["kind"]
    if kind in PICK_KINDS:
        if action == DONE:
            _finish_pick(s, t)
            return False
        PICK[kind](s, t, action - CARD0)
        t["lo"] = max(0, t["lo"] - 1)
        t["hi"] -= 1
        if t["hi"] > 0 and hand_answers(s, t):
            return True
        _finish_pick(s, t)
        return False
    if kind == "mode":
        if action != DONE:
            t["x"] |= 1 << (action - OPTION0)
            t["hi"] -= 1
            if t["hi"] > 0 and len(_answers_mode(s, t)) > 1:
                return True
        _apply_modes(s, t)
        return False
    if kind == "tent":
        if action != DONE:
            s.from_play_to_deck(t["p"], TENT)
            t["hi"] -= 1
            return bool(_answers_tent(s, t))
        return False
    ONE_SHOT[kind](s, t, action)
    return False


def _finish_pick(s, t):
    kind = t["kind"]
    if kind == "cellar":
        s.draw(t["p"], t["x"])
    elif kind == "old_map":
        s.draw(t["p"], 1)
    elif kind == "acolyte":
        s.push(ask("acolyte_self", t["p"], t["card"]))


def _pick_cellar(s, t, c):
    s.discard_from_hand(t["p"], c)
    t["x"] += 1


def _pick_discard(s, t, c):
    s.discard_from_hand(t["p"], c)


def _pick_trash(s, t, c):
    s.trash_from_hand(t["p"], c)


def _pick_remodel(s, t, c):
    s.trash_from_hand(t["p"], c)
    s.push(ask("remodel_gain", t["p"], t["card"], lo=DEBT[c], x=COST[c] + 2))


def _pick_catapult(s, t, c):
    p = t["p"]
    s.trash_from_hand(p, c)
    victims = [v for v in others(s, p) if not s.immune[v]]
    if COST[c] >= 3:
        for v in victims:
            s.gain(v, CURSE_PILE)
    if IS_TREASURE[c]:
        for v in reversed(victims):
            if s.hand_size(v) > 3:
                s.push(ask("discard_down", v, t["card"], s.hand_size(v) - 3, s.hand_size(v) - 3))


def _pick_gladiator(s, t, c):
    p = t["p"]
    s.reveal_in_hand(p, c)
    s.push(ask("gladiator_copy", (p + 1) % s.n, t["card"], x=c))  # asked even without a copy


def _pick_haunted(s, t, c):
    s.hand_to_deck(t["p"], c)


def _pick_opulent(s, t, c):
    s.discard_from_hand(t["p"], c)
    s.coins += 2


def _pick_acolyte(s, t, c):
    s.trash_from_hand(t["p"], c)
    s.gain(t["p"], GOLD_PILE)


def _pick_sibyl_top(s, t, c):
    s.hand_to_deck(t["p"], c)


def _pick_sibyl_bottom(s, t, c):
    s.to_deck_bottom(t["p"], c)


def _pick_archer_hide(s, t, c):
    """The victim keeps one card hidden and reveals the rest; the attacker picks the discard."""
    v = t["p"]
    known = list(s.hands[v])
    known[c] -= 1
    s.known[v] = known
    s.push(ask("archer_pick", t["x"], t["card"], x=v))


def _pick_student(s, t, c):
    p = t["p"]
    s.trash_from_hand(p, c)
    if IS_TREASURE[c]:
        s.favors[p] += 1
        if STUDENT in s.in_play[p]:
            s.from_play_to_deck(p, STUDENT)


def _pick_peaceful_cult(s, t, c):
    s.favors[t["p"]] -= 1
    s.trash_from_hand(t["p"], c)


def _pick_cave_dwellers(s, t, c):
    p = t["p"]
    s.favors[p] -= 1
    s.discard_from_hand(p, c)
    s.draw(p, 1)


PICK = {"cellar": _pick_cellar, "chapel": _pick_trash, "discard_down": _pick_discard, "yw_discard": _pick_discard,
        "remodel_trash": _pick_remodel, "catapult": _pick_catapult, "gladiator": _pick_gladiator,
        "sauna_trash": _pick_trash, "haunted": _pick_haunted, "opulent": _pick_opulent,
        "acolyte": _pick_acolyte, "sibyl_top": _pick_sibyl_top, "sibyl_bottom": _pick_sibyl_bottom,
        "archer_hide": _pick_archer_hide, "old_map": _pick_discard, "student": _pick_student,
        "peaceful_cult": _pick_peaceful_cult, "cave_dwellers": _pick_cave_dwellers}


def _one_moat(s, t, a):
    if a != DONE:
        s.reveal_in_hand(t["p"], MOAT)
        s.immune[t["p"]] = True


def _one_bane(s, t, a):
    if a == DONE:
        s.gain(t["p"], CURSE_PILE)
    else:
        s.reveal_in_hand(t["p"], a - CARD0)


def _one_gain_pile(s, t, a):
    s.gain(t["p"], a - PILE0)


def _one_encampment(s, t, a):
    if a == DONE:
        s.set_aside_from_play(t["p"], ENCAMPMENT)
    else:
        s.reveal_in_hand(t["p"], a - CARD0)


def _one_from_discard(s, t, a):
    if a != DONE:
        s.discard_to_hand(t["p"], a - CARD0)


def _one_gladiator_copy(s, t, a):
    if a == DONE:
        gladiator_bonus(s)
    else:
        s.reveal_in_hand(t["p"], a - CARD0)


def _one_partner(s, t, a):
    if a != DONE:
        s.play_from_hand(t["p"], a - CARD0)


def _one_small_castle(s, t, a):
    p = t["p"]
    if a == OPTION0:
        s.trash_from_play(p, SMALL_CASTLE)
    else:
        s.trash_from_hand(p, a - CARD0)
    s.gain(p, CASTLES_PILE)


def _one_sprawling(s, t, a):
    p = t["p"]
    if a == OPTION0:
        s.gain(p, DUCHY_PILE)
    else:
        for _ in range(3):
            s.gain(p, ESTATE_PILE)


def _apply_modes(s, t):
    """The chosen options, in the card's order."""
    from card_envs.games.dominion.cards import CARD_NAMES
    p, x, name = t["p"], t["x"], CARD_NAMES[t["card"]]
    for i in range(MODES[name]):
        if not (x >> i) & 1:
            continue
        if name == "Town Crier":
            if i == 0:
                s.coins += 2
            elif i == 1:
                s.gain(p, SILVER_PILE)
            else:
                s.draw(p, 1)
                s.actions += 1
        elif name == "Blacksmith":
            if i == 0:
                s.draw(p, max(0, 6 - s.hand_size(p)))
            elif i == 1:
                s.draw(p, 2)
            else:
                s.draw(p, 1)
                s.actions += 1
        elif name == "Hill Fort":
            if i == 0:
                gained = t["lo"] - 1  # the card Hill Fort gained, if it is still on the discard pile
                disc = s.discards[p]
                if gained >= 0 and gained in disc:
                    del disc[len(disc) - 1 - disc[::-1].index(gained)]
                    s._to_hand(p, gained, True)
            else:
                s.draw(p, 1)
                s.actions += 1
        elif name == "Stronghold":
            if i == 0:
                s.coins += 3
            elif STRONGHOLD in s.in_play[p]:
                s.durations[p].append([STRONGHOLD, 0])


def _one_rotate(s, t, a):
    if a == OPTION0:
        s.rotate_pile(t["x"])


def _one_rotate_any(s, t, a):
    if a != DONE:
        s.rotate_pile(a - PILE0)


def _one_herb(s, t, a):
    if a != DONE:  # a Treasure played from the discard pile (not from hand: no Voyage limit)
        p, c = t["p"], a - CARD0
        s.discards[p].remove(c)
        s.in_play[p].append(c)
        s.resolve(p, c)


def _one_acolyte_self(s, t, a):
    if a == OPTION0:
        s.trash_from_play(t["p"], ACOLYTE)
        s.gain(t["p"], AUGURS)


def _one_sorceress(s, t, a):
    p, named = t["p"], a - CARD0
    top = s.reveal_top(p)
    if top < 0:
        return
    s.top_to_hand(p)
    if top == named:
        for v in others(s, p):
            if not s.immune[v]:
                s.gain(v, CURSE_PILE)


def _one_sorcerer(s, t, a):
    v, named = t["p"], a - CARD0
    if s.reveal_top(v) != named:  # nothing to reveal is not the named card either
        s.gain(v, CURSE_PILE)


def _one_battle_plan(s, t, a):
    if a != DONE:
        s.reveal_in_hand(t["p"], a - CARD0)
        s.draw(t["p"], 1)


def _one_archer_pick(s, t, a):
    s.discard_from_hand(t["x"], a - CARD0)


def _one_hill_fort(s, t, a):
    c = s.gain(t["p"], a - PILE0)
    s.push(ask("mode", t["p"], t["card"], c + 1, t["hi"] or 1, 0))


def _one_sunken(s, t, a):
    s.gain(t["p"], a - PILE0)


def _one_lich(s, t, a):
    s.gain_from_trash(t["p"], a - CARD0)


def _one_elder(s, t, a):
    if a != DONE:
        c = a - CARD0
        s.elder_card = c
        s.play_from_hand(t["p"], c)
        s.elder_card = -1


def _one_miller(s, t, a):
    p, c, k = t["p"], a - CARD0, t["x"]
    deck, flags = s.decks[p], s.deck_known[p]
    top = deck[len(deck) - k:]
    i = len(deck) - k + len(top) - 1 - top[::-1].index(c)
    del deck[i]
    del flags[i]
    s._to_hand(p, c, False)
    for _ in range(k - 1):  # the rest are discarded, the deepest last (it ends on top)
        s.discards[p].append(deck.pop())
        flags.pop()


def _one_mountain_folk(s, t, a):
    if a == OPTION0:
        s.favors[t["p"]] -= 5
        s.draw(t["p"], 3)


def _one_nomads(s, t, a):
    if a == DONE:
        return
    s.favors[t["p"]] -= 1
    if a == OPTION0:
        s.draw(t["p"], 1)
    elif a == OPTION0 + 1:
        s.actions += 1
    else:
        s.buys += 1


ONE_SHOT = {"moat": _one_moat, "bane": _one_bane, "workshop": _one_gain_pile, "remodel_gain": _one_gain_pile,
            "encampment": _one_encampment, "settlers": _one_from_discard, "bustling": _one_from_discard,
            "gladiator_copy": _one_gladiator_copy, "sauna_avanto": _one_partner, "avanto_sauna": _one_partner,
            "small_castle": _one_small_castle, "sprawling": _one_sprawling,
            "rotate": _one_rotate, "rotate_any": _one_rotate_any, "herb_gatherer": _one_herb,
            "acolyte_self": _one_acolyte_self, "sorceress": _one_sorceress, "sorcerer": _one_sorcerer,
            "battle_plan": _one_battle_plan, "archer_pick": _one_archer_pick, "hill_fort": _one_hill_fort,
            "conjurer": _one_gain_pile, "sunken_treasure": _one_sunken, "lich": _one_lich, "elder": _one_elder,
            "miller": _one_miller, "mountain_folk": _one_mountain_folk, "band_of_nomads": _one_nomads}

# Which bonus card a "may take from discard" decision is about (for docs and rendering).
DISCARD_TARGET = {"settlers": COPPER, "bustling": SETTLERS}
_ = BUSTLING_VILLAGE
