"""Text rendering for Split the Hoard (reads a state; kept beside the rules, outside them)."""

from __future__ import annotations

from collections import Counter

from card_envs.games.split_the_hoard.effects import (
    COMMIT_CARD, COMMIT_COINS, DECISION_NAMES, EXTRA_COIN, ORDER, OVER, SCRY, TURN)
from card_envs.games.split_the_hoard.rules import NEGOTIATE, PHASE_NAMES, SplitTheHoardState
from card_envs.games.split_the_hoard.scoring import starting_eligible, starting_value

# The Starting Titles' criteria and eligibility minimums in words (rules file 3.3).
CRITERIA = {"highest_total_rank": "highest total rank", "lowest_total_rank": "lowest total rank",
            "longest_run": "longest run of ranks", "balance": "Treasures closest to Coins",
            "most_coins": "most Coins"}
ELIGIBLE = {"highest_total_rank": "a total rank of at least {}",
            "lowest_total_rank": "at least {} fixed-rank Treasures", "longest_run": "a run of at least {}",
            "balance": "at least {} Treasure(s)", "most_coins": "at least {} Coin(s)"}


def _names(cs, cards) -> str:
    counts = Counter(cs.names[cs.NAME[c]] for c in cards)
    return ", ".join(f"{k} x{v}" if v > 1 else k for k, v in sorted(counts.items())) or "-"


def render_text(state: SplitTheHoardState, viewer: int | None) -> str:
    """`viewer`: a seat sees its hand, commits, hidden Title and the face-down cards it has seen;
    None shows only public information; -1 shows everything."""
    g = state.game
    cs = g.cards
    n = g.num_players
    everything = viewer == -1

    def sees(c: int, owner: int | None = None) -> bool:
        return everything or (viewer is not None and viewer >= 0
                              and (owner == viewer or state.known_by[c] >> viewer & 1))

    if state.decision == OVER:
        board = state.scoring()
        head = "game over | " + ", ".join(f"player_{p} {b['total']} VP ({b['coins']} coins)" for p, b in enumerate(board))
    else:
        head = (f"round {state.round + 1}, {PHASE_NAMES[state.phase]} | player_{state.current_player} to decide "
                f"({DECISION_NAMES[state.decision]})")
    lines = [f"Split the Hoard | {head}",
             f"  deck {len(state.deck)} | coin discard {len(state.coin_discard)} | Dragon Card: player_{state.dragon}"
             + (" | the game is ending" if state.end_flag else ""),
             f"  treasure discard: {_names(cs, state.treasure_discard)}"]
    happening = in_progress(state)
    if happening:
        lines.append(f"  in progress: {happening}")
    if state.decision == OVER:
        lines += [f"  {line}" for line in starting_title_lines(state)]
    else:
        lines.append(f"  Starting Titles ({g.starting_title_vp} VP each, awarded at the end): "
                     + ", ".join(t.name for t in cs.starting))
    if everything:
        lines.append(f"  deck (top first): {', '.join(cs.names_of(reversed(state.deck)))}")
    elif viewer is not None:
        top = [cs.names[cs.NAME[c]] if sees(c) else "?" for c in reversed(state.deck[-8:])]
        if any(t != "?" for t in top):
            lines.append(f"  deck top (as you know it): {', '.join(top)}")
    for p in range(n):
        cls = cs.classes[state.classes[p]]
        used = " (power used)" if state.power_used[p] else ""
        lines.append(f"player_{p} {cls.name}{used}: {len(state.coins[p])} coins | treasures: "
                     f"{_names(cs, state.treasures[p])}")
        seen = [c for c in state.coins[p] if sees(c)]
        if seen:
            lines.append(f"  coins seen: {_names(cs, seen)}")
        open_ = state.flipped or everything or viewer == p
        if state.hand[p]:
            shown = state.hand[p] if open_ else []
            lines.append(f"  hand: {len(state.hand[p])} cards" + (f" ({_names(cs, shown)})" if shown else ""))
        # a dealt card another seat saw before the deal is known, not where it went (hand or which card)
        seen = [] if open_ else [c for c in state.hand[p] + state.offer[p] if c >= 0 and sees(c)]
        if seen:
            lines.append(f"  dealt cards seen: {_names(cs, seen)}")
        offers = []
        for k in range(3):
            c = state.offer[p][k]
            if c < 0:
                continue
            what = cs.names[cs.NAME[c]] if open_ else "face down"
            added = f" +{len(state.added[p][k])}" if open_ else ""
            offers.append(f"[{k + 1}{added}] {what}")
        if offers:
            lines.append("  negotiate cards: " + " | ".join(offers))
        if state.decision == OVER:
            lines.append(f"  score: {score_text(state, p)}")
        elif everything or viewer == p:
            lines.append(f"  hidden Title: {cs.title_names[state.titles[p]]}")
    return "\n".join(lines)


