"""What setuptools can't read from pyproject.toml alone:

- the lesson notebooks (`notebooks/`, edited where they are) travel in the wheel as the
  package data `mtg_rulekit/lessons/` (`rulekit lessons DIR` copies them out: `mtg_rulekit.lessons`);
- `share/jupyter/lab/settings/overrides.d/mtg-rulekit.json`: JupyterLab's and Notebook 7's
  per-package settings folder in the environment, so that a server started on the lessons
  (`jupyter lab` in their folder) asks no news question over a walkthrough.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["mtg_rulekit", "mtg_rulekit.*"]), "mtg_rulekit.lessons"],
    package_dir={"mtg_rulekit.lessons": "notebooks"},
    data_files=[("share/jupyter/lab/settings/overrides.d",
                 ["mtg_rulekit/lab/settings/overrides.d/mtg-rulekit.json"])],
)
