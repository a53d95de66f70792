"""High Card's scripted agent (``agents/<game>/heuristic.py`` in a game of the package): it acts
from the observation and the mask alone, like every batched baseline, and imports nothing from
train or evaluate."""

from __future__ import annotations

import numpy as np

from card_envs.agents.policy import Policy
from card_envs.core.game import Game


class HighCardHeuristic(Policy):
    """Answer with the lowest card that takes the trick, else the lowest; lead the lowest (the
    answering seat sees the card led, so a lead is more often lost than won)."""

    name = "heuristic"

    def __init__(self, game: Game):
        self.layout = game.observation_layout

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        hand = np.flatnonzero(action_mask)  # action a plays card a + 1: low to high
        led = np.flatnonzero(self.layout.views(observation)["table"])
        if not led.size:
            return int(hand[0])
        winning = hand[hand > led[0]]
        return int(winning[0] if winning.size else hand[0])
