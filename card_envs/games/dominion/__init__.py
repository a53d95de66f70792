"""Dominion with split piles (``dominion_v0``)

```python
import card_envs
env = card_envs.make("dominion_v0")                      # 2 players, kingdom "T1-A"
env = card_envs.make("dominion_v0", num_players=4, kingdom="T2")
```

## Description

A Dominion-style deck-builder (2nd-edition base rules) with the Empires split piles, Sauna/Avanto
and the Castles: tiers 1 and 2 of ``shared/rules/dominion_split_piles.md`` (rules as implemented,
card table, decision primitives, kingdoms); source text on split piles:
``shared/seeds/000_585a2e23e4490039.txt``.

Each player starts with 7 Coppers and 3 Estates and draws 5. A turn: **Action phase** (1 Action:
play Action cards), **Buy phase** (play Treasures, then buy with 1 Buy and the $ made), **Clean-up**
(discard hand and play, draw 5; an empty deck is replaced by the shuffled discard pile). The
Supply: Copper, Silver, Gold, Estate, Duchy, Province, Curse and 10 Kingdom piles (11 with Young
Witch's Bane). The game ends after a turn in which the Province pile is empty or 3 Supply piles
are empty (a split pile counts once, and only when all of it is gone); most VP (cards in every
zone plus VP tokens) wins, ties go to the fewest turns, then are shared.

Cards (``cards.py``: one data row each, cost in $ and Debt, types, VP and vanilla bonuses; special
effects in ``effects.py``): the base cards Cellar, Chapel, Moat, Village, Workshop, Smithy, Militia,
Remodel, Market, Laboratory, Festival, Witch, Young Witch; the split piles Encampment/Plunder,
Patrician/Emporium, Settlers/Bustling Village, Catapult/Rocks, Gladiator/Fortune (Fortune costs $8
and 8 Debt), Sauna/Avanto (5 + 5 each) and Castles (Humble, Crumbling, Small, Haunted, Opulent,
Sprawling, Grand, King's: 8 cards with 2 players, 12 with 3-4, Humble/Small/Opulent/King's doubled).

Split piles (rules file section 2): a pile is an ordered list, only its top card can be bought,
gained or trashed from the Supply; the whole order is public; setup puts the cheaper cards on top;
a returned Encampment goes back on top and covers the Plunders again; effects on a pile as a whole
(Young Witch's Bane, "a $2-$3 pile") use the randomizer's cost and types, effects on a card (every
"costing up to") the top card's own; every card of the Bane pile is a Bane.

Kingdoms: ``"T1-A"`` (Encampment/Plunder, Patrician/Emporium, Settlers/Bustling Village,
Catapult/Rocks, Cellar, Village, Smithy, Militia, Market, Laboratory), ``"T1-B"`` (Gladiator/Fortune,
Sauna/Avanto, Chapel, Moat, Workshop, Remodel, Festival, Witch, Smithy, Village), ``"T2"`` (T1-A with
Castles in place of Laboratory), ``"random"`` (10 of the 20 implemented Kingdom piles, drawn at each
reset from the env's seed) or a list of 10 Kingdom pile names (e.g. ``"Castles"``,
``"Catapult/Rocks"``, ``"Young Witch"``).

## Agents

``player_0 .. player_{n-1}``, n = ``num_players`` (2 by default, 3 or 4). Seat 0 takes the first
turn, then seat order. ``agent_selection`` is the seat that must decide, which is not always the
player whose turn it is: Moat reactions, Militia and Catapult victims discarding, Young Witch
victims revealing a Bane, Gladiator's left-hand neighbour and Haunted Castle's victims decide in
the turn player's turn (in turn order from his left). The engine never calls an agent back: every
pending decision is part of the state (a task stack, see ``snapshot.py``).

Scripted baselines (``agents/dominion.py``, acting from the observation alone): ``heuristic``
(Witch-BM where Witch is in the Supply, else Smithy-BM, else Catapult/Rocks-BM, else Big Money
Ultimate) and the named bots ``bmu``, ``smithy_bm``, ``big_smithy``, ``witch_bm``, ``catapult_bm``
(``python -m evaluate dominion_v0 smithy_bm bmu --config '{"kingdom": "T1-B"}'``). On T1-B with 2
players (1,000 deals from seed 100000, each in both seatings), Smithy-BM beats Big Money Ultimate
in 0.727 [0.707, 0.746] of the games and Witch-BM beats Smithy-BM in 0.836 [0.819, 0.852] (wins
only, Wilson 95%); ``benchmarks/dominion_orderings.py`` adds game length and Province counts.

## Actions

``Discrete(73)``, the same for every configuration:

| index | meaning |
|---|---|
| 0 | ``done``: end the Action phase, stop playing Treasures, end buying (the turn), stop picking cards, decline a "may" (no Moat, no Bane, no reveal, no partner) |
| 1 | ``play all treasures``: play every Treasure in hand, one at a time, Fortunes last |
| 2..41 | ``card X``: the card to play, pick from hand (discard, trash, reveal, put on the deck), or take (Settlers' Copper, Bustling Village's Settlers), in ``cards.py`` order: Copper, Silver, Gold, Estate, Duchy, Province, Curse, Cellar, Chapel, Moat, Village, Workshop, Smithy, Militia, Remodel, Market, Laboratory, Festival, Witch, Young Witch, Encampment, Plunder, Patrician, Emporium, Settlers, Bustling Village, Catapult, Rocks, Gladiator, Fortune, Sauna, Avanto, Humble Castle, Crumbling Castle, Small Castle, Haunted Castle, Opulent Castle, Sprawling Castle, Grand Castle, King's Castle |
| 42..68 | ``pile P``: buy or gain the top card of a Supply pile: Copper, Silver, Gold, Estate, Duchy, Province, Curse, Cellar, Chapel, Moat, Village, Workshop, Smithy, Militia, Remodel, Market, Laboratory, Festival, Witch, Young Witch, Encampment/Plunder, Patrician/Emporium, Settlers/Bustling Village, Catapult/Rocks, Gladiator/Fortune, Sauna/Avanto, Castles |
| 69..72 | ``option k``: a mode (Sprawling Castle: 0 a Duchy, 1 three Estates; Small Castle: 0 trash this Small Castle from play) |

Decisions (the observation's ``decision`` one-hot, in this order):

| decision | who | answers |
|---|---|---|
| ``action`` | turn player | an Action card in hand (while Actions remain), ``done`` |
| ``treasure`` | turn player | a Treasure in hand, ``play all treasures``, ``done`` (start buying; Debt is repaid now) |
| ``buy`` | turn player | a pile whose top card costs at most the $ left (1+ Buy, no Debt), ``done`` (Clean-up) |
| ``cellar`` | turn player | cards to discard one at a time, ``done``; then draw as many |
| ``chapel`` | turn player | up to 4 cards to trash, ``done`` |
| ``moat`` | each other player, in turn order, when an Attack is played | ``card Moat`` (reveal: unaffected), ``done`` |
| ``workshop`` | turn player | a pile whose top card costs up to $4 |
| ``discard_down`` | Militia / Catapult victim | cards to discard until 3 are left |
| ``remodel_trash`` / ``remodel_gain`` | turn player | a card to trash; then a pile whose top costs up to $2 more |
| ``yw_discard`` | turn player | 2 cards to discard (Young Witch) |
| ``bane`` | Young Witch victim | a Bane card in hand (reveal), ``done`` (gain a Curse) |
| ``encampment`` | turn player | ``card Gold`` / ``card Plunder`` (reveal), ``done`` (set the Encampment aside) |
| ``settlers`` / ``bustling`` | turn player | ``card Copper`` / ``card Settlers`` (from the discard pile to hand), ``done`` |
| ``catapult`` | turn player | the card to trash |
| ``gladiator`` / ``gladiator_copy`` | turn player / his left-hand neighbour | the card to reveal / ``card X`` (reveal a copy), ``done`` |
| ``sauna_avanto`` / ``avanto_sauna`` | turn player | ``card Avanto`` / ``card Sauna`` (play it, no Action used), ``done`` |
| ``sauna_trash`` | turn player, after playing a Silver with Sauna played | a card to trash (one per Sauna played), ``done`` |
| ``small_castle`` | turn player | ``option 0`` (trash this) or a Castle in hand; then gain the top Castle |
| ``haunted`` | each other player with 5+ cards, when Haunted Castle is gained in its owner's turn | 2 cards to put onto the deck (the second ends on top) |
| ``opulent`` | turn player | Victory cards to discard for +$2 each, ``done`` |
| ``sprawling`` | the gainer | ``option 0`` (a Duchy), ``option 1`` (3 Estates) |

Multi-card picks are made one card at a time; the observation's ``decision_left`` says how many
picks are still required and allowed. Yes/no questions and the three phase decisions are asked
even when ``done`` is the only answer (so being asked reveals nothing about a hand); with
``auto_forced=True`` (the default) the env answers every single-answer decision itself.
``game.action_to_string(a)`` names an action.

## Observation

``{"observation": float32[477 + 289n], "action_mask": int8[73]}``: 1055, 1344, 1633 entries for
n = 2, 3, 4. Seats are relative to the observer (0 is the observer, 1 the next player). Counts
are written as count / 10. Layout for 2 players (``game.observation_layout.views(obs)`` gives these
as named arrays):

| piece | shape | indices | meaning |
|---|---|---|---|
| `hand` | (40,) | 0..39 | the observer's hand, count / 10 |
| `deck` | (40,) | 40..79 | the observer's deck (cards, not order), count / 10 |
| `discard` | (40,) | 80..119 | the observer's discard pile, count / 10 |
| `deck_top` | (2, 2, 40) | 120..279 | one-hot top two cards of each deck where the observer knows them |
| `in_play` | (2, 40) | 280..359 | cards in play per relative seat, count / 10 |
| `set_aside` | (2, 40) | 360..439 | cards set aside face up (Encampment), count / 10 |
| `owned` | (2, 40) | 440..519 | every card each seat owns (all gains and trashes are public), count / 10 |
| `known_hand` | (2, 40) | 520..599 | cards revealed in each hand and still there, count / 10 |
| `discard_top` | (2, 40) | 600..679 | one-hot top card of each discard pile |
| `sizes` | (2, 3) | 680..685 | hand, deck, discard pile sizes / 10 |
| `vp_tokens` | (2,) | 686..687 | VP tokens / 10 |
| `debt` | (2,) | 688..689 | Debt tokens / 10 |
| `turns` | (2,) | 690..691 | turns taken / max_turns |
| `score` | (2,) | 692..693 | (current score + 50) / 100, clipped to [0, 20] |
| `supply_in` | (27,) | 694..720 | 1 where the pile is in this game's Supply |
| `pile_size` | (27,) | 721..747 | cards left in the pile / 10 |
| `bane` | (27,) | 748..774 | one-hot Bane pile (Young Witch) |
| `supply_counts` | (40,) | 775..814 | copies of the card left in the Supply / 10 |
| `supply_top` | (40,) | 815..854 | 1 where the card is on top of its pile (buyable, gainable) |
| `supply_depth` | (40,) | 855..894 | (position of the card's highest copy in its pile, 0 = top, + 1) / 13 |
| `trash` | (40,) | 895..934 | cards in the trash / 10 |
| `phase` | (4,) | 935..938 | one-hot phase of the turn: action, treasure, buy, game over |
| `active` | (2,) | 939..940 | 1 at the relative seat whose turn it is |
| `to_move` | (2,) | 941..942 | 1 at the relative seat to decide |
| `turn_state` | (5,) | 943..947 | $ / 10, Actions / 10, Buys / 10, Saunas played / 10, Fortune used |
| `decision` | (25,) | 948..972 | one-hot pending decision (see Actions) |
| `decision_card` | (40,) | 973..1012 | one-hot card whose effect asks (the Attack for Moat, the gained Castle...) |
| `decision_named` | (40,) | 1013..1052 | one-hot card to match (Gladiator's revealed card) |
| `decision_left` | (2,) | 1053..1054 | picks still required, still allowed / 10 |

What each seat knows, and so what ``determinize`` keeps: its own hand, the contents of its own
deck (not the order) and discard pile; every player's cards in play and set aside, the top card of
each discard pile, the sizes of every hand, deck and discard pile, every card each player owns
(all gains and trashes are public), VP tokens, Debt and turns; the Supply (every pile's order), the
trash, the Bane. Revealed cards stay known while they stay where they were seen: a card revealed
from a hand (Moat, Bane, Gladiator, Encampment's Gold or Plunder, Grand Castle's whole hand, a card
taken into hand from the discard pile, Patrician's card, Rocks' Silver into hand) is counted in
``known_hand`` until one of that name leaves the hand (one fewer known copy) or a card leaves it
unseen (Haunted Castle: all forgotten); a revealed top card left on the deck (Patrician) or a
Silver put onto it (Rocks) is known to all (``deck_top``), cards put back by a Haunted Castle
victim only to him. Hidden: deck orders, other players' hands and the rest of their discard piles;
``determinize`` redraws exactly those (from sorted pools) and the seed of every later shuffle.
``env.state()`` is the full information vector (``game.state_layout``, absolute seats) for
centralised critics only.

## Rewards

Terminal only. ``reward="win"`` (default): rank-based, ``(players you beat - players who beat you)
/ (n - 1)`` (+1 / -1 / 0 with two players), where more VP beats fewer and equal VP is broken by
fewer turns; players still tied share. ``reward="score"``: ``(own VP - mean of the others' VP) /
max(100, the largest such difference)``. Both are zero-sum and in [-1, 1]; the final VP are in
``infos[agent]["scores"]``.

## Episode end

After the Clean-up of a turn in which the Province pile is empty or 3 Supply piles are empty, or
after every player has taken ``max_turns`` turns (default 100 each; the cap is ours, so that a game
in which nobody buys cannot run for ever: such a game is scored as usual and reported as a
termination, the adapter having no truncation signal). Random play ends in about 40-90 turns per
player, Big Money in about 17. ``max_game_length`` = ``n * max_turns * (6 * C + 10)`` decisions, C
the number of cards in the game (a bound: each decision plays, moves or buys a card, or passes).

## Arguments

| argument | default | meaning |
|---|---|---|
| ``num_players`` | 2 | 2, 3 or 4 |
| ``kingdom`` | ``"T1-A"`` | ``"T1-A"``, ``"T1-B"``, ``"T2"``, ``"random"`` or a list of 10 Kingdom pile names; anything else is refused with the accepted names |
| ``bane`` | None | Young Witch's Bane pile (a $2-$3 Kingdom pile outside the 10); None: drawn at reset |
| ``max_turns`` | 100 | turns per player after which the game ends |
| ``reward`` | ``"win"`` | ``"win"`` or ``"score"`` (see Rewards) |

Adapter arguments (``render_mode``, ``illegal_action``, ``illegal_reward``, ``auto_forced``,
``render_seat``): see `card_envs.aec.CardGameEnv`.

## Snapshots

``env.unwrapped.snapshot()`` is ``{"env_id", "config", "state"}``; ``state`` (format 1) is described
in ``card_envs/games/dominion/snapshot.py``: piles as runs top first (``[["Encampment", 5],
["Plunder", 5]]``), hands as card counts, decks top first with who knows each card, the task
stack. One validation function (``snapshot.from_json``) refuses, naming the field: unknown cards or
piles, a card count that differs from the game's (card conservation per name across Supply, trash
and every zone), a pile holding another pile's cards or out of its setup order (only a returned
Encampment may cover cards), cards in play or set aside outside the turn player's turn, turn
counts that do not alternate from seat 0, Treasures in play in the Action phase, a used Fortune or
Saunas that are not in play, an "over" position without an ending, and tasks that the rules could
not have pushed (owner, source card, ranges) or that do not leave a decision pending for
``current_player``. Deeply nested or huge inputs get a short ValueError.

Chance: the k-th shuffle of the game uses ``np.random.default_rng([seed, k])`` over the sorted
discard pile; ``seed`` (and a random kingdom and Bane) is drawn from the env's rng at reset, so
``reset(seed)`` reproduces a game and a snapshot continues identically.

## Where we resolved the rulebook

- Debt (Fortune): repaid automatically, as much as possible, when the player stops playing
  Treasures and again after each buy (the rules file's proposal, extended to after a buy); a player
  with Debt cannot buy. "Costing up to $X" never takes a card with a Debt cost (Workshop); Remodel
  compares $ and Debt separately (a trashed Fortune allows up to $10 and 8 Debt).
- Play all Treasures: one action playing them one at a time in ``cards.py`` order with Fortunes
  last (doubling as much as possible); a Silver played under Sauna still asks its trash question
  between plays. Treasures cannot be played once buying started.
- The Action and Treasure steps are always asked, even when ``done`` is the only answer; so are the
  "may" questions (Moat of every other player, Bane, Encampment, Settlers, Bustling Village, Sauna,
  Avanto, Gladiator's neighbour): being asked reveals nothing hidden.
- Attacks: every other player, in turn order from the attacker's left, may reveal Moat before any
  of the Attack's effects; Curses run out silently. Catapult: all Curses first, then the discards.
- Gladiator with an empty hand: nothing is revealed, so the neighbour cannot match: +$1 and the
  top Gladiator (if a Gladiator is on top) is trashed.
- Fortune's on-gain counts Gladiators in play (not in hand, pydominion's error).
- Grand Castle counts the Victory cards in the gainer's hand and his own cards in play (the card's
  text; androminion also counts other players' cards in play, which we do not).
- Haunted Castle: only when gained in its owner's turn; victims with 5+ cards put 2 onto their deck
  in the order picked (the second on top), unseen by the others.
- Sauna: "this turn" wording: each Silver played after a Sauna lets you trash up to one card per
  Sauna played this turn.
- Rocks: the Silver goes onto the deck when the owner is in his own Buy phase (buying Rocks,
  trashing it with Sauna's trash), else into hand.
- Encampment: revealing Gold or Plunder is optional (``done`` sets it aside); set-aside
  Encampments return to the top of their pile when Clean-up starts (split-pile rule 4).
- Settlers / Bustling Village take the deepest matching card of the discard pile (the visible top
  stays when it can).
- Clean-up discards the hand (in card order) then the cards in play, so the visible discard top is
  the last card played when any was.
- Cellar discards and Chapel trashes one card at a time, but triggers (Rocks, Crumbling Castle)
  wait until the pick ends, as if the cards went together.
- Small Castle: ``option 0`` trashes the played Small Castle; or a Castle from hand; then the top
  Castle is gained (if any). Sprawling Castle offers both options even if a pile is empty (gain
  what is left).
- Seat 0 always starts (the tie-break on turns favours later seats, as in the rules); match
  runners rotate seats.
- The ``max_turns`` cap is our addition (see Episode end).

## Version history

- v0: first release: tiers 1 and 2 of the rules file (base cards, Empires split piles,
  Sauna/Avanto, Castles), 2-4 players, kingdoms T1-A, T1-B, T2, random or a list.
"""

from card_envs.games.dominion.game import DominionGame
from card_envs.games.dominion.rules import DominionState

__all__ = ["DominionGame", "DominionState"]
