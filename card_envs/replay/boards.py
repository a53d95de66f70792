"""A game's board for the replay page: ``board(game, state, viewer)`` (`card_envs.core.boards`
describes the zones, each game draws its own in ``Game.board_zones``).

    {"head": "3 Piles | player_0 to move (choose) | ...",      # the render's first line (and its "in progress")
     "zones": [{"group": "table", "name": "stack 0", "owner": None, "info": "top 6C",
                "cards": [{"label": "6C", "cls": "s-C"}, {"hidden": True, "n": 3}, ...]}, ...]}
"""

from __future__ import annotations

from typing import Any

from card_envs.core.boards import merge_hidden
from card_envs.core.game import Game, State

# Render lines on what is under way, shown in the head: an effect or negotiation in progress, a
# move being made (but not "move so far: -").
IN_PROGRESS = ("  in progress: ", "  move so far: ")


def board(game: Game, state: State, viewer: int | None) -> dict[str, Any]:
    """The board of ``state`` as seat ``viewer`` sees it (module docstring): the render's first
    ``game.render_head_lines`` lines and its lines on what is under way, and the game's zones,
    runs of face-down cards merged. A game without zones gets its render text only."""
    lines = game.render(state, viewer).split("\n")
    head = "\n".join(lines[:game.render_head_lines]
                     + [line.strip() for line in lines if line.startswith(IN_PROGRESS) and line[-3:] != ": -"])
    zones = game.board_zones(state, viewer)
    for z in zones:
        z["cards"] = merge_hidden(z["cards"])
    return {"head": head, "zones": zones}
