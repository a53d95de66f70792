"""Illimat (``illimat_v0``)

```python
import card_envs
env = card_envs.make("illimat_v0")               # 2 players; num_players=3 or 4
```

## Description

Illimat, the base game with its 8 Luminaries: play cards into four fields around the Illimat to
sow, harvest and stockpile, under seasons that forbid one action each.

Cards: 5 suits (Spring, Summer, Autumn, Winter, Stars) of Fool, 2..10, Knight (11), Queen (12),
King (13); the Stars are only used with 4 players (1st edition) or with ``stars_always=True``
(2nd edition), so 52 or 65 cards. A Fool is worth 1 or 14. Face cards: Fool, Knight, Queen, King.
Card indices are ``13*suit + rank - 1`` (suits 0..4 = Spring, Summer, Autumn, Winter, Stars);
names are rank + suit letter: ``A`` = Fool, ``J`` = Knight, ``Q``, ``K``; ``P`` Spring, ``S``
Summer, ``A`` Autumn, ``W`` Winter, ``*`` Stars (``"AS"`` is the Fool of Summer, ``"J*"`` the
Knight of Stars).

Each round: 3 cards face up in each field, 4 to each hand (3 to the player left of the dealer,
who starts), one okus per player on the Illimat, one face-down Luminary per field (4 sit out).
Field 0 starts as Summer; going round the fields from Summer the seasons read Summer, Autumn,
Winter, Spring. A turn plays one hand card into one field:

- **sow** (not in Autumn): the card becomes a loose card of the field;
- **harvest** (not in Winter, unless the Maiden is face up): take one or more disjoint groups of
  items, each totalling the card's value (a 5 takes a 5, 2+3 and Fool(1)+4 in one play). Items are
  loose cards (a Fool 1 or 14 each), single stockpiles (worth their value, groupable) and multiple
  stockpiles (only on their own, by exactly their value). The card and everything taken go to
  the harvest pile;
- **stockpile** (not in Spring): combine the played (active) card with at least one item into a
  stockpile of value T <= 14, holding another hand card (passive) of value T (a passive Fool
  covers 14; an active Fool counts 1). One group (active + loose cards / single stockpiles = T)
  makes a single stockpile; several groups of T (the active alone if it is T; loose cards, single
  stockpiles or multiple stockpiles of T) make a multiple stockpile of T. A stockpile cannot be
  taken in the action that makes it.

A played face card turns the Illimat so that its field takes the card's season (a Stars face card:
the player chooses). Then the player draws up to 4. A harvest that empties a field clears it, in
the official order: take an okus if any are left; claim the field's face-up Luminary (1 point,
and its claim effect); refill 3 cards if an okus was taken or a face-down Luminary lies there
(fewer than 3 left: no refill, the face-down Luminary is discarded); then flip the face-down
Luminary and resolve its reveal. Luminaries (reveal / while face up / claim):

| Luminary | reveal | while face up | claim |
|---|---|---|---|
| Maiden | - | harvesting is allowed in Winter | - |
| Changeling | - | once per turn, before or after the play, swap a hand card with a loose card of her field | swap up to two hand cards with loose cards anywhere |
| River | her field gets 3 more cards (6) | - | Frostbit gives +2 instead of -2 |
| Children | 3 cards face down under her (hidden from all) | - | they join the claimer's harvest pile, secretly |
| Forest Queen | her field becomes Summer | her field is Summer; nothing rotates | choose any position of the Illimat |
| Rake | - | each turn, sow one extra card into her field (any season), before or after the play | each other player gives a Summer card from his harvest pile |
| Union | - | a harvest in her field may play two hand cards as one of their total value | - |
| Newborn | reveal the opposite field's Luminary (with its 3 cards; a random unused one if that was claimed) | - | - |

When all hands are empty (the draw pile ran out) the round is scored: Bumper Crop (most
harvested cards) +4, Sunkissed (most Summer cards) +2, Frostbit (most Winter cards) -2, +1 per
Fool harvested, per Luminary claimed and per okus. Ties: the tied player with the most
Luminaries claimed this round wins Bumper Crop / Sunkissed, the one with the fewest takes
Frostbit (without Luminaries: okus count); still tied, or a count of 0: nobody. The match ends
after a round in which someone reached ``target_score`` (17), or after ``rounds`` rounds.

Two optional rules of the rules file, both off by default: ``harmonic_convergence=True`` (the
first time 4 Luminaries are face up at once, every player moves one seat left and leaves
everything behind) and ``full_harvest=True`` (UNCONFIRMED: a harvest playing all 4 hand cards as
one card of their total). See "Where we resolved the rulebook" for exactly what they do.

## Sources

The rule texts of the card_envs project (in its repository, not installed with the package). Rules
as implemented: `shared/rules/illimat.md` (1st-edition rulebook and the official clarifications);
source text on stockpiling: `shared/seeds/003_1768d502e3ec7e7e.txt`.

## Agents

``player_0 .. player_{n-1}``, n = ``num_players`` (2 by default, 3 or 4). Play goes in seat
order; the dealer passes on each round (round r starts with seat ``r % n``; ``(r - 1) % n`` after a
Harmonic Convergence, whose seat moves are played out on the per-player state: see the
resolutions). A player keeps
``agent_selection`` for every decision of his turn, including the claim decisions of a clearing
at its end. Players with an empty hand are skipped.

## Actions

``Discrete(107)``, the same for every configuration. A turn is a sequence of small decisions by
the same seat; the pending decision is in the observation (``decision``) and the mask holds only
answers that can still be completed into a legal move (every legal move is reachable, no path
ends without a legal answer).

| index | meaning |
|---|---|
| 0..64 | card ``c``: the hand card to play, sow, give or pair (Union), or the item to take or combine (a loose card, or a stockpile named by its key, lowest, card), or the board card to take in a swap |
| 65..68 | field ``f`` |
| 69, 70, 71 | sow, harvest, stockpile (``harvest`` at the turn decision: a full harvest, with ``full_harvest=True``) |
| 72..99 | value ``v = index - 71`` (1..28): a harvest's value when a Fool is played, a stockpile's value (the passive card's) |
| 100..103 | season: spring, summer, autumn, winter |
| 104 | done: end the turn, stop picking items, harvest without a Union partner, stop the Changeling claim's swaps |
| 105 | rake sow: start the Rake's extra sow |
| 106 | changeling swap: start the Changeling's swap |

The card actions are declared as entities (``game.action_entities``, `card_envs.core.layout.ActionEntities`):
card ``c`` is action ``c``, and each piece with a card axis (``hand``, ``known_hands``, ``loose``,
``stockpiled``, ``single_key``, ``multiple_key``, ``unseen``, ``move_cards``, ``move_items`` and, with
``harvest_features=True``, ``hand_harvest`` and ``hand_clears``) describes it in its last axis; its rank
and suit are its constant features. ``python -m card_envs.train --entity-heads`` scores them with one network
shared by all cards.

Decisions (``decision`` names):

1. ``turn``: a hand card to start the main play; ``rake sow`` (while owed); ``changeling swap``
   (once per turn, while she is face up with loose cards); ``done`` (after the main play and the
   Rake sow). With one card and a Rake sow owed, that sow is the play. With ``full_harvest=True``
   also ``harvest``: a full harvest of the whole hand (4 cards, no Rake sow owed, and a field
   where it takes something), then ``field`` (only such fields) and ``items`` directly: a full
   harvest has no action or value decision.
2. ``field``: where the main card goes; 3. ``action``: sow, harvest or stockpile (a sow is then
   complete);
4. ``partner`` (harvest in the Union's field): a second hand card, or ``done`` for none;
5. ``value``: the harvest value when a Fool is played (1 or 14; with the Union every total), or
   the stockpile value T;
6. ``items``: the items to take or combine, one at a time in ascending card order, then ``done``;
7. ``season``: when a Stars face card was played (and the Forest Queen is not face up): the season
   of its field; after a full harvest whose face cards give different seasons: one of theirs;
8. ``rake_card``: the card to sow into the Rake's field (its face card rotates as usual);
9. ``swap_give`` / ``swap_take``: the Changeling swap's hand card, then the loose card of her field;
10. ``claim_give`` / ``claim_take`` (Changeling claim): a hand card or ``done``, then any loose card
    on the board; twice at most;
11. ``claim_season`` (Forest Queen claim): the season of the cleared field, i.e. any position.

Items are picked in ascending card index (``13*suit + rank - 1``), so each set of items has one
path. Example, the 5 of Summer taking the 2 of Spring + 3 of Winter and a single stockpile of 5
made of the 4 of Autumn and the Fool of Winter: ``card 5S``, ``field 1``, ``harvest``, ``card 2P``
(index 1), ``card 4A`` (index 29, the stockpile's key: its lowest card), ``card 3W`` (index 41),
``done``.

The observation's ``decision`` one-hot follows this order: turn, field, action, partner, value,
items, season, rake_card, swap_give, swap_take, claim_give, claim_take, claim_season (all zeros
once the game is over). ``game.action_to_string(a)`` names an action (``"card 10S"``, ``"field
2"``, ``"value 14"``, ...). With ``auto_forced=True`` (default) the env answers decisions that
have a single legal answer itself.

## Observation

``{"observation": float32[1318 + 81n], "action_mask": int8[107]}``: 1480, 1561, 1642 entries for
n = 2, 3, 4. Seats are relative to the observer: 0 is the observer, 1 the next player to play,
and so on. Layout for 2 players (``game.observation_layout.views(obs)`` gives these as named
arrays):

| piece | shape | indices | meaning |
|---|---|---|---|
| `hand` | (65,) | 0..64 | 1 where the card is in the observer's hand |
| `known_hands` | (1, 65) | 65..129 | 1 where another seat (relative 1..n-1) holds a card it took from the board in view of all |
| `loose` | (4, 65) | 130..389 | 1 where the card lies loose in that field |
| `stockpiled` | (4, 65) | 390..649 | value / 14 of the stockpile holding the card |
| `single_key` | (4, 65) | 650..909 | 1 at the key (lowest) card of each single stockpile |
| `multiple_key` | (4, 65) | 910..1169 | 1 at the key (lowest) card of each multiple stockpile |
| `seasons` | (4, 4) | 1170..1185 | one-hot season of each field (spring, summer, autumn, winter) |
| `luminary_up` | (4, 8) | 1186..1217 | one-hot face-up Luminary of each field |
| `luminary_down` | (4,) | 1218..1221 | 1 where a face-down Luminary lies |
| `children_count` | (4,) | 1222..1225 | cards under the Children / 3 |
| `deck_size` | (1,) | 1226..1226 | cards in the draw pile / 65 |
| `okus_left` | (1,) | 1227..1227 | okus tokens left on the Illimat / 4 |
| `okus` | (2,) | 1228..1229 | okus tokens held / 4 (relative seats) |
| `claimed` | (2, 8) | 1230..1245 | 1 where that seat claimed the Luminary this round |
| `harvested` | (2, 4) | 1246..1253 | harvested cards: total / 65, Summer / 13, Winter / 13, Fools / 5 (others: secret cards only in the total) |
| `unseen` | (65,) | 1254..1318 | 1 where the card is hidden from the observer |
| `hand_sizes` | (2,) | 1319..1320 | cards in hand / 4 (relative seats) |
| `scores` | (2,) | 1321..1322 | match score, mapped from [lowest, highest possible] to [0, 1] |
| `round` | (1,) | 1323..1323 | round index / rounds |
| `to_move` | (2,) | 1324..1325 | 1 at the seat to decide (relative seats) |
| `decision` | (13,) | 1326..1338 | one-hot pending decision (see Actions) |
| `move_cards` | (65,) | 1339..1403 | 1 at the card(s) chosen to play, sow or give in the pending move |
| `move_field` | (4,) | 1404..1407 | one-hot field chosen in the pending move |
| `move_action` | (3,) | 1408..1410 | one-hot sow, harvest, stockpile chosen in the pending move |
| `move_value` | (1,) | 1411..1411 | value chosen in the pending move / 28 |
| `move_items` | (65,) | 1412..1476 | 1 at the cards of the items chosen so far (or swapped by a claim) |
| `turn` | (3,) | 1477..1479 | 1 where: main play done, Rake sow owed, Changeling swap used this turn |

With ``harmonic_convergence=True`` one more entry ends both the observation and the state
vector: `converged` (1,), 1 once the Harmonic Convergence happened (it happens once a match at
most), so observations have 1481, 1562, 1643 entries. A full harvest marks its 4 cards in `move_cards` (until its season decision is answered)
and leaves `move_value` at 0.

With ``harvest_features=True`` four more pieces end the observation (after `converged` where
present), 632 entries: what a harvest of each value takes in each field, computed only from the
public board and the observer's own hand (`card_envs/games/illimat/harvest_features.py`):
`harvest_cards` (4, 14), the most cards one harvest of value v = 1..14 takes in that field / 8;
`harvest_clears` (4, 14), 1 where it can empty the field; `hand_harvest` and `hand_clears`
(4, 65), the same read for each card of the observer's hand (a Fool: the better of 1 and 14), 0
where harvesting is not allowed (Winter without the Maiden). The Union's pairs and stockpiles are
not in them. They cost a subset search whenever a field changes: random play runs about 3x
slower with them. Offline they help a network imitating the scripted agent (held-out agreement
0.79 against 0.72 without them, `experiments/illimat_imitation.py`; `docs/results/illimat_v0.md`).

With ``play_features=True`` two more pieces end the observation (after the harvest pieces where
present), 2,904 entries: what each main play of each of the observer's hand cards would do,
computed only from the public board, his own hand and the cards unseen by him
(`card_envs/games/illimat/play_features.py` tables the rows). `plays` (11, 4, 65), per row, field
and card: the best harvest's cards / 8, its Summer cards / 4, Winter cards / 4 and Fools / 2,
whether it empties the field and whether emptying it there wins an okus, claims a face-up
Luminary or reveals a face-down one; the best stockpile's cards / 8 and the share of the unseen
cards that would harvest its value; whether the card may be sown there ("best" by a card's worth
at the scoring: 1, +0.6 Summer, -0.8 Winter, +1.5 a Fool). `move_plays` (11, 4): those rows for
the pending move's card, per field, when it is the observer's. The field actions (65..68) are
then entities too (``game.action_entities[1]``, each reading its `move_plays` column), so entity
heads score a field from what the chosen card would do there. They cost searches of every
hand card's harvests and stockpiles whenever the board or the hand changes (cached per field and
hand): random play runs about 3x slower than with the harvest pieces alone (`python3
benchmarks/throughput.py illimat_v0 --config ...`). Cloning the scripted agent offline, the
held-out agreement rose from 0.827 with the harvest pieces to 0.908 with these too
(`docs/results/illimat_v0.md`).

With ``threat_features=True`` two more pieces end the observation (after the play pieces where
present), 792 entries: what each main play leaves the next player, computed from the public board,
the observer's own hand, the cards unseen by him and the next player's hand size
(`card_envs/games/illimat/threat_features.py`). `threats` (3, 4, 65), per row (sowing the card
there, its best harvest there, its best stockpile there: the plays `plays` describes), field and
card: the next player's expected best harvest once that play is made, / 8. His hand is drawn from
the cards unseen by the observer, of the size he holds; each of its cards takes the heaviest
harvest of its value in any field where harvesting is then allowed (the played face card turns the
Illimat, a Stars one to Summer), worth the cards' weight at the scoring (its own included) plus
2.5 for emptying a field while okus are left, 1.5 with a face-up Luminary there and 0.5 with a
face-down one. This is the ``lookahead`` bot's threat (it subtracts it from each play's score and
wins 0.63 of its games against the scripted agent), for every play at once. `move_threats` (3, 4):
those rows for the pending move's card, per field, when it is the observer's; the field entities
read it (beside `move_plays`). The searches run on every board a play leaves, cached per turn:
random play runs about 3.1k decisions/s on the raw engine with all three sets of pieces, against
7.1k without these (same machine as above; an observation costs 0.20 ms on average in games of
the scripted agent against random or itself, whose random seat crowds the fields;
`docs/results/illimat_v0.md`). The trained default (``python -m card_envs.train illimat_v0``) uses all
three sets; its checkpoint
(`agents/checkpoints/illimat_v0.pt`) observes with ``harvest_features=True,
play_features=True, threat_features=True`` in any game of these rules (`card_envs.agents.make_policy`).

Everything on the board is public: loose cards, stockpiles (their cards, value and kind; cards of
two stockpiles of equal value and kind in one field are told apart only by their key cards),
seasons, face-up and claimed Luminaries, okus, harvest piles. The observation never holds another
player's hand (only the cards he took from the board in view of all), the draw pile's order, the
face-down or unused Luminaries, the cards under the Children, or another player's secret cards
(the Children's, counted only in his total). ``env.state()`` is the full information vector
(``game.state_layout``, absolute seats) for centralised critics only.

## Rewards

Terminal only. ``reward="win"`` (default): +1 win, -1 loss, 0 draw for two players (an exact tie
of match scores is a draw); with n players ``(players you outscore - players who outscore you) /
(n - 1)``. ``reward="score"``: ``(own match score - mean of the others) / (high - low)``, where
``[low, high]`` bounds every match score (``low = -2 * rounds``; ``high = min(target_score - 1,
(rounds - 1) * G) + G`` with ``G = 8 + Fools in the deck + 8 (Luminaries) + n``, the most one
round can give). Both are zero-sum and within [-1, 1]. The match scores are in
``infos[agent]["scores"]`` at the end; ``state.round_points()`` breaks down the current round.

## Episode end

After the round in which a player reaches ``target_score`` (default 17), or after ``rounds``
rounds (default 20, a cap that ends every episode; random play needs about 5 rounds with 2
players and 7 with 4, the scripted agent about 3, like real games); ``rounds=1`` plays
single-round episodes. ``max_game_length`` is ``rounds * (14 * (D - 12) + 2 * D + 5)`` decisions for a D-card deck: a round has at most ``D - 12`` turns
(each takes at least one card from the hands, which receive at most ``D - 12`` cards), each turn
at most 14 decisions plus one per item picked (at most ``2 * D`` items are picked in a round), and
at most 5 claim decisions.

## Arguments

| argument | default | meaning |
|---|---|---|
| ``num_players`` | 2 | 2, 3 or 4 |
| ``luminaries`` | True | False: the beginner game, without Luminaries (ties broken by okus) |
| ``stars_always`` | False | True: the 2nd edition's 65-card deck with any number of players |
| ``target_score`` | 17 | the match ends after the round in which someone reaches it |
| ``rounds`` | 20 | the most rounds an episode lasts (1: single-round episodes) |
| ``reward`` | ``"win"`` | ``"win"`` or ``"score"`` (see Rewards) |
| ``harmonic_convergence`` | False | True: the Harmonic Convergence (resolution 13) |
| ``full_harvest`` | False | True: the "Full Harvest" (resolution 15, UNCONFIRMED) |
| ``harvest_features`` | False | True: four observation pieces of what each harvest takes (see Observation); the rules do not change |
| ``play_features`` | False | True: two observation pieces of what each hand card's harvest, stockpile or sow would do in each field, and the field actions as entities (see Observation); the rules do not change |
| ``threat_features`` | False | True: two observation pieces of the next player's expected best harvest after each of those plays, and the field actions as entities (see Observation); the rules do not change |

Adapter arguments (``render_mode``, ``illegal_action``, ``illegal_reward``, ``auto_forced``,
``render_seat``): see `card_envs.aec.CardGameEnv`.

## Snapshots

``env.unwrapped.snapshot()`` returns ``{"env_id", "config", "state"}``; ``state`` (format 3) holds
``game``, ``format``, ``num_players``, ``round`` (index), ``scores`` (match, per seat),
``chance_seed``, ``current_player``, ``decision`` (a name above, or ``"game_over"``), ``seasons``
(per field), ``deck`` (next drawn first), ``hands``, ``known_hand_cards`` (hand cards taken from
the board in view of all), ``fields`` (per field: ``loose``, ``stockpiles`` as ``{"value",
"kind": "single"|"multiple", "cards"}``, ``luminary`` as null or ``{"name", "face_up"}``,
``under_children``), ``luminaries_unused`` (next dealt first), ``luminaries_discarded``
(``{"face_down", "face_up"}``), ``okus_left``, ``okus``, ``claimed`` (Luminary names per seat),
``harvest`` and ``secret`` (per seat), ``turn`` (``main_done``, ``rake_owed``, ``swap_used``,
``cleared_field``, ``okus_taken``), ``converged`` (whether the Harmonic Convergence happened) and
``move`` (``card``, ``field``, ``action``, ``partner``, ``value``, ``items``, ``claim_given``,
``claim_taken``, ``full_harvest``: the move so far; ``full_harvest`` lists a pending full
harvest's 4 cards, else it is empty) and ``last_play`` (what the render's "last play" line shows:
null before the first card is played, else ``{"player", "play"`` (``sow``, ``rake_sow``,
``harvest``, ``stockpile`` or ``swap``), ``"field", "played"`` (the hand cards played or given),
``"taken"`` (the field cards taken), ``"value"}`` (a stockpile's, else null); it may be from an
earlier round). Cards are names like ``"10S"``. ``env.reset(options={"state":
snapshot})`` starts from it after checking it completely (every card once, every Luminary once,
okus, stockpile totals, Illimat position, ``converged`` against the flag and the face-up
Luminaries, scores against the rounds scored and the target, secret harvested cards only from the
Children, that the pending decision fits the move and has a legal answer, and that the last play
is one the rules allow: its shape per kind, a harvest's or stockpile's totals; not where its cards
lie now, which later turns and rounds change; a list longer than the game allows is refused
before its entries are read). Formats 1 (before the optional rules: no ``converged``, no
``move.full_harvest``) and 2 (no ``last_play``) are still read by ``game.state_from_json``, as
``converged`` false, no full harvest pending and no last play shown; options an env snapshot's
``config`` lacks (saved before they existed) take their defaults.

Chance: round r is dealt (cards and Luminaries) from ``np.random.default_rng((chance_seed, r))``;
``chance_seed`` is drawn from the env's rng at reset. Every later chance event (draws, refills,
the Newborn's random Luminary) takes the next card or Luminary of what was shuffled. So
``reset(seed)`` reproduces a match, a snapshot continues identically, and ``determinize``
resamples the hidden order and the later rounds (a new ``chance_seed``).

``determinize(p)`` resamples the other hands, but one: while another seat is inside a move (a
card chosen, up to the move's end), the copy keeps that seat's real hand, which p cannot see.
The move so far constrains the hand (a Union partner, a stockpile's passive card), and with
``auto_forced=True`` so does which of its decisions the env skipped as forced; a copy must stay
a position where the move goes on as it could. A search deciding for p never meets this (p
decides only between the others' moves); a copy made for a seat that is not to move, in the
middle of another's move, holds that mover's hand.

## Where we resolved the rulebook

The numbers are those of the rules file's section 12.

- Edition (1): 1st edition by default, ``stars_always`` for the 2nd edition's deck; no other
  2nd-edition change.
- Okus (2): one per player.
- Rotation timing (3): legality is checked against the seasons before the play; the Illimat turns
  after the action resolves, before the draw-up and the clearing. Only played cards rotate (a
  Rake sow too); dealt cards and swaps never do.
- Union with two face cards (4): the rotations follow the order the cards were chosen (main card,
  then partner) and the last one sticks, so only the last face card's rotation is applied (and
  only its season is asked for when it is a Stars card).
- A Fool inside a stockpile (5) keeps the value it had when stockpiled: a stockpile stores its
  value T. An active Fool counts 1 (the 14 cap), a passive Fool covers T = 14.
- Adding to a multiple stockpile (6): any new group totalling T is allowed (active 3 + loose 7
  onto a multiple stockpile of tens).
- Newborn (7): the triggered Luminary gets 3 cards in its field plus its reveal effect; if the
  draw pile cannot supply them it is discarded; a claimed (or discarded) one is replaced by the
  next unused Luminary of the round's shuffle, none left: no effect.
- Short draw pile (8): only the cleared field's face-down Luminary is discarded when its refill
  fails. The River's 3 extra cards and the Children's 3 cards need 3 more cards after the refill;
  otherwise that Luminary is discarded (face up, it was revealed).
- Rake (9): the obligation holds on every turn that starts with the Rake face up (so from the
  next player's turn after the reveal) and ends when she is claimed. With one card left, sowing it
  is the play. On claim, every other player gives his least costly Summer card, automatically: a
  non-Fool if he has one (all non-Fool Summer cards score alike; giving the Fool only gives away
  a point), the lowest card index first. A Union harvest that would leave no card for an owed
  Rake sow is not offered.
- A harvest that empties a field before the Rake sow into that same field still clears it at
  the end of the turn (the trigger is the harvest); the sown card stays and the refill joins it.
- Changeling (10): the swap may happen before or after the main play (or between it and the
  Rake sow), before the draw-up; her field must hold a loose card. The claim's swaps are
  optional, one hand card for one loose card anywhere at a time (the given card takes the taken
  card's field), two at most; a card given or taken by the claim does not move again; no
  rotation.
- Zero counts (11): a category whose highest count is 0 goes to nobody. Frostbit ties (12): the
  unique tied player with the fewest Luminaries (without Luminaries: okus) is penalised, else
  nobody.
- Harmonic Convergence (13), ``harmonic_convergence=True`` (off by default). The rulebook: if 4
  Luminaries are face up at once, every player moves one seat left and leaves his hand behind,
  so hands and earlier scores change hands; the rules file: the seat's state stays with the seat
  and the seat-to-agent mapping shifts one seat left. Direction: play passes to the left, so the
  seat on player p's left is the next one to play, seat p + 1 (mod n); each player moves into it.
  The engine knows only seats and the adapter maps agent p to seat p for ever, so the engine
  moves the state instead of the players: player p takes over everything seat p + 1 owned, i.e.
  every per-player list turns one step, ``new[p] = old[(p + 1) % n]``, for the hand (with its
  known cards), the harvest pile (with its secret cards), the okus, the claimed Luminaries and
  the match score. This is the same game: renaming the people at the table by ``p -> p + 1``
  (where each one now sits) or renaming the seats' belongings by the inverse shift gives the same
  pairs (person, belongings), and nothing else belongs to a seat (the board, the draw pile, the
  Luminaries, the okus left and the Illimat are shared). Turn order stays with the seats: the
  turn passes to the seat after the one that just played, which is now held by the player who
  just played. The engine gets there by making player p - 1 the current player before passing
  the turn on, so the player who triggered the convergence plays next, with the hand of the seat
  on his left (with 2 players everything is swapped and he plays again), then the others in seat
  order, skipping empty hands as usual. The dealer is a seat too and keeps passing left: round r
  starts with seat r % n, held from then on by player (r - 1) % n. When: it is checked once a
  clearing's reveal has resolved, the only moment a Luminary turns face up (the Newborn's
  opposite reveal included; a River or Children discarded for a short draw pile does not count).
  Only the first time in the match: ``converged`` (snapshot and observation) records it and the
  rule never applies again, in this round or a later one (within one round it could not recur
  anyway: no face-down Luminary is left to reveal). A snapshot with 4 face-up Luminaries must say
  ``converged`` true. The observation is built from the position, so it does not remember the
  hand a player left behind (an agent with memory may); the secret cards (the Children's) of the
  harvest pile a player takes over are his to see from then on, like the hand he finds there.
- "Full Harvest" (15), ``full_harvest=True`` (off by default; UNCONFIRMED: not in the rulebook, a
  player cites it and ewilden's implementation allows it). A player holding 4 cards may, as his
  main play, harvest by playing all 4 hand cards as one card whose value is their total (each
  Fool 1 or 14, so a hand with k Fools has up to k + 1 totals, at most 56). Everything else is an
  ordinary harvest: not in Winter unless the Maiden is face up; one or more disjoint groups of
  items, each totalling the value (a multiple stockpile only alone and by exactly its value, so
  only by a total of at most 14); the 4 cards and the items go to the harvest pile; the player
  draws 4 and an emptied field is cleared. Not offered with fewer than 4 cards (the first
  player's 3-card opening hand, the end of the round), nor while a Rake sow is owed: it would
  leave no card for the sow, as for the Union's pair (9), so never while the Rake is face up.
  Decisions: ``harvest`` at the turn decision, ``field`` (only fields where it takes
  something), then ``items``, without action or value decisions: the items taken decide the
  whole outcome, and an item is offered when the items so far plus it can still be split into
  groups that all total one of the hand's totals (this also keeps one path per move, and needs no
  value action above 28). Rotation: the 4 cards are played at once, so the player orders his face
  cards and the last one sticks (as in 4): when they give more than one season (or hold a Stars
  face card) a ``season`` decision offers exactly those seasons (any, with a Stars face card);
  with one season the field takes it. A full harvest in the Union's field is still 4 cards as
  one; the Union's two-card harvest is unchanged.
- The Audience promo and the expansions are out of scope.
- Winner (14): the highest match score wins, an exact tie is a draw; the dealer passes left.
  The ``rounds`` cap (our addition, so every episode ends) ends the match like reaching the target.
- First player (16): he starts with 3 cards and draws after his play, like everybody.
- The Forest Queen's claim ("turn the Illimat to any position") is asked as the season of the
  cleared field: the 4 positions. Each round starts with field 0 as Summer (any field may: it
  makes no difference).
- The Children's cards stay secret in the claimer's harvest pile (the rules allow keeping them
  secret; revealing them never helps): the others see only the total. A Summer card given for
  the Rake's claim becomes public.
- A card taken from the board by a Changeling swap is public: the others see it in that hand
  until it is played.
- The passive card is never revealed (nobody asks to see it): the engine just checks it is held.
- The move being built (card, field, action, value, items) is in every seat's observation: a
  move is one announcement split into decisions, and nobody else decides before it ends.

## Version history

- v0: first release. Later, same id and default behaviour: the optional ``harmonic_convergence``
  and ``full_harvest`` arguments (off by default, both in ``game.config``); snapshot format 2
  (``converged``, ``move.full_harvest``; format 1 is still read).
  Later, same id and default observation: the optional ``harvest_features`` argument (observation
  pieces only, in ``game.config``).
  Later, same id and default observation: the optional ``play_features`` argument (observation
  pieces only, in ``game.config``).
  Later, same id and default observation: the optional ``threat_features`` argument (observation
  pieces only, in ``game.config``).
  Later, same id, play unchanged: snapshot format 3 adds ``last_play``, so a resumed game's render
  names the last play (formats 1 and 2 are still read).
"""

from card_envs.games.illimat.game import IllimatGame
from card_envs.games.illimat.rules import IllimatState

__all__ = ["IllimatGame", "IllimatState"]
