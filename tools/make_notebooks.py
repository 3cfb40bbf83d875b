"""Write the lesson notebooks in notebooks/ (without outputs): `python tools/make_notebooks.py`.

The notebooks are the source of truth once written; this script is how they were written and is
kept so a change to every lesson (a new cell, a renamed helper) is one edit. Cell ids are
deterministic, so re-running it gives byte-identical files.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "notebooks"

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}

SANDBOX_NOTE = """\
## Sandbox: try it yourself

> **The sandbox needs a running kernel.** Open this notebook in JupyterLab (`make lab`) and run
> the cells. In the exported HTML page the sandbox is only a picture of its starting position:
> its buttons do nothing there (the walkthroughs above and the questions keep working).

Choose a permanent and a button; the tables and the diagram of your last few clicks redraw after
each one. An illegal move is refused with the rule that forbids it, and nothing changes. **Undo**
takes back your last click."""

IMPORT = "from rulekit.display import lesson\nfrom rulekit.display.widgets import Sandbox, Stepper"


def predict(question: str, answer: str) -> str:
    """A "predict, then reveal" question: <details> reveals in any browser, without a kernel."""
    return (f"<details>\n<summary><b>Predict:</b> {question}</summary>\n\n{answer}\n\n"
            "</details>")


def questions(*pairs: tuple[str, str]) -> str:
    return "## Predict, then reveal\n\nDecide on your answer first, then click to check it.\n\n" \
        + "\n\n".join(predict(q, a) for q, a in pairs)


def walkthrough(title: str, scenario: str, intro: str) -> list[tuple[str, str]]:
    return [("md", f"### Walkthrough: {title}\n\n{intro}"),
            ("code", f'Stepper("{scenario}")')]


STEPPER_HELP = """\
Each walkthrough below is a scenario shipped with the kit, played on the real engine. Move with
**Play**, the **slider**, the **step number** (type it, or use the arrow keys) or the **step
buttons**; each step shows the narration, the board, the players' life and mana, the stack,
the events of the step and the event and trigger diagram so far."""


# ------------------------------------------------------------------ lessons
LESSONS: dict[str, list[tuple[str, str]]] = {}

LESSONS["00_start_here"] = [
    ("md", """\
# Start here: how to use rulekit

rulekit is a set of lessons on the Magic: The Gathering rules that trip players up: mana
abilities and what a permanent *could produce*, tapping for mana and what triggers or replaces
on it, the {T} and {Q} symbols and summoning sickness, X in enters-the-battlefield abilities,
Powerstone tokens and Slagstone Refinery, token copies and reflexive triggers, and exert.

Nothing in a lesson is drawn by hand: every table, walkthrough and diagram comes from one small
rules engine playing the example for real, and the kit's tests check that it follows each
ruling."""),
    ("md", """\
## Three ways to use a lesson

- **In JupyterLab.** Run `make lab` in the project folder and open a notebook in `notebooks/`.
  Choose *Run ▸ Run All Cells*. Everything works, including the sandboxes.
- **As a web page, offline.** `make lessons` executes every notebook and writes plain HTML
  pages to `site/`. Open them in any browser, with no Python and no network: the walkthroughs
  and the "predict, then reveal" questions work there, the sandboxes need JupyterLab.
- **On a projector.** Type is large and contrast high; step with the keyboard (Tab to the step
  number, then the up and down arrow keys)."""),
    ("md", f"""\
## Stepping through a walkthrough

{STEPPER_HELP}

A green line says the engine agrees with what the walkthrough expects at that step; a red
one would list what differs. A step that tries something illegal shows the game's refusal and
the rule behind it.

Here is a short one, from the lesson on tapped-for-mana triggers:"""),
    ("code", 'from rulekit.display import lesson\nfrom rulekit.display.widgets import Stepper\n\n'
             'Stepper("r04_triggers_need_mana")'),
    ("md", """\
## Reading the diagrams

Each diagram grows from the set-up at the top, one box per step. Inside a step, every event
hangs under the event that caused it, and the arrow says how: *does*, *pays*, *triggers*,
*resolves*, *replaced*. Shape and color both carry meaning:

| shape | meaning |
|---|---|
| box with a bold outline | a player's action: where everything below it starts |
| orange hexagon | a cost being paid |
| blue 3-D box | a spell cast or an ability activated (it goes on the stack) |
| yellow house | an ability triggers |
| purple arrow-ended box | a spell or ability resolves |
| green cylinder | mana enters a mana pool |
| dashed outline | something that did not happen as first proposed (a replacement effect changed it) |
| blue octagon | a state-based action |
| note | a rule explaining what did or didn't happen |

Every box shows the Comprehensive Rules (CR) numbers involved, and hovering over it shows its
full text."""),
    ("md", """\
## The sandboxes

Each lesson ends with a sandbox: a live game with buttons to tap permanents for mana, activate
abilities (including {Q} ones), cast spells, attack and exert, make token copies, destroy
several permanents at once, pass priority, move to the next step or turn (watch the untap
step) and undo. A move the rules forbid is refused with the rule that forbids it, and nothing
changes. Sandboxes need a running kernel (JupyterLab)."""),
    ("md", "## The lessons"),
    ("code", "lesson.show_lessons()"),
    ("md", """\
