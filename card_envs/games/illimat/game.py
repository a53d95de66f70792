"""The Illimat Game: configuration, score bounds, state creation; wires in the render and snapshot
code."""

from __future__ import annotations

from typing import Any

import numpy as np

from card_envs.core.game import ArgumentError, Game, State, is_flag, is_integer
from card_envs.core.rewards import check_reward_mode
from card_envs.games.illimat.cards import (
    NUM_ACTIONS, NUM_CARDS, NUM_LUMINARIES, SUM_MASK, WIDE_SUM_MASK, describe_action)
from card_envs.games.illimat.observation import action_entities, observation_gathers, observation_layout, state_layout
from card_envs.games.illimat.board import STYLE, board_zones
from card_envs.games.illimat.render import render_text
from card_envs.games.illimat.rules import IllimatState
from card_envs.games.illimat.snapshot import state_from_json, state_to_json


class IllimatGame(Game):
    name = "illimat"
    version = 0
    snapshot_format = 3  # 3 added last_play; 1 (before the optional rules) and 2 still read, see snapshot.py
    observation_options = ("harvest_features", "play_features", "threat_features")

    def __init__(self, num_players: int = 2, luminaries: bool = True, stars_always: bool = False,
                 target_score: int = 17, rounds: int = 20, reward: str = "win",
                 harmonic_convergence: bool = False, full_harvest: bool = False, harvest_features: bool = False,
                 play_features: bool = False, threat_features: bool = False):
        if not is_integer(num_players) or not 2 <= num_players <= 4:
            raise ArgumentError(f"num_players={num_players!r} is not supported; use 2 (default), 3 or 4")
        for arg, value in (("luminaries", luminaries), ("stars_always", stars_always),
                           ("harmonic_convergence", harmonic_convergence), ("full_harvest", full_harvest),
                           ("harvest_features", harvest_features), ("play_features", play_features),
                           ("threat_features", threat_features)):
            if not is_flag(value):
                raise ArgumentError(f"{arg}={value!r} must be True or False")
        if not is_integer(target_score) or not 1 <= target_score <= 100:
            raise ArgumentError(f"target_score={target_score!r} must be an integer in 1..100")
        if not is_integer(rounds) or not 1 <= rounds <= 100:
            raise ArgumentError(f"rounds={rounds!r} must be an integer in 1..100")
        self.num_players = n = int(num_players)
        self.luminaries, self.stars_always = bool(luminaries), bool(stars_always)
        self.target_score, self.rounds = int(target_score), int(rounds)
        self.reward = check_reward_mode(reward)
        harmonic_convergence, full_harvest = bool(harmonic_convergence), bool(full_harvest)
        harvest_features, play_features = bool(harvest_features), bool(play_features)
        threat_features, stars_always, rounds = bool(threat_features), self.stars_always, self.rounds
        self.harmonic_convergence, self.full_harvest = harmonic_convergence, full_harvest
        self.harvest_features = harvest_features  # observation only: the rules do not change
        self.play_features = play_features  # observation only too
        self.threat_features = threat_features  # observation only too
        self.sum_mask = WIDE_SUM_MASK if full_harvest else SUM_MASK
        self.deck_cards = NUM_CARDS if (stars_always or n == 4) else 52
        self.num_actions = NUM_ACTIONS
        self.state_layout = state_layout(n, harmonic_convergence)
        self.observation_layout = observation_layout(n, harmonic_convergence, harvest_features, play_features,
                                                     threat_features)
        self.action_entities = action_entities(harvest_features, play_features, threat_features)
        # Decisions per round: at most 14 per turn plus one per item picked, at most (deck - 12)
        # turns, at most 2 * deck items picked, at most 5 claim decisions (package docstring).
        d = self.deck_cards
        self.max_round_length = 14 * (d - 12) + 2 * d + 5
        self.max_game_length = rounds * self.max_round_length
        self.reward_range = (-1.0, 1.0)
        # Score bounds: a round gives one player at most Bumper Crop 4 + Sunkissed 2 + the River's
        # +2 + every Fool + every Luminary + every okus, and takes at most 2 (Frostbit).
        self.max_round_gain = 8 + d // 13 + (NUM_LUMINARIES if luminaries else 0) + n
        self.score_low = -2 * rounds
        self.score_high = min(target_score - 1, (rounds - 1) * self.max_round_gain) + self.max_round_gain
        self._gathers = observation_gathers(n, self.state_layout)
        off = {name: sl.start for name, sl in self.state_layout.slices.items()}
        self.off = off
        self.others = [tuple(q for q in range(n) if q != seat) for seat in range(n)]

    @property
    def config(self) -> dict[str, Any]:
        return {"num_players": self.num_players, "luminaries": self.luminaries,
                "stars_always": self.stars_always, "target_score": self.target_score,
                "rounds": self.rounds, "reward": self.reward,
                "harmonic_convergence": self.harmonic_convergence, "full_harvest": self.full_harvest,
                "harvest_features": self.harvest_features, "play_features": self.play_features,
                "threat_features": self.threat_features}

    def new_state(self, rng: np.random.Generator) -> IllimatState:
        state = IllimatState(self)
        state.chance_seed = int(rng.integers(2**63))
        state.match_scores = [0] * self.num_players
        state._deal(0)
        return state

    def action_to_string(self, action: int) -> str:
        return describe_action(action)

    def render(self, state: State, viewer: int | None) -> str:
        return render_text(state, viewer)

    def board_zones(self, state: IllimatState, viewer: int | None) -> list[dict[str, Any]]:
        return board_zones(state, viewer)

    def replay_style(self) -> dict[str, Any]:
        return STYLE

    def state_from_json(self, data: dict[str, Any]) -> IllimatState:
        return state_from_json(self, data)

    def state_to_json(self, state: IllimatState) -> dict[str, Any]:
        return state_to_json(state)
