"""numpy's ``default_rng(entropy).permutation(n)`` in numba, bit for bit, without numpy per call.

Dominion's reference engine makes its k-th shuffle with
``np.random.default_rng([seed, k]).permutation(len(cards))`` (`DominionState._shuffle`); a
batched engine carries ``seed`` and ``k`` per game and makes the same permutation here, inside
its kernels. Reproduced, as numpy 2.4.6 implements them (``numpy/random/bit_generator.pyx``,
``_pcg64``, ``_generator.pyx``, ``distributions.c``):

- `SeedSequence(entropy)`: each non-negative int becomes its little-endian uint32 words (0 is one
  word); the words are hashed into a pool of 4 (`seed_words`, `seed_pair`), which
  ``generate_state(4, uint64)`` turns into PCG64's 128-bit state and increment;
- PCG64: the 128-bit LCG with PCG's default multiplier, stepped before each output, XSL-RR
  output (`next_uint64`); `next_uint32` returns the low half of a 64-bit draw and keeps the
  high half for the next call, as numpy does;
- `Generator.shuffle` / `permutation` (n < 2**32): Fisher-Yates from the end, each index drawn by
  ``random_interval`` (masked rejection on `next_uint32`), not Lemire's method that
  `Generator.integers` uses.

A generator is a uint64[GEN_SIZE] array the caller owns, so a kernel allocates nothing per
shuffle. tests/envs/test_numpy_random.py compares every piece with numpy over thousands of seeds,
shuffle counts and lengths, rejection draws included; numpy promises no stream compatibility for
`Generator`, so that test is the guard and must pass after every numpy upgrade.

Speed, best of 3 over 20,000 (seed, k) with seeds drawn as Dominion draws them (2 shared cores,
numba 0.68.1, numpy 2.4.6, under flock /tmp/card_envs_heavy.lock): `shuffle_pair` in an njit loop
against ``np.random.default_rng([s, k]).permutation(n)`` in a Python loop: n=10 6.19M/s against
77.0k/s (80x), n=40 2.08M/s against 74.7k/s (28x).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
from card_envs.numba_cache import njit

GEN_SIZE = 6  # a generator's uint64 words: state high, low; increment high, low; has_uint32, uinteger
_STATE_HI, _STATE_LO, _INC_HI, _INC_LO, _HAS32, _UINT32 = range(GEN_SIZE)

# SeedSequence's hash constants (uint32 arithmetic, done in uint64 and masked).
_INIT_A, _MULT_A = np.uint64(0x43B0D7E5), np.uint64(0x931E8875)
_INIT_B, _MULT_B = np.uint64(0x8B51F9DD), np.uint64(0x58F38DED)
_MIX_MULT_L, _MIX_MULT_R = np.uint64(0xCA01F9DD), np.uint64(0x4973F715)
# PCG64's 128-bit multiplier (PCG_DEFAULT_MULTIPLIER_128), as two halves.
_MULT_HI, _MULT_LO = np.uint64(0x2360ED051FC65DA4), np.uint64(0x4385DF649FCCF645)
_M32 = np.uint64(0xFFFFFFFF)
_0, _1, _16, _32, _58, _63, _64 = (np.uint64(v) for v in (0, 1, 16, 32, 58, 63, 64))


# ----- SeedSequence ---------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _hashmix(value, h):
    """numpy's ``hashmix``: (hashed value, next hash constant), both 32-bit."""
    value = (value ^ h) & _M32
    h = (h * _MULT_A) & _M32
    value = (value * h) & _M32
    return value ^ (value >> _16), h


@njit(cache=True, inline="always")
def _mix(x, y):
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _M32
    return result ^ (result >> _16)


@njit(cache=True, inline="always")
def _mix_in(gen, dst, word, h):
    """Mix entropy or pool word `word` into pool word gen[dst]: the next hash constant."""
    v, h = _hashmix(word, h)
    gen[dst] = _mix(gen[dst], v)
    return h


