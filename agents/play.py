"""Play and print a seeded game between agents: ``python -m agents.play [env_id] [options]``.

    python -m agents.play three_piles_v0 --players heuristic random --seed 7
    python -m agents.play three_piles_v0 --players heuristic random --games 200   # win rates only
"""

from __future__ import annotations

import argparse
import sys

import card_envs
from agents import make_policy
from agents.match import play_game, seat_rotated_results


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m agents.play", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("env_id", nargs="?", default="three_piles_v0", choices=card_envs.list_envs())
    parser.add_argument("--players", nargs="+", default=["heuristic", "random"],
                        help="one policy name per seat (random, heuristic)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deal and of the agents")
    parser.add_argument("--games", type=int, default=1,
                        help="more than 1: play that many seat-rotated games and print win rates only")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
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
