"""Effect primitives of Split the Hoard (rules file §3.1) as a table: primitive name -> Primitive.

An ability is ``[PRIMITIVE, *args]`` in the cards file. ``start(state, actor, args, src)`` runs it
after its Treasure was discarded (``src`` is the Treasure's name index, -1 for a class power):
either at once, or by setting ``state.eff``, a small dict holding the effect in progress and its
``stage``; the effect then asks one decision at a time (`decide` names the seat and decision,
`legal` the answers, `answer` applies one) until `decide` finds nothing left to ask and finishes
it. Reactions (REFUSE, CANCEL_*) are stages of the effect they answer: the target is asked before
the effect resolves. Imports nothing from rules.py: the state is duck-typed (see SplitTheHoardState).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

# Phases printed on a Hoard card (rules file §3.1): "reaction" = no icon, any phase.
PHASES = ("reveal", "negotiate", "negotiate-react", "claim", "reaction", "none")

# Decisions (the observation's one-hot follows this order; OVER is not a decision).
(SCRY, PRIORITY, EXTRA_COIN, ORDER, PICK, COMMIT_CARD, COMMIT_COINS, TURN, BUY_SLOT, TARGET, TAKE, GIVE,
 RECOVER, FLIP, REACT, DEAL, OVER) = range(17)
DECISION_NAMES = ("scry", "priority", "extra_coin", "order", "pick", "commit_card", "commit_coins", "turn",
                  "buy_slot", "target", "take", "give", "recover", "flip", "react", "deal", "game_over")
NUM_DECISIONS = 16


@dataclass(frozen=True)
class Primitive:
    arity: int
    role: str  # "effect" (used by discarding in its phase), "refuse", "cancel_coin", "cancel_treasure", "turn"
    start: Callable | None = None
    usable: Callable | None = None  # (state, actor, args, src) -> bool; None: always


def _always(s, actor, args, src):
    return True


# ----- immediate effects -----------------------------------------------------------------------
def _gain(s, actor, args, src):
    s.gain(actor, args[0])


def _recover_coins(s, actor, args, src):
    for _ in range(min(args[0], len(s.coin_discard))):
        s.add_coin(actor, s.coin_discard.pop())


def _draw_treasure(s, actor, args, src):
    for _ in range(args[0]):
        c = s.draw()
        if c < 0:
            return
        s.add_treasure(actor, c)


def _take_dragon(s, actor, args, src):
    s.dragon_taker = actor


def _discount(s, actor, args, src):
    s.discount += args[0]
    s.discount_floor = max(s.discount_floor, args[1])


def _printed_only(s, actor, args, src):
    s.printed_only = True


def _extra_action(s, actor, args, src):
    s.actions_left += 1


# ----- effects with decisions ------------------------------------------------------------------
def _take_coins(s, actor, args, src, optional=False):
    s.eff = {"k": "take_coins", "actor": actor, "src": src, "n": args[0], "target": -1, "optional": optional,
             "stage": "target"}


def _take_each(s, actor, args, src):
    n = s.game.num_players
    s.eff = {"k": "take_each", "actor": actor, "src": src, "n": args[0],
             "queue": [(actor + i) % n for i in range(1, n)], "stage": "next"}


def _recover_treasure(s, actor, args, src):
    s.eff = {"k": "recover", "actor": actor, "src": src, "stage": "pick"}


def _recover_usable(s, actor, args, src):
    return any(s.game.cards.NAME[c] != src for c in s.treasure_discard)


def _pick_top(s, actor, args, src):
    m = min(args[0], len(s.deck))
    if m == 0:
        s.draw()  # taking a card from an empty deck is a draw that comes up short
        return
    s.look_at_deck(actor, m)
    s.eff = {"k": "pick_top", "actor": actor, "src": src, "m": m, "i": 0, "stage": "pick"}


def _peek_deck(s, actor, args, src):
    m = min(args[0], len(s.deck))
    if m >= 1:
        s.look_at_deck(actor, m)
    if m >= 2:
        s.eff = {"k": "order", "actor": actor, "src": src, "m": m, "i": 0, "stage": "order"}


def _flip_coin(s, actor, args, src):
    pos = s.look_at_coins(actor, args[0])
    s.eff = {"k": "flip", "actor": actor, "src": src, "pos": pos, "stage": "flip"}


def _has_coins(s, actor, args, src):
    return bool(s.coins[actor])


def _extra_draw(s, actor, args, src):
    c = s.draw()
    if c < 0:
        return  # the game ends in Reveal: nothing drawn, nothing to place
    s.add_hand(actor, c)
    s.eff = {"k": "extra_draw", "actor": actor, "src": src, "stage": "coin"}


def _steal(s, actor, args, src):
    s.eff = {"k": "steal", "actor": actor, "src": src, "pay": args[0], "target": -1, "take": -1, "stage": "target"}


def _steal_usable(s, actor, args, src):
    return len(s.coins[actor]) >= args[0] and s.others_with_treasures(actor)


def _swap(s, actor, args, src):
    s.eff = {"k": "swap", "actor": actor, "src": src, "give": -1, "target": -1, "take": -1, "stage": "give"}


def _swap_usable(s, actor, args, src):
    # checked before the source Treasure is discarded: something else must be left to give
    return len(s.treasures[actor]) > (src >= 0) and s.others_with_treasures(actor)


def _scry(s, actor, args, src):
    s.eff = {"k": "scry", "actor": actor, "src": src, "stage": "bottom"}


PRIMITIVES: dict[str, Primitive] = {
    "GAIN": Primitive(1, "effect", _gain),
    "TAKE_COINS": Primitive(1, "effect", _take_coins),
    "TAKE_EACH": Primitive(1, "effect", _take_each),
    "RECOVER_COINS": Primitive(1, "effect", _recover_coins),
    "RECOVER_TREASURE": Primitive(0, "effect", _recover_treasure, _recover_usable),
    "DRAW_TREASURE": Primitive(1, "effect", _draw_treasure),
    "PICK_TOP": Primitive(1, "effect", _pick_top),
    "PEEK_DECK": Primitive(1, "effect", _peek_deck),
    "FLIP_COIN": Primitive(1, "effect", _flip_coin, _has_coins),
    "EXTRA_DRAW": Primitive(0, "effect", _extra_draw),
    "DISCOUNT": Primitive(2, "effect", _discount),
    "PRINTED_ONLY": Primitive(0, "effect", _printed_only),
    "REFUSE": Primitive(0, "refuse"),
    "CANCEL_COIN_THEFT": Primitive(0, "cancel_coin"),
    "CANCEL_TREASURE_THEFT": Primitive(0, "cancel_treasure"),
    "STEAL": Primitive(1, "effect", _steal, _steal_usable),
    "SWAP": Primitive(0, "effect", _swap, _swap_usable),
    "EXTRA_ACTION": Primitive(0, "effect", _extra_action),
    "TAKE_DRAGON": Primitive(0, "effect", _take_dragon),
    "SCRY": Primitive(1, "class", _scry),  # Wizard: draw 1 more when dealt, put 1 on the bottom (see rules)
}
# What each primitive does, for a player to read (rules file 3.1; {0}, {1}: the card's arguments).
PRIMITIVE_TEXT = {
    "GAIN": "draw {0} card(s) face down into your Haul as Coins",
    "TAKE_COINS": "take up to {0} Coin(s) from another player's Haul",
    "TAKE_EACH": "take up to {0} Coin(s) from each other player's Haul",
    "RECOVER_COINS": "take up to {0} card(s) from the Coin discard pile as Coins",
    "RECOVER_TREASURE": "take a Treasure of another name from the Treasure discard pile into your Haul",
    "DRAW_TREASURE": "draw {0} card(s) face up into your Haul as Treasures",
    "PICK_TOP": "look at the top {0} cards of the deck, take 1 of them as a Treasure, put the rest back in any order",
    "PEEK_DECK": "look at the top {0} cards of the deck and put them back in any order",
    "FLIP_COIN": "look at {0} of your Coins; you may turn 1 of them face up (it becomes a Treasure)",
    "EXTRA_DRAW": "draw 1 more card in Reveal, then put 1 of your dealt cards into your Haul as a Coin",
    "DISCOUNT": "your purchase this turn costs {0} less (never below {1})",
    "PRINTED_ONLY": "your purchase this turn costs only the printed 1/2/3 (the added Coins are still discarded)",
    "REFUSE": "refuse a negotiation for your Treasure (the buyer takes another action)",
    "CANCEL_COIN_THEFT": "cancel another player's effect that takes your Coins",
    "CANCEL_TREASURE_THEFT": "cancel another player's effect that takes or swaps your Treasure",
    "STEAL": "pay a player {0} Coins and take any one Treasure from their Haul",
    "SWAP": "exchange one of your Treasures with one of another player's",
    "EXTRA_ACTION": "take one more Negotiate action this turn",
    "TAKE_DRAGON": "you take the Dragon Card at the end of the round (and start the next)",
    "SCRY": "draw {0} more card with your deal, then put 1 card of your hand on the bottom of the deck (only "
            "if the deck can supply it after everyone else has drawn)",
}
# Class powers: the phase of a class card -> the primitives it may hold.
CLASS_PHASES = {
    "reveal": {p for p, v in PRIMITIVES.items() if v.role == "effect"},
    "claim": {p for p, v in PRIMITIVES.items() if v.role == "effect"},
    "negotiate": {p for p, v in PRIMITIVES.items() if v.role == "effect"},
    "negotiate-react": {"REFUSE"},
    "draw2": {"TAKE_COINS"},  # Rogue: when taking the draw-2 action
    "deal": {"SCRY"},  # Wizard: when the Reveal deal is made
}
# What a reaction cancels, by the effect it answers.
CANCELS = {"take_coins": "cancel_coin", "take_each": "cancel_coin", "steal": "cancel_treasure",
           "swap": "cancel_treasure", "buy": "refuse"}


def usable(s, actor: int, effect: tuple, src: int) -> bool:
    prim = PRIMITIVES[effect[0]]
    return prim.usable is None or bool(prim.usable(s, actor, effect[1:], src))


def start(s, actor: int, effect: tuple, src: int) -> None:
    PRIMITIVES[effect[0]].start(s, actor, effect[1:], src)


# ----- decisions of effects in progress -----------------------------------------------------------
def decide(s, e: dict) -> tuple[int, int] | None:
    """(seat, decision) the effect `e` asks next, after resolving what needs no decision; None
    once it is finished (then ``s.eff`` is None)."""
    k, stage = e["k"], e["stage"]
    actor = e["actor"]
    if k in ("take_coins", "steal", "swap", "buy") and stage == "react_check":
        if s.reactions(e["target"], CANCELS[k]):
            e["stage"] = "react"
            return e["target"], REACT
        return _resolve(s, e)
    if stage == "react":
        return (e["target"] if k != "take_each" else e["queue"][0]), REACT
    if k == "take_each":
        while e["queue"]:
            q = e["queue"][0]
            if s.reactions(q, "cancel_coin"):
                e["stage"] = "react"
                return q, REACT
            s.move_coins(q, actor, e["n"])
            e["queue"].pop(0)
        s.eff = None
        return None
    if k == "order":
        if e["m"] - e["i"] <= 1:
            s.eff = None
            return None
        return actor, ORDER
    return actor, STAGE_DECISION[(k, stage)]


STAGE_DECISION = {
    ("take_coins", "target"): TARGET, ("recover", "pick"): RECOVER, ("pick_top", "pick"): PICK,
    ("flip", "flip"): FLIP, ("extra_draw", "coin"): EXTRA_COIN, ("steal", "target"): TARGET,
    ("steal", "take"): TAKE, ("swap", "give"): GIVE, ("swap", "target"): TARGET, ("swap", "take"): TAKE,
    ("buy", "slot"): BUY_SLOT, ("scry", "bottom"): SCRY,
}


def _resolve(s, e: dict):
    """Resolve an effect its target did not cancel, then finish it."""
    k, actor, target = e["k"], e["actor"], e["target"]
    s.eff = None
    if k == "take_coins":
        s.move_coins(target, actor, e["n"])
    elif k == "steal":
        s.move_coins(actor, target, e["pay"])
        s.remove_treasure(target, e["take"])
        s.add_treasure(actor, e["take"])
    elif k == "swap":
        s.remove_treasure(actor, e["give"])
        s.remove_treasure(target, e["take"])
        s.add_treasure(actor, e["take"])
        s.add_treasure(target, e["give"])
    elif k == "buy":
        s.complete_purchase(actor, target, e["slot"])
    return None


def legal(s, e: dict, decision: int) -> list[int]:
    g = s.game
    k, actor = e["k"], e["actor"]
    names = g.cards.NAME
    if decision == REACT:
        q = e["queue"][0] if k == "take_each" else e["target"]
        return s.reactions(q, CANCELS[k]) + [g.DONE]
    if decision == TARGET:
        if k == "take_coins":
            out = [g.target_action(actor, q) for q in g.others[actor]]
            return sorted(out + ([g.DONE] if e["optional"] else []))
        return sorted(g.target_action(actor, q) for q in s.others_with_treasures(actor))
    if decision == TAKE:
        return sorted({names[c] for c in s.treasures[e["target"]]})
    if decision == GIVE:
        return sorted({names[c] for c in s.treasures[actor]})
    if decision == RECOVER:
        return sorted({names[c] for c in s.treasure_discard if names[c] != e["src"]})
    if decision == PICK:
        return sorted({names[c] for c in s.deck[len(s.deck) - e["m"]:]})
    if decision == ORDER:
        top = len(s.deck) - e["i"]
        return sorted({names[c] for c in s.deck[top - e["m"] + e["i"]:top]})
    if decision == FLIP:
        coins = s.coins[actor]
        return sorted({names[coins[i]] for i in e["pos"]}) + [g.DONE]
    if decision in (EXTRA_COIN, SCRY):
        return sorted({names[c] for c in s.hand[actor]})
    if decision == BUY_SLOT:
        return [g.SLOT0 + k for k in s.buyable_slots(actor, e["target"])]
    raise AssertionError(f"no legal answers for decision {decision}")


def answer(s, e: dict, decision: int, a: int) -> None:
    """Apply the legal answer `a` to decision `decision` of the effect `e`."""
    g = s.game
    k, actor = e["k"], e["actor"]
    if decision == REACT:
        if a == g.DONE:
            if k == "take_each":
                s.move_coins(e["queue"].pop(0), actor, e["n"])
                e["stage"] = "next"
            else:
                _resolve(s, e)
            return
        q = e["queue"][0] if k == "take_each" else e["target"]
        s.use_reaction(q, a)
        if k == "take_each":
            e["queue"].pop(0)
            e["stage"] = "next"
        elif k == "buy":
            s.refused.append((e["target"], e["slot"]))
            s.eff = None  # the buyer takes another action
        else:
            s.eff = None
        return
    if decision == TARGET:
        if a == g.DONE:
            s.eff = None
            return
        if k == "take_coins" and e["optional"]:  # Pickpocket: the power is spent when taken, not when declined
            s.power_used[actor] = True
        e["target"] = g.seat_of_target(actor, a)
        e["stage"] = "react_check" if k == "take_coins" else "take"
        return
    if decision == TAKE:
        e["take"] = s.find_treasure(e["target"], a)
        e["stage"] = "react_check"
        return
    if decision == GIVE:
        e["give"] = s.find_treasure(actor, a)
        e["stage"] = "target"
        return
    if decision == RECOVER:
        c = next(c for c in reversed(s.treasure_discard) if g.cards.NAME[c] == a)
        s.treasure_discard.remove(c)
        s.add_treasure(actor, c)
        s.eff = None
        return
    if decision == PICK:
        top = len(s.deck)
        i = max(j for j in range(top - e["m"], top) if g.cards.NAME[s.deck[j]] == a)
        c = s.deck.pop(i)
        s.add_treasure(actor, c)
        s.eff = {"k": "order", "actor": actor, "src": e["src"], "m": e["m"] - 1, "i": 0, "stage": "order"}
        return
    if decision == ORDER:
        top = len(s.deck) - 1 - e["i"]  # the position being filled, from the top down
        j = max(j for j in range(top - e["m"] + e["i"] + 1, top + 1) if g.cards.NAME[s.deck[j]] == a)
        s.deck[j], s.deck[top] = s.deck[top], s.deck[j]
        e["i"] += 1
        return
    if decision == FLIP:
        s.eff = None
        if a != g.DONE:
            coins = s.coins[actor]
            i = next(i for i in e["pos"] if g.cards.NAME[coins[i]] == a)
            s.add_treasure(actor, s.remove_coin_at(actor, i))
        return
    if decision == EXTRA_COIN:
        c = s.remove_hand(actor, a)
        s.add_coin(actor, c)
        s.known_by[c] |= 1 << actor
        s.seen.add(c)
        s.eff = None
        return
    if decision == SCRY:
        c = s.remove_hand(actor, a)
        s.deck.insert(0, c)
        s.known_by[c] = 1 << actor
        s.seen.add(c)
        s.eff = None
        return
    if decision == BUY_SLOT:
        e["slot"] = a - g.SLOT0
        e["stage"] = "react_check"
        return
    raise AssertionError(f"decision {decision} is not an effect's")
