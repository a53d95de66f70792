"""High Card (``high_card_v0``)

The toy sixth game of `docs/adding_a_game.md`: it lives in the tests only, and is registered by
`tests.adding_a_game.test_guide.register` in a process of its own. This docstring is its doc page,
as ``card_envs/games/<game>/__init__.py``'s docstring is a game's of the package.

```python
import card_envs
env = card_envs.make("high_card_v0")             # once registered
```

## Description

A two-player trick game, made up for the guide. Ten cards numbered 1 to 10: each player is dealt
3 (hidden), the other 4 stay face down and are never seen. Three tricks: seat 0 (``player_0``)
leads the first by playing a card face up, the other seat answers with a card; the higher card
takes the trick and its player leads the next. Any hand card may be played at any time.

Score: tricks won (0..3). More tricks wins; with three tricks there are no draws.

## Agents

``player_0`` and ``player_1``. They alternate within a trick; the winner of a trick leads the next.

## Actions

``Discrete(10)``: action ``a`` plays card ``a + 1`` (``game.action_to_string(a)``: ``"play 7"``).
The mask holds the cards in the hand of the player to move. With ``auto_forced=True`` (default)
the env plays the last trick itself: each player has one card left.

## Observation

``{"observation": float32[54], "action_mask": int8[10]}``. Seats are relative to the observer
(0 is the observer); card ``c`` is at index ``c - 1``:

| piece | shape | indices | meaning |
|---|---|---|---|
| `hand` | (10,) | 0..9 | 1 where the card is in the observer's hand |
| `table` | (10,) | 10..19 | 1 at the card led in the trick in progress |
| `played` | (2, 10) | 20..39 | 1 where that seat played the card in a finished trick (relative seats) |
| `unseen` | (10,) | 40..49 | 1 where the card is in the other hand or face down (unknown to the observer) |
| `tricks` | (2,) | 50..51 | tricks won / 3 (relative seats) |
| `to_move` | (2,) | 52..53 | 1 at the seat to play (relative seats; none once the game is over) |

``env.state()`` is the full information vector (both hands and the face-down cards, absolute
seats: ``game.state_layout``) for centralised critics only.

## Rewards

Terminal only. ``reward="win"`` (default): +1 win, -1 loss. ``reward="score"``: (own tricks -
the other's) / 3. The final scores are in ``infos[agent]["scores"]``.

## Episode end

After the third trick (terminated): exactly 6 decisions (``max_game_length``), 4 asked with
``auto_forced``.

## Arguments

| argument | default | meaning |
|---|---|---|
| ``num_players`` | 2 | 2 only |
| ``reward`` | ``"win"`` | ``"win"`` or ``"score"`` (see Rewards) |

## Snapshots

``env.unwrapped.snapshot()["state"]`` (format 1) holds ``game``, ``format``, ``num_players``,
``current_player``, ``hands`` (per seat, low to high), ``table`` (the card led, or ``null``),
``tricks`` (``{"leader", "led", "answer"}`` per finished trick) and ``undealt`` (the face-down
cards, low to high). ``env.reset(options={"state": snapshot})`` loads one after
`tests.adding_a_game.toy_game.validate` checked that the rules can reach it: each card in
exactly one place; seat 0 leads the first trick and the winner of a trick the next; no card led
after the third trick; ``current_player`` is the leader, or the other seat once a card is led;
each hand holds 3 cards less one per card its seat played. A refused snapshot raises ValueError
naming the field, e.g. ``hands[1]: 2 cards, but seat 1 holds 3 here: ...``.

## Where we resolved the rulebook

- There is no rulebook: the guide's toy. Seat 0 leads the first trick (evaluation rotates seats).

## Version history

- v0: first release.
"""