## The rulings and where they are covered

The kit teaches nineteen rulings, R01 to R19, from the official rulings pages of Slagstone
Refinery and Sandstorm Crasher, in its own words. The table below is generated each time this
notebook runs: it lists, for every ruling, the lesson sections, the walkthroughs, the tests and
the diagram that cover it."""),
    ("code", "lesson.show_rulings_table()"),
]

LESSONS["01_tapping_and_summoning_sickness"] = [
    ("md", """\
# Lesson 1: Tapping, untapping and summoning sickness

Many costs ask a permanent to turn sideways ({T}) or to turn back upright ({Q}). Two questions
decide whether it can: *is it in the right position?* and, for a creature, *has its controller
had it since their turn began?*"""),
    ("code", IMPORT + '\n\nlesson.rulings_box("R07", "R08")'),
    ("md", """\
## Paying {T}: an untapped permanent, and a creature you have had since your turn began (R07)

The tap symbol {T} in a cost means "tap this permanent" (CR 107.5). Only an **untapped**
permanent can do that, so a tapped land can't pay {T} a second time.

For a **creature** there is one more condition, usually called summoning sickness
(CR 302.6, 602.5a): its abilities with {T} in the cost can be activated only if its controller
has controlled it continuously since the start of their most recent turn. A creature with haste
ignores this. Lands, artifacts and other noncreature permanents are never "summoning sick".

The condition is about the creature's *own* {T} abilities. Springleaf Drum's cost says "{T},
tap an untapped creature you control": that is the Drum's ability, so a creature that arrived
this turn can be the one tapped for it."""),
    ("md", """\
## Paying {Q}: a tapped permanent, with the same rule for creatures (R08)

The untap symbol {Q} means "untap this permanent" (CR 107.6). It is the mirror image of {T}:
only a **tapped** permanent can pay it. A creature's {Q} abilities have the same condition as
its {T} abilities: its controller must have had it since their most recent turn began
(CR 302.6).

Untapping is not tapping: an ability with {Q} in its cost is never "tapping a permanent for
mana", so effects such as Mana Reflection don't touch the mana it makes."""),
    ("md", STEPPER_HELP),
    *walkthrough("paying {T}", "r07_paying_tap",
                 "Alice's Llanowar Elves arrived this turn, her Forest is already tapped, and "
                 "Springleaf Drum wants to tap a creature."),
    *walkthrough("paying {Q}", "r08_paying_untap",
                 "Pili-Pala: \"{2}, {Q}: Add one mana of any color.\" One is untapped, one "
                 "tapped and old, one tapped and new."),
    ("md", questions(
        ("Alice's Llanowar Elves came under her control this turn. Can it be the creature that "
         "Springleaf Drum taps as part of its cost?",
         "**Yes.** Summoning sickness stops only the creature's *own* {T} and {Q} abilities "
         "(CR 302.6). Tapping it for the Drum's cost is the Drum's ability. Step 3 of the first "
         "walkthrough does exactly this."),
        ("Alice played a Forest this turn. Can she tap it for mana right away?",
         "**Yes.** Summoning sickness applies only to creatures. A land that isn't a creature "
         "can pay {T} the turn it arrives (a land creature such as Dryad Arbor can't)."),
        ("Alice's Pili-Pala is untapped. Can she pay {2} and {Q} to get one mana?",
         "**No.** {Q} means *untap this permanent*, and an untapped permanent can't be untapped "
         "(CR 107.6). Step 1 of the second walkthrough is refused for this reason."),
        ("Alice controls Mana Reflection (\"If you tap a permanent for mana, it produces twice "
         "as much of that mana instead\"). How much mana does Pili-Pala's {Q} ability make?",
         "**One.** Pili-Pala is *untapped* for mana, not tapped, so Mana Reflection doesn't "
         "apply (CR 106.12). Step 2 of the second walkthrough shows a single {R}."),
    )),
    ("md", SANDBOX_NOTE + """

Things to try: tap the new Llanowar Elves (refused); activate Springleaf Drum choosing the
Elves as **Target** (the creature its cost taps) and typing a color such as `G` in **Mana**;
tap two lands, then activate the older Pili-Pala's {Q} ability; try the new Pili-Pala's
(refused); then click **Next turn** twice and watch the untap step untap everything."""),
    ("code", """\
from rulekit import Game

game = Game(["Alice", "Bob"])
game.set_turn(turn=3, active="Alice", step="main1")
game.add("Llanowar Elves", player="Alice", sick=True)  # arrived this turn
game.add("Forest", player="Alice", tapped=True)
game.add("Forest", player="Alice")
game.add("Wastes", player="Alice")
game.add("Springleaf Drum", player="Alice")
game.add("Pili-Pala", player="Alice", tapped=True)  # Alice's since before this turn
game.add("Pili-Pala", player="Alice", tapped=True, sick=True)  # arrived this turn
Sandbox(game)"""),
    ("md", """\
## Summary

- {T} needs an untapped permanent; {Q} needs a tapped one (CR 107.5, 107.6).
- A creature's own {T} and {Q} abilities also need its controller to have had it since their
  most recent turn began, unless it has haste (CR 302.6). Noncreature permanents never wait.
- Tapping a creature *for another permanent's cost* is not using its {T} ability.
- Untapping for mana ({Q}) is not tapping for mana."""),
]

