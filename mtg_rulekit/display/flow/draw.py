"""The drawer: a flow model (`mtg_rulekit.display.flow.model`) drawn as a `FlowDiagram`, DOT text
with a readable title for every node, edge and cluster. Standard library only: Graphviz runs
only when the SVG is asked for (`FlowDiagram.svg()`, through `mtg_rulekit.display.svg`).

The steps of a turn are drawn one below the other, joined by "then", in the order they began.
A dashed outline means "did not happen like this": an event as first proposed, a permanent that
doesn't untap, mana that would have been added but wasn't. Every node shows its CR numbers on a
smaller line and has a tooltip (its SVG `<title>`). The legend lists only the roles the picture
uses.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from mtg_rulekit.core.events import Event, EventKind
from mtg_rulekit.core.payloads import stack_item
from mtg_rulekit.display.escape import dot_html, dot_text
from mtg_rulekit.display.flow.digraph import Digraph
from mtg_rulekit.display.flow.grammar import (
    BOOKKEEPING,
    CLUSTER_PT,
    EDGE_STYLE,
    FOLD_ALWAYS,
    FOLD_AT,
    FONT,
    KEEP,
    KEEP_STEP,
    LAYOUTS,
    LEGEND_ROW,
    ROLES,
    SHAPE_WORDS,
    SMALL_PT,
    TEXT_PT,
    TITLE_PT,
    WRAP_AT,
    StepLayout,
    did_not_happen,
    group_class,
    relation_of,
    role_of,
)
from mtg_rulekit.display.flow.model import Group, Model
from mtg_rulekit.display.flow.words import (
    OBJ_NO,
    OUTCOME_WORDS,
    WRAP,
    after_text,
    box_words,
    choices,
    copy_compared,
    explained,
    proposed_text,
    step_label,
    wrap,
    wrap_lines,
)
from mtg_rulekit.objects.narrator import (
    ability_in_full,
    setup_lines,
    time_passes_brief,
    time_passes_tooltip,
)

__all__ = ["FlowDiagram", "Node", "draw"]


class FlowDiagram(Digraph):
    """A diagram as DOT text (`.source`) that also knows a readable title for each node, edge
    and cluster (`.titles`), so its SVG is accessible (`svg()`, and what Jupyter shows)."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)
        self.titles: dict[str, str] = {}
        self.node_count = 0
        self.used: list[str] = []  # the legend roles its boxes use ("fold" for a fold)
        self.role_tags: dict[str, set[str]] = {}  # role -> the groups ("rk-s2") using it

    def svg(self) -> str:
        """The SVG text, with `<title>` elements readable by screen readers (runs Graphviz's
        `dot`; `mtg_rulekit.display.svg.GraphvizMissing` when it is not installed)."""
        from mtg_rulekit.display.svg import render_svg

        return render_svg(self)

    def _repr_image_svg_xml(self) -> str:
        return self.svg()

    def _repr_mimebundle_(self, include: Iterable[str] | None = None,
                          exclude: Iterable[str] | None = None, **_: Any) -> dict[str, Any]:
        """Jupyter's rich display: the SVG, or the install message when Graphviz is missing."""
        from mtg_rulekit.display.svg import INSTALL_MESSAGE, GraphvizMissing

        wanted = set(include) if include is not None else {"image/svg+xml"}
        wanted -= set(exclude or ())
        if "image/svg+xml" not in wanted:
            return {}
        try:
            return {"image/svg+xml": self.svg()}
        except GraphvizMissing:
            return {"text/plain": INSTALL_MESSAGE}


@dataclass
class Node:
    """One node to draw: its name in the DOT text, legend role, label lines, rules, tooltip."""

    name: str
    role: str
    lines: list[str]
    rules: tuple[str, ...] = ()
    tooltip: str = ""
    dashed: bool = False
    fold: bool = False


