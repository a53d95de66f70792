"""Play and print a seeded game between agents, or play one yourself: ``python -m card_envs.agents.play [env_id] [options]``.

    python -m card_envs.agents.play three_piles_v0 --players heuristic random --seed 7
    python -m card_envs.agents.play three_piles_v0 --players heuristic random --games 200   # win rates only
    python -m card_envs.agents.play illimat_v0 --human --seat 1 --opponent random            # you play seat 1
    python -m card_envs.agents.play --human --resume illimat_v0_seat1.snapshot.json          # after 'quit'
    python -m card_envs.agents.play dominion_v0 --web --opponent shipped:dominion_v0        # in a browser

``--human``: you play one seat in the terminal against ``--opponent`` (see `card_envs.agents.human`).
``--web``: a local server and a page per human seat (``--seat 0 2`` for two people; `card_envs.web`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.match import play_game, seat_rotated_results


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m card_envs.agents.play", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("env_id", nargs="?", default=None, choices=card_envs.list_envs(),
                        help="the game (default three_piles_v0, or the --resume file's)")
    parser.add_argument("--players", nargs="+", default=None,
                        help="one policy name per seat (random, heuristic, ...); default: heuristic and random "
                             "alternating over the game's default number of seats")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deal and of the agents")
    parser.add_argument("--games", type=int, default=1,
                        help="more than 1: play that many seat-rotated games and print win rates only")
    human = parser.add_argument_group("playing yourself (--human in the terminal, --web in a browser)")
    human.add_argument("--human", action="store_true", help="play one seat yourself in the terminal")
    human.add_argument("--web", action="store_true",
                       help="play in a browser: a local server prints one link per human seat (card_envs.web)")
    human.add_argument("--seat", type=int, nargs="+", default=None, metavar="K",
                       help="your seat (default 0, or the --resume file's); with --web several: one link each")
    human.add_argument("--opponent", nargs="+", default=None, metavar="SPEC",
                       help="the policy of every other seat, or one per other seat in seat order with --web "
                            "(card_envs.agents.make_policy: random, heuristic, greedy, "
                            "ismcts, a game's named bot, a .pt checkpoint or shipped:<env_id>); default: "
                            "heuristic where the game has one, else random, or the --resume file's")
    human.add_argument("--config", default=None, metavar="JSON",
                       help='game arguments as JSON, e.g. \'{"num_players": 3}\' (default: the game\'s defaults)')
    human.add_argument("--resume", metavar="FILE", help="go on with a game saved by 'quit' (implies --human)")
    human.add_argument("--save", metavar="FILE",
                       help="where 'quit' saves the game (default: <env_id>_seat<K>.snapshot.json, or the "
                            "--resume file); with --web the game is saved there after every move (default: "
                            "<env_id>_web.game.json)")
    web = parser.add_argument_group("in a browser (--web)")
    web.add_argument("--port", type=int, default=8000, help="the server's port (0: any free one)")
    web.add_argument("--host", default="127.0.0.1",
                     help="the address to listen on (0.0.0.0: other machines too, for two people on two machines)")
    web.add_argument("--replays", default="web_games", metavar="DIR", help="where each finished game is saved as a replay")
    web.add_argument("--delay", type=float, default=0.6, help="seconds between the other seats' moves")
    args = parser.parse_args(argv)
    args.parser = parser
    if args.seed < 0:
        parser.error(f"--seed must be 0 or more, got {args.seed}")
    if args.games < 1:
        parser.error(f"--games must be 1 or more, got {args.games}")
    if args.human and args.web:
        parser.error("--human (the terminal) or --web (a browser), not both")
    if args.resume and not args.web:
        args.human = True
    if not args.web and args.seat is not None and len(args.seat) > 1:
        parser.error(f"--seat: the terminal plays one seat, got {args.seat}; several people play with --web")
    if not args.web and args.opponent is not None and len(args.opponent) > 1:
        parser.error(f"--opponent: the terminal takes one policy for every other seat, got {args.opponent}")
    if args.web and not args.resume and args.env_id is None:
        args.env_id = "three_piles_v0"
    if not args.web:
        args.seat = args.seat[0] if args.seat else None
        args.opponent = args.opponent[0] if args.opponent else None
    if not args.human and not args.web:
        if args.env_id is None:
            args.env_id = "three_piles_v0"
        given = [f"--{k}" for k in ("seat", "opponent", "config", "save") if getattr(args, k) is not None]
        if given:
            parser.error(f"{', '.join(given)}: for a game you play yourself only; add --human or --web")
    return args


def human_main(args: argparse.Namespace) -> int:
    """``--human``: one game with you at ``--seat`` (see `card_envs.agents.human`)."""
    from card_envs.agents.human import HumanGame, config_arg, default_opponent, load_save

    parser = args.parser
    saved: dict = {}
    snapshot = None
    if args.resume:
        try:
            saved = load_save(args.resume)
        except ValueError as error:
            parser.error(str(error))
        snapshot = saved["snapshot"]
        if args.env_id is not None and args.env_id != snapshot.get("env_id"):
            parser.error(f"{args.resume} holds a {snapshot.get('env_id')!r} game, not {args.env_id!r}")
        args.env_id = snapshot.get("env_id")
        if args.env_id not in card_envs.list_envs():
            parser.error(f"{args.resume} is for {args.env_id!r}, which is not a registered env "
                         f"({card_envs.list_envs()})")
    env_id = args.env_id or "three_piles_v0"
    config = config_arg(args)
    if snapshot is not None:
        if config is not None and config != snapshot.get("config"):
            parser.error(f"--config {config} differs from the saved game's {snapshot.get('config')}")
        config = snapshot.get("config")
    if not isinstance(config, dict):
        config = {}
    try:
        game = card_envs.make_game(env_id, **config)
    except ValueError as error:
        parser.error(f"--config: {error}")
    seat = args.seat if args.seat is not None else saved.get("seat", 0)
    if not (isinstance(seat, int) and 0 <= seat < game.num_players):
        parser.error(f"--seat must be a seat in 0..{game.num_players - 1}, got {seat!r}")
    opponent = args.opponent or saved.get("opponent") or default_opponent(game)
    save = args.save or args.resume or f"{env_id}_seat{seat}.snapshot.json"
    folder = Path(save).resolve().parent  # checked now, not at 'quit' after the game
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass
    if Path(save).is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        parser.error(f"--save {save}: cannot write a file there (a file name in a writable folder)")
    try:
        session = HumanGame(env_id, game.config, seat, opponent, args.seed, save, snapshot=snapshot)
    except ValueError as error:
        parser.error(str(error))
    if args.resume:
        print(f"Resumed {args.resume}.")
    return session.run()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.web:
        from card_envs.agents.play_web import web_main

        return web_main(args)
    if args.human:
        return human_main(args)
    if args.players is None:
        seats = card_envs.make_game(args.env_id).num_players
        args.players = [("heuristic", "random")[seat % 2] for seat in range(seats)]
    try:
        game = card_envs.make_game(args.env_id, num_players=len(args.players))
    except ValueError as error:
        sys.exit(f"error: --players: {error}")
    try:
        policies = [make_policy(name, game) for name in args.players]
    except ValueError as error:
        sys.exit(f"error: {error}")
    config = game.config
    if args.games > 1:
        results = seat_rotated_results(args.env_id, policies, args.games, args.seed, progress=True, **config)
        for k, name in enumerate(args.players):
            col = results[:, k]
            print(f"{name:>10} (policy {k}): win {(col > 0).mean():.3f}  draw {(col == 0).mean():.3f}  "
                  f"loss {(col < 0).mean():.3f}  over {len(col)} games")
        return 0
    env = card_envs.make(args.env_id, render_mode="ansi", render_seat=-1, **config)

    def show(agent: str, action: int) -> None:
        print(env.render())
        print(f">>> {agent} ({args.players[env.unwrapped.agent_seat[agent]]}): {game.action_to_string(action)}\n")

    rewards, scores = play_game(env, policies, args.seed, on_step=show)
    print(env.render())
    for seat, agent in enumerate(env.possible_agents):
        print(f"{agent} ({args.players[seat]}): score {scores[seat]}, reward {rewards[agent]:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
