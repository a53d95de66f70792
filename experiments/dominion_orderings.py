"""Known Dominion strategy orderings, with game length and Province counts.
A research probe; its findings are on docs/results/dominion_v0.md.

    python experiments/dominion_orderings.py                          # the issue's two pairings, T1-B
    python experiments/dominion_orderings.py --deals 1000 --seed 100000 --kingdom T1-B
    python experiments/dominion_orderings.py --pair bmu random --pair witch_bm bmu --players 4

Each pairing (A, B) plays every deal in both seatings (2 players: A first, then B first) on the
same deal seeds as ``python -m card_envs.evaluate`` (deal d dealt from ``seed + d``; forced single-choice
decisions are played automatically, as there), so with ``--seed S --deals D`` the win counts are
those of ``python -m card_envs.evaluate dominion_v0 A B --deals D --seed S --config '{"kingdom": ...}'``;
the scripted bots are deterministic. With more players the seats alternate A, B, A, ... and
every distinct seat shift is played (as evaluate does).

Per pairing it prints A's wins, draws and losses (a game is A's win when A's reward exceeds B's:
a higher score, or the same score in fewer turns), A's win rate with its Wilson 95% interval (a draw is not a win), A's score rate (a draw counts
half),
the mean number of turns per player until the game ended (the most turns any seat took), how the
games ended (Provinces gone, three piles, the turn cap) and the mean Provinces each bot owns at
the end (the bots never trash a Province, so that is Provinces gained), plus mean final scores.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import card_envs  # noqa: E402
from card_envs.agents import make_policy, named_bots  # noqa: E402
from card_envs.agents.match import wilson_interval  # noqa: E402
from card_envs.games.dominion.cards import PROVINCE, PROVINCE_PILE  # noqa: E402
from card_envs.evaluate.runner import distinct_rotations, seating_pattern  # noqa: E402

DEFAULT_PAIRS = [("smithy_bm", "bmu"), ("witch_bm", "smithy_bm")]


def play(game, seated, deal_seed: int, rng: np.random.Generator):
    """One game from ``deal_seed``; ``seated[s]`` plays seat s. Returns the final state."""
    state = game.new_state(np.random.default_rng(deal_seed))
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) == 1:  # forced: played by the env (auto_forced) and by evaluate's VectorGames
            state.apply(legal[0])
            continue
        seat = state.current_player
        action = seated[seat].act(state.observation(seat), state.legal_mask(), rng)
        state.apply(int(action))
    return state


def run_pair(game, a: str, b: str, deals: int, seed: int, progress: bool) -> dict:
    n = game.num_players
    pattern = seating_pattern(game)  # A, B, A, ... as evaluate seats them
    rotations = distinct_rotations(pattern)  # every distinct seating (A, B, A, B: two)
    policies = (make_policy(a, game), make_policy(b, game))
    rng = np.random.default_rng(seed)
    outcome, turns, ends = [], [], {"provinces": 0, "three piles": 0, "turn cap": 0}
    provinces = {0: [], 1: []}
    scores = {0: [], 1: []}
    start = time.process_time()
    with tqdm(total=deals * len(rotations), desc=f"{a} vs {b}", unit="game", disable=not progress) as bar:
        for d in range(deals):
            for r in rotations:
                who = [pattern[(s - r) % n] for s in range(n)]  # 0: A, 1: B, per seat
                state = play(game, [policies[k] for k in who], seed + d, rng)
                returns = state.returns()
                mine = {k: [s for s in range(n) if who[s] == k] for k in (0, 1)}
                diff = np.mean(returns[mine[0]]) - np.mean(returns[mine[1]])
                outcome.append(int(np.sign(diff)))
                turns.append(max(state.turns))
                if not state.piles[PROVINCE_PILE]:
                    ends["provinces"] += 1
                elif state.empty_piles() >= 3:
                    ends["three piles"] += 1
                else:
                    ends["turn cap"] += 1
                final = state.scores()
                for k in (0, 1):
                    provinces[k].append(np.mean([state.owned[s][PROVINCE] for s in mine[k]]))
                    scores[k].append(np.mean([final[s] for s in mine[k]]))
                bar.update()
    outcome = np.array(outcome)
    games = len(outcome)
    wins, draws, losses = int((outcome > 0).sum()), int((outcome == 0).sum()), int((outcome < 0).sum())
    score = wins + 0.5 * draws
    return {"a": a, "b": b, "games": games, "wins": wins, "draws": draws, "losses": losses,
            "win_rate": wins / games, "wilson95": wilson_interval(wins, games),
            "score_rate": score / games, "score_wilson95": wilson_interval(score, games),
            "mean_turns": float(np.mean(turns)), "turns_se": float(np.std(turns, ddof=1) / np.sqrt(games)),
            "ends": ends, "provinces": (float(np.mean(provinces[0])), float(np.mean(provinces[1]))),
            "scores": (float(np.mean(scores[0])), float(np.mean(scores[1]))),
            "cpu_s": time.process_time() - start}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--pair", nargs=2, action="append", metavar=("A", "B"),
                        help=f"a pairing of policy specs (repeatable; default {DEFAULT_PAIRS})")
    parser.add_argument("--deals", type=int, default=1000, help="deals per pairing, each in every seating")
    parser.add_argument("--seed", type=int, default=100_000, help="deal d is dealt from seed + d (unseen: "
                        "the tests and the bots' development used seeds below 10,000)")
    parser.add_argument("--kingdom", default="T1-B", help="kingdom preset (T1-A, T1-B, T2) or 'random'")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    game = card_envs.make_game("dominion_v0", num_players=args.players, kingdom=args.kingdom)
    print(f"dominion_v0 kingdom {args.kingdom}, {args.players} players, {args.deals} deals from seed {args.seed}; "
          f"bots: heuristic, {', '.join(named_bots(game))}", file=sys.stderr)
    rows = []
    for a, b in args.pair or DEFAULT_PAIRS:
        rows.append(run_pair(game, a, b, args.deals, args.seed, not args.no_progress))
    print("| A vs B | games | W | D | L | A win rate [Wilson 95%] | A score rate [Wilson 95%] | mean turns per "
          "player | ends: Provinces / 3 piles / cap | Provinces A / B | VP A / B | CPU s |")
    print("|---|---:|---:|---:|---:|---|---|---:|---|---|---|---:|")
    for r in rows:
        low, high = r["wilson95"]
        e = r["ends"]
        print(f"| {r['a']} vs {r['b']} | {r['games']} | {r['wins']} | {r['draws']} | {r['losses']} | "
              f"{r['win_rate']:.3f} [{low:.3f}, {high:.3f}] | {r['score_rate']:.3f} "
              f"[{r['score_wilson95'][0]:.3f}, {r['score_wilson95'][1]:.3f}] | "
              f"{r['mean_turns']:.2f} ± {r['turns_se']:.2f} | "
              f"{e['provinces']} / {e['three piles']} / {e['turn cap']} | "
              f"{r['provinces'][0]:.2f} / {r['provinces'][1]:.2f} | {r['scores'][0]:.1f} / {r['scores'][1]:.1f} | "
              f"{r['cpu_s']:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
