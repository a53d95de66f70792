"""Piles' batched engine: `engine` (the state tensors, the torch backend) and `kernels` (the
numba CPU path, `PilesNumba`, over the same tensors).
"""
