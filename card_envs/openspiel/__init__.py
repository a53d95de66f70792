"""The five games in OpenSpiel: every env registered as a pyspiel Python game.

    import pyspiel
    import card_envs.openspiel                      # registers card_envs_<game> with pyspiel
    game = pyspiel.load_game("card_envs_dominion(num_players=3,kingdom=T2)")
    state = game.new_initial_state()                # a pyspiel.State over the rules engine
    state.legal_actions(), state.information_state_tensor(0), state.observation_string(1)
    card_envs.openspiel.load_game("illimat_v0", num_players=4, rounds=2)   # the same by env id

Written once for every env through the Game/State protocol (`card_envs.openspiel.game`), like
the PettingZoo adapter. The OpenSpiel bots play in tournaments as ``openspiel:ismcts`` and
``openspiel:mcts`` (`card_envs.agents.openspiel`); `examples/openspiel_ismcts.py` and
`examples/openspiel_dqn.py` show pyspiel's own API.

## Names and parameters

A game's parameters are its env's arguments (an argument whose default is None, e.g. no Bane,
is given as the empty text) and ``rng_seed``, the seed of the deals (-1: fresh entropy; a seed
gives the same deals for the same sequence of calls). A player count the rules refuse (Piles
with 3) is refused with the env's own message. A Dominion kingdom given as a list of ten piles
is no OpenSpiel parameter type: build that game with `OpenSpielGame.of` from the rules engine
(``OpenSpielGame.of(card_envs.make_game("dominion_v0", kingdom=[...]))``).

| OpenSpiel name | env | players | parameters (defaults) |
|---|---|---|---|
| `card_envs_dominion` | `dominion_v0` | 2, 3, 4 | `num_players=2`, `kingdom='T1-A'`, `bane=''`, `max_turns=100`, `reward='win'`, `ally=''`, `rng_seed=-1` |
| `card_envs_illimat` | `illimat_v0` | 2, 3, 4 | `num_players=2`, `luminaries=True`, `stars_always=False`, `target_score=17`, `rounds=20`, `reward='win'`, `harmonic_convergence=False`, `full_harvest=False`, `harvest_features=False`, `play_features=False`, `threat_features=False`, `rng_seed=-1` |
| `card_envs_piles` | `piles_v0` | 2, 4 | `num_players=4`, `reward='win'`, `rng_seed=-1` |
| `card_envs_split_the_hoard` | `split_the_hoard_v0` | 2, 3, 4, 5 | `num_players=3`, `class_powers='full'`, `starting_title_vp=30`, `reward='win'`, `cards=''`, `rng_seed=-1` |
| `card_envs_three_piles` | `three_piles_v0` | 2, 3, 4 | `num_players=2`, `reward='win'`, `rng_seed=-1` |

## GameType and GameInfo

Sequential, imperfect information, terminal rewards, zero-sum (every env's returns sum to 0: rank
returns, team returns, normalised score differences; the tests check it), utilities the env's
reward range, ``num_distinct_actions`` its action count (its action table), ``max_game_length``
its bound on decisions, ``min/max_num_players`` the counts its Game class accepts. ``provides``:
information-state string and tensor, observation string and tensor; not the factored
observation string. Every decision is a node, one-answer decisions included (the AEC env's
``auto_forced`` is an adapter option, not a rule).

**Chance: sampled stochastic.** Our chance events are shuffles and draws made inside the rules'
transitions with the state's generator: a 52-card deal has 52!/(...) outcomes, Dominion reshuffles
mid-turn, Illimat deals new seasons. Explicit chance nodes would mean an outcome list per shuffle
(astronomically long) and rewriting every engine's transitions around them, for no algorithm
that could enumerate them anyway. So states have no chance nodes: a new state is dealt when
first looked at (from the game's generator, seeded by ``rng_seed``), later chance happens inside
``apply_action``, and a clone carries its engine's generator (its future draws) with it.

## States, tensors and strings

- ``legal_actions()`` is the engine's legal set, sorted as OpenSpiel requires; the mask, the
  action strings (the env's action table) and ``returns()`` (zeros before the end) are the env's.
- ``observation_tensor(p)`` and ``information_state_tensor(p)`` are seat p's observation, the
  env's layout (its doc page's table; the observer's ``dict`` names the same pieces). The
  observation carries what the rules leave public (piles, scores, discards), so it serves as the
  information-state tensor; it is not a record of everything p saw earlier.
- ``observation_string(p)``: the env's text render from p's seat. ``information_state_string(p)``:
  the moves as p saw them (``seat:action``; another seat's secret move, as
  ``Game.secret_move`` names them, e.g. a Split the Hoard commit, as ``seat:?``) and the non-zero
  entries of p's observation. The observer for ``private_info=ALL_PLAYERS`` gives the full
  state tensor and the render with every card shown. Other observation types are refused.
- ``resample_from_infostate(p, sampler)``: the engine's ``determinize(p)``, seeded from the
  sampler, with the same moves: a state p cannot tell from this one.
- ``serialize()`` / ``game.deserialize_state(text)``: pyspiel keeps the history and pickles the
  Python part, which pickles the engine state through its JSON snapshot (validated on load).
  ``state.snapshot()`` gives that snapshot; ``game.new_initial_state(snapshot)`` starts there.
  ``pyspiel.serialize_game_and_state`` (and so ``pickle`` of a game or state) does not work: for a
  sampled-stochastic game it asks the game for ``GetRNGState``, which pyspiel's Python bridge
  does not let a Python game give (open_spiel 2.0.2), so ``random_sim_test`` runs with
  ``serialize=False`` and the tests check ``serialize``/``deserialize_state`` themselves.

## Bots

OpenSpiel's C++ bots cannot search a Python game in open_spiel 2.0.2: ``pyspiel.MCTSBot`` and
``pyspiel.ISMCTSBot`` end the process with a segmentation fault on any Python game (OpenSpiel's
own ``python_tic_tac_toe`` too), and the C++ ``ResampleFromInfostate`` is not one a Python game
can override. The Python bots work: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` calls our
``resample_from_infostate``, ``open_spiel.python.algorithms.mcts.MCTSBot`` searches a state as
if everything were visible (give it a determinization: ``openspiel:mcts`` does, several times,
summing the root's visits). Learners through ``open_spiel.python.rl_environment`` (DQN, NFSP,
policy gradients) work as with any game.

Shimmy's ``OpenSpielCompatibilityV0`` wraps these games back into PettingZoo (the round trip
passes PettingZoo's api_test); its reset reloads the game by name, so pass the parameters as
``config``: ``OpenSpielCompatibilityV0(game_name="card_envs_piles", config={"num_players": 2})``.
"""

