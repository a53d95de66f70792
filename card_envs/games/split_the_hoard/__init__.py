"""Split the Hoard (``split_the_hoard_v0``)

```python
import card_envs
env = card_envs.make("split_the_hoard_v0")        # 3 players; num_players=2..5
```

## Description

Split the Hoard (Marc Kenobi, EN Publishing): the dragon is dead and 2-5 adventurers split its
hoard by "I cut, you choose". Each round every player draws 3 Treasures, secretly prices them on
his three Negotiate Cards (worth 1, 2, 3 Coins, plus any Coins he adds), then each in turn either
draws 2 Coins or buys a Treasure from another player at its price, paid to the seller; unsold
Treasures go back to their owners. A Hoard card face up is a Treasure, face down a Coin. The game
ends when a needed draw cannot be made; Titles (5 public Starting Titles worth 30, one hidden Title
each) and Treasure VP are scored.

The card list is data: ``card_envs/games/split_the_hoard/cards.json`` (103 Hoard cards of 39 names,
5 Starting Titles, 15 hidden Titles, 5 classes), validated when loaded (an error names the bad
entry). ``cards="path/to/cards.json"`` plays another list of the same schema: a Hoard row gives
``name``, ``copies``, ``rank`` (fixed rank, a modifier's +/- value, or null), ``modifier``, ``vp``,
``condition`` (null, ``{"has_any": [names]}`` or ``{"won_starting_titles": k}``), ``phase``
(reveal, negotiate, negotiate-react, claim, reaction, none), ``effect`` (``[PRIMITIVE, *args]`` of
rules file 3.1, or null) and optionally ``"trigger": "enter_haul"`` (Deal). A new card is a data
row when its effect is a known primitive (``effects.PRIMITIVES``).

A round, as the engine plays it:

1. **Reveal.** If the deck holds fewer than 3n cards the game ends. Otherwise 3 cards are dealt to
   each player, in order from the Dragon Card holder (the Wizard, with ``class_powers="full"``,
   draws 4 and puts one on the bottom of the deck when the deck holds 3n + 1). A priority loop
   follows (F15): from the Dragon Card holder, each player uses one Reveal ability or passes, until
   all pass in a row. Then each player in turn secretly commits one dealt card to each Negotiate
   Card and adds Coins to them; the commits are flipped together.
2. **Negotiate.** One turn each from the Dragon Card holder: any number of own-turn abilities,
   then the action: draw 2 Coins, or negotiate for a Treasure on another player's Negotiate Card
   whose price (printed 1/2/3 plus added Coins, less discounts) he can pay in full. The target may
   refuse (Holy Symbol, Cleric); the buyer then takes another action. The price is paid to the
   seller, the added Coins go to the Coin discard pile, the Treasure to the buyer's Haul.
3. **Claim.** Added Coins go to the Coin discard pile, unsold Treasures to their owners' Hauls;
   a player who sold all three draws 3 Treasures. A priority loop of Claim abilities follows; then
   the Dragon Card passes clockwise (or to whoever used TAKE_DRAGON).

A Treasure's ability is used by discarding it from the Haul. Reactions (Bandages, Shield, Holy
Symbol, Sanctuary) are asked of the target before the effect resolves; Deal is asked when it
enters a Haul.

## Sources

The rule texts of the card_envs project (in its repository, not installed with the package). The
rulebook draft ``shared/seeds/001_43fd7a590da9a669.txt``; rules as implemented, with our resolutions
of its gaps (section 2) and the open-edition card list (section 3, DESIGN: the published cards are
not public): ``shared/rules/split_the_hoard.md``.

## Agents

``player_0 .. player_{n-1}``, n = ``num_players`` (3 by default, 2 to 5); clockwise is seat order.
Every decision belongs to one seat, which becomes ``agent_selection``: the player whose turn it is,
and also, out of turn, a player in a priority loop, a player making his secret commit, the target
of a negotiation or theft (reactions) and the player whose Deal entered his Haul. A seat with
nothing to use in a priority loop passes without being asked.

## Actions

``Discrete(50)`` with the default card list (``39 + 11`` in general: one action per Hoard card
name, then 11), the same for every number of players:

| index | meaning |
|---|---|
| 0..38 | a card name (``game.action_to_string``: "Healing Herbs", ..., "Dragon Tooth", in ``cards.json`` order): the Treasure whose ability to use, the dealt card to commit, the card to take, give, recover, flip or put in place |
| 39..42 | ``player +k``: the seat k places clockwise from the decider (a negotiation's or an effect's target) |
| 43..45 | ``negotiate card k``: the Negotiate Card worth k Coins (to buy from, or to add a Coin to) |
| 46 | ``draw 2 coins``: the Negotiate action |
| 47 | ``yes``: discard the Deal that entered your Haul to gain 3 Coins |
| 48 | ``done``: pass, stop adding Coins, accept (no reaction), decline (no Deal, no flip, no Pickpocket) |
| 49 | ``class power``: use the class card's power (Druid's Forage, Warrior's Intimidate, Cleric's Sanctuary) |

Decisions (the observation's ``decision`` one-hot, in this order), each a short masked sequence:

| decision | who | answers |
|---|---|---|
| ``scry`` | the Wizard, after the deal | a dealt card name: it goes to the bottom of the deck |
| ``priority`` | each seat in a Reveal or Claim priority loop | a Treasure name (its ability), ``class power``, ``done`` (pass) |
| ``extra_coin`` | after Spellbook's EXTRA_DRAW | a card name of the hand, which goes to the Haul as a Coin |
| ``order`` | after PEEK_DECK / PICK_TOP | the name of the card to put next, from the top down (the last is placed alone) |
| ``pick`` | PICK_TOP | the name of the card to take face up |
| ``commit_card`` | each seat in turn, Reveal | the dealt card for Negotiate Card 1, then 2 (the last card goes on 3) |
| ``commit_coins`` | the same seat | ``negotiate card k`` adds one Coin from the Haul to card k; ``done`` |
| ``turn`` | the Negotiate player | a Treasure name (own-turn ability), ``class power``, ``player +k`` (negotiate with him), ``draw 2 coins`` |
| ``buy_slot`` | the buyer | ``negotiate card k`` of the chosen player (only those he can pay) |
| ``target`` | the actor of TAKE_COINS / STEAL / SWAP / Pickpocket | ``player +k`` (``done``: no Pickpocket) |
| ``take`` | STEAL / SWAP | the name of the target's Treasure to take |
| ``give`` | SWAP | the name of your Treasure to give |
| ``recover`` | RECOVER_TREASURE | a name in the Treasure discard pile |
| ``flip`` | FLIP_COIN | the name of a looked-at Coin to turn face up, or ``done`` |
| ``react`` | the target of a negotiation or theft | a reaction Treasure's name (Holy Symbol, Bandages, Shield), ``class power`` (Sanctuary), ``done`` |
| ``deal`` | the player whose Deal entered his Haul | ``yes`` / ``done`` |

Example, a Negotiate turn buying the Shield from the next player's Negotiate Card 3 with one added
Coin (price 4): ``player +1``, ``negotiate card 3``; if that player holds a Holy Symbol he is asked
``react`` (``done`` accepts). Every masked answer can be completed (no dead end: an ability is
offered only when its effect can be carried out, a buy only when it can be paid); with
``auto_forced=True`` (default) the env answers decisions with one legal answer itself.

## Observation

``{"observation": float32[630 + 216n], "action_mask": int8[50]}``: 1062, 1278, 1494, 1710 entries
for n = 2, 3, 4, 5. Seats are relative to the observer (0 = the observer, 1 = the next seat
clockwise). Layout for 3 players (``game.observation_layout.views(obs)`` gives named arrays):

| piece | shape | indices | meaning |
|---|---|---|---|
| `decision` | (16,) | 0..15 | one-hot pending decision (see Actions); zeros once the game is over |
| `to_move` | (3,) | 16..18 | 1 at the seat to decide |
| `phase` | (3,) | 19..21 | one-hot phase: reveal, negotiate, claim |
| `dragon` | (3,) | 22..24 | 1 at the Dragon Card holder (the first player) |
| `classes` | (3, 5) | 25..39 | one-hot class of each seat (Druid, Warrior, Cleric, Rogue, Wizard) |
| `powers_used` | (3,) | 40..42 | 1 where the seat used its class power this round |
| `coins` | (3,) | 43..45 | Coins in each Haul / number of Hoard cards |
| `treasures` | (3, 39) | 46..162 | Treasures in each Haul by name / most copies of a name |
| `offered` | (3, 3) | 163..171 | 1 where a Negotiate Card (1, 2, 3 Coins) holds a Treasure |
| `offers` | (3, 3, 39) | 172..522 | one-hot name of the Treasure on each Negotiate Card (own: always; others: once flipped) |
| `offer_coins` | (3, 3) | 523..531 | Coins added to each Negotiate Card / number of Hoard cards (own: always; others: once flipped) |
| `hand` | (39,) | 532..570 | own cards dealt this Reveal and not yet committed, by name / most copies |
| `hidden_title` | (15,) | 571..585 | one-hot own hidden Title |
| `seen_held` | (3, 39) | 586..702 | face-down cards each seat holds (Coins, added Coins, hand, unflipped commits) that the observer has seen, by name / most copies |
| `deck_top` | (8, 39) | 703..1014 | one-hot card at each of the top 8 deck positions, where the observer knows it |
| `seen_deck` | (39,) | 1015..1053 | cards anywhere in the deck the observer knows, by name / most copies |
| `seen_coin_discard` | (39,) | 1054..1092 | cards in the Coin discard pile the observer knows, by name / most copies |
| `deck_size` | (1,) | 1093..1093 | cards in the Hoard Deck / number of Hoard cards |
| `coin_discard_size` | (1,) | 1094..1094 | cards in the Coin discard pile / number of Hoard cards |
| `treasure_discard` | (39,) | 1095..1133 | the Treasure discard pile by name / most copies |
| `round` | (1,) | 1134..1134 | round index / most rounds |
| `end_triggered` | (1,) | 1135..1135 | 1 once a draw came up short (the game is ending, resolution 10) |
| `turn` | (4,) | 1136..1139 | the Negotiate turn: actions left / 3 (capped), discount / 6 (capped), printed price only, the discount's floor / 6 (capped) |
| `dragon_taker` | (3,) | 1140..1142 | 1 at the seat that takes the Dragon Card at this round's end (TAKE_DRAGON) |
| `effect_card` | (39,) | 1143..1181 | one-hot Treasure in play: the ability being resolved, the Treasure negotiated for, the Deal whose trigger is asked |
| `effect_take` | (39,) | 1182..1220 | one-hot Treasure the ability in progress takes from its target |
| `effect_give` | (39,) | 1221..1259 | one-hot Treasure a swap in progress gives its target |
| `effect_slot` | (3,) | 1260..1262 | 1 at the Negotiate Card (1, 2, 3 Coins) being bought from |
| `effect_seats` | (2, 3) | 1263..1268 | one-hot actor and target of the effect or negotiation in progress |
| `refused` | (3, 3) | 1269..1277 | 1 where a Negotiate Card refused the player to move this action |

Public: every Haul's Treasures and Coin count, the Treasure discard pile, the commits once
flipped, classes and used powers, the Dragon Card, the effect in progress. Hidden (resolution
3.5): Coin faces (from their owner too), the other players' hidden Titles, the Title deck, the
deck order, the Coin discard pile, the other players' dealt cards and unflipped commits. What a
seat has seen (PEEK_DECK, PICK_TOP, the Wizard's bottom card, FLIP_COIN's looked-at Coins, the
card it put in its Haul by EXTRA_DRAW) stays known to it while it can follow the card: ``seen_held``,
``deck_top``, ``seen_deck``, ``seen_coin_discard``. ``env.state()`` is the full information vector
(``game.state_layout``, absolute seats) for centralised critics only.

## Rewards

Terminal only. ``reward="win"`` (default): the project's rank scheme ``(players you outrank -
players who outrank you) / (n - 1)``, ranking by total VP, then by most Coins (the rulebook's
tie-break); still tied is a shared place. ``reward="score"``: ``(own VP - mean of the others) /
max_score``, ``max_score = 5 * starting_title_vp + 20 + 157`` (every Starting Title, the best
hidden Title and every Treasure VP). Both are zero-sum and within [-1, 1].
``state.scoring()`` gives each seat's breakdown (Starting Titles won, hidden Title met, Treasure
VP, Coins, total); ``state.scores()`` the totals.

## Episode end

When a needed draw cannot be made (resolution 10): at the start of Reveal with fewer than 3n cards
(nothing is dealt); in Reveal when an ability's draw comes up short (at once; the dealt cards are
discarded); in Negotiate once the effect or action that came up short has resolved (Treasures on
Negotiate Cards are discarded, their added Coins go back to their owners); in Claim at the end of
the phase (the priority loop is played out). An empty deck ends nothing until a draw is attempted.
Random play took 105-202 decisions with 3 players (median 157, 90% within 135-186), 125-204 with
2, 106-213 with 4, 83-180 with 5: measured over seeds 0-199 by ``python benchmarks/game_lengths.py
split_the_hoard_v0`` (``env.reset(seed=s)`` with the default ``auto_forced=True``, each action
drawn uniformly from the mask). ``max_game_length`` bounds every game: at most
``R = (103 - 4n) // (3n) + 1`` rounds (each deals 3n cards that never return), each with at most
``103 + 12n + 4`` decisions besides abilities (every Coin added once, 3 per commit, a Negotiate turn
with its refusals), plus ``10 + 2n`` decisions for each of at most ``103 + 5 * 39`` ability uses
(an ability uses up a Treasure that entered a Haul).

## Arguments

| argument | default | meaning |
|---|---|---|
| ``num_players`` | 3 | 2 to 5 |
| ``class_powers`` | ``"full"`` | ``"full"``: the class powers of rules file 3.4; ``"tiebreak_only"``: classes only break Starting Title ties |
| ``starting_title_vp`` | 30 | VP of each Starting Title (resolution 16) |
| ``reward`` | ``"win"`` | ``"win"`` or ``"score"`` (see Rewards) |
| ``cards`` | None | a path to another cards file of the same schema (None: the open-edition list) |

Adapter arguments (``render_mode``, ``illegal_action``, ``illegal_reward``, ``auto_forced``,
``render_seat``): see `card_envs.aec.CardGameEnv`.

## Snapshots

``state.to_json()`` (format 1) is human-readable: cards by name, absolute seats, a face-down card
that some seat has seen written ``"Emerald (seen by 0,2)"``; the pending effect and decision by
name. ``game.state_from_json`` refuses, with a ValueError naming the field, anything that is not a
reachable position: every Hoard card exactly once, hands and commits fitting the phase, Titles and
classes dealt once, an effect's fields fitting its kind, a round the deck has dealt (4 starting
Coins a player, then 3 cards a player per deal, this round's too), Coins and Treasures every
round within what the draws so far can give (at least 3 face-up cards a player per deal; at most 4
Coins a player at setup, 2 per draw-2 action and what the abilities used and class powers gain;
at most 3 face-up cards a player per deal and per Claim refill and what the abilities used and
class powers draw: `snapshot.count_limits`), Hauls of round 0 with no more Treasures than it can
give and, in its Reveal, exactly their 4 starting Coins, class powers used only with
``class_powers="full"`` and once their phase of the round has come, and a pending decision that
is the one the rules ask (advancing the loaded position changes nothing, and some answer is
legal).

## Where we resolved the rulebook

We follow the rules file's resolutions (section 2) and open-edition design (section 3). Beyond
them:

- Coins in a Haul are a face-down pile in arrival order: paying, robbing and adding to a Negotiate
  Card take the newest ones (nobody, owner included, can tell Coins apart, so which ones is not a
  choice). FLIP_COIN looks at the oldest Coins its player has not seen yet (then those he has).
- Who knows what: a seat that sees a face-down card (PEEK_DECK, PICK_TOP, the Wizard's bottom card,
  FLIP_COIN, its EXTRA_DRAW Coin) knows it while it can follow it (drawn into a Haul, paid, added,
  discarded: all in view). When another player looks at and reorders those deck cards, the seat
  loses track of them (it only knew their old positions), even when only one card is left to
  order. Nobody else learns anything.
- The secret commits are made one seat at a time from the Dragon Card holder; the others see only
  that the Negotiate Cards are filled and how many Coins left the Haul (Coin counts are public),
  not which Treasure or how many Coins went on each card, until the flip. A dealt card that a seat
  saw before the deal (PEEK_DECK) stays known to it as one of that player's dealt cards, not as
  being in his hand or on a given Negotiate Card (``seen_held``, and "dealt cards seen" in the
  text view and the board); a known Coin he added lies on one of his cards, which is hidden.
  ``determinize(p)`` deals each other player's dealt cards anew among his hand and filled
  Negotiate Cards and puts each of his added Coins on a Negotiate Card drawn uniformly (a guess:
  no model of how players price).
- The Dragon Card holder's seat order also orders the deal, the return of unsold Treasures and
  the refills; Deal triggers are asked once the effect that caused them has fully resolved, in the
  order the Deals entered (after PICK_TOP's reordering, for example).
- The Wizard's Scry is used automatically whenever the deck can supply the extra card (it only adds
  a choice); Pickpocket is offered (``target``, ``done`` declines) after each draw-2 action until
  it is taken, once a round (declining does not spend it); Sanctuary is a ``react`` answer, once a
  round; Forage is a Claim priority answer.
- Own-turn Negotiate abilities (and Intimidate) are used before the action; DISCOUNT and
  PRINTED_ONLY apply to the next purchase of the turn and are then spent; EXTRA_ACTION gives one more
  action in the same turn (abilities may be used again before it). A refused negotiation returns
  the buyer to his turn decision with that Negotiate Card excluded for this action.
- STEAL and SWAP: the actor names the target and the Treasure(s) first, then the target may react
  (Shield), knowing what is at stake (`effect_take`, `effect_give`). A negotiation's target reacts
  after the buyer names the card (`effect_card`, `effect_slot`). A STEAL cancelled by Shield costs
  its actor nothing (the Coins are paid only for a Treasure taken).
- TAKE_DRAGON: several Griffon Feathers in one Claim phase each claim the Dragon Card; the last one
  used holds it when the Card passes.
- An ability is offered only when it can do something required: STEAL needs its Coins and a
  target with a Treasure, SWAP a Treasure to give and a target with one, RECOVER_TREASURE a
  card in the pile, FLIP_COIN a Coin. GAIN and the other abilities that draw are always offered,
  even on an empty deck: trying to draw ends the game there (resolution 10), which may be a
  player's choice. PEEK_DECK (Prophecy, Crystal Ball) only looks: on a short deck it looks at the
  cards there are (none on an empty one) and never ends the game.
- RECOVER_TREASURE (Healing Herbs, "not itself") never takes a card of its own name: two Herbs
  could otherwise recover each other for ever.
- End of game in Reveal: this phase's dealt cards are discarded (resolution 10, which narrows the
  rulebook's "any cards already drawn in this phase"); Coins an ability gained (Ruby) stay in the
  Haul.
- End of game in Negotiate: the game ends once the effect or action that came up short has
  resolved (a draw-2 still gets its Pickpocket); an own-turn ability that empties the deck ends
  the game before the action. Deal triggers still waiting are dropped (the deck is empty).
- Starting Titles: a tie goes to the listed class only when that class's player is among the tied;
  otherwise nobody wins it. Saint's eligibility counts fixed-rank Treasures (3); Archmage's and
  Warlord's totals count only fixed-rank Treasures and modifiers attached to them.
- Tactician and Mystic count Treasures (copies count), Collector counts different names.
- Scoring order: Starting Titles, then hidden Titles, then Treasure VP (conditions checked against
  the whole Haul, so the order of discarding never matters). ``reward="win"`` ranks by VP then
  Coins; an exact tie of both shares the place.
- The first player is drawn at random (setup 7's "alternate random method"); classes and hidden
  Titles are dealt at random; each player's 4 starting Coins come off the top of the shuffled deck.
- Terminal positions: the hidden Titles are revealed by scoring, so a copy made by
  ``determinize`` keeps them.

## Version history

- v0: first release (snapshot format 1).
- v0, hidden-information fixes (rules unchanged): ``seen_held`` counted a card the observer saw
  before the deal twice once it lay on another seat's face-down Negotiate Card (0.4 instead of
  0.2), which told a hand card from a committed one; it counts it once. ``determinize`` deals
  the other seats' commits (which card on which Negotiate Card, their added Coins) anew; the
  board and the text view no longer say where a seen dealt card went before the flip.
- v0, snapshot loader (play unchanged): positions no game reaches are refused: a later round with
  fewer cards gone from the deck than the 4 starting Coins a player and the deals so far took, a
  round 0 Haul of other than 4 Coins before any negotiation, more Coins or more or fewer
  Treasures than the draws so far can give.
"""

from card_envs.games.split_the_hoard.cards import CardSet, load_cards
from card_envs.games.split_the_hoard.game import SplitTheHoardGame
from card_envs.games.split_the_hoard.rules import SplitTheHoardState

__all__ = ["CardSet", "SplitTheHoardGame", "SplitTheHoardState", "load_cards"]
