"""Split the Hoard in the terminal (`card_envs.agents.human`): ``help <card>`` reads a Hoard card, a
Title or a class from the game's card list (``cards.json``, or the ``cards=`` file being played):
rank, VP and its condition, the ability with its phase, the hidden Titles that name it."""

from __future__ import annotations

from card_envs.games.split_the_hoard.effects import PRIMITIVE_TEXT

HELP_TOPIC = ("'help <card>': a Hoard card, a Title or a class (e.g. 'help Emerald', 'help Smith', 'help Wizard'; "
              "'help cards', 'help titles', 'help classes' list them)")
# When a Hoard card's ability may be used (rules file 3.1), by the phase printed on it.
PHASE_TEXT = {"reveal": "in Reveal", "negotiate": "on your Negotiate turn",
              "negotiate-react": "when someone negotiates for one of your Treasures",
              "claim": "in Claim", "reaction": "in any phase, in answer to another player's effect"}
CLASS_PHASE_TEXT = {**PHASE_TEXT, "negotiate-react": "when someone negotiates for one of your Treasures",
                    "draw2": "when you take the draw-2 action", "deal": "when the Reveal deal is made"}
STARTING_TEXT = {
    "highest_total_rank": "the highest total rank (all fixed ranks, plus any modifiers you choose to attach); "
                          "eligible with a total of at least {min}",
    "lowest_total_rank": "the lowest total rank (every fixed rank counts, modifiers are optional); eligible "
                         "with at least {min} fixed-rank Treasures",
    "longest_run": "the longest run: k different Treasures whose ranks (modifiers may be attached) are k "
                   "consecutive numbers; eligible from k = {min}",
    "balance": "the smallest difference between your Treasures and your Coins; eligible with at least {min} "
               "Treasure(s)",
    "most_coins": "the most Coins; eligible with at least {min} Coin(s)",
}


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def effect_text(effect: tuple) -> str:
    return PRIMITIVE_TEXT[effect[0]].format(*effect[1:])


def hidden_criterion(criterion: dict) -> str:
    kind = criterion["type"]
    if kind == "k_of":
        return f"Treasures of at least {criterion['k']} different names among {', '.join(criterion['names'])}"
    if kind == "all_of":
        return " and ".join(" or ".join(g) if len(g) == 1 else f"({' or '.join(g)})" for g in criterion["groups"])
    if kind == "distinct_names":
        return f"Treasures of at least {criterion['k']} different names"
    if kind == "max_rank":
        return f"one Treasure of effective rank {criterion['min']} or more"
    if kind == "coins_vs_treasures":
        return f"at least {criterion['ratio']} Coins per Treasure, and at least {criterion['min_coins']} Coins"
    if kind == "coins_at_most":
        return f"at most {criterion['n']} Coins"
    if kind == "icons":
        return f"at least {criterion['k']} Treasures with a {' or '.join(criterion['phases'])} icon"
    return str(criterion)


def _names_in(criterion: dict) -> set[str]:
    return set(criterion.get("names", ())) | {n for group in criterion.get("groups", ()) for n in group}


def hoard_text(cs, i: int) -> str:
    row = cs.rows[i]
    rank = ("unranked" if row.rank is None else f"rank modifier {row.rank:+d}" if row.modifier
            else f"rank {row.rank}")
    lines = [f"{row.name} (a Hoard card, {row.copies} in the deck): {rank}, {row.vp} VP."]
    if row.condition is not None:
        kind, arg = row.condition
        lines.append(f"Its VP count only if you have a {' or a '.join(arg)}." if kind == "has_any"
                     else f"Its VP count only if you won at least {arg} Starting Title(s).")
    if row.effect is None:
        lines.append("No ability.")
    elif row.trigger == "enter_haul":
        lines.append(f"When it enters your Haul you may discard it to {effect_text(row.effect)}.")
    else:
        lines.append(f"Ability (discard it from your Haul {PHASE_TEXT[row.phase]}): {effect_text(row.effect)}.")
    titles = [t.name for t in cs.hidden if row.name in _names_in(t.criterion)]
    if titles:
        lines.append(f"Hidden Titles that name it: {', '.join(titles)}.")
    return "\n".join(lines)


def card_help(topic: str, state) -> str | None:
    """``help <topic>``: a Hoard card, a Starting or hidden Title or a class of the card list being
    played (the default list without a state), or a list of them; None for anything else."""
    if state is None:
        from card_envs.games.split_the_hoard.cards import load_cards
        cs, game = load_cards(), None
    else:
        cs, game = state.game.cards, state.game
    key = _key(topic)
    if key in ("cards", "hoard", "hoardcards", "treasures"):
        return "Hoard cards: " + ", ".join(f"{r.name} x{r.copies}" for r in cs.rows) + "."
    if key in ("titles", "title"):
        return ("Starting Titles (public): " + ", ".join(t.name for t in cs.starting) + ".\nHidden Titles (one "
                "each, secret): " + ", ".join(t.name for t in cs.hidden) + ".")
    if key in ("classes", "class"):
        return "Classes: " + ", ".join(f"{c.name} ({c.power})" for c in cs.classes) + "."
    for i, row in enumerate(cs.rows):
        if _key(row.name) == key:
            return hoard_text(cs, i)
    for title in cs.starting:
        if _key(title.name) == key:
            vp = f"{game.starting_title_vp} VP" if game is not None else "30 VP by default"
            return (f"{title.name} (a Starting Title, public, {vp}): won by "
                    f"{STARTING_TEXT[title.criterion].format(min=title.min)}. A tie goes to the "
                    f"{title.tie_class} if that class is among the tied players; otherwise nobody wins it.")
    for title in cs.hidden:
        if _key(title.name) == key:
            return (f"{title.name} (a hidden Title, {title.vp} VP to the player dealt it, if met at the end): "
                    f"{hidden_criterion(title.criterion)}.")
    for row in cs.classes:
        if _key(row.name) == key or _key(row.power) == key:
            ties = [t.name for t in cs.starting if t.tie_class == row.name]
            off = " (class powers are off in this game: class_powers='tiebreak_only')" if (
                game is not None and not game.powers) else ""
            return (f"{row.name} (a class): power {row.power}, once per round, {CLASS_PHASE_TEXT[row.phase]}: "
                    f"{effect_text(row.effect)}{off}." + (f" Wins ties for {', '.join(ties)}." if ties else ""))
    return None
