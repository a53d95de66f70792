"""``python -m card_envs.agents.play <env_id> --web``: the game in a browser (`card_envs.web`).

    python -m card_envs.agents.play illimat_v0 --web --opponent shipped:illimat_v0
    python -m card_envs.agents.play piles_v0 --web --seat 0 2 --opponent heuristic random   # two people, a team
    python -m card_envs.agents.play --web --resume illimat_v0_web.game.json                 # after a restart

Prints one link per human seat and serves until Ctrl-C. The game is saved after every move
(``--save``, default ``<env_id>_web.game.json``); ``--resume`` goes on from such a file with the
same links, so a page left open reconnects by itself. Each finished game is saved as a replay in
``--replays`` (``python -m card_envs.replay view`` makes it a page).
"""

from __future__ import annotations

import argparse
import secrets
import sys

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.human import config_arg, default_opponent, rules_summary, terminal_help
from card_envs.web import Helpers, PlayServer, WebGame, read_save


def _config(args: argparse.Namespace, saved: dict | None) -> dict:
    parser = args.parser
    config = config_arg(args)
    if saved is not None:
        if config is not None and config != saved["config"]:
            parser.error(f"--config {config} differs from the saved game's {saved['config']}")
        return saved["config"]
    return config or {}


def _seats(args: argparse.Namespace, game) -> tuple[dict[int, str], dict[int, str]]:
    """(human seat -> a new secret token, other seat -> its policy spec) from --seat and --opponent."""
    parser, n = args.parser, game.num_players
    seats = args.seat or [0]
    bad = [s for s in seats if not 0 <= s < n]
    if bad or len(set(seats)) != len(seats):
        parser.error(f"--seat takes distinct seats in 0..{n - 1}, got {seats}")
    others = [s for s in range(n) if s not in seats]
    specs = args.opponent or [default_opponent(game)]
    if others and len(specs) not in (1, len(others)):
        parser.error(f"--opponent: one policy for every other seat or one per other seat ({len(others)}: "
                     f"{', '.join(f'player_{s}' for s in others)}), got {len(specs)}")
    if not others and args.opponent:
        parser.error("--opponent: every seat is a human's (--seat), there is no other seat")
    return ({s: secrets.token_urlsafe(12) for s in seats},
            {s: specs[0] if len(specs) == 1 else specs[k] for k, s in enumerate(others)})


def web_main(args: argparse.Namespace) -> int:
    parser = args.parser
    saved = None
    if args.resume:
        try:
            saved = read_save(args.resume)
        except ValueError as error:
            parser.error(str(error))
        if args.env_id is not None and args.env_id != saved["env_id"]:
            parser.error(f"{args.resume} holds a {saved['env_id']!r} game, not {args.env_id!r}")
        if args.seat is not None or args.opponent is not None:
            parser.error("--seat and --opponent come from the --resume file (its links and players)")
        if saved["env_id"] not in card_envs.list_envs():
            parser.error(f"{args.resume} is for {saved['env_id']!r}, not a registered env ({card_envs.list_envs()})")
    env_id = saved["env_id"] if saved else args.env_id
    if args.delay < 0:
        parser.error(f"--delay must be 0 or more seconds, got {args.delay}")
    try:
        game = card_envs.make_game(env_id, **_config(args, saved))
    except ValueError as error:
        parser.error(f"--config: {error}")
    humans, specs = (saved["humans"], saved["policies"]) if saved else _seats(args, game)
    built: dict[str, object] = {}
    try:
        for spec in specs.values():
            built.setdefault(spec, make_policy(spec, game))
    except ValueError as error:
        parser.error(f"--opponent: {error}")
    helpers = Helpers(rules_summary(env_id), terminal_help(game.name))
    save = args.save or args.resume or f"{env_id}_web.game.json"
    try:
        session = WebGame(env_id, game.config, humans, {s: built[spec] for s, spec in specs.items()}, specs,
                          saved["seed"] if saved else args.seed, save, args.replays, helpers,
                          actions=saved["actions"] if saved else None, initial=saved["initial"] if saved else None,
                          delay=args.delay, game_id=saved["game_id"] if saved else None)
    except ValueError as error:
        parser.error(str(error))
    try:
        server = PlayServer(session, args.host, args.port)
    except OSError as error:
        parser.error(f"--port {args.port}: cannot listen on {args.host}:{args.port} ({error.strerror})")
    session.start()
    print(f"{env_id}: {'resumed ' + str(args.resume) + ', ' if saved else ''}saved after each move to {save}; "
          f"finished games go to {args.replays}/")
    for seat, link in server.links().items():
        print(f"  player_{seat}: {link}")
    others = ", ".join(f"player_{s} {spec}" for s, spec in sorted(specs.items()))
    print(f"  other seats: {others or 'none'}. Ctrl-C stops the server (the game stays saved).", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped; resume with: python -m card_envs.agents.play --web --resume " + str(save), file=sys.stderr)
    finally:
        session.close()
        server.server_close()
    return 0
