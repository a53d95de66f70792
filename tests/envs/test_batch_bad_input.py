"""Every batched engine refuses what the reference refuses, with the reference's kind of error and
nothing applied: non-integer or misshapen actions, a non-flag ``auto_forced``, a non-integer batch
size, an unknown argument; and `load` refuses a finished game, loading nothing."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import card_envs
from card_envs import batch
from card_envs.core.game import ArgumentError, IllegalActionError

pytestmark = pytest.mark.skipif(not batch.has_numba(), reason="the numba-only engines need numba")
B = 4


@pytest.fixture(params=batch.ENGINES)
def engine(request):
    return batch.make(request.param, batch_size=B, seed=3)


def _legal(step) -> torch.Tensor:
    return step.mask.to(torch.uint8).argmax(1)


@pytest.mark.parametrize("bad, words", [
    (lambda a: a.double() + 0.4, "must be integers"),
    (lambda a: a.float(), "must be integers"),
    (lambda a: a[:, None], f"shape ({B},)"),
    (lambda a: a[:2], f"shape ({B},)"),
    (lambda a: a.bool(), "must be integers"),
    (lambda a: [str(int(x)) for x in a], "must be integers"),
])
def test_bad_actions_are_refused_before_anything_is_applied(engine, bad, words):
    step = engine.observe()
    before = [engine.state(i).to_json() for i in range(B)]
    with pytest.raises(IllegalActionError, match=words.replace("(", r"\(").replace(")", r"\)")):
        engine.step(bad(_legal(step)))
    assert [engine.state(i).to_json() for i in range(B)] == before
    engine.step(_legal(step).numpy().astype(np.int32))  # integer types of any width still play


@pytest.mark.parametrize("env_id", batch.ENGINES)
def test_arguments_are_refused_as_the_reference_refuses_them(env_id):
    with pytest.raises(ArgumentError, match="auto_forced='no'"):
        batch.make(env_id, batch_size=B, auto_forced="no")
    with pytest.raises(ArgumentError, match="auto_forced='no'"):
        card_envs.make(env_id, auto_forced="no")
    with pytest.raises(ArgumentError, match="batch_size must be an integer"):
        batch.make(env_id, batch_size=2.5)
    with pytest.raises(ArgumentError, match="no_such_argument"):
        batch.make(env_id, batch_size=B, no_such_argument=1)



def _finished_and_live(game, seed: int) -> tuple:
    """(a finished reference game, a live position of it), by uniformly random play."""
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    live = state.clone()
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
        if not state.is_terminal() and rng.random() < 0.1:
            live = state.clone()
    return state, live


def _rows(engine) -> list:
    """What each game of `engine` is: its snapshot, acting seat, every seat's observation, state tensor."""
    every, tensors = engine.all_seat_observations(), engine.state_tensors()
    return [(engine.state(i).to_json(), int(engine.cur[i]), every[i].tolist(), tensors[i].tolist())
            for i in range(B)]


def test_load_refuses_a_finished_game_and_loads_nothing(engine):
    """A finished game would sit in its row with an all-zero mask, refusing every step: `load`
    refuses it, naming its index, before loading any state (the live ones given with it too)."""
    game = engine.game
    (done0, live0), (done1, live1) = _finished_and_live(game, 1), _finished_and_live(game, 2)
    assert done0.is_terminal() and not live0.is_terminal() and not live1.is_terminal()
    twin = batch.make(engine.env_id, batch_size=B, seed=3)  # the same deals, never asked to load
    step, before = engine.observe(), _rows(engine)
    for states, rows, named in (([done0], [2], r"\[0\]"),
                                ([live0, done0], [1, 3], r"\[1\]"),
                                ([live0, done0, live1, done1], None, r"\[1, 3\]")):
        with pytest.raises(ValueError, match=rf"load: states {named} are finished games.*a seat is to act"):
            engine.load(states, rows)
        assert _rows(engine) == before
        assert engine.observe() is step
    actions = _legal(step)
    for got, want in zip(engine.step(actions), twin.step(actions)):  # plays on as if never asked
        assert torch.equal(got, want)
    out = engine.load([live0, live1], [0, 3])  # the live ones alone load
    for row, state in ((0, live0), (3, live1)):
        assert int(out.seat[row]) == state.current_player
        assert out.mask[row].tolist() == state.legal_mask().astype(bool).tolist()
        assert np.array_equal(out.obs[row].numpy(), state.observation(state.current_player))
