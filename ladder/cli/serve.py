"""Running the ladder's processes: the web site under gunicorn, and `ladder up`'s supervisor.

`ladder up` prepares the instance (migrations, starter bots, the embedded broker's tables, matches
a previous run left `running`), then starts web, worker and scheduler as child processes, each in
its own process group and told by the kernel to stop if the supervisor dies. On Ctrl-C or SIGTERM
it asks each child to stop, waits a grace period, then kills whatever is left of each group,
removes what a killed worker's sandboxes left, and on its embedded database puts back in the
queue any match that worker left running.

The supervisor is a child subreaper: whatever its children orphan (a worker pool process's bwrap
processes after that pool process died) comes to it rather than to the machine's init, which may
never reap (a container without --init), and it reaps them; see workers/sandbox/reap.py.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ladder.config import DEV_SECRET_KEY, Settings, loopback

_PR_SET_PDEATHSIG = 1
# the schema revision whose crossing replays the ratings for their deviations (the migration says why)
DEVIATION_BACKFILL = "0023_deviation_backfill"


def prepare_instance(settings: Settings, *, requeue_running: bool) -> dict[str, int | str | None]:
    """Migrate, seed the starter bots, create the embedded broker's tables; with `requeue_running`
    (only this machine runs workers) put back in the queue every match a dead run left running."""
    from ladder.db import crossed, current_revision, make_engine, session_factory, session_scope, upgrade
    from ladder.services.bots import seed_house_bots
    from ladder.services.matches import requeue_stale
    from ladder.services.ratings import rewrite_ratings

    engine = make_engine(settings)
    try:
        before = current_revision(engine)
        upgrade(engine)
        after = current_revision(engine)
        with session_scope(session_factory(engine)) as session:
            bots = seed_house_bots(session=session, username=settings.house_username)
            backfilled = None
            if before is not None and crossed(before, after, DEVIATION_BACKFILL):
                # once, with the head's code (migration 0023 says why): holds the rating clock,
                # so a worker started meanwhile waits rather than rating on a stale deviation
                backfilled = len(rewrite_ratings(session=session))
            requeued = []
            if requeue_running:
                requeued = requeue_stale(session=session, stale_after=0,
                                         max_attempts=settings.match_max_attempts).requeued
    finally:
        engine.dispose()
    if settings.redis_url is None:
        from workers.queue.celery_app import QUEUES, configure

        # declaring the queues creates the broker's tables once, before several processes race to
        with configure(settings).connection_for_write() as conn:
            for queue in QUEUES:
                conn.default_channel.queue_declare(queue=queue)
    return {"starter_bots": len(bots), "requeued": len(requeued), "from": before, "to": after,
            "deviations_backfilled": backfilled}


def migration_text(facts: dict) -> str:
    """What `ladder migrate` and `ladder up` say about the schema: from and to which revision."""
    if facts["from"] == facts["to"]:
        return f"schema at {facts['to']}, nothing to migrate"
    text = f"migrated from {facts['from'] or 'an empty database'} to {facts['to']}"
    if facts.get("deviations_backfilled") is not None:
        text += f"; ratings replayed for their deviations ({facts['deviations_backfilled']} numbers rewritten)"
    return text


def requeue_left_running(settings: Settings) -> list[int]:
    """After `ladder up` stopped its worker, on its embedded database (no other worker can reach
    it): matches still `running` lost their worker (killed at the end of the grace, before it
    could give them back) and go back to the queue, uncounted, not left for the next start."""
    from ladder.db import make_engine, session_factory, session_scope
    from ladder.services.matches import release_running

    engine = make_engine(settings)
    try:
        with session_scope(session_factory(engine)) as session:
            return release_running(session=session)
    finally:
        engine.dispose()


def web_app(settings: Settings | None = None, long_lived: int | None = None):
    """The Flask app with dispatch wired to Celery: matches a view queues are sent to the workers.
    `long_lived`: the server's budget of held requests (ladder/web/held.py), unless set."""
    from ladder import create_app
    from workers.queue.tasks import dispatch_matches

    settings = settings or Settings.from_env()
    return create_app({"settings": settings, "LADDER_DISPATCH": dispatch_matches, "LADDER_LONG_LIVED": long_lived})


