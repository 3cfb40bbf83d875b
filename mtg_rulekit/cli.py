"""`rulekit` (or `python -m mtg_rulekit`): run and check scenarios, draw diagrams, report ruling
coverage, copy the lessons out and open JupyterLab on them.

Exit codes: 0 everything holds; 1 an expectation failed; 2 a file (or the command) is unusable.
Problems are one line `file:line: message`, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from mtg_rulekit.core.errors import ScenarioError

OK, FAILED, BAD = 0, 1, 2


def _say(text: str, *, err: bool = False) -> None:
    """Print text that may hold the author's words: control characters shown as escapes (a
    title with `\x1b[2J` must not clear the screen; see `escape.terminal_text`)."""
    from mtg_rulekit.display.escape import terminal_text

    print(terminal_text(text), file=sys.stderr if err else sys.stdout)


def _say_now(text: str) -> None:
    """`_say`, flushed: a line a watching command must show at once, even into a pipe."""
    _say(text)
    sys.stdout.flush()


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # usage errors: exit 2 with one clear line
        self.print_usage(sys.stderr)
        print(f"rulekit: {message}", file=sys.stderr)
        raise SystemExit(BAD)


def _parser(prog: str = "python -m mtg_rulekit") -> argparse.ArgumentParser:
    p = _Parser(prog=prog, description="rulekit: lessons, scenarios and coverage")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    run = sub.add_parser("run", help="play a scenario, printing each step")
    run.add_argument("file")
    run.add_argument("--json", action="store_true", help="one JSON document (see docs)")
    check = sub.add_parser("check", help="run scenarios; ends with 'N passed, M failed'")
    check.add_argument("paths", nargs="*", help="files or folders (default: shipped scenarios)")
    preview = sub.add_parser("preview", help="a scenario as a lesson page (walkthrough, "
                             "board, diagram, questions, notes) in seconds, without a kernel")
    preview.add_argument("file")
    preview.add_argument("--out", default=None, metavar="DIR",
                         help="where the page goes (default: build/preview)")
    preview.add_argument("--open", action="store_true", help="open it in the web browser")
    preview.add_argument("--watch", action="store_true",
                         help="write it again each time the file is saved (Ctrl-C stops)")
    diagram = sub.add_parser("diagram", help="event and trigger flow of a scenario")
    diagram.add_argument("file")
    diagram.add_argument("--step", type=int, default=None, help="up to step K (default: all)")
    diagram.add_argument("-o", "--output", required=True, help="OUT.svg or OUT.dot")
    diagrams = sub.add_parser("diagrams", help="build every diagram (make diagrams)")
    diagrams.add_argument("--out", default="diagrams")
    cov = sub.add_parser("coverage", help="tests, lessons and diagrams of each ruling")
    cov.add_argument("--json", action="store_true")
    cov.add_argument("--root", default=None, help="checkout to scan (default: this one)")
    cards = sub.add_parser("cards", help="the card catalog: cost, types, Oracle text, and "
                           "the lessons and scenarios that use each card")
    cards.add_argument("name", nargs="?", help="one card (any case)")
    cards.add_argument("--json", action="store_true")
    chal = sub.add_parser("challenges", help="every lesson sandbox's challenges, each "
                          "reference solution played on the board (and each mistake)")
    chal.add_argument("paths", nargs="*", help="sandbox files (default: the shipped ones)")
    chal.add_argument("--json", action="store_true")
    new = sub.add_parser("new-lesson", help="start the next numbered lesson notebook from "
                         "notebooks/templates/lesson.ipynb")
    new.add_argument("title")
    new.add_argument("--scenario", action="extend", nargs="+", default=[], metavar="FILE",
                     help="its walkthroughs, in order (scenarios in mtg_rulekit/scenarios/); the "
                     "sandbox starts from the first one's set-up")
    new.add_argument("--goal", default="", help='what a student will be able to do after it '
                     '(the index: "You will be able to ...")')
    new.add_argument("--rulings", default="", help="the rulings it teaches: R05,R06 (default: "
                     "the scenarios'; alone: the shipped walkthroughs no other lesson shows)")
    new.add_argument("--notebooks", default="notebooks", help="lesson folder (notebooks)")
    lessons = sub.add_parser("lessons", help="copy the lesson notebooks into a folder (a lesson "
                             "already there is kept)")
    lessons.add_argument("folder")
    lab = sub.add_parser("lab", help="JupyterLab on a folder of lessons (copied there first if "
                         "it has none), on 127.0.0.1; more arguments go to jupyter lab")
    lab.add_argument("folder", nargs="?", default=LAB_FOLDER,
                     help=f"the lessons' folder (default: {LAB_FOLDER})")
    return p


LAB_FOLDER = "rulekit-lessons"


def _skip_slow_optional_imports() -> None:
    from mtg_rulekit.scenario.model import skip_slow_optional_imports

    skip_slow_optional_imports()


def main(argv: Sequence[str] | None = None, *, standalone: bool = False,
         prog: str = "python -m mtg_rulekit") -> int:
    """Run one command; returns the exit code. `standalone`: this process exists only for the
    command (`python -m mtg_rulekit`), so slow optional imports may be skipped."""
    args, extra = _parser(prog).parse_known_args(argv)
    if extra and args.command != "lab":  # only `lab` passes arguments on (to jupyter lab)
        _parser(prog).error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra = extra
    if standalone:
        _skip_slow_optional_imports()
    try:
        return {"run": _run, "check": _check, "diagram": _diagram, "diagrams": _diagrams,
                "coverage": _coverage, "new-lesson": _new_lesson, "cards": _cards,
                "lessons": _lessons, "lab": _lab, "challenges": _challenges,
                "preview": _preview}[args.command](args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return BAD
    except BrokenPipeError:
        return OK


def console() -> NoReturn:
    """The `rulekit` command (the wheel's console script)."""
    raise SystemExit(main(standalone=True, prog="rulekit"))


# ------------------------------------------------------------------ run
def _run(args: argparse.Namespace) -> int:
    from mtg_rulekit.scenario import load
    from mtg_rulekit.scenario.runner import play, played_before
    from mtg_rulekit.scenario.text import error_json, failure_lines, render, to_json, unusable_lines

    try:
        scenario = load(args.file)
    except ScenarioError as err:
        if args.json:
            print(json.dumps(error_json(err.path or args.file, err.line, str(err)), indent=1))
        else:
            _say(str(err), err=True)
        return BAD
    try:
        results = play(scenario)
    except ScenarioError as err:
        if args.json:
            doc = error_json(err.path or args.file, err.line, str(err))
            doc["failures"] = failure_lines(scenario, played_before(err))
            print(json.dumps(doc, indent=1))
        else:
            for line in unusable_lines(scenario, err):
                _say(line, err=True)
        return BAD
    ok = all(r.ok for r in results)
    if args.json:
        print(json.dumps(to_json(scenario, results), indent=1, ensure_ascii=False))
    else:
        _say(render(scenario, results))
        if not ok:
            for line in failure_lines(scenario, results):
                _say(line, err=True)
    return OK if ok else FAILED


# ------------------------------------------------------------------ preview
def _preview(args: argparse.Namespace) -> int:
    import webbrowser

    from mtg_rulekit.authoring.preview import DEFAULT_OUT, stamp, watch, write
    from mtg_rulekit.display.svg import GraphvizMissing

    path, out = Path(args.file), Path(args.out) if args.out else DEFAULT_OUT
    read = stamp(path)  # a save while the first page is made is watched for too
    try:
        made = write(path, out)
    except ScenarioError as err:
        _say(str(err), err=True)
        return BAD
    except GraphvizMissing as err:
        print(f"rulekit: {err}", file=sys.stderr)
        return BAD
    except OSError as err:
        print(f"rulekit: can't write {err.filename or out}: {err.strerror or err}",
              file=sys.stderr)
        return BAD
    _say_now(f"wrote {made.page}: {made.title} ({made.steps} steps, {made.questions} "
             f"question(s)) in {made.seconds:.1f} s")
    if args.open:
        webbrowser.open(made.page.resolve().as_uri())
    if args.watch:
        print(f"watching {path}: each save writes the page again (Ctrl-C stops)", flush=True)
        try:
            watch(path, out, _say_now, since=read)
        except KeyboardInterrupt:
            return OK
    return OK


# ------------------------------------------------------------------ check
def _check(args: argparse.Namespace) -> int:
    from mtg_rulekit.scenario import find, load, play, shipped
    from mtg_rulekit.scenario.text import failure_lines, unusable_lines

    files = find(args.paths) if args.paths else shipped()
    passed = failed = skipped = 0
    worst = OK
    for path in files:
        shown = _shown(path)
        try:
            scenario = load(path, name=shown)
        except ScenarioError as err:
            failed += 1
            worst = BAD
            _say(f"FAIL {shown}\n  {err}")
            continue
        try:
            results = play(scenario)
            problems = failure_lines(scenario, results)
        except ScenarioError as err:
            results, problems = None, unusable_lines(scenario, err)
            code = BAD
        else:
            code = FAILED if problems else OK
        if scenario.pending:
            skipped += 1
            note = "; it passes now: remove the status line" if not problems else ""
            _say(f"SKIP {shown} (pending-engine{note})")
            continue
        if problems:
            failed += 1
            worst = max(worst, code)
            _say(f"FAIL {shown}")
            _say("\n".join(f"  {p}" for p in problems))
        else:
            passed += 1
            _say(f"PASS {shown}")
    if not files:
        print("no scenario files found")
    if skipped:
        print(f"{skipped} skipped (status = \"pending-engine\")")
    print(f"{passed} passed, {failed} failed")
    return worst if failed else OK


def _shown(path: Path) -> str:
    """The path as `check` names it: relative when inside the current folder, on one line
    (a newline or a zero-width space in a file name is shown escaped)."""
    from mtg_rulekit.scenario.model import one_line

    try:
        rel = os.path.relpath(path)
    except ValueError:
        return one_line(str(path))
    return one_line(rel if not rel.startswith("..") else str(path))


# ------------------------------------------------------------------ diagrams
def _diagram(args: argparse.Namespace) -> int:
    from mtg_rulekit.scenario import load, play

    out = Path(args.output)
    if out.suffix not in (".svg", ".dot"):
        print(f"rulekit: -o must end in .svg or .dot, not {out.name!r}", file=sys.stderr)
        return BAD
    try:
        scenario = load(args.file)
        if args.step is not None and not 0 <= args.step <= len(scenario.steps):
            print(f"{scenario.path}:{scenario.line('step')}: --step {args.step} is not a step "
                  f"of this scenario (0 to {len(scenario.steps)})", file=sys.stderr)
            return BAD
        play(scenario)
    except ScenarioError as err:
        _say(str(err), err=True)
        return BAD
    from mtg_rulekit.display.flow import scenario_diagram
    from mtg_rulekit.display.svg import GraphvizMissing, run_dot

    graph = scenario_diagram(scenario, upto_step=args.step)
    try:
        if out.suffix == ".dot":
            out.write_text(graph.source, encoding="utf-8")
        else:
            try:
                data = run_dot(graph.source)
            except GraphvizMissing:
                print("rulekit: can't render SVG: Graphviz's dot is not installed; install "
                      "Graphviz (sudo apt-get install graphviz, or brew install graphviz) or "
                      "write a .dot file", file=sys.stderr)
                return BAD
            except subprocess.CalledProcessError as err:  # dot is there and refused the graph
                _say(_dot_failed(err), err=True)
                return BAD
            out.write_bytes(data.encode("utf-8"))
    except OSError as err:
        print(f"rulekit: can't write {out}: {err.strerror}", file=sys.stderr)
        return BAD
    print(f"wrote {out}")
    return OK


def _diagrams(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"rulekit: --out {args.out} is a file, not a folder: name a folder for the "
              "diagrams (e.g. diagrams); nothing was changed", file=sys.stderr)
        return BAD
    from mtg_rulekit.display.flow.diagrams import build_all
    from mtg_rulekit.display.svg import GraphvizMissing

    try:
        result = build_all(out)
    except OSError as err:
        print(f"rulekit: can't write {err.filename or out}: {err.strerror or err}",
              file=sys.stderr)
        return BAD
    except ScenarioError as err:
        _say(str(err), err=True)
        return BAD
    except subprocess.CalledProcessError as err:  # dot is there and refused a graph
        _say(_dot_failed(err), err=True)
        return BAD
    except GraphvizMissing as err:
        print(f"rulekit: {err}", file=sys.stderr)
        return BAD
    if isinstance(result, (list, tuple)):
        print(f"{len(result)} diagram(s) in {args.out}")
    return OK


def _dot_failed(err: Any) -> str:
    """One line for Graphviz refusing a graph (not a missing Graphviz: it ran)."""
    from mtg_rulekit.scenario.model import shorten

    raw = err.stderr or b""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), f"exit {err.returncode}")
    return f"rulekit: Graphviz could not draw this diagram: {shorten(first, 200)}"


