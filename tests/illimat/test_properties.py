"""Random-play properties of Illimat, checked at every step of many seeded games, and the legal
move set checked against a brute-force enumeration written from the rules text (card names,
subsets and partitions), not from the engine's tables or its group search."""

from __future__ import annotations

import json
from itertools import combinations, product
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import card_envs
from card_envs.agents import RandomPolicy, make_policy
from card_envs.agents.match import play_game, seat_rotated_results
from card_envs.games.illimat.cards import DONE
from card_envs.games.illimat.game import IllimatGame
from card_envs.games.illimat.rules import IllimatState
from tests.illimat.test_rules import ACTIONS as ACTION_IDS
from tests.illimat.test_rules import position

SEEDS = st.integers(0, 2**32 - 1)
CONFIGS = st.sampled_from([{"rounds": 1}, {"num_players": 3, "rounds": 1}, {"num_players": 4, "rounds": 1},
                           {"luminaries": False, "rounds": 1}, {"stars_always": True, "rounds": 1},
                           {"target_score": 12}, {"full_harvest": True, "rounds": 1},
                           {"harmonic_convergence": True, "full_harvest": True, "num_players": 3,
                            "target_score": 12}])
RING = ["summer", "autumn", "winter", "spring"]
LUMINARY_NAMES = ["Maiden", "Changeling", "River", "Children", "Forest Queen", "Rake", "Union", "Newborn"]


# ----- oracles from card names ----------------------------------------------------------------
def rank(name: str) -> int:
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(name[:-1]) or int(name[:-1])


def index(name: str) -> int:
    return "PSAW*".index(name[-1]) * 13 + rank(name) - 1


def values(name: str) -> tuple[int, ...]:
    return (1, 14) if rank(name) == 1 else (rank(name),)


def oracle_round_points(data: dict, luminaries: bool) -> list[int]:
    n = data["num_players"]
    piles = data["harvest"]
    total = [len(h) for h in piles]
    summer = [sum(c.endswith("S") for c in h) for h in piles]
    winter = [sum(c.endswith("W") for c in h) for h in piles]
    fools = [sum(c.startswith("A") for c in h) for h in piles]
    lums = [len(c) for c in data["claimed"]]
    key = lums if luminaries else data["okus"]

    def award(counts, pick_most):
        if max(counts) == 0:
            return None
        tied = [p for p in range(n) if counts[p] == max(counts)]
        if len(tied) > 1:
            best = (max if pick_most else min)(key[p] for p in tied)
            tied = [p for p in tied if key[p] == best]
        return tied[0] if len(tied) == 1 else None

    points = [fools[p] + lums[p] + data["okus"][p] for p in range(n)]
    bumper, sun, frost = award(total, True), award(summer, True), award(winter, False)
    if bumper is not None:
        points[bumper] += 4
    if sun is not None:
        points[sun] += 2
    if frost is not None:
        points[frost] += 2 if "River" in data["claimed"][frost] else -2
    return points


def check_snapshot(data: dict, game: IllimatGame) -> None:
    n = data["num_players"]
    cards = list(data["deck"]) + [c for h in data["hands"] for c in h] + [c for h in data["harvest"] for c in h]
    for f in data["fields"]:
        cards += f["loose"] + f["under_children"] + [c for s in f["stockpiles"] for c in s["cards"]]
        for s in f["stockpiles"]:
            assert 2 <= s["value"] <= 14 and len(s["cards"]) >= 2
            totals = {sum(v) for v in product(*(values(c) for c in s["cards"]))}
            if s["kind"] == "single":
                assert s["value"] in totals
            else:
                assert any(t % s["value"] == 0 and t >= 2 * s["value"] for t in totals)
        if f["under_children"]:
            assert f["luminary"] == {"name": "Children", "face_up": True} and len(f["under_children"]) == 3
    # every card of the deck exactly once: draw pile, hands, fields, stockpiles, under the Children,
    # harvest piles (cards are only discarded when a round ends, and then dealt again)
    assert sorted(index(c) for c in cards) == list(range(game.deck_cards))
    lums = [f["luminary"]["name"] for f in data["fields"] if f["luminary"]] + data["luminaries_unused"]
    lums += data["luminaries_discarded"]["face_down"] + data["luminaries_discarded"]["face_up"]
    lums += [x for c in data["claimed"] for x in c]
    assert sorted(lums) == (sorted(LUMINARY_NAMES) if game.luminaries else [])
    assert data["okus_left"] + sum(data["okus"]) == n
    assert all(len(h) <= 4 for h in data["hands"])
    s = data["seasons"].index("summer")
    assert data["seasons"] == [RING[(f - s) % 4] for f in range(4)]


