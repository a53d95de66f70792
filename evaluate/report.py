"""Summaries, ratings and the files an evaluation writes (JSON, Markdown, PNG), atomically."""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from card_envs.agents.match import wilson_interval
from card_envs.core.files import atomic_write
from card_envs.evaluate.players import Player
from card_envs.evaluate.ratings import bradley_terry, openskill_ratings
from card_envs.evaluate.runner import PairResult

ELO_PRIOR = 1.0  # virtual drawn games per pairing in the Elo fit: keeps 100% win rates finite


def pair_summary(result: PairResult) -> dict[str, Any]:
    """W/D/L of A against B, win and score rates with Wilson 95% intervals, mean reward of A."""
    outcomes = result.outcomes
    games = len(outcomes)
    wins, draws, losses = int((outcomes > 0).sum()), int((outcomes == 0).sum()), int((outcomes < 0).sum())
    score = wins + 0.5 * draws
    diff = result.reward_a - result.reward_b
    return {
        "a": result.a.label, "b": result.b.label, "games": games,
        "seatings_per_deal": len(result.rotations), "deals": games // len(result.rotations),
        "wins": wins, "draws": draws, "losses": losses,
        "win_rate": wins / games, "win_rate_wilson95": list(wilson_interval(wins, games)),
        "score_rate": score / games, "score_rate_wilson95": list(wilson_interval(score, games)),
        "mean_reward_a": float(result.reward_a.mean()),
        "mean_reward_a_se": _se(result.reward_a),
        "mean_reward_diff": float(diff.mean()),
        "mean_reward_diff_se": _se(diff),
        "cpu_s": result.cpu_s, "cpu_s_per_game": result.cpu_s / games,
        "per_game": {"reward_a": result.reward_a.tolist(), "reward_b": result.reward_b.tolist()},
    }


def _se(values: np.ndarray) -> float | None:
    """Standard error of the mean (None for fewer than two games)."""
    return float(values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else None


def ratings(players: list[Player], results: list[PairResult]) -> dict[str, Any]:
    """Bradley-Terry Elo (anchored at ``random`` = 0 when it plays, else mean 0) and openskill."""
    names = [p.label for p in players]
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((len(names), len(names)))
    for r in results:
        i, j = index[r.a.label], index[r.b.label]
        o = r.outcomes
        wins[i, j] += (o > 0).sum() + 0.5 * (o == 0).sum()
        wins[j, i] += (o < 0).sum() + 0.5 * (o == 0).sum()
    anchor = index.get("random")
    out: dict[str, Any] = {"elo_anchor": "random" if anchor is not None else "mean 0",
                           "elo_prior_draws_per_pairing": ELO_PRIOR}
    try:
        bt = bradley_terry(wins, prior=ELO_PRIOR, anchor=anchor)
        out["elo"] = {name: {"elo": float(bt["elo"][i]), "se": float(bt["se"][i]),
                             "low": float(bt["low"][i]), "high": float(bt["high"][i])}
                      for i, name in enumerate(names)}
    except ValueError as error:
        out["elo"], out["elo_error"] = {}, str(error)
    # openskill: games in deal order, pairings interleaved, so no pairing is rated "last".
    games = []
    longest = max(len(r.outcomes) for r in results)
    for g in range(longest):
        for r in results:
            if g < len(r.outcomes):
                games.append((index[r.a.label], index[r.b.label], float(r.outcomes[g])))
    out["openskill"] = openskill_ratings(names, games)
    return out


def build_report(meta: dict[str, Any], players: list[Player], results: list[PairResult]) -> dict[str, Any]:
    return {"meta": meta,
            "players": [{"label": p.label, "spec": p.spec, "group": p.group, "step": p.step, "observes": p.observes}
                        for p in players],
            "pairings": [pair_summary(r) for r in results],
            "ratings": ratings(players, results)}


# ----- files ----------------------------------------------------------------------------------
def check_writable(folder: Path) -> None:
    """Create ``folder`` and write a file there, or ValueError: fail before the work, not after.

    The folders it creates are removed again (the writes that follow create them), so that a
    command refused by a later check leaves no empty folder behind."""
    created = [f for f in (folder, *folder.parents) if not f.exists()]  # deepest first
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as error:
        raise ValueError(f"cannot write to {folder}: {error.strerror or error}") from None
    finally:
        for made in created:
            try:
                made.rmdir()
            except OSError:  # not made (the error above), or not empty: another process writes there
                pass


def write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: Path(tmp).write_text(text))


