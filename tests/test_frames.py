"""A walkthrough's step frames are plain HTML built without ipywidgets (views cut by
what they produce): `mtg_rulekit.display.walkthrough.frames` imports and builds every frame in a Python
where ipywidgets can't be imported, and the `Stepper` widget shows exactly those frames."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from mtg_rulekit.display.walkthrough.frames import StepFrames
from mtg_rulekit.display.widgets import Stepper
from mtg_rulekit.scenario import load, shipped_dir

pytestmark = pytest.mark.usefixtures("dot")  # see conftest.py

ROOT = Path(__file__).resolve().parents[1]

# ipywidgets and pandas made unimportable (a `None` in sys.modules makes `import ipywidgets`
# raise ImportError), then the frames of a walkthrough built and summed up as JSON
NO_WIDGETS = """
import hashlib, json, sys
sys.modules["ipywidgets"] = sys.modules["pandas"] = None
try:
    import ipywidgets  # noqa: F401
except ImportError:
    pass
else:
    raise SystemExit("ipywidgets was importable: the test would prove nothing")
from mtg_rulekit.display.walkthrough.frames import StepFrames
frames = StepFrames("r07_paying_tap")
print(json.dumps({
    # (ids are unique per process: the same scenario shown twice gets "-2"; not compared)
    "frames": [hashlib.sha256(h.replace(frames.uid + "-", "ID-").encode()).hexdigest()
               for h in frames],
    "announcements": frames.announcements,
    "document": frames.frame_document(3),
    "loaded": sorted(m for m in sys.modules
                     if m.startswith(("ipywidgets", "pandas")) and sys.modules[m]),
}))
"""


@pytest.mark.slow  # a fresh Python that can't import ipywidgets
def test_frames_build_without_ipywidgets():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", NO_WIDGETS], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out["loaded"] == []
    assert len(out["frames"]) == len(load(shipped_dir() / "r07_paying_tap.toml").steps) + 1
    assert out["document"].startswith("<!DOCTYPE html>")
    assert "class='rk-narration'" in out["document"] and "<svg" in out["document"]
    # the widget shows the very same frames, and reads the same words aloud
    stepper = Stepper("r07_paying_tap")
    uid = stepper.steps.uid
    assert out["frames"] == [hashlib.sha256(h.replace(uid + "-", "ID-").encode()).hexdigest()
                             for h in stepper.frame_html]
    assert out["announcements"] == stepper.announcements
    assert [f["announce"] for f in stepper.frames] == stepper.announcements


def test_frames_are_an_iterable_of_each_steps_html():
    frames = StepFrames("r07_paying_tap", diagram="step")
    html = list(frames)
    assert len(html) == len(frames) == frames.last + 1 == len(frames.results)
    assert frames.diagram_mode == "step"
    for k, page in enumerate(html):
        assert f"data-step='{k}'" in page
        assert page.count("class='rk-narration'") == 1
    assert "Event and trigger diagram of step 2" in html[2]
    assert StepFrames("r07_paying_tap", diagram=False).diagram_mode == "none"


def test_each_diagram_is_described_by_its_steps_text():
    """aria-describedby of a frame's diagram names the frame's "Describe this step" text, by an
    id no other walkthrough in the page has (the same scenario shown twice included)."""
    import re

    # (a refused step has a diagram in "so far" mode: r08 is small enough for it)
    first, again = StepFrames("r08_paying_untap"), StepFrames("r08_paying_untap")
    assert first.uid != again.uid
    for frames in (first, again):
        for k, html in enumerate(frames):
            svg = re.findall(r"<svg [^>]*aria-describedby='([^']+)'", html)
            ids = re.findall(r"<div id='([^']+)' hidden>(.*?)</div>", html)
            assert svg == [f"{frames.uid}-describe-{k}"], (k, svg)
            assert [i for i, _ in ids] == svg
            assert re.sub(r"<[^>]+>", "", ids[0][1]).strip()
            # the same text as the "Describe this step" toggle shows
            assert f"<summary>Describe this step</summary>{ids[0][1]}</details>" in html


# ------------------------------------------------------------------ the board, step views,
# questions and notes in the frames' data (the stepper module draws them: docs/classroom.md)
@pytest.fixture(scope="module")
def r13() -> StepFrames:
    """A walkthrough with a question (before step 2) and speaker notes (steps 4 and 5)."""
    return StepFrames("r13_token_copy_enters")


def test_every_frame_has_its_tables_and_its_board_as_shared_parts(r13) -> None:
    """The board, players and stack as tables in every frame, and the board view: each frame's
    `board` lists its parts in the walkthrough's `board_parts` (each distinct part once);
    joined, they are `board_for_step` of that step's game with what the step changed, named
    after the walkthrough."""
    from mtg_rulekit.display.board import board_for_step, step_changes

    data = r13.data()
    parts = data["board_parts"]
    assert len(parts) == len(set(parts))  # each part once
    used = 0
    for f, result in zip(data["frames"], r13.results, strict=True):
        assert [t["caption"] for t in f["tables"]][0] == "Board", f["step"]
        board = "".join(parts[i] for i in f["board"])
        changed = step_changes(result.events) if f["step"] else set()
        assert board == board_for_step(result.game, changed, r13.scenario.title), f["step"]
        used += len(board)
    # sent once, the parts cost much less than every frame's board as HTML
    assert sum(len(p) for p in parts) < used / 2
    later = "".join(parts[i] for i in data["frames"][-1]["board"])
    assert "rk-changed" in later  # the last step marks what it changed


def test_every_frame_draws_its_step_view_and_keeps_the_whole_story(r13) -> None:
    data = r13.data()
    for f in data["frames"]:
        k, view = f["step"], f["view"]
        svg = unescape(view["svg"])
        assert "<svg" in svg and f"rk-s{k} rk-new" in svg, k  # the step's group, marked new
        assert f"rk-s{k + 1}" not in svg  # nothing after it
        if k:  # earlier steps folded, each to one summary box
            assert f"rkbox-sum_s{k - 1}" in svg and f"rk-s{k - 1} rk-new" not in svg
        assert "rk-legend" in data["legends"][view["legend"]]  # each strip kept once
        # the whole story so far: cut from the one drawing, up to this step
        assert f["diagram"]["show"] == [f"s{j}" for j in range(k + 1)]
    assert data["svg"].count("<svg") >= 1
    # each legend strip once for the walkthrough: the frames name theirs by number
    strips = data["legends"]
    used = [f[key]["legend"] for f in data["frames"] for key in ("view", "diagram")
            if "legend" in f.get(key, {})]
    assert len(set(strips)) == len(strips) and set(used) == set(range(len(strips)))
    assert len(strips) < len(used)


def test_a_step_too_wide_for_a_phone_ships_a_second_picture_laid_out_for_it(r13) -> None:
    """A frame's picture serves every pane it can (`PANES`); where it shows less than 95 % of
    what the step added in a phone's pane, the frame ships a second picture (`phone`) laid
    out for that pane, the same step marked new, with its own focus box and legend, and
    "why" answers the boxes of both."""
    from mtg_rulekit.display.svg import box_fit
    from mtg_rulekit.display.walkthrough.frames import _BOX, PHONE_PANE

    data = r13.data()
    phones = 0
    for f in data["frames"]:
        k, view = f["step"], f["view"]
        phone = view.get("phone")
        if phone is None:
            assert box_fit(view["focus"], PHONE_PANE) >= 0.95, k
            continue
        phones += 1
        assert box_fit(view["focus"], PHONE_PANE) < 0.95 <= box_fit(phone["focus"], PHONE_PANE)
        svg = unescape(phone["svg"])
        assert f"rk-s{k} rk-new" in svg and svg != unescape(view["svg"]), k
        assert "rk-legend" in data["legends"][phone["legend"]]
        events = {n for a, b in _BOX.findall(svg) if re.fullmatch(r"[npr]\d+(_\d+)?", n := a or b)}
        assert events and events <= set(view["why"]["texts"]), k  # each event's box answers
    assert 0 < phones < len(data["frames"])


def test_a_question_is_on_the_frame_before_its_step_with_the_engines_answer(r13) -> None:
    frames = r13.data()["frames"]
    asked = {f["step"]: f["question"] for f in frames if f["question"]}
    assert list(asked) == [1]
    q = asked[1]
    result = r13.results[2].question
    assert result is not None
    assert q["step"] == 2 and q["ask"] == result.ask and q["labels"] == list(result.labels)
    assert q["labels"][q["correct"]] == q["answer_label"]
    assert q["rules"] and [r["number"] for r in q["rule_texts"]] == q["rules"]
    assert all(r["summary"] for r in q["rule_texts"])
    assert frames[-1]["question"] is None


def test_notes_are_in_the_frames_but_never_in_what_is_read_out(r13) -> None:
    frames = r13.data()["frames"]
    noted = [f for f in frames if f["notes"]]
    assert [f["step"] for f in noted] == [k for k, r in enumerate(r13.results) if r.notes]
    assert noted
    for f in noted:
        assert f["notes"] == r13.results[f["step"]].notes
        assert f["notes"] not in f["announce"] and f["notes"] not in f["narration"]
