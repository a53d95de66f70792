"""Cloning's decisions kept sparse (train/demonstrations.py): exactly the values a dense float16
array held, read back a minibatch at a time, and a clone fitted from them is the one the dense
arrays fitted."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import card_envs
import card_envs.train.demonstrations
import card_envs.train.pretrain
from card_envs.agents import make_policy
from card_envs.agents.neural import ActorCritic
from card_envs.train.acting import critic_size
from card_envs.train.demonstrations import Demonstrations, SparseRows
from card_envs.train.pretrain import clone, play_teacher


def _awkward(rows: int, width: int, dtype, seed: int = 0) -> np.ndarray:
    """Mostly zeros, with the values a careless sparse form would lose or change: -0.0, NaN,
    infinities, the smallest subnormal, values that round to 0 or not in float16."""
    rng = np.random.default_rng(seed)
    array = np.where(rng.random((rows, width)) < 0.1, rng.normal(size=(rows, width)), 0.0).astype(dtype)
    specials = np.array([-0.0, np.nan, np.inf, -np.inf, np.finfo(dtype).smallest_subnormal, 1e-8, 65504.0], dtype)
    array.flat[rng.choice(array.size, len(specials), replace=False)] = specials
    array[rows // 2] = 0  # a row of zeros
    return array


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(f"u{a.dtype.itemsize}"),
                                                                      b.view(f"u{b.dtype.itemsize}"))


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_sparse_rows_give_back_exactly_the_dense_array(dtype):
    dense = _awkward(50, 37, dtype)
    sparse = SparseRows.from_dense(dense)
    assert sparse.shape == dense.shape and sparse.dtype == dtype and sparse.columns.dtype == np.int16
    assert _same_bits(sparse.toarray(), dense) and _same_bits(np.asarray(sparse), dense)
    assert sparse.nonzeros() == int((dense.view(f"u{dense.dtype.itemsize}") != 0).sum()) < dense.size / 5
    for which in (np.array([7, 0, 49, 7, -1]), dense[:, 0] != 0, slice(10, 30), np.array([], np.int64)):
        assert _same_bits(sparse.dense(which), dense[which])
        assert _same_bits(sparse.take(which).toarray(), dense[which])
    again = pickle.loads(pickle.dumps(sparse))  # as a pool's worker sends it
    assert _same_bits(again.toarray(), dense)


def test_sparse_rows_cast_as_assigning_into_a_float16_array_did():
    # What the recorder did: observations (float32) written into a float16 array.
    observations = np.random.default_rng(1).normal(size=(20, 9)).astype(np.float32) * 1e-3
    observations[observations < 0] = 0
    observations[3, 4] = 1e-9  # below float16's smallest subnormal: 0 once cast
    stored = np.empty((20, 9), np.float16)
    stored[:] = observations
    assert _same_bits(SparseRows.from_dense(observations, np.float16).toarray(), stored)


def test_wide_rows_take_int32_columns_and_pieces_write_into_one():
    dense = _awkward(6, 40_000, np.float16)
    pieces = [SparseRows.from_dense(dense[:2]), SparseRows.from_dense(dense[2:3]), SparseRows.from_dense(dense[3:])]
    assert pieces[0].columns.dtype == np.int32
    whole = SparseRows.empty(6, 40_000, sum(piece.nonzeros() for piece in pieces), np.float16)
    for row, piece in zip((0, 2, 3), pieces):
        whole.write(row, piece)
    assert _same_bits(whole.toarray(), dense)


def test_demonstrations_keep_dense_arrays_given_sparse_and_join_and_select_them():
    observations, critic = _awkward(30, 11, np.float16), _awkward(30, 5, np.float32, seed=1)
    demos = Demonstrations(observations, np.ones((30, 3), bool), np.arange(30), np.zeros(30, np.float32), critic,
                           np.zeros((30, 3), np.float16), games=4)
    assert isinstance(demos.observations, SparseRows) and isinstance(demos.critic_inputs, SparseRows)
    parts = [demos.select(np.arange(0, 12)), demos.select(np.arange(12, 30))]
    parts[0].games, parts[1].games = 1, 3
    joined = Demonstrations.concatenate(list(parts), 30, (11, 3, 5, True), demos.nonzeros())
    assert joined.games == 4 and (joined.actions == np.arange(30)).all()
    assert _same_bits(joined.observations.toarray(), observations) and _same_bits(joined.critic_inputs.toarray(), critic)
    picked = joined.select(np.arange(30) % 3 == 0)
    assert _same_bits(picked.observations.toarray(), observations[::3]) and (picked.actions == np.arange(0, 30, 3)).all()


def test_the_recorded_observations_are_what_the_teacher_saw_in_float16():
    game = card_envs.make_game("illimat_v0", harvest_features=True, play_features=True, threat_features=True)
    teacher, seen = make_policy("heuristic", game), []

    class Watched:
        def act_batch(self, observations, masks, rng):
            seen.append(observations.astype(np.float16))
            return teacher.act_batch(observations, masks, rng)

    demos = play_teacher(game, Watched(), games=1, seed=0)  # one game: every decision is kept
    assert _same_bits(demos.observations.toarray(), np.concatenate(seen))


class DenseRows:
    """The minibatch reader before observations were sparse: every part's arrays dense and whole,
    rows picked by torch's indexing."""

    def __init__(self, arrays):
        arrays = [np.asarray(array) if isinstance(array, SparseRows) else array for array in arrays]
        self.arrays = None if arrays[0] is None else [torch.from_numpy(array) for array in arrays]
        self.starts = torch.tensor(np.cumsum([0] + [len(array) for array in arrays[:-1]])) if self.arrays else None

    def __getitem__(self, index):
        if self.arrays is None:
            return None
        if len(self.arrays) == 1:
            return self.arrays[0][index]
        part = torch.searchsorted(self.starts, index, right=True) - 1
        out = torch.empty((len(index), *self.arrays[0].shape[1:]), dtype=self.arrays[0].dtype)
        for p in part.unique().tolist():
            which = part == p
            out[which] = self.arrays[p][index[which] - self.starts[p]]
        return out


