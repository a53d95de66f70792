"""Dominion's batched engine (numba only): `engine` (`DominionBatch`, the state arrays, deals),
`kernels` (layout, mask, observation), `zones` (moving cards), `play` (the turn), `effects` (the
cards), `step` (the fused step kernel).
"""
