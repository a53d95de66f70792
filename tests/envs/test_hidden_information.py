"""Hidden information, checked from outside the engines: twin positions that differ only in what
seat p cannot know must look the same to p in every view (observation, mask, the AEC env's
observation, mask, infos and render, the text render, the replay board, the gym view) and give p
the same determinized copy for the same rng.

The twins are made here, not by ``determinize`` (whose blind spots the older tests in
tests/envs/test_envs.py inherited): hidden cards swapped between face-down places (places keep who else
knows them, which is public), chance seeds redrawn, and in Split the Hoard another seat's dealt
cards moved between its hand and its unflipped Negotiate Cards and its added Coins moved between
the cards. Copies made by ``determinize`` are twins too.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import card_envs
from card_envs.replay import board
from card_envs.games.illimat.cards import MID_MOVE
from card_envs.games.split_the_hoard.effects import COMMIT_CARD, COMMIT_COINS
from card_envs.gym import SingleAgentEnv
from tests.conftest import random_walk
from tests.envs.test_envs import sampled_positions

TWINS_PER_SEAT = 4


def reload(game, state):
    """The position rebuilt from its snapshot: caches recomputed, reachability checked."""
    return game.state_from_json(json.loads(json.dumps(state.to_json())))


# ----- face-down places each game hides from p (written from the doc pages, not from determinize),
# in groups within which cards may trade places unseen by p
def _three_piles_places(s, p):
    return [[(s.deck, i) for i in range(len(s.deck))] + [
        (s.hands[q], i) for q in range(s.game.num_players) if q != p for i in range(len(s.hands[q]))]]


def _piles_places(s, p):
    return [[(s.set_aside, i) for i in range(len(s.set_aside))] + [
        (s.hands[q], i) for q in range(s.game.num_players) if q != p for i in range(len(s.hands[q]))]]


def _illimat_places(s, p):
    """The draw pile, the cards under the Children, and the other hands but for cards taken from
    the board in view of all and the cards of a move in progress (a harvest's secret cards and
    face-down Luminaries are left to the determinize twins)."""
    places = [(s.deck, i) for i in range(len(s.deck))]
    places += [(pile, i) for pile in s.under for i in range(len(pile))]
    public = {s.m_card, s.m_partner}
    for q in range(s.game.num_players):
        if q != p:
            places += [(s.hands[q], i) for i, c in enumerate(s.hands[q]) if c not in s.known[q] and c not in public]
    return [places]


def _dominion_places(s, p):
    """Per player (what each owns is public, and p knows his own deck and discard as sets): deck
    places p does not know (his own: unknown to him; the others': unknown to all), and the others'
    discard piles under the top card. Hands are counts: see `_dominion_hand_twin`."""
    groups = []
    for q in range(s.game.num_players):
        limit = 1 if q == p else 2
        places = [(s.decks[q], i) for i, f in enumerate(s.deck_known[q]) if f < limit]
        if q != p:
            places += [(s.discards[q], i) for i in range(len(s.discards[q]) - 1)]
        groups.append(places)
    return groups


def _split_the_hoard_places(s, p):
    """Every face-down card p has not seen: the deck, the Coin discard pile, every Coin (faces
    are hidden from their owner too), and the others' hands and unflipped commits."""
    bit = 1 << p
    piles = [s.deck, s.coin_discard] + s.coins + [a for added in s.added for a in added]
    piles += [s.hand[q] for q in range(s.game.num_players) if q != p]
    if not s.flipped:
        piles += [s.offer[q] for q in range(s.game.num_players) if q != p]
    by_knowers: dict[int, list] = {}  # who else knows a face-down place is public
    for pile in piles:
        for i, c in enumerate(pile):
            if c >= 0 and not s.known_by[c] & bit:
                by_knowers.setdefault(s.known_by[c], []).append((pile, i))
    return list(by_knowers.values())


PLACES = {"three_piles": _three_piles_places, "piles": _piles_places, "illimat": _illimat_places,
          "dominion": _dominion_places, "split_the_hoard": _split_the_hoard_places}


def _swap_twin(game, state, p, rng):
    """Swap two different hidden cards of one group of places."""
    twin = state.clone()
    groups = [g for g in PLACES[game.name](twin, p) if len({pile[i] for pile, i in g}) > 1]
    if not groups:
        return None
    places = groups[rng.integers(len(groups))]
    while True:
        (a, i), (b, j) = (places[k] for k in rng.choice(len(places), 2, replace=False))
        if a[i] != b[j]:
            a[i], b[j] = b[j], a[i]
            return twin


def _dominion_hand_twin(game, state, p, rng):
    """A card of another hand nobody has seen, swapped with a card of that player's unknown deck."""
    twin = state.clone()
    for q in rng.permutation(game.num_players):
        hand, known, deck = twin.hands[q], twin.known[q], twin.decks[q]
        unseen = [c for c in range(len(hand)) if hand[c] > known[c]]
        slots = [i for i, f in enumerate(twin.deck_known[q]) if f == 0]
        pairs = [(c, i) for c in unseen for i in slots if deck[i] != c]
        if q != p and pairs:
            c, i = pairs[rng.integers(len(pairs))]
            hand[c], hand[deck[i]], deck[i] = hand[c] - 1, hand[deck[i]] + 1, c
            return twin
    return None


def _seed_twin(game, state, p, rng):
    """A new seed for later chance events (hidden from everyone)."""
    for name in ("chance_seed", "seed"):
        if hasattr(state, name):
            twin = state.clone()
            setattr(twin, name, int(rng.integers(2**62)))
            return twin
    return None


def _dealt_twin(game, state, p, rng):
    """Split the Hoard, before the flip: another seat's dealt cards in other places (hand or which
    Negotiate Card), cards p saw before the deal included, and its added Coins moved between its
    Negotiate Cards. Only how many lie where is public."""
    if game.name != "split_the_hoard" or state.flipped:
        return None
    twin = state.clone()
    moved = False
    for q in game.others[p]:
        places = [(twin.hand[q], i) for i in range(len(twin.hand[q]))]
        places += [(twin.offer[q], k) for k in range(3) if twin.offer[q][k] >= 0]
        cards = [pile[i] for pile, i in places]
        for (pile, i), c in zip(places, [cards[k] for k in rng.permutation(len(cards))]):
            pile[i] = c
        coins = [c for pile in twin.added[q] for c in pile]
        twin.added[q] = [[] for _ in range(3)]
        for c in coins:
            twin.added[q][rng.integers(3)].append(c)
        moved |= [pile[i] for pile, i in places] != cards or twin.added[q] != state.added[q]
    return twin if moved else None


def _inside_a_move(game, state, p) -> bool:
    """Illimat: another seat is inside a move, which may need some card of its hand. Its
    determinize keeps that hand (documented on its doc page): views are checked, copies not."""
    return game.name == "illimat" and state.current_player != p and state.decision in MID_MOVE


def twins(game, state, p, rng):
    """Positions that differ from `state` only in what seat p cannot know, each with whether p's
    determinized copies of it and of `state` must be the same (see `_inside_a_move`)."""
    out = []
    inside = _inside_a_move(game, state, p)
    for make in (_swap_twin, _swap_twin, _dominion_hand_twin, _seed_twin, _dealt_twin):
        if make is _dominion_hand_twin and game.name != "dominion":
            continue
        twin = make(game, state, p, rng)
        if twin is None:
            continue
        try:
            mover = state.current_player
            out.append((reload(game, twin), not inside or twin.hands[mover] == state.hands[mover]))
        except ValueError:
            if not inside:  # else: that hand could not have made the move so far
                raise
    return out + [(state.determinize(p, rng), True)]


# ----- every view of seat p -------------------------------------------------------------------
class Views:
    """Every view of one seat of one game, for positions loaded into reused envs."""

    def __init__(self, env_id, config, game, seat):
        self.game, self.seat = game, seat
        self.agent = f"player_{seat}"
        self.aec = card_envs.make(env_id, render_mode="ansi", render_seat=seat, auto_forced=False, **config)
        self.aec.reset(seed=0)
        self.snapshot = self.aec.unwrapped.snapshot()
        self.gym = SingleAgentEnv(env_id, learner_seat=seat, render_mode="ansi", mask_in_observation=True, **config)
        self.gym.reset(seed=0)

    def of(self, state) -> dict:
        g, p = self.game, self.seat
        views = {"observation": state.observation(p), "render": g.render(state, p), "board": board(g, state, p),
                 "public render": g.render(state, None), "public board": board(g, state, None)}
        if state.current_player == p and not state.is_terminal():
            views["legal"] = (state.legal_actions(), state.legal_mask())
        self.aec.reset(options={"state": {**self.snapshot, "state": state.to_json()}})
        observed = self.aec.observe(self.agent)
        views["env"] = (observed["observation"], observed["action_mask"], self.aec.infos[self.agent],
                        self.aec.render())
        if state.current_player == p or state.is_terminal():  # where the gym env hands over to its learner
            self.gym.state = state
            views["gym"] = (self.gym._observation(), self.gym._info(), self.gym.action_masks(), self.gym.render())
        return views


def assert_same_views(mine: dict, theirs: dict, what: str) -> None:
    assert mine.keys() == theirs.keys(), what
    for key in mine:
        try:
            np.testing.assert_equal(theirs[key], mine[key])
        except AssertionError as error:
            raise AssertionError(f"{what}: the {key} view differs\n{error}") from None


def assert_same_copies(game, a, b, p, rng, what: str) -> None:
    for _ in range(2):
        draw = int(rng.integers(2**32))
        mine = a.determinize(p, np.random.default_rng(draw)).to_json()
        theirs = b.determinize(p, np.random.default_rng(draw)).to_json()
        assert mine == theirs, f"{what}: determinize({p}) depends on what seat {p} cannot know"


def check_positions(env_id, config, positions, rng) -> int:
    """Check every twin of every position for every seat; returns how many twins differed."""
    game = card_envs.make_game(env_id, **config)
    seats = [Views(env_id, config, game, p) for p in range(game.num_players)]
    differed = 0
    for state in positions:
        state = reload(game, state)  # as the twins are: what a snapshot leaves out (a last play) goes for both
        for views in seats:
            p = views.seat
            mine = views.of(state)
            for twin, same_copy in twins(game, state, p, rng):
                if twin.to_json() == state.to_json():
                    continue
                differed += 1
                what = f"{env_id} {config} seat {p} at {state!r}"
                assert_same_views(mine, views.of(twin), what)
                if same_copy:
                    assert_same_copies(game, state, twin, p, rng, what)
    return differed


@pytest.mark.parametrize("seed", range(2))
def test_every_view_and_copy_of_a_seat_ignore_what_it_cannot_know(env_case, seed):
    env_id, config = env_case
    game = card_envs.make_game(env_id, **config)
    positions = sampled_positions(game, seed, count=5)
    assert check_positions(env_id, config, positions, np.random.default_rng(seed)) > 10


# ----- Split the Hoard's secret commits -------------------------------------------------------
def commit_positions(game, seeds, peeked: bool):
    """Positions while the secret commits are made, two per seed: a seat between its first and
    second card (its hand and Negotiate Cards both hold some) and a seat adding Coins while
    another's lie on its cards. With `peeked`, every dealt card is marked seen by every other
    seat (as PEEK_DECK on the deck before the deal would leave it)."""
    out = []
    for seed in seeds:
        found = {}
        for state in random_walk(game, seed):
            if state.decision == COMMIT_CARD and state.commit_slot == 1:
                found.setdefault("card", state.clone())
            if state.decision == COMMIT_COINS and any(any(a) for q in game.others[state.current_player]
                                                      for a in state.added[q]):
                found.setdefault("coins", state.clone())
            if len(found) == 2 or state.flipped and found:
                break
        out += [_peek_all(game, state) if peeked else state for state in found.values()]
    return out


def _peek_all(game, state):
    state = state.clone()
    everyone = (1 << game.num_players) - 1
    for q in range(game.num_players):
        for c in state.hand[q] + state.offer[q]:
            if c >= 0:
                state.known_by[c] = everyone & ~(1 << q)
    return reload(game, state)


@pytest.mark.parametrize("peeked", [False, True], ids=["unseen", "peeked"])
@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_split_the_hoard_commits_are_hidden_from_every_view_and_copy(num_players, peeked):
    """The issue's position: a seat committing while others' commits lie face down, with Coins
    added. Where each dealt card went and how the Coins were split are hidden until the flip."""
    config = {"num_players": num_players}
    game = card_envs.make_game("split_the_hoard_v0", **config)
    positions = commit_positions(game, range(5), peeked)
    assert len(positions) >= 8
    assert check_positions("split_the_hoard_v0", config, positions, np.random.default_rng(num_players)) > 30


def test_split_the_hoard_copies_resample_every_commit():
    """determinize(p) keeps no other seat's split of Coins between its Negotiate Cards, nor where a
    card p saw went: over copies, each comes back in more than one arrangement."""
    game = card_envs.make_game("split_the_hoard_v0")
    for state in commit_positions(game, range(6), peeked=True):
        p = state.current_player
        for q in game.others[p]:
            if not any(state.added[q]):
                continue
            copies = [state.determinize(p, np.random.default_rng(r)) for r in range(20)]
            assert len({tuple(map(len, c.added[q])) for c in copies}) > 1
            assert len({tuple(c.offer[q] + c.hand[q]) for c in copies}) > 1


def _named(board_zones) -> list[str]:
    return [card["label"] for z in board_zones for card in z["cards"] if "label" in card]


def test_split_the_hoard_board_never_places_a_seen_card_on_a_face_down_commit():
    """A card p saw before the deal and another seat committed is shown as seen, never on its
    Negotiate Card (nor with that card's added Coins) until the flip."""
    game = card_envs.make_game("split_the_hoard_v0")
    checked = 0
    for state in commit_positions(game, range(6), peeked=True):
        for p in range(game.num_players):
            for q in game.others[p]:
                zones = {z["name"]: z for z in board(game, state, p)["zones"] if z["owner"] == q}
                if "negotiate cards" in zones:
                    assert all(card.get("hidden") for card in zones["negotiate cards"]["cards"])
                    checked += 1
                if "hand" in zones:
                    assert all(card.get("hidden") for card in zones["hand"]["cards"])
                seen = [c for c in state.hand[q] + state.offer[q] if c >= 0]
                assert sorted(_named([zones["dealt cards seen"]])) == sorted(
                    {game.cards.names[game.cards.NAME[c]] for c in seen})
    assert checked > 10
