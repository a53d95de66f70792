"""Illimat rules engine: pure Python + numpy, no RL imports. See the package docstring.

Hot-path notes: cards are ints (see `card_envs.core.cards`, suit 4 = Stars); a move is built from
small decisions and each decision's legal answers are computed lazily, from what was chosen so
far, never by listing complete moves:

- which card / field / action / value can still be completed is decided from each field's
  subset-sum bitmask (the sums its loose cards and single stockpiles can make, Fools as 1 or
  14; cached per field until the field changes);
- the items of a harvest or stockpile are picked one at a time in ascending card order; an item
  is offered when the items chosen so far plus it can still be covered exactly by disjoint
  groups that each total the value (a small exact-cover search over the groups, which are
  enumerated once per field content and value and memoised);
- the feature vector behind `observation()` and `state_tensor()` is updated incrementally by
  every card movement, so an observation is a single numpy gather.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

import numpy as np

from card_envs.core.cards import RANK, SUIT, card_name
from card_envs.core.game import Game, IllegalActionError, State
from card_envs.core.layout import ActionEntities, Layout, Piece
from card_envs.core.rewards import check_reward_mode, rank_returns, score_returns
from card_envs.games.illimat.groups import MULTIPLE_CODE, NUM_KINDS, coverable, one_group_totals
from card_envs.games.illimat.harvest_features import HARVEST_PIECES, harvest_features
from card_envs.games.illimat.play_features import PLAY_PIECES, play_features
from card_envs.games.illimat.threat_features import THREAT_PIECES, threat_features

# ----- cards, seasons, Luminaries -------------------------------------------------------------
NUM_CARDS = 65  # 5 suits x 13; the Stars (suit 4) are out of play in 1st-edition 2-3 player games
SUITS = "PSAW*"  # card names: rank (A = Fool, J = Knight, Q, K) + suit letter, e.g. "AS", "10W", "J*"
SPRING, SUMMER, AUTUMN, WINTER, STARS = range(5)  # a suit's season is its index (Stars: none)
SEASON_NAMES = ("spring", "summer", "autumn", "winter")
NUM_FIELDS = 4
RING = (SUMMER, AUTUMN, WINTER, SPRING)  # season of field f = RING[(f - summer_field) % 4]
RING_POS = tuple(RING.index(s) for s in range(4))
HAND_SIZE = 4
MAX_STOCKPILE = 14
MAX_VALUE = 28  # a harvest with the Union: two Fools as 14 each (a full harvest's value is never asked)
SUM_MASK = 0x3FFFFFFF  # field sums kept in the bitmasks: 0..29 (every value a card, a pair or a stockpile asks)
WIDE_SUM_MASK = (1 << 57) - 1  # with full_harvest=True: 0..56 (four Fools as 14 each)
FACE = tuple(RANK[c] in (1, 11, 12, 13) for c in range(NUM_CARDS))
IS_FOOL = tuple(RANK[c] == 1 for c in range(NUM_CARDS))
ACTIVE_VALUE = tuple(RANK[c] for c in range(NUM_CARDS))  # an active (stockpiled) Fool counts 1
PASSIVE_VALUE = tuple(14 if RANK[c] == 1 else RANK[c] for c in range(NUM_CARDS))  # a passive Fool: 14
HARVEST_VALUES = tuple((1, 14) if RANK[c] == 1 else (RANK[c],) for c in range(NUM_CARDS))
PAIR_VALUES = tuple(tuple(tuple(sorted({a + b for a in HARVEST_VALUES[c] for b in HARVEST_VALUES[d]}))
                          for d in range(NUM_CARDS)) for c in range(NUM_CARDS))

LUMINARIES = ("Maiden", "Changeling", "River", "Children", "Forest Queen", "Rake", "Union", "Newborn")
MAIDEN, CHANGELING, RIVER, CHILDREN, FOREST_QUEEN, RAKE, UNION, NEWBORN = range(8)
NUM_LUMINARIES = 8
NO_LUMINARY = -1

# ----- decisions and actions ------------------------------------------------------------------
(TURN, FIELD, ACTION, PARTNER, VALUE, ITEMS, SEASON, RAKE_CARD, SWAP_GIVE, SWAP_TAKE, CLAIM_GIVE,
 CLAIM_TAKE, CLAIM_SEASON, OVER) = range(14)
DECISION_NAMES = ("turn", "field", "action", "partner", "value", "items", "season", "rake_card",
                  "swap_give", "swap_take", "claim_give", "claim_take", "claim_season", "game_over")
NUM_DECISIONS = 13  # OVER is not a decision
MID_MOVE = (FIELD, ACTION, PARTNER, VALUE, ITEMS, SWAP_TAKE, CLAIM_TAKE)  # a chosen card is pending

CARD0 = 0  # 0..64: card c
FIELD0 = NUM_CARDS  # 65..68: field f
SOW, HARVEST, STOCKPILE = 69, 70, 71
PLAY_NAMES = ("sow", "harvest", "stockpile")
VALUE0 = 71  # 72..99: value v = action - 71 (1..28)
SEASON0 = 100  # 100..103: season s (spring, summer, autumn, winter)
DONE, RAKE_SOW, SWAP = 104, 105, 106
NUM_ACTIONS = 107
SEASON_ACTIONS = tuple(range(SEASON0, SEASON0 + 4))


def cname(card: int) -> str:
    return card_name(card, SUITS)


def cnames(cards) -> list[str]:
    return [card_name(c, SUITS) for c in cards]


def describe_action(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is not in 0..{NUM_ACTIONS - 1}")
    if action < FIELD0:
        return f"card {cname(action)}"
    if action < SOW:
        return f"field {action - FIELD0}"
    if action <= STOCKPILE:
        return PLAY_NAMES[action - SOW]
    if action < SEASON0:
        return f"value {action - VALUE0}"
    if action < DONE:
        return f"season {SEASON_NAMES[action - SEASON0]}"
    return {DONE: "done", RAKE_SOW: "rake sow", SWAP: "changeling swap"}[action]


def full_totals(cards) -> tuple[int, ...]:
    """The values a full harvest of `cards` may take: their total, each Fool 1 or 14."""
    totals = {0}
    for c in cards:
        totals = {t + v for t in totals for v in HARVEST_VALUES[c]}
    return tuple(sorted(totals))


def face_seasons(cards) -> int:
    """Bitmask of the seasons the face cards among `cards` may give their field (a Stars face
    card: any)."""
    mask = 0
    for c in cards:
        if FACE[c]:
            mask |= 15 if SUIT[c] == STARS else 1 << SUIT[c]
    return mask


def season_of(field: int, summer: int) -> int:
    return RING[(field - summer) % 4]


def summer_for(field: int, season: int) -> int:
    """The Summer field that gives `field` the season `season`."""
    return (field - RING_POS[season]) % 4


def _fits(targets: list[int], required: tuple[int, ...], multiples: list[int], later: tuple[int, ...]) -> bool:
    """Some target that every multiple stockpile taken equals and that the plain items can cover."""
    return any(all(m == t for m in multiples) and coverable(t, required, later) for t in targets)


# ----- layouts --------------------------------------------------------------------------------
CONVERGED_PIECE = Piece("converged", (1,), "1 once the Harmonic Convergence happened (only with harmonic_convergence)")


# Pieces that read the same in the full state and in every seat's observation (public facts).
FIELD_PIECES = (
    Piece("loose", (NUM_FIELDS, NUM_CARDS), "1 where the card lies loose in that field"),
    Piece("stockpiled", (NUM_FIELDS, NUM_CARDS), "value / 14 of the stockpile holding the card"),
    Piece("single_key", (NUM_FIELDS, NUM_CARDS), "1 at the key (lowest) card of each single stockpile"),
    Piece("multiple_key", (NUM_FIELDS, NUM_CARDS), "1 at the key (lowest) card of each multiple stockpile"),
    Piece("seasons", (NUM_FIELDS, 4), "one-hot season of each field (spring, summer, autumn, winter)"),
    Piece("luminary_up", (NUM_FIELDS, NUM_LUMINARIES), "one-hot face-up Luminary of each field"),
    Piece("luminary_down", (NUM_FIELDS,), "1 where a face-down Luminary lies"),
)
MOVE_PIECES = (
    Piece("decision", (NUM_DECISIONS,), "one-hot pending decision (see Actions)"),
    Piece("move_cards", (NUM_CARDS,), "1 at the card(s) chosen to play, sow or give in the pending move"),
    Piece("move_field", (NUM_FIELDS,), "one-hot field chosen in the pending move"),
    Piece("move_action", (3,), "one-hot sow, harvest, stockpile chosen in the pending move"),
    Piece("move_value", (1,), "value chosen in the pending move / 28"),
    Piece("move_items", (NUM_CARDS,), "1 at the cards of the items chosen so far (or swapped by a claim)"),
    Piece("turn", (3,), "1 where: main play done, Rake sow owed, Changeling swap used this turn"),
)


def state_layout(n: int, convergence: bool = False) -> Layout:
    """Full information, absolute seats. Also the store observations are gathered from."""
    return Layout([
        Piece("hands", (n, NUM_CARDS), "1 where the card is in that seat's hand"),
        Piece("known", (n, NUM_CARDS), "1 where that seat took the hand card from the board in view of all"),
        *FIELD_PIECES,
        Piece("luminary_hidden", (NUM_FIELDS, NUM_LUMINARIES), "one-hot face-down Luminary of each field"),
        Piece("luminary_unused", (NUM_LUMINARIES,), "(position in the unused pile + 1) / 8, next dealt last"),
        Piece("under_children", (NUM_FIELDS, NUM_CARDS), "1 where the card lies face down under the Children"),
        Piece("children_count", (NUM_FIELDS,), "cards under the Children / 3"),
        Piece("deck", (NUM_CARDS,), "(position from the bottom + 1) / 65 for each card of the draw pile"),
        Piece("deck_size", (1,), "cards in the draw pile / 65"),
        Piece("okus_left", (1,), "okus tokens left on the Illimat / 4"),
        Piece("okus", (n,), "okus tokens held / 4"),
        Piece("claimed", (n, NUM_LUMINARIES), "1 where that seat claimed the Luminary this round"),
        Piece("harvest", (n, NUM_CARDS), "1 where the card is in that seat's harvest pile"),
        Piece("secret", (n, NUM_CARDS), "1 where that harvested card is secret (from under the Children)"),
        Piece("harvested", (n, 4), "harvested cards: total / 65, Summer / 13, Winter / 13, Fools / 5"),
        Piece("harvested_public", (n, 4), "the same, secret cards left out but for the total"),
        Piece("unseen", (n, NUM_CARDS), "1 where the card is hidden from that seat"),
        Piece("hand_sizes", (n,), "cards in hand / 4"),
        Piece("scores", (n,), "match score, mapped from [lowest, highest possible] to [0, 1]"),
        Piece("round", (1,), "round index / rounds"),
        Piece("to_move", (n,), "1 at the seat to decide"),
        *MOVE_PIECES,
    ] + ([CONVERGED_PIECE] if convergence else []))


def observation_layout(n: int, convergence: bool = False, harvest: bool = False, plays: bool = False,
                       threats: bool = False) -> Layout:
    """What one seat sees; seats are relative (0 = the observer, 1 = next to play, ...)."""
    return Layout([
        Piece("hand", (NUM_CARDS,), "1 where the card is in the observer's hand"),
        Piece("known_hands", (n - 1, NUM_CARDS),
              "1 where another seat (relative 1..n-1) holds a card it took from the board in view of all"),
        *FIELD_PIECES,
        Piece("children_count", (NUM_FIELDS,), "cards under the Children / 3"),
        Piece("deck_size", (1,), "cards in the draw pile / 65"),
        Piece("okus_left", (1,), "okus tokens left on the Illimat / 4"),
        Piece("okus", (n,), "okus tokens held / 4 (relative seats)"),
        Piece("claimed", (n, NUM_LUMINARIES), "1 where that seat claimed the Luminary this round"),
        Piece("harvested", (n, 4),
              "harvested cards: total / 65, Summer / 13, Winter / 13, Fools / 5 (others: secret cards only in the total)"),
        Piece("unseen", (NUM_CARDS,), "1 where the card is hidden from the observer"),
        Piece("hand_sizes", (n,), "cards in hand / 4 (relative seats)"),
        Piece("scores", (n,), "match score, mapped from [lowest, highest possible] to [0, 1]"),
        Piece("round", (1,), "round index / rounds"),
        Piece("to_move", (n,), "1 at the seat to decide (relative seats)"),
        *MOVE_PIECES,
    ] + ([CONVERGED_PIECE] if convergence else []) + (list(HARVEST_PIECES) if harvest else [])
        + (list(PLAY_PIECES) if plays else []) + (list(THREAT_PIECES) if threats else []))


_SHARED = ("loose", "stockpiled", "single_key", "multiple_key", "seasons", "luminary_up", "luminary_down",
           "children_count", "deck_size", "okus_left")
_TAIL = ("decision", "move_cards", "move_field", "move_action", "move_value", "move_items", "turn")


def _observation_gathers(n: int, store: Layout) -> list[np.ndarray]:
    gathers = []
    for seat in range(n):
        order = [(seat + k) % n for k in range(n)]
        parts = [store.index("hands")[seat], store.index("known")[order[1:]].ravel()]
        parts += [store.index(name).ravel() for name in _SHARED]
        parts += [store.index("okus")[order], store.index("claimed")[order].ravel(),
                  store.index("harvested")[seat], store.index("harvested_public")[order[1:]].ravel(),
                  store.index("unseen")[seat], store.index("hand_sizes")[order], store.index("scores")[order],
                  store.index("round"), store.index("to_move")[order]]
        parts += [store.index(name).ravel() for name in _TAIL]
        if "converged" in store.slices:
            parts.append(store.index("converged"))
        gathers.append(np.concatenate(parts).astype(np.intp))
    return gathers


# The pieces with a card axis: what the observation says of each card (for networks that score
# the card actions with one function of a card's own entries, `ActionEntities`).
CARD_PIECES = ("hand", "known_hands", "loose", "stockpiled", "single_key", "multiple_key", "unseen", "move_cards",
               "move_items")


def action_entities(harvest_features: bool, play_features: bool, threat_features: bool = False
                    ) -> tuple[ActionEntities, ...]:
    """The card actions (card c is action CARD0 + c) as entities: each card's entries of every
    piece with a card axis, and its rank (1..13) and suit one-hot as constant features. With
    `play_features` or `threat_features` the field actions too: each field's ``move_plays`` and
    ``move_threats`` columns (what the pending move's card does there), and the field's one-hot."""
    identity = np.zeros((NUM_CARDS, 13 + len(SUITS)), dtype=np.float32)
    identity[np.arange(NUM_CARDS), np.array(RANK) - 1] = 1
    identity[np.arange(NUM_CARDS), 13 + np.array(SUIT)] = 1
    pieces = CARD_PIECES + (("hand_harvest", "hand_clears") if harvest_features else ()) + (
        ("plays",) if play_features else ()) + (("threats",) if threat_features else ())
    cards = ActionEntities(CARD0, pieces, identity)
    field_pieces = (("move_plays",) if play_features else ()) + (("move_threats",) if threat_features else ())
    if not field_pieces:
        return (cards,)
    return cards, ActionEntities(FIELD0, field_pieces, np.eye(NUM_FIELDS, dtype=np.float32))


# ----- the game -------------------------------------------------------------------------------
class IllimatGame(Game):
    name = "illimat"
    version = 0
    snapshot_format = 2  # 1: before the optional rules (still read, see snapshot.py)

    def __init__(self, num_players: int = 2, luminaries: bool = True, stars_always: bool = False,
                 target_score: int = 17, rounds: int = 20, reward: str = "win",
                 harmonic_convergence: bool = False, full_harvest: bool = False, harvest_features: bool = False,
                 play_features: bool = False, threat_features: bool = False):
        if not isinstance(num_players, int) or isinstance(num_players, bool) or not 2 <= num_players <= 4:
            raise ValueError(f"num_players={num_players!r} is not supported; use 2 (default), 3 or 4")
        for arg, value in (("luminaries", luminaries), ("stars_always", stars_always),
                           ("harmonic_convergence", harmonic_convergence), ("full_harvest", full_harvest),
                           ("harvest_features", harvest_features), ("play_features", play_features),
                           ("threat_features", threat_features)):
            if not isinstance(value, bool):
                raise ValueError(f"{arg}={value!r} must be True or False")
        if not isinstance(target_score, int) or isinstance(target_score, bool) or not 1 <= target_score <= 100:
            raise ValueError(f"target_score={target_score!r} must be an integer in 1..100")
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 100:
            raise ValueError(f"rounds={rounds!r} must be an integer in 1..100")
        self.num_players = n = num_players
        self.luminaries, self.stars_always = luminaries, stars_always
        self.target_score, self.rounds = target_score, rounds
        self.reward = check_reward_mode(reward)
        self.harmonic_convergence, self.full_harvest = harmonic_convergence, full_harvest
        self.harvest_features = harvest_features  # observation only: the rules do not change
        self.play_features = play_features  # observation only too
        self.threat_features = threat_features  # observation only too
        self.sum_mask = WIDE_SUM_MASK if full_harvest else SUM_MASK
        self.deck_cards = NUM_CARDS if (stars_always or n == 4) else 52
        self.num_actions = NUM_ACTIONS
        self.state_layout = state_layout(n, harmonic_convergence)
        self.observation_layout = observation_layout(n, harmonic_convergence, harvest_features, play_features,
                                                     threat_features)
        self.action_entities = action_entities(harvest_features, play_features, threat_features)
        # Decisions per round: at most 14 per turn plus one per item picked, at most (deck - 12)
        # turns, at most 2 * deck items picked, at most 5 claim decisions (package docstring).
        d = self.deck_cards
        self.max_round_length = 14 * (d - 12) + 2 * d + 5
        self.max_game_length = rounds * self.max_round_length
        self.reward_range = (-1.0, 1.0)
        # Score bounds: a round gives one player at most Bumper Crop 4 + Sunkissed 2 + the River's
        # +2 + every Fool + every Luminary + every okus, and takes at most 2 (Frostbit).
        self.max_round_gain = 8 + d // 13 + (NUM_LUMINARIES if luminaries else 0) + n
        self.score_low = -2 * rounds
        self.score_high = min(target_score - 1, (rounds - 1) * self.max_round_gain) + self.max_round_gain
        self._gathers = _observation_gathers(n, self.state_layout)
        off = {name: sl.start for name, sl in self.state_layout.slices.items()}
        self.off = off
        self.others = [tuple(q for q in range(n) if q != seat) for seat in range(n)]

    @property
    def config(self) -> dict[str, Any]:
        return {"num_players": self.num_players, "luminaries": self.luminaries,
                "stars_always": self.stars_always, "target_score": self.target_score,
                "rounds": self.rounds, "reward": self.reward,
                "harmonic_convergence": self.harmonic_convergence, "full_harvest": self.full_harvest,
                "harvest_features": self.harvest_features, "play_features": self.play_features,
                "threat_features": self.threat_features}

    def new_state(self, rng: np.random.Generator) -> "IllimatState":
        state = IllimatState(self)
        state.chance_seed = int(rng.integers(2**63))
        state.match_scores = [0] * self.num_players
        state._deal(0)
        return state

    def action_to_string(self, action: int) -> str:
        return describe_action(action)

    def render(self, state: State, viewer: int | None) -> str:
        from card_envs.games.illimat.render import render_text

        return render_text(state, viewer)

    def state_from_json(self, data: dict[str, Any]) -> "IllimatState":
        from card_envs.games.illimat.snapshot import state_from_json

        return state_from_json(self, data)


# A stockpile is a tuple (key card, value, multiple?, cards sorted); a field's stockpiles are kept
# sorted by key.
Pile = tuple


class IllimatState(State):
    def __init__(self, game: IllimatGame):
        self.game = game
        n = game.num_players
        self.chance_seed = 0
        self.round = 0
        self.match_scores: list[int] = [0] * n
        self.current_player = 0
        self.deck: list[int] = []  # bottom .. top: pop() draws
        self.hands: list[list[int]] = [[] for _ in range(n)]  # sorted
        self.known: list[list[int]] = [[] for _ in range(n)]  # hand cards taken from the board in view
        self.loose: list[list[int]] = [[] for _ in range(NUM_FIELDS)]  # sorted
        self.piles: list[list[Pile]] = [[] for _ in range(NUM_FIELDS)]
        self.lum = [NO_LUMINARY] * NUM_FIELDS  # the Luminary of each field (face up or down)
        self.lum_up = [False] * NUM_FIELDS
        self.under: list[list[int]] = [[] for _ in range(NUM_FIELDS)]  # cards under the Children
        self.unused: list[int] = []  # Luminaries not dealt this round: pop() deals the next
        self.discarded_down: list[int] = []  # Luminaries discarded unrevealed
        self.discarded_up: list[int] = []  # Luminaries discarded after their reveal
        self.summer = 0
        self.okus_left = 0
        self.okus = [0] * n
        self.claimed: list[list[int]] = [[] for _ in range(n)]
        self.harvest: list[list[int]] = [[] for _ in range(n)]
        self.secret: list[list[int]] = [[] for _ in range(n)]  # subset of harvest, hidden from others
        self.hcounts: list[list[int]] = [[0] * 6 for _ in range(n)]  # derived: see _count_harvest
        self.decision = TURN
        self.converged = False  # the Harmonic Convergence happened (once a match at most)
        # turn flags
        self.main_done = False
        self.rake_owed = False
        self.swap_used = False
        self.cleared = -1  # the field a harvest emptied this turn (cleared at the end of the turn)
        self.okus_taken = False  # during a clearing: whether it gave an okus (refill condition)
        # the pending move
        self.m_card = -1  # main card, Rake card, swap/claim card to give
        self.m_field = -1  # field chosen; for a season decision: the field whose season is chosen
        self.m_action = -1  # SOW, HARVEST, STOCKPILE
        self.m_partner = -1  # Union partner
        self.m_value = 0  # harvest value or stockpile value
        self.m_items: list[int] = []  # key cards of the items chosen (ascending)
        self.m_full: list[int] = []  # a full harvest's cards (the whole hand), through its season decision
        self.c_given: list[int] = []  # Changeling claim: cards given to the board
        self.c_taken: list[int] = []  # and taken from it
        self.features = np.zeros(game.state_layout.size, dtype=np.float32)
        self._legal: list[int] | None = None
        self._mask: bytearray | None = None
        self._sums: list[tuple[int, int] | None] = [None] * NUM_FIELDS
        self._ctx = None  # items decision: (keys, codes, key -> index, active value, targets)
        self.last_play: tuple[int, str] | None = None  # (seat, what it did): for render only

    # ----- queries ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.decision == OVER

    def season(self, field: int) -> int:
        return RING[(field - self.summer) % 4]

    def face_up_field(self, luminary: int) -> int:
        """The field where `luminary` lies face up, or -1."""
        for f in range(NUM_FIELDS):
            if self.lum[f] == luminary and self.lum_up[f]:
                return f
        return -1

    def items(self, field: int) -> list[tuple[int, int, Pile | None]]:
        """The field's items in key order: (key card, code, stockpile or None for a loose card)."""
        out = [(c, 0 if IS_FOOL[c] else RANK[c], None) for c in self.loose[field]]
        for pile in self.piles[field]:
            out.append((pile[0], pile[1] + MULTIPLE_CODE if pile[2] else pile[1], pile))
        out.sort()
        return out

    def scores(self) -> list[int]:
        """Each seat's match score: the rounds scored so far."""
        return self.match_scores[:]

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
            mask = bytearray(NUM_ACTIONS)
            for a in self._legal:
                mask[a] = 1
            self._mask = mask
        return self._legal

    def legal_mask(self) -> np.ndarray:
        if self._legal is None:
            self.legal_actions()
        return np.frombuffer(bytearray(self._mask), dtype=np.int8)

    def returns(self) -> np.ndarray:
        n = self.game.num_players
        if self.decision != OVER:
            return np.zeros(n)
        if self.game.reward == "win":
            return rank_returns(self.match_scores)
        return score_returns(self.match_scores, self.game.score_high - self.game.score_low)

    def observation(self, player: int) -> np.ndarray:
        obs = self.features.take(self.game._gathers[player])
        game = self.game
        if not (game.harvest_features or game.play_features or game.threat_features):
            return obs
        parts = [obs]
        # Each field as (code, cards) per item, in key order: what the pieces below read of it.
        board = tuple(tuple((code, tuple(pile[3]) if pile else (key,)) for key, code, pile in self.items(f))
                      for f in range(NUM_FIELDS))
        if game.harvest_features:
            parts.append(harvest_features(self, player, HARVEST_VALUES, board))
        unseen = tuple(np.flatnonzero(obs[game.observation_layout.slices["unseen"]]).tolist())
        if game.play_features:
            parts.append(play_features(self, player, unseen, board))
        if game.threat_features:
            parts.append(threat_features(self, player, unseen, board))
        return np.concatenate(parts)

    def state_tensor(self) -> np.ndarray:
        return self.features.copy()

    # ----- field sums ---------------------------------------------------------------------
    def _field_sums(self, f: int) -> tuple[int, int]:
        """(sums of non-empty sets of loose cards and single stockpiles, values of multiple
        stockpiles), as bitmasks: bit v set when v can be made."""
        s = self._sums[f]
        if s is None:
            mask = self.game.sum_mask
            reach = multi = 0
            for c in self.loose[f]:
                if IS_FOOL[c]:
                    reach |= (reach << 1) | (reach << 14) | 0x4002
                else:
                    v = RANK[c]
                    reach |= (reach << v) | (1 << v)
                reach &= mask
            for pile in self.piles[f]:
                if pile[2]:
                    multi |= 1 << pile[1]
                else:
                    v = pile[1]
                    reach |= ((reach << v) | (1 << v)) & mask
            s = self._sums[f] = (reach, multi)
        return s

    def _partner_allowed(self) -> bool:
        """A Union harvest plays two cards; with the Rake sow still owed, one must remain."""
        return not (self.rake_owed and len(self.hands[self.current_player]) < 3)

    def _can_harvest(self, c: int, f: int) -> bool:
        reach, multi = self._field_sums(f)
        bits = reach | multi
        for v in HARVEST_VALUES[c]:
            if bits >> v & 1:
                return True
        if self.face_up_field(UNION) == f and self._partner_allowed():
            pairs = PAIR_VALUES[c]
            for d in self.hands[self.current_player]:
                if d != c:
                    for v in pairs[d]:
                        if bits >> v & 1:
                            return True
        return False

    def _stockpile_values(self, c: int, f: int) -> list[int]:
        """Stockpile values T reachable with active card c in field f, given a passive card of
        value T in the rest of the hand: c's group is c + loose cards / single stockpiles totalling
        T (or c alone when c = T, next to another group: a set totalling T or a multiple
        stockpile of T)."""
        reach, multi = self._field_sums(f)
        va = ACTIVE_VALUE[c]
        out = []
        for T in sorted({PASSIVE_VALUE[d] for d in self.hands[self.current_player] if d != c}):
            if T > va and reach >> (T - va) & 1 or T == va and (reach | multi) >> T & 1:
                out.append(T)
        return out

    def _harvest_allowed(self, f: int) -> bool:
        return self.season(f) != WINTER or self.face_up_field(MAIDEN) >= 0

    def _full_fields(self, cards) -> list[int]:
        """The fields where a full harvest of `cards` (the whole hand) takes something."""
        totals = full_totals(cards)
        out = []
        for f in range(NUM_FIELDS):
            if self._harvest_allowed(f):
                reach, multi = self._field_sums(f)
                bits = reach | multi
                if any(bits >> t & 1 for t in totals):
                    out.append(f)
        return out

    def _swap_available(self) -> bool:
        if self.swap_used or not self.hands[self.current_player]:
            return False
        g = self.face_up_field(CHANGELING)
        return g >= 0 and bool(self.loose[g])

    # ----- legal answers ------------------------------------------------------------------
    def _compute_legal(self) -> list[int]:
        d = self.decision
        hand = self.hands[self.current_player]
        if d == TURN:
            legal = []
            if not self.main_done and not (self.rake_owed and len(hand) == 1):
                legal += hand  # every card can at least be sown (only one field is Autumn)
                # a full harvest plays the whole hand: never while a Rake sow is owed (no card left)
                if self.game.full_harvest and len(hand) == HAND_SIZE and not self.rake_owed \
                        and self._full_fields(hand):
                    legal.append(HARVEST)
            if self.main_done and not self.rake_owed:
                legal.append(DONE)
            if self.rake_owed:
                legal.append(RAKE_SOW)
            if self._swap_available():
                legal.append(SWAP)
            return legal
        if d == FIELD:
            if self.m_full:
                return [FIELD0 + f for f in self._full_fields(self.m_full)]
            c = self.m_card
            legal = []
            for f in range(NUM_FIELDS):
                s = self.season(f)
                if s != AUTUMN or self._can_harvest(c, f) or self._stockpile_values(c, f):
                    legal.append(FIELD0 + f)
            return legal
        if d == ACTION:
            c, f = self.m_card, self.m_field
            s = self.season(f)
            legal = []
            if s != AUTUMN:
                legal.append(SOW)
            if self._harvest_allowed(f) and self._can_harvest(c, f):
                legal.append(HARVEST)
            if s != SPRING and self._stockpile_values(c, f):
                legal.append(STOCKPILE)
            return legal
        if d == PARTNER:
            c, f = self.m_card, self.m_field
            reach, multi = self._field_sums(f)
            bits = reach | multi
            legal = []
            if self._partner_allowed():
                for e in hand:
                    if e != c and any(bits >> v & 1 for v in PAIR_VALUES[c][e]):
                        legal.append(e)
            if any(bits >> v & 1 for v in HARVEST_VALUES[c]):
                legal.append(DONE)
            return legal
        if d == VALUE:
            if self.m_action == STOCKPILE:
                return [VALUE0 + v for v in self._stockpile_values(self.m_card, self.m_field)]
            reach, multi = self._field_sums(self.m_field)
            bits = reach | multi
            values = HARVEST_VALUES[self.m_card] if self.m_partner < 0 else PAIR_VALUES[self.m_card][self.m_partner]
            return [VALUE0 + v for v in values if bits >> v & 1]
        if d == ITEMS:
            return self._items_legal()
        if d == SEASON or d == CLAIM_SEASON:
            if self.m_full:  # a full harvest's face cards: the season of one of them
                seasons = face_seasons(self.m_full)
                return [SEASON0 + s for s in range(4) if seasons >> s & 1]
            return list(SEASON_ACTIONS)
        if d == RAKE_CARD or d == SWAP_GIVE:
            return hand[:]
        if d == SWAP_TAKE:
            return self.loose[self.face_up_field(CHANGELING)][:]
        if d == CLAIM_GIVE:
            legal = []
            if self._claim_takeable():
                legal = [c for c in hand if c not in self.c_taken]
            legal.append(DONE)
            return legal
        if d == CLAIM_TAKE:
            return self._claim_takeable()
        return []  # OVER

    def _claim_takeable(self) -> list[int]:
        given = self.c_given
        return sorted(c for f in range(NUM_FIELDS) for c in self.loose[f] if c not in given)

    def _items_context(self):
        """(item keys, item codes, key -> index, the active card's value or 0, the targets)."""
        ctx = self._ctx
        if ctx is None:
            items = self.items(self.m_field)
            keys = [it[0] for it in items]
            active = ACTIVE_VALUE[self.m_card] if self.m_action == STOCKPILE else 0
            if self.m_full:  # a full harvest: groups all of one total the hand may take
                reach, multi = self._field_sums(self.m_field)
                targets = [t for t in full_totals(self.m_full) if (reach | multi) >> t & 1]
            else:
                targets = [self.m_value]
            ctx = self._ctx = (keys, [it[1] for it in items], {k: i for i, k in enumerate(keys)}, active, targets)
        return ctx

    def _items_legal(self) -> list[int]:
        """Items offered next (in ascending key order after those chosen) and DONE: each keeps the
        move completable, i.e. the items chosen, the new one and the active card can still be
        split into groups of one target with items offered later."""
        keys, codes, index, active, targets = self._items_context()
        chosen = [index[k] for k in self.m_items]
        last = chosen[-1] if chosen else -1
        required, multiples = [0] * NUM_KINDS, []
        for i in chosen:
            if codes[i] >= MULTIPLE_CODE:
                multiples.append(codes[i] - MULTIPLE_CODE)
            else:
                required[codes[i]] += 1
        if active:
            required[active] += 1
        later = [()] * len(keys)  # later[i]: value counts of the plain items after item i
        counts = [0] * NUM_KINDS
        for i in range(len(keys) - 1, last, -1):
            later[i] = tuple(counts)
            if codes[i] < MULTIPLE_CODE:
                counts[codes[i]] += 1
        legal = []
        for i in range(last + 1, len(keys)):
            code = codes[i]
            if code >= MULTIPLE_CODE:
                ok = _fits(targets, tuple(required), multiples + [code - MULTIPLE_CODE], later[i])
            else:
                required[code] += 1
                ok = _fits(targets, tuple(required), multiples, later[i])
                required[code] -= 1
            if ok:
                legal.append(keys[i])
        if chosen and _fits(targets, tuple(required), multiples, (0,) * NUM_KINDS):
            legal.append(DONE)
        return legal

    # ----- transitions --------------------------------------------------------------------
    def apply(self, action: int) -> None:
        if type(action) is not int:  # numpy ints are welcome; floats and bools are refused
            action = self.game.check_action(action)
        if self._legal is None:
            self.legal_actions()
        if not 0 <= action < NUM_ACTIONS or not self._mask[action]:
            self._raise_illegal(action)
        self._legal = None
        d = self.decision
        if d == TURN:
            self._turn_choice(action)
        elif d == FIELD:
            self._set_field(action - FIELD0)
        elif d == ACTION:
            self._choose_action(action)
        elif d == PARTNER:
            self._choose_partner(action)
        elif d == VALUE:
            self._choose_value(action - VALUE0)
        elif d == ITEMS:
            self._choose_item(action)
        elif d == SEASON:
            self._set_season(self.m_field, action - SEASON0)
            self._after_part()
        elif d == RAKE_CARD:
            self._rake_sow(action)
        elif d == SWAP_GIVE:
            self._set_move_card(action)
            self._set_decision(SWAP_TAKE)
        elif d == SWAP_TAKE:
            self._swap(action)
        elif d == CLAIM_GIVE:
            self._claim_give(action)
        elif d == CLAIM_TAKE:
            self._claim_take(action)
        elif d == CLAIM_SEASON:
            self._set_season(self.cleared, action - SEASON0)
            self._clear_move()
            self._finish_clearing()

    def _raise_illegal(self, action: Any) -> None:
        self.game.check_action(action)
        legal = self.legal_actions()
        shown = ", ".join(f"{a} ({describe_action(a)})" for a in legal[:12])
        more = "" if len(legal) <= 12 else f", ... {len(legal)} in all"
        raise IllegalActionError(
            f"action {action} ({describe_action(int(action))}) is illegal for seat {self.current_player} "
            f"at the {DECISION_NAMES[self.decision]} decision; legal: {shown or 'none (game over)'}{more}")

    # decisions of the main play
    def _turn_choice(self, action: int) -> None:
        if action < FIELD0:
            self._set_move_card(action)
            self._set_decision(FIELD)
        elif action == HARVEST:  # a full harvest: the whole hand
            self.m_full = self.hands[self.current_player][:]
            o = self.game.off["move_cards"]
            for c in self.m_full:
                self.features[o + c] = 1
            self._set_decision(FIELD)
        elif action == RAKE_SOW:
            self._set_decision(RAKE_CARD)
        elif action == SWAP:
            self._set_decision(SWAP_GIVE)
        else:  # DONE
            self._end_turn()

    def _set_field(self, f: int) -> None:
        self.m_field = f
        self.features[self.game.off["move_field"] + f] = 1
        if self.m_full:  # a full harvest is a harvest: its items come next
            self.m_action = HARVEST
            self.features[self.game.off["move_action"] + HARVEST - SOW] = 1
            self._ctx = None
            self._set_decision(ITEMS)
            return
        self._set_decision(ACTION)

    def _choose_action(self, action: int) -> None:
        self.m_action = action
        self.features[self.game.off["move_action"] + action - SOW] = 1
        if action == SOW:
            c, f = self.m_card, self.m_field
            self.last_play = (self.current_player, f"sowed {cname(c)} into field {f}")
            self._from_hand(c)
            self._add_loose(f, c)
            self._main_played((c,), f)
        elif action == HARVEST:
            if self.face_up_field(UNION) == self.m_field:
                self._set_decision(PARTNER)
            else:
                self._after_partner()
        else:
            self._set_decision(VALUE)

    def _choose_partner(self, action: int) -> None:
        if action != DONE:
            self.m_partner = action
            self.features[self.game.off["move_cards"] + action] = 1
        self._after_partner()

    def _after_partner(self) -> None:
        values = HARVEST_VALUES[self.m_card] if self.m_partner < 0 else PAIR_VALUES[self.m_card][self.m_partner]
        if len(values) > 1:
            self._set_decision(VALUE)
        else:
            self._choose_value(values[0])

    def _choose_value(self, v: int) -> None:
        self.m_value = v
        self.features[self.game.off["move_value"]] = v / MAX_VALUE
        self._ctx = None
        self._set_decision(ITEMS)

    def _choose_item(self, action: int) -> None:
        if action != DONE:
            self.m_items.append(action)
            f = self.m_field
            o = self.game.off["move_items"]
            for key, _, pile in self.items(f):
                if key == action:
                    for c in (pile[3] if pile else (key,)):
                        self.features[o + c] = 1
                    break
            return
        self._resolve_items()

    def _resolve_items(self) -> None:
        f, p = self.m_field, self.current_player
        chosen = set(self.m_items)
        taken: list[int] = []
        piles_taken: list[Pile] = []
        for c in list(self.loose[f]):
            if c in chosen:
                taken.append(c)
        for pile in self.piles[f]:
            if pile[0] in chosen:
                piles_taken.append(pile)
        for c in taken:
            self._remove_loose(f, c)
        for pile in piles_taken:
            self._remove_pile(f, pile)
            taken.extend(pile[3])
        c = self.m_card
        if self.m_action == HARVEST:
            if self.m_full:
                played = tuple(self.m_full)
            else:
                played = (c,) if self.m_partner < 0 else (c, self.m_partner)
            for card in played:
                self._from_hand(card)
                self._add_harvest(p, card, False)
            for card in taken:
                self._add_harvest(p, card, False)
            self.last_play = (p, f"harvested {' '.join(cnames(sorted(taken)))} from field {f} "
                                 f"with {' '.join(cnames(played))}")
            if not self.loose[f] and not self.piles[f]:
                self.cleared = f
            self._main_played(played, f)
        else:
            _, codes, index, active, _ = self._items_context()
            # single: the active card and the items form one group of the value; otherwise
            # several groups of it, or a multiple stockpile taken in
            together = [codes[index[k]] for k in self.m_items] + [active]
            single = not any(pile[2] for pile in piles_taken) and self.m_value in one_group_totals(together)
            self._from_hand(c)
            cards = tuple(sorted(taken + [c]))
            self._add_pile(f, (cards[0], self.m_value, not single, cards))
            self.last_play = (p, f"stockpiled {' '.join(cnames(cards))} as a {self.m_value} in field {f}")
            self._main_played((c,), f)

    def _main_played(self, played: tuple[int, ...], f: int) -> None:
        self.main_done = True
        self.features[self.game.off["turn"]] = 1
        if self._rotate(f, played):
            return
        self._after_part()

    def _rotate(self, f: int, played: tuple[int, ...]) -> bool:
        """Rotate for the last face card played into f; True when the player picks the season."""
        faces = [c for c in played if FACE[c]]
        if not faces or self.face_up_field(FOREST_QUEEN) >= 0:
            return False
        if self.m_full:
            # a full harvest plays its cards at once: the player orders its face cards (the last
            # one sticks), i.e. chooses among their seasons (any season for a Stars face card)
            seasons = face_seasons(faces)
            if seasons & (seasons - 1):
                full = self.m_full
                self._clear_move()
                self.m_full = full
                o = self.game.off["move_cards"]
                for c in full:
                    self.features[o + c] = 1
                self.m_field = f
                self.features[self.game.off["move_field"] + f] = 1
                self._set_decision(SEASON)
                return True
            self._set_season(f, seasons.bit_length() - 1)
            return False
        last = faces[-1]  # with two face cards (Union) the last rotation is the one that sticks
        if SUIT[last] == STARS:
            self._clear_move()
            self.m_field = f
            self.features[self.game.off["move_field"] + f] = 1
            self._set_decision(SEASON)
            return True
        self._set_season(f, SUIT[last])
        return False

    def _set_season(self, f: int, season: int) -> None:
        self._set_summer(summer_for(f, season))

    def _rake_sow(self, c: int) -> None:
        f = self.face_up_field(RAKE)
        if len(self.hands[self.current_player]) == 1 and not self.main_done:
            self.main_done = True  # the last card: the Rake sow is the play
            self.features[self.game.off["turn"]] = 1
        self.rake_owed = False
        self.features[self.game.off["turn"] + 1] = 0
        self.last_play = (self.current_player, f"sowed {cname(c)} into field {f} (the Rake)")
        self._from_hand(c)
        self._add_loose(f, c)
        if self._rotate(f, (c,)):
            return
        self._after_part()

    def _swap(self, x: int) -> None:
        g = self.face_up_field(CHANGELING)
        c, p = self.m_card, self.current_player
        self.swap_used = True
        self.features[self.game.off["turn"] + 2] = 1
        self._remove_loose(g, x)
        self._from_hand(c)
        self._add_loose(g, c)
        self._to_hand(p, x, public=True)
        self.last_play = (p, f"swapped {cname(c)} for {cname(x)} in field {g} (the Changeling)")
        self._after_part()

    def _after_part(self) -> None:
        """A part of the turn is done: offer the rest, or end the turn."""
        self._clear_move()
        if self.main_done and not self.rake_owed and not self._swap_available():
            self._end_turn()
        else:
            self._set_decision(TURN)

    # end of turn: draw, clearing, next turn
    def _end_turn(self) -> None:
        p = self.current_player
        hand = self.hands[p]
        while len(hand) < HAND_SIZE and self.deck:
            self._to_hand(p, self._draw(), public=False)
        if self.cleared >= 0:
            self._start_clearing()
        else:
            self._next_turn()

    def _start_clearing(self) -> None:
        F, p = self.cleared, self.current_player
        g, o = self.game, self.game.off
        self._clear_move()
        self.okus_taken = False
        if self.okus_left:
            self.okus_left -= 1
            self.okus[p] += 1
            self.okus_taken = True
            self.features[o["okus_left"]] = self.okus_left / 4
            self.features[o["okus"] + p] = self.okus[p] / 4
        L = self.lum[F]
        if L != NO_LUMINARY and self.lum_up[F]:
            self._set_luminary(F, NO_LUMINARY, False)
            self.claimed[p].append(L)
            self.features[o["claimed"] + p * NUM_LUMINARIES + L] = 1
            if L == CHILDREN:
                for c in self.under[F]:
                    self.features[o["under_children"] + F * NUM_CARDS + c] = 0
                    self._add_harvest(p, c, True)
                self.under[F] = []
                self.features[o["children_count"] + F] = 0
            elif L == RAKE:
                for k in range(1, g.num_players):
                    q = (p + k) % g.num_players
                    summer = [c for c in self.harvest[q] if SUIT[c] == SUMMER]
                    if summer:  # the giver's best choice: a non-Fool (all score alike), lowest first
                        c = min(summer, key=lambda x: (IS_FOOL[x], x))
                        self._remove_harvest(q, c)
                        self._add_harvest(p, c, False)
            elif L == FOREST_QUEEN:
                self.m_field = F  # the season chosen is the one F takes: any position of the Illimat
                self.features[o["move_field"] + F] = 1
                self._set_decision(CLAIM_SEASON)
                return
            elif L == CHANGELING:
                self.c_given, self.c_taken = [], []
                if self.hands[p] and self._claim_takeable():
                    self._set_decision(CLAIM_GIVE)
                    return
        self._finish_clearing()

    def _claim_give(self, action: int) -> None:
        if action == DONE:
            self._finish_clearing()
            return
        self._set_move_card(action)
        self._set_decision(CLAIM_TAKE)

    def _claim_take(self, x: int) -> None:
        c, p = self.m_card, self.current_player
        f = next(g for g in range(NUM_FIELDS) if x in self.loose[g])
        self._remove_loose(f, x)
        self._from_hand(c)
        self._add_loose(f, c)
        self._to_hand(p, x, public=True)
        self.c_given.append(c)
        self.c_taken.append(x)
        o = self.game.off["move_items"]
        self.features[o + c] = self.features[o + x] = 1
        self.m_card = -1
        self.features[self.game.off["move_cards"] + c] = 0
        if len(self.c_given) == 2:
            self._finish_clearing()
        else:
            self._set_decision(CLAIM_GIVE)

    def _finish_clearing(self) -> None:
        F = self.cleared
        L = self.lum[F]
        face_down = L != NO_LUMINARY and not self.lum_up[F]
        if self.okus_taken or face_down:
            if len(self.deck) >= 3:
                self._deal_loose(F, 3)
                if face_down:
                    self._reveal(F)
                    if self.game.harmonic_convergence and not self.converged and all(self.lum_up):
                        self._converge()
            elif face_down:
                self._set_luminary(F, NO_LUMINARY, False)
                self.discarded_down.append(L)
        self._next_turn()

    def _reveal(self, F: int) -> None:
        """Flip the face-down Luminary of F (its field was just dealt) and resolve its reveal."""
        L = self.lum[F]
        self._set_luminary(F, L, True)
        if L == RIVER or L == CHILDREN:
            if len(self.deck) < 3:  # the effect cannot be carried out
                self._set_luminary(F, NO_LUMINARY, False)
                self.discarded_up.append(L)
            elif L == RIVER:
                self._deal_loose(F, 3)
            else:
                o = self.game.off
                for _ in range(3):
                    c = self._draw()
                    self.under[F].append(c)
                    self.features[o["under_children"] + F * NUM_CARDS + c] = 1
                self.features[o["children_count"] + F] = 1
        elif L == FOREST_QUEEN:
            self._set_season(F, SUMMER)
        elif L == NEWBORN:
            O = (F + 2) % NUM_FIELDS
            other = self.lum[O]
            if other != NO_LUMINARY and self.lum_up[O]:
                return
            if other == NO_LUMINARY:
                if not self.unused:
                    return
                other = self.unused.pop()
                self.features[self.game.off["luminary_unused"] + other] = 0
                self._set_luminary(O, other, False)
            if len(self.deck) < 3:
                self._set_luminary(O, NO_LUMINARY, False)
                self.discarded_down.append(other)
                return
            self._deal_loose(O, 3)
            self._reveal(O)

    def _converge(self) -> None:
        """Harmonic Convergence (4 Luminaries face up, the first time in the match): every player
        moves one seat left, to the seat that plays after his, and leaves everything behind. The
        engine's seats are the agents, so the per-player state turns instead: player p now owns
        what seat p + 1 owned (hand, known hand cards, harvest pile and its secret cards, okus,
        claimed Luminaries, match score). Play goes on in seat order with the seat after the one
        that just played, and that seat is now held by the player who just played: the current
        player becomes the one before him, so that the turn passes to him."""
        n = self.game.num_players

        def left(xs: list) -> list:
            return xs[1:] + xs[:1]

        self.hands, self.known = left(self.hands), left(self.known)
        self.harvest, self.secret = left(self.harvest), left(self.secret)
        self.okus, self.claimed = left(self.okus), left(self.claimed)
        self.match_scores = left(self.match_scores)
        self.current_player = (self.current_player - 1) % n
        self.converged = True
        self._rebuild_features()

    def _next_turn(self) -> None:
        n = self.game.num_players
        for k in range(1, n + 1):
            q = (self.current_player + k) % n
            if self.hands[q]:
                self._start_turn(q)
                return
        self._end_round()

    def _start_turn(self, q: int) -> None:
        f, o = self.features, self.game.off
        f[o["to_move"] + self.current_player] = 0
        self.current_player = q
        f[o["to_move"] + q] = 1
        self.main_done = self.swap_used = False
        self.rake_owed = self.face_up_field(RAKE) >= 0
        self.cleared = -1
        self.okus_taken = False
        self.c_given, self.c_taken = [], []
        t = o["turn"]
        f[t], f[t + 1], f[t + 2] = 0, 1 if self.rake_owed else 0, 0
        self._clear_move()
        f[o["move_items"]:o["move_items"] + NUM_CARDS] = 0
        self._set_decision(TURN)

    def _end_round(self) -> None:
        points = self.round_points()
        for p, pts in enumerate(points):
            self.match_scores[p] += pts["total"]
        self.round += 1
        g = self.game
        if max(self.match_scores) >= g.target_score or self.round >= g.rounds:
            self.decision = OVER
            self._rebuild_features()
            return
        self._deal(self.round)

    # ----- scoring ------------------------------------------------------------------------
    def round_points(self) -> list[dict[str, int]]:
        """Each seat's points for the round so far (scored when every hand is empty)."""
        n = self.game.num_players
        total = [len(h) for h in self.harvest]
        summer = [sum(1 for c in h if SUIT[c] == SUMMER) for h in self.harvest]
        winter = [sum(1 for c in h if SUIT[c] == WINTER) for h in self.harvest]
        fools = [sum(1 for c in h if IS_FOOL[c]) for h in self.harvest]
        lums = [len(c) for c in self.claimed]
        key = lums if self.game.luminaries else self.okus  # beginner mode: ties by okus

        def winner(counts: list[int], best) -> int:
            top = max(counts)
            if top == 0:
                return -1
            tied = [p for p in range(n) if counts[p] == top]
            if len(tied) > 1:
                k = best(key[p] for p in tied)
                tied = [p for p in tied if key[p] == k]
            return tied[0] if len(tied) == 1 else -1

        bumper, sun, frost = winner(total, max), winner(summer, max), winner(winter, min)
        out = []
        for p in range(n):
            pts = {"bumper_crop": 4 if p == bumper else 0, "sunkissed": 2 if p == sun else 0,
                   "frostbit": 0, "fools": fools[p], "luminaries": lums[p], "okus": self.okus[p]}
            if p == frost:
                pts["frostbit"] = 2 if RIVER in self.claimed[p] else -2
            pts["total"] = sum(pts.values())
            out.append(pts)
        return out

    # ----- dealing ------------------------------------------------------------------------
    def _deal(self, round_index: int) -> None:
        """Set up round `round_index` from the state's chance seed."""
        g, n = self.game, self.game.num_players
        rng = np.random.default_rng((self.chance_seed, round_index))
        deck = rng.permutation(g.deck_cards).tolist()
        lums = rng.permutation(NUM_LUMINARIES).tolist() if g.luminaries else []
        self.round = round_index
        # the dealer passes left each round and the player on his left starts: seat r % n, which
        # after a Harmonic Convergence is held by player (r - 1) % n
        first = (round_index - self.converged) % n
        self.loose = [sorted(deck.pop() for _ in range(3)) for _ in range(NUM_FIELDS)]
        self.piles = [[] for _ in range(NUM_FIELDS)]
        self.hands = [sorted(deck.pop() for _ in range(3 if p == first else HAND_SIZE)) for p in range(n)]
        self.known = [[] for _ in range(n)]
        self.deck = deck
        if lums:
            self.lum = [lums.pop() for _ in range(NUM_FIELDS)]
        else:
            self.lum = [NO_LUMINARY] * NUM_FIELDS
        self.lum_up = [False] * NUM_FIELDS
        self.unused = lums
        self.under = [[] for _ in range(NUM_FIELDS)]
        self.discarded_down, self.discarded_up = [], []
        self.summer = 0
        self.okus_left, self.okus = n, [0] * n
        self.claimed = [[] for _ in range(n)]
        self.harvest = [[] for _ in range(n)]
        self.secret = [[] for _ in range(n)]
        self.current_player = first
        self.decision = TURN
        self.main_done = self.swap_used = False
        self.rake_owed = False
        self.cleared = -1
        self.okus_taken = False
        self._clear_move_fields()
        self.c_given, self.c_taken = [], []
        self._sums = [None] * NUM_FIELDS
        self._ctx = None
        self._rebuild_features()

    def _draw(self) -> int:
        c = self.deck.pop()
        o = self.game.off
        self.features[o["deck"] + c] = 0
        self.features[o["deck_size"]] = len(self.deck) / NUM_CARDS
        return c

    def _deal_loose(self, f: int, k: int) -> None:
        for _ in range(k):
            c = self._draw()
            self._add_loose(f, c)
            for q in range(self.game.num_players):
                self.features[self.game.off["unseen"] + q * NUM_CARDS + c] = 0

    # ----- card movements (with their feature updates) ------------------------------------
    def _to_hand(self, p: int, c: int, public: bool) -> None:
        f, o = self.features, self.game.off
        insort(self.hands[p], c)
        f[o["hands"] + p * NUM_CARDS + c] = 1
        f[o["hand_sizes"] + p] = len(self.hands[p]) / HAND_SIZE
        if public:  # taken from the board: everybody saw it
            self.known[p].append(c)
            f[o["known"] + p * NUM_CARDS + c] = 1
        else:  # from the draw pile: unseen by everybody but p
            f[o["unseen"] + p * NUM_CARDS + c] = 0

    def _from_hand(self, c: int) -> None:
        """c leaves the current player's hand face up."""
        p = self.current_player
        g, f, o = self.game, self.features, self.game.off
        self.hands[p].remove(c)
        f[o["hands"] + p * NUM_CARDS + c] = 0
        f[o["hand_sizes"] + p] = len(self.hands[p]) / HAND_SIZE
        if c in self.known[p]:
            self.known[p].remove(c)
            f[o["known"] + p * NUM_CARDS + c] = 0
        else:
            for q in g.others[p]:
                f[o["unseen"] + q * NUM_CARDS + c] = 0

    def _add_loose(self, fld: int, c: int) -> None:
        insort(self.loose[fld], c)
        self.features[self.game.off["loose"] + fld * NUM_CARDS + c] = 1
        self._sums[fld] = None

    def _remove_loose(self, fld: int, c: int) -> None:
        self.loose[fld].remove(c)
        self.features[self.game.off["loose"] + fld * NUM_CARDS + c] = 0
        self._sums[fld] = None

    def _add_pile(self, fld: int, pile: Pile) -> None:
        piles = self.piles[fld]
        piles.append(pile)
        piles.sort()
        self._pile_features(fld, pile, True)
        self._sums[fld] = None

    def _remove_pile(self, fld: int, pile: Pile) -> None:
        self.piles[fld].remove(pile)
        self._pile_features(fld, pile, False)
        self._sums[fld] = None

    def _pile_features(self, fld: int, pile: Pile, on: bool) -> None:
        f, o = self.features, self.game.off
        base = fld * NUM_CARDS
        value = pile[1] / MAX_STOCKPILE if on else 0.0
        for c in pile[3]:
            f[o["stockpiled"] + base + c] = value
        f[o["multiple_key" if pile[2] else "single_key"] + base + pile[0]] = 1.0 if on else 0.0

    def _add_harvest(self, p: int, c: int, secret: bool) -> None:
        self.harvest[p].append(c)
        f, o = self.features, self.game.off
        f[o["harvest"] + p * NUM_CARDS + c] = 1
        if secret:
            self.secret[p].append(c)
            f[o["secret"] + p * NUM_CARDS + c] = 1
            f[o["unseen"] + p * NUM_CARDS + c] = 0  # the claimer looks at them
        self._count_harvest(p, c, 1, secret)

    def _remove_harvest(self, q: int, c: int) -> None:
        """c leaves q's harvest pile face up (the Rake's claim)."""
        self.harvest[q].remove(c)
        f, o = self.features, self.game.off
        f[o["harvest"] + q * NUM_CARDS + c] = 0
        secret = c in self.secret[q]
        if secret:
            self.secret[q].remove(c)
            f[o["secret"] + q * NUM_CARDS + c] = 0
            for r in range(self.game.num_players):
                f[o["unseen"] + r * NUM_CARDS + c] = 0
        self._count_harvest(q, c, -1, secret)

    def _count_harvest(self, p: int, c: int, sign: int, secret: bool) -> None:
        f, o = self.features, self.game.off
        full, public = o["harvested"] + 4 * p, o["harvested_public"] + 4 * p
        f[full] = f[public] = len(self.harvest[p]) / NUM_CARDS
        counts = self.hcounts[p]  # Summer, Winter, Fools: all, then public only
        for k, hit, scale in ((0, SUIT[c] == SUMMER, 13), (1, SUIT[c] == WINTER, 13), (2, IS_FOOL[c], 5)):
            if hit:
                counts[k] += sign
                f[full + 1 + k] = counts[k] / scale
                if not secret:
                    counts[3 + k] += sign
                    f[public + 1 + k] = counts[3 + k] / scale

    def _set_luminary(self, fld: int, lum: int, up: bool) -> None:
        f, o = self.features, self.game.off
        old, old_up = self.lum[fld], self.lum_up[fld]
        if old != NO_LUMINARY:
            f[o["luminary_up" if old_up else "luminary_hidden"] + fld * NUM_LUMINARIES + old] = 0
        self.lum[fld], self.lum_up[fld] = lum, up
        if lum != NO_LUMINARY:
            f[o["luminary_up" if up else "luminary_hidden"] + fld * NUM_LUMINARIES + lum] = 1
        f[o["luminary_down"] + fld] = 1 if lum != NO_LUMINARY and not up else 0

    def _set_summer(self, summer: int) -> None:
        self.summer = summer
        o = self.game.off["seasons"]
        f = self.features
        f[o:o + 16] = 0
        for fld in range(NUM_FIELDS):
            f[o + 4 * fld + RING[(fld - summer) % 4]] = 1

    # ----- pending-move bookkeeping -------------------------------------------------------
    def _set_decision(self, d: int) -> None:
        o = self.game.off["decision"]
        f = self.features
        if self.decision < NUM_DECISIONS:
            f[o + self.decision] = 0
        self.decision = d
        if d < NUM_DECISIONS:
            f[o + d] = 1

    def _set_move_card(self, c: int) -> None:
        self.m_card = c
        self.features[self.game.off["move_cards"] + c] = 1

    def _clear_move_fields(self) -> None:
        self.m_card = self.m_field = self.m_action = self.m_partner = -1
        self.m_value = 0
        self.m_items = []
        self.m_full = []
        self._ctx = None

    def _clear_move(self) -> None:
        """Forget the finished part of the move (and its features)."""
        f, o = self.features, self.game.off
        for c in (self.m_card, self.m_partner):
            if c >= 0:
                f[o["move_cards"] + c] = 0
        if self.m_field >= 0:
            f[o["move_field"] + self.m_field] = 0
        if self.m_action >= 0:
            f[o["move_action"] + self.m_action - SOW] = 0
        f[o["move_value"]] = 0
        if self.m_items:
            f[o["move_items"]:o["move_items"] + NUM_CARDS] = 0
        if self.m_full:
            for c in self.m_full:
                f[o["move_cards"] + c] = 0
        self._clear_move_fields()

    # ----- full rebuild of the feature store ----------------------------------------------
    def _rebuild_features(self) -> None:
        g, n = self.game, self.game.num_players
        f = self.features = np.zeros(g.state_layout.size, dtype=np.float32)
        v = g.state_layout.views(f)
        for p in range(n):
            v["hands"][p, self.hands[p]] = 1
            v["known"][p, self.known[p]] = 1
            v["harvest"][p, self.harvest[p]] = 1
            v["secret"][p, self.secret[p]] = 1
            v["claimed"][p, self.claimed[p]] = 1
            secret = set(self.secret[p])
            counts = self.hcounts[p] = []
            for row, cards in ((v["harvested"][p], self.harvest[p]),
                               (v["harvested_public"][p], [c for c in self.harvest[p] if c not in secret])):
                counts += [sum(1 for c in cards if SUIT[c] == SUMMER), sum(1 for c in cards if SUIT[c] == WINTER),
                           sum(1 for c in cards if IS_FOOL[c])]
                row[1], row[2], row[3] = counts[-3] / 13, counts[-2] / 13, counts[-1] / 5
            v["harvested"][p, 0] = v["harvested_public"][p, 0] = len(self.harvest[p]) / NUM_CARDS
        for fld in range(NUM_FIELDS):
            v["loose"][fld, self.loose[fld]] = 1
            for pile in self.piles[fld]:
                v["stockpiled"][fld, list(pile[3])] = pile[1] / MAX_STOCKPILE
                v["multiple_key" if pile[2] else "single_key"][fld, pile[0]] = 1
            v["seasons"][fld, self.season(fld)] = 1
            L = self.lum[fld]
            if L != NO_LUMINARY:
                if self.lum_up[fld]:
                    v["luminary_up"][fld, L] = 1
                else:
                    v["luminary_down"][fld] = 1
                    v["luminary_hidden"][fld, L] = 1
            v["under_children"][fld, self.under[fld]] = 1
            v["children_count"][fld] = len(self.under[fld]) / 3
        for i, L in enumerate(self.unused):
            v["luminary_unused"][L] = (i + 1) / NUM_LUMINARIES
        for i, c in enumerate(self.deck):
            v["deck"][c] = (i + 1) / NUM_CARDS
        v["deck_size"][0] = len(self.deck) / NUM_CARDS
        v["okus_left"][0] = self.okus_left / 4
        v["okus"][:] = [k / 4 for k in self.okus]
        # unseen: the draw pile, the cards under the Children, others' hands (but for the cards
        # they took in view of all) and others' secret harvested cards
        hidden = self.deck + [c for cards in self.under for c in cards]
        for p in range(n):
            row = v["unseen"][p]
            row[hidden] = 1
            for q in g.others[p]:
                known = set(self.known[q])
                row[[c for c in self.hands[q] if c not in known]] = 1
                row[self.secret[q]] = 1
        v["hand_sizes"][:] = [len(h) / HAND_SIZE for h in self.hands]
        span = g.score_high - g.score_low
        v["scores"][:] = [(s - g.score_low) / span for s in self.match_scores]
        v["round"][0] = min(self.round, g.rounds) / g.rounds
        if g.harmonic_convergence:
            v["converged"][0] = self.converged
        if self.decision == OVER:
            return
        v["to_move"][self.current_player] = 1
        v["decision"][self.decision] = 1
        for c in (self.m_card, self.m_partner):
            if c >= 0:
                v["move_cards"][c] = 1
        v["move_cards"][self.m_full] = 1
        if self.m_field >= 0:
            v["move_field"][self.m_field] = 1
        if self.m_action >= 0:
            v["move_action"][self.m_action - SOW] = 1
        v["move_value"][0] = self.m_value / MAX_VALUE
        if self.m_items:
            items = {key: pile for key, _, pile in self.items(self.m_field)}
            for key in self.m_items:
                pile = items[key]
                v["move_items"][list(pile[3]) if pile else key] = 1
        v["move_items"][self.c_given + self.c_taken] = 1
        v["turn"][:] = [self.main_done, self.rake_owed, self.swap_used]

    # ----- copies, snapshots, determinization --------------------------------------------
    def clone(self) -> "IllimatState":
        c = IllimatState.__new__(IllimatState)
        c.__dict__.update(self.__dict__)
        c.match_scores = self.match_scores[:]
        c.deck = self.deck[:]
        c.hands = [h[:] for h in self.hands]
        c.known = [h[:] for h in self.known]
        c.loose = [x[:] for x in self.loose]
        c.piles = [x[:] for x in self.piles]
        c.lum, c.lum_up = self.lum[:], self.lum_up[:]
        c.under = [x[:] for x in self.under]
        c.unused = self.unused[:]
        c.discarded_down, c.discarded_up = self.discarded_down[:], self.discarded_up[:]
        c.okus = self.okus[:]
        c.claimed = [x[:] for x in self.claimed]
        c.harvest = [x[:] for x in self.harvest]
        c.secret = [x[:] for x in self.secret]
        c.hcounts = [x[:] for x in self.hcounts]
        c.m_items = self.m_items[:]
        c.m_full = self.m_full[:]
        c.c_given, c.c_taken = self.c_given[:], self.c_taken[:]
        c.features = self.features.copy()
        c._sums = self._sums[:]
        return c

    def determinize(self, player: int, rng: np.random.Generator) -> "IllimatState":
        """Resample what `player` cannot see: the draw pile, the other hands (but for the cards
        they took from the board in view of all), the cards under the Children, the other seats'
        secret harvested cards, the face-down and unused Luminaries, and the seed of later rounds.

        While the seat to move is inside a move that rests on its hand (a card chosen to play or
        give, and what the rest of the move may need: a passive card, a Union partner; a full
        harvest's whole hand), its hand is kept: the move so far is public, and nobody else
        decides before it ends.

        The implicit announcement of a stockpile's passive card (a card of that value was in the
        stockpiler's hand) is not used: like any inference from another player's choices."""
        copy = self.clone()
        others = [q for q in self.game.others[player]
                  if not (q == self.current_player and self.decision in MID_MOVE)]
        pool = self.deck[:] + [c for cards in self.under for c in cards]
        for q in others:
            known = set(self.known[q])
            pool += [c for c in self.hands[q] if c not in known]
            pool += self.secret[q]
        # Sorted first: the copy must not depend on the real order of the hidden cards, which
        # a caller holding the rng could otherwise recover from the permutation.
        pool = sorted(pool)
        pool = [pool[i] for i in rng.permutation(len(pool))]
        copy.deck, pool = pool[:len(self.deck)], pool[len(self.deck):]
        for fld in range(NUM_FIELDS):
            k = len(self.under[fld])
            copy.under[fld], pool = pool[:k], pool[k:]
        for q in others:
            known = set(self.known[q])
            k = len(self.hands[q]) - len(known)
            copy.hands[q], pool = sorted(self.known[q] + pool[:k]), pool[k:]
            k = len(self.secret[q])
            new_secret, pool = pool[:k], pool[k:]
            old = set(self.secret[q])
            copy.harvest[q] = [c for c in self.harvest[q] if c not in old] + new_secret
            copy.secret[q] = new_secret
        lums = [L for fld, L in enumerate(self.lum) if L != NO_LUMINARY and not self.lum_up[fld]]
        lums += self.unused + self.discarded_down
        lums = sorted(lums)
        lums = [lums[i] for i in rng.permutation(len(lums))]
        for fld in range(NUM_FIELDS):
            if self.lum[fld] != NO_LUMINARY and not self.lum_up[fld]:
                copy.lum[fld] = lums.pop()
        k = len(self.unused)
        copy.unused, copy.discarded_down = lums[:k], lums[k:]
        copy.chance_seed = int(rng.integers(2**63))
        copy._legal = None
        copy._rebuild_features()
        return copy

    def to_json(self) -> dict[str, Any]:
        from card_envs.games.illimat.snapshot import state_to_json

        return state_to_json(self)

    def __repr__(self) -> str:
        return f"IllimatState({self.to_json()})"