LESSONS["02_mana_abilities_and_could_produce"] = [
    ("md", """\
# Lesson 2: Mana abilities, undefined mana and "could produce"

A mana ability is an activated ability that could add mana, has no target and isn't a loyalty
ability (CR 605.1a); it doesn't use the stack: it resolves as soon as it is activated (CR 605).
Some mana abilities don't name their mana directly: they ask what other permanents *could
produce*. This lesson is about what happens when that question has an answer, and when it
doesn't."""),
    ("code", IMPORT + '\n\nlesson.rulings_box("R01", "R02", "R03")'),
    ("md", """\
## Mana of an undefined type is no mana (R01)

If an ability would add mana of a type that can't be worked out, it adds **no mana at all**
(CR 106.5). Exotic Orchard adds "one mana of any color that a land an opponent controls could
produce": when the opponents control no lands, no color can be named, so the Orchard taps and
makes nothing. Its cost is still paid.

Zero mana of a *defined* type is different: Gaea's Cradle makes {G} for each creature you
control; with no creatures its type is perfectly defined (green), the amount is just zero."""),
    ("md", """\
## What a permanent could produce (R02)

To find the types of mana a permanent **could produce** (CR 106.7), look at its mana abilities
and ask what they would make if they resolved right now:

- costs are ignored: a tapped land still could produce its mana, and a cost you couldn't pay
  doesn't matter;
- replacement effects that would change the mana count, applied in any order;
- abilities that ask the same question about other permanents follow the chain; where nothing
  can be defined, the answer is nothing."""),
    ("md", """\
## Tapping for mana means a mana ability with {T} in its cost (R03)

"Tapping a permanent for mana" means activating one of its mana abilities that has {T} in its
cost (CR 106.12, 605.1a). A mana ability without {T} still makes mana, but it is not tapping
for mana, so nothing that cares about "tapped for mana" notices it. Calciform Pools has both
kinds: "{T}: Add {C}" and "{1}, Remove X storage counters: Add X mana ..."."""),
    ("md", STEPPER_HELP),
    *walkthrough("no mana from an undefined type", "r01_undefined_mana",
                 "Exotic Orchard and two Reflecting Pools, with nothing that defines a color."),
    *walkthrough("could produce follows other lands", "r02_could_produce_chains",
                 "Exotic Orchard and Reflecting Pool read other lands; then one of those lands "
                 "is destroyed."),
    *walkthrough("only {T} abilities tap for mana", "r03_only_tap_abilities",
                 "Calciform Pools, Wild Growth and Mana Flare."),
    ("md", questions(
        ("Bob controls no lands. Alice taps Exotic Orchard. Is the Orchard tapped, and what "
         "mana does she get?",
         "**It is tapped, and she gets nothing.** The cost is paid, but no color can be named, "
         "so the ability makes no mana (CR 106.5)."),
        ("Alice's Forest is tapped. For her Reflecting Pool, could the Forest produce {G}?",
         "**Yes.** \"Could produce\" ignores costs (CR 106.7), so a tapped Forest still could "
         "produce green, and Reflecting Pool can make {G}."),
        ("Gaea's Cradle with no creatures around makes nothing. Is that because its mana is of "
         "an undefined type?",
         "**No.** Its type is defined: green. It makes one {G} for each creature, and zero "
         "creatures means zero mana."),
        ("Alice uses Calciform Pools' \"{1}, Remove X storage counters\" ability for {W}{U}. "
         "The Pools is enchanted with Wild Growth. Does Wild Growth add {G}?",
         "**No.** That ability has no {T} in its cost, so using it is not tapping the land for "
         "mana (CR 106.12), even though it makes mana. Step 2 of the third walkthrough."),
    )),
    ("md", SANDBOX_NOTE + """

Things to try: tap Exotic Orchard with `U` in **Mana** (Bob has an Island), then destroy
Bob's Island and Mountain together and tap it again; tap Reflecting Pool for a type one of
Alice's lands could produce; tap Wastes for {C}, then use Calciform Pools' counter ability
(choose it in **Ability**, set **X** to 2 and type `WU` in **Mana**) and compare it with its
{T} ability."""),
    ("code", """\
from rulekit import Game

game = Game(["Alice", "Bob"])
game.set_turn(turn=4, active="Alice", step="main1")
game.add("Exotic Orchard", player="Alice")
game.add("Reflecting Pool", player="Alice")
game.add("Forest", player="Alice", tapped=True)
game.add("Wastes", player="Alice")
game.add("Calciform Pools", player="Alice", counters={"storage": 2})
game.add("Gaea's Cradle", player="Alice")
game.add("Island", player="Bob")
game.add("Mountain", player="Bob")
Sandbox(game)"""),
    ("md", """\
## Summary

- A mana ability that can't define its type of mana makes no mana (CR 106.5); zero of a defined
  type is a different thing.
- "Could produce" asks what the mana abilities would make right now, ignoring costs, with
  replacement effects in any order (CR 106.7).
- Only a mana ability with {T} in its cost is "tapping for mana" (CR 106.12)."""),
]