SECRET_FILE = "secret_key"


def ensure_secret(settings: Settings) -> Settings:
    """`settings` with a real secret key. When none is configured (development: production refuses
    to start without one), the key is generated once into the instance directory (mode 0600) and
    read from there afterwards, so sessions survive restarts and the public development key, with
    which anyone can forge a session cookie, never signs anything a server hands out."""
    if settings.secret_key != DEV_SECRET_KEY:
        return settings
    path = Path(settings.instance_dir) / SECRET_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        os.chmod(path, 0o600)  # a copy made readable by others is tightened, not trusted blindly
        key = path.read_text().strip()
        if len(key) < 32:
            raise RuntimeError(f"{path} holds no usable secret key; delete it to have a new one made") from None
    else:
        key = secrets.token_urlsafe(48)
        with os.fdopen(fd, "w") as out:
            out.write(key + "\n")
    return settings.model_copy(update={"secret_key": key})


def exposure_warning(settings: Settings, host: str) -> str | None:
    """A warning when a development configuration listens where other machines can reach it."""
    if not settings.development or loopback(host):
        return None
    return (f"listening on {host} with LADDER_ENV={settings.env}: other machines can reach this site. Its "
            "secret key is generated into the instance directory, but cookies are not Secure and sandboxes "
            "weaker than strict are allowed; set LADDER_ENV=production for a public site (docs/operations.md).")


def observability(settings: Settings) -> dict[str, object]:
    """gunicorn settings for metrics and logs: a fresh multiprocess metrics folder for this web's
    processes (ladder/telemetry/metrics.py), a child_exit hook that drops a dead process's live values, and
    with LADDER_LOG_FORMAT=json the app's own JSON request lines instead of the access log."""
    from ladder.telemetry import logs
    from ladder.telemetry.metrics_dir import use_multiproc_dir

    use_multiproc_dir(settings.instance_dir, "web")

    def child_exit(_server, worker) -> None:
        from ladder.telemetry.metrics import mark_process_dead

        mark_process_dead(worker.pid)

    hooks: dict[str, object] = {"child_exit": child_exit}
    if settings.log_format == "json":
        hooks.update({"accesslog": None, "logconfig_dict": logs.gunicorn_config()})
    return hooks


def bind_address(host: str, port: int) -> str:
    """gunicorn's bind for `--host`: unix:PATH as it is (a proxy on this machine), else host:port."""
    return host if host.startswith("unix:") else f"{host}:{port}"


HEADER_TIMEOUT_S = 5  # a client has this long to send a request's head (slowloris), or to start its next
GEVENT_CONNECTIONS = 1000  # open connections per gevent process (gunicorn's worker_connections)
LONG_LIVED_GEVENT = 400  # held requests per gevent process (ladder/web/held.py): the rest is for pages


def worker_classes() -> tuple[str, ...]:
    """The gunicorn worker classes `ladder web` can run here: gevent first when it is installed."""
    try:
        import gevent  # noqa: F401
    except ImportError:
        return ("gthread",)
    return ("gevent", "gthread")