# ----- random games ---------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, config=CONFIGS)
def test_random_games_keep_every_invariant(seed, config):
    game = IllimatGame(**config)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    decisions = 0
    scored: list[dict] = []  # the position at each round's end, just before it is scored
    end_round = IllimatState._end_round

    def spy(self):
        scored.append(self.to_json())
        end_round(self)

    with patch.object(IllimatState, "_end_round", spy):
        while not state.is_terminal():
            data = state.to_json()
            check_snapshot(data, game)
            legal = state.legal_actions()
            assert legal, "a live state always has a legal action"
            # no dead end: every masked action leads to a state with a legal action (or the end)
            scored_before = len(scored)
            for action in legal:
                after = state.clone()
                after.apply(action)
                assert after.is_terminal() or after.legal_actions()
            del scored[scored_before:]
            state.apply(legal[rng.integers(len(legal))])
            decisions += 1
            assert decisions <= game.max_game_length
            if len(scored) > scored_before:  # a round was scored: by the oracle's round points
                end = scored[-1]
                assert not any(end["hands"]) and not end["deck"]  # ... once every hand is empty
                expected = [a + b for a, b in zip(end["scores"], oracle_round_points(end, game.luminaries))]
                assert state.scores() == expected
            elif state.converged and not data.get("converged"):  # the Harmonic Convergence turned them
                assert state.scores() == data["scores"][1:] + data["scores"][:1]
            else:
                assert state.scores() == data["scores"]
    assert state.round == len(scored) <= game.rounds
    assert max(state.scores()) >= game.target_score or state.round == game.rounds


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, n=st.sampled_from([2, 3, 4]))
def test_full_matches_end_within_max_game_length(seed, n):
    game = IllimatGame(num_players=n)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    decisions = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        decisions += 1
        if state.decision == 0 and not state.main_done:
            assert all(len(h) <= 4 for h in state.hands)
    assert decisions <= game.max_game_length and state.round <= game.rounds
    returns = state.returns()
    assert abs(returns.sum()) < 1e-9 and returns.max() <= 1


# ----- the legal move set against brute force ------------------------------------------------
def engine_moves(state) -> set[tuple]:
    """Every complete main play reachable through the decisions, walking all of them."""
    out: set[tuple] = set()
    names = {69: "sow", 70: "harvest", 71: "stockpile"}

    def walk(s) -> None:
        legal = s.legal_actions()
        assert legal, "a decision without a legal answer (dead end)"
        for a in legal:
            if s.decision == 2 and a == 69:  # ACTION: sow ends the move
                out.add((s.m_card, -1, s.m_field, "sow", 0, frozenset()))
                continue
            if s.decision == 5 and a == DONE:  # ITEMS: done resolves it
                if s.m_full:  # a full harvest: the whole hand
                    out.add((-2, -1, s.m_field, "full", 0, frozenset(s.m_items)))
                    continue
                out.add((s.m_card, s.m_partner, s.m_field, names[s.m_action], s.m_value, frozenset(s.m_items)))
                continue
            child = s.clone()
            child.apply(a)
            walk(child)

    walk(state)
    return out


def partitions(elems: list[tuple[tuple[int, ...], bool]], target: int) -> bool:
    """Can the elements (possible values, is a multiple stockpile) be split into groups that each
    total `target`, a multiple stockpile only on its own and of exactly that value?"""
    if not elems:
        return True
    first, rest = elems[0], elems[1:]
    for k in range(len(rest) + 1):
        for others in combinations(range(len(rest)), k):
            group = [first] + [rest[i] for i in others]
            if any(m for _, m in group):
                ok = len(group) == 1 and group[0][0] == (target,)
            else:
                ok = any(sum(v) == target for v in product(*(vals for vals, _ in group)))
            if ok and partitions([rest[i] for i in range(len(rest)) if i not in others], target):
                return True
    return False


