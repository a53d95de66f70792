"""Pending decisions: the legal answers to each kind (`ANSWERS`) and what an answer does
(`answer`: a hand pick by `PICK`, any other answer by `ONE_SHOT`). The kinds and the tasks that
ask them are in effects.py."""

from __future__ import annotations

from card_envs.games.dominion.cards import (
    ACOLYTE, AVANTO, BUSTLING_VILLAGE, CARD_NAMES, CASTLES_PILE, COPPER, COST, CURSE_PILE, DEBT, DUCHY_PILE,
    ENCAMPMENT, ESTATE_PILE, GOLD, GOLD_PILE, IS_ACTION, IS_ATTACK, IS_CASTLE, IS_TREASURE, IS_VICTORY, LICH, MOAT,
    NUM_CARDS, PLUNDER, SAUNA, SETTLERS, SILVER_PILE, SMALL_CASTLE, STRONGHOLD, STUDENT, TENT, card_coin_limit_ok)
from card_envs.games.dominion.effects import (
    AUGURS, CARD0, DONE, MODES, OPTION0, PICK_KINDS, PILE0, ask, gladiator_bonus, others)


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
            finish_pick(s, t)
            return False
        PICK[kind](s, t, action - CARD0)
        t["lo"] = max(0, t["lo"] - 1)
        t["hi"] -= 1
        if t["hi"] > 0 and hand_answers(s, t):
            return True
        finish_pick(s, t)
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


def finish_pick(s, t):
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
