"""A class on JupyterHub (docs/teaching.md): a real JupyterHub from PyPI with
configurable-http-proxy from npm (the bootstrap's pinned copy in .cache/node), started from the
shipped example `deploy/jupyterhub/jupyterhub_config.py` with only the log-in and the spawner
swapped for throw-away ones: a shared password, and a local process per student with a home
folder of their own under a temporary folder. Every port is random and on 127.0.0.1.

Three students log in at once through the hub's log-in form, each starts a server (the shipped
pre-spawn hook puts the lessons in their home, as the nbgitpuller link does on a real hub), runs
a lesson's sandbox set-up and a sandbox click in their own kernel (over Jupyter Server's REST and
kernel websocket API, as JupyterLab does), and saves the lesson with a note. Checked: a wrong
password is refused; each kernel is its own process under its own student's server, in that
student's home; one student's token cannot read another's files; each save changes only the
saver's home (every home hashed before and after); a listener on a kernel's port without its
keys hears nothing of it; everything listens on 127.0.0.1 only; and
what one student's server and kernel cost in memory (written to test-artifacts/jupyterhub/),
under the memory limit the shipped config sets. The hub, the proxy, the servers and the kernels
are all stopped at the end, also when the test fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.helpers import unavailable
from tests.hosts import free_port

pytestmark = [pytest.mark.lab, pytest.mark.notebook, pytest.mark.slow,
              pytest.mark.xdist_group("jupyterhub")]  # one hub, one worker

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
PROXY = ROOT / ".cache" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
ARTIFACTS = ROOT / "test-artifacts" / "jupyterhub"
STUDENTS = ("rk-ana", "rk-ben", "rk-cai")  # names no machine has as accounts
FOLDER = "rulekit-lessons"  # as in the shipped config
START_TIMEOUT_S = 120


def _shipped_config():
    """The shipped example, loaded as JupyterHub loads it (traitlets' Python config loader)."""
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader(SHIPPED.name, path=str(SHIPPED.parent)).load_config()


def _bytes(size: str) -> int:
    """JupyterHub's memory sizes ("1G", "512M") in bytes."""
    number, unit = re.fullmatch(r"(\d+)([KMGT]?)", size).groups()  # type: ignore[union-attr]
    return int(number) * 1024 ** "_KMGT".index(unit or "_")


# ------------------------------------------------------------------ the hub
class Hub:
    """A running hub: its URL, its folders, and every process it started (seen so far)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.homes = folder / "home"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.password = secrets.token_urlsafe(12)
        self.proc: subprocess.Popen | None = None
        self.seen: dict[int, object] = {}  # pid -> psutil.Process, to stop at the end

    def config(self) -> Path:
        """The test's config: the shipped one, then a test log-in, homes and ports."""
        hub_port, api_port = free_port(), free_port()
        root = hasattr(os, "geteuid") and os.geteuid() == 0
        text = f"""
c = get_config()  # noqa: F821
load_subconfig({str(SHIPPED)!r})  # noqa: F821
c.JupyterHub.bind_url = {self.url + "/"!r}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.command = [{str(PROXY)!r}]
c.ConfigurableHTTPProxy.pid_file = {str(self.folder / "proxy.pid")!r}
c.JupyterHub.db_url = "sqlite:///{self.folder / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = {str(self.folder / "cookie_secret")!r}
# the log-in: one shared password for the class (JupyterHub's successor to
# DummyAuthenticator.password), only these students
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = {self.password!r}
c.Authenticator.allowed_users = {set(STUDENTS)!r}
c.Authenticator.admin_users = set()
# a local process per student, each with a home folder of their own (no system accounts)
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {str(self.homes / "{username}")!r}
c.Spawner.ip = "127.0.0.1"
c.Spawner.cmd = [{str(Path(sys.executable).with_name("jupyterhub-singleuser"))!r}]
c.Spawner.environment = {{"PYTHONPATH": {str(ROOT)!r}, "PATH": {os.environ.get("PATH", "")!r}}}
c.Spawner.args = [*c.Spawner.args{', "--allow-root"' if root else ''}]
# a server ignores the SIGINT the spawner stops it with first (no terminal to confirm on):
# go on to SIGTERM after a second instead of ten
c.LocalProcessSpawner.interrupt_timeout = 1
"""
        path = self.folder / "jupyterhub_config.py"
        path.write_text(text, "utf-8")
        return path

    def start(self) -> None:
        import requests

        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("JUPYTER", "JPY", "RULEKIT_"))}
        env.update(RULEKIT_LESSONS=str(ROOT / "notebooks"), PYTHONPATH=str(ROOT),
                   CONFIGPROXY_AUTH_TOKEN=secrets.token_hex(16))
        log = open(self.folder / "hub.log", "wb")  # noqa: SIM115  (the hub writes to it)
        hub = Path(sys.executable).with_name("jupyterhub")
        self.proc = subprocess.Popen([str(hub), "-f", str(self.config())], cwd=self.folder,
                                     env=env, stdout=log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        self.watch()
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                if requests.get(f"{self.url}/hub/api/", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if self.proc.poll() is not None:
                pytest.fail(f"jupyterhub exited with {self.proc.returncode}:\n{self.log()}")
            if time.monotonic() > deadline:
                pytest.fail(f"jupyterhub did not answer within {START_TIMEOUT_S} s:\n"
                            + self.log())
            time.sleep(0.3)
        self.watch()

    def log(self) -> str:
        return (self.folder / "hub.log").read_text("utf-8", "replace")[-4000:]

    def watch(self) -> None:
        """Remember the hub and everything under it (proxy, servers, kernels)."""
        import psutil

        if self.proc is None:
            return
        try:
            hub = psutil.Process(self.proc.pid)
            for proc in [hub, *hub.children(recursive=True)]:
                self.seen.setdefault(proc.pid, proc)
        except psutil.NoSuchProcess:
            pass

    def stop(self) -> list[str]:
        """Stop the hub (it stops its servers and the proxy), then anything left of what it
        started; what was still running after that, as text (empty when all is stopped)."""
        import psutil

        self.watch()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=45)
            except subprocess.TimeoutExpired:
                pass
        # what is left (kernels whose server went first stop by themselves, but only later)
        alive = [p for p in self.seen.values() if p.is_running()]  # type: ignore[attr-defined]
        for proc in alive:
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.terminate()
        _, alive = psutil.wait_procs(alive, timeout=10)
        for proc in alive:
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.kill()
        _, alive = psutil.wait_procs(alive, timeout=10)
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        return [f"{p.pid} {' '.join(p.cmdline()[:3])}" for p in alive if p.is_running()]


@pytest.fixture
def hub():
    if not PROXY.exists():
        unavailable(f"configurable-http-proxy is not installed at {PROXY.relative_to(ROOT)}: "
                    "`make test` installs it (npm ci, tools/configurable-http-proxy)")
    if shutil.which("node") is None:
        unavailable("configurable-http-proxy needs Node.js (tools/ensure-system-deps node)")
    # short paths: a kernel's sockets and files live under its student's home
    folder = Path(tempfile.mkdtemp(prefix="rk-hub-"))
    running = Hub(folder)
    try:
        running.start()
        yield running
    finally:
        left = running.stop()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(folder / "hub.log", ARTIFACTS / "hub.log")
        shutil.rmtree(folder, ignore_errors=True)
    assert not left, f"still running after the hub stopped: {left}"


# ------------------------------------------------------------------ a student
class Student:
    """One student's browser session: log in, a token, their server, their kernel."""

    def __init__(self, hub: Hub, name: str) -> None:
        import requests

        self.hub, self.name = hub, name
        self.http = requests.Session()
        self.token = ""
        self.server = f"{hub.url}/user/{name}"

    def log_in(self, password: str) -> int:
        """Post the hub's log-in form as a browser does; the status code (302: logged in)."""
        self.http.get(f"{self.hub.url}/hub/login", timeout=30).raise_for_status()
        xsrf = self.http.cookies.get("_xsrf", "")
        reply = self.http.post(f"{self.hub.url}/hub/login",
                               data={"username": self.name, "password": password,
                                     "_xsrf": xsrf}, allow_redirects=False, timeout=60)
        return reply.status_code

    def start_server(self) -> None:
        """A token of their own (asked for with the log-in cookie), then their server."""
        api = f"{self.hub.url}/hub/api/users/{self.name}"
        reply = self.http.post(f"{api}/tokens", json={"note": "class test", "expires_in": 3600},
                               headers={"X-XSRFToken": self.http.cookies.get("_xsrf", "")},
                               timeout=30)
        assert reply.status_code == 201, (reply.status_code, reply.text)
        self.token = reply.json()["token"]
        reply = self.hub_api("POST", "/server")
        assert reply.status_code in (201, 202), (reply.status_code, reply.text)
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self.hub_api("GET", "").json().get("servers", {}).get("", {}).get("ready"):
            assert time.monotonic() < deadline, f"{self.name}'s server did not start:\n" \
                                                + self.hub.log()
            time.sleep(0.5)

    def hub_api(self, method: str, path: str):
        import requests

        return requests.request(method, f"{self.hub.url}/hub/api/users/{self.name}{path}",
                                headers=self.headers(), timeout=60)

    def headers(self, token: str | None = None) -> dict[str, str]:
        return {"Authorization": f"token {token or self.token}"}

    def api(self, method: str, path: str, token: str | None = None, **kwargs):
        """Their server's REST API (Jupyter Server), through the proxy."""
        import requests

        return requests.request(method, f"{self.server}/api/{path}",
                                headers=self.headers(token), timeout=60, **kwargs)

    def run(self, notebook: str, code: str) -> str:
        """Start a kernel for `notebook` (a session, as opening it in JupyterLab does), run
        `code` in it over the kernel websocket, return what it printed."""
        reply = self.api("POST", "sessions", json={"path": notebook, "type": "notebook",
                                                   "name": Path(notebook).name,
                                                   "kernel": {"name": "python3"}})
        assert reply.status_code == 201, (reply.status_code, reply.text)
        kernel = reply.json()["kernel"]["id"]
        ws = f"ws://127.0.0.1:{self.hub.port}/user/{self.name}/api/kernels/{kernel}/channels"
        return asyncio.run(_execute(ws, self.token, code))


async def _execute(url: str, token: str, code: str, timeout: float = 180) -> str:
    """Run `code` in a kernel through Jupyter Server's kernel websocket (the JSON messages of
    the Jupyter messaging protocol); its stdout, or AssertionError with its traceback."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    session = uuid.uuid4().hex
    ws = await websocket_connect(HTTPRequest(f"{url}?session_id={session}",
                                             headers={"Authorization": f"token {token}"}))
    msg_id = uuid.uuid4().hex
    ws.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "execute_request", "session": session,
                   "username": "student", "version": "5.3"},
        "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
        "content": {"code": code, "silent": False, "store_history": True,
                    "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
    out: list[str] = []
    errors: list[str] = []
    idle = replied = False
    deadline = time.monotonic() + timeout
    try:
        while not (idle and replied):
            raw = await asyncio.wait_for(ws.read_message(), deadline - time.monotonic())
            assert raw is not None, "the kernel websocket closed"
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind == "error":
                errors.append("\n".join(content["traceback"]))
            elif kind == "status" and content["execution_state"] == "idle":
                idle = True
            elif kind == "execute_reply":
                replied = True
    finally:
        ws.close()
    assert not errors, re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(errors))
    return "".join(out)


def _sandbox_cell(lesson: Path) -> tuple[str, str]:
    """(set-up code, an expression for its sandbox's model) of the lesson's sandbox cell: the
    code cell that ends by showing `Sandbox(...)`, without that last line (the widget needs a
    front-end; the test clicks through the sandbox's model, `mtg_rulekit.sandbox.SandboxModel`,
    which the widget renders). `Sandbox("NAME")` names a lesson sandbox file."""
    nb = json.loads(lesson.read_text("utf-8"))
    for cell in nb["cells"]:
        source = "".join(cell["source"]).rstrip()
        *setup, last = source.splitlines() or [""]
        named = re.fullmatch(r'Sandbox\("([\w.-]+)"\)', last.strip())
        if cell["cell_type"] == "code" and named:
            setup.append("from mtg_rulekit.sandbox import lessons as _lessons")
            return "\n".join(setup), f"_lessons.load(_lessons.find({named.group(1)!r})).model()"
        found = re.fullmatch(r"Sandbox\((\w+)(?:, .*)?\)", last.strip())
        if cell["cell_type"] == "code" and found:
            return "\n".join(setup), f"_SandboxModel({found.group(1)})"
    raise AssertionError(f"{lesson.name} has no cell ending with Sandbox(...)")


CLICK = """
import json as _json, os as _os
import mtg_rulekit as _rulekit
from ipykernel.connect import get_connection_file as _connection_file
from mtg_rulekit.sandbox import SandboxModel as _SandboxModel
_model = {model}
for _label, _id in _model.fields({{}})["permanent"].options:  # tap the first that can
    _outcome = _model.click("tap", {{"permanent": _id}})
    if _outcome.ok:
        break
print("RESULT", _json.dumps({{"pid": _os.getpid(), "ppid": _os.getppid(),
    "home": _os.environ.get("HOME"), "cwd": _os.getcwd(), "ok": _outcome.ok,
    "text": _outcome.text, "rulekit": _rulekit.__file__,
    "connection_file": _connection_file()}}))
"""


def _overheard(connection: dict, act) -> bytes:
    """What a listener without the kernel's keys receives on its output channel (iopub, which
    broadcasts every output) while `act()` runs code in it."""
    import zmq

    with zmq.Context() as context, context.socket(zmq.SUB) as listener:
        listener.setsockopt(zmq.SUBSCRIBE, b"")
        listener.setsockopt(zmq.LINGER, 0)
        listener.connect(f"tcp://{connection['ip']}:{connection['iopub_port']}")
        time.sleep(0.5)  # connected before the output is sent
        printed = act()
        assert "only mine" in printed  # the student's own client gets it
        heard = b""
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            if listener.poll(200):
                heard += b"".join(listener.recv_multipart())
        return heard


def _hashes(home: Path) -> dict[str, str]:
    """Every regular file under `home` by its path, with the sha256 of its bytes."""
    found = {}
    for path in sorted(home.rglob("*")):
        if path.is_file() and not path.is_symlink():
            try:
                found[str(path.relative_to(home))] = hashlib.sha256(path.read_bytes()).hexdigest()
            except FileNotFoundError:  # removed while we looked (a journal file)
                pass
    return found


def _settled(homes: list[Path]) -> dict[str, dict[str, str]]:
    """Every home's hashes once nothing changes for half a second (a kernel's history is
    written just after a cell)."""
    last = None
    for _ in range(40):
        now = {home.name: _hashes(home) for home in homes}
        if now == last:
            return now
        last = now
        time.sleep(0.5)
    raise AssertionError("the students' homes kept changing")


@pytest.mark.timeout(600)
def test_three_students_on_one_hub(hub: Hub) -> None:
    import psutil

    started = time.monotonic()
    students = [Student(hub, name) for name in STUDENTS]
    # a wrong password is refused
    assert Student(hub, STUDENTS[0]).log_in("not the password") == 403

    # all three log in and start their servers at once
    with ThreadPoolExecutor(len(students)) as pool:
        codes = list(pool.map(lambda s: s.log_in(hub.password), students))
        assert codes == [302] * len(students), codes
        list(pool.map(Student.start_server, students))
    hub.watch()
    homes = [hub.homes / s.name for s in students]

    # each has the lessons in their home, as shipped
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    for student, home in zip(students, homes):
        assert sorted(p.name for p in (home / FOLDER).glob("*.ipynb")) == lessons, home
        listing = student.api("GET", f"contents/{FOLDER}").json()
        assert sorted(i["name"] for i in listing["content"] if i["type"] == "notebook") \
            == lessons
    lesson = next(name for name in lessons if "Sandbox(" in (ROOT / "notebooks" / name)
                  .read_text("utf-8"))
    setup, model = _sandbox_cell(ROOT / "notebooks" / lesson)
    path = f"{FOLDER}/{lesson}"

    # nobody's token opens another's server
    assert students[1].api("GET", f"contents/{path}", token=students[0].token).status_code \
        == 403

    # each runs the lesson's sandbox set-up and a click in their own kernel, all at once
    def click(student: Student) -> dict:
        printed = student.run(path, setup + "\n" + CLICK.format(model=model))
        return json.loads(printed.rsplit("RESULT ", 1)[1])

    with ThreadPoolExecutor(len(students)) as pool:
        results = list(pool.map(click, students))
    hub.watch()
    memory = {}
    for student, home, result in zip(students, homes, results):
        assert result["ok"] and " taps " in result["text"], result
        assert Path(result["rulekit"]).is_relative_to(ROOT), result  # this checkout's engine
        assert result["home"] == str(home) and Path(result["cwd"]) == home / FOLDER, result
        kernel, server = psutil.Process(result["pid"]), psutil.Process(result["ppid"])
        assert "jupyterhub-singleuser" in " ".join(server.cmdline()), server.cmdline()
        assert server.cwd() == str(home) and server.environ().get("HOME") == str(home)
        memory[student.name] = {
            "server_rss_mb": round(server.memory_info().rss / 2**20, 1),
            "kernel_rss_mb": round(kernel.memory_info().rss / 2**20, 1),
            "server_uss_mb": round(server.memory_full_info().uss / 2**20, 1),
            "kernel_uss_mb": round(kernel.memory_full_info().uss / 2**20, 1)}
    assert len({r["pid"] for r in results}) == len({r["ppid"] for r in results}) \
        == len(students), results  # a kernel each, under a server each

    # a classmate on the machine who connects to a kernel's port reads nothing of it: the
    # kernels' traffic is encrypted (the shipped config's transport_encryption)
    connection = json.loads(Path(results[0]["connection_file"]).read_text("utf-8"))
    assert connection["transport"] == "tcp" and connection.get("curve_publickey"), connection
    assert _overheard(connection, lambda: students[0].run(path, "print('only mine')")) == b""

    # only 127.0.0.1: the proxy, the hub, the servers and the kernels
    listening = set()
    for proc in hub.seen.values():
        try:
            conns = proc.net_connections(kind="inet")  # type: ignore[attr-defined]
        except psutil.NoSuchProcess:
            continue
        listening |= {(c.laddr.ip, c.laddr.port) for c in conns if c.status == "LISTEN"}
    assert listening and {ip for ip, _ in listening} == {"127.0.0.1"}, listening

    # one at a time, each saves the lesson with a note: only their own home changes
    source = (ROOT / "notebooks" / lesson).read_bytes()
    assert all((home / path).read_bytes() == source for home in homes)  # clicks saved nothing
    before = _settled(homes)
    for student, home, result in zip(students, homes, results):
        model = student.api("GET", f"contents/{path}").json()
        nb = model["content"]
        nb["cells"].append({"cell_type": "markdown", "id": "note", "metadata": {},
                            "source": f"{student.name}'s note: {result['text']}"})
        nb["cells"].append({"cell_type": "code", "id": "mine", "metadata": {},
                            "execution_count": 1, "source": "pool",
                            "outputs": [{"output_type": "stream", "name": "stdout",
                                         "text": f"{student.name} was here\n"}]})
        reply = student.api("PUT", f"contents/{path}",
                            json={"type": "notebook", "format": "json", "content": nb})
        assert reply.status_code == 200, (reply.status_code, reply.text)
        after = _settled(homes)
        changed = {name for name in before if before[name] != after[name]}
        assert changed == {student.name}, (student.name, changed)
        saved = (home / path).read_text("utf-8")
        assert f"{student.name}'s note" in saved and "was here" not in saved  # as committed
        outputs = home / FOLDER / ".ipynb_checkpoints" / f"{Path(lesson).stem}.outputs.ipynb"
        assert f"{student.name} was here" in outputs.read_text("utf-8")  # kept beside it
        before = after
    for student, home in zip(students, homes):  # nobody else's note anywhere
        others = [s.name for s in students if s is not student]
        text = (home / path).read_text("utf-8")
        assert not any(f"{o}'s note" in text for o in others), student.name
    assert (ROOT / "notebooks" / lesson).read_bytes() == source  # a copy each, not a link

    # what one student costs: their server and their kernel, after a click (and, once for the
    # class, the hub and the proxy)
    total = max(m["server_rss_mb"] + m["kernel_rss_mb"] for m in memory.values())
    limit_mb = _bytes(_shipped_config().Spawner.mem_limit) / 2**20
    assert hub.proc is not None
    shared = {"hub_rss_mb": psutil.Process(hub.proc.pid).memory_info().rss, "proxy_rss_mb": sum(
        p.memory_info().rss for p in hub.seen.values()  # type: ignore[attr-defined]
        if p.is_running() and "configurable-http-proxy" in " ".join(p.cmdline()))}  # type: ignore[attr-defined]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "memory.json").write_text(json.dumps(
        {"students": memory, "max_server_plus_kernel_rss_mb": round(total, 1),
         **{k: round(v / 2**20, 1) for k, v in shared.items()},
         "mem_limit_mb": limit_mb, "seconds": round(time.monotonic() - started, 1)},
        indent=2) + "\n", "utf-8")
    print(f"\none student's server + kernel after a sandbox click: {total:.0f} MB RSS at most "
          f"({json.dumps(memory)})")
    assert total < 0.75 * limit_mb, (total, limit_mb)  # the shipped limit leaves room
