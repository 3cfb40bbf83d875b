"""Event and trigger flow diagrams: structure read back from the DOT text (no golden files).

These tests need no Graphviz binary: they parse the DOT source that `log_diagram` builds.
Rendering, accessibility and `diagrams/` are in test_diagrams_render.py.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field

import pytest

from mtg_rulekit import EventKind, Game
from mtg_rulekit.display.flow import FOLD_AT, RELATIONS, ROLES, log_diagram, scenario_diagram
from mtg_rulekit.scenario import Scenario, game_at, loads

OKABE_ITO = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}
NEUTRAL = {"#FFFFFF", "#DDDDDD"}
EDGE_WORDS = set(RELATIONS.values()) | {"resolves", "changed by", "modified", "replaced",
                                        "prevented"}


# ------------------------------------------------------------------ a small DOT reader
@dataclass
class Dot:
    nodes: dict[str, dict[str, str]] = field(default_factory=dict)
    edges: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    clusters: dict[str, dict[str, str]] = field(default_factory=dict)
    members: dict[str, list[str]] = field(default_factory=dict)  # cluster -> nodes

    def drawn(self) -> dict[str, dict[str, str]]:
        """The nodes of the picture itself (not the legend)."""
        return {n: a for n, a in self.nodes.items() if not n.startswith(("legend_", "title_"))}

    def visible_edges(self) -> list[tuple[str, str, dict[str, str]]]:
        return [e for e in self.edges if e[2].get("style") != "invis"]

    def edge(self, tail: str, head: str) -> dict[str, str]:
        found = [a for t, h, a in self.visible_edges() if (t, h) == (tail, head)]
        assert found, f"no edge {tail} -> {head}"
        return found[0]

    def label(self, node: str) -> str:
        """A node's label as plain text (HTML tags dropped, entities decoded)."""
        import html

        raw = self.nodes[node]["label"]
        return html.unescape(re.sub(r"<BR/>", " ", re.sub(r"<(?!BR/)[^>]*>", "", raw))).strip()

    def find(self, text: str) -> list[str]:
        return [n for n in self.drawn() if text in self.label(n)]


