"""The contents manager `make lab` uses (`mtg_rulekit.lab`): a lesson saved in JupyterLab is written
to `notebooks/` exactly as it is committed (stripped like the nbstripout git filter does, see
`mtg_rulekit.lab.gitfilter`), while its outputs and widget state go beside it, in
`.ipynb_checkpoints/<name>.outputs.ipynb` (Jupyter's own folder, git-ignored).

Opening a lesson gives back the saved outputs and widgets as long as the lesson itself has not
changed since (edited elsewhere, `git pull`): then it opens as it is. So JupyterLab never dirties
the checkout (`git status` stays clean after Run All and Save) and a reopened lesson still shows
its walkthroughs.
"""

from __future__ import annotations

import json
import os
from typing import Any

import nbformat
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

from mtg_rulekit.lab.gitfilter import strip

__all__ = ["LessonContentsManager"]

STATE_DIR = ".ipynb_checkpoints"
SUFFIX = ".outputs.ipynb"


def _committed(nb: dict[str, Any]) -> str:
    """`nb` as committed, to compare: stripped, without the trust marks `get` adds."""
    stripped = strip(nbformat.from_dict(nb))
    for cell in stripped.cells:
        cell.metadata.pop("trusted", None)
    return json.dumps(stripped, sort_keys=True)


class LessonContentsManager(AsyncLargeFileManager):
    """Notebooks saved as committed; their outputs and widget state kept beside them."""

    def _state_path(self, path: str) -> str:
        os_path = self._get_os_path(path.strip("/"))
        folder, name = os.path.split(os_path)
        return os.path.join(folder, STATE_DIR, name[: -len(".ipynb")] + SUFFIX)

    async def save(self, model: dict[str, Any], path: str = "") -> dict[str, Any]:
        if model.get("type") == "notebook" and model.get("content") is not None:
            full = nbformat.from_dict(model["content"])
            # trusted as the user ran it (Jupyter's notary), so its widgets render when reopened
            self.check_and_sign(full, path)
            state = self._state_path(path)
            os.makedirs(os.path.dirname(state), exist_ok=True)
            with self.atomic_writing(state, encoding="utf-8") as f:
                nbformat.write(full, f, version=nbformat.NO_CONVERT)
            model = {**model, "content": strip(nbformat.from_dict(model["content"]))}
        return await super().save(model, path)

    async def get(  # type: ignore[override]  # the same call, written with plain defaults
            self, path: str, content: bool = True, type: str | None = None,
            format: str | None = None, **kwargs: Any) -> dict[str, Any]:
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if content and model.get("type") == "notebook" and model.get("content") is not None:
            state = self._state_path(path)
            if os.path.isfile(state):
                try:
                    full = nbformat.read(state, as_version=4)
                except Exception:  # an unreadable copy: open the lesson as it is
                    return model
                if _committed(full) == _committed(model["content"]):
                    self.mark_trusted_cells(full, path)
                    model["content"] = full
        return model
