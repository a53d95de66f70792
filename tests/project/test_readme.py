"""The README's commands are the ones CI runs, its usage example works, and the train and evaluate
commands shown in the README and docs/ still parse."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def readme_commands() -> list[str]:
    block = re.search(r"## Set up and run.*?```bash\n(.*?)```", README, re.S).group(1)
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_readme_has_two_commands_and_ci_runs_the_test_one():
    main, tests = readme_commands()
    assert main.endswith("python3 -m card_envs.train") and "pytest" in tests
    assert tests in (ROOT / ".ci" / "run").read_text().splitlines()


def test_readme_is_a_front_page():
    assert len(README.splitlines()) <= 200, "the README is the user's front page: history goes to docs/results/"


def test_readme_quickstart_examples_run(capsys):
    """The three Quickstart snippets (PettingZoo, gymnasium, batched) run as written."""
    section = re.search(r"## Quickstart\n(.*?)\n## ", README, re.S).group(1)
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 3
    for i, code in enumerate(blocks):
        exec(compile(code, f"README quickstart {i}", "exec"), {})
    out = capsys.readouterr().out
    assert "game over" in out and "learner's reward" in out and "games ended in the last step" in out


def test_readme_batched_quickstart_prints_the_same_every_run(capsys):
    """Its sampling is seeded (a torch.Generator), so its games, and the number it prints, repeat."""
    section = re.search(r"## Quickstart\n(.*?)\n## ", README, re.S).group(1)
    code = re.findall(r"```python\n(.*?)```", section, re.S)[2]
    assert "generator=" in code and "batch_size=4096" in code
    printed = []
    for _ in range(2):  # on 256 games: the same code, a sixteenth of the time
        exec(compile(code.replace("batch_size=4096", "batch_size=256"), "README batched quickstart", "exec"), {})
        printed.append(capsys.readouterr().out)
    assert printed[0] == printed[1] and "games ended in the last step" in printed[0]


def test_local_links_resolve():
    """Every relative link in the README and docs/ names a file or folder that exists."""
    broken = []
    for path in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text()):
            target = target.split("#")[0]
            if target and not re.match(r"[a-z]+:", target) and not (path.parent / target).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, broken


# ----- the commands the README and docs/ show still parse -------------------------------------
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
PLACEHOLDER = re.compile(r"<[^>]*>|^[A-Z_]+$")  # <env_id>, <run>; CHECKPOINT, TARGET


def documented_commands(module: str) -> dict[str, str]:
    """Every ``python -m <module> ...`` command shown in the README and docs/ (inline code, wrapped
    or not, and lines of fenced blocks; a trailing ``# comment`` dropped), each with its file."""
    found: dict[str, str] = {}
    for path in DOCS:
        text = path.read_text()
        fence = r"```\w*\n(.*?)```"
        spans = re.findall(r"`([^`]+)`", re.sub(fence, "", text, flags=re.S))  # inline code outside the blocks
        for block in re.findall(fence, text, re.S):
            spans += re.sub(r"\\\n", " ", block).splitlines()  # a line ending in \ goes on on the next
        for span in spans:
            command = " ".join(span.split(" # ")[0].split()).split(" && ")[-1]
            if re.fullmatch(rf"python3? -m {re.escape(module)}( .*)?", command):
                found.setdefault(command, str(path.relative_to(ROOT)))
    return found


def documented_argvs(module: str) -> list[tuple[str, list[str]]]:
    """(file, argv) of the module's documented commands that can run as written: no placeholder
    to fill in, no --help."""
    out = []
    for command, path in documented_commands(module).items():
        argv = shlex.split(command)[3:]
        if "--help" not in argv and not any(PLACEHOLDER.search(a) for a in argv):
            out.append((path, argv))
    return out


def check_parses(module: str, parse, commands: list[tuple[str, list[str]]]) -> None:
    for path, argv in commands:
        try:
            parse(argv)
        except (SystemExit, ValueError) as error:  # argparse's reason for a SystemExit is in the captured stderr
            raise AssertionError(f"{path}: python -m {module} {shlex.join(argv)} no longer parses: {error!r}") from None


def test_documented_train_commands_parse():
    from card_envs.train.ppo import parse_args

    commands = documented_argvs("card_envs.train")
    assert len(commands) >= 8  # the finder still finds them (the bare `python3 -m card_envs.train` too)
    check_parses("card_envs.train", lambda argv: parse_args(argv)[0].validate(), commands)


def test_documented_evaluate_commands_parse():
    from card_envs.evaluate.__main__ import parse_args

    commands = [(path, argv) for path, argv in documented_argvs("card_envs.evaluate") if argv]  # bare: named in prose
    assert len(commands) >= 30
    check_parses("card_envs.evaluate", parse_args, commands)