def _field_note(pattern: str, config: dict[str, Any]) -> str:
    """In one seat against a field of n - 1 (ABB...), A's rank return r = (beaten - beating) / (n - 1),
    so (1 + r) / 2 is the share of B's seats it finishes ahead of: the multi-player analogue of a
    two-player score rate, with parity 0.5 where a first place has parity 1 / n."""
    n = len(pattern)
    if n < 3 or pattern != "A" + "B" * (n - 1) or config.get("reward", "win") != "win":
        return ""
    places = " (with three players W, D and L are A's first, second and last places)" if n == 3 else ""
    return (f" One A against {n - 1} B{places}: (1 + A's reward) / 2 is the share of B's seats A finishes "
            f"ahead of (ties half), whose parity is 0.5 where a first place's is 1/{n}.")


def _own_observations(players: list[dict[str, Any]]) -> list[str]:
    """A line naming the checkpoints that observe with their own options (the rules are the match's)."""
    own = [f"{p['label']} {json.dumps(p['observes'])}" for p in players if p.get("observes")]
    return [f"Observing with the options they were trained on (same rules): {'; '.join(own)}.", ""] if own else []


def markdown(report: dict[str, Any]) -> str:
    meta, pairs, rat = report["meta"], report["pairings"], report["ratings"]
    lines = [f"# Evaluation: {meta['env_id']} ({meta['mode']})", "",
             f"`{meta['command']}`", "",
             f"Config {json.dumps(meta['config'])}; {meta['deals']} deals (seeds {meta['seed']}.."
             f"{meta['seed'] + meta['deals'] - 1}), each played in {meta['seatings_per_deal']} seatings "
             f"(seating pattern {meta['seating_pattern']}, rotated); chunks of {meta['chunk_deals']} deals; "
             f"{meta['workers']} worker(s); wall time {meta['wall_s']:.0f} s.", "",
             *_own_observations(report["players"]),
             *_exploit_section(meta),
             "## Results (player A vs player B)", "",
             "Win rate = A's wins / games, score rate = (wins + draws / 2) / games, each with its Wilson "
             "95% interval; A's reward = mean reward of A's seats (its team's; in win mode (W - L) / games "
             "for two sides, with reward=\"score\" the normalised score difference), ± 1.96 standard "
             "errors; CPU s/game = process CPU time per game." + _field_note(meta["seating_pattern"], meta["config"]), "",
             "| A | B | games | W | D | L | win rate [95%] | score rate [95%] | A's reward | CPU s/game |",
             "|---|---|---:|---:|---:|---:|---|---|---|---:|"]
    for p in pairs:
        lo, hi = p["win_rate_wilson95"]
        slo, shi = p["score_rate_wilson95"]
        lines.append(f"| {p['a']} | {p['b']} | {p['games']} | {p['wins']} | {p['draws']} | {p['losses']} | "
                     f"{p['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] | {p['score_rate']:.3f} [{slo:.3f}, {shi:.3f}] | "
                     f"{p['mean_reward_a']:+.3f} ± {1.96 * (p['mean_reward_a_se'] or 0.0):.3f} | "
                     f"{p['cpu_s_per_game']:.3f} |")
    labels = [pl["label"] for pl in report["players"]]
    if len(labels) > 2:
        matrix = score_matrix(report)
        lines += ["", "## Score rate matrix (row vs column)", "",
                  "| | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
        for i, name in enumerate(labels):
            cells = ["" if np.isnan(v) else f"{v:.3f}" for v in matrix[i]]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "## Ratings", "",
              f"Elo: Bradley-Terry maximum likelihood (draws = half wins, {rat['elo_prior_draws_per_pairing']:g} "
              f"virtual draw per pairing), anchored at {rat['elo_anchor']}, Hessian-based 95% intervals. "
              "openskill: Plackett-Luce mu, sigma and ordinal (mu - 3 sigma), games in deal order.", ""]
    if rat.get("elo_error"):
        lines += [f"Elo not available: {rat['elo_error']}", ""]
    lines += ["| player | Elo [95%] | mu | sigma | ordinal |", "|---|---|---:|---:|---:|"]
    order = sorted(labels, key=lambda n: -rat["openskill"][n]["mu"])
    if rat["elo"]:
        order = sorted(labels, key=lambda n: -rat["elo"][n]["elo"])
    for name in order:
        e, o = rat["elo"].get(name), rat["openskill"][name]
        elo = f"{e['elo']:+.0f} [{e['low']:+.0f}, {e['high']:+.0f}]" if e else "–"
        lines.append(f"| {name} | {elo} | {o['mu']:.2f} | {o['sigma']:.2f} | {o['ordinal']:.2f} |")
    curves = rating_curves(report)
    for group, rows in curves.items():
        lines += ["", f"## Rating vs training step: {group}", "", "| step | Elo [95%] | mu | sigma |",
                  "|---:|---|---:|---:|"]
        for row in rows:
            elo = f"{row['elo']:+.0f} [{row['low']:+.0f}, {row['high']:+.0f}]" if row["elo"] is not None else "–"
            lines.append(f"| {row['step']} | {elo} | {row['mu']:.2f} | {row['sigma']:.2f} |")
    if meta.get("files"):
        lines += ["", "## Files", ""] + [f"- `{f}`" for f in meta["files"]]
    return "\n".join(lines) + "\n"


