"""Which folders install as which packages (the metadata is in pyproject.toml).

The repo keeps the programs beside the package (``agents/``, ``train/``, ``evaluate/``); they install
inside it, as ``card_envs.agents``, ``card_envs.train`` and ``card_envs.evaluate``, so that the
distribution claims no top-level import name but ``card_envs`` (a top-level ``evaluate`` is Hugging
Face's evaluation library). This file only computes that mapping, which pyproject.toml cannot: every
package under those folders, found anew at each build, so a new game's folders need no entry here.
"""

from setuptools import find_packages, setup

PROGRAMS = ("agents", "train", "evaluate")  # folders installed as card_envs.<folder>

packages = find_packages(include=["card_envs", "card_envs.*"])
package_dir = {"card_envs": "card_envs"}
for folder in PROGRAMS:
    package_dir[f"card_envs.{folder}"] = folder
    packages += [f"card_envs.{name}" for name in find_packages(include=[folder, f"{folder}.*"])]

setup(packages=packages, package_dir=package_dir)
