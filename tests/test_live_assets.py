"""What the build ships for the live sandbox, without a browser: the engine zip is
everything the page needs (it runs from its own unpacked files with no site-packages), the
npm packages are refused unless they are the pinned ones, a build without npm keeps the picture
and says why, and the lesson template adds the live box only when the runtime is there."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import nbformat
import pytest

from mtg_rulekit.export import live

SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
import mtg_rulekit
assert mtg_rulekit.__file__.startswith({root!r})
from mtg_rulekit.sandbox import page as sandbox_page
from mtg_rulekit.game import Game
from mtg_rulekit.sandbox import SandboxModel
game = Game(["Alice", "Bob"])
game.set_turn(turn=3, active="Alice", step="main1")
forest = game.add("Forest", player="Alice")
view = json.loads(sandbox_page.start(json.dumps(SandboxModel(game).position())))
tap = json.loads(sandbox_page.click(view["id"], "tap", json.dumps({{"permanent": forest.id}})))
again = json.loads(sandbox_page.click(view["id"], "tap", json.dumps({{"permanent": forest.id}})))
assert "graphviz" not in sys.modules  # the diagram's DOT is the kit's own (display/flow)
print(json.dumps([view["groups"][0][0], tap["last"], again["last"], tap["diagram"][:30]]))
"""


