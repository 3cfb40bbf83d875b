"""The board in Chromium: the board of every lesson sandbox's set-up and of every
shipped walkthrough's last step, each on a standalone page with the board's style sheet,
screenshotted at 1366x768, 1920x1080 and 390x844 into test-artifacts/board/ (ignored by git);
no sideways scroll on the phone, axe-core finds no critical or serious violation, tapped cards
are turned, cards are 100-120 CSS px wide on a laptop, focus is visible, and the small controls
(the piles, "Full text") are at least 24 px tall (WCAG 2.2, 2.5.8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtg_rulekit.display.board import board_document, board_for_step, board_html, step_changes
from mtg_rulekit.export.browser import full_page_shot
from tests.board_games import lesson_sandbox_games, walkthrough_last_steps

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "board"
SIZES = ((1366, 768), (1920, 1080), (390, 844))


def _boards() -> dict[str, str]:
    """Board HTML by page name: sandboxes (the active player at the bottom, viewing) and the
    walkthroughs' last steps (the first player at the bottom, what the step changed marked)."""
    out = {}
    for stem, game in lesson_sandbox_games():
        active = game.active
        out[f"sandbox-{stem}"] = board_html(game, viewer=active, bottom=active,
                                            label=f"Sandbox board of lesson {stem}")
    for stem, result, game in walkthrough_last_steps():
        out[f"walkthrough-{stem}"] = board_for_step(game, step_changes(result.events))
    return out


@pytest.fixture(scope="module")
def pages() -> dict[str, Path]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    boards = _boards()
    out = {}
    for name, html in boards.items():
        path = ARTIFACTS / f"{name}.html"
        path.write_text(board_document(html, title=name), "utf-8")
        out[name] = path
    together = ARTIFACTS / "all-boards.html"
    together.write_text(board_document("".join(boards.values()), title="Every board"), "utf-8")
    out["all-boards"] = together
    return out


def _open(browser, path: Path, width: int, height: int):
    page = browser.new_page(viewport={"width": width, "height": height})
    outside: list[str] = []

    def route(r) -> None:
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.goto(path.as_uri())
    return page, outside


@pytest.mark.parametrize("width,height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_board_at_each_size(browser, pages, width: int, height: int) -> None:
    problems = []
    page, outside = _open(browser, pages["all-boards"], width, height)
    try:
        for name, path in pages.items():
            if name == "all-boards":
                continue
            page.goto(path.as_uri())
            full_page_shot(page, ARTIFACTS / f"{name}-{width}x{height}.png")
            scroll = page.evaluate("() => [document.documentElement.scrollWidth, "
                                   "document.documentElement.clientWidth]")
            if scroll[0] > scroll[1]:
                problems.append(f"{name} at {width}px scrolls sideways: {scroll}")
            if width == 1366:
                sizes = page.evaluate("""() => Array.from(document.querySelectorAll(
                    '.rk-card:not(.rk-tapped) > .rk-cardbox')).map(
                    (e) => e.getBoundingClientRect().width)""")
                wrong = [w for w in sizes if not 100 <= w <= 120]
                if wrong:
                    problems.append(f"{name}: cards {wrong} px wide at 1366")
    finally:
        page.close()
    assert outside == [] and problems == []


def test_tapped_cards_are_turned_and_nothing_overlaps(browser, pages) -> None:
    page, _ = _open(browser, pages["sandbox-05_powerstone_tokens"], 1366, 768)
    try:
        boxes = page.evaluate("""() => Array.from(document.querySelectorAll('.rk-card')).map(
            (c) => { const f = c.querySelector('.rk-face').getBoundingClientRect();
                     const r = c.getBoundingClientRect();
                     return {tapped: c.classList.contains('rk-tapped'), w: f.width, h: f.height,
                             x: r.x, y: r.y, right: r.right, bottom: r.bottom,
                             fx: f.x, fright: f.right}; })""")
    finally:
        page.close()
    tapped = [b for b in boxes if b["tapped"]]
    assert tapped, "lesson 5 starts with a tapped Powerstone"
    for b in boxes:
        assert (b["w"] > b["h"]) == b["tapped"], b  # a tapped card lies on its side
        assert b["x"] - 1 <= b["fx"] and b["fright"] <= b["right"] + 1, b  # inside its slot
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a["right"] <= b["x"] + 1 or b["right"] <= a["x"] + 1 or \
                a["bottom"] <= b["y"] + 1 or b["bottom"] <= a["y"] + 1
            assert apart, (a, b)


def test_axe_focus_and_target_size(browser, pages) -> None:
    from mtg_rulekit.export.checks import axe

    for width, height in ((1366, 768), (390, 844)):
        page, _ = _open(browser, pages["all-boards"], width, height)
        try:
            assert axe(page) == {}, width
            page.keyboard.press("Tab")
            focused = page.evaluate("""() => { const e = document.activeElement;
                const s = getComputedStyle(e);
                return [e.className, s.outlineStyle, s.outlineWidth, s.outlineColor]; }""")
            assert "rk-card" in focused[0] and focused[1] == "solid" and focused[2] == "3px", \
                focused
            small = page.evaluate("""() => Array.from(document.querySelectorAll(
                '.rk-board summary')).map((e) => e.getBoundingClientRect())
                .filter((r) => r.width > 0 && (r.height < 24 || r.width < 24))
                .map((r) => [r.width, r.height])""")
            assert small == [], small
        finally:
            page.close()


def test_reduced_motion_turns_without_animation(browser, pages) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768}, reduced_motion="reduce")
    try:
        page.goto(pages["sandbox-05_powerstone_tokens"].as_uri())
        assert page.evaluate("getComputedStyle(document.querySelector('.rk-face'))"
                             ".transitionDuration") == "0s"
        page.emulate_media(reduced_motion="no-preference")
        assert page.evaluate("getComputedStyle(document.querySelector('.rk-face'))"
                             ".transitionDuration") != "0s"
    finally:
        page.close()