# ------------------------------------------------------------------ coverage
def _coverage(args: argparse.Namespace) -> int:
    from mtg_rulekit.repo.coverage import coverage

    root = Path(args.root) if args.root else None
    rows = coverage(root)
    if args.json:
        print(json.dumps([c.to_json() for c in rows], indent=1, ensure_ascii=False))
        return OK
    for c in rows:
        r = c.ruling
        print(f"{r.id}  {r.topic}  (CR {', '.join(r.rules)})")
        for label, items in (("tests", c.tests), ("lessons", c.lessons),
                             ("diagrams", c.diagrams), ("scenarios", c.scenarios)):
            if items:
                print(f"     {label:<9} " + f"\n     {'':<9} ".join(map(str, items)))
            else:
                print(f"     {label:<9} -")
    missing = [(c.ruling.id, k) for c in rows
               for k, v in (("tests", c.tests), ("lessons", c.lessons), ("diagrams", c.diagrams))
               if not v]
    print()
    print(f"{len(rows)} rulings; {len(missing)} gap(s)"
          + (": " + ", ".join(f"{i} {k}" for i, k in missing[:12])
             + (" ..." if len(missing) > 12 else "") if missing else ""))
    return OK


# ------------------------------------------------------------------ new-lesson
def _new_lesson(args: argparse.Namespace) -> int:
    from mtg_rulekit.authoring.new_lesson import create
    from mtg_rulekit.core.errors import UsageError

    try:
        made = create(args.title, args.rulings.replace(" ", ",").split(","),
                      scenarios=args.scenario, goal=args.goal, notebooks=Path(args.notebooks))
    except UsageError as err:
        _say(f"rulekit new-lesson: {err}", err=True)
        return BAD
    except FileExistsError as err:
        print(f"rulekit new-lesson: {err.filename} exists already", file=sys.stderr)
        return BAD
    _say(f"wrote {made.path}: lesson {made.number} on {', '.join(made.rulings)}\n"
         f"  walkthroughs: {', '.join(made.scenarios)}\n"
         f"  sandbox: from {made.scenarios[0]}'s set-up, offering {', '.join(made.actions)}\n"
         f"  goal: You will be able to {made.goal[:1].lower()}{made.goal[1:]}\n"
         f"next: write the lesson in JupyterLab (make lab); make check; make lessons "
         f"(site/{made.path.stem}.html); git add {made.path} "
         + " ".join(f"mtg_rulekit/scenarios/{s}.toml" for s in made.scenarios))
    return OK