def brute_moves(data: dict, full_harvest: bool = False) -> set[tuple]:
    p = data["current_player"]
    hand = data["hands"][p]
    up = {f["luminary"]["name"]: i for i, f in enumerate(data["fields"]) if f["luminary"] and f["luminary"]["face_up"]}
    out = set()
    if full_harvest and len(hand) == 4:  # the whole hand as one card of its total, each Fool 1 or 14
        totals = {sum(v) for v in product(*(values(c) for c in hand))}
        for f, fd in enumerate(data["fields"]):
            if data["seasons"][f] == "winter" and "Maiden" not in up:
                continue
            items = [(index(x), values(x), False) for x in fd["loose"]]
            items += [(min(index(x) for x in s["cards"]), (s["value"],), s["kind"] == "multiple")
                      for s in fd["stockpiles"]]
            for k in range(1, len(items) + 1):
                for sub in combinations(items, k):
                    if any(partitions([(vals, m) for _, vals, m in sub], t) for t in totals):
                        out.add((-2, -1, f, "full", 0, frozenset(i for i, _, _ in sub)))
    for c in hand:
        for f, fd in enumerate(data["fields"]):
            season = data["seasons"][f]
            items = [(index(x), values(x), False) for x in fd["loose"]]
            items += [(min(index(x) for x in s["cards"]), (s["value"],), s["kind"] == "multiple")
                      for s in fd["stockpiles"]]
            subsets = [sub for k in range(1, len(items) + 1) for sub in combinations(items, k)]
            if season != "autumn":
                out.add((index(c), -1, f, "sow", 0, frozenset()))
            if season != "winter" or "Maiden" in up:
                plays = [(-1, values(c))]
                if up.get("Union") == f:
                    plays += [(index(d), tuple({a + b for a in values(c) for b in values(d)}))
                              for d in hand if d != c]
                for partner, totals in plays:
                    for v in totals:
                        for sub in subsets:
                            if partitions([(vals, m) for _, vals, m in sub], v):
                                out.add((index(c), partner, f, "harvest", v, frozenset(k for k, _, _ in sub)))
            if season != "spring":
                active = ((1 if rank(c) == 1 else rank(c),), False)  # an active Fool counts 1
                for T in {14 if rank(d) == 1 else rank(d) for d in hand if d != c}:  # the passive card
                    for sub in subsets:
                        if partitions([active] + [(vals, m) for _, vals, m in sub], T):
                            out.add((index(c), -1, f, "stockpile", T, frozenset(k for k, _, _ in sub)))
    return out


def random_position(seed: int, full_harvest: bool = False):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([2, 4]))
    game = IllimatGame(num_players=n, full_harvest=full_harvest)
    names = [x for x in (f"{r}{s}" for s in "PSAW*"[:game.deck_cards // 13]
                         for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])]
    deck = [names[i] for i in rng.permutation(len(names))]
    k = 4 if full_harvest else int(rng.integers(1, 5))
    hands = [[deck.pop() for _ in range(k)]] + [[deck.pop()] for _ in range(n - 1)]
    fields = []
    for _ in range(4):
        fd = {"loose": [deck.pop() for _ in range(int(rng.integers(0, 5)))], "stockpiles": []}
        for _ in range(int(rng.integers(0, 3))):
            a, b = deck.pop(), deck.pop()
            total = min(values(a)) + min(values(b))
            if rng.random() < 0.3:  # a multiple stockpile: a card and others of its value
                r = rank(a) if rank(a) > 1 else 13
                same = [x for x in deck if rank(x) == r and x != a][:1]
                if same and r > 1 and rank(a) == r:
                    deck.remove(same[0])
                    fd["stockpiles"].append((r, "multiple", [a, same[0]]))
                    deck.append(b)
                    continue
            if total <= 14:
                fd["stockpiles"].append((total, "single", [a, b]))
            else:
                deck += [a, b]
        fields.append(fd)
    up = [x for x in ("Maiden", "Union", "Forest Queen") if rng.random() < 0.35]
    summer = int(rng.integers(4))
    for name, f in zip(up, rng.permutation(4)):
        fields[int(f)]["luminary"] = (name, True)
        if name == "Forest Queen":  # face up, she keeps her field Summer
            summer = int(f)
    return position(game, hands=hands, fields=fields, summer=summer, deck=deck, rest="deck")


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS)
def test_legal_moves_equal_a_brute_force_enumeration(seed):
    state = random_position(seed)
    assert engine_moves(state) == brute_moves(state.to_json())


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS)
def test_legal_moves_with_full_harvests_equal_a_brute_force_enumeration(seed):
    state = random_position(seed, full_harvest=True)
    assert engine_moves(state) == brute_moves(state.to_json(), full_harvest=True)


