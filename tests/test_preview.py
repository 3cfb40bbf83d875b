"""`python -m mtg_rulekit preview FILE`: one scenario as a page in seconds, without a kernel: the
lesson page's own walkthrough (board, diagram, questions, notes), every question and note
listed, written whole; `--watch` writes it again on each save and keeps the last good page
when a save breaks the file; `--open` hands it to the web browser."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import stat
import subprocess
import sys
import threading
import time
import tomllib
from html import unescape
from pathlib import Path

import pytest

from mtg_rulekit.authoring.preview import stamp, watch, write
from mtg_rulekit.export.csp import policy_of
from mtg_rulekit.scenario import shipped_dir
from tests.helpers import rulekit_cli

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "preview"
SCENARIO = shipped_dir() / "r13_token_copy_enters.toml"  # a question and notes
QUESTION = next(s["question"]["ask"] for s in tomllib.loads(SCENARIO.read_text("utf-8"))["step"]
                if "question" in s)  # its one question
VIEW = re.compile(r'<div class="rk-view" data-rk-view="stepper" id="[a-z0-9-]+">'
                  r'<script type="application/json">(.*?)</script>', re.S)


def stepper_data(page: str) -> dict:
    (found,) = VIEW.findall(page)
    return json.loads(found)


def test_a_scenario_becomes_a_page_with_its_walkthrough_questions_and_notes(tmp_path):
    done = rulekit_cli("preview", str(SCENARIO), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    page_path = tmp_path / "out" / "r13_token_copy_enters.html"
    assert re.fullmatch(rf"wrote {re.escape(str(page_path))}: A token copy's enter abilities "
                        r"work \(5 steps, 1 question\(s\)\) in [0-9.]+ s\n", done.stdout)
    page = page_path.read_text("utf-8")
    data = stepper_data(page)
    assert data["title"] == "A token copy's enter abilities work" and len(data["frames"]) == 6
    asked = [f["question"] for f in data["frames"] if f["question"]]
    assert [q["ask"] for q in asked] == [QUESTION]
    assert any(f["notes"] for f in data["frames"]) and all(f["board"] for f in data["frames"])
    assert data["svg"].startswith("<svg")  # the diagram
    # the list of questions and notes, and the engine's answer
    listed = unescape(page.split("The questions and notes, step by step", 1)[1])
    assert "Asked before the step:</b> " + QUESTION in listed
    right = "1: it has the Goose's ability as it enters"
    assert f"<li>{right} ✓</li>" in listed
    assert f"The engine's answer:</b> {right} (CR 707.5). A copy has" in listed
    assert "Notes for the teacher" in listed and "Ask the class now what creature type" in listed
    # a page of its own, under the lesson pages' security policy
    assert "index.html" not in page and "require.js" not in page
    assert "'unsafe-inline'" not in " ".join(policy_of(page).get("script-src", []))
    assert not list((tmp_path / "out").glob(".*"))  # written whole: no temporary left


def test_a_broken_file_is_one_line_exit_2_and_no_page(tmp_path):
    done = rulekit_cli("preview", str(ROOT / "tests" / "bad_scenarios" / "unknown_card.toml"),
                       "--out", str(tmp_path))
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "did you mean 'Forest'" in done.stderr
    assert not list(tmp_path.iterdir())


def test_watch_writes_again_on_save_and_keeps_the_last_good_page(tmp_path):
    path = tmp_path / "mine.toml"  # a short one: three pages are written
    path.write_text((shipped_dir() / "r05_replacement_modifies_production.toml").read_text(
        "utf-8"), "utf-8")
    out = tmp_path / "out"
    first = write(path, out)
    said: list[str] = []

    def edit_then_watch(text: str) -> None:
        runner = threading.Thread(target=watch, args=(path, out, said.append), kwargs={
            "since": stamp(path), "once": True})
        runner.start()
        time.sleep(0.5)
        path.write_text(text, "utf-8")
        runner.join(60)
        assert not runner.is_alive()

    edit_then_watch(path.read_text("utf-8").replace(
        "Mana Reflection changes the land's mana, not Wild Growth's", "Reflections, edited"))
    assert said[-1].startswith(f"rewrote {first.page} in ") and "reload the page" in said[-1]
    good = first.page.read_text("utf-8")
    assert stepper_data(good)["title"] == "Reflections, edited"
    edit_then_watch(path.read_text("utf-8").replace('card = "Forest"', 'card = "Forst"'))
    assert "did you mean 'Forest'?" in said[-1] and "the last good page stays" in said[-1]
    assert first.page.read_text("utf-8") == good


@pytest.mark.slow  # a Python process watching for a while
def test_the_command_opens_the_page_and_watches_until_interrupted(tmp_path):
    opened = tmp_path / "opened.txt"
    fake = tmp_path / "browser"
    fake.write_text(f"#!/bin/sh\necho \"$1\" > {opened}\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    path = tmp_path / "mine.toml"
    path.write_text(SCENARIO.read_text("utf-8"), "utf-8")
    env = {**os.environ, "BROWSER": f"{fake} %s", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "mtg_rulekit", "preview", str(path), "--out",
                             str(tmp_path / "out"), "--open", "--watch"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    threading.Thread(target=lambda: [lines.put(ln) for ln in proc.stdout], daemon=True).start()

    def next_line() -> str:
        return lines.get(timeout=120)

    try:
        assert next_line().startswith("wrote ") and next_line().startswith(f"watching {path}")
        page = tmp_path / "out" / "mine.html"
        deadline = time.monotonic() + 30
        while not opened.is_file() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert opened.read_text().strip() == page.resolve().as_uri()
        path.write_text(path.read_text("utf-8") + "\n# saved again\n", "utf-8")
        assert next_line().startswith(f"rewrote {page} in ")
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(60)
    assert code == 0


@pytest.mark.browser
def test_the_preview_steps_and_asks_in_a_browser(tmp_path, browser):
    """The page in Chromium at a laptop's, a projector laptop's and a phone's size: the
    walkthrough draws and steps, the question shows on the step before its own, nothing is
    fetched from outside and no error is logged (screenshots: test-artifacts/preview/)."""
    from mtg_rulekit.export.browser import open_page

    made = write(SCENARIO, tmp_path)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width, height in [(1280, 720), (1366, 768), (390, 844)]:
        visit = open_page(browser, made.page, tmp_path, viewport=(width, height))
        try:
            assert visit.outside == [] and visit.console_errors == []
            visit.page.screenshot(path=str(ARTIFACTS / f"r13_{width}x{height}.png"))
            visit.step_forward()  # to step 1: step 2's question is asked there
            question = visit.page.get_by_text(QUESTION)
            question.first.wait_for(state="visible", timeout=10_000)
            visit.page.screenshot(path=str(ARTIFACTS / f"r13_{width}x{height}_question.png"))
        finally:
            visit.page.close()