def _fitted(game, parts, monkeypatch, dense: bool) -> tuple[dict, list]:
    if dense:
        monkeypatch.setattr(card_envs.train.pretrain, "Rows", DenseRows)
    torch.manual_seed(0)
    network = ActorCritic(game.observation_size, game.num_actions, (32,), critic_size(game, "state"))
    history = clone(network, parts, epochs=2, seed=3, temperature=0.3)
    monkeypatch.undo()
    return network.state_dict(), history


def test_a_clone_fitted_from_the_sparse_form_is_the_one_the_dense_arrays_fitted(monkeypatch):
    # Illimat with every piece, scored, with a privileged critic, in two parts (a DAgger refit):
    # every array the fit reads, through the same minibatches, to the same weights bit for bit.
    game = card_envs.make_game("illimat_v0", harvest_features=True, play_features=True, threat_features=True)
    teacher = make_policy("heuristic", game)
    first = play_teacher(game, teacher, games=3, seed=0, privileged=True, scored=True)
    second = play_teacher(game, teacher, games=2, seed=1, privileged=True, scored=True)
    sparse_weights, sparse_history = _fitted(game, [first, second], monkeypatch, dense=False)
    dense_weights, dense_history = _fitted(game, [first, second], monkeypatch, dense=True)
    assert sparse_history == dense_history
    assert all(torch.equal(sparse_weights[name], dense_weights[name]) for name in dense_weights)
    _, one_part = _fitted(game, first, monkeypatch, dense=False)
    assert one_part == _fitted(game, first, monkeypatch, dense=True)[1]


JOIN_SCRIPT = """
import multiprocessing as mp, sys
import numpy as np
from card_envs.train.demonstrations import Demonstrations, SparseRows, total_nonzeros

def part(seed):  # a pool task's decisions: 2,000 rows of 1,000 columns, 100 entries each
    rng = np.random.default_rng(seed)
    observations = SparseRows(rng.random(200_000).astype(np.float16), rng.integers(0, 1000, 200_000).astype(np.int16),
                              np.arange(2001, dtype=np.int64) * 100, 1000)
    return Demonstrations(observations, np.ones((2000, 50), bool), np.zeros(2000, np.int64), np.zeros(2000, np.float32),
                          None, np.zeros((2000, 50), np.float16), games=1)

def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096

if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:  # unpickled in the pool's result thread, as the teacher's parts are
        parts = list(pool.imap(part, range(150)))
    data, rows = sum(p.nbytes for p in parts), sum(len(p) for p in parts)
    before = resident()
    nonzeros = total_nonzeros(p.nonzeros() for p in parts)
    whole = Demonstrations.concatenate((parts.pop(0) for _ in range(len(parts))), rows, (1000, 50, None, True), nonzeros)
    print(data, before, resident())
"""


def test_joining_the_workers_parts_gives_their_memory_back(tmp_path):
    # Freed, the parts' many arrays of a few MB stayed in the allocator's heap: the trainer held the
    # joined copy and the parts' memory both, into the fit and PPO.
    if card_envs.train.demonstrations._malloc_trim is None:
        pytest.skip("no malloc_trim (not glibc)")
    script = tmp_path / "join.py"
    script.write_text(JOIN_SCRIPT)
    root = Path(__file__).resolve().parents[2]  # this checkout's card_envs, in the pool's workers too
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=root,
                         env={**os.environ, "PYTHONPATH": str(root)})
    assert run.returncode == 0, run.stderr
    data, before, after = map(int, run.stdout.split())
    assert data > 150e6 and after - before < 0.3 * data, (data, before, after)