LESSONS["03_tapped_for_mana_triggers_and_replacements"] = [
    ("md", """\
# Lesson 3: "Tapped for mana": triggers and replacement effects

Two kinds of cards watch for a permanent being tapped for mana. Some **trigger** ("whenever
enchanted land is tapped for mana, its controller adds an additional {G}"); others **replace**
the mana ("if you tap a permanent for mana, it produces twice as much instead"). They act at
different moments, and that changes the result."""),
    ("code", IMPORT + '\n\nlesson.rulings_box("R04", "R05")'),
    ("md", """\
## "Is tapped for mana" triggers need mana to be made (R04)

A "whenever ... is tapped for mana" ability triggers when the mana ability **resolves and
actually produces mana** (CR 106.12a); if it names a type ("tapped for {G}"), that type must be
produced. An Exotic Orchard that makes nothing was tapped, but not *for mana*: nothing
triggers. Triggered abilities like Wild Growth's are themselves mana abilities: they resolve at
once, without the stack (CR 605.1b)."""),
    ("md", """\
## "Tapped for mana" replacement effects change the mana as it is made (R05)

Mana Reflection, Nyxbloom Ancient and Contamination are replacement effects (CR 614.1a): they
modify the event of the tapped permanent **producing** its mana, while the mana ability
resolves (CR 106.12b). The extra mana from a triggered ability (Wild Growth, Mana Flare) is not
produced by tapping the permanent, so it isn't doubled.

When several replacement effects apply to the same event, the player tapping chooses the order
(CR 616.1), and the order can change the result."""),
    ("md", STEPPER_HELP),
    *walkthrough("triggers need mana", "r04_triggers_need_mana",
                 "Wild Growth and Mana Flare, on an Orchard that makes nothing and on a Forest."),
    *walkthrough("a replacement modifies the production", "r05_replacement_modifies_production",
                 "Mana Reflection and Wild Growth on the same Forest."),
    *walkthrough("the order of replacement effects", "r02_could_produce_replacements",
                 "Contamination and Mana Reflection, applied in both orders."),
    ("md", questions(
        ("Bob controls no lands. Alice taps her Exotic Orchard, enchanted with Wild Growth. "
         "Does Wild Growth add {G}?",
         "**No.** The Orchard produced no mana, so it was not tapped *for mana* and Wild Growth "
         "doesn't trigger (CR 106.12a). Step 1 of the first walkthrough."),
        ("Alice controls Mana Reflection and taps a Forest enchanted with Wild Growth. How much "
         "green mana does she get?",
         "**Three.** Mana Reflection doubles what the Forest produces: {G}{G}. Wild Growth's "
         "{G} comes from a triggered ability, not from tapping the Forest, so it isn't doubled "
         "(CR 106.12b)."),
        ("With Contamination and Mana Reflection both out, Alice taps a Forest. Which order of "
         "the two effects gives her more mana?",
         "**Contamination first.** It turns {G} into {B}, then Mana Reflection doubles that: "
         "{B}{B}. The other order gives {G}{G} turned into a single {B}. She picks the order "
         "(CR 616.1)."),
    )),
    ("md", SANDBOX_NOTE + """

Things to try: tap the Forest with Wild Growth, then the plain Forest, and compare the
events; tap Exotic Orchard (Bob has no lands) and see that Wild Growth and Mana Flare stay
silent."""),
    ("code", """\
from rulekit import Game

game = Game(["Alice", "Bob"])
game.set_turn(turn=4, active="Alice", step="main1")
forest = game.add("Forest", player="Alice")
game.add("Wild Growth", player="Alice", attached_to=forest.id)
game.add("Forest", player="Alice")
orchard = game.add("Exotic Orchard", player="Alice")
game.add("Wild Growth", player="Alice", attached_to=orchard.id)
game.add("Mana Reflection", player="Alice")
game.add("Mana Flare", player="Bob")
Sandbox(game)"""),
    ("md", """\
## Summary

- "Whenever ... is tapped for mana" triggers only when mana is actually produced (CR 106.12a).
- "If you tap a permanent for mana, it produces ... instead" changes the production itself,
  during the mana ability's resolution (CR 106.12b); mana added by triggers isn't affected.
- Several replacement effects: the affected player picks the order (CR 616.1)."""),
]

