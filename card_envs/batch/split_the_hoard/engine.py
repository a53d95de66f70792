"""Batched Split the Hoard (numba, CPU): B games as a struct of arrays, the same rules,
observations and masks as `card_envs.games.split_the_hoard` (the reference).

State, one row per game; seats are absolute, cards are the reference's card ids (0..N-1, grouped
by name in cards-file order; N Hoard cards, NN names, n seats, T hidden Titles). Every ordered
pile is an array holding its cards in the reference's list order, with its length beside it:

| array | dtype, shape | reference field |
|---|---|---|
| `deck`, `deck_len` | int16[B, N], int16[B] | `deck`, bottom .. top (the top is `deck[b, deck_len - 1]`) |
| `cdisc`, `cdisc_len` | int16[B, N], int16[B] | `coin_discard` |
| `tdisc`, `tdisc_len` | int16[B, N], int16[B] | `treasure_discard` |
| `coins`, `coins_len` | int16[B, n, N], int16[B, n] | `coins[p]`, oldest first |
| `treas`, `treas_len` | int16[B, n, N], int16[B, n] | `treasures[p]`, sorted by card id |
| `tcount` | int8[B, n, NN] | `tcount[p]`, Treasures per name |
| `hand`, `hand_len` | int16[B, n, 4], int8[B, n] | `hand[p]` (3 dealt, a 4th from the Wizard's deal or EXTRA_DRAW) |
| `offer` | int16[B, n, 3] | `offer[p][k]`, -1 empty |
| `added`, `added_len` | int16[B, n, 3, N], int16[B, n, 3] | `added[p][k]` |
| `known` | int8[B, N] | `known_by[c]`, the bitmask of seats that know face-down card c |
| `classes`, `titles` | int8[B, n] | `classes[p]`, `titles[p]` |
| `tdeck`, `tdeck_len` | int8[B, T], int8[B] | `title_deck` (sorted) |
| `power_used` | bool[B, n] | `power_used[p]` |
| `flipped`, `end_flag`, `printed_only`, `acted` | bool[B] | the same names |
| `dragon`, `dragon_taker` | int8[B] | the same (-1: no taker) |
| `phase`, `stage` | int8[B] | `phase` (0..3), `stage` (`kernels.STAGE_CODES`) |
| `round` | int16[B] | `round` |
| `decision` | int8[B] | `decision` (effects' codes, 16 = game over) |
| `cur` | int64[B] (torch) | `current_player` |
| `eff` | int16[B, 15] | `eff`: columns `kernels.EFF_FIELDS` (kind -1: none; -1 where the kind lacks a field); a TAKE_EACH queue, always the last seats of actor + 1, ..., actor + n - 1, is its start index `queue` in that order |
| `pos` | int16[B, P] | `eff["pos"]` (its length is `eff[:, npos]`; P the largest FLIP_COIN count) |
| `deals`, `deals_len` | int16[B, D, 2], int8[B] | `deals`: (seat, card) Deal triggers waiting (D: the Deal-like cards) |
| `prio`, `passes`, `commit_i`, `commit_slot`, `turn_i` | int8[B] | the same |
| `actions_left`, `discount`, `discount_floor` | int16[B] | the same |
| `refused`, `refused_len` | int8[B, 3n], int8[B] | `refused`, each pair (q, k) as 3q + k, in order |
| `refill`, `refill_len` | int8[B, n], int8[B] | `refill` |

The reference's `seen` (the cards some seat knows) is not kept: it is the cards whose `known` is
not 0. Cards of one name are interchangeable in the rules (every answer names a card, and the
reference picks among that name's cards by position), so a state converted back by `state(i)`
(through the reference snapshot, which numbers cards by name) plays the same game.

Requires numba (`card_envs.batch.make` gives this engine; it has no torch backend). Kernels: the
rules (`split_the_hoard_play`, `split_the_hoard_effects`: every decision, effect and phase, the
forced decisions of ``auto_forced``, the deal after its shuffles), the mask and the observation
(`split_the_hoard_kernels`), the returns (`split_the_hoard_scoring`), and a step of every game as
one fused kernel (`split_the_hoard_step`: the actions checked against the last mask, applied, then
the masks and observations, a block at a time). Python: the shuffles of a deal.

Decisions:

- Card ids are the reference's (int16: a cards file may hold up to 4,000 cards); seats and small
  counters int8. Every ordered pile keeps the reference's order, so conversions are copies and
  the kernels follow the reference line by line.
- `eff` is one int16 row per game with named columns (`kernels.EFF_FIELDS`); a TAKE_EACH queue is
  the index of its first seat in actor + 1, ..., actor + n - 1 (the reference only pops its
  front; `load` refuses any other queue). FLIP_COIN's looked-at positions live in `pos`.
- Deals: the reference's shuffles (deck, hidden Titles, classes, first player) drawn from the
  torch generator in float64 (`rand().argsort()`), then the kernel does what `new_state` does.
  The game has no chance after the deal, so the differential check replays batched deals.
- Observations are summed in float64 in the reference's order per index, converted to float32
  and capped at 1, as its `np.bincount(...).astype(np.float32)` and `np.minimum` do.
- Speed: the kernels take the state as one named tuple of arrays, which numba reference-counts
  array by array at every call and inlined helper; `numba_borrow.borrowed` drops that (at B=4096:
  the mask 12x faster, apply 4x, the observation 2x). A step is then mostly memory: the
  observation alone is 21 MB at B=4096 (3 players), and each game's rows lie in some 50 arrays.
  Returns are a kernel too (the reference's Python scoring took 0.3 ms per finished game, about
  2 us per decision). A step without ``auto_forced`` is one fused kernel (`split_the_hoard_step`),
  which passes the state to the rules' helpers by reference and prefetches the next block's rows;
  its observations go into an array nothing holds any more (`_step_observations`): 1.24x
  (2026-12-06).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import torch

from card_envs.batch.split_the_hoard import kernels as K
from card_envs.batch.split_the_hoard import play as play
from card_envs.batch.split_the_hoard import scoring as scoring
from card_envs.batch.split_the_hoard import step as hoard_step
from card_envs.batch.base import BatchGame
from card_envs.games.split_the_hoard.effects import DECISION_NAMES
from card_envs.games.split_the_hoard.rules import HAND, PHASE_NAMES, SLOTS, SplitTheHoardState

HAND_MAX = HAND + 1  # the snapshot's bound too


class SplitTheHoardBatch(BatchGame):
    env_id = "split_the_hoard_v0"
    backend = "numba"

    def __init__(self, batch_size: int, device: str | torch.device = "cpu", seed: int = 0,
                 auto_forced: bool = False, **config: Any):
        if torch.device(device).type != "cpu":
            raise ValueError(f"split_the_hoard_v0's batched engine runs on the CPU (numba), not on {device!r}")
        super().__init__(batch_size, device, seed, auto_forced, **config)

    # ----- the state arrays ---------------------------------------------------------------------
    def _allocate(self) -> None:
        B, g = self.batch_size, self.game
        n, cs = self.num_players, g.cards
        N, NN, T = cs.num_cards, cs.num_names, len(cs.hidden)
        flips = [e[1] for e in list(cs.effect) + [c.effect for c in cs.classes]
                 if e is not None and e[0] == "FLIP_COIN"]
        deal_cards = sum(r.copies for r in cs.rows if r.trigger == "enter_haul")
        shapes = {  # name -> (dtype, shape after B)
            "deck": (np.int16, (N,)), "deck_len": (np.int16, ()), "cdisc": (np.int16, (N,)),
            "cdisc_len": (np.int16, ()), "tdisc": (np.int16, (N,)), "tdisc_len": (np.int16, ()),
            "coins": (np.int16, (n, N)), "coins_len": (np.int16, (n,)), "treas": (np.int16, (n, N)),
            "treas_len": (np.int16, (n,)), "tcount": (np.int8, (n, NN)), "hand": (np.int16, (n, HAND_MAX)),
            "hand_len": (np.int8, (n,)), "offer": (np.int16, (n, SLOTS)), "added": (np.int16, (n, SLOTS, N)),
            "added_len": (np.int16, (n, SLOTS)), "known": (np.int8, (N,)), "classes": (np.int8, (n,)),
            "titles": (np.int8, (n,)), "tdeck": (np.int8, (T,)), "tdeck_len": (np.int8, ()),
            "power_used": (np.bool_, (n,)), "flipped": (np.bool_, ()), "dragon": (np.int8, ()),
            "dragon_taker": (np.int8, ()), "phase": (np.int8, ()), "stage": (np.int8, ()), "round": (np.int16, ()),
            "end_flag": (np.bool_, ()), "decision": (np.int8, ()), "eff": (np.int16, (len(K.EFF_FIELDS),)),
            "pos": (np.int16, (max(flips, default=1),)), "deals": (np.int16, (max(deal_cards, 1), 2)),
            "deals_len": (np.int8, ()), "prio": (np.int8, ()), "passes": (np.int8, ()), "commit_i": (np.int8, ()),
            "commit_slot": (np.int8, ()), "turn_i": (np.int8, ()), "actions_left": (np.int16, ()),
            "discount": (np.int16, ()), "discount_floor": (np.int16, ()), "printed_only": (np.bool_, ()),
            "refused": (np.int8, (SLOTS * n,)), "refused_len": (np.int8, ()), "acted": (np.bool_, ()),
            "refill": (np.int8, (n,)), "refill_len": (np.int8, ()),
        }
        arrays = {name: np.zeros((B, *shape), dtype) for name, (dtype, shape) in shapes.items()}
        self.cur = torch.zeros(B, dtype=torch.int64)
        arrays["cur"] = self.cur.numpy()  # the kernels write the tensor through this view
        self.s = K.Hoard(**arrays)
        self.t = K.tables(g)
        self.score_tables = scoring.score_tables(g)
        self.obs_offsets = K.offsets(g.observation_layout)
        self._ready: tuple[np.ndarray, np.ndarray] | None = None  # see _apply
        self.state_offsets = K.offsets(g.state_layout)

    # ----- deals and conversions -----------------------------------------------------------------
    def _deal(self, rows: torch.Tensor) -> None:
        """Fresh games in `rows`: the reference's shuffles (the deck, the hidden Titles, the
        classes, the first player) drawn from the torch generator, then the kernel deals."""
        m, gen, cs = len(rows), self.generator, self.game.cards

        def permutations(size: int) -> np.ndarray:
            return torch.rand(m, size, generator=gen, dtype=torch.float64).argsort(1).numpy()

        deck, titles, classes = permutations(cs.num_cards), permutations(len(cs.hidden)), permutations(len(cs.classes))
        dragon = torch.randint(0, self.num_players, (m,), generator=gen).numpy()
        ready = self._ready
        self._ready = None
        play.deal(self.s, self.t, rows.numpy(), deck, titles, classes, dragon)
        if ready is not None:  # the step's mask and observations, those of the new games again
            hoard_step.refresh(self.s, self.t, self.obs_offsets, rows.numpy(), *ready)
            self._ready = ready

    def _load(self, states: Sequence[SplitTheHoardState], rows: torch.Tensor) -> None:
        self._ready = None
        for state, b in zip(states, rows.tolist()):
            self._load_one(state, b)

    def _load_one(self, st: SplitTheHoardState, b: int) -> None:
        s, n = self.s, self.num_players

        def pile(target, length, index, cards):
            if cards:
                target[index][:len(cards)] = cards
            target[index][len(cards):] = 0
            length[index] = len(cards)

        if any(len(h) > HAND_MAX for h in st.hand):
            raise ValueError(f"load: a hand of more than {HAND_MAX} cards: {st.to_json()['hands']}")
        pile(s.deck, s.deck_len, b, st.deck)
        pile(s.cdisc, s.cdisc_len, b, st.coin_discard)
        pile(s.tdisc, s.tdisc_len, b, st.treasure_discard)
        for p in range(n):
            pile(s.coins, s.coins_len, (b, p), st.coins[p])
            pile(s.treas, s.treas_len, (b, p), st.treasures[p])
            pile(s.hand, s.hand_len, (b, p), st.hand[p])
            s.tcount[b, p] = st.tcount[p]
            s.offer[b, p] = st.offer[p]
            for k in range(SLOTS):
                pile(s.added, s.added_len, (b, p, k), st.added[p][k])
        s.known[b] = st.known_by
        s.classes[b], s.titles[b] = st.classes, st.titles
        pile(s.tdeck, s.tdeck_len, b, st.title_deck)
        s.power_used[b] = st.power_used
        s.flipped[b], s.end_flag[b], s.printed_only[b], s.acted[b] = st.flipped, st.end_flag, st.printed_only, st.acted
        s.dragon[b], s.dragon_taker[b] = st.dragon, st.dragon_taker
        s.phase[b], s.stage[b], s.round[b] = st.phase, K.STAGE_CODES.index(st.stage), st.round
        s.decision[b], s.cur[b] = st.decision, st.current_player
        self._load_effect(st, b)
        pile(s.deals, s.deals_len, b, [list(pair) for pair in st.deals])
        s.prio[b], s.passes[b], s.commit_i[b], s.commit_slot[b] = st.prio, st.passes, st.commit_i, st.commit_slot
        s.turn_i[b], s.actions_left[b] = st.turn_i, st.actions_left
        s.discount[b], s.discount_floor[b] = st.discount, st.discount_floor
        pile(s.refused, s.refused_len, b, [SLOTS * q + k for q, k in st.refused])
        pile(s.refill, s.refill_len, b, st.refill)

    def _load_effect(self, st: SplitTheHoardState, b: int) -> None:
        s, n, e = self.s, self.num_players, st.eff
        s.eff[b] = -1
        s.pos[b] = 0
        if e is None:
            return
        row = s.eff[b]
        row[K.E_KIND], row[K.E_STAGE] = K.EFFECT_KINDS.index(e["k"]), K.EFFECT_STAGES.index(e["stage"])
        row[K.E_ACTOR], row[K.E_SRC] = e["actor"], e["src"]
        for key, column in (("n", K.E_N), ("target", K.E_TARGET), ("m", K.E_M), ("i", K.E_I), ("pay", K.E_PAY),
                            ("take", K.E_TAKE), ("give", K.E_GIVE), ("slot", K.E_SLOT)):
            if key in e:
                row[column] = e[key]
        if "optional" in e:
            row[K.E_OPTIONAL] = int(e["optional"])
        if "queue" in e:
            start = n - 1 - len(e["queue"])
            if e["queue"] != [(e["actor"] + 1 + j) % n for j in range(start, n - 1)]:
                raise ValueError(f"load: a TAKE_EACH queue {e['queue']} that is not the last seats after its "
                                 f"actor {e['actor']}")
            row[K.E_QUEUE] = start
        if "pos" in e:
            s.pos[b, :len(e["pos"])] = e["pos"]
            row[K.E_NPOS] = len(e["pos"])

    def state(self, i: int) -> SplitTheHoardState:
        """Game i as a reference state, through the reference snapshot (which checks it)."""
        return self.game.state_from_json(self.to_json(i))

    def to_json(self, i: int) -> dict[str, Any]:
        """Game i as the reference's ``state.to_json()`` (format 1)."""
        s, g, n = self.s, self.game, self.num_players
        cs = g.cards
        names, NAME = cs.names, cs.NAME
        known = s.known[i]

        def face_down(c: int) -> str:
            bits = int(known[c])
            if not bits:
                return names[NAME[c]]
            return f"{names[NAME[c]]} (seen by {','.join(str(q) for q in range(n) if bits >> q & 1)})"

        def cards(array, length, index, hidden=True) -> list[str]:
            ids = array[index][:length[index]].tolist()
            return [face_down(c) if hidden else names[NAME[c]] for c in ids]

        offers = []
        for p in range(n):
            row = []
            for k in range(SLOTS):
                c = int(s.offer[i, p, k])
                row.append({"treasure": face_down(c) if c >= 0 else None,
                            "coins": cards(s.added, s.added_len, (i, p, k))})
            offers.append(row)
        refused = s.refused[i, :s.refused_len[i]].tolist()
        return {
            "game": g.name, "format": g.snapshot_format, "num_players": n,
            "round": int(s.round[i]), "phase": PHASE_NAMES[s.phase[i]], "stage": K.STAGE_CODES[s.stage[i]],
            "dragon": int(s.dragon[i]), "dragon_taker": int(s.dragon_taker[i]), "end_triggered": bool(s.end_flag[i]),
            "current_player": int(s.cur[i]), "decision": DECISION_NAMES[s.decision[i]],
            "classes": [cs.class_names[c] for c in s.classes[i].tolist()],
            "hidden_titles": [cs.title_names[t] for t in s.titles[i].tolist()],
            "title_deck": [cs.title_names[t] for t in s.tdeck[i, :s.tdeck_len[i]].tolist()],
            "deck": cards(s.deck, s.deck_len, i), "coin_discard": cards(s.cdisc, s.cdisc_len, i),
            "treasure_discard": cards(s.tdisc, s.tdisc_len, i, hidden=False),
            "coins": [cards(s.coins, s.coins_len, (i, p)) for p in range(n)],
            "treasures": [cards(s.treas, s.treas_len, (i, p), hidden=False) for p in range(n)],
            "hands": [cards(s.hand, s.hand_len, (i, p)) for p in range(n)],
            "negotiate_cards": offers,
            "flipped": bool(s.flipped[i]), "powers_used": [bool(x) for x in s.power_used[i]],
            "priority": {"seat": int(s.prio[i]), "passes": int(s.passes[i])},
            "commit": {"seats_done": int(s.commit_i[i]), "slot": int(s.commit_slot[i])},
            "turn": {"turns_done": int(s.turn_i[i]), "actions_left": int(s.actions_left[i]), "acted": bool(s.acted[i]),
                     "discount": int(s.discount[i]), "discount_floor": int(s.discount_floor[i]),
                     "printed_only": bool(s.printed_only[i]), "refused": [[r // SLOTS, r % SLOTS] for r in refused]},
            "refill": s.refill[i, :s.refill_len[i]].tolist(),
            "effect": self._effect_json(i),
            "deal_triggers": [[q, names[NAME[c]]] for q, c in s.deals[i, :s.deals_len[i]].tolist()],
        }

    def _effect_json(self, i: int) -> dict[str, Any] | None:
        from card_envs.games.split_the_hoard.snapshot import EFFECT_KEYS

        s, n, names, NAME = self.s, self.num_players, self.game.cards.names, self.game.cards.NAME
        row = s.eff[i].tolist()
        if row[K.E_KIND] < 0:
            return None
        kind, actor = K.EFFECT_KINDS[row[K.E_KIND]], row[K.E_ACTOR]
        out: dict[str, Any] = {"kind": kind, "actor": actor, "stage": K.EFFECT_STAGES[row[K.E_STAGE]],
                               "source": names[row[K.E_SRC]] if row[K.E_SRC] >= 0 else None}
        columns = {"n": K.E_N, "target": K.E_TARGET, "m": K.E_M, "i": K.E_I, "pay": K.E_PAY, "slot": K.E_SLOT}
        for key in EFFECT_KEYS[kind]:
            if key in columns:
                out[key] = row[columns[key]]
            elif key in ("take", "give"):
                c = row[K.E_TAKE if key == "take" else K.E_GIVE]
                out[key] = names[NAME[c]] if c >= 0 else None
            elif key == "optional":
                out[key] = bool(row[K.E_OPTIONAL])
            elif key == "queue":
                out[key] = [(actor + 1 + j) % n for j in range(row[K.E_QUEUE], n - 1)]
            elif key == "pos":
                out[key] = s.pos[i, :row[K.E_NPOS]].tolist()
        return out

    # ----- rules ---------------------------------------------------------------------------------
    def _apply(self, actions: torch.Tensor, active: torch.Tensor) -> None:
        self._fused_apply(actions, active, lambda a, on: play.apply(self.s, self.t, a, on),
                          lambda a, mask, obs: hoard_step.step(self.s, self.t, self.obs_offsets, a, self._legal,
                                                               mask, obs))

    def _play_forced(self) -> tuple[torch.Tensor, torch.Tensor]:
        """Each game plays its own single-choice decisions in one kernel call (see the base class)."""
        mask = np.empty((self.batch_size, self.num_actions), dtype=np.bool_)
        ended = np.empty(self.batch_size, dtype=np.bool_)
        play.play_forced(self.s, self.t, mask, ended)
        self._legal = mask
        return torch.from_numpy(mask.copy()), torch.from_numpy(ended)

    def _returns(self, rows: torch.Tensor) -> torch.Tensor:
        """The returns of each finished game: the reference's scoring of its Hauls and ranking
        (`SplitTheHoardState.returns`), as a kernel (`split_the_hoard_scoring`)."""
        s = self.s
        out = np.empty((len(rows), self.num_players), dtype=np.float32)
        scoring.returns(s.tcount, s.coins_len, s.classes, s.titles, self.score_tables, rows.numpy(), out)
        return torch.from_numpy(out)

    # ----- mask, observation ---------------------------------------------------------------------
    def _mask(self) -> torch.Tensor:
        """The legal mask (a copy of it is kept to check the next actions with)."""
        if self._ready is not None:
            out = self._ready[0]
        else:
            out = np.empty((self.batch_size, self.num_actions), dtype=np.bool_)
            K.mask(self.s, self.t, out)
        self._legal = out
        return torch.from_numpy(out.copy())

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        if seat is None and self._ready is not None:  # the step's, once
            out, self._ready = self._ready[1], None
            return torch.from_numpy(out)
        out = np.empty((self.batch_size, self.observation_size), dtype=np.float32)
        seat = self.cur if seat is None else seat
        K.encode(self.s, self.t, self.obs_offsets, seat.numpy(), False, out)
        return torch.from_numpy(out)

    def state_tensors(self) -> torch.Tensor:
        """float32[B, state_size]: each game's `state_tensor()` (full information, for centralised
        critics only)."""
        out = np.empty((self.batch_size, self.game.state_layout.size), dtype=np.float32)
        K.encode(self.s, self.t, self.state_offsets, self.cur.numpy(), True, out)
        return torch.from_numpy(out)

    def _terminal(self) -> torch.Tensor:
        return torch.from_numpy(self.s.decision == K.OVER)