def test_the_engine_zip_is_all_the_page_needs(tmp_path):
    data = live.engine_zip()
    assert data == live.engine_zip()  # deterministic: the same checkout, the same bytes
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "mtg_rulekit/sandbox/page.py" in names
    assert not [n for n in names if not n.startswith("mtg_rulekit/")]  # the standard library suffices
    assert "mtg_rulekit/cards/catalog.toml" in names
    assert not [n for n in names if n.startswith(("mtg_rulekit/export/", "mtg_rulekit/scenarios/",
                                                  "mtg_rulekit/lab/", "mtg_rulekit/repo/"))
                or n in ("mtg_rulekit/display/widgets.py", "mtg_rulekit/display/walkthrough/widget.py")]
    # "Save as walkthrough" checks its text with the scenario format; the board is drawn there
    assert {"mtg_rulekit/scenario/model.py", "mtg_rulekit/display/board/render.py"} <= set(names)
    zipfile.ZipFile(io.BytesIO(data)).extractall(tmp_path / "engine")
    root = str(tmp_path / "engine")
    run = subprocess.run([sys.executable, "-S", "-c", SCRIPT.format(root=root)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    heading, tap, again, dot = json.loads(run.stdout)
    assert heading == "Mana and abilities" and dot.startswith("<ul class='rk-legend'")
    assert tap["kind"] == "done" and again["kind"] == "refused" and again["rule"]


def test_bytes_scripts_hold_the_bytes():
    import base64
    import gzip

    text = live.bytes_script("x.bin", b"\x00\x01rulekit" * 50, compress=True).decode()
    assert text.startswith("(globalThis.rulekitAssets=")
    payload = json.loads(text.split("base64:", 1)[1].rstrip("};\n"))
    assert gzip.decompress(base64.b64decode(payload)) == b"\x00\x01rulekit" * 50


def test_text_scripts_hold_the_text_unchanged():
    """The worker's script goes to the page as text (a blob of it starts the worker): any
    character, quotes and `</script>` included, comes back as it was."""
    source = 'self.x = "a\\"b</script>\\u2028 é";\n'
    text = live.text_script("w.js", source).decode()
    assert text.startswith("(globalThis.rulekitAssets=")
    assert json.loads(text.split("{text:", 1)[1].rstrip("};\n")) == source


def test_the_runtime_holds_pyodide_and_viz_unmodified():
    """No rewriting of the packages' code: each module the worker imports is, byte for byte,
    the npm package's file (the cached runtime made from the pinned tarballs)."""
    import base64
    import gzip
    import tarfile

    from mtg_rulekit.export.assets import cache_dir

    folder = cache_dir() / f"live-sandbox-{live.PYODIDE[1]}-{live.VIZ[1]}-f{live.FORMAT}"
    tarballs = cache_dir() / "npm"
    if not (folder / "DONE").is_file() or not tarballs.is_dir():
        pytest.skip("the live sandbox's runtime has not been made here (make lessons)")

    def shipped(script: str, name: str) -> bytes:
        text = (folder / script).read_text("utf-8")
        entry = text.split(f"[{json.dumps(name)}]=", 1)[1]
        return gzip.decompress(base64.b64decode(entry.split('base64:"', 1)[1].split('"', 1)[0]))

    def packaged(tarball: str, member: str) -> bytes:
        with tarfile.open(tarballs / tarball) as tar:
            return tar.extractfile(member).read()  # type: ignore[union-attr]

    pyodide = live._tarball_name(*live.PYODIDE[:2])
    viz = live._tarball_name(*live.VIZ[:2])
    assert shipped("pyodide-asm.js", "pyodide.asm.mjs") == packaged(pyodide,
                                                                     "package/pyodide.asm.mjs")
    assert shipped("pyodide-loader.js", "pyodide.mjs") == packaged(pyodide, "package/pyodide.mjs")
    assert shipped("viz.js", "viz.mjs") == packaged(viz, "package/dist/viz.js")
    assert not hasattr(live, "classic_pyodide_asm")


def test_a_package_that_is_not_the_pinned_one_is_refused(tmp_path, monkeypatch):
    def fake_pack(name: str, version: str, dest: Path) -> Path:
        dest.mkdir(parents=True, exist_ok=True)
        tarball = dest / live._tarball_name(name, version)
        with tarfile.open(tarball, "w:gz") as tar:
            info = tarfile.TarInfo("package/pyodide.js")
            info.size = 4
            tar.addfile(info, io.BytesIO(b"evil"))
        return tarball

    monkeypatch.setattr(live, "_npm_pack", fake_pack)
    with pytest.raises(live.AssetError, match="refusing it"):
        live.fetch(tmp_path)
    assert not (tmp_path / "npm" / live._tarball_name("pyodide", live.PYODIDE[1])).exists()


def test_without_npm_the_build_says_why_and_ships_no_runtime(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    found = live.prepare(tmp_path / "cache")
    assert not found.ok and "npm" in found.reason
    static = tmp_path / "site" / "_static"
    (static / live.STATIC_SUBDIR).mkdir(parents=True)
    assert live.install(found, static) is None
    assert not (static / live.STATIC_SUBDIR).exists()  # no stale runtime left behind
    with pytest.raises(live.AssetError):
        live.prepare(tmp_path / "cache", mode="on")
    assert not live.prepare(mode="off").ok


def _sandbox_notebook() -> nbformat.NotebookNode:
    """A notebook whose one output is a Sandbox, executed with its widget state stored (as the
    build's nbclient does), the title hostile."""
    from mtg_rulekit import Game
    from mtg_rulekit.display.widgets import Sandbox

    sandbox = Sandbox(Game(["Alice", "Bob"]), title="</script><b>x")
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("Sandbox(game)")
    cell.outputs = [nbformat.v4.new_output("execute_result", data={
        "text/plain": "Sandbox()",
        "application/vnd.jupyter.widget-view+json": {"version_major": 2, "version_minor": 0,
                                                     "model_id": "abc"}}, execution_count=1)]
    nb.cells = [cell]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {
        "version_major": 2, "version_minor": 0, "state": {"abc": {
            "model_name": "AnyModel", "model_module": "anywidget",
            "model_module_version": "0.11.0", "state": sandbox.get_state()}}}}
    return nb


@pytest.mark.parametrize("with_runtime", [False, True])
def test_the_page_has_the_sandbox_back_end_only_with_the_runtime(with_runtime):
    from mtg_rulekit.export.lesson import exporter, views_resources
    from mtg_rulekit.export.views import to_views, view_names

    live_config = {"config": {"base": "_static/sandbox/", "scripts": ["a.js"], "mb": 11}}
    live_page = live_config if with_runtime else None
    nb = _sandbox_notebook()
    assert to_views(nb, overrides={"sandbox": {"status": live.page_status(live_page)}}) == 1
    assert "widgets" not in nb.metadata  # no widget state, no widget manager in the page
    base = {"metadata": {"name": "t"}, "rulekit_css": "", "rulekit_cdn_note": "",
            "rulekit_lab_css": [], "rulekit_views": views_resources(view_names(nb), live_page)}
    page, _ = exporter("embed.js").from_notebook_node(nb, resources=base)
    assert page.count('data-rk-view="sandbox"') == 1
    assert "</script><b>" not in page  # the title can't close its script
    assert "jupyter-widgets" not in page and "embed.js" not in page
    assert ('id="rk-live-config"' in page) is with_runtime
    assert ("backends.sandbox" in page and "new Worker(" in page) is with_runtime
    data = page.split('data-rk-view="sandbox" id="sandbox"><script type="application/json">', 1)[1]
    traits = json.loads(data.split("</script>", 1)[0])
    assert traits["status"]["state"] == ("idle" if with_runtime else "off")
    assert traits["state"]["title"] == "</script><b>x" and traits["position"]["actions"] == []


def test_the_sandbox_widget_carries_its_starting_position():
    """Next to the widget, the sandbox cell's output holds the board it started from as data;
    replayed (as the page does), it is the same board, fields and log."""
    from mtg_rulekit.game import Game
    from mtg_rulekit.sandbox import SandboxModel
    from mtg_rulekit.sandbox.widget import SANDBOX_MIME, Sandbox

    game = Game(["Alice", "Bob"])
    game.set_turn(turn=4, active="Alice", step="main1")
    forest = game.add("Forest", player="Alice")
    game.add("Wild Growth", player="Alice", attached_to=forest.id)
    game.add("Calciform Pools", player="Alice", counters={"storage": 2})
    sandbox = Sandbox(game, title="Try it")
    sandbox.click("tap", permanent=forest.id)  # clicks after the start are not in the position
    data = sandbox._repr_mimebundle_()[0][SANDBOX_MIME]
    assert data["title"] == "Try it" and len(data["actions"]) == 4
    assert sandbox.position == {k: v for k, v in data.items() if k != "title"}  # the trait
    replayed = SandboxModel.from_position(json.loads(json.dumps(data)))
    sandbox.click("undo")
    kernel = sandbox.model.to_json()
    assert kernel.pop("last")["kind"] == "undone"
    assert replayed.to_json() == {**kernel, "last": None}


def test_a_position_that_is_not_json_data_is_left_out():
    from mtg_rulekit.game import Game
    from mtg_rulekit.sandbox import SandboxModel

    model = SandboxModel(Game(["Alice", "Bob"]))
    model.game.actions.append(("add", {"card": object()}))  # not JSON data
    model.start = len(model.game.actions)
    assert model.position() is None


@pytest.mark.slow  # node compiles the standard library
def test_the_shipped_standard_library_is_compiled_where_it_counts():
    """The modules that starting Python and the engine import come as .pyc made by the pinned
    Pyodide (Python's start in the page is mostly compiling source); the rest stay source."""
    import base64
    import gzip

    found = live.prepare()  # the cached runtime (npm fetches it once)
    if not found.ok:
        pytest.skip(f"no live sandbox runtime: {found.reason}")
    note = (found.folder / "STDLIB").read_text("utf-8")
    assert note.startswith("compiled"), note
    text = (found.folder / "python-stdlib.js").read_text("ascii")
    data = gzip.decompress(base64.b64decode(text.split('base64:"', 1)[1].rsplit('"', 1)[0]))
    names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    assert {"json/__init__.pyc", "dataclasses.pyc", "tomllib/_parser.pyc", "site.pyc"} <= names
    assert "json/__init__.py" not in names and "smtplib.py" in names  # nothing left out
