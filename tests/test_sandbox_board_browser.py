"""The sandbox's board in exported pages, in Debian's Chromium with every request outside the
site blocked, on the session's built lessons (`lesson_site`), played as a student plays it:
by clicking on the board.

- Every challenge of every lesson is solved by clicking its reference solution on the board
  (`tests/sandbox_ui.py`), after its mistake showed the hint; progress survives a reload.
- Every card's menu lists the state's `card_actions` with each verdict shown before any click
  (unavailable: aria-disabled, its reason and rule in its accessible name); every available
  entry, through its pickers, is done and undone; every unavailable one is refused by its rule.
- A target is picked by clicking a lit card (the others dimmed with their reason, Escape
  cancels), by mouse and by keyboard; the time bar passes and resolves (Space) and undoes (Z).
- axe finds nothing on a target being chosen and a challenge solved, at 1366x768 and 390x844,
  and their screenshots go to test-artifacts/sandbox-board/ (ignored by git); free play, a
  decision's picker and "Save as walkthrough" work."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from mtg_rulekit.export.checks import axe
from mtg_rulekit.sandbox import lessons
from mtg_rulekit.sandbox.challenges import attach
from mtg_rulekit.sandbox.model import SandboxModel
from mtg_rulekit.sandbox.view import board_html
from tests.board_games import lesson_sandboxes
from tests.helpers import unavailable
from tests.sandbox_ui import WORDS_JS, SandboxUI

pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "sandbox-board"
LESSONS = tuple(stem[:2] for stem, _, _ in lesson_sandboxes())  # every lesson with a sandbox
# Every card's verdicts clicked in the page: lesson 2 (the most cards, mana abilities) and 8
# (combat: its cards act in the declare attackers step). The page draws every lesson's verdicts
# with the same module from the same messages; each lesson's messages are checked card by card
# in tests/test_sandbox_board_state.py (fast tier), and each lesson's board in a kernel in
# tests/test_jupyterlab.py (tests/kernel_sandbox.py)
VERDICT_LESSONS = ("02", "08")
SIZES = ((1366, 768), (390, 844))
SANDBOXES = {p.stem[:2]: lessons.load(p) for p in lessons.shipped()}
FOCUSED = "() => document.activeElement.closest('.rk-card').dataset.id"


@pytest.fixture(scope="module")
def small_site(lesson_site) -> Path:
    """The session's built lessons (`lesson_site`, built once per session and shared with the
    other page tests; this module used to build lessons 01 and 03 into a temp site of its own,
    with a cache of its own, which cost a second build of those lessons per run)."""
    site, report = lesson_site
    if report.sandbox_note:
        unavailable(report.sandbox_note)
    assert not report.failures, [f.error for f in report.failures]
    return Path(site)


def _live(browser: Any, site: Path, prefix: str, viewport: tuple[int, int] = (1366, 768)):
    from mtg_rulekit.export.browser import Live, open_page

    (path,) = sorted(site.glob(f"{prefix}_*.html"))
    visit = open_page(browser, path, site, viewport=viewport)
    live = Live(visit)
    live.root.wait_for(state="attached")
    live.start()
    assert live.state == "ready", live.box.inner_text()
    return visit, live


def _state(live: Any) -> dict[str, Any]:
    return live.view_state()


def _card_ids(live: Any) -> list[str]:
    """The cards a reader can click now (not in a closed graveyard or exile pile)."""
    return live.root.locator(".rk-board .rk-card[data-id]").evaluate_all(
        "(cs) => cs.filter((c) => !c.closest('details:not([open])'))"
        ".map((c) => c.dataset.id)")


def _open(live: Any, cid: str) -> Any:
    card = live.root.locator(f".rk-board .rk-card[data-id='{cid}']").first
    card.click()
    menu = live.root.locator(".rk-actions")
    menu.wait_for(state="visible")
    return menu


def _close(live: Any) -> None:
    live.visit.page.keyboard.press("Escape")
    live.root.locator(".rk-actions").wait_for(state="hidden")


def _shown(menu: Any) -> list[dict[str, Any]]:
    """Each entry of an open menu: its label (mana written as {G}), whether it is disabled,
    and all its words (the reason of an unavailable one)."""
    return menu.locator(".rk-action:not(.rk-close)").evaluate_all(
        f"(bs) => bs.map((b) => ({{label: ({WORDS_JS})(b.querySelector('.rk-action-label')), "
        f"disabled: b.getAttribute('aria-disabled') === 'true', text: ({WORDS_JS})(b)}}))")


def _wait_done(live: Any, done: str) -> None:
    live.visit.page.wait_for_function(
        "([r, n]) => (r.dataset.done || '0') !== n && !r.hasAttribute('aria-busy')",
        arg=[live.root.element_handle(), done])


def _ui(live: Any) -> SandboxUI:
    """The page's sandbox, driven by clicks, with a CPython mirror on the same board."""
    position = live.position()
    mirror = attach(SandboxModel.from_position(position), position.get("challenges"))
    return SandboxUI(live.visit.page, live.root, mirror)


