"""Batched Illimat (numba, CPU): B games as a struct of arrays, the same rules, masks and
observations as `card_envs.games.illimat` (the reference).

State, one row per game; seats are absolute, cards the reference's ids (0..64), n seats:

| array | dtype, shape | reference field |
|---|---|---|
| `feat` | float32[B, k] | `features`, the feature store, kept by the same writes, at `Tables.kept` (but for the pieces that say where each card is, `kernels.PLACE_PIECES`: those come from `loc` and the lists) |
| `loc` | int8[B, 65] | where each card is: `kernels.L_*` (+ seat or field) |
| `deck`, `deck_len` | int8[B, 65], int16[B] | `deck`, bottom .. top |
| `hand_len` | int8[B, n] | `len(hands[p])`; a hand is the cards whose `loc` is that seat's, in card order |
| `known` | bool[B, 65] | the card is in `known[p]` of the seat holding it |
| `loose_len`, `piles_len` | int8[B, 4] | `len(loose[f])`, `len(piles[f])` |
| `pile_key` | int8[B, 65] | a stockpiled card's stockpile, by its key (lowest) card; -1 elsewhere |
| `pile_val`, `pile_multi` | int8[B, 65], bool[B, 65] | at the key card: the stockpile's value and kind |
| `harv`, `harv_len` | int8[B, n, 65], int8[B, n] | `harvest[p]`, in order |
| `sec`, `sec_len`, `secret` | int8[B, n, 65], int8[B, n], bool[B, 65] | `secret[p]` in order, and per card |
| `hcounts` | int8[B, n, 6] | `hcounts[p]` |
| `lum`, `lum_up` | int8[B, 4], bool[B, 4] | `lum`, `lum_up` |
| `unused`, `disc_down`, `disc_up` (+ `_len`) | int8[B, 8] | `unused`, `discarded_down`, `discarded_up` |
| `under`, `under_len` | int8[B, 4, 3], int8[B, 4] | `under[f]` |
| `okus`, `claimed`, `claimed_len`, `scores` | per seat | `okus`, `claimed[p]` in order, `match_scores` |
| `m_items`, `m_full`, `c_given`, `c_taken` (+ `_len`) | int8[B, k] | the pending move's lists |
| scalars per game | | the same names, `round`, `chance_seed`, `cur` (`current_player`) |

The scalars: `summer`, `okus_left`, `decision`, `converged`, `main_done`, `rake_owed`, `swap_used`,
`cleared`, `okus_taken`, `m_card`, `m_field`, `m_action`, `m_partner`, `m_value`.

`gen` (uint64[B, 6]) is each game's scratch numpy generator (`card_envs.batch.numpy_random`):
round r of a game is dealt from ``default_rng((chance_seed, r))`` as the reference deals it,
so a loaded game plays on exactly as the reference's. A fresh game's chance seed is drawn from
the engine's torch generator.

Kernels: the card movements, the deal and the observation (`kernels`), the legal mask and every
decision of a turn (`play`), the clearing and the round's end (`rounds`), the field sums and
the exact cover of a harvest's items (`cover`, memoised in a hash table the engine owns). A step
is one fused kernel (`step`: apply, mask and observation a few games at a time, their rows still
in the cache), its observations written into an array this engine returned before and nobody
holds any more (`_step_observations`). Python:
the chance seeds of fresh games, loads, `state(i)` and the returns of finished games (from their
match scores, as the reference's `returns()`).

The optional observation pieces are kernels too, written into the observation's own columns:
``harvest_features`` and ``play_features`` (`pieces`) and ``threat_features`` (`threats`), with
the reference's bounded group searches (`groups`). Each game keeps a seat's pieces until what they
read changes (`recall`: a turn's decisions share them); they compute every field from scratch,
where the reference caches its fields' tables by content.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import torch

from card_envs.batch.base import BatchGame
from card_envs.batch.illimat import cover, kernels as K, pieces, play, recall, step as fused, threats
from card_envs.batch.numpy_random import GEN_SIZE
from card_envs.core.rewards import rank_returns, score_returns
from card_envs.games.illimat.cards import HAND_SIZE, NUM_CARDS, NUM_FIELDS, NUM_LUMINARIES
from card_envs.games.illimat.rules import IllimatState

# The optional observation pieces: (option, first piece, last piece) in the observation's order.
PIECES = (("harvest_features", "harvest_cards", "hand_clears"), ("play_features", "plays", "move_plays"),
          ("threat_features", "threats", "move_threats"))
# The pieces' pending-move columns: (option, the per-card piece, its move piece, rows of each).
MOVE_COLUMNS = (("play_features", "plays", "move_plays", 11), ("threat_features", "threats", "move_threats", 3))


class IllimatBatch(BatchGame):
    env_id = "illimat_v0"
    backend = "numba"

    def __init__(self, batch_size: int, device: str | torch.device = "cpu", seed: int = 0,
                 auto_forced: bool = False, **config: Any):
        if torch.device(device).type != "cpu":
            raise ValueError(f"illimat_v0's batched engine runs on the CPU (numba), not on {device!r}")
        self.memo = cover.new_memo()
        self._ready: tuple[np.ndarray, np.ndarray] | None = None  # see _apply
        super().__init__(batch_size, device, seed, auto_forced, **config)

    # ----- the state arrays ---------------------------------------------------------------------
    def _allocate(self) -> None:
        B, n, g = self.batch_size, self.num_players, self.game
        i8, b_ = np.int8, np.bool_
        self.t = K.tables(g)
        shapes = {
            "feat": (np.float32, (len(self.t.kept),)), "loc": (i8, (NUM_CARDS,)), "deck": (i8, (NUM_CARDS,)),
            "deck_len": (np.int16, ()), "hand_len": (i8, (n,)), "known": (b_, (NUM_CARDS,)),
            "loose_len": (i8, (NUM_FIELDS,)), "pile_key": (i8, (NUM_CARDS,)), "pile_val": (i8, (NUM_CARDS,)),
            "pile_multi": (b_, (NUM_CARDS,)), "piles_len": (i8, (NUM_FIELDS,)), "harv": (i8, (n, NUM_CARDS)),
            "harv_len": (i8, (n,)), "sec": (i8, (n, NUM_CARDS)), "sec_len": (i8, (n,)), "secret": (b_, (NUM_CARDS,)),
            "hcounts": (i8, (n, 6)), "lum": (i8, (NUM_FIELDS,)), "lum_up": (b_, (NUM_FIELDS,)),
            "unused": (i8, (NUM_LUMINARIES,)), "unused_len": (i8, ()), "disc_down": (i8, (NUM_LUMINARIES,)),
            "disc_down_len": (i8, ()), "disc_up": (i8, (NUM_LUMINARIES,)), "disc_up_len": (i8, ()),
            "under": (i8, (NUM_FIELDS, 3)), "under_len": (i8, (NUM_FIELDS,)), "summer": (i8, ()),
            "okus_left": (i8, ()), "okus": (i8, (n,)), "claimed": (i8, (n, NUM_LUMINARIES)),
            "claimed_len": (i8, (n,)), "decision": (i8, ()), "converged": (b_, ()), "main_done": (b_, ()),
            "rake_owed": (b_, ()), "swap_used": (b_, ()), "cleared": (i8, ()), "okus_taken": (b_, ()),
            "m_card": (i8, ()), "m_field": (i8, ()), "m_action": (i8, ()), "m_partner": (i8, ()),
            "m_value": (i8, ()), "m_items": (i8, (NUM_CARDS,)), "m_items_len": (i8, ()),
            "m_full": (i8, (HAND_SIZE,)), "m_full_len": (i8, ()), "c_given": (i8, (2,)), "c_given_len": (i8, ()),
            "c_taken": (i8, (2,)), "c_taken_len": (i8, ()), "round": (np.int16, ()), "scores": (np.int16, (n,)),
            "chance_seed": (np.int64, ()), "gen": (np.uint64, (GEN_SIZE,)),
        }
        arrays = {name: np.zeros((B, *shape), dtype) for name, (dtype, shape) in shapes.items()}
        self.cur = torch.zeros(B, dtype=torch.int64)
        arrays["cur"] = self.cur.numpy()  # the kernels write the tensor through this view
        self.s = K.Board(**arrays)
        # Each optional observation piece asked: its columns of the observation.
        sl = g.observation_layout.slices
        self._columns = {option: slice(sl[first].start, sl[last].stop) for option, first, last in PIECES
                         if getattr(g, option)}
        # A seat's pieces, kept until what they read changes (`recall`): the observation's last columns.
        self._pieces_at = min((c.start for c in self._columns.values()), default=self.observation_size)
        self._move_columns = [(sl[move].start - self._pieces_at, sl[cards].start - self._pieces_at, rows)
                              for option, cards, move, rows in MOVE_COLUMNS if getattr(g, option)]
        self._keys = np.zeros((B, n, recall.KEY), np.int8)
        self._valid = np.zeros((B, n), np.bool_)
        self._kept = np.zeros((B, n, self.observation_size - self._pieces_at), np.float32)

    # ----- deals and conversions -----------------------------------------------------------------
    def _deal(self, rows: torch.Tensor) -> None:
        """Fresh games in `rows`: a chance seed each from the torch generator (as the reference's
        `new_state` draws one), then the kernel deals round 0 from it."""
        self.s.chance_seed[rows.numpy()] = torch.randint(0, 2**63 - 1, (len(rows),), generator=self.generator).numpy()
        K.deal_rows(self.s, self.t, rows.numpy())
        if self._ready is not None:  # the step's mask and observations, those of the new games again
            fused.refresh(self.s, self.t, self.memo, rows.numpy(), *self._ready)

    def _load(self, states: Sequence[IllimatState], rows: torch.Tensor) -> None:
        self._ready = None
        for state, b in zip(states, rows.tolist()):
            self._load_one(state, b)

    def _load_one(self, st: IllimatState, b: int) -> None:
        s, n = self.s, self.num_players

        def listed(target, length, index, cards):
            target[index][:len(cards)] = cards
            length[index] = len(cards)

        s.loc[b] = K.L_OUT
        s.known[b] = s.secret[b] = False
        s.pile_key[b] = -1
        listed(s.deck, s.deck_len, b, st.deck)
        s.loc[b, st.deck] = K.L_DECK
        for p in range(n):
            s.loc[b, st.hands[p]] = K.L_HAND + p
            s.hand_len[b, p] = len(st.hands[p])
            s.known[b, st.known[p]] = True
            listed(s.harv, s.harv_len, (b, p), st.harvest[p])
            s.loc[b, st.harvest[p]] = K.L_HARVEST + p
            listed(s.sec, s.sec_len, (b, p), st.secret[p])
            s.secret[b, st.secret[p]] = True
            s.hcounts[b, p] = st.hcounts[p]
            listed(s.claimed, s.claimed_len, (b, p), st.claimed[p])
        for f in range(NUM_FIELDS):
            s.loc[b, st.loose[f]] = K.L_LOOSE + f
            s.loose_len[b, f] = len(st.loose[f])
            for key, value, multiple, cards in st.piles[f]:
                s.loc[b, list(cards)] = K.L_PILE + f
                s.pile_key[b, list(cards)] = key
                s.pile_val[b, key], s.pile_multi[b, key] = value, multiple
            s.piles_len[b, f] = len(st.piles[f])
            listed(s.under, s.under_len, (b, f), st.under[f])
            s.loc[b, st.under[f]] = K.L_UNDER + f
        s.lum[b], s.lum_up[b] = st.lum, st.lum_up
        listed(s.unused, s.unused_len, b, st.unused)
        listed(s.disc_down, s.disc_down_len, b, st.discarded_down)
        listed(s.disc_up, s.disc_up_len, b, st.discarded_up)
        s.summer[b], s.okus_left[b], s.okus[b] = st.summer, st.okus_left, st.okus
        s.decision[b], s.converged[b] = st.decision, st.converged
        s.main_done[b], s.rake_owed[b], s.swap_used[b] = st.main_done, st.rake_owed, st.swap_used
        s.cleared[b], s.okus_taken[b] = st.cleared, st.okus_taken
        s.m_card[b], s.m_field[b], s.m_action[b] = st.m_card, st.m_field, st.m_action
        s.m_partner[b], s.m_value[b] = st.m_partner, st.m_value
        listed(s.m_items, s.m_items_len, b, st.m_items)
        listed(s.m_full, s.m_full_len, b, st.m_full)
        listed(s.c_given, s.c_given_len, b, st.c_given)
        listed(s.c_taken, s.c_taken_len, b, st.c_taken)
        s.round[b], s.scores[b], s.chance_seed[b] = st.round, st.match_scores, st.chance_seed
        s.cur[b] = st.current_player
        s.feat[b] = st.features[self.t.kept]

    def state(self, i: int) -> IllimatState:
        """Game i as a reference state, through the reference snapshot (which checks it)."""
        return self.game.state_from_json(self.to_json(i))

    def to_json(self, i: int) -> dict[str, Any]:
        """Game i as the reference's ``state.to_json()``."""
        from card_envs.games.illimat.snapshot import state_to_json

        return state_to_json(self._reference_view(i))

    def _reference_view(self, i: int) -> IllimatState:
        """Game i as an IllimatState holding the same lists (its feature store is not rebuilt):
        what the reference's snapshot writer reads."""
        s, n = self.s, self.num_players
        st = IllimatState(self.game)
        loc = s.loc[i].tolist()

        def at(code: int) -> list[int]:
            return [c for c in range(NUM_CARDS) if loc[c] == code]

        def listed(array, length, index) -> list[int]:
            return array[index][:length[index]].tolist()

        st.round, st.match_scores = int(s.round[i]), s.scores[i].tolist()
        st.chance_seed, st.current_player, st.decision = int(s.chance_seed[i]), int(s.cur[i]), int(s.decision[i])
        st.deck = listed(s.deck, s.deck_len, i)
        st.hands = [at(K.L_HAND + p) for p in range(n)]
        st.known = [[c for c in hand if s.known[i, c]] for hand in st.hands]
        st.loose = [at(K.L_LOOSE + f) for f in range(NUM_FIELDS)]
        st.piles = []
        for f in range(NUM_FIELDS):
            cards = at(K.L_PILE + f)
            keys = [c for c in cards if s.pile_key[i, c] == c]
            st.piles.append([(k, int(s.pile_val[i, k]), bool(s.pile_multi[i, k]),
                              tuple(c for c in cards if s.pile_key[i, c] == k)) for k in keys])
        st.lum, st.lum_up = s.lum[i].tolist(), s.lum_up[i].tolist()
        st.under = [listed(s.under, s.under_len, (i, f)) for f in range(NUM_FIELDS)]
        st.unused = listed(s.unused, s.unused_len, i)
        st.discarded_down = listed(s.disc_down, s.disc_down_len, i)
        st.discarded_up = listed(s.disc_up, s.disc_up_len, i)
        st.summer, st.okus_left, st.okus = int(s.summer[i]), int(s.okus_left[i]), s.okus[i].tolist()
        st.claimed = [listed(s.claimed, s.claimed_len, (i, p)) for p in range(n)]
        st.harvest = [listed(s.harv, s.harv_len, (i, p)) for p in range(n)]
        st.secret = [listed(s.sec, s.sec_len, (i, p)) for p in range(n)]
        st.converged = bool(s.converged[i])
        st.main_done, st.rake_owed, st.swap_used = bool(s.main_done[i]), bool(s.rake_owed[i]), bool(s.swap_used[i])
        st.cleared, st.okus_taken = int(s.cleared[i]), bool(s.okus_taken[i])
        st.m_card, st.m_field, st.m_action = int(s.m_card[i]), int(s.m_field[i]), int(s.m_action[i])
        st.m_partner, st.m_value = int(s.m_partner[i]), int(s.m_value[i])
        st.m_items, st.m_full = listed(s.m_items, s.m_items_len, i), listed(s.m_full, s.m_full_len, i)
        st.c_given, st.c_taken = listed(s.c_given, s.c_given_len, i), listed(s.c_taken, s.c_taken_len, i)
        return st

    # ----- rules ---------------------------------------------------------------------------------
    def _apply(self, actions: torch.Tensor, active: torch.Tensor) -> None:
        self._fused_apply(actions, active, lambda a, on: play.apply(self.s, self.t, a, on),
                          lambda a, mask, obs: fused.step(self.s, self.t, self.memo, a, self._legal, mask, obs))

    def _returns(self, rows: torch.Tensor) -> torch.Tensor:
        """The reference's `returns()` of each finished game, from its match scores."""
        g, scores = self.game, self.s.scores[rows.numpy()]
        out = rank_returns(scores) if g.reward == "win" else score_returns(scores, g.score_high - g.score_low)
        return torch.from_numpy(out.astype(np.float32))

    # ----- mask, observation ---------------------------------------------------------------------
    def _mask(self) -> torch.Tensor:
        """The legal mask (a copy of it is kept to check the next actions with)."""
        if self._ready is not None:
            out = self._ready[0]
        else:
            out = np.empty((self.batch_size, self.num_actions), dtype=np.bool_)
            play.mask(self.s, self.t, self.memo, out)
        self._legal = out
        return torch.from_numpy(out.copy())

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        """The observations: the fused step's, else the gather from the feature store; then the
        optional pieces asked (their kernels write into the observation's own columns)."""
        if seat is None and self._ready is not None:  # the step's, once
            out, self._ready = self._ready[1], None
            seat = self.cur.numpy()
        else:
            out = np.empty((self.batch_size, self.observation_size), dtype=np.float32)
            seat = (self.cur if seat is None else seat).numpy()
            K.observe(self.s, self.t, seat, out)
        if self._columns:
            self._observe_pieces(seat, out)
        return torch.from_numpy(out)

    def _observe_pieces(self, seat: np.ndarray, out: np.ndarray) -> None:
        """The optional pieces: a seat's kept ones where what they read is unchanged (`recall`),
        the kernels' for the other rows (a seat of -1 skips a row)."""
        s, t, memo = self.s, self.t, self.memo
        todo = np.empty(self.batch_size, np.int64)
        kept = out[:, self._pieces_at:]
        recall.recall(s, seat, self._keys, self._valid, self._kept, kept, todo)
        harvest, plays = self._columns.get("harvest_features"), self._columns.get("play_features")
        if harvest or plays:  # an unasked piece's output is the asked one's columns, left alone
            pieces.pieces_rows(s, t, todo, memo, harvest is not None, plays is not None,
                               out[:, harvest or plays], out[:, plays or harvest])
        threat = self._columns.get("threat_features")
        if threat and threats.threat_pieces(s, t, todo, memo, out[:, threat]):
            raise RuntimeError("illimat_v0's batched engine cannot compute the threat pieces of a field of 64 items "
                               "(its groups need a 65th bit); no game reaches one by play")
        recall.remember(todo, self._valid, self._kept, kept)
        for at, cards_at, rows in self._move_columns:
            recall.move_columns(s, seat, todo, at, cards_at, rows, kept)

    def state_tensors(self) -> torch.Tensor:
        """float32[B, state_size]: each game's `state_tensor()` (full information, for centralised
        critics only)."""
        out = np.empty((self.batch_size, self.game.state_layout.size), np.float32)
        K.state_rows(self.s, self.t, out)
        return torch.from_numpy(out)

    def _terminal(self) -> torch.Tensor:
        return torch.from_numpy(self.s.decision == K.OVER)
