"""3 Piles' batched engine: `engine` (the state tensors, the torch backend) and `kernels`
(the numba CPU path, `ThreePilesNumba`, over the same tensors).
"""