def draw(model: Model, groups: list[Group], roots: dict[int, Event],
         setup_actions: set[int], title: str | None, *,
         summarize: Collection[str] = (), legend: bool = True,
         heading: bool = True, compact: bool = False,
         layout: StepLayout = LAYOUTS[0]) -> FlowDiagram:
    """The diagram of `groups` (from `mtg_rulekit.display.flow.model.layout`) under `title`: one
    cluster per group in time order, the legend on top. The groups whose keys are in
    `summarize` are drawn as one summary box each (a step view's earlier steps); `legend`
    False leaves the legend out (a page shows it outside the diagram: `legend_strip`),
    `heading` False the title. `compact` (a step view) lays a replaced event out two boxes
    a row (as first proposed → the first effect, then the next effect → as it happened),
    wraps a fan-out of more than `ROW` siblings into rows, draws each step of the turn below
    everything the step before it caused, puts the step's title beside its
    first box and each box's CR numbers on its last line of words where they fit, and puts
    boxes closer together, so a step fits a projector's pane (the steps were too
    tall, rarely too wide). `layout` (a step view): how many siblings a row, and wide or
    narrow (`StepLayout`). A step view also
    leaves "→ what it made of the event" out of a replacement effect's box when the box
    under it says exactly that."""
    graph = FlowDiagram(name="rulekit")
    heading_text = title or "Event and trigger flow"
    graph.titles["rulekit"] = heading_text
    shown = {"labelloc": "t", "labeljust": "l",
             "label": f"<<B>{dot_html(heading_text)}</B>>"} if heading else {}
    graph.attr(rankdir="TB", fontname=FONT, fontsize=str(TITLE_PT),
               nodesep="0.25" if compact else "0.35", ranksep="0.2" if compact else "0.45",
               newrank="true", bgcolor="white", pad="0.3", tooltip=dot_text(heading_text),
               **shown)
    graph.attr("node", fontname=FONT, fontsize=str(TEXT_PT),
               **({"margin": "0.1,0.04", "height": "0.3"} if compact else {"margin": "0.15,0.07"}))
    graph.attr("edge", fontname=FONT, fontsize=str(SMALL_PT), color="#333333",
               fontcolor="#222222", arrowsize="0.9")
    drawer = Drawer(model, graph)
    drawer.compact = compact
    drawer.layout = layout
    if compact:
        drawer.wrap_at = layout.wrap_at
    drawer.last_actions = set(groups[-1].actions) if groups else set()
    for group in groups:
        if group.key in summarize:
            drawer.summary(group, roots, setup_actions)
        else:
            drawer.group(group, roots, setup_actions)
    drawer.finish()
    # time flows down: each unit (set-up, action, fold) starts below everything before it
    units = [u for u in drawer.units if u]
    for before, after in zip(units, units[1:]):
        inside = set(before)
        feeding = {t for t, h, _ in drawer.edges if t in inside and h in inside}
        for leaf in (n for n in before if n not in feeding):
            graph.edge(leaf, after[0], style="invis", weight="0",
                       **{"class": drawer.tag_of.get(after[0], "")})
    graph.used = list(drawer.used) + (["fold"] if drawer.any_fold else [])
    graph.role_tags = drawer.role_tags
    if not legend:
        graph.node_count = drawer.count
        return graph
    # the legend sits on top, under the title
    for name in _legend(graph, drawer.used, drawer.any_fold, drawer.role_tags):
        if units:
            graph.edge(name, units[0][0], style="invis", weight="0")
    graph.node_count = drawer.count
    return graph


