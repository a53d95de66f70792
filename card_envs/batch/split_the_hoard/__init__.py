"""Split the Hoard's batched engine (numba only): `engine` (`SplitTheHoardBatch`, the state
arrays), `kernels` (mask, observation), `play` (the turn), `effects` (the cards), `scoring`.
"""
