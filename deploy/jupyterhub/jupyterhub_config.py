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

import contextlib
import errno
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
    ever overwritten. A hub that creates its users later (TLJH) or runs servers elsewhere
    (Kubernetes) has no home here yet: the nbgitpuller link does this job there.

    The copy runs in a child process as the student (their uid and gid, no other group) when
    the hub runs as root and the student is an account of this machine, so it can write only
    what the student's own server could; without an account it runs as the hub, as the servers
    do then (JupyterHub's SimpleLocalProcessSpawner). Either way it follows no link in the
    home: a link the student put where a lesson or folder goes is theirs and stays as it is."""
    try:
        account = pwd.getpwnam(spawner.user.name)
    except KeyError:
        account = None
    home = getattr(spawner, "home_dir", "") or (account.pw_dir if account else "")
    if not home or not LESSONS.is_dir():
        spawner.log.warning("rulekit: no lessons copied for %s (home %r, lessons %s)",
                            spawner.user.name, home, LESSONS)
        return
    error = _run_as(account if os.geteuid() == 0 else None, lambda: _copy_lessons_into(home))
    if error:
        spawner.log.warning("rulekit: lessons not copied for %s into %s: %s",
                            spawner.user.name, home, error)


def _run_as(account, job) -> str:
    """Run `job()` in a child process with `account`'s uid and gid and no other group (this
    process's own when `account` is None): what went wrong, or "" when it finished."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: it never returns into the hub
        status = 1
        try:
            os.close(read)
            if account is not None:
                os.setgroups([])
                os.setgid(account.pw_gid)
                os.setuid(account.pw_uid)
            job()
            status = 0
        except BaseException as error:
            os.write(write, f"{type(error).__name__}: {error}".encode("utf-8", "replace")[:2000])
        finally:
            os._exit(status)
    os.close(write)
    with open(read, "rb") as pipe:
        said = pipe.read().decode("utf-8", "replace")
    _, status = os.waitpid(pid, 0)
    return said or ("" if status == 0 else f"the copy stopped (wait status {status})")


FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def _copy_lessons_into(home: str) -> None:
    """The lessons `home`/rulekit-lessons/ lacks (the home is made if missing: a spawner makes
    it only once the server starts)."""
    os.makedirs(home, exist_ok=True)
    parent = os.open(home, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        _copy_folder(LESSONS, parent, FOLDER)
    finally:
        os.close(parent)


def _copy_folder(source: Path, parent: int, name: str) -> None:
    """What the folder `name` in the open folder `parent` lacks of the folder `source`, made
    (private to its owner) if missing. Every folder is opened from the one above it without
    following a link, and every file is created new, so nothing is ever written through a link;
    a link or a file where a folder goes is left alone, with everything under it."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(name, 0o700, dir_fd=parent)
    try:
        folder = os.open(name, FOLDER_FLAGS, dir_fd=parent)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):  # a link, a file: theirs
            return
        raise
    try:
        for entry in sorted(os.scandir(source), key=lambda entry: entry.name):
            if entry.name.startswith(".") or entry.name == "__pycache__":
                continue  # .ipynb_checkpoints/ (a teacher's outputs), caches
            if entry.is_dir(follow_symlinks=False):
                _copy_folder(Path(entry.path), folder, entry.name)
            elif entry.is_file():
                _copy_file(Path(entry.path), folder, entry.name)
    finally:
        os.close(folder)


def _copy_file(source: Path, folder: int, name: str) -> None:
    """`source` as the new file `name` in the open folder `folder`, unless that name is taken
    (by the student's file, or their link, even one to nothing: never overwritten or
    followed). A copy cut short (a full disk) is removed, to be made again at the next start."""
    try:
        fd = os.open(name, FILE_FLAGS, 0o666, dir_fd=folder)
    except FileExistsError:
        return
    try:
        with open(fd, "wb") as copy, source.open("rb") as lesson:
            shutil.copyfileobj(lesson, copy)
    except BaseException:
        os.unlink(name, dir_fd=folder)
        raise


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
    # .ipynb_checkpoints/ (mtg_rulekit/lab/contents.py): reopening it shows the outputs, and an
    # nbgitpuller pull of a newer lesson merges without conflicts over outputs
    "--ServerApp.contents_manager_class=mtg_rulekit.lab.contents.LessonContentsManager",
    # give memory back: stop a kernel idle for 20 minutes, and the server after an hour
    # without activity (the student's files stay; the next visit starts it again)
    "--MappingKernelManager.cull_idle_timeout=1200",
    "--MappingKernelManager.cull_interval=120",
    "--ServerApp.shutdown_no_activity_timeout=3600",
    # students share this machine's 127.0.0.1, where kernels listen: encrypt each kernel's
    # traffic (CurveZMQ, when its kernel spec offers it, as ipykernel's does), so no classmate
    # can read what another's kernel sends (its messages are signed, not secret, without it)
    "--KernelManager.transport_encryption=auto",
]
# one student's server and kernel use about 190 MB (RSS) after a sandbox click, measured by
# tests/test_jupyterhub.py (docs/teaching.md); 512 MB leaves room for a whole lesson and play,
# and one core keeps a student's endless loop from slowing the class. Spawners that can enforce
# the limits do (SystemdSpawner below, TLJH's, KubeSpawner); the local process spawner only
# tells the server (MEM_LIMIT, CPU_LIMIT, shown by jupyter-resource-usage).
c.Spawner.mem_limit = "512M"
c.Spawner.cpu_limit = 1.0
# a class logging in at once on a small machine: let a server take its time to start
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120

# --- 2. the hub itself (a plain JupyterHub on one machine; TLJH sets its own) ----------------
if not TLJH:
    # students are accounts of this machine (`adduser ana`), with the password they log in with
    # (or your school's log-in: an OAuthenticator, LDAPAuthenticator, ... with the same lists)
    c.JupyterHub.authenticator_class = "pam"
    # the class, by name or by Unix group (nobody may log in until one of them is set)
    c.Authenticator.allowed_users = set()  # {"ana", "ben", ...}
    c.LocalAuthenticator.allowed_groups = set()  # {"students"}
    # the teacher: an admin can open every student's server and start one for any account of
    # this machine, so only someone who may be root here anyway
    c.Authenticator.admin_users = set()  # {"teacher"}
    c.Authenticator.blocked_users = {"root"}  # whatever the lists above say
    # each server runs as its student, in their home folder. This spawner does not enforce
    # mem_limit and cpu_limit; SystemdSpawner (`pip install jupyterhub-systemdspawner`, the one
    # TLJH uses) does, and gives each student their own /tmp and no way to sudo:
    c.JupyterHub.spawner_class = "localprocess"
    # c.JupyterHub.spawner_class = "systemdspawner.SystemdSpawner"
    # c.SystemdSpawner.isolate_tmp = True
    # c.SystemdSpawner.isolate_devices = True
    # c.SystemdSpawner.disable_user_sudo = True
    # only this machine can reach the hub: put an HTTPS reverse proxy (nginx, Caddy) in front
    # (it must pass WebSockets), or let the hub serve HTTPS itself:
    c.JupyterHub.bind_url = "http://127.0.0.1:8000"
    # c.JupyterHub.bind_url = "https://0.0.0.0:443"
    # c.JupyterHub.ssl_cert = "/etc/letsencrypt/live/hub.example.org/fullchain.pem"
    # c.JupyterHub.ssl_key = "/etc/letsencrypt/live/hub.example.org/privkey.pem"