from __future__ import annotations

import pyspiel

from card_envs.core.registry import list_envs
from card_envs.openspiel.game import (OpenSpielGame, OpenSpielState, env_id_of, game_class_for, game_type,
                                      parameter_specification, player_counts, short_name)

__all__ = ["OpenSpielGame", "OpenSpielState", "env_id_of", "load_game", "parameters_table", "register", "short_name"]


def register(env_id: str) -> str:
    """Register `env_id` with pyspiel under `short_name` (once); returns that name. Every env of
    the registry is registered on import; an env registered later (`card_envs.register`) is
    registered here by its id."""
    name = short_name(env_id)
    if name not in pyspiel.registered_names():
        # A class, not a closure: pyspiel keeps the creator past the interpreter's end, and
        # releasing a closure then aborts the process (a class outlives it harmlessly).
        pyspiel.register_game(game_type(env_id), game_class_for(env_id))
    return name


def load_game(env_id: str, **params) -> OpenSpielGame:
    """``pyspiel.load_game(short_name(env_id), params)``: the env's arguments and ``rng_seed``."""
    return pyspiel.load_game(register(env_id), params)


def parameters_table() -> str:
    """The markdown table of every registered game's name, player counts and parameters (the
    docstring's, which a test keeps in step)."""
    rows = ["| OpenSpiel name | env | players | parameters (defaults) |", "|---|---|---|---|"]
    for env_id in list_envs():
        params = ", ".join(f"`{k}={v!r}`" if isinstance(v, str) else f"`{k}={v}`"
                           for k, v in parameter_specification(env_id).items())
        rows.append(f"| `{short_name(env_id)}` | `{env_id}` | {', '.join(map(str, player_counts(env_id)))} | {params} |")
    return "\n".join(rows)


for _env_id in list_envs():
    register(_env_id)