class Drawer:
    """Draws groups into a `FlowDiagram`: nodes as it goes, edges at the end (`finish`), and
    which legend roles and SVG classes the picture uses."""

    def __init__(self, model: Model, graph: FlowDiagram) -> None:
        self.model = model
        self.graph = graph
        self.count = 0
        self.used: list[str] = []
        self.any_fold = False
        self.role_tags: dict[str, set[str]] = {}  # legend role -> the groups that use it
        self.edges: list[tuple[str, str, str]] = []
        self.edge_seen: set[tuple[str, str, str]] = set()
        self.node_titles: dict[str, str] = {}
        self.stack_items: dict[Any, int] = {}
        for e in model.log:
            item = stack_item(e.payload)
            if e.kind in (EventKind.PUT_ON_STACK, EventKind.ACTIVATED, EventKind.CAST) \
                    and item is not None:
                self.stack_items.setdefault(item, e.id)
        self.ghosts: dict[int, str] = {}
        self.units: list[list[str]] = []  # nodes of each set-up, action or fold, in time order
        self.latest_step: str | None = None  # the node of the step that began last
        self.tag = ""  # the SVG class of what is drawn now: "rk-" + the group's key
        self.tag_of: dict[str, str] = {}  # node name -> its group's class
        self.compact = False  # a step view: replacements in a row, fan-outs in rows
        self.layout = LAYOUTS[0]  # (compact) how many a row, where the title goes
        # characters a line in the widening shapes (a step view: its layout's)
        self.wrap_at = WRAP_AT
        self.rows: list[list[int]] = []  # (compact) each drawn node's children, in order
        self.titles: dict[str, str] = {}  # cluster -> its title's node
        # "then" from an action to what it let resolve, which also has its "resolves" arrow
        self.late_edges: set[tuple[str, str]] = set()
        # the actions of the drawing's last group: the game's state is the one they left
        self.last_actions: set[int] = set()
        self.in_row: list[list[str]] = []  # (compact) replaced events' rows of boxes
        # (compact) a step of the turn and the one that began after it ("then")
        self.next_steps: list[tuple[str, str]] = []

    # -- nodes and edges
    def node(self, target: Digraph, n: Node) -> None:
        role = ROLES[n.role]
        if n.role not in self.used:
            self.used.append(n.role)
        self.role_tags.setdefault(n.role, set()).add(self.tag)
        if n.fold:
            self.role_tags.setdefault("fold", set()).add(self.tag)
        lines = n.lines
        if n.role in self.wrap_at:  # a widening shape: its words again, in narrower lines
            parts: list[str] = []
            for line in lines:
                if parts and not line.startswith(("(", "→")):
                    parts[-1] += " " + line
                else:
                    parts.append(line)
            lines = [w for part in parts for w in wrap_lines(part, self.wrap_at[n.role])]
        cite = "CR " + ", ".join(n.rules) if n.rules else ""
        # a step view: the rules on the last line of words when they fit in its width
        beside = bool(cite and self.compact and lines and len(lines[-1]) + 3 + len(cite)
                      <= max(self.wrap_at.get(n.role, WRAP), *(len(line) for line in lines)))
        text = "<BR/>".join(dot_html(line) for line in lines)
        if role.font != "#000000":
            text = f'<FONT COLOR="{role.font}">{text}</FONT>'
        if cite:
            rules = dot_html(("· " if beside else "") + cite)
            text += " " if beside else "<BR/>"
            text += f'<FONT POINT-SIZE="{SMALL_PT}" COLOR="{role.font}">{rules}</FONT>'
        attrs = role.attrs()
        if n.dashed and "dashed" not in attrs["style"]:
            attrs["style"] += ",dashed"
        attrs["label"] = f"<{text}>"
        tooltip = n.tooltip or " ".join(n.lines)
        tooltip = "\n".join([tooltip] + explained(n.rules))
        attrs["tooltip"] = dot_text(tooltip)
        if n.fold:
            attrs["peripheries"] = "2"
            self.any_fold = True
        if self.tag:  # its group, and its name: a page finds the box's `why` answer by it
            attrs["class"] = f"{self.tag} rkbox-{n.name}"
            self.tag_of[n.name] = self.tag
        target.node(n.name, **attrs)
        self.count += 1
        if self.units:
            self.units[-1].append(n.name)
        self.node_titles[n.name] = " ".join(n.lines)
        self.graph.titles[n.name] = tooltip

    def edge(self, tail: str, head: str, label: str) -> None:
        key = (tail, head, label)
        if tail == head or key in self.edge_seen:
            return
        self.edge_seen.add(key)
        self.edges.append(key)

    def finish(self) -> None:
        if self.compact:
            self.arrange()
        resolved = {h for _t, h, label in self.edges if label == "resolves"}
        for tail, head, label in self.edges:
            attrs = dict(EDGE_STYLE.get(label, {}))
            if label and (tail, head) in self.late_edges and head in resolved:
                # said by the action's box, so the "resolves" arrows coming down from
                # where each object went on the stack don't cross it mid-way
                attrs.update(label=f" {label} ", headport="w")
            elif label:
                attrs["label"] = f" {label} "
            tag = self.tag_of.get(head) or self.tag_of.get(tail)
            if tag:  # an edge shows from the group of the event it leads to
                attrs["class"] = tag
            self.graph.edge(tail, head, **attrs)
            a, b = self.node_titles.get(tail, tail), self.node_titles.get(head, head)
            self.graph.titles[f"{tail}->{head}"] = f"{a} — {label or 'then'} → {b}"

    def arrange(self) -> None:
        """A step view's layout hints: each replaced event's boxes on one rank, and a lone
        leaf on its cause's (`layout.beside`); siblings beyond the first `layout.row`
        each below the sibling that many before it and all it caused, or (`layout.pack`)
        below the column that ends highest (`_pack`)."""
        for row in self.in_row + (self._beside() if self.layout.beside else []):
            with self.graph.subgraph() as r:
                r.attr(rank="same")
                for name in row:
                    r.node(name)
        drawn = set(self.node_titles)
        for kids in self.rows:
            entries: list[str] = []
            for k in kids:
                e = self.model.window.get(k)
                name = self.model.rep.get(k, "")
                if e is not None and e.applied:  # its chain's first box (brief: its one box)
                    name = f"p{k}" if f"p{k}" in drawn else f"n{k}"
                if name in drawn and name not in entries:
                    entries.append(name)
            if self.layout.pack:  # each under the column that ends highest so far
                self._pack(entries)
                continue
            for a, b in zip(entries, entries[self.layout.row:]):
                # below everything under the sibling a row before it: a row of its own
                for leaf in self._leaves(a):
                    self.graph.edge(leaf, b, style="invis")
        for before, after in self.next_steps:
            # a step of the turn below everything the step before it caused (time flows
            # down), not beside it as one more of their parent's children
            for leaf in self._leaves(before, without=after):
                if leaf != before:
                    self.graph.edge(leaf, after, style="invis")

    def _pack(self, entries: list[str]) -> None:
        """Siblings beyond the first `layout.row` each below the column (a sibling of the
        first row, and those already placed under it) whose boxes end highest, the first
        such column on a tie: a short branch leaves room under it for the next sibling
        (masonry), where a row of its own would be as tall as the tallest branch above it."""
        below: dict[str, list[str]] = {}
        for tail, head, _label in self.edges:
            below.setdefault(tail, []).append(head)
        rows: dict[str, int] = {}

        def depth(name: str) -> int:  # the rows of boxes from `name` down its longest line
            if name not in rows:
                rows[name] = 1  # (what leads back to it counts it once)
                rows[name] = 1 + max((depth(k) for k in below.get(name, [])), default=0)
            return rows[name]

        column = {a: depth(a) for a in entries[:self.layout.row]}  # rows each column takes
        bottom = {a: a for a in column}
        for b in entries[self.layout.row:]:
            col = min(column, key=column.__getitem__)
            for leaf in self._leaves(bottom[col]):
                self.graph.edge(leaf, b, style="invis")
            bottom[col] = b
            column[col] += depth(b)

    def _beside(self) -> list[list[str]]:
        """A step view's last box of a line of only children beside the box before it: a
        leaf, only child of an only child (a trigger and what it did; a row fewer)."""
        outs: dict[str, list[str]] = {}
        ins: dict[str, list[str]] = {}
        for tail, head, _label in self.edges:
            outs.setdefault(tail, []).append(head)
            ins.setdefault(head, []).append(tail)
        placed = {name for row in self.in_row for name in row}
        pairs = []
        for tail, kids in outs.items():
            head = kids[0]
            if len(kids) != 1 or head in outs or len(ins.get(head, ())) != 1 \
                    or tail in placed or head in placed:
                continue
            above = ins.get(tail, [])
            if len(above) == 1 and len(outs.get(above[0], ())) == 1 \
                    and not self._in_fan_out(above[0], ins, outs):
                pairs.append([tail, head])
        return pairs

    @staticmethod
    def _in_fan_out(name: str, ins: dict[str, list[str]], outs: dict[str, list[str]]) -> bool:
        """Whether a box above `name` has more than two arrows out (then each of its branches
        keeps to its own column: a branch growing sideways would widen the whole row)."""
        seen = {name}
        while len(ins.get(name, ())) == 1:
            name = ins[name][0]
            if name in seen:
                return False
            seen.add(name)
            if len(outs.get(name, ())) > 2:
                return True
        return False

    def _leaves(self, top: str, without: str = "") -> list[str]:
        """The boxes under `top` (following this drawing's arrows, except those into
        `without`) that have none under them."""
        below: dict[str, list[str]] = {}
        for tail, head, _label in self.edges:
            if head != without:
                below.setdefault(tail, []).append(head)
        seen, todo, leaves = {top}, [top], []
        while todo:
            name = todo.pop()
            kids = [k for k in below.get(name, []) if k not in seen]
            if not below.get(name):
                leaves.append(name)
            for k in kids:
                seen.add(k)
                todo.append(k)
        return sorted(leaves)

    # -- groups
    def group(self, group: Group, roots: dict[int, Event], setup_actions: set[int]) -> None:
        name = f"cluster_{group.key}"
        said = f"{group.label}: {group.narration}" if group.narration else group.label
        self.graph.titles[name] = said
        self.tag = group_class(group.key)
        start = len(self.units)
        with self.graph.subgraph(name=name) as c:
            # the title is a box of its own at the cluster's top, not the cluster's label,
            # so Graphviz routes the arrows coming in from earlier steps around it
            c.attr(label="", style="rounded", color="#888888", penwidth="1.2",
                   tooltip=dot_text(said), margin="12", **{"class": self.tag})
            self.cluster_body(c, group, roots, setup_actions)
            title = f"title_{group.key}"
            # a step view: the title beside the step's first box, in narrower lines (the
            # pane has room to the side, not below), or above it in a narrow shape
            beside = self.compact and self.layout.title_beside
            width = 22 if beside else 32
            words = ("<BR/>".join(dot_html(t) for t in wrap_lines(group.label, width))
                     if self.compact else dot_html(wrap(group.label, 60)))
            c.node(title, label=f"<<B>{words}</B>>", shape="plaintext",
                   fontsize=str(CLUSTER_PT), margin="0.05,0", tooltip=dot_text(said),
                   **{"class": self.tag})
            self.graph.titles[title] = said
            self.titles[name] = title
            self.tag_of[title] = self.tag
            if len(self.units) > start and self.units[start]:
                first = self.units[start][0]
                c.edge(title, first, style="invis", weight="10", **{"class": self.tag})
                if beside:
                    with c.subgraph() as r:
                        r.attr(rank="same")
                        r.node(title)
                        r.node(first)
                self.units[start].insert(0, title)

    def cluster_body(self, c: Digraph, group: Group, roots: dict[int, Event],
                     setup_actions: set[int]) -> None:
        """The boxes of one group, inside its cluster."""
        if group.folded:
            self.units.append([])
            self.fold_actions(c, group, roots)
            return
        pending_setup: list[int] = []
        for n in group.actions:
            if n in setup_actions:
                pending_setup.append(n)
                continue
            if pending_setup:
                self.units.append([])
                self.setup(c, pending_setup)
                pending_setup = []
            self.units.append([])
            self.action(c, roots[n])
        if pending_setup:
            self.units.append([])
            self.setup(c, pending_setup)
        if not group.actions:
            self.units.append([])
            self.node(c, Node(f"x_{group.key}", "note",
                               wrap_lines(group.empty_note or "Nothing new happens")))

    def summary(self, group: Group, roots: dict[int, Event], setup_actions: set[int]) -> None:
        """A group drawn as one box (a step view's earlier step): its title and what its
        actions were, in short words; what it caused later points from this box."""
        model = self.model
        self.tag = group_class(group.key)
        self.units.append([])
        name = f"sum_{group.key}"
        events = [e for n in group.actions for e in model.by_action.get(n, ())]
        for e in events:
            model.rep[e.id] = name
        acts = [roots[n] for n in group.actions if n in roots and n not in setup_actions]
        said = [box_words(r) for r in acts]
        lines = [group.label]
        if group.setup:
            lines.append("the board at the start")
        elif not acts:
            lines += wrap_lines(group.empty_note or "Nothing new happens")[:2]
        for text in said[:2]:
            lines += wrap_lines(text)
        if len(said) > 2:
            lines.append(f"and {len(said) - 2} more action{'s' if len(said) > 3 else ''}")
        drawn = [e for e in events if e.kind is not EventKind.PRIORITY]
        tip = "\n".join([f"{group.label}: {group.narration}" if group.narration
                         else group.label] + [r.text for r in acts]
                        + [f"({len(drawn)} events, drawn in full in that step's view)"])
        self.node(self.graph, Node(name, "summary", lines, (), tip))

    def setup(self, c: Digraph, actions: list[int]) -> None:
        model = self.model
        events = [e for n in actions for e in model.by_action.get(n, ())]
        lines = setup_lines(events) or ["(nothing)"]
        name = f"s{min(e.id for e in events)}"
        for e in events:
            model.rep[e.id] = name
        wrapped = [w for line in lines for w in wrap_lines(line, WRAP + 10)]
        self.node(c, Node(name, "setup", wrapped, tooltip="Set-up: " + "; ".join(lines)))

    def action(self, c: Digraph, root: Event) -> None:
        model = self.model
        passes = sum(1 for e in model.by_action.get(root.action, ())
                     if e.kind is EventKind.PRIORITY)
        tip = f"{root.text} (action {root.action}, turn {root.turn}, {step_label(root.step)}"
        tip += f"; {passes} priority pass(es) not drawn)" if passes else ")"
        name = f"n{root.id}"
        model.rep[root.id] = name
        given, said = choices(model, root.id)
        lines = wrap_lines(box_words(root)) + [w for g in given for w in wrap_lines(g)]
        self.node(c, Node(name, "action", lines, root.rules, "\n".join([tip] + said)))
        self.subtree(c, root.id)
        late = model.late.get(root.action)
        if late:
            self.subtree(c, root.id, late)

    def subtree(self, c: Digraph, eid: int, kids: list[int] | None = None) -> None:
        """Draw the consequences of event `eid` (already drawn), folding repeated shapes. With
        `kids`, draw those instead: events of action `eid` caused by an earlier action's event."""
        model = self.model
        late = kids is not None
        if kids is None:
            kids = model.children.get(eid, [])
        kids = [k for k in kids if k not in model.hidden]
        by_sig: dict[Any, list[int]] = {}
        for k in kids:
            by_sig.setdefault(self.likeness(k), []).append(k)
        folded_at: dict[int, list[int]] = {}
        skip: set[int] = set()
        for members in by_sig.values():
            # at lesson scale, what resolves in this picture keeps its own box and arrow
            # (folding it would draw the "resolves" arrows from the fold of its cause); a step
            # view folds its repeats whatever they do, keeping one drawn in full, and its fold
            # box names each member and what each caused (`fold_names`): "the Refinery
            # triggers four times" is one chain and "× 3 more like this: Memnite (#2), ...
            # (each: Slagstone Refinery's trigger for it goes on the stack)", not four chains
            # side by side, wider than a projector's pane
            if len(members) <= FOLD_ALWAYS and not self.compact:
                members = [m for m in members if m not in model.keep]
            if len(members) >= FOLD_AT:
                rest = members[KEEP_STEP if self.compact else KEEP:]
                folded_at[rest[0]] = rest
                skip.update(rest[1:])
        order = [k for k in kids if k not in skip]
        if self.compact:
            self.rows.append(order)
        run: list[int] = []
        last_step: str | None = None  # steps are drawn one after the other ("then")
        for k in order + [0]:
            e = model.window.get(k)
            if e is not None and k in model.quiet and k not in folded_at:
                run.append(k)
                continue
            if run:
                self.time_passes(c, eid, run, last_step)
                last_step = self.latest_step
                run = []
            if e is None:
                break
            if k in folded_at:
                self.fold(c, eid, folded_at[k])
            elif e.kind in BOOKKEEPING and not late:
                self.event(c, e, after=last_step)
                last_step = self.latest_step  # the last step that began below it, if any
            else:
                self.event(c, e)
                if late:  # this action made it happen (e.g. all passed, so it resolves)
                    head = f"p{e.id}" if e.applied else f"n{e.id}"
                    self.edge(model.rep[eid], head, "then")
                    self.late_edges.add((model.rep[eid], head))

    def likeness(self, eid: int) -> Any:
        """What folds with what: events of the same shape (`model.sig`); in a step view also
        events of the same kind and cause with nothing drawn under them, whatever they say
        (the cleanup step's "Effect ends: ..." four times: one box drawn in full and one that
        names the others)."""
        model = self.model
        e = model.window.get(eid)
        if self.compact and e is not None and e.kind not in BOOKKEEPING and not any(
                k not in model.hidden for k in model.children.get(eid, ())):
            return ("leaf", e.kind, e.cause)
        return model.sig[eid]

    def event(self, c: Digraph, e: Event, after: str | None = None) -> None:
        """Draw event `e` under its parent (or, for a step of the turn, under the step before
        it, `after`), then its consequences."""
        model = self.model
        name = f"n{e.id}"
        model.rep[e.id] = name
        tail = after or self.parent_node(c, e)
        entry = name
        # a step view's brief shape: a fan-out's replaced event in one box, the effect's
        one_box = bool(e.applied) and self.compact and self.layout.brief and not self._alone(e)
        if e.applied and not one_box:
            entry = self.replacements(c, e, name)
        relation = "then" if after else relation_of(e)
        if e.kind is EventKind.RESOLVED and self.stack_items.get(
                stack_item(e.payload), e.parent) != e.parent:
            relation = "then"  # the bold "resolves" edge comes from where it went on the stack
        if tail is not None:
            self.edge(tail, entry, relation)
        if after and self.compact:
            self.next_steps.append((after, entry))
        tip = f"{e.text} ({ROLES[role_of(e)].legend.lower()}; event {e.id}, cause: {e.cause.value})"
        if e.payload is not None and (full := ability_in_full(e.payload)):
            tip += f"\n{full}"
        words = box_words(e)
        role, rules = role_of(e), tuple(e.rules)
        if one_box:  # "Rest in Peace: ... is exiled instead of going to the graveyard"
            effects = list(dict.fromkeys(a.effect for a in e.applied))
            words = f"{', '.join(effects)}: {words}"
            role = "replacement"
            rules += tuple(r for a in e.applied for r in a.rules if r not in rules)
            tip += f"\nAs first proposed: {proposed_text(model, e)}; " + "; ".join(
                f"{a.effect} {a.outcome} it" for a in e.applied)
        # a choice the box's words name already is not said twice (who chose: the tooltip)
        given, said = choices(model, e.id, words)
        lines = wrap_lines(words) + [w for g in given for w in wrap_lines(g)]
        self.node(c, Node(name, role, lines, rules, "\n".join([tip] + said),
                           dashed=did_not_happen(e)))
        if e.kind in BOOKKEEPING:
            self.latest_step = name
        if e.action in self.last_actions and (compared := copy_compared(model, e)):
            # the original and its copy side by side in one note (under the copy), as the
            # board has them once this step is done
            side = f"cmp{e.id}"
            self.node(c, Node(side, "note",
                              [w for line in compared
                               for w in wrap_lines(line, self.wrap_at.get("compare", WRAP + 10))],
                              ("707.2",), "\n".join(compared)))
            self.edge(name, side, "compare")
        self.resolves_link(c, e, name)
        self.subtree(c, e.id)

    def parent_node(self, c: Digraph, e: Event) -> str | None:
        if e.parent is None:
            return None
        if e.parent in self.model.rep:
            return self.model.rep[e.parent]
        return self.ghost(c, e.parent)

    def ghost(self, c: Digraph, eid: int) -> str:
        if eid in self.ghosts:
            return self.ghosts[eid]
        try:
            earlier = self.model.log[eid]
        except KeyError:
            return ""
        name = f"g{eid}"
        self.ghosts[eid] = name
        tip = f"Earlier (action {earlier.action}): {earlier.text}"
        self.node(c, Node(name, "ghost", wrap_lines(f"Earlier: {earlier.text}"), (), tip))
        return name

    def resolves_link(self, c: Digraph, e: Event, name: str) -> None:
        """A resolving stack object: draw the edge from where it went on the stack."""
        if e.kind is not EventKind.RESOLVED:
            return
        origin = self.stack_items.get(stack_item(e.payload))
        if origin is None or origin == e.parent:
            return
        tail = self.model.rep.get(origin) or self.ghost(c, origin)
        if tail:
            self.edge(tail, name, "resolves")

    def replacements(self, c: Digraph, e: Event, name: str) -> str:
        """proposed version -> each replacement effect -> the actual event; returns the entry."""
        proposed = f"p{e.id}"
        text = proposed_text(self.model, e)
        self.node(c, Node(proposed, "proposed", wrap_lines(text), (),
                           f"{text} (as first proposed, before replacement effects)"))
        prev, label = proposed, "changed by"
        for i, a in enumerate(e.applied):
            rname = f"r{e.id}_{i}"
            lines = wrap_lines(f"{a.effect}: {OUTCOME_WORDS.get(a.outcome, a.outcome)}")
            after = after_text(self.model, e, a.after) if a.after is not None else "nothing"
            if not (self.compact and i == len(e.applied) - 1 and after == box_words(e)):
                lines += wrap_lines(f"→ {after}")  # (a step view: not when the next box says it)
            self.node(c, Node(rname, "replacement", lines, tuple(a.rules),
                               f"{a.effect} {a.outcome} the event: now {after}"))
            self.edge(prev, rname, label)
            prev, label = rname, a.outcome
        self.edge(prev, name, label)
        if self.compact and self._alone(e):  # two boxes a row: as proposed → the first effect, ...
            # (not in a fan-out of replaced events: their rows' arrows would cross)
            chain = [proposed] + [f"r{e.id}_{i}" for i in range(len(e.applied))] + [name]
            per = self.layout.in_row
            self.in_row += [chain[i:i + per] for i in range(0, len(chain), per)
                            if len(chain[i:i + per]) > 1]
        return proposed

    def _alone(self, e: Event) -> bool:
        """Whether `e` is the only replaced event among its parent's children (else one of a
        fan-out of replaced events)."""
        siblings = self.model.children.get(e.parent, []) if e.parent is not None else []
        return sum(1 for k in siblings if (s := self.model.window.get(k)) is not None
                   and s.applied) <= 1

    def fold(self, c: Digraph, parent: int, members: list[int]) -> None:
        model = self.model
        first = model.window[members[0]]
        name = f"f{first.id}"
        hidden = 0
        stack = list(members)
        while stack:
            eid = stack.pop()
            model.rep[eid] = name
            hidden += 1
            stack += [k for k in model.children.get(eid, []) if k not in model.hidden]
        n = len(members)
        # a step view: who they are (else what they are) and what each one caused
        who, caused = (fold_names(model, members) if self.compact else None) or ("", "")
        lines = wrap_lines(f"× {n:,} more like this: {who}") if who else \
            [f"× {n:,} more like this"] + wrap_lines(OBJ_NO.sub("", first.text))
        each = (hidden - n) // n
        if caused:
            lines += wrap_lines(f"(each: {caused})")
        elif each:
            lines.append(f"(each with {each} more event{'s' if each > 1 else ''} below it)")
        tip = (f"{n:,} more events like “{first.text}” ({hidden - n:,} consequences of theirs "
               f"not drawn): events {first.id} to {members[-1]}")
        tail = model.rep.get(parent)
        self.node(c, Node(name, role_of(first), lines, first.rules, tip, fold=True))
        if tail is not None:
            self.edge(tail, name, relation_of(first))
        for eid in members:  # what they resolved or triggered elsewhere still points here
            ev = model.window[eid]
            if ev.kind is EventKind.RESOLVED:
                self.resolves_link(c, ev, name)

    def time_passes(self, c: Digraph, parent: int, run: list[int], after: str | None) -> str:
        """Steps (and turns) that began with nothing else happening: one node. Returns it."""
        model = self.model
        events: list[Event] = []
        stack = list(run)
        while stack:
            eid = stack.pop()
            events.append(model.window[eid])
            stack += [k for k in model.children.get(eid, []) if k not in model.hidden]
        events.sort(key=lambda e: e.id)
        if len(events) == 1:
            self.event(c, events[0], after=after)
            return model.rep[events[0].id]
        name = f"t{run[0]}"
        for e in events:
            model.rep[e.id] = name
        text = time_passes_brief(events)
        rules = tuple(dict.fromkeys(r for e in events for r in e.rules))
        self.node(c, Node(name, "turn", wrap_lines(text), rules,
                           time_passes_tooltip(events)))
        self.latest_step = name
        tail = after or model.rep.get(parent)
        if tail is not None:
            self.edge(tail, name, "then" if after else relation_of(events[0]))
        if after and self.compact:
            self.next_steps.append((after, name))
        return name

    def fold_actions(self, c: Digraph, group: Group, roots: dict[int, Event]) -> None:
        model = self.model
        first = roots[group.actions[0]]
        name = f"fa{first.id}"
        events = [e for n in group.actions for e in model.by_action.get(n, ())]
        for e in events:
            model.rep[e.id] = name
        lines = [f"× {group.folded:,} more actions like this"] + wrap_lines(first.text)
        tip = f"{group.folded:,} more actions like “{first.text}” (actions {group.span})"
        self.node(c, Node(name, "action", lines, first.rules, tip, fold=True))
        for e in events:
            if e.kind is EventKind.RESOLVED:
                self.resolves_link(c, e, name)


