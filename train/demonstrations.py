"""The teacher's decisions as cloning keeps them (`Demonstrations`), written as they are taken
(`Recorder`) and read back a minibatch at a time (`Rows`), for `card_envs.train.pretrain`.

Observations (and the privileged critic's inputs) are kept sparse (`SparseRows`: each row's
non-zero entries and their columns) and made dense a minibatch at a time. Why: they are mostly
zeros, and dense they were most of a run's memory (Illimat's default 5,000 cloned games, 1.14M
decisions of 5,808 floats: 13.2 GB in float16, a 14.1 GB peak; sparse 0.49 GB, a 2.4 GB peak:
docs/results/illimat_v0.md). Non-zero entries per row, from 16 games of random play per game
(300 steps), observation then full state (`--critic state`):

    three_piles_v0       91 of   816 (11%)         136 of   972 (14%)
    piles_v0             86 of 1,486 (5.8%)        153 of 2,012 (7.6%)
    split_the_hoard_v0   46 of 1,278 (3.6%)        109 of 1,386 (7.8%)
    dominion_v0         138 of 1,863 (7.4%)        160 of 2,440 (6.6%)
    illimat_v0          154 of 5,808 (2.7%)        124 of 2,308 (5.4%)   (the three feature pieces on; at most 238)

A float16 entry kept costs 4 bytes (its value and an int16 column) where dense costs 2 a column:
sparse wins below half the entries non-zero, by 4-19 times on these games (27 on the Illimat bot's
own games, 105 entries a row); the critic's float32 entries cost 6 bytes against 4. A game whose
observations were dense would still be stored correctly, only not smaller.
"""

from __future__ import annotations

import ctypes
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import torch

# Observations are kept in float16: their entries are counts, flags and fractions, which float16's
# three significant digits keep to within a thousandth of their size, nothing a network fitted to
# them could use. (Dense float32, Illimat's 5,808 floats a decision made 2,500 games 13.6 GB.)
OBSERVATION_DTYPE = np.float16
SCORE_DTYPE = np.float16  # the teacher's action scores (`scored`): differences of a few card weights
CRITIC_DTYPE = np.float32  # the privileged critic's inputs, as it reads them


