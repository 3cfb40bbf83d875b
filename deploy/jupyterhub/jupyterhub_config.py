"""JupyterHub for a class taking rulekit's lessons: each student logs in and gets their own
JupyterLab, their own kernel and their own copy of the lessons (docs/teaching.md).

Where this file goes:

- **The Littlest JupyterHub (TLJH)**: set REPO below, copy the file to
  `/opt/tljh/config/jupyterhub_config.d/rulekit.py` and run `sudo tljh-config reload hub`. TLJH
  keeps its own log-in, spawner and proxy (part 2 below is skipped there); give each server a
  memory limit with `sudo tljh-config set limits.memory 512M`.
- **A plain JupyterHub on one machine**: `jupyterhub -f jupyterhub_config.py`, as root, with
  rulekit installed in the same Python (`pip install -c constraints.txt '.[notebook]'` from a
  checkout) and `configurable-http-proxy` on the PATH (`npm install -g configurable-http-proxy`).
- **Zero to JupyterHub**: set REPO, and put this file without part 2 in the chart's
  `hub.extraConfig` (the students' image must have rulekit, nbgitpuller and Graphviz).

The suite starts a hub from this file on 127.0.0.1 (tests/test_jupyterhub.py): it loads it, then
replaces the part 2 settings with a test log-in and throw-away home folders.
"""

import os
import pwd
import shutil
from pathlib import Path
from urllib.parse import urlencode

c = get_config()  # noqa: F821  (JupyterHub defines get_config for its config files)

# How the lessons reach each student, one of:
# - REPO: a git URL of rulekit (your fork); every log-in then goes through nbgitpuller, which
#   clones it into the student's home the first time and later merges in what changed without
#   ever overwriting the student's own edits (TLJH has nbgitpuller; elsewhere
#   `pip install nbgitpuller` into the students' environment);
# - LESSONS: the notebooks/ folder of a checkout on the hub machine (`git clone ...
#   /srv/rulekit`), copied into each student's ~/rulekit-lessons/ before their server starts
#   (a plain JupyterHub, whose students are accounts of this machine).
REPO = os.environ.get("RULEKIT_REPO", "")  # e.g. "https://github.com/YOUR-ORG/rulekit"
BRANCH = os.environ.get("RULEKIT_BRANCH", "main")
LESSONS = Path(os.environ.get("RULEKIT_LESSONS", "/srv/rulekit/notebooks"))
FOLDER = "rulekit-lessons"
FIRST = "00_start_here.ipynb"  # the lesson a student opens on
TLJH = Path("/opt/tljh").is_dir()  # The Littlest JupyterHub: it sets log-in, spawner and proxy


def copy_lessons(spawner) -> None:
    """Copy every lesson the student does not have yet into `~/rulekit-lessons/` before their
    server starts: a new lesson reaches them at their next start, and nothing they changed is
    ever overwritten. The files belong to the student (when the hub runs as root and the student
    is a user of this machine). A hub that creates its users later (TLJH) or runs servers
    elsewhere (Kubernetes) has no home here yet: the nbgitpuller link does this job there."""
    try:
        account = pwd.getpwnam(spawner.user.name)
    except KeyError:
        account = None
    home = getattr(spawner, "home_dir", "") or (account.pw_dir if account else "")
    if not home or not LESSONS.is_dir():
        spawner.log.warning("rulekit: no lessons copied for %s (home %r, lessons %s)",
                            spawner.user.name, home, LESSONS)
        return
    owner = (account.pw_uid, account.pw_gid) if account and os.geteuid() == 0 else None
    target = Path(home) / FOLDER
    for source in sorted(LESSONS.rglob("*")):
        relative = source.relative_to(LESSONS)
        if any(part.startswith(".") or part == "__pycache__" for part in relative.parts):
            continue  # .ipynb_checkpoints/ (a teacher's outputs), caches
        copy = target / relative
        if copy.exists():
            continue
        if source.is_dir():
            _make_folder(copy, owner)
        elif source.is_file():
            _make_folder(copy.parent, owner)
            shutil.copy2(source, copy)
            if owner:
                os.chown(copy, *owner)


def _make_folder(folder: Path, owner) -> None:
    """`folder` and any missing parent, each owned by `owner` (uid, gid) when it is set."""
    for path in [*reversed(folder.parents), folder]:
        if not path.exists():
            path.mkdir()
            if owner:
                os.chown(path, *owner)


# --- 1. every student's server (any hub) -----------------------------------------------------
if REPO:
    # the nbgitpuller link as every student's start page: pull, then open the first lesson
    clone = REPO.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
    c.Spawner.default_url = "/git-pull?" + urlencode(
        {"repo": REPO, "branch": BRANCH, "urlpath": f"lab/tree/{clone}/notebooks/{FIRST}"})
elif LESSONS.is_dir() and not TLJH:
    c.Spawner.pre_spawn_hook = copy_lessons
    c.Spawner.default_url = f"/lab/tree/{FOLDER}/{FIRST}"
else:  # the lessons come with the nbgitpuller link the teacher hands out (docs/teaching.md)
    c.Spawner.default_url = "/lab"
c.Spawner.args = [
    # a saved lesson is written as shipped, its outputs and widget state kept beside it in
    # .ipynb_checkpoints/ (rulekit/lab/contents.py): reopening it shows the outputs, and an
    # nbgitpuller pull of a newer lesson merges without conflicts over outputs
    "--ServerApp.contents_manager_class=rulekit.lab.contents.LessonContentsManager",
    # give memory back: stop a kernel idle for 20 minutes, and the server after an hour
    # without activity (the student's files stay; the next visit starts it again)
    "--MappingKernelManager.cull_idle_timeout=1200",
    "--MappingKernelManager.cull_interval=120",
    "--ServerApp.shutdown_no_activity_timeout=3600",
]
# one student's server and kernel use about 190 MB (RSS) after a sandbox click, measured by
# tests/test_jupyterhub.py (docs/teaching.md); 512 MB leaves room for a whole lesson and play.
# Spawners that can enforce it do (TLJH's systemd spawner, KubeSpawner); the local process
# spawner only tells the server (MEM_LIMIT, shown by jupyter-resource-usage).
c.Spawner.mem_limit = "512M"
# a class logging in at once on a small machine: let a server take its time to start
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120

# --- 2. the hub itself (a plain JupyterHub on one machine; TLJH sets its own) ----------------
if not TLJH:
    # students are accounts of this machine (`adduser ana`), with the password they log in with
    c.JupyterHub.authenticator_class = "pam"
    # the class, by name or by Unix group (nobody may log in until one of them is set)
    c.Authenticator.allowed_users = set()  # {"ana", "ben", ...}
    c.LocalAuthenticator.allowed_groups = set()  # {"students"}
    c.Authenticator.admin_users = set()  # the teacher: {"teacher"}
    # each server runs as its student, in their home folder
    c.JupyterHub.spawner_class = "localprocess"
    # only this machine can reach the hub: put an HTTPS reverse proxy (nginx, Caddy) in front,
    # or listen on a public address with c.JupyterHub.ssl_cert / ssl_key
    c.JupyterHub.bind_url = "http://127.0.0.1:8000"