@njit(cache=True)
def _pool(w0, w1, w2, w3, gen):
    """``mix_entropy`` of the first four entropy words into the pool, kept in gen[0:4] until
    `_seed_from_pool` replaces it by the state (a missing word is 0: numpy's padding hashes 0):
    the hash constant for any further words."""
    h = _INIT_A
    gen[0], h = _hashmix(w0, h)
    gen[1], h = _hashmix(w1, h)
    gen[2], h = _hashmix(w2, h)
    gen[3], h = _hashmix(w3, h)
    for src in range(4):
        for dst in range(4):
            if src != dst:
                h = _mix_in(gen, dst, gen[src], h)
    return h


@njit(cache=True, inline="always")
def _state_pair(p_lo, p_hi, h):
    """Two ``generate_state`` words from pool words p_lo, p_hi as one uint64 (low word first):
    (that, the next hash constant)."""
    lo = (p_lo ^ h) & _M32
    h = (h * _MULT_B) & _M32
    lo = (lo * h) & _M32
    hi = (p_hi ^ h) & _M32
    h = (h * _MULT_B) & _M32
    hi = (hi * h) & _M32
    return (lo ^ (lo >> _16)) | ((hi ^ (hi >> _16)) << _32), h


@njit(cache=True)
def _seed_from_pool(gen):
    """PCG64 from the pool in gen[0:4]: ``generate_state(4, uint64)`` (8 words cycling the pool)
    gives seed (v0 high, v1 low) and sequence (v2, v3), set as ``pcg64_set_seed`` does."""
    p0, p1, p2, p3 = gen[0], gen[1], gen[2], gen[3]
    v0, h = _state_pair(p0, p1, _INIT_B)
    v1, h = _state_pair(p2, p3, h)
    v2, h = _state_pair(p0, p1, h)
    v3, h = _state_pair(p2, p3, h)
    # pcg_setseq_128_srandom_r: state 0, inc = sequence << 1 | 1, step, state += seed, step.
    gen[_INC_HI] = (v2 << _1) | (v3 >> _63)
    gen[_INC_LO] = (v3 << _1) | _1
    gen[_STATE_HI], gen[_STATE_LO] = _0, _0
    _step(gen)
    lo = gen[_STATE_LO] + v1
    gen[_STATE_HI] = gen[_STATE_HI] + v0 + (_1 if lo < v1 else _0)
    gen[_STATE_LO] = lo
    _step(gen)
    gen[_HAS32], gen[_UINT32] = _0, _0


@njit(cache=True)
def seed_words(words, count, gen):
    """Seed `gen` as ``PCG64(SeedSequence(entropy))`` from the entropy's uint32 words
    ``words[:count]`` (`entropy_words` makes them from Python ints)."""
    w0 = np.uint64(words[0]) & _M32 if count > 0 else _0
    w1 = np.uint64(words[1]) & _M32 if count > 1 else _0
    w2 = np.uint64(words[2]) & _M32 if count > 2 else _0
    w3 = np.uint64(words[3]) & _M32 if count > 3 else _0
    h = _pool(w0, w1, w2, w3, gen)
    for i in range(4, count):  # words past the pool: each mixed into every pool word
        for dst in range(4):
            h = _mix_in(gen, dst, np.uint64(words[i]) & _M32, h)
    _seed_from_pool(gen)


@njit(cache=True)
def seed_pair(seed, k, gen):
    """Seed `gen` as ``np.random.default_rng([seed, k])`` for ints in [0, 2**64), without
    allocating. Each int is one uint32 word below 2**32 (0 included), else two; a trailing zero
    word is what numpy's padding of a short entropy hashes anyway. From Python, pass 2**63 and
    above as np.uint64 (numba makes a Python int an int64)."""
    s, kk = np.uint64(seed), np.uint64(k)
    if s >> _32:
        _pool(s & _M32, s >> _32, kk & _M32, kk >> _32, gen)
    else:
        _pool(s, kk & _M32, kk >> _32, _0, gen)
    _seed_from_pool(gen)


def entropy_words(entropy: int | Iterable[int]) -> np.ndarray:
    """uint32 words of a SeedSequence entropy, as numpy's ``_coerce_to_uint32_array`` makes them
    from a non-negative int or a sequence of them: little-endian words of each, 0 as one word."""
    values = [entropy] if isinstance(entropy, (int, np.integer)) else list(entropy)
    words = []
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"entropy: {v!r} is not accepted; give non-negative ints")
        v = int(v)
        words.append(v & 0xFFFFFFFF)
        while v >> 32:
            v >>= 32
            words.append(v & 0xFFFFFFFF)
    return np.array(words, dtype=np.uint32)