def test_full_harvest_enumeration_finds_full_harvests():
    found = sum(any(m[3] == "full" for m in brute_moves(random_position(seed, True).to_json(), True))
                for seed in range(40))
    assert found >= 10


def test_brute_force_enumeration_covers_every_kind_of_move():
    kinds, piles = set(), set()
    for seed in range(60):
        data = random_position(seed).to_json()
        piles |= {s["kind"] for f in data["fields"] for s in f["stockpiles"]}
        for move in brute_moves(data):
            kinds.add((move[3], move[1] >= 0, len(move[5]) > 1))
    assert {("sow", False, False), ("harvest", False, False), ("harvest", False, True), ("harvest", True, False),
            ("stockpile", False, False), ("stockpile", False, True)} <= kinds
    assert piles == {"single", "multiple"}


# ----- the scripted agent ---------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_heuristic_plays_only_legal_moves(n):
    env = card_envs.make("illimat_v0", num_players=n, auto_forced=False)  # raises on an illegal move
    game = env.unwrapped.game
    for seed in range(3):
        _, scores = play_game(env, [make_policy("heuristic", game)] * n, seed)
        assert max(scores) >= 17


def test_heuristic_batched_decisions_match_a_fresh_agent_per_decision():
    """The plan cache (one entry per turn, shared by the interleaved games of a batch) changes
    no decision: a fresh agent, which computes every plan from scratch, chooses the same."""
    from card_envs.vector import VectorGames

    game = card_envs.make_game("illimat_v0")
    shared, rng = make_policy("heuristic", game), np.random.default_rng(0)
    games = VectorGames(game, 16, seed=3)
    checked = 0
    for _ in range(400):
        observations, masks, _ = games.observe()
        actions = shared.act_batch(observations, masks.astype(np.int8), rng)
        for i in range(0, 16, 3):
            fresh = make_policy("heuristic", game).act(observations[i], masks[i].astype(np.int8), rng)
            assert fresh == actions[i]
            checked += 1
        games.step(actions)
    assert checked > 2000


def test_heuristic_beats_random_clearly():
    game = card_envs.make_game("illimat_v0")
    results = seat_rotated_results("illimat_v0", [make_policy("heuristic", game), RandomPolicy()], 20)
    assert (results[:, 0] > 0).mean() >= 0.9


