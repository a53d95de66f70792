"""Scripted Split the Hoard positions for the rules tests: name the cards each place holds, the
rest of the 103 go where the test says (the deck by default), then play named actions."""

from __future__ import annotations

import json

from card_envs.games.split_the_hoard.cards import load_cards
from card_envs.games.split_the_hoard.game import SplitTheHoardGame
from card_envs.games.split_the_hoard.rules import CLAIM, HAND, NEGOTIATE, REVEAL, STARTING_COINS, SplitTheHoardState
from card_envs.games.split_the_hoard.snapshot import counts

CS = load_cards()


def tc(*names_) -> list[int]:
    """Counts per card name (a Haul for the scoring functions) of the named cards."""
    counts = [0] * CS.num_names
    for n in names_:
        counts[CS.name_index[n]] += 1
    return counts


class Table:
    def __init__(self, n: int = 3, classes=("Druid", "Warrior", "Cleric", "Rogue", "Wizard"), powers: str = "full",
                 titles=None, vp: int = 30, dragon: int = 0):
        self.game = g = SplitTheHoardGame(num_players=n, class_powers=powers, starting_title_vp=vp)
        self.cs = cs = g.cards
        self.s = s = SplitTheHoardState(g)
        self.free = {r.name: list(range(f, f + r.copies)) for f, r in zip(cs.first_card, cs.rows)}
        s.classes = [cs.class_index[c] for c in classes[:n]]
        titles = list(titles or cs.title_names[:n])
        s.titles = [cs.title_index[t] for t in titles]
        s.title_deck = sorted(set(range(len(cs.hidden))) - set(s.titles))
        s.dragon = dragon
        self.top: list[int] = []
        self.coin_counts: dict[int, int] = {}
        self.dealt = True

    def card(self, name: str) -> int:
        return self.free[name].pop(0)

    def treasures(self, p: int, *names: str) -> "Table":
        for name in names:
            self.s.add_treasure(p, self.card(name))
        self.s.deals.clear()
        return self

    def coins(self, p: int, *names: str, count: int = 0) -> "Table":
        """Named Coins (oldest first), or `count` Coins taken from the leftovers at build time."""
        self.s.coins[p] += [self.card(n) for n in names]
        self.coin_counts[p] = self.coin_counts.get(p, 0) + count
        return self

    def discard(self, *names: str) -> "Table":
        """Cards in the Treasure discard pile (abilities used)."""
        self.s.treasure_discard += [self.card(n) for n in names]
        return self

    def deck(self, *names: str) -> "Table":
        """Cards on top of the deck, the top one first."""
        self.top = [self.card(n) for n in names]
        return self

    def any_card(self) -> int:
        """A card no test named: from the last names of the list with copies left."""
        for name in reversed(list(self.free)):
            if self.free[name]:
                return self.free[name].pop()
        raise IndexError("no card left")

    def leftovers(self) -> list[int]:
        return [c for cards in self.free.values() for c in cards]

    def build(self, rest: str = "deck", dealt: bool = True) -> SplitTheHoardState:
        """The position: named cards where the test put them, the others in the deck under its named
        top cards (or, for a short deck, in the `rest` pile, as late a round as the cards allow),
        and what the setup and the deals so far took from the deck (`_fill`). ``dealt=False``: this round's deal is still to come (the
        test deals it)."""
        s = self.s
        left = self.leftovers()
        for p, k in self.coin_counts.items():
            s.coins[p] += left[:k]
            left = left[k:]
        self.free = {}
        self.dealt = dealt
        if rest == "deck":
            s.deck = left + self.top[::-1]
        else:  # a short deck: as late a round as its size allows
            s.deck = self.top[::-1]
            getattr(s, rest).extend(left)
            n, gone = self.game.num_players, self.cs.num_cards - len(s.deck)
            # the deals so far left 3 face-up cards a player each: as many as the cards with an
            # ability can make up (only those lie in the Treasure discard before the end)
            face_up = counts(s)[0] + sum(self.cs.effect[self.cs.NAME[c]] is not None for c in getattr(s, rest))
            s.round = max(s.round, min(gone - STARTING_COINS * n, face_up) // (HAND * n) - dealt)
        self._fill()
        return s

    def _fill(self) -> None:
        """What the setup and the deals so far took from the deck, where the test did not place
        it: 4 Coins a player, and 3 cards a player per deal that stay face up. The face-up ones go
        to the Treasure discard, from the Coin discard (where the test put its leftovers there) and
        from under the cards the test put on top of the deck; the rest to the Coin discard. Cards
        the Treasure discard can hold come first: before the end, only a card with an ability (its
        use put it there), in round 0 one of an ability usable by then (`unreachable`)."""
        s, n = self.s, self.game.num_players
        deals = s.round + self.dealt
        face_up, _ = counts(s)
        short = HAND * n * deals - face_up
        under = len(s.deck) - len(self.top)
        places = [(s.coin_discard, i) for i in range(len(s.coin_discard))] + [(s.deck, i) for i in range(under)]
        places.sort(key=lambda place: self.unreachable(place[0][place[1]]))  # stable: the Coin discard first
        taken = places[:max(0, short)]
        s.treasure_discard += [pile[i] for pile, i in taken]
        for pile in (s.coin_discard, s.deck):
            gone = {i for q, i in taken if q is pile}
            pile[:] = [c for i, c in enumerate(pile) if i not in gone]
        under -= sum(q is s.deck for q, _ in taken)
        short = min(STARTING_COINS * n + HAND * n * deals - (self.cs.num_cards - len(s.deck)), under)
        if short > 0:
            s.coin_discard += s.deck[:short]
            del s.deck[:short]

    def unreachable(self, c: int) -> bool:
        """Whether card c cannot be in the Treasure discard now: it has no ability, or in round 0
        one of Reveal or Claim (not yet usable)."""
        i = self.cs.NAME[c]
        return self.cs.effect[i] is None or (self.s.round == 0 and self.cs.phase[i] in ("reveal", "claim"))

    def _later_round(self, phase: int) -> None:
        """Hauls start with Coins only, 4 each: a Treasure in a Haul before Negotiate's first
        purchase, or another number of Coins in Reveal, makes this a later round (1), whose
        earlier deal has left the deck too (`_fill`)."""
        s, n = self.s, self.game.num_players
        held = [len(s.coins[p]) + sum(map(len, s.added[p])) for p in range(n)]
        if not any(s.treasures) and (phase != REVEAL or held == [STARTING_COINS] * n):
            return
        s.round = max(s.round, 1)
        self._fill()

    # ----- starting a phase ---------------------------------------------------------------------
    def claim_window(self, rest: str = "deck") -> SplitTheHoardState:
        s = self.build(rest)
        s.phase, s.stage, s.flipped = CLAIM, "window", True
        s.prio, s.passes = s.dragon, 0
        s._advance()
        return checked(s)

    def commit(self, offers: dict, added: dict | None = None) -> "Table":
        """offers: seat -> three names or None, on the Negotiate Cards; added: (seat, card index
        0..2) -> Coin count."""
        s = self.s
        for p, names in offers.items():
            for k, name in enumerate(names):
                if name:
                    s.offer[p][k] = self.card(name)
        for (p, k), count in (added or {}).items():
            s.added[p][k] = [self.any_card() for _ in range(count)]
        return self

    def negotiate(self, offers: dict, added: dict | None = None, rest: str = "deck") -> SplitTheHoardState:
        """Negotiate with these commits (see `commit`), the Dragon Card holder's turn."""
        s = self.commit(offers, added).build(rest)
        self._later_round(NEGOTIATE)
        s.phase, s.stage, s.flipped = NEGOTIATE, "turns", True
        s.turn_i = 0
        s._new_turn()
        s._advance()
        return checked(s)

    def reveal_window(self, hands: dict, rest: str = "deck") -> SplitTheHoardState:
        s = self.s
        for p in range(self.game.num_players):
            s.hand[p] = [self.card(n) for n in hands.get(p, ())]
            while len(s.hand[p]) < 3:
                s.hand[p].append(self.any_card())
        s = self.build(rest)
        self._later_round(REVEAL)
        s.phase, s.stage, s.flipped = REVEAL, "window", False
        s.prio, s.passes = s.dragon, 0
        s._advance()
        return checked(s)


def checked(s: SplitTheHoardState) -> SplitTheHoardState:
    """The position must be one the snapshot loader accepts (a reachable, consistent one)."""
    data = json.loads(json.dumps(s.to_json()))
    assert s.game.state_from_json(data).to_json() == data
    return s


def action(s: SplitTheHoardState, what) -> int:
    g = s.game
    if isinstance(what, int):
        return what
    if what in g.cards.name_index:
        return g.cards.name_index[what]
    special = {"done": g.DONE, "yes": g.YES, "draw2": g.DRAW2, "power": g.POWER}
    if what in special:
        return special[what]
    if what.startswith("+"):
        return g.TARGET0 + int(what[1:]) - 1
    if what.startswith("card"):
        return g.SLOT0 + int(what[4:]) - 1
    raise KeyError(what)


def play(s: SplitTheHoardState, *moves) -> SplitTheHoardState:
    for move in moves:
        a = action(s, move)
        assert a in s.legal_actions(), (move, [s.game.action_to_string(x) for x in s.legal_actions()],
                                        s.to_json()["decision"])
        s.apply(a)
    return checked(s)


def legal_names(s: SplitTheHoardState) -> list[str]:
    return [s.game.action_to_string(a) for a in s.legal_actions()]


def names(s: SplitTheHoardState, cards) -> list[str]:
    return sorted(s.game.cards.names_of(cards))


def test_every_effect_primitive_has_a_text_with_its_arguments():
    """``help <card>`` in the terminal words a card's ability from `effects.PRIMITIVE_TEXT`: one
    text per primitive, with a placeholder per argument."""
    import re

    from card_envs.games.split_the_hoard.effects import PRIMITIVE_TEXT, PRIMITIVES

    assert set(PRIMITIVE_TEXT) == set(PRIMITIVES)
    for name, text in PRIMITIVE_TEXT.items():
        assert sorted(set(re.findall(r"\{(\d)\}", text))) == [str(i) for i in range(PRIMITIVES[name].arity)], name