# ------------------------------------------------------------------ cards
def _cards(args: argparse.Namespace) -> int:
    from mtg_rulekit.authoring.cards import entries, find, text, to_json

    items = entries()
    if args.name is not None:
        try:
            items = [find(args.name, items)]
        except LookupError as err:
            print(f"rulekit cards: {err.args[0]}", file=sys.stderr)
            return BAD
    if args.json:
        print(to_json(items))
    else:
        print("\n\n".join(text(e) for e in items))
        if args.name is None:
            print(f"\n{len(items)} cards")
    return OK


# ------------------------------------------------------------------ lessons, lab
def _lessons(args: argparse.Namespace) -> int:
    from mtg_rulekit.repo.lessons import copy_out

    dest = Path(args.folder)
    if dest.exists() and not dest.is_dir():
        print(f"rulekit lessons: {dest} is a file, not a folder", file=sys.stderr)
        return BAD
    try:
        done = copy_out(dest)
    except OSError as err:
        print(f"rulekit lessons: can't copy the lessons into {dest}: {err.strerror or err}",
              file=sys.stderr)
        return BAD
    print(f"{len(done.written)} file(s) copied into {dest}"
          + (f"; {len(done.kept)} already there, kept as they are" if done.kept else ""))
    print(f"next: rulekit lab {dest}  (JupyterLab on them; then Run > Run All Cells in a lesson)")
    return OK