def _words(model: Model, eid: int) -> list[str]:
    """An event's box words, as words."""
    return box_words(model.window[eid]).split()


def _apart(texts: list[list[str]]) -> tuple[list[str], list[str], list[str]]:
    """(the words all of `texts` begin with, each one's words that differ, the words they all
    end with)."""
    first = texts[0]
    head = 0
    while all(len(t) > head and t[head] == first[head] for t in texts):
        head += 1
    tail = 0
    while all(len(t) - head > tail and t[-1 - tail] == first[-1 - tail] for t in texts):
        tail += 1
    return first[:head], [" ".join(t[head:len(t) - tail]) for t in texts], \
        first[len(first) - tail:]


def fold_names(model: Model, members: list[int]) -> tuple[str, str] | None:
    """A step view's fold box, in words: (what tells the folded same-shape events apart, what
    each one caused). "Memnite (#2), Springleaf Drum (#3)" and "Slagstone Refinery's trigger
    for it goes on the stack"; for events of the same words, "" and what differs in their
    consequences ("Alice creates a tapped Powerstone token (#29, #30, #31)"). None when
    neither says them apart."""
    _, names, _ = _apart([_words(model, m) for m in members])
    kids = [[k for k in model.children.get(m, []) if k not in model.hidden] for m in members]
    caused = [" ".join(w for k in ks for w in _words(model, k) + [";"]).removesuffix(" ;")
              for ks in kids]
    if all(names) and len(set(names)) == len(names):
        same = {c.replace(name, "it") for c, name in zip(caused, names)}
        return ", ".join(names), (next(iter(same)) if len(same) == 1 else "")
    if any(names) or not all(caused):
        return None
    head, parts, tail = _apart([c.split() for c in caused])
    if not all(parts) or len(set(parts)) < len(parts) or len(parts[0].split()) > 3:
        return None
    if all(re.fullmatch(r"\(#\d+\)", part) for part in parts):  # (#29), (#30) -> (#29, #30)
        parts = [f"({', '.join(part[1:-1] for part in parts)})"]
    return "", " ".join([*head, " / ".join(parts), *tail])


