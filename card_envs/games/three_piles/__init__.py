"""3 Piles (``three_piles_v0``)

```python
import card_envs
env = card_envs.make("three_piles_v0")            # 2 players; num_players=3 or 4 as a variant
```

## Description

An original game for a standard 52-card deck: collect cards into your three piles, each kept in
rank order and only ever extended at its low or high end.

Deal: 3 cards to each hand (hidden), 3 cards face up as the center stacks, the rest face down as
the deck. Seat 0 (``player_0``) moves first; players then alternate.

A card may start an empty pile; otherwise its rank must be strictly lower or strictly higher than
every card in the pile (onto {3,5,6}: only 2 or less, or 7 or more). Ace is low (1), King 13.

While the deck has cards, a turn is either *take* (top card of a center stack onto one of your
piles; an emptied stack is refilled face up from the deck) or *draw* then *place* (one hand card
onto one of your piles, or face up on top of a center stack). Once the deck is empty, a turn is a
take (a stack may stay empty) or a hand card onto a pile or a stack (an empty stack too); a
player who can do neither must pass, and may play again later. The game ends when all players
have passed in a row.

Score: cards in your longest pile (max 13) + 3 per pile holding both an Ace and a King (max 9) + 1
per Diamond in your piles (max 13); at most 35.

## Sources

The rule texts of the card_envs project (in its repository, not installed with the package). Source
text: `shared/seeds/004_2b07e583e94189dd.txt`; rules as implemented: `shared/rules/three_piles.md`.

## Agents

``player_0 .. player_{n-1}``, n = ``num_players`` (2 by default; 3 and 4 are a variant the
source suggests but did not test). ``agent_selection`` stays on a player for the place decision
that follows a draw.

## Actions

``Discrete(323)``, the same for every player count. Actions name cards, not hand slots.

| index | meaning |
|---|---|
| 0..8 | take: top of stack ``s`` onto own pile ``p``, index ``3*s + p`` |
| 9 | draw the top card of the deck (then place, same player) |
| 10..321 | play hand card ``c`` (``c = 13*suit + rank - 1``, suits C,D,H,S) to destination ``d``, index ``10 + 6*c + d``; ``d`` 0..2 = own pile, 3..5 = stack 0..2 |
| 322 | pass (legal only when nothing else is) |

Piles, stacks and seats are numbered from 0. ``game.action_to_string(a)`` names an action, e.g.
``"play 10D -> stack 1"``. With ``auto_forced=True`` (default) the env plays single-choice
decisions itself: forced passes, and a forced draw when no stack top fits any pile.

## Observation

``{"observation": float32[420 + 198n], "action_mask": int8[323]}``: 816, 1014, 1212 entries for
n = 2, 3, 4 players. Seats are
relative to the observer: 0 is the observer, 1 the next player to play, and so on. Cards are
indexed ``13*suit + rank - 1``. Layout for 2 players (``game.observation_layout.views(obs)`` gives
these as named arrays):

| piece | shape | indices | meaning |
|---|---|---|---|
| `hand` | (52,) | 0..51 | 1 where the card is in the observer's hand |
| `piles` | (2, 3, 52) | 52..363 | 1 where the card is in that pile (relative seats) |
| `pile_fits` | (2, 3, 13) | 364..441 | 1 where a card of rank r + 1 may still go on that pile (derived from `piles`, relative seats) |
| `stack_top` | (3, 52) | 442..597 | 1 at the top card of each center stack |
| `stack_cards` | (3, 52) | 598..753 | (position from the bottom + 1) / 52 for each card in the stack |
| `unseen` | (52,) | 754..805 | 1 where the card is in the deck or another hand (unknown to the observer) |
| `hand_sizes` | (2,) | 806..807 | cards in hand / 4 (relative seats) |
| `deck_size` | (1,) | 808..808 | cards in the deck / 52 |
| `scores` | (2,) | 809..810 | current score / 35 (relative seats) |
| `to_move` | (2,) | 811..812 | 1 at the seat to decide (relative seats) |
| `phase` | (2,) | 813..814 | one-hot: choose (take/draw/play/pass), place (after a draw) |
| `passes` | (1,) | 815..815 | consecutive forced passes / number of players |

Every card placed on a center stack is face up, so the whole stack, in order, is public. The
observation never holds another player's hand or the deck order. ``env.state()`` is the full
information vector (all hands and the deck order, absolute seats: ``game.state_layout``) for
centralised critics only.

## Rewards

Terminal only. ``reward="win"`` (default): +1 win, -1 loss, 0 draw for two players; with n players
``(players you outscore - players who outscore you) / (n - 1)``. ``reward="score"``: ``(own score -
mean of the others' scores) / 35``. Both are zero-sum and within [-1, 1]. The final scores are in
``infos[agent]["scores"]`` at the end.

## Episode end

When all n players pass in a row (terminated). Every game ends: at most ``98n + 50`` decisions
(``max_game_length``). Proof: a non-pass turn adds a card to a pile (at most 52 times), draws from
the deck (at most ``49 - 3n`` times, two decisions each) or, after the deck is empty, moves a hand
card to a stack (at most ``3n`` times): at most 101 turns; between two of them at most ``n - 1``
passes, and n passes at the end.

## Arguments

| argument | default | meaning |
|---|---|---|
| ``num_players`` | 2 | 2, 3 or 4 |
| ``reward`` | ``"win"`` | ``"win"`` or ``"score"`` (see Rewards) |

Adapter arguments (``render_mode``, ``illegal_action``, ``illegal_reward``, ``auto_forced``,
``render_seat``): see `card_envs.aec.CardGameEnv`.

## Snapshots

``env.unwrapped.snapshot()`` returns ``{"env_id", "config", "state"}``; ``state`` (format 2) holds
``game``, ``format``, ``num_players``, ``current_player``, ``phase`` (``"choose"``/``"place"``),
``consecutive_passes``, ``hands`` (per seat, in card order: clubs Ace..King, then diamonds,
hearts, spades, whatever order the cards were dealt or drawn in), ``piles`` (per seat, 3 piles,
low to high), ``stacks`` (bottom to top), ``deck`` (top card first) and ``last_move`` (``null``
before the first move, else e.g. ``{"seat": 1, "action": "take stack 0 top -> pile 2", "card":
"7C"}``: the card a take or play moved, ``null`` for a draw or a pass); cards are names like
``"10D"``. Hands and piles load in any order (their order carries nothing); format 1 snapshots
(no ``last_move``) still load.

``env.reset(options={"state": snapshot})`` starts from it after checking that the rules can
reach it (`card_envs.games.three_piles.snapshot.validate`): every field of the right type; each
of the 52 cards exactly once; no pile repeats a rank; no empty stack while the deck has cards
or in phase ``place``; every hand holds exactly 3 cards while the deck has cards, the player in
phase ``place`` exactly 4 (the others 3), and at most 3 once the deck is empty; a pass count
only with an empty deck in phase ``choose``, and each of the seats that passed holds no card
and has no stack top fitting its piles; a ``last_move`` by the seat that moved last, a draw
exactly in phase ``place``, a pass exactly when passes are counted, and its card where the move
left it (an end of that pile, the top of that stack). A refused snapshot raises ValueError
naming the field, e.g. ``hands[1]: 2 cards, exactly 3 here: ...``.

## Where we resolved the rulebook

- The source's list of scoring categories is cut off; the three categories follow from its stated
  maximum of 35 = 13 + 9 + 13 (rules file).
- Who starts is not stated: seat 0 does (evaluation rotates seats).
- "Hand stays at 3 while the deck lasts": a draw is always followed by a place, so the hand goes
  3 -> 4 -> 3. Playing a hand card without drawing is only possible once the deck is empty.
- Passing is only allowed when nothing else is (hand empty and no stack top fits any pile).
- The game ends after n consecutive passes; a player who passed may play again if a stack top
  changed before everyone passed.
- 3 and 4 players use the same rules (the source only suggests them).
- The match "to 100 points" the source mentions is not offered: an env episode is one deal, as
  every PettingZoo classic env is one game, and its rewards are that game's. A match is a sum
  of ``infos[agent]["scores"]`` over episodes, which a user keeps in a few lines (rotating
  seats between games, as the evaluation does).

## Version history

- v0: first release. (Before its release, the observation gained `pile_fits`, the ranks each
  pile still accepts: derived from public `piles`, it spares a network from learning the
  pile-order rule from card one-hots.)
- v0, snapshot format 2 (play unchanged): snapshots carry ``last_move`` and the render shows it
  and names the winner(s); hands are listed in card order; the loader checks every invariant
  above (it accepted unreachable positions before) and keeps its messages short; format 1
  still loads. ``determinize`` builds its copy afresh from a sorted pool of the unseen cards:
  it no longer keeps the real mover's cached legal actions, and its result depends only on
  what the seat knows and on the rng.
"""

from card_envs.games.three_piles.game import ThreePilesGame
from card_envs.games.three_piles.rules import ThreePilesState

__all__ = ["ThreePilesGame", "ThreePilesState"]
