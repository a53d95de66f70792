"""Game replays: recorded games as JSON (`record`), one self-contained HTML page per game
(`html`, `page`), what each view knows of each move and the move list's words (`log`), the
boards drawn (`boards`); ``python -m card_envs.replay view REPLAY.json`` (`view`).

    from card_envs.replay import load_replay
    replay = load_replay("games/deal000000_shift0.json")

Nothing here knows a game: each speaks through the hooks of `card_envs.core.game.Game`
(``board_zones``, ``card_notes``, ``replay_style``, ``describe_move``, ``secret_move``,
``secret_move_revealed``, ``final_scoring``), its code in ``card_envs/games/<game>/``.
"""

from card_envs.replay.boards import board
from card_envs.replay.html import replay_data, replay_html, write_replay_html
from card_envs.replay.log import action_known, canonical, public_known, result_lines, turn_line
from card_envs.replay.record import REPLAY_FORMAT, Replay, load_replay, record_game, save_replay
from card_envs.replay.view import main

__all__ = ["REPLAY_FORMAT", "Replay", "action_known", "board", "canonical", "load_replay", "main", "public_known",
           "record_game", "replay_data", "replay_html", "result_lines", "save_replay", "turn_line",
           "write_replay_html"]