def long_lived_budget(worker_class: str, threads: int) -> int:
    """How many requests one process may hold open (ladder/web/held.py): under gevent a held
    request is a greenlet, and the bound is on sockets; under threads, half of them, so pages
    always have threads of their own."""
    return LONG_LIVED_GEVENT if worker_class == "gevent" else max(1, threads // 2)


def run_gunicorn(settings: Settings, *, host: str, port: int, workers: int, threads: int = 4,
                 graceful_timeout: int = 10, worker_class: str | None = None,
                 header_timeout: int = HEADER_TIMEOUT_S) -> None:
    """Serve the site with gunicorn. gevent (the default where installed): every connection a
    greenlet, so seat long polls, websockets and slow clients hold no thread; gthread: `threads`
    per process. Either way a request's head must arrive within `header_timeout` seconds (gunicorn's
    keepalive bounds reading each request's head, the first one too), so slowloris sockets are
    closed; docs/operations.md says what the reverse proxy adds."""
    from gunicorn.app.base import BaseApplication

    hooks = observability(settings)  # first: the multiprocess metrics folder before prometheus_client loads
    settings = ensure_secret(settings)
    warning = exposure_warning(settings, host)
    if warning:
        print(f"WARNING: {warning}", file=sys.stderr, flush=True)
    worker_class = worker_class or worker_classes()[0]
    budget = long_lived_budget(worker_class, threads)

    class Server(BaseApplication):
        def load_config(self) -> None:
            for key, value in {
                "bind": bind_address(host, port), "workers": workers, "threads": threads, "worker_class": worker_class,
                "worker_connections": GEVENT_CONNECTIONS, "keepalive": header_timeout,
                "graceful_timeout": graceful_timeout, "accesslog": "-", "errorlog": "-",
                "proc_name": "ladder-web", "forwarded_allow_ips": os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
            }.items():
                self.cfg.set(key, value)
            for key, value in hooks.items():
                self.cfg.set(key, value)
            if "control_socket_disable" in self.cfg.settings:  # gunicorn 25+: no shared socket under ~
                self.cfg.set("control_socket_disable", True)

        def load(self):
            return web_app(settings, long_lived=budget)

    Server().run()


# --- the supervisor --------------------------------------------------------------------------


def _die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the supervisor goes away, even by SIGKILL."""
    with contextlib.suppress(OSError, AttributeError):  # not Linux: the supervisor's shutdown still works
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


@dataclass
class Child:
    name: str
    argv: list[str]
    proc: subprocess.Popen | None = None
    pgid: int | None = None

    def start(self, env: Mapping[str, str]) -> None:
        self.proc = subprocess.Popen(self.argv, env=dict(env), start_new_session=True, preexec_fn=_die_with_parent)
        self.pgid = self.proc.pid  # the leader of its own new session and process group

    def signal_group(self, sig: int) -> None:
        if self.pgid is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, sig)


@dataclass
class Supervisor:
    children: list[Child]
    env: Mapping[str, str]
    grace: float = 20.0
    say: Callable[[str], None] = print
    # run once every child is gone (`ladder up` on its embedded database: requeue_left_running)
    after_stop: Callable[[], None] | None = None
    stopping: bool = field(default=False, init=False)

    def request_stop(self, signum: int, _frame: object = None) -> None:
        if not self.stopping:
            self.say(f"{signal.Signals(signum).name}: stopping web, worker and scheduler ...")
        self.stopping = True

    def run(self, ready: Callable[[], bool] | None = None, on_ready: Callable[[], None] | None = None) -> int:
        """Start every child, wait for a stop request or a child's death, stop them all. Exit status:
        0 after a requested stop, 1 when a child died on its own."""
        from workers.sandbox import reap as sandbox_reap

        previous = {s: signal.signal(s, self.request_stop) for s in (signal.SIGINT, signal.SIGTERM)}
        sandbox_reap.become_subreaper()
        code = 0
        try:
            for child in self.children:
                child.start(self.env)
            announced = ready is None
            while not self.stopping:
                self.reap_adopted()
                dead = [c for c in self.children if c.proc.poll() is not None]
                if dead:
                    self.say(", ".join(f"{c.name} exited with status {c.proc.returncode}" for c in dead)
                             + "; stopping the rest")
                    code = 1
                    break
                if not announced and ready():
                    announced = True
                    if on_ready is not None:
                        on_ready()
                time.sleep(0.2)
        finally:
            self.stop_all()
            deadline = time.monotonic() + 2.0  # adopted orphans are dying: their parents are gone
            while self.reap_adopted() >= 0 and sandbox_reap.children() and time.monotonic() < deadline:
                time.sleep(0.05)
            self.leave_nothing_behind()
            if self.after_stop is not None:
                try:
                    self.after_stop()
                except Exception as exc:  # the stop itself is done: say so, never hide it behind this
                    self.say(f"after the stop: {type(exc).__name__}: {exc}")
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return code

    def leave_nothing_behind(self) -> None:
        """After a worker that had to be killed: its bots may be frozen (a frozen task ignores
        SIGKILL until thawed) and their cgroups left; kill and remove them, reap what comes to us."""
        from workers.queue.shutdown import leave_nothing_behind

        left = leave_nothing_behind()
        if left:
            self.say(f"{left} sandbox processes would not die")

    def reap_adopted(self) -> int:
        """Reap zombie children that are not one of ours: orphans adopted as a subreaper. Our own
        children's exit statuses stay for their Popen (it alone waits for them)."""
        from workers.sandbox import reap as sandbox_reap

        ours = {c.proc.pid for c in self.children if c.proc is not None and c.proc.returncode is None}
        return sandbox_reap.reap_zombies(keep=ours)

    def stop_all(self) -> None:
        """SIGTERM each leader (gunicorn and Celery then stop their own workers warmly: a running
        match finishes), wait up to `grace`, then SIGKILL each whole group, so pool processes
        that outlived their leader go too."""
        for child in self.children:
            if child.proc is not None and child.proc.poll() is None:
                child.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for child in self.children:
            if child.proc is None:
                continue
            try:
                child.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say(f"{child.name} did not stop within {self.grace:.0f} s; killing it")
            child.signal_group(signal.SIGKILL)
            child.proc.wait()


WORKER_TEARDOWN_S = 5.0  # of the grace kept for the worker to tear down and requeue what still runs


def child_commands(*, host: str, port: int, concurrency: int, web_workers: int = 1,
                   grace: float = 20.0) -> list[Child]:
    """The three processes of `ladder up`, each a `ladder` subcommand run by this interpreter. The
    worker's own grace ends before ours, so it tears its matches down itself, never killed."""
    ladder = [sys.executable, "-m", "ladder.cli"]
    worker_grace = max(0.0, grace - min(WORKER_TEARDOWN_S, grace / 2))
    return [
        Child("web", [*ladder, "web", "--host", host, "--port", str(port), "--workers", str(web_workers),
                      "--graceful-timeout", "5"]),
        Child("worker", [*ladder, "worker", "--concurrency", str(concurrency), "--grace", f"{worker_grace:g}"]),
        Child("scheduler", [*ladder, "scheduler"]),
    ]


def child_env(settings: Settings, base: Mapping[str, str] | None = None, **extra: str) -> dict[str, str]:
    """The children read the same settings from their environment: pin what the supervisor chose."""
    env = dict(os.environ if base is None else base)
    env["LADDER_INSTANCE_DIR"] = str(Path(settings.instance_dir).resolve())
    env["LADDER_SANDBOX_MODE"] = settings.sandbox_mode
    env["LADDER_ENV"] = settings.env
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def http_ok(url: str, timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # our own loopback URL
            return 200 <= response.status < 400
    except OSError:
        return False


def strongest_sandbox(modes: Sequence[str] = ("strict", "user", "none")) -> tuple[str, str]:
    """The first sandbox mode this machine can run, and why the stronger ones cannot."""
    from workers.sandbox.process import sandbox_available

    reasons = []
    for mode in modes:
        ok, why = sandbox_available(mode)
        if ok:
            return mode, "; ".join(reasons)
        reasons.append(f"{mode}: {why}")
    return modes[-1], "; ".join(reasons)