def _attrs(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    i = 0
    while i < len(text):
        m = re.compile(r"\s*([A-Za-z_]+)=").match(text, i)
        if not m:
            break
        key, i = m.group(1), m.end()
        if text[i] == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out[key], i = text[i + 1:j], j + 1
        elif text[i] == "<":
            depth, j = 0, i
            while True:
                depth += {"<": 1, ">": -1}.get(text[j], 0)
                if depth == 0:
                    break
                j += 1
            out[key], i = text[i + 1:j], j + 1
        else:
            m2 = re.compile(r"[^\s\]]+").match(text, i)
            out[key], i = m2.group(0), m2.end()
    return out


def parse(source: str) -> Dot:
    dot = Dot()
    stack: list[str] = []
    for line in source.splitlines():
        s = line.strip()
        if m := re.match(r"subgraph (cluster_\w+) \{$", s):
            stack.append(m.group(1))
            dot.members[m.group(1)] = []
        elif s == "{" or s.startswith("subgraph "):
            stack.append("")
        elif s == "}":
            if stack:
                stack.pop()
        elif m := re.match(r"(\w+) -> (\w+)(?: \[(.*)\])?$", s):
            dot.edges.append((m.group(1), m.group(2), _attrs(m.group(3) or "")))
        elif m := re.match(r"(\w+) \[(.*)\]$", s):
            if m.group(1) in ("node", "edge", "graph"):
                continue
            dot.nodes[m.group(1)] = _attrs(m.group(2))
            if m.group(1).startswith("title_") and stack and stack[-1]:
                # a cluster's title is a box of its own (edges are routed around it)
                dot.clusters[stack[-1]]["label"] = dot.nodes[m.group(1)]["label"]
            elif stack and stack[-1]:
                dot.members[stack[-1]].append(m.group(1))
        elif stack and stack[-1].startswith("cluster_") and "label=" in s:
            dot.clusters[stack[-1]] = _attrs(s)
    return dot


def node_of(game: Game, kind: EventKind, nth: int = -1) -> str:
    found = [e for e in game.log if e.kind is kind]
    return f"n{found[nth].id}"


# ------------------------------------------------------------------ games
def reflection_game() -> Game:
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest")
    game.add("Mana Reflection")
    game.tap_for_mana(forest)
    return game


def city_game() -> Game:
    game = Game(["Alice", "Bob"])
    city = game.add("City of Brass")
    game.tap_for_mana(city, "R")
    game.resolve()
    return game


# ------------------------------------------------------------------ the visual grammar
def test_every_role_has_its_own_shape_and_a_color_blind_safe_color():
    looks = [(r.shape, r.style, tuple(r.extra)) for r in ROLES.values()]
    assert len(set(looks)) == len(looks), "two roles look the same apart from color"
    for role in ROLES.values():
        assert role.fill in OKABE_ITO | NEUTRAL, role
    colored = [r.fill for r in ROLES.values() if r.fill in OKABE_ITO]
    assert len(set(colored)) == len(colored), "an Okabe-Ito color is used twice"


def test_new_this_step_has_a_color_of_its_own_and_focus_another():
    """Issue 28: vermillion meant a cost, a replacement effect, "new this step" and focus.
    Now no box is vermillion or orange, and the focus ring is neither."""
    from mtg_rulekit.display.flow.grammar import FOCUS_COLOR, NEW_COLOR

    fills = {r.fill.upper() for r in ROLES.values()} | {r.font.upper() for r in ROLES.values()}
    assert NEW_COLOR.upper() == "#D55E00"
    assert NEW_COLOR.upper() not in fills and "#E69F00" not in fills
    assert FOCUS_COLOR.upper() not in fills | {NEW_COLOR.upper(), "#E69F00", "#E66100"}
    source = scenario_diagram(_scenario("r06_x_in_enters.toml")).source.upper()
    assert "#D55E00" not in source and "#E69F00" not in source


def test_core_import_pulls_in_no_display_library():
    code = ("import sys; from mtg_rulekit import Game; g = Game(); f = g.add('Forest'); "
            "g.tap_for_mana(f); "
            "print(sorted(m for m in ('graphviz', 'pandas', 'ipywidgets', 'mtg_rulekit.display') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "[]"



# ------------------------------------------------------------------ structure
def test_one_cluster_per_action_labelled_and_setup_folded():
    game = reflection_game()
    dot = parse(log_diagram(game).source)
    labels = {name: _plain(a["label"]) for name, a in dot.clusters.items()}
    assert labels["cluster_a1"] == "Set-up"  # both set-up actions share one cluster ...
    assert len(dot.members["cluster_a1"]) == 1  # ... and one summary node
    setup = dot.members["cluster_a1"][0]
    assert "Alice's battlefield: Forest, Mana Reflection" in dot.label(setup)
    assert labels["cluster_a3"] == "Action 3 · turn 1, precombat main phase"
    root = node_of(game, EventKind.ACTION)
    assert dot.members["cluster_a3"][0] == root
    assert "Alice taps Forest (#1) for mana" in dot.label(root)
    assert dot.nodes[root]["shape"] == "box" and "bold" in dot.nodes[root]["style"]
    assert "cluster_legend" in dot.clusters


@pytest.mark.ruling("R05")
def test_mana_reflection_is_drawn_as_proposed_effect_actual():
    game = reflection_game()
    dot = parse(log_diagram(game).source)
    added = [e for e in game.log if e.kind is EventKind.MANA_ADDED][-1]
    proposed, effect, actual = f"p{added.id}", f"r{added.id}_0", f"n{added.id}"
    assert "Alice would add {G} from Forest" in dot.label(proposed)
    assert "dashed" in dot.nodes[proposed]["style"]
    assert "Mana Reflection: modifies it" in dot.label(effect)
    assert "614.1a" in dot.label(effect)
    assert "Alice adds {G}{G} from Forest" in dot.label(actual)
    assert dot.nodes[actual]["shape"] == "cylinder"  # mana entering a pool
    assert dot.edge(f"n{added.parent}", proposed)["label"].strip() == "does"
    assert dot.edge(proposed, effect)["label"].strip() == "changed by"
    assert dot.edge(effect, actual)["label"].strip() == "modified"
    assert not [t for t, h, _ in dot.visible_edges() if (t, h) == (f"n{added.parent}", actual)]


def test_two_replacements_chain_in_the_order_applied():
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest")
    game.add("Mana Reflection")
    game.add("Contamination")
    game.tap_for_mana(forest, replacement_order=["Contamination"])
    dot = parse(log_diagram(game).source)
    added = [e for e in game.log if e.kind is EventKind.MANA_ADDED][-1]
    first, second = f"r{added.id}_0", f"r{added.id}_1"
    assert dot.label(first).startswith("Contamination: replaces it")
    assert dot.label(second).startswith("Mana Reflection: modifies it")
    assert dot.edge(first, second)["label"].strip() == "replaced"
    assert dot.edge(second, f"n{added.id}")["label"].strip() == "modified"


def test_the_event_a_decision_shaped_says_who_chose():
    """CR 616.1: the affected player orders the replacement effects; the diagram says so on the
    event (a given choice in the label, every choice in the tooltip)."""
    game = Game(["Alice", "Bob"])
    forest = game.add("Forest")
    game.add("Mana Reflection")
    game.add("Contamination")
    game.tap_for_mana(forest, replacement_order=["Contamination"])
    dot = parse(log_diagram(game).source)
    added = [e for e in game.log if e.kind is EventKind.MANA_ADDED][-1]
    assert "(Alice chose replacement order: Contamination)" in dot.label(f"n{added.id}")


def test_cost_and_triggered_ability_chain_for_city_of_brass():
    game = city_game()
    dot = parse(log_diagram(game).source)
    tapped = node_of(game, EventKind.TAPPED)
    on_stack = node_of(game, EventKind.PUT_ON_STACK)
    resolved = node_of(game, EventKind.RESOLVED)
    damage = node_of(game, EventKind.DAMAGE)
    activated = node_of(game, EventKind.ACTIVATED)
    assert dot.edge(activated, tapped)["label"].strip() == "pays"
    assert dot.nodes[tapped]["shape"] == "hexagon"
    assert dot.edge(tapped, on_stack)["label"].strip() == "triggers"
    assert dot.nodes[on_stack]["shape"] == "house"
    assert dot.edge(on_stack, resolved)["label"].strip() == "resolves"
    assert dot.edge(resolved, damage)["label"].strip() == "does"
    # the stack item was put there during action 2; it resolves in action 3's cluster
    assert on_stack in dot.members["cluster_a2"] and resolved in dot.members["cluster_a3"]
    assert "603.3" in dot.label(on_stack) and "608.2" in dot.label(resolved)


def test_an_ability_resolving_later_is_drawn_in_the_action_that_resolved_it():
    game = Game(["Alice", "Bob"])
    walker = game.add("Hangarback Walker", sick=False, counters={"+1/+1": 1})
    wastes = game.add("Wastes")
    game.tap_for_mana(wastes)
    game.activate(walker)
    game.resolve()
    dot = parse(log_diagram(game).source)
    activated = [e for e in game.log if e.kind is EventKind.ACTIVATED][-1]
    resolved = [e for e in game.log if e.kind is EventKind.RESOLVED][-1]
    assert resolved.action != activated.action
    assert f"n{resolved.id}" in dot.members[f"cluster_a{resolved.action}"]
    assert dot.nodes[f"n{activated.id}"]["shape"] == "box3d"  # put on the stack
    assert dot.edge(f"n{activated.id}", f"n{resolved.id}")["label"].strip() == "resolves"
    root = f"n{game.log.of_action(resolved.action)[0].id}"
    assert dot.edge(root, f"n{resolved.id}")["label"].strip() == "then"
    counters = node_of(game, EventKind.COUNTERS_PUT)
    assert counters in dot.members[f"cluster_a{resolved.action}"]


@pytest.mark.ruling("R01")
def test_undefined_mana_note_is_drawn():
    game = Game(["Alice", "Bob"])
    orchard = game.add("Exotic Orchard")
    game.tap_for_mana(orchard)
    dot = parse(log_diagram(game).source)
    note = node_of(game, EventKind.NOTE)
    assert "undefined type, so it adds no mana" in dot.label(note)
    assert "CR 106.5" in dot.label(note)
    assert dot.nodes[note]["shape"] == "note" and "dashed" in dot.nodes[note]["style"]
    no_mana = node_of(game, EventKind.MANA_ADDED)
    assert "adds no mana" in dot.label(no_mana) and "dashed" in dot.nodes[no_mana]["style"]


def test_untap_step_draws_skipped_and_untapped():
    game = Game(["Alice", "Bob"])
    game.add("Mana Vault", tapped=True)
    game.add("Forest", tapped=True)
    game.next_turn()
    game.next_turn()
    dot = parse(log_diagram(game).source)
    skipped, untapped = node_of(game, EventKind.UNTAP_SKIPPED), node_of(game, EventKind.UNTAPPED)
    assert "doesn't untap" in dot.label(skipped)
    assert "dashed" in dot.nodes[skipped]["style"]
    assert dot.nodes[untapped]["fillcolor"] == ROLES["turn"].fill
    step = f"n{game.log[int(untapped[1:])].parent}"
    assert dot.edge(step, untapped)["label"].strip() == "turn-based"
    assert "untap step" in dot.label(step)
    # the steps where nothing happened fold into "time passes" nodes; priority is not drawn
    assert dot.find("Time passes:")
    assert not dot.find("passes priority")


def test_the_draw_steps_draw_is_part_of_time_passing():
    """A walkthrough's players have libraries: the draw step's draw folds into "time passes"
    like the step itself, while a card drawn by an effect is still drawn."""
    game = Game(["Alice", "Bob"])
    for player in ("Alice", "Bob"):
        game.add("Island", player=player, zone="library")
    game.next_turn()
    game.next_turn()
    dot = parse(log_diagram(game).source)
    draws = [e for e in game.log if e.kind is EventKind.ZONE_CHANGED
             and getattr(e.payload, "reason", None) == "draw"]
    assert len(draws) == 2
    assert all(f"n{e.id}" not in dot.drawn() for e in draws)
    passing = dot.find("Time passes:")
    assert passing and set(dot.find("draws a card")) <= set(passing)
    said = " ".join(dot.label(n) for n in passing).replace("<BR/>", " ")
    assert "draw step (Bob draws a card)" in said and "draw step (Alice draws a card)" in said
    assert said.count("draw step") == 2, "each draw step is listed once, with its draw (504.1)"
    assert "→ … →" in said  # the quiet steps between are in the tooltip only
    tips = " ".join(dot.nodes[n]["tooltip"] for n in passing)
    assert "end of combat step → postcombat main phase" in tips
    for node in dot.find("draws a card"):
        assert "nothing else happens" not in dot.nodes[node]["tooltip"]


def test_state_based_action_is_drawn_as_such():
    game = Game(["Alice", "Bob"])
    game.add("Gaea's Cradle")
    game.add("Gaea's Cradle")
    forest = game.add("Forest")
    game.tap_for_mana(forest)  # the legend rule is checked before Alice gets priority
    dot = parse(log_diagram(game).source)
    sba = node_of(game, EventKind.SBA)
    assert "legend rule" in dot.label(sba) and dot.nodes[sba]["shape"] == "octagon"
    assert dot.edge(node_of(game, EventKind.ACTION), sba)["label"].strip() == "state-based"


def test_every_edge_says_its_relation_and_every_node_its_rules():
    for game in (reflection_game(), city_game()):
        dot = parse(log_diagram(game).source)
        for tail, head, attrs in dot.visible_edges():
            assert attrs.get("label", "").strip() in EDGE_WORDS, (tail, head, attrs)
        for name, attrs in dot.drawn().items():
            assert attrs.get("tooltip"), name
            if name.startswith("n"):
                event = game.log[int(name[1:])]
                if event.rules:
                    assert "CR " + ", ".join(event.rules) in dot.label(name)


def test_window_of_actions_and_earlier_causes():
    game = city_game()
    dot = parse(log_diagram(game, upto_action=2).source)
    assert "cluster_a3" not in dot.clusters
    assert not [n for n in dot.drawn() if dot.label(n).startswith("City of Brass deals")]
    dot = parse(log_diagram(game, since_action=3).source)
    assert set(dot.clusters) == {"cluster_a3", "cluster_legend"}
    ghost = f"g{[e for e in game.log if e.kind is EventKind.PUT_ON_STACK][0].id}"
    assert dot.label(ghost).startswith("Earlier: City of Brass's 'whenever this land becomes "
                                       "tapped' ability goes on the stack")
    assert dot.edge(ghost, node_of(game, EventKind.RESOLVED))["label"].strip() == "resolves"


# ------------------------------------------------------------------ folding
def test_a_thousand_artifacts_destroyed_at_once_fold():
    game = Game(["Alice", "Bob"])
    stones = [game.add("Powerstone") for _ in range(1000)]
    game.destroy(stones)
    graph = log_diagram(game)
    dot = parse(graph.source)
    assert len(dot.nodes) <= 60
    assert len(dot.drawn()) <= 40
    folds = dot.find("× 998 more like this")
    assert len(folds) == 2  # the destroyed ones, and the tokens ceasing to exist
    for f in folds:
        assert dot.nodes[f]["peripheries"] == "2"
    assert "Powerstone ×1,000" in dot.label(dot.members["cluster_a1"][0])
    assert graph.node_count == len(dot.drawn())


@pytest.mark.parametrize("n", [100, pytest.param(1000, marks=pytest.mark.slow)])
def test_a_thousand_triggers_and_their_resolutions_fold(n):
    game = Game(["Alice", "Bob"])
    walkers = [game.add("Hangarback Walker", counters={"+1/+1": 1}) for _ in range(n)]
    game.destroy(walkers)
    assert len(game.stack) == n
    while game.stack:
        game.resolve()
    dot = parse(log_diagram(game).source)
    assert len(dot.nodes) <= 60
    assert dot.find(f"× {n - 2} more like this")
    assert dot.find(f"× {n - 2} more actions like this")
    triggers = [n for n in dot.drawn() if dot.nodes[n]["shape"] == "house"]
    assert len(triggers) == 2
    resolves = [(t, h) for t, h, a in dot.visible_edges() if a.get("label", "").strip() == "resolves"]
    assert len(resolves) >= 2


def test_few_siblings_are_not_folded():
    game = Game(["Alice", "Bob"])
    stones = [game.add("Powerstone") for _ in range(FOLD_AT - 1)]
    game.destroy(stones)
    dot = parse(log_diagram(game).source)
    assert not dot.find("more like this")
    assert len(dot.find("is destroyed")) == FOLD_AT - 1


# ------------------------------------------------------------------ determinism
def test_same_log_same_dot_bytes_and_replay_too():
    game = city_game()
    first = log_diagram(game, title="City of Brass").source
    assert log_diagram(game, title="City of Brass").source == first
    assert log_diagram(game.replay(), title="City of Brass").source == first
    assert log_diagram(game.log, title="City of Brass").source.count("->") == first.count("->")
    assert " at 0x" not in first


def test_same_dot_bytes_whatever_the_hash_seed():
    code = ("import hashlib; from mtg_rulekit import Game; from mtg_rulekit.display import log_diagram; "
            "g = Game(['Alice', 'Bob']); c = g.add('City of Brass'); f = g.add('Forest'); "
            "g.add('Mana Reflection'); g.add('Contamination'); "
            "g.destroy([g.add('Powerstone') for _ in range(6)]); "
            "g.tap_for_mana(c, 'R'); g.tap_for_mana(f); g.resolve(); g.next_turn(); "
            "print(hashlib.sha256(log_diagram(g).source.encode()).hexdigest())")
    digests = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       timeout=120, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1


# ------------------------------------------------------------------ hostile names
def test_hostile_player_names_are_escaped_in_the_dot():
    evil, bob = "<script>alert(1)</script>", 'Bob "the" {Brace}\nNewline\\N'
    game = Game([evil, bob])
    game.add("Forest", player=bob)
    game.set_turn(active=bob)
    game.tap_for_mana(game.find("Forest"))
    source = log_diagram(game, title=f"{evil} vs {bob}").source
    assert "<script>" not in source and "&lt;script&gt;" in source
    assert 'Bob \\"the\\" {Brace}\\nNewline\u2216N' in source  # in a quoted tooltip
    assert "Bob &quot;the&quot; {Brace}<BR/>Newline\u2216N" in source  # in an HTML label
    assert "\\N" not in source


# ------------------------------------------------------------------ scenarios
def FakeScenario(narration: str = "Alice taps the Forest.") -> Scenario:  # noqa: N802
    """A scenario written for these tests: a Forest under Mana Reflection, tapped once, then
    refused a second time, then a look; its title and narration as given (JSON strings are
    TOML basic strings)."""
    title = 'A <b>"scenario"</b> {x}'
    return loads(f"""title = {json.dumps(title)}
ruling = ["R05"]
[setup]
permanent = [{{ card = "Forest", name = "forest" }}, {{ card = "Mana Reflection" }}]
[[step]]
narration = {json.dumps(narration)}
do = "tap_for_mana"
object = "forest"
[[step]]
narration = "It can't be tapped again."
do = "tap_for_mana"
object = "forest"
expect_error = {{ rule = "107.5" }}
[[step]]
narration = "Nothing to see."
do = "look"
""")


def test_scenario_clusters_are_steps_with_their_narration():
    dot = parse(scenario_diagram(FakeScenario()).source)
    labels = {n: _plain(a["label"]) for n, a in dot.clusters.items()}
    assert labels["cluster_s0"] == "Set-up"
    assert labels["cluster_s1"] == "Step 1 · turn 1, precombat main phase"
    assert labels["cluster_s2"] == "Step 2 · refused"
    assert labels["cluster_s3"] == "Step 3"
    assert "Alice taps the Forest." in dot.clusters["cluster_s1"]["tooltip"]  # said on hover
    assert dot.label(dot.members["cluster_s2"][0]) == (
        "Refused: tap for mana. Forest (#1) is already tapped, so it can't pay {T} (CR 107.5: "
        "the tap symbol {T}). Nothing changes.")
    assert dot.label(dot.members["cluster_s3"][0]) == "Look: nothing happens"
    assert any("Mana Reflection: modifies it" in dot.label(n) for n in dot.members["cluster_s1"])
    upto = parse(scenario_diagram(FakeScenario(), upto_step=1).source)
    assert set(upto.clusters) == {"cluster_s0", "cluster_s1", "cluster_legend"}


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9{}']+", text.lower())


def test_no_cluster_title_repeats_its_steps_narration():
    """Issue 28: the page shows the narration above the diagram; the cluster's bold title
    repeated it word for word. Every step of every shipped walkthrough: the title shares no
    run of four words with the narration (and is at most 8 words)."""
    checked = 0
    for sc in _shipped():
        dot = parse(scenario_diagram(sc).source)
        for k, step in enumerate(sc.steps, start=1):
            title = _plain(dot.clusters[f"cluster_s{k}"]["label"])
            said = _words(step["narration"] if isinstance(step, dict) else step.narration)
            runs = {tuple(said[i:i + 4]) for i in range(len(said) - 3)}
            words = _words(title)
            assert len(title.split()) <= 8, (sc.path, k, title)
            assert not any(tuple(words[i:i + 4]) in runs for i in range(len(words) - 3)), \
                (sc.path, k, title)
            checked += 1
    assert checked >= 80


def test_boxes_name_abilities_as_players_say_them():
    """Issue 28: "Kiki-Jiki's ability", "Slagstone Refinery's trigger" in the boxes; the
    Oracle text only in the tooltip (and in the step's description)."""
    dot = parse(scenario_diagram(_scenario("r13_token_copy_enters.toml")).source)
    (activate,) = dot.find("Alice activates Kiki-Jiki's ability")
    assert "Create a token" not in dot.label(activate)
    assert "{T}: Create a token that's a copy of target nonlegendary" in \
        dot.nodes[activate]["tooltip"]
    (resolves,) = [n for n in dot.find("Kiki-Jiki's ability resolves")
                   if dot.label(n).startswith("Kiki")]
    assert "Create a token" not in dot.label(resolves).capitalize()
    assert "create a token that's a copy" in dot.nodes[resolves]["tooltip"]
    assert dot.find("Gilded Goose's 'when this creature enters' ability resolves: create a "
                    "Food token")  # a short effect stays
    dot = parse(scenario_diagram(_scenario("r11_refinery_leaves_together.toml")).source)
    resolving = dot.find("Slagstone Refinery's trigger resolves")
    assert len(resolving) == 4
    for node in resolving:
        assert len(dot.label(node).split()) <= 12
        assert "Whenever this artifact or another nontoken artifact" in dot.nodes[node]["tooltip"] \
            or "Powerstone" in dot.nodes[node]["tooltip"]


def test_no_box_holds_a_whole_oracle_paragraph():
    """No box of any shipped walkthrough quotes an ability's text of more than 12 words: the
    Oracle text of every card used is looked for in every label."""
    from mtg_rulekit.cards import catalog

    texts = {text.strip() for card in catalog().values()
             for text in card.oracle.split("\n") + [a.text for a in card.printed.abilities]
             if len(text.split()) > 12}
    assert len(texts) > 20
    for sc in _shipped():
        dot = parse(scenario_diagram(sc).source)
        for name in dot.drawn():
            label = dot.label(name)
            assert not [t for t in texts if t in label or t.rstrip(".") in label], \
                (sc.path, label)


def test_hostile_narration_is_escaped():
    hostile = '<script>alert(1)</script> "quoted" {braces}\nnew line \\N & co'
    source = scenario_diagram(FakeScenario(hostile)).source
    assert "<script>" not in source and "&lt;script&gt;alert(1)&lt;/script&gt;" in source
    assert "&amp; co" in source
    assert 'A &lt;b&gt;&quot;scenario&quot;&lt;/b&gt; {x}' in source


def test_shipped_r05_scenario_diagram():
    from mtg_rulekit.scenario import by_ruling, load, shipped

    scenario = load(by_ruling(shipped())["R05"])
    graph = scenario_diagram(scenario)
    dot = parse(graph.source)
    assert len(dot.drawn()) <= 40
    steps = [c for c in dot.clusters if c.startswith("cluster_s") and c != "cluster_s0"]
    assert len(steps) == len(scenario.steps)
    assert dot.find("Mana Reflection: modifies it")


def _plain(label: str) -> str:
    """An HTML-like label as plain text: line breaks to spaces, tags dropped, entities decoded."""
    import html

    text = re.sub(r"<[^>]*>", "", label.replace("<BR/>", " "))
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


# ---------------------------------------------------------------- classroom
def _scenario(name: str):
    from mtg_rulekit.scenario import load, shipped_dir

    return load(shipped_dir() / name)


def _shipped():
    from mtg_rulekit.scenario import load, shipped

    return [load(p) for p in shipped()]


def test_every_stack_object_has_its_own_arrow_to_its_resolution():
    """Lesson 6's Refinery: folded "x 2 more like this" destroyed-nodes used to carry the
    resolves arrows, and the visible triggers had none. Now, in every shipped scenario's
    diagram, each resolution's "resolves" arrow leaves the box of what went on the stack,
    and no folded node sends one."""
    checked = 0
    for sc in _shipped():
        dot = parse(scenario_diagram(sc).source)
        for tail, head, attrs in dot.visible_edges():
            if attrs.get("label", "").strip() != "resolves":
                continue
            checked += 1
            assert not tail.startswith("f"), f"{sc.path}: folded node {tail} resolves {head}"
            assert "peripheries" not in dot.nodes.get(tail, {}), (sc.path, tail, head)
        final = game_at(sc, len(sc.steps))
        stacked = {e.payload.item_id for e in final.log
                   if e.kind in (EventKind.PUT_ON_STACK, EventKind.CAST)}
        resolved = {e.payload.item_id for e in final.log if e.kind is EventKind.RESOLVED}
        for item in stacked & resolved:
            origin = next(e for e in final.log if getattr(e.payload, "item_id", None) == item
                          and e.kind in (EventKind.PUT_ON_STACK, EventKind.CAST))
            res = next(e for e in final.log if getattr(e.payload, "item_id", None) == item
                       and e.kind is EventKind.RESOLVED)
            if f"n{res.id}" in dot.nodes and f"n{origin.id}" in dot.nodes:
                assert dot.edge(f"n{origin.id}", f"n{res.id}")["label"].strip() == "resolves"
    assert checked >= 10


def test_lesson_6_refinery_triggers_each_resolve_visibly():
    from mtg_rulekit.scenario import load, shipped_dir

    dot = parse(scenario_diagram(load(shipped_dir() / "r11_refinery_leaves_together.toml"))
                .source)
    triggers = dot.find("Slagstone Refinery's trigger for ")
    assert len(triggers) == 4
    fors = sorted(dot.label(n).split(" for ")[1].split(" goes on")[0] for n in triggers)
    assert fors == ["Fellwar Stone (#4)", "Memnite (#2)", "Springleaf Drum (#3)", "itself"]
    for node in triggers:  # named short, the whole text in the tooltip (audit N16)
        assert "trigger: Whenever this artifact or another nontoken artifact" in \
            dot.nodes[node]["tooltip"]
    for node in triggers:
        out = [a["label"].strip() for t, _h, a in dot.visible_edges() if t == node]
        assert "resolves" in out, node


def test_a_step_view_folds_the_refinerys_repeats_and_names_each_one():
    """Issue 28: lesson 6's step views fold the repeated chains to one drawn in full and one
    double-outlined box that says who the others are and what each caused (R11: the Refinery
    sees each artifact that dies with it), so the step fits a projector's pane; the whole
    story still draws all four triggers (above)."""
    from mtg_rulekit.display.flow import step_diagram

    sc = _scenario("r11_refinery_leaves_together.toml")
    dot = parse(step_diagram(sc, 2).source)
    [fold] = dot.find("× 3 more like this")
    words = dot.label(fold)
    for name in ("Memnite (#2)", "Springleaf Drum (#3)", "Fellwar Stone (#4)"):
        assert name in words, words
    assert "(each: Slagstone Refinery's trigger for it goes on the stack)" in words, words
    assert dot.nodes[fold]["peripheries"] == "2"
    # the one drawn in full: the Refinery's own trigger, "for itself"
    assert len(dot.find("Slagstone Refinery's trigger for itself")) == 1
    # the resolutions (step 3): one in full, the others' tokens named in the fold
    dot = parse(step_diagram(sc, 3).source)
    [fold] = dot.find("× 3 more like this")
    assert "Powerstone token (#29, #30, #31))" in dot.label(fold), dot.label(fold)
    assert len(dot.find("Alice creates a tapped Powerstone token (#28)")) == 1
    rip = parse(step_diagram(_scenario("r11_refinery_rest_in_peace.toml"), 2).source)
    [fold] = rip.find("× 3 more like this")
    assert "Fellwar Stone (#5)" in rip.label(fold)
    assert rip.find("Rest in Peace")  # the chain drawn in full shows the replacement


def test_a_step_view_folds_same_kind_leaves_and_names_what_differs():
    """Issue 28: in a step view, four or more events of the same kind and cause with nothing
    under them fold too, whatever each says: lesson 8's end of the turn (R14) draws one
    "Effect ends" in full and one box that names the other three; the whole story draws all
    four (a fold of a step view only)."""
    from mtg_rulekit.display.flow import scenario_diagram, step_diagram

    sc = _scenario("r14_exert_borrowed_creature.toml")
    k = len(sc.steps)  # the end of the turn: cleanup, Bob's untap step
    dot = parse(step_diagram(sc, k).source)
    [fold] = dot.find("× 3 more like this")
    words = dot.label(fold)
    for effect in ("gains haste", "gets +1/+3", "gains lifelink"):
        assert effect in words, words
    assert dot.nodes[fold]["peripheries"] == "2"
    assert len(dot.find("Effect ends")) == 1  # the one drawn in full
    assert dot.find("becomes untapped")  # R14's point, in the same step
    assert len(parse(scenario_diagram(sc).source).find("Effect ends")) == 4


def test_a_box_says_a_chosen_target_once_and_keeps_every_choice_it_does_not_name():
    """Issue 28's short words: the reflexive trigger's box names its target once ("... ability
    targets Glory-Bound Initiate (#2)", not again as "(Alice chose target: ...)"), and who
    chose it stays in the tooltip; a choice the box does not name (R13: the token copy's
    creature type, chosen again) stays in the box."""
    from mtg_rulekit.display.flow import step_diagram

    dot = parse(step_diagram(_scenario("r17_exert_only_when_declared.toml"), 1).source)
    [box] = dot.find("'when you do' ability targets Glory-Bound Initiate (#2)")
    assert "chose" not in dot.label(box) and dot.label(box).count("Glory-Bound") == 1
    assert "Alice chose target: Glory-Bound Initiate (#2)" in dot.nodes[box]["tooltip"]
    dot = parse(step_diagram(_scenario("r13_token_copy_enters.toml"), 5).source)
    assert dot.find("(Alice chose creature type: Goblin)")


def test_a_refused_steps_note_says_which_action_and_why():
    from mtg_rulekit.scenario import load, shipped_dir

    dot = parse(scenario_diagram(load(shipped_dir() / "r07_paying_tap.toml")).source)
    note = dot.label(dot.members["cluster_s1"][0])
    assert note.startswith("Refused: tap for mana. Llanowar Elves")
    assert "summoning sickness" in note and "CR 302.6" in note


def test_r06_replacement_boxes_show_the_counters_each_effect_leaves():
    """Audit N10: the two replacement boxes differ, and show the ruling's numbers: Hangarback
    Walker enters with 2 +1/+1 counters, then 3 with Hardened Scales (CR 614.1c, 107.3m)."""
    from mtg_rulekit.scenario import load, shipped_dir

    dot = parse(scenario_diagram(load(shipped_dir() / "r06_x_in_enters.toml")).source)
    two = dot.find("battlefield (2 +1/+1 counters)")
    three = dot.find("battlefield (3 +1/+1 counters)")
    assert len(two) == 1 and len(three) == 1
    assert "Hangarback Walker enters with X" in dot.label(two[0])
    assert "Hardened Scales" in dot.label(three[0])


def test_watery_graves_life_payment_is_its_own_box_under_the_land_entering():
    """Paying life is losing life (CR 119.4): the diagram shows the loss as its own event,
    drawn under the land's entering, not folded into it."""
    game = Game()
    grave = game.add("Watery Grave", zone="hand")
    game.play_land(grave, pay_life=True)
    dot = parse(log_diagram(game).source)
    (paid,) = dot.find("pays 2 life for Watery Grave")
    lost = next(e for e in game.log if e.kind is EventKind.LIFE_LOST)
    assert paid == f"n{lost.id}"
    assert any(h == paid for _t, h, _a in dot.visible_edges())


# ---------------------------------------------------------------- the legend strip
def test_the_legend_strip_lists_only_the_shapes_on_screen():
    from mtg_rulekit.display.flow import legend_strip, step_diagram

    sc = _scenario("r05_replacement_modifies_production.toml")
    whole = scenario_diagram(sc)
    setup_only = legend_strip(whole, {"s0"})
    assert "data-role='setup'" in setup_only and setup_only.count("<li") == 1
    step1 = legend_strip(whole, {"s0", "s1"})
    assert "data-role='replacement'" in step1 and "data-role='proposed'" in step1
    view = step_diagram(sc, 1)
    strip = legend_strip(view)
    assert "data-role='summary'" in strip  # the set-up, folded to one box
    assert "data-role='setup'" not in strip  # ... so its own shape is not on screen
    for key in ("action", "cost", "mana", "replacement"):
        assert f"data-role='{key}'" in strip
    used_here = {m for m in re.findall(r'shape=(\w+)', view.source)}
    assert len(re.findall("<li", strip)) <= len(used_here) + 3
    assert "<script" not in strip and "aria-label='What the shapes mean'" in strip
    assert legend_strip(view, {"s9"}) == ""
