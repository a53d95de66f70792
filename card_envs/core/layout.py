"""Observation layouts: a vector declared once as named pieces.

One `Layout` gives the flat size, each piece's slice, named views into a vector, Box bounds and
the markdown table that the env docstrings show (a test keeps the two in sync). A game may also
declare `ActionEntities`: a run of actions that each name one entity (a card) which the
observation describes along the last axis of some pieces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Piece:
    name: str
    shape: tuple[int, ...]
    meaning: str
    high: float = 1.0  # every value lies in [0, high]

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class Layout:
    def __init__(self, pieces: list[Piece]):
        names = [p.name for p in pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate piece names in {names}")
        self.pieces = tuple(pieces)
        self.slices: dict[str, slice] = {}
        start = 0
        for piece in pieces:
            self.slices[piece.name] = slice(start, start + piece.size)
            start += piece.size
        self.size = start

    def index(self, name: str) -> np.ndarray:
        """Flat indices of a piece, shaped like the piece (for building gathers)."""
        piece = self.pieces[[p.name for p in self.pieces].index(name)]
        s = self.slices[name]
        return np.arange(s.start, s.stop).reshape(piece.shape)

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named, shaped views into a flat vector of this layout (no copies)."""
        if vector.shape[-1] != self.size:
            raise ValueError(f"vector has {vector.shape[-1]} entries, layout expects {self.size}")
        batch = vector.shape[:-1]
        return {p.name: vector[..., self.slices[p.name]].reshape(batch + p.shape) for p in self.pieces}

    def high(self) -> np.ndarray:
        out = np.empty(self.size, dtype=np.float32)
        for p in self.pieces:
            out[self.slices[p.name]] = p.high
        return out

    def markdown(self) -> str:
        rows = ["| piece | shape | indices | meaning |", "|---|---|---|---|"]
        for p in self.pieces:
            s = self.slices[p.name]
            rows.append(f"| `{p.name}` | {p.shape} | {s.start}..{s.stop - 1} | {p.meaning} |")
        return "\n".join(rows)


@dataclass(frozen=True)
class ActionEntities:
    """Actions ``first_action .. first_action + count - 1`` each name one entity (e.g. card c is
    action ``first_action + c``), which the observation describes along the last axis (of size
    ``count``) of each piece in ``pieces``; ``identity`` [count, S] holds constant features of each
    entity (e.g. its rank and suit one-hot). A network can then score all these actions with one
    function of an entity's features (`card_envs.agents.neural.ActorCritic`'s entity heads)."""

    first_action: int
    pieces: tuple[str, ...]
    identity: np.ndarray = field(compare=False)

    @property
    def count(self) -> int:
        return len(self.identity)

    def index(self, layout: Layout) -> np.ndarray:
        """[count, F] flat observation indices: row e gathers entity e's entries of every piece."""
        columns = []
        for name in self.pieces:
            index = layout.index(name)
            if index.shape[-1] != self.count:
                raise ValueError(f"piece {name!r} has shape {index.shape}: its last axis must have the "
                                 f"{self.count} entities")
            columns.append(index.reshape(-1, self.count))
        return np.concatenate(columns).T.copy()
