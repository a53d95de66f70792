"""``best_bot``: in each game, the scripted bot that wins most on that game's kingdom.

On random kingdoms no single buy rule is the strongest: Witch-BM where Witch is, a Smithy bot
where Smithy is, Big Money where the kingdom offers nothing better, and the kingdom decides
which. `BestBot` is the opponent a player who knew every bot's strategy would be: for a kingdom
(its 10 piles, Bane and Ally, read from the first observation) it plays the named bots'
round-robin there (`round_robin`: every pair, every seating, `GAMES` games each, on the batched
engine with the compiled bots, seeded from the kingdom, so every process picks the same bot),
keeps the bot with the highest score rate against the others, and plays as it for the whole
game. A round-robin takes a few seconds a kingdom (2 players); each is played once per process.
"""

from __future__ import annotations

import zlib
from itertools import combinations
from typing import NamedTuple

import numpy as np

from card_envs.agents.dominion import batch as compiled
from card_envs.agents.dominion.bots import (
    BOT_ID, TABLES, BigMoneyUltimate, BigSmithy, CatapultRocksBM, DominionBot, SmithyBM, TownsfolkFortsBM, WitchBM)
from card_envs.games.dominion.cards import ALLIES, KINGDOM_PILES, PILE_NAMES

# The bots of the round-robin, in the order that breaks ties (`heuristic` is one of them on any
# kingdom: it plays the first of Witch-BM, Smithy-BM, ... that the Supply allows).
CANDIDATES = (BigMoneyUltimate, SmithyBM, BigSmithy, WitchBM, CatapultRocksBM, TownsfolkFortsBM)
GAMES = 8  # games of each pair in each seating: 240 games a kingdom with 2 players


class Kingdom(NamedTuple):
    """What makes one Dominion setup: the game's ``kingdom``, ``bane`` and ``ally`` arguments."""

    piles: tuple[str, ...]  # the 10 Kingdom piles, in pile order
    bane: str | None
    ally: str | None

    def config(self) -> dict:
        return {"kingdom": list(self.piles), "bane": self.bane, "ally": self.ally}


def kingdom_of(layout, observation: np.ndarray) -> Kingdom:
    """The kingdom of the game an observation (any seat's, any moment) comes from."""
    v = layout.views(observation)
    bane = int(np.argmax(v["bane"])) if v["bane"].any() else None
    piles = tuple(PILE_NAMES[p] for p in KINGDOM_PILES if v["supply_in"][p] > 0 and p != bane)
    ally = ALLIES[int(np.argmax(v["ally"]))] if v["ally"].any() else None
    return Kingdom(piles, None if bane is None else PILE_NAMES[bane], ally)


def seatings(num_players: int) -> list[tuple[int, ...]]:
    """For each pair of candidates (a, b): a in one seat and b in every other, then b in one and a
    in the others, for each seat: a row of candidate indices per seat (each once: with 2 players
    that is the two seatings)."""
    out = []
    for a, b in combinations(range(len(CANDIDATES)), 2):
        for lone, rest in ((a, b), (b, a)):
            for seat in range(num_players):
                out.append(tuple(lone if s == seat else rest for s in range(num_players)))
    return list(dict.fromkeys(out))


def round_robin(game, kingdom: Kingdom, games: int = GAMES) -> np.ndarray:
    """float64[len(CANDIDATES)]: each candidate's score rate against the others on `kingdom`
    (against each seat of the other bot: 1 for a higher return, 0.5 for an equal one)."""
    from card_envs.batch import make  # the engine only when a kingdom is first met

    seats = np.array([s for s in seatings(game.num_players) for _ in range(games)], np.int64)
    seed = zlib.crc32(repr(kingdom).encode())
    env = make("dominion_v0", len(seats), seed=seed, **{**game.config, **kingdom.config()})
    rng, player = np.random.default_rng(seed), CANDIDATES[0](game)
    bot_rows = np.array([BOT_ID[cls] for cls in CANDIDATES], np.int64)
    rows = np.arange(len(seats))
    returns = np.full((len(seats), game.num_players), np.nan)
    out = env.observe()
    while np.isnan(returns[:, 0]).any():
        acting = bot_rows[seats[rows, out.seat.numpy()]]
        actions = compiled.act_batch(player, out.obs.numpy(), out.mask.numpy(), rng, TABLES, lambda _: acting)
        out = env.step(actions)
        first = out.done.numpy() & np.isnan(returns[:, 0])  # each row's first game only
        returns[first] = out.reward.numpy()[first]
    wins, played = np.zeros(len(CANDIDATES)), np.zeros(len(CANDIDATES))
    for i, j in combinations(range(game.num_players), 2):
        differ = seats[:, i] != seats[:, j]
        score = np.where(returns[:, i] > returns[:, j], 1.0, np.where(returns[:, i] == returns[:, j], 0.5, 0.0))
        np.add.at(wins, seats[differ, i], score[differ])
        np.add.at(wins, seats[differ, j], 1.0 - score[differ])
        np.add.at(played, seats[differ, i], 1.0)
        np.add.at(played, seats[differ, j], 1.0)
    return wins / played


class BestBot(DominionBot):
    """Plays as the candidate that wins the round-robin on this game's kingdom (the first of the
    best where they tie)."""

    name = "best_bot"

    def __init__(self, game, games: int = GAMES):
        super().__init__(game)
        self.game, self.games = game, games
        self._bots = {cls: cls(game) for cls in CANDIDATES}
        self._picks: dict[Kingdom, type] = {}  # kingdom -> its best candidate, once played
        self.rates: dict[Kingdom, np.ndarray] = {}  # kingdom -> the round-robin's score rates
        # The observation entries that fix the kingdom, and their bytes -> its pick: a position is
        # looked up without decoding its kingdom.
        self._setup = np.concatenate([self.layout.index(n).ravel() for n in ("supply_in", "bane", "ally")])
        self._picks_by_setup: dict[bytes, type] = {}

    def pick(self, observation: np.ndarray) -> type:
        """The candidate this observation's kingdom calls for (its round-robin played first if new)."""
        key = observation[self._setup].tobytes()
        if key not in self._picks_by_setup:
            kingdom = kingdom_of(self.layout, observation)
            if kingdom not in self._picks:
                rates = round_robin(self.game, kingdom, self.games)
                self.rates[kingdom], self._picks[kingdom] = rates, CANDIDATES[int(np.argmax(rates))]
            self._picks_by_setup[key] = self._picks[kingdom]
        return self._picks_by_setup[key]

    def act(self, observation, action_mask, rng) -> int:
        return self._bots[self.pick(observation)].act(observation, action_mask, rng)

    def _compiled(self) -> bool:
        return True

    def _table_rows(self, observations: np.ndarray) -> np.ndarray:
        return np.array([BOT_ID[self.pick(o)] for o in observations], np.int64)
