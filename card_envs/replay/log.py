"""What each view of a replay knows of each move, and the move list's words (`card_envs.replay.html`).

Who knows a move. The player who makes it knows it. Nobody else knows a move the game's rules
make secret (``Game.secret_move``: Split the Hoard's commits, Dominion's Sibyl...),
whatever the public record lets them infer later, until the rules turn it face up
(``Game.secret_move_revealed``; the page then names it from that position on, `card_envs.replay.html`). Otherwise another seat knows it when no other
move, legal in the real position or in positions that seat cannot tell from it
(``determinize``), leaves it the same observation (`action_known`). A spectator knows it when
every seat does and the public record tells it from every other move too (`public_known`): the
public render (``game.render(state, None)``, which shows everything public, the effect or move
in progress included) after the move differs from the one after any other move, in the real
position and in positions drawn from public information only (each seat's hidden part redrawn in
turn). "Every seat knows" alone is not enough: a seat may know a move from its own secrets (a
Split the Hoard player who peeked at the deck sees it reordered), which a spectator has not.

Two moves that leave the same whole position are one move, whatever their index (`same_move`),
and a move is named by the lowest such action (`canonical`): Dominion's "play all treasures" with
no Treasure in hand ends the Treasure phase as "done" does, and is said so, to every view.

The words: a decision is named by ``Game.describe_move`` ((context, phrase): "turn" / "negotiate
with player_2", Dominion's "buys Silver"); seats are named absolutely (``player_2``), never
relatively as the action table does (``player +2``). `turn_line` makes a turn's line of the move
list and `result_lines` the banner at the end, with the final scoring in full where a game has
one (``Game.final_scoring``; Split the Hoard: the Titles and the VP per source).
"""

from __future__ import annotations

import numpy as np

from card_envs.core.game import Game, State

WORLDS = 2  # positions drawn per check, besides the real one
LAST_MOVE = ("  last move: ", "  last play: ")  # the render line that names a turn's play, where a game has one


def _after(state: State, action: int) -> State:
    copy = state.clone()
    copy.apply(action)
    return copy


def same_move(state: State, a: int, b: int) -> bool:
    """Whether ``a`` and ``b`` are both legal at ``state`` and leave the very same position."""
    legal = state.legal_actions()
    return a in legal and b in legal and _after(state, a).to_json() == _after(state, b).to_json()


def canonical(state: State, action: int) -> int:
    """The lowest action that is the same move as ``action`` here (`same_move`): what the move
    did, named plainly ("play all treasures" with no Treasure in hand is "done", ending the phase)."""
    mine = _after(state, action)
    seat = state.current_player
    for other in sorted(a for a in state.legal_actions() if a < action):
        after = _after(state, other)  # the mover's observation first: a cheap test before the whole state
        if np.array_equal(after.observation(seat), mine.observation(seat)) and after.to_json() == mine.to_json():
            return other
    return action


def action_known(state: State, action: int, seat: int, rng: np.random.Generator, worlds: int = WORLDS) -> bool:
    """Whether ``seat`` can tell that ``action`` was played at ``state`` from its observation after it.

    True for the player who acts; False for a move the rules make secret (``Game.secret_move``:
    named to its player only, whatever the public record lets the others infer, since the worlds
    drawn here need not hit the one position that would show it). For
    another seat: no other move, legal in the real position or in ``worlds`` positions drawn by
    ``state.determinize(seat, rng)`` (positions the seat cannot tell from the real one), leaves it
    the same observation. The determinized positions catch a forced choice among hidden cards
    (one legal action here, but the seat does not know which). Another action that is the same
    move there (`same_move`) is no other move."""
    if seat == state.current_player:
        return True
    if state.game.secret_move(state, action):
        return False
    target = _after(state, action).observation(seat)
    for w in range(worlds + 1):
        world = state if w == 0 else state.determinize(seat, rng)
        for other in world.legal_actions():
            if other != action and np.array_equal(_after(world, other).observation(seat), target) \
                    and not same_move(world, action, other):
                return False
    return True