def _choose(live: Any, menu: Any, index: int) -> dict[str, Any]:
    """Choose the menu's entry `index`, then answer each picker it opens with its first legal
    answer (a list's first available item, the first lit card or player, the confirm button
    of a choice of several); the outcome (`state.last`)."""
    ui = _ui(live)
    before = ui.done()
    menu.locator(".rk-action:not(.rk-close)").nth(index).click(force=True)  # even unavailable
    while (now := ui._next(before)) != "done":
        if now == "list":
            live.root.locator(".rk-actions.rk-picker .rk-choice:not([aria-disabled='true'])") \
                .first.click()
        elif live.root.locator(".rk-choosing-bar .rk-confirm").count():
            live.root.locator(".rk-choosing-bar .rk-confirm").click()
        else:
            lit = live.root.locator(".rk-board .rk-card.rk-choosable .rk-card-open, "
                                    ".rk-player-pick:not(.rk-unavailable)")
            lit.first.click()
    return _state(live)["last"]


def _undo(live: Any) -> None:
    done = live.root.get_attribute("data-done") or "0"
    live.root.locator(".rk-time-bar button[data-bar='undo']").click()
    _wait_done(live, done)


def _every_card(live: Any) -> tuple[int, int]:
    """Open every card the reader can reach: its menu must be its `card_actions` with each
    verdict shown; choose each available entry through its pickers (done, then undone: the
    board as it was) and each unavailable one (refused by the rule shown). (chosen,
    refused)."""
    start = _state(live)
    board = start["board"]
    ids = _card_ids(live)
    assert ids
    chosen = refused = 0
    for cid in ids:
        entries = start["card_actions"].get(cid, [])
        menu = _open(live, cid)
        shown = _shown(menu)
        assert [s["label"] for s in shown] == [e["label"] for e in entries]
        for s, e in zip(shown, entries, strict=True):
            assert s["disabled"] == (not e["legal"])
            if not e["legal"]:
                assert e["reason"] in s["text"] and f"CR {e['rule']}" in s["text"]
                # its reason is in its accessible name (mana said in words there)
                name = re.compile(re.escape(e["reason"].split("{")[0][:40]))
                assert menu.get_by_role("menuitem", name=name).count() >= 1
        for i, e in enumerate(entries):
            if i:
                menu = _open(live, cid)
            last = _choose(live, menu, i)
            if e["legal"]:
                assert last["kind"] == "done", (e, last)
                chosen += 1
                _undo(live)
                assert _state(live)["board"] == board, "undo did not restore the board"
            else:  # tried anyway: refused by the rule its verdict showed, nothing changed
                assert last["kind"] == "refused" and last["rule"] == e["rule"], (e, last)
                assert _state(live)["board"] == board
                refused += 1
            if not live.root.locator(".rk-actions").is_hidden():
                _close(live)
        if live.root.locator(".rk-actions").is_visible():
            _close(live)
    return chosen, refused


def test_the_verdict_lessons_have_sandboxes() -> None:
    assert set(VERDICT_LESSONS) <= set(LESSONS), (VERDICT_LESSONS, LESSONS)


@pytest.mark.parametrize("prefix", VERDICT_LESSONS)
def test_every_cards_verdicts_are_what_choosing_them_does(small_site, browser,
                                                          prefix: str) -> None:
    """In the sandbox of the lessons of `VERDICT_LESSONS` (one page per lesson)."""
    visit, live = _live(browser, small_site, prefix)
    try:
        chosen, refused = _every_card(live)
        if not chosen:  # a combat lesson: its cards act in the declare attackers step
            for _ in range(2):
                done = live.root.get_attribute("data-done") or "0"
                live.root.locator(".rk-time-bar button[data-bar='step']").click()
                _wait_done(live, done)
            assert _state(live)["last"]["kind"] == "done"
            chosen, more = _every_card(live)
            refused += more
        assert chosen >= 1 and chosen + refused >= 2, (chosen, refused)
        assert visit.outside == [] and visit.console_errors == [], visit.console_errors
    finally:
        visit.page.close()


