"""The JavaScript linter `make lint` runs (ESLint, pinned in tools/eslint, installed by make in
.cache/eslint): the shipped modules pass it, and it does fail on a real defect, so a lint that
passes means something."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import ROOT, unavailable

ESLINT_DIR = ROOT / ".cache" / "eslint"
ESLINT = ESLINT_DIR / "node_modules" / ".bin" / "eslint"
CONFIG = ESLINT_DIR / "eslint.config.mjs"


def _eslint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    if not ESLINT.exists() or shutil.which("node") is None:
        unavailable(f"ESLint is not installed at {ESLINT.relative_to(ROOT)}: `make lint` installs "
                    "it (npm ci, tools/eslint)")
    return subprocess.run([str(ESLINT), "--config", str(CONFIG), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_the_shipped_javascript_passes_eslint() -> None:
    run = _eslint("mtg_rulekit/**/*.js", cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(("source", "rule"), [
    ("export default { render() { const n = 1; if (n == '1') return; } };\n", "eqeqeq"),
    ("export default { render() { const unused = 2; } };\n", "no-unused-vars"),
    ("export default { render() { return undefinedName; } };\n", "no-undef"),
])
def test_eslint_fails_on_a_defect_in_a_module(tmp_path: Path, source: str, rule: str) -> None:
    module = tmp_path / "mtg_rulekit" / "display" / "front" / "broken.js"
    module.parent.mkdir(parents=True)
    module.write_text(source, encoding="utf-8")
    run = _eslint("mtg_rulekit/**/*.js", cwd=tmp_path)
    assert run.returncode == 1 and rule in run.stdout, run.stdout + run.stderr
