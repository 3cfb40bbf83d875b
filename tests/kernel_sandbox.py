"""The lesson's sandbox in a kernel host (JupyterLab, Notebook 7): the one sandbox module
(mtg_rulekit/display/front/sandbox.js) answered by the lesson's kernel, played as a student plays
it, by clicking on the board (`tests/sandbox_ui.py`): every card's menu shows the engine's
verdicts; every challenge is solved by its reference solution after its mistake showed the
hint (targets picked on the board, the time bar passing and resolving); Z undoes and Space
passes from the keyboard. The engine's side is the lesson's sandbox file run here with the
pure `SandboxModel` (a mirror, clicked in step). Used by tests/test_jupyterlab.py and
tests/test_notebook7.py on a page where the lesson has run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["kernel_sandbox"]


def _menus(page: Any, sandbox: Any, truth: Any) -> list[str]:
    """Every card a reader can reach: its menu shows the engine's entries, each unavailable
    one disabled with its reason and rule, before any click."""
    from tests.sandbox_ui import WORDS_JS

    expected = {str(k): v for k, v in truth.card_actions().items()}
    ids = sandbox.locator(".rk-board .rk-card[data-id]").evaluate_all(
        "(cs) => cs.filter((c) => !c.closest('details:not([open])')).map((c) => c.dataset.id)")
    menu = sandbox.locator(".rk-actions")
    wrong: list[str] = []
    for cid in ids:
        entries = expected.get(cid, [])
        sandbox.locator(f".rk-board .rk-card[data-id='{cid}'] .rk-card-open").first.click()
        menu.wait_for(state="visible")
        shown = menu.locator(".rk-action:not(.rk-close)").evaluate_all(
            f"(bs) => bs.map((b) => ({{label: ({WORDS_JS})(b.querySelector('.rk-action-label')),"
            f" disabled: b.getAttribute('aria-disabled') === 'true', text: ({WORDS_JS})(b)}}))")
        if [x["label"] for x in shown] != [e["label"] for e in entries]:
            wrong.append(f"card {cid}: shows {[x['label'] for x in shown]}, the engine "
                         f"offers {[e['label'] for e in entries]}")
        else:
            for x, e in zip(shown, entries, strict=True):
                if x["disabled"] == e["legal"] or (not e["legal"] and (
                        e["reason"] not in x["text"] or f"CR {e['rule']}" not in x["text"])):
                    wrong.append(f"card {cid} {e['label']!r}: shown {x['text']!r:.160}")
        page.keyboard.press("Escape")
        menu.wait_for(state="hidden")
    return wrong


def _challenges(page: Any, sandbox: Any, stem: str) -> tuple[int, list[str]]:
    """Every challenge: its mistake shows the hint, its solution solves it (✓ and its rule),
    the kernel's board the mirror's after each; then Z and Space work."""
    from mtg_rulekit.sandbox import lessons
    from mtg_rulekit.sandbox.view import board_html
    from tests.board_games import sandbox as lesson_model
    from tests.board_games import sandbox_name
    from tests.sandbox_ui import SandboxUI

    name = sandbox_name(stem)
    assert name is not None
    try:
        challenges = lessons.load(lessons.find(name)).challenges
    except FileNotFoundError:  # a scenario's set-up (a new lesson's): no challenges
        challenges = ()
    ui = SandboxUI(page, sandbox, lesson_model(stem))
    box = sandbox.locator(".rk-board-box")
    wrong: list[str] = []
    for c in challenges:
        ui.challenge(c.id)
        for click in c.mistake:
            ui.play(click, c.labels)
        now = ui.words(".rk-ch-now")
        if "Hint: " + c.hint not in now:
            wrong.append(f"challenge {c.id}: after its mistake, {now!r:.200}")
        ui.challenge(c.id)
        for click in c.solution:
            ui.play(click, c.labels)
        now = ui.words(".rk-ch-now")
        if "✓ Solved." not in now or f"CR {c.rule}" not in now:
            wrong.append(f"challenge {c.id}: after its solution, {now!r:.200}")
        if box.get_attribute("data-html") != board_html(ui.mirror):
            wrong.append(f"challenge {c.id}: the kernel's board is not the engine's")
    # the keyboard: Z undoes the last click, Space passes (or resolves)
    sandbox.locator(".rk-board .rk-card-open").first.focus()
    for key, said in (("z", "Undone:"), (" ", "Done:")):
        before = ui.done()
        page.keyboard.press(key)
        try:
            ui.wait(before)
        except Exception:  # noqa: BLE001  (said below, with where the focus was)
            wrong.append(f"key {key!r} did nothing; focus on " + page.evaluate(
                "() => document.activeElement.outerHTML.slice(0, 160)"))
            continue
        message = ui.words(".rk-message")
        if not message.startswith(said):
            wrong.append(f"key {key!r}: {message!r:.160}")
    return len(challenges), wrong


def kernel_sandbox(page: Any, stem: str, artifacts: Path) -> list[str]:
    """Lesson `stem`'s sandbox in the kernel host, played by clicking (see above); a
    screenshot in `artifacts`. What went wrong, if anything."""
    from tests.board_games import sandbox as lesson_model
    from tests.board_games import sandbox_name

    sandbox = page.locator(".jp-NotebookPanel .rk-sandbox").first
    if sandbox_name(stem) is None:
        return [] if sandbox.count() == 0 else [f"{stem}: a sandbox the test can't read"]
    sandbox.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    sandbox.locator(".rk-board .rk-card").first.wait_for(state="visible", timeout=60_000)
    wrong = _menus(page, sandbox, lesson_model(stem))
    solved, more = _challenges(page, sandbox, stem)
    wrong += more
    sandbox.locator(".rk-ch-now").evaluate("(e) => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(200)
    page.screenshot(path=str(artifacts / f"{stem}-sandbox-challenges.png"))
    if solved < 2:
        wrong.append(f"{stem}: only {solved} challenges")
    print(f"{stem}: kernel sandbox, {solved} challenges played")
    return [f"{stem} sandbox {w}" for w in wrong]