@pytest.mark.parametrize("prefix", sorted(SANDBOXES))
def test_every_challenge_is_solved_by_clicking_on_the_board(small_site, browser,
                                                            prefix: str) -> None:
    """Each challenge of the lesson: started from its button, its mistake clicked on the board
    shows the hint; started again, its reference solution clicked on the board solves it: ✓,
    with its deciding rule, beside the message and in the list; the progress is kept in
    localStorage and shows after a reload."""
    sandbox = SANDBOXES[prefix]
    visit, live = _live(browser, small_site, prefix)
    try:
        ui = _ui(live)
        for c in sandbox.challenges:
            ui.challenge(c.id)
            assert _state(live)["board"] == board_html(ui.mirror)  # the page and its mirror
            assert c.say in ui.words(".rk-ch-now")
            for click in c.mistake:
                ui.play(click, c.labels)
            now = ui.words(".rk-ch-now")
            assert "Not this time" in now and ("Hint: " + c.hint) in now, (c.id, now)
            ui.challenge(c.id)  # start again: its own board
            for click in c.solution:
                ui.play(click, c.labels)
            now = ui.words(".rk-ch-now")
            assert "✓ Solved." in now and f"CR {c.rule}" in now, (c.id, now)
            assert _state(live)["board"] == board_html(ui.mirror)
            mark = live.root.locator(f".rk-ch[data-id='{c.id}'] .rk-ch-mark").inner_text()
            assert mark == "✓", (c.id, mark)
        kept = visit.page.evaluate("() => Object.entries(localStorage).filter(([k]) => "
                                   "k.startsWith('rulekit:challenges:')).map(([, v]) => v)")
        assert json.loads(kept[0]) == {c.id: "solved" for c in sandbox.challenges}
        visit.page.reload()
        live.root.wait_for(state="attached")
        count = live.root.locator(".rk-ch-count").inner_text()
        assert count == f"({len(sandbox.challenges)} of {len(sandbox.challenges)} solved)"
        assert visit.outside == [] and visit.console_errors == [], visit.console_errors
    finally:
        visit.page.close()


def _lit(live: Any) -> list[str]:
    return live.root.locator(".rk-board .rk-card.rk-choosable").evaluate_all(
        "(cs) => cs.map((c) => c.dataset.id)")


def test_a_target_is_picked_by_clicking_a_card(small_site, browser) -> None:
    """Lesson 07: Kiki-Jiki's own menu offers its copy; choosing it lights up the creatures it
    may copy and dims the rest, each saying why (Kiki-Jiki itself: legendary); a dimmed card
    says why and changes nothing; Escape cancels; by the keyboard alone the same: Enter opens,
    Enter chooses, focus goes to the first lit card, whose name says it can be chosen. The
    copy goes on the stack; Space resolves it from the bar; Z undoes."""
    visit, live = _live(browser, small_site, "07")
    try:
        page = visit.page
        ui = _ui(live)
        g = ui.mirror.game
        kiki = str(g.find("Kiki-Jiki, Mirror Breaker").id)
        goose = str(g.find("Gilded Goose").id)
        copy = "Activate: {T}: Create a token that's a copy of target nonlegendary creature " \
               "you control, except it has haste. Sacrifice it at the beginning of the next " \
               "end step."
        menu = ui.open(kiki)
        assert "Create a token that's a copy" in ui.words(".rk-card-zoom")  # the card large
        ui.entry(menu, copy).click()
        bar = live.root.locator(".rk-choosing-bar")
        bar.wait_for(state="visible")
        assert ui.words(".rk-choose-title").startswith(
            "Choose the target of Kiki-Jiki, Mirror Breaker's ability")
        legal = {str(i) for i in _state(live)["card_actions"][kiki][0]["choose"][0]["legal"]}
        assert set(_lit(live)) == legal and kiki not in legal and goose in legal
        dimmed = live.root.locator(".rk-board .rk-card.rk-dimmed").count()
        assert dimmed == len(_card_ids(live)) - len(legal)
        said = live.root.locator(f".rk-card[data-id='{kiki}'] .rk-card-open .rk-sr-only")
        assert "can't be chosen" in said.inner_text() and "CR 115.1" in said.inner_text()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        before = ui.done()
        ui.card(kiki).click()  # dimmed: it says why, nothing is sent
        assert "not a legal target" in ui.words(".rk-choose-why")
        assert ui.done() == before and bar.is_visible()
        page.keyboard.press("Escape")
        bar.wait_for(state="hidden")
        assert page.evaluate(FOCUSED) == kiki and _lit(live) == []
        # the keyboard alone
        ui.card(kiki).focus()
        page.keyboard.press("Enter")
        menu.wait_for(state="visible")
        while ui.words(".rk-actions :focus .rk-action-label") != copy:
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        bar.wait_for(state="visible")
        focused = page.evaluate(FOCUSED)
        assert focused in legal and "can be chosen" in page.evaluate(
            "() => document.activeElement.textContent")
        while page.evaluate(FOCUSED) != goose:
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        ui.wait(before)
        assert "On the stack now: Kiki-Jiki, Mirror Breaker's ability" in live.message()
        assert not bar.is_visible()
        before = ui.done()
        ui.card(kiki).focus()
        page.keyboard.press(" ")  # Space: the bar's Resolve
        ui.wait(before)
        assert live.message().startswith("Done: All players pass: Kiki-Jiki")
        assert "Gilded Goose token" in live.message()
        before = ui.done()
        page.keyboard.press("z")
        ui.wait(before)
        assert live.message().startswith("Undone:")
        assert visit.outside == [] and visit.console_errors == [], visit.console_errors
    finally:
        visit.page.close()


