"""Where else a lesson page offers to run its lesson, as plain links in its top bar (nothing is
requested when the page loads):

- **Open in JupyterLite**: when the JupyterLite site (`make lite`, `mtg_rulekit.export.lite`) is
  built beside the pages, in `site/lite/`;
- **Open on Binder**: when the lessons' repository is configured (`make lessons
  REPO_URL=https://github.com/ORG/REPO`): mybinder.org builds it from `binder/` and opens the
  lesson in JupyterLab.

>>> links(None, "https://github.com/org/rulekit")
(('Open on Binder', 'https://mybinder.org/v2/gh/org/rulekit/HEAD?urlpath=lab/tree/notebooks/{stem}.ipynb'),)
>>> links(None, "https://example.org/kit.git")[0][1][:58]
'https://mybinder.org/v2/git/https%3A%2F%2Fexample.org%2Fki'
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

__all__ = ["LITE_DIR", "binder_url", "key", "links", "lite_built"]

LITE_DIR = "lite"  # the JupyterLite site's folder inside the site
BINDER = "https://mybinder.org/v2"
_GITHUB = re.compile(r"^https://github\.com/([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")


def lite_built(out: Path) -> bool:
    """Whether the JupyterLite site is built beside the pages (`out/lite/`)."""
    return (out / LITE_DIR / "jupyter-lite.json").is_file()


def binder_url(repo: str) -> str:
    """The Binder address that opens lesson `{stem}` of the repository `repo` (an https URL;
    GitHub's in Binder's short form), its default branch, in JupyterLab. Raises ValueError for
    anything but an https URL."""
    if not repo.startswith("https://") or any(c.isspace() for c in repo):
        raise ValueError(f"the repository must be an https:// URL, not {repo!r}")
    path = "urlpath=lab/tree/notebooks/{stem}.ipynb"
    m = _GITHUB.match(repo)
    if m:
        return f"{BINDER}/gh/{m.group(1)}/{m.group(2)}/HEAD?{path}"
    return f"{BINDER}/git/{quote(repo, safe='')}/HEAD?{path}"


def links(out: Path | None, repo: str | None) -> tuple[tuple[str, str], ...]:
    """The (label, URL with `{stem}`) links of the pages in `out`: JupyterLite when built there,
    Binder when `repo` is given."""
    found: list[tuple[str, str]] = []
    if out is not None and lite_built(out):
        from mtg_rulekit.export.lite import lesson_url

        found.append(("Open in JupyterLite", f"{LITE_DIR}/{lesson_url('{stem}')}"))
    if repo:
        found.append(("Open on Binder", binder_url(repo)))
    return tuple(found)


def key(launch: tuple[tuple[str, str], ...]) -> str:
    """Part of the lesson cache key: pages with other links differ."""
    return "launch:" + "|".join(url for _, url in launch)