def in_progress(state: SplitTheHoardState) -> str:
    """What is under way, all public (the observation's effect and turn pieces): the effect or
    negotiation in progress with its actor, target and the Treasures at stake, the Negotiate
    turn's actions left, discount and refusals, a Deal asked about, who takes the Dragon Card."""
    g = state.game
    cs = g.cards
    parts = []
    e = state.eff
    if e is not None:
        who, target = f"player_{e['actor']}", e.get("target", -1)
        if e["k"] == "buy":
            text = f"{who} negotiates with player_{target}"
            if e["slot"] >= 0:
                c = state.offer[target][e["slot"]]
                text += f" for {cs.names[cs.NAME[c]]} on negotiate card {e['slot'] + 1}"
        else:
            src = e["src"]
            text = f"{who} uses " + (cs.names[src] if src >= 0 else
                                     f"the {cs.classes[state.classes[e['actor']]].name}'s class power")
            if e.get("give", -1) >= 0:
                text += f", giving {cs.names[cs.NAME[e['give']]]}"
            if target >= 0:
                text += f", on player_{target}"
            if e.get("take", -1) >= 0:
                text += f", taking {cs.names[cs.NAME[e['take']]]}"
        parts.append(text)
    elif state.deals and state.decision != OVER:
        seat, c = state.deals[0]
        parts.append(f"player_{seat}'s {cs.names[cs.NAME[c]]} entered the Haul")
    if state.phase == NEGOTIATE and state.decision != OVER:
        turn = [f"{state.actions_left} action{'s' if state.actions_left != 1 else ''} left"]
        if state.discount:
            turn.append(f"discount {state.discount} (down to {state.discount_floor})")
        if state.printed_only:
            turn.append("printed prices only")
        turn += [f"player_{q}'s negotiate card {k + 1} refused" for q, k in state.refused]
        parts.append("negotiate turn: " + ", ".join(turn))
    if state.dragon_taker >= 0 and state.decision != OVER:
        parts.append(f"player_{state.dragon_taker} takes the Dragon Card at the round's end")
    return " | ".join(parts)


def starting_title_lines(state: SplitTheHoardState) -> list[str]:
    """At the end: each Starting Title, who won it, and every player's value for it ('-': not
    eligible), so that the award can be checked."""
    g = state.game
    cs = g.cards
    board = state.scoring()
    coins = [len(c) for c in state.coins]
    lines = []
    for t in cs.starting:
        winner = next((f"player_{p}" for p, b in enumerate(board) if t.name in b["starting"]), None)
        values = []
        for p in range(g.num_players):
            ok = starting_eligible(t.criterion, t.min, state.tcount[p], coins[p], cs)
            values.append(f"player_{p} " + (str(starting_value(t.criterion, state.tcount[p], coins[p], cs)[0])
                                             if ok else "-"))
        if winner is None:
            winner = "nobody (" + ("a tie" if any(not v.endswith(" -") for v in values) else "none eligible") + ")"
        lines.append(f"Starting Title {t.name}, {CRITERIA.get(t.criterion, t.criterion)} (a tie goes to the "
                     f"{t.tie_class}): won by {winner} | {', '.join(values)}")
    return lines


def score_text(state: SplitTheHoardState, p: int) -> str:
    """How p's final score adds up: each Starting Title won, the hidden Title, the Treasures."""
    g = state.game
    b = state.scoring()[p]
    parts = [f"{name} {g.starting_title_vp}" for name in b["starting"]]
    hidden = next(t for t in g.cards.hidden if t.name == b["hidden"])
    parts.append(f"hidden Title {b['hidden']} " + (f"{hidden.vp}" if b["hidden_met"] else "0 (not met)"))
    parts.append(f"Treasures {b['treasure_vp']}")
    return f"{' + '.join(parts)} = {b['total']} VP; {b['coins']} Coins (the tie-break)"


def secret_move(state: SplitTheHoardState, action: int) -> bool:
    """Whether the rules make this move in secret, so that a log names it to its player only
    (until `secret_move_revealed`): the commit (which dealt card goes on which Negotiate Card,
    which card each added Coin goes to; stopping is public, as the Haul's Coin count is), the
    Wizard's Scry (the card put under the deck), the order in which peeked cards go back, the card
    Spellbook turns into a Coin."""
    d = state.decision
    return d in (COMMIT_CARD, SCRY, ORDER, EXTRA_COIN) or (d == COMMIT_COINS and action != state.game.DONE)


def secret_move_revealed(state: SplitTheHoardState, action: int, later: SplitTheHoardState) -> bool:
    """Whether a secret move is public at the later position: a committed card is once that
    round's commits are flipped (the flip shows the card on each Negotiate Card, and the commit
    decisions fill them in order). Which card each added Coin went to stays secret: the flip shows
    each card's count, not which decision put a Coin there, nor which Coin (one another seat has
    seen could be followed by it); so do the Scry, the peeked cards' order and Spellbook's Coin."""
    return state.decision == COMMIT_CARD and (later.round > state.round or later.flipped)


def describe_move(state: SplitTheHoardState, action: int) -> tuple[str, str]:
    """(context, phrase) for a replay's move list: the decision asked ("commit card"), and a
    target seat named absolutely ("negotiate with player_2", not the action table's "player +2")."""
    g = state.game
    context = DECISION_NAMES[state.decision].replace("_", " ")
    if g.TARGET0 <= action < g.SLOT0:  # "player +k": k seats clockwise from the decider
        seat = f"player_{g.seat_of_target(state.current_player, action)}"
        return context, f"negotiate with {seat}" if state.decision == TURN else seat
    if action == g.POWER:  # the classes are public
        row = g.cards.classes[state.classes[state.current_player]]
        return context, f"class power ({row.name}'s {row.power})"
    return context, g.action_to_string(action)


def final_scoring(state: SplitTheHoardState) -> list[str]:
    """The final scoring in full: how each score adds up, and who won each Starting Title."""
    return [f"player_{p}: {score_text(state, p)}" for p in range(state.game.num_players)] + starting_title_lines(state)
