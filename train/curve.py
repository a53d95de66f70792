"""Plot a run's learning curve from its TensorBoard log, or several runs' (the seeds of a recipe) in one.

    python -m card_envs.train.curve runs/<run> [--out DIR]
    python -m card_envs.train.curve runs/<seed 1> runs/<seed 2> runs/<seed 3> --out DIR

Writes ``curve.png`` (the periodic ``eval/`` win rates against every baseline, with their Wilson
95% intervals, against env steps) and ``curve.md`` (the same figures as a table, with the wall
time at which training reached each evaluated step: evaluations run beside training and come
back later) to ``--out`` (default: the run folder), both atomically. With several runs the plot
draws each run in its own colour (one line style per baseline, no intervals, which would hide one
another) and the table has a section per run.
"""

from __future__ import annotations

import argparse
import bisect
import sys
from pathlib import Path

from card_envs.evaluate.report import save_figure, write_text

PREFIX = "eval/win_rate_vs_"


def read_curves(run_dir: Path) -> dict[str, list[tuple[int, float, float, float, float]]]:
    """{baseline: [(step, minutes since the start, win rate, low, high)]}."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(run_dir), size_guidance={"scalars": 0}).Reload()
    tags = events.Tags()["scalars"]
    if "charts/SPS" not in tags:
        raise ValueError(f"{run_dir} holds no training log (charts/SPS); pass a runs/<run> folder")
    progress = events.Scalars("charts/SPS")  # one per update: when training reached each step
    start, steps = progress[0].wall_time, [e.step for e in progress]

    def minutes(step: int) -> float:  # the first update at or after `step` (the final one: the last)
        return (progress[min(bisect.bisect_left(steps, step), len(progress) - 1)].wall_time - start) / 60

    curves = {}
    for tag in tags:
        name = tag[len(PREFIX):]
        if not tag.startswith(PREFIX) or name.endswith(("_ci_low", "_ci_high")):
            continue
        rows = zip(events.Scalars(tag), events.Scalars(tag + "_ci_low"), events.Scalars(tag + "_ci_high"))
        curves[name] = [(e.step, minutes(e.step), e.value, lo.value, hi.value) for e, lo, hi in rows]
    return curves


def plot(runs: dict[str, dict], path: Path, title: str) -> None:
    """``runs``: run name -> its curves (`read_curves`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    several = len(runs) > 1
    styles = ["-", "--", ":", "-."]
    for k, (run, curves) in enumerate(runs.items()):
        for j, (name, rows) in enumerate(curves.items()):
            steps = [r[0] / 1e6 for r in rows]
            label = f"{run} vs {name}" if several else f"vs {name}"
            look = {"color": f"C{k}", "ls": styles[j % len(styles)], "ms": 2} if several else {"ms": 3}
            ax.plot(steps, [r[2] for r in rows], marker="o", label=label, **look)  # a sparse curve shows its points
            if not several:
                ax.fill_between(steps, [r[3] for r in rows], [r[4] for r in rows], alpha=0.25)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    # A little room above 1.0 and below 0: a perfect win rate would be drawn on the frame.
    ax.set(xlabel="env steps (millions)", ylabel="win rate (Wilson 95%)", ylim=(-0.02, 1.02), title=title)
    ax.legend(loc="lower right", fontsize="small" if several else None)
    save_figure(fig, path)


def table(curves) -> str:
    names = list(curves)
    lines = ["| step | minutes | " + " | ".join(f"vs {n} [95%]" for n in names) + " |",
             "|---:|---:|" + "---|" * len(names)]
    for rows in zip(*curves.values()):
        cells = [f"{r[2]:.3f} [{r[3]:.3f}, {r[4]:.3f}]" for r in rows]
        lines.append(f"| {rows[0][0]:,} | {rows[0][1]:.1f} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m card_envs.train.curve", description=__doc__.splitlines()[0])
    parser.add_argument("run_dirs", type=Path, nargs="+", metavar="run_dir",
                        help="a run folder, runs/<run> (several: their curves in one plot)")
    parser.add_argument("--out", type=Path, default=None,
                        help="where to write curve.png and curve.md (default: the run folder; needed with several)")
    args = parser.parse_args(argv)
    if len(args.run_dirs) > 1 and args.out is None:
        parser.error("several runs need --out: the folder to write their common curve.png and curve.md to")
    names = [run_dir.name for run_dir in args.run_dirs]
    if len(set(names)) < len(names):
        parser.error(f"the runs' folder names label the plot, and these repeat: {' '.join(names)}")
    runs = {}
    for run_dir in args.run_dirs:
        if not run_dir.is_dir():
            print(f"error: {run_dir} is not a folder (a run folder: runs/<run>)", file=sys.stderr)
            return 2
        try:
            import matplotlib  # noqa: F401  (checked first: a run's log is no use without it)

            runs[run_dir.name] = read_curves(run_dir)
        except ImportError as error:
            print(f"error: {error.name} is missing; install the eval extra: "
                  "python3 -m pip install -e \".[eval]\" -c constraints.txt", file=sys.stderr)
            return 2
        except (ValueError, OSError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        if not runs[run_dir.name]:
            print(f"error: {run_dir} has no eval/ scalars yet", file=sys.stderr)
            return 2
    out = args.out or args.run_dirs[0]
    title = " / ".join(runs)
    plot(runs, out / "curve.png", title)
    sections = [f"## {name}\n\n{table(curves)}" for name, curves in runs.items()] if len(runs) > 1 else \
        [table(next(iter(runs.values())))]
    write_text(out / "curve.md", f"# Learning curve: {title}\n\n" + "\n".join(sections))
    print(f"wrote {out / 'curve.png'} and {out / 'curve.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