def test_pass_resolve_next_step_and_turn_from_the_bar(small_site, browser) -> None:
    """Lesson 08: each button of the time bar says what it will do now and does it; an
    unavailable one says why before the click (and is refused with it if clicked)."""
    visit, live = _live(browser, small_site, "08")
    try:
        ui = _ui(live)

        def labels() -> list[str]:
            return live.root.locator(".rk-time-bar .rk-bar-label").evaluate_all(
                "(ls) => ls.map((l) => l.textContent)")

        assert labels() == ["Undo", "Pass to Bob", "Next step: beginning of combat step",
                            "Next turn: Bob's turn 7"]
        assert "nothing to undo" in ui.words(".rk-time-bar button[data-bar='undo']")
        for click, now in (({"bar": "step"}, "Next step: declare attackers step"),
                           ({"bar": "step"}, "Next step: end of combat step")):
            ui.play(click, {})
            assert labels()[2] == now, labels()
        initiate = ui.mirror.game.find("Glory-Bound Initiate").id
        ui.play({"card": "initiate", "do": "Attack and exert"}, {"initiate": initiate})
        assert labels()[1] == "Resolve Glory-Bound Initiate's 'when you do' ability"
        ui.play({"bar": "resolve"}, {})
        assert "gets +1/+3 until end of turn" in live.message()
        ui.play({"bar": "turn"}, {})
        assert "Now: turn 7, Bob's precombat main phase" in live.message()
        assert labels()[3] == "Next turn: Alice's turn 8"
        assert live.root.locator(".rk-board").is_visible()  # the board stays in view
        box = live.root.locator(".rk-time-bar").bounding_box()
        assert box is not None and 0 <= box["y"] <= 768
    finally:
        visit.page.close()


def test_free_play_adds_a_card_sets_the_turn_and_starts_again(small_site, browser) -> None:
    """Free play in the page: a misspelt name finds the card (did you mean), the card goes
    onto Bob's battlefield, the turn and step are set, and "Start again" gives the board the
    sandbox was given; all by the keyboard-usable, labelled controls."""
    visit, live = _live(browser, small_site, "01")
    try:
        page = visit.page
        given = _state(live)["board"]
        free = live.root.locator("details.rk-free-play")
        free.locator("summary").click()
        box = free.get_by_label("Find a card by name")
        box.fill("lanowar elfs")
        found = free.locator(".rk-fp-found")
        page.wait_for_function("(e) => e.textContent.includes('Did you mean')",
                               arg=found.element_handle())
        assert "Llanowar Elves" in found.inner_text()
        box.press("Enter")  # to the results
        assert page.evaluate("() => document.activeElement.id").endswith("-fp-card")
        assert free.get_by_label("Card", exact=True).input_value() == "Llanowar Elves"
        free.get_by_label("Whose", exact=True).select_option("Bob")

        def press(name: str) -> dict[str, Any]:
            done = live.root.get_attribute("data-done") or "0"
            free.get_by_role("button", name=name).click()
            _wait_done(live, done)
            return _state(live)

        state = press("Add the card")
        assert state["last"]["kind"] == "done", state["last"]
        assert "Llanowar Elves into Bob's battlefield" in state["last"]["text"]
        bob = live.root.locator(".rk-board .rk-side[data-player='Bob'] .rk-card")
        assert bob.filter(has_text="Llanowar Elves").count() == 1
        free.get_by_label("Turn", exact=True).fill("7")
        free.get_by_label("Step", exact=True).select_option("upkeep")
        state = press("Set the turn")
        assert state["last"]["kind"] == "done", state["last"]
        assert state["free_play"]["turn"] == 7 and state["free_play"]["step"] == "upkeep"
        assert "Turn 7" in live.root.locator(".rk-board .rk-turnline").inner_text()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        free.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "free-play-1366x768.png"))
        state = press("Start again")
        assert state["last"]["kind"] == "undone" and state["board"] == given
        assert visit.outside == [] and visit.console_errors == [], visit.console_errors
        free.locator("summary").scroll_into_view_if_needed()
        found_axe = axe(page, within=".rk-sb")  # (axe's own requests log console errors)
        assert found_axe == {}, found_axe
    finally:
        visit.page.close()