LESSONS["04_x_in_enters_abilities"] = [
    ("md", """\
# Lesson 4: X in enters-the-battlefield abilities

Hangarback Walker costs {X}{X} and "enters with X +1/+1 counters". On the battlefield, though,
X is 0. Which X does "enters with" use?"""),
    ("code", IMPORT + '\n\nlesson.rulings_box("R06")'),
    ("md", """\
## X in an enters ability is the X paid for the spell (R06)

Normally every X on one object has the same value (CR 107.3i), and on the battlefield the X of
a permanent is 0: Hangarback Walker on the battlefield has mana value 0. The exception: when an
enters-the-battlefield trigger or an "enters with" replacement effect refers to X, it uses
**the X chosen when the permanent was cast as a spell** (CR 107.3m), although X for the
permanent itself is still 0. Cast for X = 2, the Walker enters with two counters.

If the permanent wasn't cast with a value of X (it was put onto the battlefield some other
way, or cast for X = 0), X is 0: an Endless One cast for X = 0 is a 0/0 and dies to a
state-based action (CR 704.5f)."""),
    ("md", STEPPER_HELP),
    *walkthrough("X in enters with", "r06_x_in_enters",
                 "Hangarback Walker for X = 2 and Endless One for X = 0, with Hardened Scales."),
    ("md", questions(
        ("Alice casts Hangarback Walker with X = 2 while she controls Hardened Scales. How many "
         "+1/+1 counters does it enter with?",
         "**Three.** X = 2 from the spell (CR 107.3m), and Hardened Scales adds one more."),
        ("What is the mana value of that Hangarback Walker once it is on the battlefield?",
         "**0.** X for the permanent is 0 once it is on the battlefield (CR 107.3m). Only the "
         "\"enters with\" effect uses the X that was paid."),
        ("Alice casts Endless One for X = 0 with Hardened Scales out. What happens?",
         "**It dies.** Zero counters would be put on it, so Hardened Scales has nothing to add to "
         "(it needs \"one or more\"); a 0/0 creature is put into the graveyard as a state-based "
         "action (CR 704.5f). Step 4 of the walkthrough."),
    )),
    ("md", SANDBOX_NOTE + """

Things to try: tap lands for mana, set **X**, and cast Hangarback Walker from Alice's hand;
click **Resolve top of stack** and read its counters on the board. Then cast Endless One for
X = 0."""),
    ("code", """\
from rulekit import Game

game = Game(["Alice", "Bob"])
game.set_turn(turn=5, active="Alice", step="main1")
for land in ["Forest", "Forest", "Wastes", "Wastes", "Plains"]:
    game.add(land, player="Alice")
game.add("Hardened Scales", player="Alice")
game.add("Hangarback Walker", player="Alice", zone="hand")
game.add("Endless One", player="Alice", zone="hand")
Sandbox(game)"""),
    ("md", """\
## Summary

- An "enters with X" or enters trigger uses the X paid for the spell (CR 107.3m).
- The permanent's own X is 0 on the battlefield (CR 107.3m), and one that wasn't cast with a
  value of X gets X = 0 in its enters abilities too."""),
]

LESSONS["05_powerstone_tokens"] = [
    ("md", """\
# Lesson 5: Powerstone tokens

The Brothers' War introduced Powerstones: artifact tokens that tap for colorless mana you can't
spend on nonartifact spells. Cards that make them almost always make them *tapped*. Which of
that is part of being a Powerstone?"""),
    ("code", IMPORT + '\n\nlesson.rulings_box("R10", "R09", "R12")'),
    ("md", """\
## A Powerstone is a predefined token (R10)

"Powerstone" is one of the predefined tokens (CR 111.10): the rules say what it is, so a card
only has to say "create a Powerstone token". It is a **colorless artifact** with the subtype
Powerstone and the ability "{T}: Add {C}. This mana can't be spent to cast a nonartifact
spell." (CR 111.10h)."""),
    ("md", """\
## Tapped is not part of being a Powerstone (R09)

Fallaji Excavation says "create three **tapped** Powerstone tokens": entering tapped is what
that card does, not what a Powerstone is. A token copy of a Powerstone (Stolen Identity) copies
only its copiable values (CR 707.2), so it enters **untapped** and can be tapped for mana right
away. Powerstones untap in their controller's untap step like any other artifact."""),
    ("md", """\
## What Powerstone mana can pay for (R12)

The mana's only restriction is the one written on the token (CR 106.6): it can't be spent to
**cast a nonartifact spell**. Everything else is fine: artifact spells, activated abilities of
any permanent (artifact or not), ward and other costs. The mana's type is still colorless."""),
    ("md", STEPPER_HELP),
    *walkthrough("a predefined token", "r10_powerstone_token",
                 "Fallaji Excavation, then a turn cycle."),
    *walkthrough("a copy enters untapped", "r09_powerstone_copy_untapped",
                 "Stolen Identity copies a tapped Powerstone."),
    *walkthrough("what the mana can pay", "r12_powerstone_mana_uses",
                 "Powerstone mana on an ability, a nonartifact spell and an artifact spell."),
    ("md", questions(
        ("Fallaji Excavation created three tapped Powerstones on Alice's turn. On her next turn, "
         "do they untap?",
         "**Yes.** Entering tapped was how they were created, not something that keeps them "
         "tapped: they untap in her untap step like any artifact."),
        ("Stolen Identity makes a token copy of Alice's tapped Powerstone. Does the copy enter "
         "tapped?",
         "**No.** \"Tapped\" is a status, not a copiable value (CR 707.2), and Stolen Identity "
         "doesn't say \"tapped\". The copy enters untapped and can tap for {C} at once."),
        ("Alice's pool holds {C}{C} from Powerstones. Can she spend it on Hangarback Walker's "
         "\"{1}, {T}\" ability? On casting Grizzly Bears? On casting Hangarback Walker with "
         "X = 1?",
         "**Ability: yes. Grizzly Bears: no. Hangarback Walker: yes.** Only casting a "
         "*nonartifact spell* is forbidden (CR 106.6); an ability is not a spell, and the "
         "Walker is an artifact spell."),
    )),
    ("md", SANDBOX_NOTE + """

Things to try: tap a Powerstone and the Forest, then try to cast Grizzly Bears (refused:
CR 106.6); spend the same mana on Hangarback Walker's ability instead; click **Next turn**
twice and watch the tapped Powerstone untap."""),
    ("code", """\
from rulekit import Game

game = Game(["Alice", "Bob"])
game.set_turn(turn=6, active="Alice", step="main1")
game.add("Powerstone", player="Alice", token=True)
game.add("Powerstone", player="Alice", token=True)
game.add("Powerstone", player="Alice", token=True, tapped=True)
game.add("Forest", player="Alice")
game.add("Hangarback Walker", player="Alice", counters={"+1/+1": 1})
game.add("Grizzly Bears", player="Alice", zone="hand")
game.add("Hangarback Walker", player="Alice", zone="hand")
Sandbox(game)"""),
    ("md", """\
## Summary

- A Powerstone is a predefined colorless artifact token: "{T}: Add {C}. This mana can't be
  spent to cast a nonartifact spell." (CR 111.10h).
- Entering tapped is the creating card's instruction, not part of the token; a copy enters
  untapped.
- Its mana pays for anything except casting a nonartifact spell (CR 106.6)."""),
]

