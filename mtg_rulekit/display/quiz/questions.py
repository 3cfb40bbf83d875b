"""A class quiz: a lesson's checked questions, one a screen, for a projector.

The questions are the walkthroughs' own: each frame of a stepper's data (`StepFrames.data()`,
the traits a `Stepper` syncs and an exported page embeds) carries the question of the step after
it, with the engine's answer recorded when the lesson was built. `quiz_questions` only gathers
them, in order, and adds where each one sits: which walkthrough, the situation it is asked in
(the narration of the frame before the step) and a link back to that step. No second source:
the quiz can't say anything the walkthrough's frames don't.

>>> from mtg_rulekit.display.walkthrough.frames import StepFrames
>>> data = StepFrames("r05_replacement_modifies_production", diagram=False).data()
>>> [q["answer_label"] for q in quiz_questions([data], page="lesson.html")]
["{G}{G}{G}: only the Forest's own {G} is doubled"]
>>> quiz_questions([data], page="lesson.html")[0]["href"] == f"lesson.html#{data['slug']}/1"
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from mtg_rulekit.core.rules import rule_texts

__all__ = ["quiz_questions", "step_link"]

# what a quiz screen takes from a frame's `question` (mtg_rulekit.display.walkthrough.frames,
# `_question_data`)
_FIELDS = ("ask", "labels", "correct", "answer_label", "rule_texts", "why", "step")


def step_link(page: str, slug: str, step: int) -> str:
    """The address of step `step` of the walkthrough `slug` on `page` ("" for this page), in
    the one scheme every step link uses (`#<slug>/<step>`, docs/classroom.md): the walkthrough
    opens at that step, as it does for "Copy a link to this step" (`Stepper.step_link`)."""
    return f"{page}#{slug}/{step}"


def _slug(data: Mapping[str, Any]) -> str:
    """A walkthrough's name in a page's address: its `slug` (on an exported page, the view's
    id), else its `uid` without `rk-`."""
    return str(data.get("slug") or re.sub(r"^rk-", "", str(data.get("uid") or "")))


def quiz_questions(walkthroughs: Iterable[Mapping[str, Any]], *,
                   page: str | None = None) -> list[dict[str, Any]]:
    """Every question of `walkthroughs` (each a stepper's data: `title`, `uid`, `slug`, `frames`), in
    order, as the quiz module (mtg_rulekit/display/front/quiz.js) reads them: the question's own
    fields (`ask`, `labels`, `correct`, `answer_label`, `rule_texts`: the deciding rules,
    `why`, `step`), with `other_rule_texts` (the other rules the step's events cite, folded on
    reveal), `walkthrough` (its title), `uid`, `slug`, `situation` (the narration of the frame it is asked on),
    `label` (the step's, e.g. "Step 2 of 5") and `href` (the step in its walkthrough on `page`;
    "" when `page` is None: no page to link to)."""
    out: list[dict[str, Any]] = []
    for data in walkthroughs:
        frames = list(data.get("frames") or [])
        uid, title, slug = str(data.get("uid") or ""), str(data.get("title") or ""), _slug(data)
        for frame in frames:
            q = frame.get("question")
            if not q:
                continue
            step = int(q["step"])
            after = frames[step] if 0 <= step < len(frames) else {}
            item = {f: q[f] for f in _FIELDS if f in q}
            item["other_rule_texts"] = rule_texts(list(q.get("other_rules") or []))
            item.update(walkthrough=title, uid=uid, slug=slug,
                        situation=str(frame.get("narration", "")),
                        label=str(after.get("label", f"Step {step}")),
                        href="" if page is None or not slug else step_link(page, slug, step))
            out.append(item)
    return out
