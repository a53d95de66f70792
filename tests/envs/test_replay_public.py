"""A replay's spectator log says nothing hidden and hides nothing public, in every game.

Seeded random games of each game, in several configurations, are made into page data
(`card_envs.replay.replay_data`); for every recorded move the test decides from the game's
rules whether the move was made in the open, independently of how the page decides it:

- Secret moves, by the rules: 3 Piles, Piles and Illimat have none (every card played lands face
  up, a draw is announced, Piles' pass gives its card face up, Illimat's move in progress is on
  the table). Split the Hoard: the secret commit (which dealt card goes on which Negotiate Card,
  which Negotiate Card gets each added Coin; stopping is public, the Haul's Coin count being so),
  the Wizard's Scry (which card goes under the deck), the order of peeked cards put back, the
  card Spellbook turns into a Coin. Dominion: the cards a Haunted Castle victim puts on his deck,
  Sibyl's top and bottom cards, the card an Archer victim keeps hidden, the card Miller keeps.
- A secret move is never named to spectators, neither beside the board nor in the move list.
- Any other move is named to spectators, unless no one but its player can tell it from another
  legal move there (the same public render and the same observation for every other seat after
  it, though the position differs): a public move with an invisible outcome (Dominion's Cellar
  discarding the only card, which the reshuffle draws straight back, looks like stopping).
- A spectator never knows more than a seat: what it names, every seat's view names.
- The move list for spectators is made of exactly these verdicts; seats are named absolutely
  (``player_2``), never as the action table's ``player +k``.
- Split the Hoard's end shows the final scoring in full: each player's Titles, each source's VP
  adding up to the total, and each Starting Title's winner.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import card_envs
from card_envs.replay import record_game, replay_data, turn_line

# (env_id, config, seeds): every game, and other player counts, kingdoms and options where a game
# has them; games are shortened where they are long (one Illimat round, a few Dominion turns).
CASES = [
    ("three_piles_v0", {}, 3), ("three_piles_v0", {"num_players": 4}, 1),
    ("piles_v0", {}, 2), ("piles_v0", {"num_players": 2}, 1),
    ("illimat_v0", {"rounds": 1}, 3), ("illimat_v0", {"num_players": 4, "rounds": 1, "stars_always": True}, 1),
    ("dominion_v0", {"max_turns": 10}, 3), ("dominion_v0", {"kingdom": "T1-B", "max_turns": 8}, 2),
    ("dominion_v0", {"kingdom": "T3", "num_players": 3, "max_turns": 6}, 1),
    ("dominion_v0", {"kingdom": "T2", "num_players": 4, "max_turns": 5}, 1),
    ("split_the_hoard_v0", {}, 3), ("split_the_hoard_v0", {"num_players": 2}, 2),
    ("split_the_hoard_v0", {"num_players": 5}, 1),
    ("split_the_hoard_v0", {"num_players": 3, "class_powers": "tiebreak_only"}, 1),
]
SECRET_DOMINION = {"haunted", "sibyl_top", "sibyl_bottom", "archer_hide", "miller"}


def secret(game, state, action: int) -> bool:
    """Whether the rules make this move in secret (module docstring)."""
    if game.name == "split_the_hoard":
        from card_envs.games.split_the_hoard.effects import COMMIT_CARD, COMMIT_COINS, EXTRA_COIN, ORDER, SCRY

        return state.decision in (COMMIT_CARD, SCRY, ORDER, EXTRA_COIN) or (
            state.decision == COMMIT_COINS and action != game.DONE)
    if game.name == "dominion":
        return bool(state.tasks) and state.tasks[-1]["kind"] in SECRET_DOMINION
    return False


def _after(state, action):
    copy = state.clone()
    copy.apply(action)
    return copy


def twin(game, state, action: int) -> int | None:
    """Another legal move that no one but the mover can tell from this one (the same public render
    and the same observation for every other seat) though the position differs, or None."""
    mine = _after(state, action)
    others = [k for k in range(game.num_players) if k != state.current_player]
    for other in state.legal_actions():
        if other != action:
            after = _after(state, other)
            if game.render(after, None) == game.render(mine, None) and after.to_json() != mine.to_json() \
                    and all(np.array_equal(after.observation(k), mine.observation(k)) for k in others):
                return other
    return None


def random_replay(env_id: str, config: dict, seed: int):
    """One seeded uniformly random game, recorded (the replay tests' games, here and elsewhere)."""
    game = card_envs.make_game(env_id, **config)
    rng = np.random.default_rng(seed)
    initial = game.new_state(np.random.default_rng(seed))
    state, decisions = initial.clone(), []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        if len(legal) > 1:  # record_game plays forced decisions itself
            decisions.append(action)
        state.apply(action)
    return record_game(game, env_id, initial, decisions, ["random"] * game.num_players, {"seed": seed})


@pytest.mark.parametrize("env_id,config,seeds", CASES, ids=[f"{e}-{c}" for e, c, _ in CASES])
def test_the_spectator_names_every_public_move_and_no_secret_one(env_id, config, seeds):
    secrets = named = twins = 0
    for seed in range(seeds):
        replay = random_replay(env_id, config, seed)
        game, data = replay.game, replay_data(replay)
        strings, steps = data["strings"], data["steps"]
        assert not [s for s in strings if "player +" in s], "seats are named absolutely"
        seen, start = [], 0
        for i, (state, action) in enumerate(replay):
            step = steps[i]
            actor = step["actor"]

            def says(view: str) -> bool:  # the view names the move beside the board
                return "hidden from" not in strings[step["v"][view]["a"]]

            where = f"seed {seed}, position {i}: {strings[step['v'][str(actor)]['a']]}"
            if secret(game, state, action):
                assert not says("public"), f"a secret move is named to spectators ({where})"
                secrets += 1
            elif says("public"):
                named += 1
            else:
                assert twin(game, state, action) is not None, f"a public move is hidden ({where})"
                twins += 1
            if says("public"):
                assert all(says(str(k)) for k in range(game.num_players)), f"spectators know more than a seat ({where})"
            # The move list: the turn's line so far, made of these verdicts (a sentence where the
            # game names its plays in its public render, which then holds nothing secret).
            if i == 0 or actor != steps[i - 1]["actor"]:
                seen, start = [], i
            context, phrase = _context_and_phrase(strings[step["v"][str(actor)]["a"]], actor)
            seen.append((context, phrase if says("public") else None, len(state.legal_actions()) == 1))
            line = strings[step["v"]["public"]["m"]]
            if line.startswith(f"player_{actor}: "):
                expected = turn_line(actor, seen, None, [None] * len(seen), game.quiet_forced_moves)
                assert line == expected, (where, line, expected)
        if game.name == "split_the_hoard":
            _check_final_scoring(replay, data)
    assert named, "public moves were named"
    if env_id == "split_the_hoard_v0":
        assert secrets, "secret moves were seen"


def _context_and_phrase(action_text: str, actor: int) -> tuple[str, str]:
    """The actor's own line "player_1 (commit card): Ruby" (forced: "... (the only legal action)")."""
    match = re.fullmatch(rf"player_{actor}(?: \((.+?)\))?: (.+?)(?: \(the only legal action\))?", action_text)
    assert match, action_text
    return match.group(1) or "", match.group(2)


def _check_final_scoring(replay, data) -> None:
    """Each player's Titles and VP per source, adding up to the total; each Starting Title's winner."""
    state = replay.final_state()
    game = replay.game
    result = data["strings"][data["steps"][-1]["v"]["public"]["a"]]
    for p, b in enumerate(state.scoring()):
        line = next(x for x in result.split("\n") if x.startswith(f"player_{p}: "))
        parts, total = re.fullmatch(r"player_\d: (.+) = (\d+) VP; \d+ Coins \(the tie-break\)", line).groups()
        assert int(total) == b["total"]
        assert sum(int(re.search(r"(\d+)(?: \(not met\))?$", x).group(1)) for x in parts.split(" + ")) == b["total"]
        for title in b["starting"]:
            assert f"{title} {game.starting_title_vp}" in parts
        assert f"hidden Title {b['hidden']} " in parts and f"Treasures {b['treasure_vp']}" in parts
    for t in game.cards.starting:
        assert re.search(rf"Starting Title {re.escape(t.name)}, .*: won by (player_\d|nobody)", result), t.name