LESSONS["06_slagstone_refinery"] = [
    ("md", """\
# Lesson 6: Slagstone Refinery and leaving the battlefield together

Slagstone Refinery: "Whenever Slagstone Refinery or another nontoken artifact you control is
put into a graveyard from the battlefield or into exile from the battlefield, create a tapped
Powerstone token." What happens when the Refinery is destroyed **together** with other
artifacts?"""),
    ("code", IMPORT + '\n\nlesson.rulings_box("R11")'),
    ("md", """\
## Leaving the battlefield together: one trigger for each artifact (R11)

The Refinery's ability is a leaves-the-battlefield ability (CR 603.6c). Such abilities "look
back in time" (CR 603.10a): the game checks them against the board as it was just *before* the
event. So when Shatterstorm destroys the Refinery and other artifacts at the same time, the
Refinery was still there to see every one of them go, itself included.

Shatterstorm destroys them all in one event, but that event holds one occurrence for each
artifact put into a graveyard, and the ability triggers once per occurrence (CR 603.2c): **once
for each** nontoken artifact you controlled, **plus once for the Refinery itself**.
A token artifact doesn't count, and neither does an artifact another player controlled."""),
    ("md", STEPPER_HELP),
    *walkthrough("the Refinery sees them all", "r11_refinery_leaves_together",
                 "Shatterstorm destroys every artifact at once."),
    ("md", questions(
        ("Shatterstorm destroys Alice's Slagstone Refinery, Memnite, Springleaf Drum, Fellwar "
         "Stone and a Powerstone token. How many Powerstones does she get?",
         "**Four:** one each for Memnite, Springleaf Drum and Fellwar Stone, and one for the "
         "Refinery itself. Not one for the Powerstone token (the Refinery counts only nontoken "
         "artifacts)."),
        ("Bob's Bonesplitter was destroyed by the same Shatterstorm. Does Alice's Refinery "
         "trigger for it?",
         "**No.** The Refinery counts artifacts *you* control."),
        ("Do the new Powerstones enter tapped or untapped?",
         "**Tapped:** the Refinery's ability says \"create a tapped Powerstone token\"."),
    )),
    ("md", SANDBOX_NOTE + """

Things to try: choose several artifacts in **Destroy together** (Ctrl or Shift + click) and
destroy them at once; count the Refinery's triggers on the stack, then resolve them. Undo and
try destroying the Refinery alone, or only the Powerstone token."""),
    ("code", """\
from rulekit import Game

game = Game(["Alice", "Bob"])
game.set_turn(turn=8, active="Alice", step="main1")
game.add("Slagstone Refinery", player="Alice")
game.add("Memnite", player="Alice")
game.add("Springleaf Drum", player="Alice")
game.add("Fellwar Stone", player="Alice")
game.add("Powerstone", player="Alice", token=True)
game.add("Bonesplitter", player="Bob")
Sandbox(game)"""),
    ("md", """\
## Summary

- Leaves-the-battlefield abilities look back at the board just before the event
  (CR 603.6c, 603.10a).
- Slagstone Refinery destroyed with other nontoken artifacts you control triggers once for each
  of them and once for itself; tokens and other players' artifacts don't count."""),
]