class SparseRows:
    """A [rows, width] array kept by its non-zero entries, row by row (CSR): row r's are
    ``values[offsets[r]:offsets[r + 1]]``, in ``columns`` of the same slice (ascending). Lossless:
    an entry is left out only when all its bits are zero (+0.0), so `dense` gives back exactly the
    array it was made from, -0.0, NaN and all. Columns are int16 where the width allows."""

    def __init__(self, values: np.ndarray, columns: np.ndarray, offsets: np.ndarray, width: int):
        self.values, self.columns, self.offsets, self.width = values, columns, offsets, width

    @classmethod
    def from_dense(cls, array: np.ndarray, dtype=None) -> "SparseRows":
        """``array`` [rows, width] (cast to ``dtype`` first where given, as assigning it into an
        array of that dtype would) kept sparse."""
        array = np.ascontiguousarray(array, dtype)
        rows, columns = np.nonzero(array.view(f"u{array.dtype.itemsize}"))  # row by row, columns ascending
        offsets = np.zeros(len(array) + 1, np.int64)
        np.cumsum(np.bincount(rows, minlength=len(array)), out=offsets[1:])
        return cls(array[rows, columns], columns.astype(_column_dtype(array.shape[1])), offsets, array.shape[1])

    @classmethod
    def empty(cls, rows: int, width: int, nonzeros: int, dtype) -> "SparseRows":
        """Room for ``rows`` rows holding ``nonzeros`` entries in all, to be filled by `write` in order."""
        return cls(np.empty(nonzeros, dtype), np.empty(nonzeros, _column_dtype(width)), np.zeros(rows + 1, np.int64),
                   width)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @property
    def shape(self) -> tuple[int, int]:
        return len(self), self.width

    @property
    def dtype(self) -> np.dtype:
        return self.values.dtype

    @property
    def nbytes(self) -> int:
        return self.values.nbytes + self.columns.nbytes + self.offsets.nbytes

    def nonzeros(self, which=slice(None)) -> int:
        """Entries kept in the rows ``which`` selects (all by default)."""
        return int(np.diff(self.offsets)[which].sum())

    def write(self, row: int, piece: "SparseRows") -> None:
        """``piece``'s rows written as rows ``row``... (the rows before them written already)."""
        at = int(self.offsets[row])
        end = at + len(piece.values)
        self.values[at:end], self.columns[at:end] = piece.values, piece.columns
        self.offsets[row + 1:row + 1 + len(piece)] = piece.offsets[1:] + at

    def take(self, which) -> "SparseRows":
        """The rows ``which`` selects (int or bool array, slice), still sparse (a copy)."""
        counts, entries = self._entries(which)
        offsets = np.zeros(len(counts) + 1, np.int64)
        np.cumsum(counts, out=offsets[1:])
        return SparseRows(self.values[entries], self.columns[entries], offsets, self.width)

    def dense(self, which) -> np.ndarray:
        """The rows ``which`` selects as a dense [len, width] array: what a minibatch reads."""
        counts, entries = self._entries(which)
        out = np.zeros((len(counts), self.width), self.dtype)
        out[np.repeat(np.arange(len(counts)), counts), self.columns[entries]] = self.values[entries]
        return out

    def toarray(self) -> np.ndarray:
        """The whole array, dense."""
        return self.dense(slice(None))

    def astype(self, dtype) -> np.ndarray:
        """The whole array, dense, in ``dtype`` (as a dense array's ``astype`` would give it)."""
        return self.toarray().astype(dtype)

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        return self.toarray() if dtype is None else self.astype(dtype)

    def _entries(self, which) -> tuple[np.ndarray, np.ndarray]:
        """Per selected row its number of entries, and the positions of all their entries in order."""
        if isinstance(which, slice) or np.asarray(which).dtype == bool:
            rows = np.arange(len(self))[which]
        else:
            rows = np.asarray(which, np.int64)
            rows = np.where(rows < 0, rows + len(self), rows)
        starts = self.offsets[rows]
        counts = self.offsets[rows + 1] - starts
        ends = np.cumsum(counts)
        return counts, np.arange(ends[-1] if len(ends) else 0) + np.repeat(starts - (ends - counts), counts)


def _column_dtype(width: int) -> type:
    return np.int16 if width <= np.iinfo(np.int16).max else np.int32