def test_a_decision_through_the_picker(small_site, browser) -> None:
    """Lesson 02's {B}{B} challenge: tapping the Forest asks which replacement effect applies
    first (CR 616.1): the picker's heading asks it in plain words, says who chooses and why, and
    offers each effect; the answer chosen is the one made."""
    visit, live = _live(browser, small_site, "02")
    try:
        ui = _ui(live)
        ui.challenge("black-black-from-one-forest")
        forest = ui.mirror.game.find("Forest").id
        before = ui.done()
        ui.entry(ui.open(forest), "Tap for {G}").click()
        picker = live.root.locator(".rk-actions.rk-picker")
        picker.wait_for(state="visible")
        assert ui.words(".rk-actions-title") == "Which replacement effect applies first?"
        assert "(CR 616.1)" in picker.locator(".rk-picker-who").inner_text()
        assert picker.locator(".rk-choice").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.value)") == ['"Contamination"', '"Mana Reflection"']
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        visit.page.screenshot(path=str(ARTIFACTS / "picker-1366x768.png"))
        picker.locator(".rk-choice[data-value='\"Contamination\"']").click()
        ui.wait(before)
        assert "Alice's pool: {B}{B}" in live.message()
        assert "✓ Solved." in ui.words(".rk-ch-now")
    finally:
        visit.page.close()


def test_the_keyboard_works_the_board(small_site, browser) -> None:
    visit, live = _live(browser, small_site, "01")
    try:
        page = visit.page
        ids = _card_ids(live)
        assert len(ids) >= 2
        first = live.root.locator(".rk-board .rk-card[data-id] .rk-card-open").first
        first.focus()
        page.keyboard.press("ArrowRight")
        assert page.evaluate(FOCUSED) == ids[1]
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(FOCUSED) == ids[0]
        page.keyboard.press("Enter")
        menu = live.root.locator(".rk-actions")
        menu.wait_for(state="visible")
        assert page.evaluate("() => document.activeElement.getAttribute('role')") == "menuitem"
        page.keyboard.press("ArrowDown")
        assert page.evaluate("() => document.activeElement.getAttribute('role')") == "menuitem"
        page.keyboard.press("Escape")
        menu.wait_for(state="hidden")
        assert page.evaluate(FOCUSED) == ids[0]
        # Enter on an available entry makes the click; focus comes back to the board
        state = _state(live)
        legal = [(cid, i) for cid in ids for i, e in enumerate(state["card_actions"].get(cid, []))
                 if e["legal"] and not e["asks"] and not e["choose"]]
        cid, i = legal[0]
        card = live.root.locator(f".rk-board .rk-card[data-id='{cid}'] .rk-card-open").first
        card.focus()
        page.keyboard.press("Enter")
        menu.wait_for(state="visible")
        for _ in range(i):
            page.keyboard.press("ArrowDown")
        done = live.root.get_attribute("data-done") or "0"
        page.keyboard.press("Enter")
        _wait_done(live, done)
        assert _state(live)["last"]["kind"] == "done"
        assert page.evaluate("() => !!document.activeElement.closest('.rk-board')"), \
            page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
        done = live.root.get_attribute("data-done") or "0"
        page.keyboard.press("z")  # Z: undo, from the board
        _wait_done(live, done)
        assert _state(live)["last"]["kind"] == "undone"
    finally:
        visit.page.close()