LESSONS["07_token_copies_and_reflexive_triggers"] = [
    ("md", """\
# Lesson 7: Token copies and reflexive triggers

Cackling Counterpart, Kiki-Jiki and Sandstorm Crasher all create a token that's a copy of a
creature. What exactly does the token copy, and what happens as it enters?"""),
    ("code", IMPORT + '\n\nlesson.rulings_box("R13", "R15", "R18", "R19")'),
    ("md", """\
## A token copy's enter abilities work (R13)

A token copy has the copied creature's abilities **as it enters** (CR 707.5). So its own
"when this enters" triggers fire, and "as this enters" and "enters with" effects apply to it
(CR 614.1c). A copy of Gilded Goose makes a Food, just like the Goose did."""),
    ("md", """\
## Copying a creature that is itself a copy (R15)

A copy takes the **copiable values** of the original: what is printed on it, as changed by
copy effects (CR 707.2). If the original is itself copying something, its copiable values are
those of what it copies (CR 707.3). A token copy of a Clone that is copying Grizzly Bears is a
Grizzly Bears, not a Clone."""),
    ("md", """\
## Copying a token copies what created it said (R18)

A token's copiable values are the characteristics the effect that created it stated
(CR 111.3, 707.2). A copy of a Thopter token is a 1/1 colorless Thopter artifact creature with
flying, whatever else is affecting the original (Giant Growth's +3/+3 is not copied)."""),
    ("md", """\
## What Sandstorm Crasher's reflexive token copies (R19)

Sandstorm Crasher: "You may exert this creature as it attacks. When you do, create a token
that's a copy of target creature you control, tapped and attacking." "When you do" is a
**reflexive** triggered ability (CR 603.12): it triggers right as you exert the Crasher.

The token copies **only copiable values** (CR 707.2): not whether the original is tapped, not
its counters, not the Auras or Equipment attached to it, not other effects on it; a copy of a
crewed Vehicle isn't crewed. The token is tapped and attacking only because the Crasher's
ability says so."""),
    ("md", STEPPER_HELP),
    *walkthrough("a token copy's enter trigger", "r13_token_copy_enters",
                 "Cackling Counterpart copies Gilded Goose."),
    *walkthrough("copying a copy", "r15_copy_of_a_copy",
                 "Clone copies Grizzly Bears; then the Clone is copied."),
    *walkthrough("copying a token", "r18_copy_of_a_token",
                 "A Thopter token pumped by Giant Growth, then copied."),
    *walkthrough("what the exert token copies", "r19_exert_copy_values",
                 "Sandstorm Crasher copies a Grizzly Bears with counters and Equipment."),
    ("md", questions(
        ("Cackling Counterpart makes a token copy of Gilded Goose (\"When this creature "
         "enters, create a Food token\"). Does Alice get a Food?",
         "**Yes.** The token enters with the Goose's abilities, so its enter trigger fires "
         "(CR 707.5)."),
        ("Clone entered as a copy of Grizzly Bears. Alice makes a token copy of the Clone. "
         "What is the token's name?",
         "**Grizzly Bears.** It copies the Clone's copiable values, which are the Bears' "
         "(CR 707.3)."),
        ("Alice's Thopter token got +3/+3 from Giant Growth this turn. She copies it. What are "
         "the copy's power and toughness?",
         "**1/1**, with flying: what the effect that created the Thopter said (CR 111.3). Giant "
         "Growth is not a copy effect, so it isn't copied."),
        ("Sandstorm Crasher's token copies Alice's tapped Grizzly Bears that has two +1/+1 "
         "counters and Bonesplitter. What is the token?",
         "**A 2/2 Grizzly Bears, tapped and attacking, with no counters and no Equipment.** "
         "Tapped and attacking come from the Crasher's ability; counters and Equipment are not "
         "copiable values (CR 707.2)."),
    )),
    ("md", SANDBOX_NOTE + """

Things to try: choose a creature in **Copy which creature** and click **Create a token copy**
(Kiki-Jiki, Mirror Breaker's ability; it taps, so **Undo** before trying another): copy the
Grizzly Bears with counters and Bonesplitter and compare; copy Gilded Goose and resolve its
trigger. Then **Go to declare attackers**, choose the
Sandstorm Crasher as attacker, exert it, pick a **Target** for its trigger and declare."""),
    ("code", """\
from rulekit import Game

game = Game(["Alice", "Bob"])
game.set_turn(turn=5, active="Alice", step="main1")
game.add("Kiki-Jiki, Mirror Breaker", player="Alice")
game.add("Sandstorm Crasher", player="Alice")
bears = game.add("Grizzly Bears", player="Alice", counters={"+1/+1": 2})
game.add("Bonesplitter", player="Alice", attached_to=bears.id)
game.add("Gilded Goose", player="Alice")
game.add("Thopter", player="Alice", token=True)
game.add("Dwarven Trader", player="Bob")
Sandbox(game)"""),
    ("md", """\
## Summary

- A token copy enters with the copied abilities: its enter triggers and "enters with" effects
  work (CR 707.5).
- A copy of a copy is a copy of what that one copies (CR 707.3); a copy of a token is what the
  token's creating effect said (CR 111.3).
- Copies take copiable values only: never status, counters, attachments or other effects
  (CR 707.2). Sandstorm Crasher's "when you do" is a reflexive trigger (CR 603.12)."""),
]

