"""Play the agents in a browser: a local page per human seat, the other seats played by policies.

    python -m card_envs.agents.play illimat_v0 --web --opponent shipped:illimat_v0
    python -m card_envs.agents.play split_the_hoard_v0 --web --seat 0 1 --opponent heuristic   # two people

The server (`card_envs.web.server`, the standard library's) prints one address per human seat;
each is that seat's secret link. The page (`card_envs.web.page`) draws the board as the replay
pages do, from that seat's view only, with the legal moves as things to click, the moves so far
(an opponent's as it happens), ``help`` (the rules, a card's text: what the terminal game
explains) and the final scoring in full. Everything hidden is decided on the server: each answer
is built from the seat's board, render and legal moves (`card_envs.web.session`), never from the
whole state. The game is saved after each move (``--save``, resumed with ``--resume``), and each
finished game is written as a replay (`card_envs.replay`) naming who played each seat.
"""

from card_envs.web.server import PlayServer
from card_envs.web.session import Helpers, Refused, WebGame, read_save, targets

__all__ = ["Helpers", "PlayServer", "Refused", "WebGame", "read_save", "targets"]