@pytest.mark.parametrize("width, height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_screenshots_and_axe(small_site, browser, width: int, height: int) -> None:
    """A target being chosen (lesson 07) and a challenge solved (lesson 03): no axe violation,
    no sideways scroll, a screenshot of each."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    visit, live = _live(browser, small_site, "07", viewport=(width, height))
    try:
        ui = _ui(live)
        kiki = ui.mirror.game.find("Kiki-Jiki, Mirror Breaker").id
        ui.open(kiki).locator(".rk-action", has_text="Create a token").first.click()
        live.root.locator(".rk-choosing-bar").wait_for(state="visible")
        found = axe(visit.page, within=".rk-sb")
        assert found == {}, found
        visit.page.screenshot(path=str(ARTIFACTS / f"target-{width}x{height}.png"))
        _no_sideways_scroll(visit.page, width)
    finally:
        visit.page.close()
    visit, live = _live(browser, small_site, "03", viewport=(width, height))
    try:
        ui = _ui(live)
        c = SANDBOXES["03"].challenges[0]
        ui.challenge(c.id)
        for click in c.solution:
            ui.play(click, c.labels)
        now = live.root.locator(".rk-ch-now")
        assert "✓ Solved." in now.inner_text()
        now.scroll_into_view_if_needed()
        found = axe(visit.page, within=".rk-sb")
        assert found == {}, found
        visit.page.screenshot(path=str(ARTIFACTS / f"solved-{width}x{height}.png"))
        _no_sideways_scroll(visit.page, width)
    finally:
        visit.page.close()


def _no_sideways_scroll(page: Any, width: int) -> None:
    scroll = page.evaluate("() => [document.documentElement.scrollWidth, "
                           "document.documentElement.clientWidth]")
    assert scroll[0] <= scroll[1], f"sideways scrolling at {width}px: {scroll}"


def test_save_as_walkthrough_downloads_it(small_site, browser) -> None:
    visit, live = _live(browser, small_site, "01")
    try:
        state = _state(live)
        cid, i = next((c, i) for c, es in state["card_actions"].items()
                      for i, e in enumerate(es) if e["legal"] and not e["asks"]
                      and not e["choose"])
        _choose(live, _open(live, cid), i)
        with visit.page.expect_download() as info:
            live.root.get_by_role("button", name="Save as walkthrough").click()
        download = info.value
        text = Path(download.path()).read_text("utf-8")
        assert download.suggested_filename.endswith("-walkthrough.toml")
        assert tomllib.loads(text)["step"], text[:400]  # the click made, as a step
        assert "Downloaded as" in live.root.locator(".rk-saved").inner_text()
    finally:
        visit.page.close()


@pytest.mark.parametrize("width, height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_walkthrough_frames_draw_their_board(small_site, browser, width: int,
                                             height: int) -> None:
    """A walkthrough's frames carry their board as shared parts (`board_parts`); the stepper
    joins them: each frame shows its `section.rk-board` (what the step changed outlined) with
    the tables one toggle away, no sideways scroll; a screenshot per size."""
    from mtg_rulekit.export.browser import open_page

    (path,) = sorted(small_site.glob("07_*.html"))
    visit = open_page(browser, path, small_site, viewport=(width, height))
    try:
        page = visit.page
        stepper = page.locator(".rk-stepper").first
        stepper.scroll_into_view_if_needed()
        nxt = stepper.get_by_role("button", name="Next").first
        nxt.click()
        board = stepper.locator(".rk-board-box .rk-board")
        board.wait_for(state="visible")
        assert board.count() == 1 and stepper.locator(".rk-board .rk-card").count() >= 1
        assert stepper.locator(".rk-board .rk-changed").count() >= 1  # what step 1 changed
        assert stepper.locator("details.rk-tables > summary").inner_text() == \
            "The board as a table"
        nxt.click()  # the next frame's board replaces it
        assert stepper.locator(".rk-board-box .rk-board").count() == 1
        found = axe(page, within=".rk-stepper")
        assert found == {}, found
        scroll = page.evaluate("() => [document.documentElement.scrollWidth, "
                               "document.documentElement.clientWidth]")
        assert scroll[0] <= scroll[1], f"sideways scrolling at {width}px: {scroll}"
        board.first.scroll_into_view_if_needed()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"frame-board-{width}x{height}.png"))
    finally:
        visit.page.close()
