"""OpenSpiel's IS-MCTS against the shipped 3 Piles checkpoint, on the game loaded by pyspiel.

`import card_envs.openspiel` registers every env with pyspiel (`card_envs_three_piles`, ...: the
env's arguments are the game's parameters, `rng_seed` seeds the deals). IS-MCTS reads a state
only through its information-state string and `resample_from_infostate` (our `determinize`); the
checkpoint acts from the seat's observation tensor and legal-action mask, as in every env.
`python -m card_envs.evaluate three_piles_v0 shipped:three_piles_v0 openspiel:ismcts` plays the
same match with intervals and ratings.
"""

import os

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import card_envs.openspiel  # noqa: F401  (registers the card_envs_* games with pyspiel)
from card_envs.agents import make_policy

quick = os.environ.get("CARD_ENVS_QUICK")
games, simulations = (2, 10) if quick else (10, 200)

game = pyspiel.load_game("card_envs_three_piles(num_players=2,rng_seed=0)")
shipped = make_policy("shipped:three_piles_v0", game.engine)  # the checkpoint, built for the rules engine
random_state = np.random.RandomState(0)
bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, random_state), 2.0, simulations,
                       random_state=random_state)
rng = np.random.default_rng(0)
ismcts_return = 0.0
for g in range(games):
    state = game.new_initial_state()
    ismcts_seat = g % 2  # each side starts half the games
    while not state.is_terminal():
        seat = state.current_player()
        if seat == ismcts_seat:
            action = bot.step(state)
        else:
            observation = np.array(state.observation_tensor(seat), dtype=np.float32)
            mask = np.array(state.legal_actions_mask(seat), dtype=np.int8)
            action = shipped.act(observation, mask, rng)
        state.apply_action(action)
    ismcts_return += state.returns()[ismcts_seat]
print(f"IS-MCTS ({simulations} simulations) vs the shipped checkpoint: mean return {ismcts_return / games:+.2f} "
      f"over {games} games (+1 win, -1 loss)")