def public_worlds(game: Game, state: State, rng: np.random.Generator, worlds: int = WORLDS) -> list[State]:
    """The real position and ``worlds`` positions drawn from public information only: every
    seat's hidden part redrawn in turn (each draw keeps what that seat knows, so the chain keeps
    what all know, and nothing of what only one seat knows)."""
    out = [state]
    for _ in range(worlds):
        world = state
        for seat in rng.permutation(game.num_players):
            world = world.determinize(int(seat), rng)
        out.append(world)
    return out


def public_known(game: Game, state: State, action: int, rng: np.random.Generator, seats_know: bool,
                 worlds: int = WORLDS) -> bool:
    """Whether a spectator can tell ``action`` was played at ``state`` (module docstring):
    ``seats_know`` (every seat can, `action_known`) and no other move, in the real position or in
    `public_worlds`, leaves the same public render."""
    if not seats_know:
        return False
    target = game.render(_after(state, action), None)
    for world in public_worlds(game, state, rng, worlds):
        for other in world.legal_actions():
            if other != action and game.render(_after(world, other), None) == target \
                    and not same_move(world, action, other):
                return False
    return True


def action_line(actor: int, context: str, phrase: str) -> str:
    """The move at a position as one line: "player_1 (commit card): Ruby"."""
    return f"player_{actor}" + (f" ({context})" if context else "") + f": {phrase}"


def last_move(lines: list[str]) -> str | None:
    return next((line.split(": ", 1)[1] for line in lines if line.startswith(LAST_MOVE)), None)


def turn_line(actor: int, decisions: list[tuple[str, str | None, bool]], before: str | None,
              after: list[str | None], quiet: tuple[str, ...] = ("done",)) -> str:
    """One line for a turn (or its start) as one view saw it.

    ``decisions``: (context, phrase or None where hidden from the view, forced) per decision;
    ``before``/``after``: the render's last-move line before the turn and after each decision;
    ``quiet``: the words of a forced decision left out (``Game.quiet_forced_moves``).
    Where the game names its plays there, those sentences: "player_1 drew a card, then played 4H
    onto stack 2"; else the decisions under their contexts: "player_0: commit card: Ruby,
    Emerald; commit coins: negotiate card 3 (3 coins) x2, done"."""
    plays: list[str] = []
    for line in after:
        if line and line != (plays[-1] if plays else before):
            plays.append(line)
    if plays:
        who = f"player_{actor} "
        return plays[0] + "".join(", then " + (p[len(who):] if p.startswith(who) else p) for p in plays[1:])
    groups: list[list] = []  # [context, [[phrase, count], ...]]
    for context, name, forced in decisions:
        if forced and name in quiet and len(decisions) > 1:
            continue
        phrase = name if name is not None else "a hidden choice"
        if not groups or groups[-1][0] != context:
            groups.append([context, []])
        runs = groups[-1][1]
        if runs and runs[-1][0] == phrase:
            runs[-1][1] += 1
        else:
            runs.append([phrase, 1])
    text = "; ".join((f"{context}: " if context else "")
                     + ", ".join(p + (f" x{k}" if k > 1 else "") for p, k in runs) for context, runs in groups)
    return f"player_{actor}: {text}"


def result_lines(game: Game, state: State, players: list[str] | None) -> list[str]:
    """The banner at the end: who won and the scores, then how each score adds up where the game
    says more than a number (``Game.final_scoring``)."""
    returns, scores = state.returns(), state.scores()
    names = players or []

    def who(k: int) -> str:
        return f"player_{k}" + (f" ({names[k]})" if k < len(names) else "")

    best = max(returns)
    winners = [k for k, r in enumerate(returns) if r == best]
    head = ("a draw" if len(winners) == len(returns) else
            f"{' and '.join(who(k) for k in winners)} win{'s' if len(winners) == 1 else ''}")
    lines = [f"Game over: {head} | scores: " + ", ".join(f"{who(k)} {x}" for k, x in enumerate(scores))]
    return lines + game.final_scoring(state)