LESSONS["08_exert"] = [
    ("md", """\
# Lesson 8: Exert

"You may exert this creature as it attacks." Exerting is an extra choice made while declaring
attackers, with a price: an exerted permanent won't untap during your next untap step
(CR 701.43a). Sandstorm Crasher, Glory-Bound Initiate and Combat Celebrant all use it."""),
    ("code", IMPORT + '\n\nlesson.rulings_box("R17", "R14", "R16")'),
    ("md", """\
## Exert only as the creature is declared as an attacker (R17)

You decide to exert a creature **while you declare it as an attacker** (CR 508.1g, 701.43d),
and only then: not earlier, not later in combat. A creature put onto the battlefield attacking
(like Sandstorm Crasher's token) was never declared as an attacker, so it can't be exerted
(CR 508.4). The "when you do" trigger goes on the stack in the declare attackers step and
resolves before blockers are declared (CR 508.2b)."""),
    ("md", """\
## Exerting a borrowed creature (R14)

"Won't untap during **your** next untap step" is about the player who exerted it. If you
exerted a creature you control only until end of turn (Act of Treason) and it goes back to its
owner, it untaps as usual in its owner's untap step (CR 502.3, 613.1b): the exert effect
waits for *your* untap step, where you no longer control it."""),
    ("md", """\
## Exerted, but already untapped: the effect just ends (R16)

If the exerted permanent is already untapped when your next untap step comes (vigilance kept it
untapped), the exert effect has nothing to stop and simply ends there (CR 701.43a, 701.43b,
502.3). If it becomes tapped later, it untaps normally in the untap step after that."""),
    ("md", STEPPER_HELP),
    *walkthrough("exert only when declared", "r17_exert_only_when_declared",
                 "Sandstorm Crasher exerts and copies Glory-Bound Initiate; can the token be "
                 "exerted?"),
    *walkthrough("a borrowed creature", "r14_exert_borrowed_creature",
                 "Act of Treason on Bob's Glory-Bound Initiate, exerted, then given back."),
    *walkthrough("already untapped", "r16_exert_already_untapped",
                 "Always Watching gives vigilance; the exerted Initiate never taps."),
    ("md", questions(
        ("Sandstorm Crasher's token copy of Glory-Bound Initiate enters tapped and attacking. "
         "Can Alice exert the token to give it +1/+3 and lifelink?",
         "**No.** Exert is chosen while declaring attackers, and the token was never declared "
         "as one: it was put onto the battlefield attacking (CR 508.4, 701.43d)."),
        ("Does the Crasher's \"when you do\" trigger resolve before or after Bob declares "
         "blockers?",
         "**Before.** It goes on the stack in the declare attackers step and resolves there, "
         "before the declare blockers step begins."),
        ("Alice exerted Bob's Glory-Bound Initiate, which she took with Act of Treason. At end "
         "of turn it goes back to Bob. Does it untap in Bob's untap step?",
         "**Yes.** The effect only stops it untapping during *Alice's* next untap step; Bob's "
         "untap step untaps it as usual (CR 502.3)."),
        ("Alice's Glory-Bound Initiate has vigilance and is exerted, so it stays untapped. What "
         "happens at her next untap step?",
         "**Nothing:** it is already untapped, so the exert effect ends without doing anything. "
         "If it is tapped later, it untaps normally after that (CR 701.43b)."),
    )),
    ("md", SANDBOX_NOTE + """

Things to try: **Go to declare attackers**; choose Glory-Bound Initiate as an attacker and
in **Exert**, and declare. Resolve its trigger, then click **Next turn** twice and watch it
stay tapped through Alice's next untap step. Undo, and try exerting a creature that has no
exert ability, or exerting one you didn't choose as an attacker."""),
    ("code", """\
from rulekit import Game

game = Game(["Alice", "Bob"])
game.set_turn(turn=6, active="Alice", step="main1")
game.add("Sandstorm Crasher", player="Alice")
game.add("Glory-Bound Initiate", player="Alice")
game.add("Grizzly Bears", player="Alice")
game.add("Dwarven Trader", player="Bob")
Sandbox(game)"""),
    ("md", """\
## Summary

- Exert is chosen only while declaring the creature as an attacker; a creature put onto the
  battlefield attacking can't be exerted (CR 508.1g, 508.4).
- An exerted permanent doesn't untap in the exerting player's next untap step (CR 701.43a);
  if that player no longer controls it, it untaps normally in its controller's.
- Already untapped at that untap step: the effect just ends (CR 701.43b)."""),
]


def build(name: str, cells: list[tuple[str, str]]) -> nbformat.NotebookNode:
    nb = new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    for i, (kind, source) in enumerate(cells):
        cell = new_markdown_cell(source) if kind == "md" else new_code_cell(source)
        cell["id"] = f"{name[:2]}-{i:02d}"
        nb.cells.append(cell)
    nbformat.validate(nb)
    return nb


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for name, cells in LESSONS.items():
        nb = build(name, cells)
        path = OUT / f"{name}.ipynb"
        text = nbformat.writes(nb) + "\n"
        if not path.exists() or path.read_text("utf-8") != text:
            path.write_text(text, "utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
