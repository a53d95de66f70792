"""Mutated snapshots of every game: each is refused with a ValueError (naming the field, not
echoing the input) or plays on to the end with no other exception. A longer run of the same
fuzz: `python benchmarks/fuzz_snapshots.py --count 20000`."""

from __future__ import annotations

import zlib

import card_envs
from card_envs.core.snapshot_fuzz import fuzz
from tests.conftest import case_id

MUTATED_PER_CONFIG = 150


def test_mutated_snapshots_are_refused_or_play_to_the_end(env_case):
    env_id, config = env_case
    game = card_envs.make_game(env_id, **config)
    report = fuzz(game, seed=zlib.crc32(case_id(env_case).encode()), count=MUTATED_PER_CONFIG)
    assert not report.failures, "\n".join(report.failures[:10])
    assert report.outcomes["refused"] > MUTATED_PER_CONFIG // 2  # the mutations do hit the checks