def score_matrix(report: dict[str, Any]) -> np.ndarray:
    """Score rate of row vs column. The mirror cell (B vs A) is 1 - A's rate only where both hold as
    many seats; in a field seating (A in one seat, B in the others) B's seat against a field of A was
    never played, and its cell stays empty."""
    labels = [pl["label"] for pl in report["players"]]
    index = {n: i for i, n in enumerate(labels)}
    matrix = np.full((len(labels), len(labels)), np.nan)
    pattern = report["meta"].get("seating_pattern", "AB")
    mirror = pattern.count("A") == pattern.count("B")
    for p in report["pairings"]:
        i, j = index[p["a"]], index[p["b"]]
        matrix[i, j] = p["score_rate"]
        if mirror:
            matrix[j, i] = 1 - p["score_rate"]
    return matrix


def rating_curves(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Per checkpoint folder: its checkpoints' ratings by training step."""
    rat = report["ratings"]
    curves: dict[str, list[dict[str, Any]]] = {}
    for pl in report["players"]:
        if pl["group"] is None:
            continue
        e = rat["elo"].get(pl["label"])
        o = rat["openskill"][pl["label"]]
        curves.setdefault(pl["group"], []).append({
            "label": pl["label"], "step": pl["step"], "elo": e["elo"] if e else None,
            "low": e["low"] if e else None, "high": e["high"] if e else None, "mu": o["mu"], "sigma": o["sigma"]})
    for rows in curves.values():
        rows.sort(key=lambda r: r["step"])
    return curves


def save_figure(fig, path: Path) -> None:
    """Lay out a matplotlib figure, write it as a PNG atomically, and close it."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=110, format="png"))
    plt.close(fig)


def plots(report: dict[str, Any], out: Path) -> list[str]:
    """Win-rate (score-rate) heatmap, ratings with intervals, rating vs training step: PNG files."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []

    def save(fig, name: str) -> None:
        save_figure(fig, out / name)
        written.append(name)

    labels = [pl["label"] for pl in report["players"]]
    matrix = score_matrix(report)
    size = max(4.0, 0.7 * len(labels) + 2.5)
    fig, ax = plt.subplots(figsize=(size, size * 0.85))
    image = ax.imshow(np.ma.masked_invalid(matrix), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    if len(labels) <= 16:
        for i in range(len(labels)):
            for j in range(len(labels)):
                if not np.isnan(matrix[i, j]):
                    ax.text(j, i, f"{matrix[i, j]:.2f}", ha="center", va="center", fontsize=7,
                            color="white" if abs(matrix[i, j] - 0.5) > 0.3 else "black")
    fig.colorbar(image, ax=ax, label="score rate of row vs column (draw = 1/2)")
    ax.set_title(f"{report['meta']['env_id']}: score rate matrix")
    save(fig, "winrate_matrix.png")

    rat = report["ratings"]
    if rat["elo"]:
        order = sorted(labels, key=lambda n: rat["elo"][n]["elo"])
        elo = np.array([rat["elo"][n]["elo"] for n in order])
        low = np.array([rat["elo"][n]["low"] for n in order])
        high = np.array([rat["elo"][n]["high"] for n in order])
        fig, ax = plt.subplots(figsize=(7, max(2.5, 0.35 * len(order) + 1.2)))
        ax.errorbar(elo, range(len(order)), xerr=[elo - low, high - elo], fmt="o", capsize=3)
        ax.set_yticks(range(len(order)), order, fontsize=8)
        ax.set_xlabel(f"Bradley-Terry Elo (95% interval), anchor: {rat['elo_anchor']}")
        ax.grid(axis="x", alpha=0.3)
        ax.set_title(f"{report['meta']['env_id']}: ratings")
        save(fig, "ratings.png")

    curves = rating_curves(report)
    if curves and rat["elo"]:
        fig, ax = plt.subplots(figsize=(7, 4))
        for group, rows in curves.items():
            steps = [r["step"] for r in rows]
            ax.plot(steps, [r["elo"] for r in rows], "o-", label=group)
            ax.fill_between(steps, [r["low"] for r in rows], [r["high"] for r in rows], alpha=0.2)
        for pl in report["players"]:
            if pl["group"] is None:
                ax.axhline(rat["elo"][pl["label"]]["elo"], ls="--", lw=1, color="grey")
                ax.annotate(pl["label"], (0, rat["elo"][pl["label"]]["elo"]), xycoords=("axes fraction", "data"),
                            fontsize=7, color="grey", va="bottom")
        ax.set_xlabel("training step (env decisions)")
        ax.set_ylabel("Elo (95% interval)")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
        ax.set_title(f"{report['meta']['env_id']}: rating vs training step")
        save(fig, "rating_curve.png")
    return written


PLOTS = ("winrate_matrix.png", "ratings.png", "rating_curve.png")  # every plot `plots` may write


def write_all(report: dict[str, Any], out: Path, make_plots: bool = True) -> list[Path]:
    """results.json, results.md and the PNG plots in ``out``, each written atomically."""
    out = Path(out)
    names = plots(report, out) if make_plots else []
    for stale in set(PLOTS) - set(names):  # an earlier report's plot in the same --out would pass for this one's
        (out / stale).unlink(missing_ok=True)
    report["meta"]["files"] = ["results.json", "results.md"] + names
    write_text(out / "results.json", json.dumps(report, indent=1, default=_json_default) + "\n")
    write_text(out / "results.md", markdown(report))
    return [out / name for name in report["meta"]["files"]]


def _exploit_section(meta: dict[str, Any]) -> list[str]:
    """--exploit: the result, the spread across attempts beside the game-sampling interval, and
    every attempt with its sanity checks (`card_envs.evaluate.exploit`)."""
    summary = meta.get("exploit")
    if summary is None:
        return []
    attempts, spread = summary["attempts"], summary["spread"]
    budget = (f"--exploit-steps {meta['exploit_steps']:,}" if meta.get("exploit_steps") is not None
              else f"--minutes {meta['exploit_minutes']:g}")
    floor = summary.get("start")  # the starting weights' own result against the target (reports since it)
    lines = ["## Exploitability", ""]
    if summary["best"] is None:
        lines.append(f"**Not measured**: none of the {len(attempts)} exploiters counts (below: each did not beat "
                     f"random or ended below its start), so none measures how exploitable {summary['target']} is.")
    else:
        low, high = summary["win_rate_wilson95"]
        sd = f", standard deviation {spread['sd']:.3f}" if spread["sd"] is not None else ""
        lines.append(f"The strongest of the {spread['counted']} exploiters that count ({summary['best']}) "
                     f"wins **{summary['win_rate']:.3f}** [{low:.3f}, {high:.3f}] against {summary['target']} "
                     f"(Wilson 95%: game sampling, standard error {summary['sampling_se']:.3f}). Run-to-run "
                     f"spread across those attempts: {spread['low']:.3f} to {spread['high']:.3f}{sd}. A maximum "
                     "of noisy rates leans high by up to about one standard error.")
    if floor is not None:
        lines += ["", f"Their starting weights themselves win {_rate(floor, 'win_rate')} against {summary['target']} "
                  f"over the same {floor['games']:,} games (`start` below)."]
    start = {"target": "from the target's weights", "fresh": "from a fresh network",
             "shipped": "from the game's shipped checkpoint's weights"}[meta["exploit_start"]]
    failed = (" An exploiter whose win rate against the target ends below its starting weights' by more than "
              "1.96 standard errors of the difference is a failed search, left out too.") if floor is not None else ""
    lines += ["", f"{len(attempts)} attempts shared {budget}, one after another, each {start} and seeded from "
              "(--seed, attempt). Sanity checks: score rate (wins + draws / 2) against each baseline over "
              f"{next(iter(attempts[0]['checks'].values()))['games']} games; an exploiter whose score rate "
              f"against random is not above 0.5 with 95% confidence is flagged and left out of the maximum.{failed}",
              ""]
    names = list(attempts[0]["checks"])
    lines += ["| attempt | seed | steps | train s | win rate vs target [95%] | "
              + " | ".join(f"score rate vs {n} [95%]" for n in names) + " | counted |",
              "|---|---:|---:|---:|---|" + "---|" * len(names) + "---|"]
    for a in attempts:
        cells = [_rate(a["vs_target"], "win_rate")] + [_rate(a["checks"][n], "score_rate") for n in names]
        counted = ("**no: did not beat random**" if not a["beats_random"] else
                   "**no: failed search (below its start)**" if a.get("below_start") else "yes")
        lines.append(f"| {a['label']} | {a['seed']} | {a['steps']:,} | {a['train_s']:.0f} | "
                     + " | ".join(cells) + f" | {counted} |")
    return lines + [""]


def _rate(rates: dict[str, Any], name: str) -> str:
    low, high = rates[f"{name}_wilson95"]
    return f"{rates[name]:.3f} [{low:.3f}, {high:.3f}]"


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")