@dataclass
class Demonstrations:
    """The teacher's decisions: what it saw, could do and did, and where that led. A dense array
    given for the observations or critic inputs is kept sparse (`SparseRows`), in its own dtype."""

    observations: SparseRows  # [D, obs] OBSERVATION_DTYPE
    masks: np.ndarray  # [D, A] bool
    actions: np.ndarray  # [D] int64, the teacher's choice
    returns: np.ndarray  # [D] float32, the deciding seat's result, discounted per own later decision
    critic_inputs: SparseRows | None = None  # [D, C] float32, the privileged critic's (acting.critic_inputs)
    scores: np.ndarray | None = None  # [D, A] float16, the teacher's score of each action (-inf: none), `soft_targets`
    games: int = 0  # the finished games the decisions come from (0 for a selection of rows)

    def __post_init__(self):
        if isinstance(self.observations, np.ndarray):
            self.observations = SparseRows.from_dense(self.observations)
        if isinstance(self.critic_inputs, np.ndarray):
            self.critic_inputs = SparseRows.from_dense(self.critic_inputs)

    def __len__(self) -> int:
        return len(self.actions)

    @classmethod
    def empty(cls, rows: int, observation_size: int, num_actions: int, critic_size: int | None,
              scored: bool = False, nonzeros: tuple[int, int] = (0, 0)) -> "Demonstrations":
        """Uninitialised arrays for `rows` decisions whose observations and critic inputs hold
        ``nonzeros`` entries (np.empty: pages are committed as written)."""
        return cls(SparseRows.empty(rows, observation_size, nonzeros[0], OBSERVATION_DTYPE),
                   np.empty((rows, num_actions), bool), np.empty(rows, np.int64), np.empty(rows, np.float32),
                   None if critic_size is None else SparseRows.empty(rows, critic_size, nonzeros[1], CRITIC_DTYPE),
                   np.empty((rows, num_actions), SCORE_DTYPE) if scored else None)

    def nonzeros(self, which=slice(None)) -> tuple[int, int]:
        """The entries kept of the observations and critic inputs (0 without) of the rows ``which`` selects."""
        return (self.observations.nonzeros(which),
                0 if self.critic_inputs is None else self.critic_inputs.nonzeros(which))

    def select(self, which: np.ndarray) -> "Demonstrations":
        """The decisions ``which`` selects (a copy)."""
        return Demonstrations(*(None if array is None else array.take(which) if isinstance(array, SparseRows)
                                else array[which] for array in self._arrays()))

    @classmethod
    def concatenate(cls, parts: Iterable["Demonstrations"], rows: int, sizes: tuple[int, int, int | None, bool],
                    nonzeros: tuple[int, int] = (0, 0)) -> "Demonstrations":
        """``parts`` (``rows`` decisions in all holding ``nonzeros`` entries, of ``sizes`` as
        `empty` takes them) in order, in one set of arrays. Given as an iterator that lets go of
        each part once it is yielded, the peak stays near one copy (np.empty's pages are only
        committed as they are written, and the parts' memory is given back as it goes)."""
        out, start, freed = cls.empty(rows, *sizes, nonzeros=nonzeros), 0, 0
        for part in parts:
            out.games += part.games
            end = start + len(part)
            for whole, piece in zip(out._arrays(), part._arrays()):
                if isinstance(whole, SparseRows):
                    whole.write(start, piece)
                elif whole is not None:
                    whole[start:end] = piece
            start, freed = end, freed + part.nbytes
            del part, piece
            if freed >= GIVE_BACK_BYTES:
                give_back_freed_memory()
                freed = 0
        give_back_freed_memory()
        return out

    @property
    def nbytes(self) -> int:
        return sum(array.nbytes for array in self._arrays() if array is not None)

    def _arrays(self) -> tuple:
        return self.observations, self.masks, self.actions, self.returns, self.critic_inputs, self.scores


GIVE_BACK_BYTES = 1 << 26  # 64 MB of parts copied and let go of between two `give_back_freed_memory`
try:  # glibc's; elsewhere (macOS, musl) nothing is given back early
    _malloc_trim = ctypes.CDLL(None).malloc_trim
except (OSError, AttributeError):
    _malloc_trim = None


def give_back_freed_memory() -> None:
    """Hand the memory of freed arrays back to the system now (glibc's ``malloc_trim``). Why:
    the parts a pool's workers send are unpickled into many arrays of a few MB, which the
    allocator kept once freed: joined into one set (`Demonstrations.concatenate`), Illimat's 0.87 GB
    of decisions held the trainer at 2.05 GB through the fit and into PPO. Given back every 64 MB
    of parts copied, the join peaks near one copy (a 0.85 GB join: 1.17 GB where it took 1.93)."""
    if _malloc_trim is not None:
        _malloc_trim(0)


