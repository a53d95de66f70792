"""Observation layouts: a vector declared once as named pieces.

One `Layout` gives the flat size, each piece's slice, named views into a vector, Box bounds and
the markdown table that the env docstrings show (a test keeps the two in sync).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
