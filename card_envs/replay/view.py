"""``python -m card_envs.replay view REPLAY.json [-o game.html] [--reveal-all]``: a replay as a page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from card_envs.replay.html import write_replay_html
from card_envs.replay.record import load_replay


def main(argv: list[str] | None = None) -> int:
    """``python -m card_envs.replay view REPLAY.json [-o game.html] [--reveal-all]``."""
    parser = argparse.ArgumentParser(prog="python -m card_envs.replay", description="Replay tools.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="command")
    view = commands.add_parser(
        "view", help="write a replay as one self-contained HTML page",
        description="Write a replay as one self-contained HTML page (no server, no network): the board as cards, "
                    "the action at each step, and a seat selector showing only what that seat saw. Open it "
                    "in any browser; game.html#seat=1&step=40 opens player_1's view at position 40.")
    view.add_argument("replay", help="a replay JSON file (python -m card_envs.evaluate ... --record DIR writes them)")
    view.add_argument("-o", "--out", help="the page to write (default: the replay's path with .html)")
    view.add_argument("--reveal-all", action="store_true",
                      help="add an 'everything' view with every hidden card (hands, deck order): for post-mortems")
    args = parser.parse_args(argv)
    try:
        replay = load_replay(args.replay)
        out = Path(args.out) if args.out else Path(args.replay).with_suffix(".html")
        write_replay_html(replay, out, reveal_all=args.reveal_all)
    except (ValueError, OSError) as error:
        view.error(str(error))
    print(f"wrote {out}", file=sys.stderr)
    return 0