def total_nonzeros(counts: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """The sum of `Demonstrations.nonzeros` counts."""
    observations = critic = 0
    for a, b in counts:
        observations, critic = observations + a, critic + b
    return observations, critic


def discounted_results(seats: Sequence[int], result: np.ndarray, gamma: float) -> np.ndarray:
    """Per decision of one game (taken by ``seats``, in order), its seat's final result
    discounted by ``gamma`` for each later decision of that same seat."""
    later: dict[int, int] = {}  # seat -> its decisions after this one
    returns = np.empty(len(seats), dtype=np.float32)
    for k in reversed(range(len(seats))):
        returns[k] = float(result[seats[k]]) * gamma ** later.get(seats[k], 0)
        later[seats[k]] = later.get(seats[k], 0) + 1
    return returns


class Recorder:
    """The teacher's decisions written as they are taken, a step's (one per game) at a time, its
    observations made sparse at once; a game's rows are kept, with their returns, when it ends,
    and `demonstrations` copies the kept rows out step by step, letting go of each step as it
    goes. What it holds stays small: a pool's worker records one task (`TEACHER_CHUNK` games,
    about 7 MB on Illimat), and even 5,000 Illimat games in one process are 0.87 GB."""

    def __init__(self, games_per_step: int, observation_size: int, num_actions: int, critic_size: int | None,
                 scored: bool = False):
        self.step_rows = games_per_step
        self.sizes = (observation_size, num_actions, critic_size, scored)
        self.steps: deque[Demonstrations] = deque()  # per step, its decisions
        self.kept: deque[np.ndarray] = deque()  # per step: its rows whose game finished
        self.rows = 0

    def add(self, observations: np.ndarray, masks: np.ndarray, actions: np.ndarray,
            full: np.ndarray | None, scores: np.ndarray | None = None) -> int:
        """Record one step's decisions (one per game); the first one's row (game i's is that + i)."""
        self.steps.append(Demonstrations(
            SparseRows.from_dense(observations, OBSERVATION_DTYPE), np.array(masks, bool), np.array(actions, np.int64),
            np.zeros(self.step_rows, np.float32), None if full is None else SparseRows.from_dense(full, CRITIC_DTYPE),
            None if scores is None else np.array(scores, SCORE_DTYPE)))
        self.kept.append(np.zeros(self.step_rows, bool))
        first, self.rows = self.rows, self.rows + self.step_rows
        return first

    def keep(self, rows: Sequence[int], seats: Sequence[int], result: np.ndarray, gamma: float) -> None:
        """A finished game: its rows (in order) are kept, with `discounted_results`."""
        for row, value in zip(rows, discounted_results(seats, result, gamma)):
            step, at = divmod(row, self.step_rows)
            self.steps[step].returns[at] = value
            self.kept[step][at] = True

    def demonstrations(self) -> Demonstrations:
        """The kept rows in one set of arrays, each step let go of as soon as it is copied."""
        rows = int(sum(kept.sum() for kept in self.kept))
        nonzeros = total_nonzeros(step.nonzeros(kept) for step, kept in zip(self.steps, self.kept))
        return Demonstrations.concatenate(self._kept_rows(), rows, self.sizes, nonzeros)

    def _kept_rows(self) -> Iterator[Demonstrations]:
        while self.steps:
            yield self.steps.popleft().select(self.kept.popleft())


class Rows:
    """Rows of several parts' arrays (dense, or `SparseRows` made dense row by row) read as one
    array (``rows[index]``, a tensor of those rows) without concatenating them: DAgger adds parts
    to a set, and only a minibatch is ever dense. Parts without the array (None) read as None."""

    def __init__(self, arrays: list[np.ndarray | SparseRows | None]):
        self.arrays = None if arrays[0] is None else arrays
        self.starts = np.cumsum([0] + [len(array) for array in arrays[:-1]]) if self.arrays else None

    def __getitem__(self, index: torch.Tensor) -> torch.Tensor | None:
        if self.arrays is None:
            return None
        index = index.numpy()
        if len(self.arrays) == 1:
            return torch.from_numpy(_rows_of(self.arrays[0], index))
        part = np.searchsorted(self.starts, index, side="right") - 1
        first = self.arrays[0]
        out = np.empty((len(index), *first.shape[1:]), first.dtype)
        for p in np.unique(part).tolist():
            which = part == p
            out[which] = _rows_of(self.arrays[p], index[which] - self.starts[p])
        return torch.from_numpy(out)


def _rows_of(array: np.ndarray | SparseRows, index: np.ndarray) -> np.ndarray:
    return array.dense(index) if isinstance(array, SparseRows) else array[index]