def _lab(args: argparse.Namespace) -> int:
    import importlib.util

    from mtg_rulekit.repo.lessons import has_lessons

    folder = Path(args.folder)
    if importlib.util.find_spec("jupyterlab") is None:
        print("rulekit lab: JupyterLab is not installed here: pip install 'mtg-rulekit[notebook]'",
              file=sys.stderr)
        return BAD
    if not has_lessons(folder):
        code = _lessons(argparse.Namespace(folder=args.folder))
        if code != OK:
            return code
    from mtg_rulekit import lab

    argv = lab.command(folder, args.extra)
    sys.stdout.flush()
    os.execvp(argv[0], argv)
    return BAD  # not reached


# ------------------------------------------------------------------ challenges
def _challenges(args: argparse.Namespace) -> int:
    """Each challenge of each lesson sandbox (lesson, id, what it asks) and whether its
    reference solution, clicked on a fresh board, solves it; its mistake must be answered as a
    wrong try (with the hint). Exit 1 when one is not solved or its mistake not caught."""
    from mtg_rulekit.core.errors import UsageError
    from mtg_rulekit.sandbox import lessons

    files = [Path(p) for p in args.paths] or lessons.shipped()
    rows: list[dict[str, Any]] = []
    worst = OK
    for path in files:
        try:
            sandbox = lessons.load(path)
        except (ScenarioError, OSError) as err:
            _say(str(err), err=True)
            worst = BAD
            continue
        for c in sandbox.challenges:
            try:
                played = lessons.play(sandbox, c)
                problem = None
            except UsageError as err:
                played, problem = None, str(err)
            solved = bool(played and played.solved)
            caught = played.mistake_wrong if played else None
            if not solved or caught is False:
                worst = max(worst, FAILED)
            rows.append({"lesson": path.stem, "file": _shown(path), "id": c.id, "say": c.say,
                         "rule": c.rule, "clicks": len(c.solution), "solved": solved,
                         "mistake_shows_hint": caught, "problem": problem})
    if args.json:
        print(json.dumps({"format": "rulekit-challenges/1", "challenges": rows,
                          "solved": sum(r["solved"] for r in rows), "total": len(rows)},
                         indent=1, ensure_ascii=False))
    else:
        for r in rows:
            state = "solved" if r["solved"] else "NOT SOLVED"
            if r["mistake_shows_hint"] is False:
                state += "; its mistake is not answered with the hint"
            _say(f"{r['lesson']}  {r['id']}: {r['say']}  {state} (CR {r['rule']}, "
                 f"{r['clicks']} clicks)" + (f"\n  {r['problem']}" if r["problem"] else ""))
        _say(f"{sum(r['solved'] for r in rows)} of {len(rows)} challenges solved")
    return worst
