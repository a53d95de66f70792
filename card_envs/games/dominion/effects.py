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
    AVANTO, BUSTLING_VILLAGE, CASTLES_PILE, COPPER, COST, CURSE_PILE, DEBT, DUCHY_PILE, ENCAMPMENT, ESTATE_PILE,
    GLADIATOR, GLADIATOR_PILE, GOLD, GOLD_PILE, IS_ACTION, IS_CASTLE, IS_TREASURE, IS_VICTORY, MOAT, NUM_CARDS,
    NUM_PILES, PILE_CARDS, PLUNDER, SAUNA, SETTLERS, SILVER_PILE, SMALL_CASTLE, card_coin_limit_ok)

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
             "sprawling")
DECISION_INDEX = {k: i for i, k in enumerate(DECISIONS)}
# Decisions that pick cards from the owner's hand one at a time: lo/hi = picks still required/allowed.
PICK_KINDS = frozenset({"cellar", "chapel", "discard_down", "remodel_trash", "yw_discard", "catapult", "gladiator",
                        "sauna_trash", "haunted", "opulent"})
TASK_OPS = ("ask", "resolve", "on_gain", "on_trash", "play_all", "yw_victim")


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


SPECIAL = {"Cellar": _cellar, "Chapel": _chapel, "Workshop": _workshop, "Militia": _militia, "Remodel": _remodel,
           "Witch": _witch, "Young Witch": _young_witch, "Encampment": _encampment, "Patrician": _patrician,
           "Settlers": _settlers, "Bustling Village": _bustling, "Catapult": _catapult, "Gladiator": _gladiator,
           "Fortune": _fortune, "Silver": _silver, "Sauna": _sauna, "Avanto": _avanto,
           "Small Castle": _small_castle, "Opulent Castle": _opulent}


# ----- gain and trash triggers (card-level) --------------------------------------------------
def _rocks_silver(s, p, c):
    """Rocks, gained or trashed: a Silver onto your deck in your Buy phase, else into your hand."""
    s.gain(p, SILVER_PILE, "deck" if (s.phase == 2 and s.turn_player == p) else "hand")


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


ON_GAIN = {"Rocks": _rocks_silver, "Emporium": _emporium_gain, "Fortune": _fortune_gain,
           "Crumbling Castle": _crumbling, "Haunted Castle": _haunted_gain, "Sprawling Castle": _sprawling_gain,
           "Grand Castle": _grand_gain}
ON_TRASH = {"Rocks": _rocks_silver, "Crumbling Castle": _crumbling}


# ----- other tasks ---------------------------------------------------------------------------
def run_yw_victim(s, t):
    s.push(ask("bane", t["p"], t["card"]))  # DONE: no Bane revealed, gain a Curse


def run_play_all(s, t):
    """Play every Treasure in hand, one at a time (Fortunes last, so they double the most)."""
    p = t["p"]
    hand = s.hands[p]
    card = next((c for c in s.treasure_order if hand[c]), -1)
    if card < 0:
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
    def answers(s, t):
        return [DONE, CARD0 + card] if s.hands[t["p"]][card] else [DONE]
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


ANSWERS = {k: hand_answers for k in PICK_KINDS}
ANSWERS.update({"moat": _answers_moat, "bane": _answers_bane, "workshop": pile_answers,
                "remodel_gain": pile_answers, "encampment": _answers_encampment,
                "settlers": _answers_from_discard(COPPER), "bustling": _answers_from_discard(SETTLERS),
                "gladiator_copy": _answers_gladiator_copy, "sauna_avanto": _answers_card(AVANTO),
                "avanto_sauna": _answers_card(SAUNA), "small_castle": _answers_small_castle,
                "sprawling": _answers_sprawling})


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
    ONE_SHOT[kind](s, t, action)
    return False


def _finish_pick(s, t):
    if t["kind"] == "cellar":
        s.draw(t["p"], t["x"])


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


PICK = {"cellar": _pick_cellar, "chapel": _pick_trash, "discard_down": _pick_discard, "yw_discard": _pick_discard,
        "remodel_trash": _pick_remodel, "catapult": _pick_catapult, "gladiator": _pick_gladiator,
        "sauna_trash": _pick_trash, "haunted": _pick_haunted, "opulent": _pick_opulent}


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


ONE_SHOT = {"moat": _one_moat, "bane": _one_bane, "workshop": _one_gain_pile, "remodel_gain": _one_gain_pile,
            "encampment": _one_encampment, "settlers": _one_from_discard, "bustling": _one_from_discard,
            "gladiator_copy": _one_gladiator_copy, "sauna_avanto": _one_partner, "avanto_sauna": _one_partner,
            "small_castle": _one_small_castle, "sprawling": _one_sprawling}

# Which bonus card a "may take from discard" decision is about (for docs and rendering).
DISCARD_TARGET = {"settlers": COPPER, "bustling": SETTLERS}
_ = BUSTLING_VILLAGE
