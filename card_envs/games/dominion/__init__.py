"""Dominion with split piles (``dominion_v0``)

```python
import card_envs
env = card_envs.make("dominion_v0")                      # 2 players, kingdom "T1-A"
env = card_envs.make("dominion_v0", num_players=4, kingdom="T2")
```

## Description

A Dominion-style deck-builder (2nd-edition base rules) with the Empires split piles, Sauna/Avanto,
the Castles and the six Allies split piles with Favors and five simple Allies (tiers 1 to 3 of
our rules text, in Sources below).

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
Sprawling, Grand, King's: 8 cards with 2 players, 12 with 3-4, Humble/Small/Opulent/King's doubled);
the Allies piles, 4 copies of 4 cards each, top to bottom: Augurs (Herb Gatherer, Acolyte,
Sorceress, Sibyl), Clashes (Battle Plan, Archer, Warlord, Territory), Forts (Tent, Garrison, Hill
Fort, Stronghold), Odysseys (Old Map, Voyage, Sunken Treasure, Distant Shore), Townsfolk (Town
Crier, Blacksmith, Miller, Elder), Wizards (Student, Conjurer, Sorcerer, Lich).

Tier 3 mechanics: *rotate* (rule 7: the top card and the identical cards directly under it go to
the bottom; a one-name pile does not change) is a yes/no decision for a pile's own rotator and a
pile choice for Battle Plan (any Supply pile). Duration cards (Warlord, Garrison with a token per
card gained after it this turn, Conjurer, Voyage when it gives its extra turn, Stronghold's
next-turn option) stay in play, shown in ``durations``, until the Clean-up of the turn their
effect fires (start of the owner's next turn); a Garrison without tokens is discarded at once.
Voyage: an extra turn after this one, if the previous turn was not yours, in which at most 3 cards
are played from hand (Treasures too); it does not count for the tie-break. Lich: its owner skips
his next turn (no phases; it counts for the tie-break); trashed, it goes to his discard pile and
he gains a cheaper card from the trash. Favors: when Wizards (Student, a Liaison) is in the
Supply, exactly one Ally is dealt (``ally=``, or drawn from the seed) and each player starts with
1 Favor: Mountain Folk (turn start: 5 Favors for +3 Cards), League of Bankers (Buy phase start:
+$1 per 4 Favors held), Band of Nomads (gaining a $3+ card in your turn: a Favor for +1 Card,
Action or Buy), Peaceful Cult (Buy phase start: trash a card per Favor spent), Cave Dwellers (turn
start: per Favor, discard a card then draw one, repeatable).

Split piles (rules file section 2): a pile is an ordered list, only its top card can be bought,
gained or trashed from the Supply; the whole order is public; setup puts the cheaper cards on top;
a returned Encampment goes back on top and covers the Plunders again; effects on a pile as a whole
(Young Witch's Bane, "a $2-$3 pile") use the randomizer's cost and types, effects on a card (every
"costing up to") the top card's own; every card of the Bane pile is a Bane.

Kingdoms: ``"T1-A"`` (Encampment/Plunder, Patrician/Emporium, Settlers/Bustling Village,
Catapult/Rocks, Cellar, Village, Smithy, Militia, Market, Laboratory), ``"T1-B"`` (Gladiator/Fortune,
Sauna/Avanto, Chapel, Moat, Workshop, Remodel, Festival, Witch, Smithy, Village), ``"T2"`` (T1-A with
Castles in place of Laboratory), ``"T3"`` (Townsfolk, Forts, Odysseys, Clashes, Wizards, Moat,
Village, Smithy, Market, Witch, with one Ally), ``"random"`` (10 of the 26 implemented Kingdom
piles, drawn at each reset from the env's seed), ``"random_train"`` / ``"random_test"`` (the same
draw, kept to the nine tenths of all kingdoms held in for training / the tenth held out for
evaluation: `rules.held_out`, a hash of the 10 piles, so no kingdom of one is ever dealt by the
other) or a list of 10 Kingdom pile names (e.g. ``"Castles"``, ``"Catapult/Rocks"``,
``"Young Witch"``, ``"Townsfolk"``).

## Sources

The rule texts of the card_envs project (in its repository, not installed with the package). Tiers 1
to 3 of ``shared/rules/dominion_split_piles.md`` (rules as implemented, card table, decision
primitives, kingdoms); source text on split piles: ``shared/seeds/000_585a2e23e4490039.txt``.

## Agents

``player_0 .. player_{n-1}``, n = ``num_players`` (2 by default, 3 or 4). Seat 0 takes the first
turn, then seat order. ``agent_selection`` is the seat that must decide, which is not always the
player whose turn it is: Moat reactions, Militia and Catapult victims discarding, Young Witch
victims revealing a Bane, Gladiator's left-hand neighbour, Haunted Castle's victims, Archer's
victims (which card to keep hidden) and Sorcerer's victims (naming a card) decide in
the turn player's turn (in turn order from his left). The engine never calls an agent back: every
pending decision is part of the state (a task stack, see ``snapshot.py``).

Scripted baselines (``agents/dominion/bots.py``, acting from the observation alone): ``heuristic``
(Witch-BM where Witch is in the Supply, else Smithy-BM, else Catapult/Rocks-BM, else the
Townsfolk/Forts probe, else Big Money Ultimate) and the named bots ``bmu``, ``smithy_bm``,
``big_smithy``, ``witch_bm``, ``catapult_bm``, ``townsfolk_bm`` (tier 3: a few Townsfolk and Forts
terminals on Smithy-BM's money rules, rotating Town Crier and Tent out of the way), and
``best_bot``: in each game the named bot that wins their round-robin on that game's kingdom
(``agents/dominion/best.py``; a few seconds the first time a process meets a kingdom, so an
evaluation opponent on random kingdoms, not a training one)
(``python -m card_envs.evaluate dominion_v0 smithy_bm bmu --config '{"kingdom": "T1-B"}'``). On T1-B with 2
players (1,000 deals from seed 100000, each in both seatings), Smithy-BM beats Big Money Ultimate
in 0.727 [0.707, 0.746] of the games and Witch-BM beats Smithy-BM in 0.836 [0.819, 0.852] (wins
only, Wilson 95%); ``experiments/dominion_orderings.py`` adds game length and Province counts.

## Actions

``Discrete(103)``, the same for every configuration:

| index | meaning |
|---|---|
| 0 | ``done``: end the Action phase, stop playing Treasures, end buying (the turn), stop picking cards, decline a "may" (no Moat, no Bane, no reveal, no partner) |
| 1 | ``play all treasures``: (in the Action phase: end it, then) play every Treasure in hand, one at a time, Fortunes last, then start buying |
| 2..65 | ``card X``: the card to play, pick from hand (discard, trash, reveal, put on the deck), or take (Settlers' Copper, Bustling Village's Settlers), in ``cards.py`` order: Copper, Silver, Gold, Estate, Duchy, Province, Curse, Cellar, Chapel, Moat, Village, Workshop, Smithy, Militia, Remodel, Market, Laboratory, Festival, Witch, Young Witch, Encampment, Plunder, Patrician, Emporium, Settlers, Bustling Village, Catapult, Rocks, Gladiator, Fortune, Sauna, Avanto, Humble Castle, Crumbling Castle, Small Castle, Haunted Castle, Opulent Castle, Sprawling Castle, Grand Castle, King's Castle, Herb Gatherer, Acolyte, Sorceress, Sibyl, Battle Plan, Archer, Warlord, Territory, Tent, Garrison, Hill Fort, Stronghold, Old Map, Voyage, Sunken Treasure, Distant Shore, Town Crier, Blacksmith, Miller, Elder, Student, Conjurer, Sorcerer, Lich |
| 66..98 | ``pile P``: buy or gain the top card of a Supply pile: Copper, Silver, Gold, Estate, Duchy, Province, Curse, Cellar, Chapel, Moat, Village, Workshop, Smithy, Militia, Remodel, Market, Laboratory, Festival, Witch, Young Witch, Encampment/Plunder, Patrician/Emporium, Settlers/Bustling Village, Catapult/Rocks, Gladiator/Fortune, Sauna/Avanto, Castles, Augurs, Clashes, Forts, Odysseys, Townsfolk, Wizards |
| 99..102 | ``option k``: a mode (Sprawling Castle: 0 a Duchy, 1 three Estates; Small Castle: 0 trash this Small Castle from play; Town Crier, Blacksmith, Hill Fort, Stronghold: their options in the card's order; 0 = yes for a rotate, Acolyte trashing itself, Mountain Folk; Band of Nomads: 0 +1 Card, 1 +1 Action, 2 +1 Buy) |

Decisions (the observation's ``decision`` one-hot, in this order):

| decision | who | answers |
|---|---|---|
| ``action`` | turn player | an Action card in hand (while Actions remain), ``done``, ``play all treasures`` |
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
| ``rotate`` | turn player | ``option 0`` (rotate the card's own pile: Herb Gatherer, Town Crier, Tent, Old Map, Student), ``done`` |
| ``rotate_any`` | turn player | ``pile P`` (Battle Plan rotates any non-empty Supply pile), ``done`` |
| ``herb_gatherer`` | turn player | ``card X`` (a Treasure of the discard pile to play), ``done`` |
| ``acolyte`` / ``acolyte_self`` | turn player | an Action or Victory card to trash for a Gold, ``done``; then ``option 0`` (trash Acolyte for an Augur), ``done`` |
| ``sorceress`` | turn player | ``card X``: the name (any card of this game's Supply piles) |
| ``sibyl_top`` / ``sibyl_bottom`` | turn player | the card to put on top, then on the bottom of the deck |
| ``battle_plan`` | turn player | an Attack in hand to reveal (+1 Card), ``done`` |
| ``archer_hide`` / ``archer_pick`` | each Archer victim with 5+ cards / the attacker | the card to keep hidden / a revealed card the victim discards (``decision_seat``) |
| ``tent`` | turn player, at Clean-up | ``card Tent`` (onto the deck), ``done`` |
| ``hill_fort`` | turn player | a pile whose top card costs up to $4 |
| ``mode`` | turn player | ``option k`` of the asking card (``decision_card``); with Elder a second, different one or ``done`` |
| ``old_map`` | turn player | the card to discard (then +1 Card) |
| ``sunken_treasure`` | turn player | a pile whose top is an Action card not in play |
| ``student`` | turn player | the card to trash |
| ``conjurer`` | turn player | a pile whose top card costs up to $4 |
| ``sorcerer`` | each Sorcerer victim | ``card X``: the name |
| ``lich`` | Lich's owner | a card in the trash costing less than Lich |
| ``elder`` | turn player | an Action card in hand to play, ``done`` |
| ``miller`` | turn player | one of the top 4 cards of his deck (``looking``) to take |
| ``mountain_folk`` | turn player, at turn start | ``option 0`` (5 Favors: +3 Cards), ``done`` |
| ``band_of_nomads`` | turn player, gaining a $3+ card | ``option 0/1/2`` (a Favor: +1 Card / Action / Buy), ``done`` |
| ``peaceful_cult`` | turn player, at Buy phase start | cards to trash, a Favor each, ``done`` |
| ``cave_dwellers`` | turn player, at turn start | a card to discard then draw one, a Favor each, ``done`` |

Multi-card picks are made one card at a time; the observation's ``decision_left`` says how many
picks are still required and allowed. The Action and Treasure steps always offer ``done`` and
``play all treasures``, so they are always asked. The "may" questions (Moat, Bane, Encampment,
Gladiator's neighbour...) are asked even when ``done`` is the only answer, so with
``auto_forced=False`` being asked reveals nothing about a hand; with ``auto_forced=True`` (the
default) the env answers every single-answer decision itself, so a Moat question skipped that way
shows in ``agent_selection`` (never in an observation) that the victim holds no Moat: use
``auto_forced=False`` where agents may watch the turn order.
``game.action_to_string(a)`` names an action.

## Observation

``{"observation": float32[813 + 525n], "action_mask": int8[103]}``: 1863, 2388, 2913 entries for
n = 2, 3, 4. Seats are relative to the observer (0 is the observer, 1 the next player). Counts
are written as count / 10. Layout for 2 players (``game.observation_layout.views(obs)`` gives these
as named arrays):

| piece | shape | indices | meaning |
|---|---|---|---|
| `hand` | (64,) | 0..63 | the observer's hand, count / 10 |
| `deck` | (64,) | 64..127 | the observer's deck (cards, not order), count / 10 |
| `discard` | (64,) | 128..191 | the observer's discard pile, count / 10 |
| `deck_top` | (2, 2, 64) | 192..447 | one-hot top two cards of each deck where the observer knows them |
| `in_play` | (2, 64) | 448..575 | cards in play per relative seat, count / 10 |
| `set_aside` | (2, 64) | 576..703 | cards set aside face up (Encampment), count / 10 |
| `owned` | (2, 64) | 704..831 | every card each seat owns (all gains and trashes are public), count / 10 |
| `known_hand` | (2, 64) | 832..959 | cards revealed in each hand and still there, count / 10 |
| `discard_top` | (2, 64) | 960..1087 | one-hot top card of each discard pile |
| `sizes` | (2, 3) | 1088..1093 | hand, deck, discard pile sizes / 10 |
| `vp_tokens` | (2,) | 1094..1095 | VP tokens / 10 |
| `debt` | (2,) | 1096..1097 | Debt tokens / 10 |
| `turns` | (2,) | 1098..1099 | turns taken / max_turns |
| `score` | (2,) | 1100..1101 | (current score + 50) / 100, clipped to [0, 20] |
| `supply_in` | (33,) | 1102..1134 | 1 where the pile is in this game's Supply |
| `pile_size` | (33,) | 1135..1167 | cards left in the pile / 10 |
| `bane` | (33,) | 1168..1200 | one-hot Bane pile (Young Witch) |
| `supply_counts` | (64,) | 1201..1264 | copies of the card left in the Supply / 10 |
| `supply_top` | (64,) | 1265..1328 | 1 where the card is on top of its pile (buyable, gainable) |
| `supply_depth` | (64,) | 1329..1392 | (position of the card's highest copy in its pile, 0 = top, + 1) / 13 |
| `trash` | (64,) | 1393..1456 | cards in the trash / 10 |
| `phase` | (4,) | 1457..1460 | one-hot phase of the turn: action, treasure, buy, game over |
| `active` | (2,) | 1461..1462 | 1 at the relative seat whose turn it is |
| `to_move` | (2,) | 1463..1464 | 1 at the relative seat to decide |
| `turn_state` | (5,) | 1465..1469 | $ / 10, Actions / 10, Buys / 10, Saunas played / 10, Fortune used |
| `decision` | (51,) | 1470..1520 | one-hot pending decision (see Actions) |
| `decision_card` | (64,) | 1521..1584 | one-hot card whose effect asks (the Attack for Moat, the gained Castle...) |
| `decision_named` | (64,) | 1585..1648 | one-hot card to match (Gladiator's revealed card) |
| `decision_left` | (2,) | 1649..1650 | picks still required, still allowed / 10 |
| `favors` | (2,) | 1651..1652 | Favors / 10 |
| `skips` | (2,) | 1653..1654 | turns still to skip (Lich) |
| `durations` | (2, 64) | 1655..1782 | Duration cards in play that act at the seat's next turn, count / 10 |
| `garrison_tokens` | (2,) | 1783..1784 | tokens on the seat's Garrisons / 10 |
| `ally` | (5,) | 1785..1789 | one-hot Ally (Favors are used only with one): Mountain Folk, League of Bankers, Band of Nomads, Peaceful Cult, Cave Dwellers |
| `extra_turn` | (3,) | 1790..1792 | this is a Voyage extra turn, cards it may still play from hand / 3, a Voyage extra turn follows this turn |
| `decision_seat` | (2,) | 1793..1794 | 1 at the relative seat the decision is about (Archer's victim) |
| `decision_picked` | (4,) | 1795..1798 | options already chosen in this decision (Elder's extra choice) |
| `looking` | (64,) | 1799..1862 | cards the deciding seat is looking at (Miller's top cards; only his), count / 10 |

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

Tier 3 knowledge: Favors, skips, Duration cards waiting (with Garrison tokens and Warlord's lock),
the Ally and Voyage's extra turn are public. A name (Sorceress, Sorcerer) is said aloud and the
revealed card is public. An Archer victim reveals all his hand but the card he hides: the rest is
``known_hand``, the hidden card stays hidden. Miller's 4 cards are seen by their owner only
(``looking``, and his deck flags); the card he keeps is not known to the others, the discarded
ones are (the last is the discard top). Sibyl's two cards are known to their owner only, on top
and at the bottom of his deck. Tent and Student go onto the deck in view of all; Conjurer returns
to the hand in view of all. Herb Gatherer puts the deck on the discard pile as it lies (its top
becomes the visible discard top), and the Treasure played from it is public.

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
the cards of every pile of the card list at this player count (all 33 piles' setup counts, in the
game or not: 444, 463, 466 with 2, 3, 4 players), so the same bound holds for every kingdom,
``"random"`` included (a bound: each decision plays, moves or buys a card, or passes; a game holds
at most C cards).

## Arguments

| argument | default | meaning |
|---|---|---|
| ``num_players`` | 2 | 2, 3 or 4 |
| ``kingdom`` | ``"T1-A"`` | ``"T1-A"``, ``"T1-B"``, ``"T2"``, ``"T3"``, ``"random"``, ``"random_train"``, ``"random_test"`` or a list of 10 Kingdom pile names; anything else is refused with the accepted names |
| ``bane`` | None | Young Witch's Bane pile (a $2-$3 Kingdom pile outside the 10); None: drawn at reset |
| ``ally`` | None | the Ally when Wizards (Student, a Liaison) is in the Supply: ``"Mountain Folk"``, ``"League of Bankers"``, ``"Band of Nomads"``, ``"Peaceful Cult"``, ``"Cave Dwellers"``; None: drawn at reset; refused with a fixed kingdom without Wizards |
| ``max_turns`` | 100 | turns per player after which the game ends |
| ``reward`` | ``"win"`` | ``"win"`` or ``"score"`` (see Rewards) |

Adapter arguments (``render_mode``, ``illegal_action``, ``illegal_reward``, ``auto_forced``,
``render_seat``): see `card_envs.aec.CardGameEnv`.

## Snapshots

``env.unwrapped.snapshot()`` is ``{"env_id", "config", "state"}``; ``state`` (format 2; format 1 still loads) is described
in ``card_envs/games/dominion/snapshot.py``: piles as runs top first (``[["Encampment", 5],
["Plunder", 5]]``), hands as card counts, decks top first with who knows each card, the task
stack. One validation function (``snapshot.from_json``) refuses, naming the field: unknown cards or
piles, a card count that differs from the game's (card conservation per name across Supply, trash
and every zone), a pile holding another pile's cards or out of its setup order (only a returned
Encampment may cover cards), cards in play or set aside outside the turn player's turn, turn
counts that do not alternate from seat 0, Treasures in play in the Action phase, a used Fortune or
Saunas that are not in play, an "over" position without an ending, a turn that starts (Action
phase, nothing played yet) with the Province pile or three piles empty or every seat at
``max_turns`` (the game ended), Debt beyond what the Supply's Debt cards give (none without
Fortune, at most its 8 with it), and tasks that the rules could not have pushed (owner, source
card, ranges) or that do not leave a decision pending for ``current_player``. Deeply nested or
huge inputs get a short ValueError; a list longer than the game's cards is refused before its
entries are read.

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
  Avanto, Gladiator's neighbour): being asked reveals nothing hidden (with ``auto_forced=True`` the
  env answers a question whose only answer is ``done``: see Actions).
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
- Rocks: the Silver goes onto the deck when the owner is in his own Buy phase, both of its steps
  (buying Rocks; trashing it with Sauna's trash or Peaceful Cult while playing Treasures), else into
  hand.
- A Silver that Herb Gatherer plays in the Action phase is a Silver played this turn: with a Sauna
  played, it asks Sauna's trash question.
- Encampment: revealing Gold or Plunder is optional (``done`` sets it aside); set-aside
  Encampments return to the top of their pile when Clean-up starts (split-pile rule 4), before the
  turn ends: the end-of-game check sees the pile refilled (emptied during the turn, it does not
  count as empty then).
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
- Rotate: asked as a yes/no of the card's own pile (asked even when the pile holds one name:
  nothing changes then; not asked when the pile is empty, which is public); Battle Plan offers
  every non-empty Supply pile, one-name piles included. A pile can be rotated only when its rotator is in the game, so snapshots accept
  rotated orders (each name in one run, no longer than at setup, the names in the setup's cyclic
  order) only for the Allies piles, or for any split pile when Clashes (Battle Plan) is in the
  Supply.
- Elder: the official text ("when *it* gives you a choice ... this turn") is read literally: the
  extra, different option applies to the Action card Elder plays (Town Crier, Blacksmith, Hill
  Fort, Stronghold), not to every card played this turn as the rules file's paraphrase could be
  read. The options chosen are carried out in the card's order.
- Voyage: "the previous turn" is the last turn actually taken (a turn skipped by Lich is not one),
  so Voyage alone never gives a player more than 2 turns in a row (turns skipped by Lich can give
  the other player more, as the official Lich ruling allows: two Liches, or a Voyage extra turn
  followed by the opponent's skipped turn, give 3); a second Voyage in the same turn, or one in
  the extra turn, does nothing and is discarded normally. The 3-card limit counts every card
  played from hand (Elder's and Sauna/Avanto's partner plays too), not cards played from
  elsewhere (Herb Gatherer's Treasure). The game ends before a pending extra turn.
- Lich: each Lich played skips one turn; skipping happens when the turn would start (Durations
  wait for the next turn actually taken). If the skipped turn is a Voyage extra turn, that extra
  turn is lost (and, being an extra turn, adds nothing to the tie-break count) and its Voyage is
  discarded at once (the official ruling waits for the next Clean-up; the Voyage can do nothing
  meanwhile). Trashed, Lich goes from the trash to the discard pile, then a card costing less
  (in $; no Debt card qualifies) must be gained from the trash if there is one; Gold ($6) is not
  cheaper.
- Naming a card: from the card names of this game's Supply piles (every other name can never
  match). Sorcerer: a victim who cannot reveal a card (empty deck and discard pile) gains a Curse.
  Sorceress with nothing to reveal gives no Curse.
- Archer: the victim picks the card to hide, then the attacker picks one of the revealed card
  names; the victim discards a copy of it. Warlord: a victim that revealed Moat is not locked;
  the lock holds from the play until the start of the Warlord owner's next turn and covers every
  play from hand (Elder, Sauna/Avanto partners).
- Garrison: every card its owner gains in the rest of his turn adds a token to each of his
  Garrisons played this turn (buys included); with no token it is discarded at that Clean-up.
- Hill Fort: "put it into your hand" takes the gained card from the discard pile (if it is still
  there); +1 Card +1 Action otherwise. Stronghold's next-turn option makes it a Duration.
- Tent: asked at Clean-up for each Tent in play (``card Tent`` puts one onto the deck, before the
  new hand is drawn, so it is drawn again).
- Herb Gatherer: the deck goes onto the discard pile as it lies; the Treasure is played from
  there (not from hand: the Voyage limit does not count it) and may be any Treasure of the pile.
- Miller: with fewer than 4 cards in the deck the discard pile is shuffled under it first; the
  card kept goes to hand unseen by the others.
- Sunken Treasure: any Action card on top of a Supply pile (no cost limit) whose name is not among
  its owner's cards in play; nothing if none.
- Student: Favor and onto the deck only for a trashed Treasure; it goes onto the deck from play in
  view of all.
- Allies: start-of-turn effects run Durations first, then the Ally (Mountain Folk asks only with 5+
  Favors; Cave Dwellers only with a Favor and a card in hand). "Start of the Buy phase" is when the
  Action phase ends (before Treasures). Band of Nomads triggers only on gains in its owner's own
  turn (the implemented cards give no $3+ gain outside one). Favors count for nothing at the end.
- Territory counts differently named Victory cards among all its owner's cards (Castles,
  Stronghold and Distant Shore included, Curses not); its on-gain gives a Gold per empty Supply
  pile at that moment.

## Version history

- v0: first release: tiers 1 and 2 of the rules file (base cards, Empires split piles,
  Sauna/Avanto, Castles), 2-4 players, kingdoms T1-A, T1-B, T2, random or a list.
- v0, tier 3 (before any published result): the six Allies split piles, Durations, extra and
  skipped turns, Favors and five Allies, kingdom T3; the action space grew from 73 to 103 and the
  observation gained the tier-3 pieces (checkpoints of the tier-2 layout do not load); snapshot
  format 2.
"""

from card_envs.games.dominion.game import DominionGame
from card_envs.games.dominion.rules import DominionState

__all__ = ["DominionGame", "DominionState"]
