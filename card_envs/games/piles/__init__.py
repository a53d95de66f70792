"""Piles (``piles_v0``)

```python
import card_envs
env = card_envs.make("piles_v0")                  # 4 players in two teams; num_players=2 as a variant
```

## Description

A team game for a standard 52-card deck: capture the piles of a 4x3 grid of cards, the Castle.

Deal: 10 cards to each hand (hidden, from the partner too) and 12 face up into the Castle, one
per position; each position holds a pile whose top card controls it. Partners sit opposite:
seats 0 and 2 (team 0) play seats 1 and 3 (team 1). Seat 0 opens; play goes in seat order.

Total value of a top card: its intrinsic value (Ace 1 .. King 13) + 1 for each orthogonally
neighbouring top card of its colour - 1 for each of the other colour (2, 3 or 4 neighbours;
a red 10 with 3 red and 1 black neighbours is worth 12). A turn is exactly one of:

1. place a hand card on a pile whose top card has the same colour (always allowed);
2. place a hand card on a pile whose top card has the other colour if the card's intrinsic value
   is strictly greater than the top card's total value (the pile changes control);
3. pass: the opponent on your left (the next seat) takes a random card of your hand, face up,
   into his team's captured cards.

The colour of the first card placed on the Castle is the colour of the placer's team; the other
team gets the other colour. After 10 turns each, every team takes the piles topped by its
colour; the cards of the other colour in them, and in its captured cards, score: Ace 9, King 4,
Queen 3, Jack 2, any other card 1 (each colour holds 54 points). More points wins.

Two-player variant (``num_players=2``): one player per team; the 20 cards left after the deal
are set aside face down and dealt 10 each (alternately, seat 0 first) when both hands are
empty; play goes on until both hands are empty again (20 turns each).

## Sources

The rule texts of the card_envs project (in its repository, not installed with the package). Source
text: `shared/seeds/002_2416c0c95ccd6499.txt`; rules as implemented: `shared/rules/piles.md`.

## Agents

``player_0 .. player_3`` (``player_0`` and ``player_1`` with 2 players); team ``seat % 2``.
Every decision is a whole turn.

There is no 3-player game: the source is a game for "two teams of two, partners opposite",
whose passes give a card to "the opponent on your left" and whose colours belong to teams. Three
players cannot form two equal teams, and the source gives no rule for them; the two-player
variant (one player per team, with the set-aside deal) is the rules file's.

## Actions

``Discrete(625)``, the same for both player counts. Actions name cards, not hand slots.

| index | meaning |
|---|---|
| 0..623 | place hand card ``c`` (``c = 13*suit + rank - 1``, suits C,D,H,S) on Castle position ``p``: index ``12*c + p`` |
| 624 | pass (always legal) |

Positions are row-major: ``p = 4*row + column``, rows 0..2, columns 0..3 (named ``r1c2`` = 6).
``game.action_to_string(a)`` names an action, e.g. ``"place 10D on r1c2"``. With
``auto_forced=True`` (default) the env plays a pass itself when no placement is legal.

## Observation

``{"observation": float32[1486], "action_mask": int8[625]}`` with 4 players, ``float32[1482]``
with 2. Seats are relative to the observer: 0 is the observer, 1 the next player to play (the
opponent on his left), 2 his partner, 3 the opponent on his right; teams are relative too (0 is
the observer's). Cards are indexed ``13*suit + rank - 1``. Layout for 4 players
(``game.observation_layout.views(obs)`` gives these as named arrays):

| piece | shape | indices | meaning |
|---|---|---|---|
| `hand` | (52,) | 0..51 | 1 where the card is in the observer's hand |
| `team` | (2,) | 52..53 | one-hot absolute team of the observer (team 0: seat 0, and seat 2 with 4 players) |
| `team_colour` | (2, 2) | 54..57 | one-hot colour (red, black) of own team, other team; zeros until fixed |
| `top` | (12, 52) | 58..681 | 1 at the top card of each Castle position (row-major) |
| `pile_cards` | (12, 52) | 682..1305 | (height from the bottom + 1) / 52 for each card in the pile at that position |
| `top_value` | (12,) | 1306..1317 | (total value of the top card + 3) / 20 |
| `captured` | (2, 52) | 1318..1421 | 1 where the card was taken after a pass by own team, other team |
| `unseen` | (52,) | 1422..1473 | 1 where the card is in another hand or set aside |
| `hand_sizes` | (4,) | 1474..1477 | cards in hand / 10 (relative seats) |
| `turns_left` | (1,) | 1478..1478 | decisions left in the game / 40 |
| `scores` | (2,) | 1479..1480 | points if the game ended now / 54: own team, other team |
| `to_move` | (4,) | 1481..1484 | 1 at the seat to decide (relative seats) |
| `second_deal` | (1,) | 1485..1485 | 1 once the set-aside cards were dealt (2 players; always 0 with 4) |

Every card on the Castle was placed face up, so every pile, in order, is public; so are the
cards taken after passes. The observation never holds a partner's or an opponent's hand, nor the
set-aside cards (only their count, through ``turns_left``). ``env.state()`` is the full
information vector (all hands, the set-aside cards and who will get them; absolute seats and
teams: ``game.state_layout``) for centralised critics only.

## Rewards

Terminal only; teammates share their team's reward. ``reward="win"`` (default): +1 to the team
with more points, -1 to the other, 0 to both on equal points. ``reward="score"``: ``(own team's
points - other team's points) / 54``. Both are zero-sum and within [-1, 1]. The final points are
in ``infos[agent]["scores"]`` (each seat gets its team's points).

## Episode end

When all hands are empty (terminated): exactly 40 decisions, 10 per player with 4 players and
20 per player with 2 (every turn, a pass included, takes one card from the mover's hand).
``max_game_length`` is 40.

## Arguments

| argument | default | meaning |
|---|---|---|
| ``num_players`` | 4 | 4 (two teams of two) or 2 |
| ``reward`` | ``"win"`` | ``"win"`` or ``"score"`` (see Rewards) |

Adapter arguments (``render_mode``, ``illegal_action``, ``illegal_reward``, ``auto_forced``,
``render_seat``): see `card_envs.aec.CardGameEnv`.

## Snapshots

``env.unwrapped.snapshot()`` returns ``{"env_id", "config", "state"}``; ``state`` (format 2) holds
``game``, ``format``, ``num_players``, ``current_player``, ``hands`` (per seat, in card order:
clubs Ace..King, then diamonds, hearts, spades), ``castle`` (12 piles in position order, bottom
card first), ``captured`` (per team, in the order taken), ``set_aside`` (next dealt first; empty
with 4 players and after the second deal), ``team_colours`` (``[null, null]`` until the first
placement, then e.g. ``["red", "black"]``, team 0 first), ``chance_seed`` (the pass draws, see
below) and ``last_move`` (``null`` before the first move, else e.g. ``{"seat": 3, "action":
"pass", "card": "5H"}``: the card placed, or the card the pass gave away); cards are names like
``"10D"``. Hands load in any order; format 1 snapshots (no ``last_move``) still load.

``env.reset(options={"state": snapshot})`` starts from it after checking that the rules can
reach it (`card_envs.games.piles.snapshot.validate`): every field of the right type; each of the
52 cards exactly once; every Castle pile holds at least its dealt card, and a card lying on one
of the other colour beat that card's total value, which was at least its rank minus its number
of neighbours; 20 or no set-aside cards with 2 players, none with 4; hand sizes that fit the
turn order (seat 0 first, one card per turn, the seats before the current one a card short,
a finished game back at seat 0); no team has captured more cards than its opponents had turns
(a pass gives the card to the other team, never to the passer's own); colours fixed exactly
when a card was placed, and consistent with a team having placed a card of its colour; a
``last_move`` by the seat before the one to move, whose card is the top of the pile it was
placed on (by a team that placed a card) or the last card the passer's left neighbour captured.
A refused snapshot raises ValueError naming the field, e.g. ``captured[0]: 3 cards, but team 1
has taken only 2 turns: ...``.

## Where we resolved the rulebook

- "The opponent on your left" is the next seat in play order (play goes clockwise, seat 0 sits
  left of the dealer): seat ``p`` passes to seat ``p + 1``, always an opponent with 4 players;
  with 2 players, the other player.
- Passing is always allowed, also when a placement is legal (the rules file; the source says
  "a player can pass"). The taken card is uniform among the passer's hand cards. It is a chance
  event inside ``apply``: pass ``k`` of a game (counted by the captured cards) draws from
  ``np.random.default_rng((chance_seed, k))``, where ``chance_seed`` is drawn from the env's rng
  at the deal. So ``reset(seed)`` reproduces games, a snapshot continues identically, and
  ``determinize`` resamples future draws with a new seed. The seed is hidden from every seat
  (not in the observation nor in a seat's render): with it, the public outcome of each past pass
  would tell where the taken card ranked in the passer's hand.
- The colours are fixed by the first card placed by anyone (the source says "by the opener",
  who may pass): its placer's team takes its colour. Colours never restrict placements: any
  player may place a card of either colour by rules 1 and 2.
- Cards captured by passes before the colours are fixed are scored at the end against the
  team's final colour (only cards of the other colour score).
- If no card is ever placed, no team has a colour: nothing scores and the game is a draw.
- Total values count only the neighbouring top cards and may be below 1 (an Ace with 4 unlike
  neighbours is worth -3). Capture compares the placed card's intrinsic value with the top
  card's total value just before the placement.
- Two players: the set-aside cards are dealt alternately one at a time, seat 0 first, and seat
  0 moves first in the second deal (turns simply keep alternating). ``scores()`` gives each seat
  its team's points, so teammates' scores are equal.

- The source has no 3-player game (see Agents).

## Version history

- v0: first release.
- v0, snapshot format 2 (play unchanged): snapshots carry ``last_move`` and the render shows it
  and names the winning team; the loader checks every invariant above (it accepted unreachable
  positions before, such as a passed card credited to the passer's own team) and keeps its
  messages short; format 1 still loads. ``determinize`` builds its copy afresh from a sorted
  pool of the unseen cards and a fresh chance seed: its result depends only on what the seat
  knows and on the rng.
"""

from card_envs.games.piles.game import PilesGame
from card_envs.games.piles.rules import PilesState

__all__ = ["PilesGame", "PilesState"]
