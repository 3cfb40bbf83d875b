"""Playing a sandbox in a browser as a student does, by clicking on the board: a card's menu
entry by its words, then each picker it opens (which mana and X from a list, a target or a
cost's permanent by clicking the lit card or player, several permanents then the confirm
button), a button of the time bar, a challenge's "Try it". The same sandbox module runs in an
exported page and in JupyterLab, so one driver serves both (`tests/test_sandbox_board_browser.py`,
`tests/test_jupyterlab.py`).

Each click is first made on a CPython `SandboxModel` on the same board (a mirror: the engine is
deterministic), which names the objects the click's labels mean now and answers the decisions
the browser then asks the same way.
"""

from __future__ import annotations

import json
from typing import Any

from mtg_rulekit.sandbox import lessons

__all__ = ["SandboxUI", "WORDS_JS"]

# an element's words, each mana symbol read back as written ("{G}"), the spoken words left out
WORDS_JS = """(e) => { const c = e.cloneNode(true);
  c.querySelectorAll('.rk-sr, .rk-sr-only').forEach((s) => s.remove());
  c.querySelectorAll('svg.rk-sym').forEach((s) => s.replaceWith('{' + (Array.from(
    s.classList).find((k) => k.startsWith('rk-sym-')) || 'rk-sym-?').slice(7).toUpperCase()
    + '}'));
  return c.textContent.replace(/\\s+/g, ' ').trim(); }"""


class SandboxUI:
    """One sandbox on a page (`root`: its `.rk-sb`), clicked like a student, with `mirror` (a
    `SandboxModel` on the same board) kept in step."""

    def __init__(self, page: Any, root: Any, mirror: Any, timeout_ms: int = 60_000) -> None:
        self.page = page
        self.root = root
        self.mirror = mirror
        self.timeout = timeout_ms

    # ------------------------------------------------------------ waiting
    def done(self) -> str:
        return self.root.get_attribute("data-done") or "0"

    def wait(self, before: str) -> None:
        """Until the click answered (`data-done` moved on, no longer busy)."""
        self.page.wait_for_function(
            "([r, n]) => (r.dataset.done || '0') !== n && !r.hasAttribute('aria-busy')",
            arg=[self.root.element_handle(), before], timeout=self.timeout)

    def _next(self, before: str) -> str:
        """Wait until the click is answered or asks something: "done", "list", "board"."""
        return self.page.wait_for_function(
            """([r, n]) => {
              if ((r.dataset.done || '0') !== n && !r.hasAttribute('aria-busy')) return 'done';
              const picker = r.querySelector('.rk-actions.rk-picker:not([hidden])');
              if (picker) return 'list';
              const bar = r.querySelector('.rk-choosing-bar:not([hidden])');
              if (bar) return 'board';
              return false; }""", arg=[self.root.element_handle(), before],
            timeout=self.timeout).json_value()

    # ------------------------------------------------------------ what is shown
    def words(self, selector: str) -> str:
        return self.root.locator(selector).first.evaluate(WORDS_JS)

    def card(self, cid: int | str) -> Any:
        return self.root.locator(f".rk-board .rk-card[data-id='{cid}'] .rk-card-open").first

    def open(self, cid: int | str) -> Any:
        self.card(cid).click()
        menu = self.root.locator(".rk-actions")
        menu.wait_for(state="visible", timeout=self.timeout)
        return menu

    def entry(self, menu: Any, words: str) -> Any:
        """The menu entry whose label reads `words` (mana written as {G})."""
        items = menu.locator(".rk-action:not(.rk-close)")
        for i in range(items.count()):
            label = items.nth(i).locator(".rk-action-label").evaluate(WORDS_JS)
            if label == words:
                return items.nth(i)
        shown = [items.nth(i).locator(".rk-action-label").evaluate(WORDS_JS)
                 for i in range(items.count())]
        raise AssertionError(f"no menu entry {words!r}: {shown}")

    # ------------------------------------------------------------ clicks
    def challenge(self, cid: str) -> None:
        """Start (or start again) a challenge with its button."""
        before = self.done()
        self.mirror.click("challenge", {"challenge": cid})
        self.root.locator(f".rk-challenges button[data-challenge='{cid}']").click()
        self.wait(before)

    def play(self, click: dict[str, Any], labels: dict[str, int]) -> Any:
        """One click of a challenge's list (`mtg_rulekit.sandbox.lessons.play_click`), on the
        mirror, then on the board; the mirror's outcome."""
        ids = {ref: lessons._named(self.mirror, labels, ref)
               for ref in [click.get("card"), click.get("target"), *click.get("targets", []),
                           *click.get("choices", {}).values()]
               if ref is not None and (ref in labels or ref in self.mirror.game.state.players)}
        g = self.mirror.game
        decided = len(g.decisions)
        outcome = lessons.play_click(self.mirror, click, labels)
        answers = list(g.decisions[decided:])
        before = self.done()
        if "bar" in click:
            self.root.locator(f".rk-time-bar button[data-bar='{click['bar']}']").click()
            self.wait(before)
            return outcome
        menu = self.open(ids[click["card"]])
        self.entry(menu, click["do"]).click(force=True)  # an unavailable one too: refused
        while (now := self._next(before)) != "done":
            where = ".rk-actions.rk-picker" if now == "list" else ".rk-choosing-bar"
            key, given = self.root.locator(where).evaluate(
                "(e) => [e.dataset.key, e.dataset.input === 'true']")
            if given:  # an input of the click: as the click gives it
                value: Any = (click["target"] and ids[click["target"]]) if key == "target" \
                    else click.get(key)
            else:  # a decision: as the mirror made it
                made = next(d for d in answers if d.key == key)
                answers.remove(made)
                value = _answer(made)
            if now == "list":
                self.root.locator(f".rk-actions.rk-picker .rk-choice[data-value="
                                  f"'{json.dumps(value)}']").click()
            elif key == "to_destroy":
                for ref in click.get("targets", []):
                    self.card(ids[ref]).click()
                self.root.locator(".rk-choosing-bar .rk-confirm").click()
            else:
                if isinstance(value, str) and value.startswith("#"):
                    value = int(value[1:])
                if isinstance(value, str):  # a player
                    self.root.locator(f".rk-side[data-player='{value}'] .rk-player-pick").click()
                else:
                    self.card(value).click()
        return outcome


def _answer(decision: Any) -> Any:
    """A decision's answer as the picker's options write it: an object as "#5"."""
    answer = decision.answer
    if isinstance(answer, int) and not isinstance(answer, bool) and decision.key in (
            "target", "copy", "legend_keep", "sacrifice", "crew", "encode", "discard"):
        return f"#{answer}"
    return answer