# ----- the Harmonic Convergence, from random positions one harvest away from it ---------------
NAMES = [f"{r}{s}" for s in "PSAW*" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
SAFE_UP = ["Maiden", "River", "Changeling", "Rake", "Union", "Newborn"]  # face up without more state
TURNED = ("hands", "known_hand_cards", "harvest", "secret", "okus", "claimed", "scores")


def near_convergence(seed: int):
    """A random position: 3 face-up Luminaries in fields 1..3, a face-down one in Summer field 0
    over a lone card x, and the current player holding a card of x's rank."""
    rng = np.random.default_rng(seed)
    n = int(rng.choice([2, 3, 4]))
    game = IllimatGame(num_players=n, harmonic_convergence=True, full_harvest=bool(rng.integers(2)), rounds=3)
    deck = [NAMES[i] for i in rng.permutation(game.deck_cards)]
    x = next(c for c in deck if rank(c) > 1)
    deck.remove(x)
    y = next(c for c in deck if rank(c) == rank(x))
    deck.remove(y)
    p = int(rng.integers(n))
    hands = [[deck.pop() for _ in range(int(rng.integers(1, 5)))] for _ in range(n)]
    hands[p] = [y] + [deck.pop() for _ in range(3)]
    up = [LUMINARY_NAMES[i] for i in rng.permutation(8) if LUMINARY_NAMES[i] in SAFE_UP][:3]
    down = [L for L in LUMINARY_NAMES if L not in up]
    down = [down[i] for i in rng.permutation(len(down))]
    fields = [{"loose": [x], "luminary": (down.pop(), False)}]
    for L in up:
        fields.append({"loose": [deck.pop() for _ in range(int(rng.integers(0, 4)))], "luminary": (L, True)})
    claimed = [[] for _ in range(n)]
    unused = []
    for L in down:  # the other Luminaries: claimed by someone or unused
        (claimed[int(rng.integers(n))] if rng.random() < 0.5 else unused).append(L)
    harvest = [[deck.pop() for _ in range(int(rng.integers(0, 4)))] for _ in range(n)]
    secret = [[deck.pop() for _ in range(3)] if "Children" in claimed[q] else [] for q in range(n)]  # hers
    harvest = [h + hidden for h, hidden in zip(harvest, secret)]
    okus = [int(rng.integers(2)) for _ in range(n)]
    okus[0] = min(okus[0], n - sum(okus[1:]))
    scores = [int(rng.integers(0, 12)) for _ in range(n)]
    state = position(game, hands=hands, fields=fields, deck=deck, harvest=harvest, secret=secret, okus=okus,
                     claimed=claimed, unused=unused, scores=scores, current=p, round=1)  # the scores of round 0
    return state, x, y


def check_position(state, rng) -> None:
    game = state.game
    rebuilt = game.state_from_json(json.loads(json.dumps(state.to_json())))
    np.testing.assert_array_equal(rebuilt.state_tensor(), state.state_tensor())
    assert rebuilt.legal_actions() == state.legal_actions()
    for seat in range(game.num_players):
        np.testing.assert_array_equal(rebuilt.observation(seat), state.observation(seat))
        other = state.determinize(seat, rng)  # what the seat cannot see is resampled: its view stays
        np.testing.assert_array_equal(other.observation(seat), state.observation(seat))
        assert game.render(other, seat) == game.render(state, seat)
    if not state.is_terminal():
        for action in state.legal_actions():  # no dead end
            after = state.clone()
            after.apply(action)
            assert after.is_terminal() or after.legal_actions()


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_harmonic_convergence_turns_the_seats_once_and_keeps_every_invariant(seed):
    state, x, y = near_convergence(seed)
    game, n = state.game, state.game.num_players
    twin_game = IllimatGame(**{**game.config, "harmonic_convergence": False})
    rng = np.random.default_rng(seed)
    for name in (f"card {y}", "field 0", "harvest", f"card {x}"):
        state.apply(ACTION_IDS[name])
    # the rest of the turn at random (a Rake sow, a Changeling swap), until the clearing
    while not state.converged:
        assert state.round == 1
        check_position(state, rng)
        before = state.to_json()
        legal = state.legal_actions()
        action = legal[rng.integers(len(legal))]
        twin = twin_game.state_from_json(json.loads(json.dumps(before)))
        state.apply(action)
        twin.apply(action)
    # the same as without the rule, but every per-player list turned one seat: new[p] = old[p + 1]
    expected = twin.to_json()
    for key in TURNED:
        expected[key] = expected[key][1:] + expected[key][:1]
    expected["current_player"] = (twin.current_player - 1) % n
    expected["converged"] = True
    assert state.to_json() == expected
    assert all(twin.lum_up) and not twin.converged
    assert state.observation(0)[-1] == 1.0  # the converged entry ends the observation
    # then random play to the end: no second convergence, the deal keeps passing by seat
    round_index = state.round
    while not state.is_terminal():
        check_position(state, rng)
        scores = state.scores()
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        assert state.converged
        if state.round != round_index:
            round_index = state.round
            if not state.is_terminal():  # round r starts with seat r % n, held by player r - 1
                assert state.current_player == (round_index - 1) % n
                assert len(state.hands[state.current_player]) == 3
        else:
            assert state.scores() == scores
    check_position(state, rng)
