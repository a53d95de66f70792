"""The boards of `card_envs.replay.boards`: the everything view (viewer -1, ``--reveal-all``) shows every
card of every zone face up, as many as the other views show in that zone."""

from __future__ import annotations

import numpy as np
import pytest

import card_envs
from card_envs.replay import board

CONFIGS = {"illimat_v0": {"rounds": 1}, "dominion_v0": {"max_turns": 10}}
ENVS = card_envs.list_envs()


def _positions(env_id: str, seed: int = 0, every: int = 7):
    """Every ``every``-th position of a random game (every one of a short game), and its last."""
    game = card_envs.make_game(env_id, **CONFIGS.get(env_id, {}))
    every = min(every, max(1, game.max_game_length // 10))
    rng = np.random.default_rng(seed)
    state = game.new_state(np.random.default_rng(seed))
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield game, state
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        step += 1
    yield game, state


def _zones(zones: list[dict]) -> dict[tuple, list[int]]:
    """(group, name) -> the card counts of the zones so named (a field holds several stockpiles)."""
    out: dict[tuple, list[int]] = {}
    for z in zones:
        out.setdefault((z["group"], z["name"]), []).append(sum(c.get("n", 1) for c in z["cards"]))
    return out


# A seat's notes on cards drawn elsewhere too: its deck's contents, the shared deck's top, dealt cards it saw.
SUMMARIES = {"deck top (as you know it)", "deck contents", "dealt cards seen"}


@pytest.mark.parametrize("env_id", ENVS)
def test_the_everything_view_shows_every_card_of_every_zone_face_up(env_id):
    checked = 0
    for game, state in _positions(env_id):
        zones = board(game, state, -1)["zones"]
        hidden = [(z["group"], z["name"]) for z in zones if any(c.get("hidden") for c in z["cards"])]
        assert not hidden, f"face-down cards in the everything view: {hidden}"
        everything = _zones(zones)
        for viewer in [None] + list(range(game.num_players)):
            for key, counts in _zones(board(game, state, viewer)["zones"]).items():
                if key[1] not in SUMMARIES:
                    assert everything.get(key) == counts, (key, viewer)
        checked += 1
    assert checked > 3


def test_the_everything_view_shows_each_deck_in_order_top_first():
    """3 Piles' deck and Illimat's draw pile (one face-down back and "(none)" before)."""
    from card_envs.core.cards import card_name
    from card_envs.games.illimat.cards import cnames

    for env_id, names in (("three_piles_v0", lambda cs: [card_name(c) for c in cs]), ("illimat_v0", cnames)):
        game = card_envs.make_game(env_id)
        state = game.new_state(np.random.default_rng(1))
        deck = board(game, state, -1)["zones"][0]
        assert len(state.deck) > 0 and [c["label"] for c in deck["cards"]] == names(state.deck[::-1])