def _uses(tags: set[str] | None) -> dict[str, str]:
    """The class of a legend entry: "rk-uses-s1 rk-uses-s3" for the groups whose boxes have
    its shape, so a frame that shows only some groups (`reveal`) lists only their shapes."""
    names = sorted(t.removeprefix("rk-") for t in (tags or ()) if t)
    return {"class": " ".join(f"rk-uses-{n}" for n in names)} if names else {}


def _legend(graph: FlowDiagram, used: list[str], any_fold: bool,
            role_tags: dict[str, set[str]] | None = None) -> list[str]:
    """The legend cluster (only the roles this picture uses), in rows; returns its last row."""
    role_tags = role_tags or {}
    keys = [k for k in ROLES if k in used]
    if not keys:
        return []
    names: list[str] = []
    with graph.subgraph(name="cluster_legend") as c:
        c.attr(label="<<B>Legend</B>>", fontsize=str(CLUSTER_PT), style="rounded",
               color="#888888", labeljust="l", tooltip="Legend", margin="10")
        graph.titles["cluster_legend"] = "Legend: what the shapes and colors mean"
        for key in keys:
            role = ROLES[key]
            text = dot_html(role.legend)
            if role.font != "#000000":
                text = f'<FONT COLOR="{role.font}">{text}</FONT>'
            name = f"legend_{key}"
            c.node(name, label=f"<{text}>", tooltip=dot_text(role.legend),
                   fontsize=str(SMALL_PT), **role.attrs(), **_uses(role_tags.get(key)))
            graph.titles[name] = f"Legend: {role.legend} ({SHAPE_WORDS.get(key, role.shape)})"
            names.append(name)
        if any_fold:
            c.node("legend_fold", label="<× N more like this>", shape="box", peripheries="2",
                   style="filled,rounded", fillcolor="#FFFFFF", fontsize=str(SMALL_PT),
                   tooltip="Folded: many events of the same shape, drawn once",
                   **_uses(role_tags.get("fold")))
            graph.titles["legend_fold"] = "Legend: double outline, many events folded into one"
            names.append("legend_fold")
        rows = [names[i:i + LEGEND_ROW] for i in range(0, len(names), LEGEND_ROW)]
        for row in rows:
            with c.subgraph() as r:
                r.attr(rank="same")
                for a, b in zip(row, row[1:]):
                    r.edge(a, b, style="invis")
                for n in row:
                    r.node(n)
        for upper, lower in zip(rows, rows[1:]):
            c.edge(upper[0], lower[0], style="invis")
    return rows[-1]
