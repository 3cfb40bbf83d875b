"""`make lab` (`python -m mtg_rulekit.lab`): the options it gives JupyterLab. (It is run for real,
with these options, by tests/test_jupyterlab.py.)"""

from __future__ import annotations

import json
from pathlib import Path

from mtg_rulekit import lab


def test_lab_saves_widget_state_from_its_own_settings_folder():
    argv = lab.command("notebooks", ["--port=9999"])
    assert argv[1] == "lab" and "--ip=127.0.0.1" in argv and "--no-browser" in argv
    assert "--notebook-dir=notebooks" in argv and argv[-1] == "--port=9999"
    settings = Path(next(a for a in argv if a.startswith("--LabApp.app_settings_dir="))
                    .split("=", 1)[1])
    overrides = json.loads((settings / "overrides.json").read_text("utf-8"))
    assert overrides["@jupyter-widgets/jupyterlab-manager:plugin"]["saveState"] is True
    # no "get Jupyter news?" pop-up over a projected walkthrough, and no request to the web
    notes = overrides["@jupyterlab/apputils-extension:notification"]
    assert notes == {"fetchNews": "false", "checkForUpdates": False}
    assert settings.is_relative_to(Path(lab.__file__).parent)  # not the user's home


def test_lab_writes_lessons_as_committed_and_kernels_use_ipc():
    import importlib

    argv = lab.command()
    manager = next(a for a in argv if a.startswith("--ServerApp.contents_manager_class="))
    module, _, name = manager.split("=", 1)[1].rpartition(".")
    assert getattr(importlib.import_module(module), name).__name__ == "LessonContentsManager"
    assert "--KernelManager.transport=ipc" in argv