# ----- PCG64 ------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _mulhi(a, b):
    """The high 64 bits of the 128-bit product a * b."""
    a_lo, a_hi, b_lo, b_hi = a & _M32, a >> _32, b & _M32, b >> _32
    lo_lo, hi_lo, lo_hi = a_lo * b_lo, a_hi * b_lo, a_lo * b_hi
    cross = (lo_lo >> _32) + (hi_lo & _M32) + lo_hi
    return (hi_lo >> _32) + (cross >> _32) + a_hi * b_hi


@njit(cache=True, inline="always")
def _step(gen):
    """state = state * multiplier + inc (mod 2**128)."""
    s_hi, s_lo = gen[_STATE_HI], gen[_STATE_LO]
    hi = _mulhi(s_lo, _MULT_LO) + s_hi * _MULT_LO + s_lo * _MULT_HI
    lo = s_lo * _MULT_LO + gen[_INC_LO]
    gen[_STATE_HI] = hi + gen[_INC_HI] + (_1 if lo < gen[_INC_LO] else _0)
    gen[_STATE_LO] = lo


@njit(cache=True)
def next_uint64(gen):
    """``random_raw()``: step, then the XSL-RR output of the new state."""
    _step(gen)
    x, rot = gen[_STATE_HI] ^ gen[_STATE_LO], gen[_STATE_HI] >> _58
    return (x >> rot) | (x << ((_64 - rot) & _63))


@njit(cache=True)
def next_uint32(gen):
    """numpy's ``pcg64_next32``: the high half of the previous 64-bit draw when one is kept, else
    the low half of a new draw (keeping its high half)."""
    if gen[_HAS32]:
        gen[_HAS32] = _0
        return gen[_UINT32]
    word = next_uint64(gen)
    gen[_HAS32], gen[_UINT32] = _1, word >> _32
    return word & _M32


# ----- Generator --------------------------------------------------------------------------------
@njit(cache=True)
def random_interval(gen, top):
    """numpy's ``random_interval(bitgen, max)`` for max = top < 2**32: uniform in [0, top], by
    rejecting masked 32-bit draws above top."""
    bound = np.uint64(top)
    if bound == _0:
        return 0
    mask = bound  # the smallest all-ones mask covering bound
    mask |= mask >> _1
    mask |= mask >> np.uint64(2)
    mask |= mask >> np.uint64(4)
    mask |= mask >> np.uint64(8)
    mask |= mask >> _16
    value = next_uint32(gen) & mask
    while value > bound:
        value = next_uint32(gen) & mask
    return np.int64(value)


@njit(cache=True)
def shuffle(gen, x, n):
    """``Generator.shuffle(x[:n])`` in place (n < 2**32). Shuffling values gives what indexing
    them by ``permutation(n)`` gives: the same swaps."""
    if n > 0xFFFFFFFF:
        raise ValueError("shuffle: n must be below 2**32 (numpy draws wider indices differently)")
    for i in range(n - 1, 0, -1):
        j = random_interval(gen, i)
        x[i], x[j] = x[j], x[i]


@njit(cache=True)
def permutation(gen, n, out):
    """``Generator.permutation(n)`` into ``out[:n]``."""
    for i in range(n):
        out[i] = i
    shuffle(gen, out, n)


@njit(cache=True)
def shuffle_pair(seed, k, x, n, gen):
    """Dominion's k-th shuffle: ``x[:n] = x[:n][np.random.default_rng([seed, k]).permutation(n)]``
    in place; `gen` is scratch (uint64[GEN_SIZE])."""
    seed_pair(seed, k, gen)
    shuffle(gen, x, n)


def new_generator(entropy: int | Iterable[int] | None = None) -> np.ndarray:
    """A generator array (uint64[GEN_SIZE]), seeded as ``np.random.default_rng(entropy)`` when
    entropy is given (else zeros, to be seeded in a kernel)."""
    gen = np.zeros(GEN_SIZE, dtype=np.uint64)
    if entropy is not None:
        words = entropy_words(entropy)
        seed_words(words, len(words), gen)
    return gen
