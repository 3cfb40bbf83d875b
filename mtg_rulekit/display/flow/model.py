"""The layout model of a flow diagram: which events are drawn in which group (a player action
or a scenario step), which event stands under which, and what folds. Plain data from the
causal log; the drawer (`mtg_rulekit.display.flow.draw`) turns it into DOT.

Folding keeps lesson-scale pictures readable: sibling events with the same shape (same kind, cause,
payload once names and object ids are left out (`mtg_rulekit.core.payloads.shape`), same replacement effects and the same shape of
consequences, recursively) are drawn twice and then once more as "× N more like this"; runs of
consecutive identical player actions fold the same way; steps that pass with nothing happening
fold into one "time passes" node; priority passes and set-up actions are not drawn as events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtg_rulekit.core.events import Cause, Event, EventKind, EventLog
from mtg_rulekit.core.payloads import Action, Declared, Drew, ZoneChanged, shape, stack_item
from mtg_rulekit.display.flow.grammar import BOOKKEEPING, FOLD_AT, KEEP, RESOLVING
from mtg_rulekit.display.flow.words import (
    empty_step_note,
    step_get,
    step_label,
)

if TYPE_CHECKING:
    from mtg_rulekit.game import Game
    from mtg_rulekit.scenario import Scenario

__all__ = ["Group", "Model", "action_numbers", "layout", "scenario_groups"]


@dataclass
class Group:
    """One cluster: a player action, or a scenario step (several actions, or none)."""

    key: str
    label: str
    actions: list[int]
    setup: bool = False
    empty_note: str = ""
    folded: int = 0  # a fold cluster: this many actions like the previous ones
    span: str = ""  # their numbers, "4–1001"
    narration: str = ""  # a scenario step's narration: its tooltip, never its title


@dataclass
class Model:
    log: EventLog
    game: Any = None
    window: dict[int, Event] = field(default_factory=dict)
    children: dict[int, list[int]] = field(default_factory=dict)
    rep: dict[int, str] = field(default_factory=dict)  # event id -> node that stands for it
    hidden: set[int] = field(default_factory=set)
    sig: dict[int, int] = field(default_factory=dict)
    quiet: set[int] = field(default_factory=set)  # only the turn structure moving on below
    by_action: dict[int, list[Event]] = field(default_factory=dict)
    # per action, its events caused by an event of another action (or by nothing)
    late: dict[int, list[int]] = field(default_factory=dict)
    sig_ids: dict[tuple[Any, ...], int] = field(default_factory=dict)
    # stack objects that resolve in the picture, their resolutions and the events above them:
    # drawn in full, so every "resolves" arrow leaves the box of what went on the stack
    keep: set[int] = field(default_factory=set)


def action_numbers(log: EventLog) -> list[int]:
    """The numbers of the player actions in `log`, in order."""
    return [e.action for e in log if e.kind is EventKind.ACTION and e.parent is None]


def is_setup_root(event: Event) -> bool:
    return isinstance(event.payload, Action) and event.payload.setup


def scenario_groups(scenario: Scenario, last: int) -> tuple[Game, list[Group]]:
    """(the game after step `last`, one group per step 0..last: which of its actions each
    step did, labelled with the step's narration). The played results' recorded actions say
    which step did what, without replaying every step."""
    from mtg_rulekit.scenario.runner import game_at, play

    steps: Sequence[Any] = list(scenario.steps)
    played = play(scenario)[:last + 1]
    counts = [len(r.actions) for r in played]
    errors: list[Any] = [r.error for r in played]
    final = game_at(scenario, last)
    # which step did each action of the final game (undo takes actions back, so later wins)
    owner: dict[int, int] = {n: 0 for n in range(1, counts[0] + 1)}
    for k in range(1, last + 1):
        before, after = counts[k - 1], counts[k]
        for n in range(before + 1, after + 1):
            owner[n] = k
    groups: list[Group] = []
    for k in range(last + 1):
        actions = [n for n in range(1, len(final.actions) + 1) if owner.get(n) == k]
        if k == 0:
            groups.append(Group(f"s{k}", "Set-up", actions, setup=True))
            continue
        step = steps[k - 1]
        narration = " ".join(str(step_get(step, "narration", "") or "").split())
        refused = errors[k] if errors[k] is not None else step_get(step, "expect_error")
        groups.append(Group(f"s{k}", step_title(k, final.log, actions, refused), actions,
                            empty_note=empty_step_note(step, errors[k]), narration=narration))
    return final, groups


def step_title(k: int, log: EventLog, actions: list[int], refused: Any = None) -> str:
    """A step's cluster title: "Step 3 · turn 4, declare attackers step" (when and where it
    acted), "Step 4 · refused" or "Step 5"; never its narration, which the page shows above
    the diagram (the narration is the cluster's tooltip)."""
    if refused:
        return f"Step {k} · refused"
    roots = [e for e in log if e.parent is None and e.kind is EventKind.ACTION
             and e.action in actions]
    if not roots:
        return f"Step {k}"
    return f"Step {k} · turn {roots[0].turn}, {step_label(roots[0].step)}"


def layout(log: EventLog, *, game: Any = None, since_action: int | None = None,
           upto_action: int | None = None, groups: list[Group] | None = None
           ) -> tuple[Model, list[Group], dict[int, Event], set[int]]:
    """The model of the events of `groups` (by default one group per action from
    `since_action` to `upto_action`, runs of same-shape actions folded): (the model, the
    groups, each action's root event by number, the set-up actions)."""
    model = Model(log=log, game=game)
    roots = {e.action: e for e in log if e.kind is EventKind.ACTION and e.parent is None}
    fold_actions = groups is None
    if groups is None:
        numbers = [n for n in sorted(roots)
                   if (since_action is None or n >= since_action)
                   and (upto_action is None or n <= upto_action)]
        groups = _action_groups(numbers, roots)
    in_window = {n for g in groups for n in g.actions}
    model.window = {e.id: e for e in log if e.action in in_window}
    setup_actions = {n for n in in_window if n in roots and is_setup_root(roots[n])}
    for e in model.window.values():
        model.by_action.setdefault(e.action, []).append(e)
        if e.kind is EventKind.PRIORITY:
            model.hidden.add(e.id)
        elif e.parent is not None and e.parent in model.window \
                and model.window[e.parent].action == e.action:
            model.children.setdefault(e.parent, []).append(e.id)
        elif e.kind is not EventKind.ACTION or e.parent is not None:
            model.late.setdefault(e.action, []).append(e.id)
    _signatures(model)
    _keep_resolutions(model)
    if fold_actions:
        groups = _fold_actions(model, groups, roots)
    return model, groups, roots, setup_actions


def _action_groups(numbers: list[int], roots: dict[int, Event]) -> list[Group]:
    groups: list[Group] = []
    for n in numbers:
        root = roots[n]
        if is_setup_root(root):
            if groups and groups[-1].setup:
                groups[-1].actions.append(n)
            else:
                groups.append(Group(f"a{n}", "Set-up", [n], setup=True))
            continue
        where = f"turn {root.turn}, {step_label(root.step)}"
        groups.append(Group(f"a{n}", f"Action {n} · {where}", [n]))
    return groups


def _signatures(model: Model) -> None:
    """Bottom-up shape of every event's subtree, as a small int (same int = same shape)."""
    for eid in sorted(model.window, reverse=True):
        if eid in model.hidden:
            continue
        e = model.window[eid]
        kids = Counter(model.sig[c] for c in model.children.get(eid, ()) if c in model.sig)
        key = (
            e.kind.value, e.cause.value, shape(e.payload),
            tuple((a.effect, a.outcome) for a in e.applied),
            tuple(sorted(kids.items())),
        )
        model.sig[eid] = model.sig_ids.setdefault(key, len(model.sig_ids))
        if (e.kind in BOOKKEEPING or _no_attackers(e) or _turn_draw(e)) and all(
                c in model.quiet for c in model.children.get(eid, ()) if c not in model.hidden):
            model.quiet.add(eid)


def _keep_resolutions(model: Model) -> None:
    origins: dict[Any, int] = {}
    for e in model.window.values():
        item = stack_item(e.payload)
        if e.kind in (EventKind.PUT_ON_STACK, EventKind.ACTIVATED, EventKind.CAST) \
                and item is not None:
            origins.setdefault(item, e.id)
    for e in model.window.values():
        origin = origins.get(stack_item(e.payload)) if e.kind in RESOLVING else None
        if origin is None:
            continue
        model.keep.add(e.id)
        eid: int | None = origin
        while eid is not None and eid in model.window and eid not in model.keep:
            model.keep.add(eid)
            eid = model.window[eid].parent


def _turn_draw(e: Event) -> bool:
    """The draw step's draw (CR 504.1), or a draw from an empty library: part of time passing,
    like the step it happens in."""
    if isinstance(e.payload, Drew) and e.payload.empty:
        return True
    return (isinstance(e.payload, ZoneChanged) and e.cause is Cause.TURN
            and e.payload.reason == "draw")


def _no_attackers(e: Event) -> bool:
    """The declare attackers step passing with no attackers: part of time passing."""
    return isinstance(e.payload, Declared) and e.payload.declared == "attackers" \
        and e.payload.count == 0


def _fold_actions(model: Model, groups: list[Group], roots: dict[int, Event]) -> list[Group]:
    """Runs of FOLD_AT or more consecutive actions of the same shape: keep KEEP, fold the rest."""
    out: list[Group] = []
    i = 0
    while i < len(groups):
        g = groups[i]
        j = i + 1
        if not g.setup and len(g.actions) == 1:
            sig = model.sig.get(roots[g.actions[0]].id)
            while (j < len(groups) and not groups[j].setup and len(groups[j].actions) == 1
                   and model.sig.get(roots[groups[j].actions[0]].id) == sig):
                j += 1
        run = groups[i:j]
        if len(run) >= FOLD_AT:
            out += run[:KEEP]
            rest = run[KEEP:]
            actions = [n for r in rest for n in r.actions]
            span = f"{actions[0]}–{actions[-1]}"
            out.append(Group(f"f{actions[0]}", f"Actions {span}", actions, folded=len(rest),
                             span=span))
        else:
            out += run
        i = j
    return out
