"""Where each ruling R01-R19 is covered in this checkout: tests, lesson sections, diagrams and
shipped scenarios. It reads the repository (tests/, notebooks/, diagrams/), so it lives outside
the engine, which never imports it.

Coverage is discovered, never typed: tests by parsing `tests/**/*.py` with `ast` for
`@pytest.mark.ruling("Rxx")` (also through a module-level alias such as
`R04 = pytest.mark.ruling("R04")`, class decorators and `pytestmark`); lessons by reading the
markdown headings of `notebooks/*.ipynb` that name the id (e.g. `## Tapped for mana (R04)`, read by
`mtg_rulekit.repo.outline`);
diagrams as `diagrams/R04*.svg`; scenarios by their `ruling = [...]` list.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from mtg_rulekit.core.rulings import Ruling, all_rulings
from mtg_rulekit.repo.outline import Heading, read_outline


def repo_root() -> Path:
    """The checkout the package lives in (tests/, notebooks/, diagrams/ are found there)."""
    return Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Section:
    """A lesson section: the notebook (`notebooks/x.ipynb`), the lesson's title, the heading."""
    notebook: str
    title: str
    heading: Heading

    @property
    def stem(self) -> str:
        return Path(self.notebook).stem

    def __str__(self) -> str:
        return f"{self.notebook}: {self.heading.markdown}"  # notebooks/x.ipynb: ## A (R04)


@dataclass
class Coverage:
    ruling: Ruling
    tests: list[str] = field(default_factory=list)  # pytest node ids
    lessons: list[Section] = field(default_factory=list)
    diagrams: list[str] = field(default_factory=list)  # "diagrams/R04-....svg"
    scenarios: list[str] = field(default_factory=list)  # "mtg_rulekit/scenarios/....toml"

    def to_json(self) -> dict[str, object]:
        return {"id": self.ruling.id, "topic": self.ruling.topic, "rules": list(self.ruling.rules),
                "tests": self.tests, "lessons": [str(s) for s in self.lessons], "diagrams": self.diagrams,
                "scenarios": self.scenarios}


# ------------------------------------------------------------------ tests
def _is_mark(node: ast.expr) -> bool:
    """`pytest.mark` or a bare `mark` (from pytest import mark)."""
    return (isinstance(node, ast.Attribute) and node.attr == "mark") or (
        isinstance(node, ast.Name) and node.id == "mark")


def _mark_ids(node: ast.expr, aliases: dict[str, list[str]]) -> list[str] | None:
    """Ruling ids if `node` is a ruling mark (a call of pytest.mark.ruling, or an alias)."""
    if isinstance(node, ast.Name) and node.id in aliases:
        return aliases[node.id]
    if isinstance(node, ast.Call):
        func = node.func
        is_mark = isinstance(func, ast.Attribute) and func.attr == "ruling" and _is_mark(func.value)
        is_alias_fn = isinstance(func, ast.Name) and aliases.get(func.id) == ["*"]
        if is_mark or is_alias_fn:
            return [a.value for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return None


def _marks_in(node: ast.expr | None, aliases: dict[str, list[str]]) -> list[str]:
    if node is None:
        return []
    if isinstance(node, (ast.List, ast.Tuple)):
        return [i for elt in node.elts for i in (_mark_ids(elt, aliases) or [])]
    return _mark_ids(node, aliases) or []


def tests_by_ruling(root: Path) -> dict[str, list[str]]:
    """{ruling id: [node ids]} from `tests/**/test_*.py` (sorted, deterministic)."""
    out: dict[str, list[str]] = {}
    tests_dir = root / "tests"
    if not tests_dir.is_dir():
        return out
    for path in sorted(tests_dir.rglob("test_*.py")):
        try:
            tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError, OSError):
            continue
        rel = path.relative_to(root).as_posix()
        aliases: dict[str, list[str]] = {}
        module_marks: list[str] = []
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                    stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                value = stmt.value
                if name == "pytestmark":
                    module_marks += _marks_in(value, aliases)
                    continue
                if isinstance(value, ast.Attribute) and value.attr == "ruling" and \
                        _is_mark(value.value):
                    aliases[name] = ["*"]
                    continue
                ids = _mark_ids(value, aliases)
                if ids is not None:
                    aliases[name] = ids

        def add(node_id: str, ids: list[str]) -> None:
            for rid in dict.fromkeys(ids):
                out.setdefault(rid, []).append(node_id)

        for stmt in tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                    stmt.name.startswith("test"):
                ids = module_marks + [i for d in stmt.decorator_list
                                      for i in (_mark_ids(d, aliases) or [])]
                add(f"{rel}::{stmt.name}", ids)
            elif isinstance(stmt, ast.ClassDef) and stmt.name.startswith("Test"):
                class_ids = module_marks + [i for d in stmt.decorator_list
                                            for i in (_mark_ids(d, aliases) or [])]
                for sub in stmt.body:
                    if isinstance(sub, ast.Assign) and any(
                            isinstance(t, ast.Name) and t.id == "pytestmark" for t in sub.targets):
                        class_ids += _marks_in(sub.value, aliases)
                for sub in stmt.body:
                    if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                            sub.name.startswith("test"):
                        ids = class_ids + [i for d in sub.decorator_list
                                           for i in (_mark_ids(d, aliases) or [])]
                        add(f"{rel}::{stmt.name}::{sub.name}", ids)
    return out


# ------------------------------------------------------------------ lessons, diagrams
def lessons_by_ruling(root: Path) -> dict[str, list[Section]]:
    """{ruling id: [lesson sections whose heading names it]}, notebooks in file-name order."""
    out: dict[str, list[Section]] = {}
    for path in sorted((root / "notebooks").glob("*.ipynb")):
        found = read_outline(path)
        if found is None:
            continue
        rel = path.relative_to(root).as_posix()
        for heading in found.headings:
            for rid in heading.rulings:
                section = Section(rel, found.title, heading)
                if section not in out.setdefault(rid, []):
                    out[rid].append(section)
    return out


def diagrams_by_ruling(root: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    folder = root / "diagrams"
    for rid in all_rulings():
        found = sorted(p.relative_to(root).as_posix() for p in folder.glob(f"{rid}*.svg"))
        if found:
            out[rid] = found
    return out


def scenarios_by_ruling() -> dict[str, list[str]]:
    from mtg_rulekit.scenario import load, shipped
    from mtg_rulekit.scenario.model import ScenarioError

    out: dict[str, list[str]] = {}
    base = repo_root()
    for path in shipped():
        try:
            sc = load(path)
        except ScenarioError:
            continue
        try:
            shown = path.resolve().relative_to(base).as_posix()
        except ValueError:
            shown = path.name
        for rid in sc.rulings:
            out.setdefault(rid, []).append(shown)
    return out


def coverage(root: Path | None = None) -> list[Coverage]:
    """One `Coverage` per ruling, R01..R19."""
    root = root or repo_root()
    tests = tests_by_ruling(root)
    lessons = lessons_by_ruling(root)
    diagrams = diagrams_by_ruling(root)
    scenarios = scenarios_by_ruling()
    return [Coverage(r, tests.get(rid, []), lessons.get(rid, []), diagrams.get(rid, []),
                     scenarios.get(rid, []))
            for rid, r in all_rulings().items()]


def lessons_exist(root: Path | None = None) -> bool:
    return any(((root or repo_root()) / "notebooks").glob("*.ipynb"))


def diagrams_exist(root: Path | None = None) -> bool:
    return any(((root or repo_root()) / "diagrams").glob("*.svg"))
