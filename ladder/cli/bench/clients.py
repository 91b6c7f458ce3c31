"""`ladder bench clients`: hostile clients against a running ladder (issue #39, docs/performance.md).

Starts a real ladder on loopback (`ladder up`, or `ladder up --web-workers 3` on PostgreSQL and
Redis, the production shape), then holds open at once: `slow` slowloris sockets (one header byte
every 2 s, reopened when the server closes them), `websockets` seat websockets and `polls` waiting
seat long polls, all of one user, while another user's remote program plays whole matches over
its own websocket. Meanwhile `GET /` and the leaderboard are timed one after the other; their
medians (and those of the idle site before) are printed, with how often the server closed a slow
socket and whether the other user's seat was forfeited. Bounded: `seconds` of load, fixed counts.

The holders' seats are of matches marked failed as soon as they are made (no worker plays them):
what a held seat costs the web tier is the same for any match, and the ladder's one worker then
plays the prober's matches, not the holders'. The holder user's limits (seats per user and per
address, the request rate) are raised for the bench: it measures what the server holds, not the
refusals (tests/web/ hold those).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SLOW_BYTE_S = 2.0  # a slowloris socket's pace
PROBE_LIMIT_S = 180  # past the load's time, how long the other user's last match may still take
POLL_WAIT_S = 20  # each holder's long poll
HOLD_LIMITS = {  # the holders' own limits, out of the way (see the module's docstring)
    "LADDER_REMOTE_SEATS_PER_USER": "1000", "LADDER_REMOTE_SEATS_PER_ADDRESS": "1000",
    "LADDER_API_RATE": "100000 per minute", "LADDER_CHALLENGES_IN_FLIGHT": "1000",
    "LADDER_CHALLENGES_PER_TARGET": "1000", "LADDER_UPLOADS_PER_DAY": "100000",
}


@dataclass
class Figures:
    target: str
    idle_home_ms: float = 0.0
    idle_board_ms: float = 0.0
    home_ms: list[float] = field(default_factory=list)
    board_ms: list[float] = field(default_factory=list)
    failed_gets: int = 0
    slow_closed: int = 0  # slowloris sockets the server closed (its header timeout)
    slow_open: int = 0  # open now
    ws_open: int = 0
    slow_peak: int = 0  # the most open at once
    ws_peak: int = 0
    ws_refused: Counter = field(default_factory=Counter)
    polls: Counter = field(default_factory=Counter)  # answers to the holders' long polls, by status
    probes: list[tuple[int, str, str | None]] = field(default_factory=list)  # (match, status, seat status)
    stop_status: int | None = None  # `ladder up`'s exit status after the bench's Ctrl-C
    tracebacks: int = 0  # in its output (web, worker, scheduler)

    @property
    def forfeited(self) -> int:
        return sum(1 for _, status, seat in self.probes if status != "finished" or seat != "ok")

    @property
    def ok(self) -> bool:
        return (bool(self.probes) and self.forfeited == 0 and self.median(self.home_ms) < 200
                and self.median(self.board_ms) < 200)

    @staticmethod
    def median(values: list[float]) -> float:
        return statistics.median(values) if values else float("inf")

    def lines(self) -> list[str]:
        def p90(values: list[float]) -> float:
            return sorted(values)[int(len(values) * 0.9)] if values else float("inf")

        probes = ", ".join(f"{m}: {s}/{seat}" for m, s, seat in self.probes) or "none finished"
        return [
            f"{self.target}:",
            f"  idle            GET / {self.idle_home_ms:.0f} ms, leaderboard {self.idle_board_ms:.0f} ms (medians)",
            f"  under the load  GET / median {self.median(self.home_ms):.0f} ms (p90 {p90(self.home_ms):.0f}, "
            f"n {len(self.home_ms)}), leaderboard median {self.median(self.board_ms):.0f} ms "
            f"(p90 {p90(self.board_ms):.0f}, n {len(self.board_ms)}), failed {self.failed_gets}",
            f"  held            websockets open at most {self.ws_peak} (refused {dict(self.ws_refused) or 0}), "
            f"long polls answered {dict(self.polls)}, slow sockets open at most {self.slow_peak}, "
            f"closed by the server (header timeout) {self.slow_closed}",
            f"  other user's seat: {probes}; forfeited {self.forfeited}",
            f"  ladder up stopped with status {self.stop_status}; tracebacks in its output {self.tracebacks}",
            f"  {'PASS' if self.ok else 'FAIL'} (medians under 200 ms, no seat forfeited)",
        ]


def _get_ms(url: str, timeout: float = 30.0) -> float | None:
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            response.read()
            if response.status != 200:
                return None
    except (OSError, urllib.error.HTTPError):
        return None
    return (time.perf_counter() - started) * 1000


def _slowloris(host: str, port: int, stop: threading.Event, figures: Figures, lock: threading.Lock) -> None:
    """One socket that sends a request head one byte every SLOW_BYTE_S, anew when closed."""
    head = b"GET / HTTP/1.1\r\nHost: bench\r\n" + b"X-Slow: " + b"a" * 10_000
    while not stop.is_set():
        try:
            sock = socket.create_connection((host, port), timeout=5)
        except OSError:
            stop.wait(0.5)
            continue
        sock.settimeout(0.05)
        with lock:
            figures.slow_open += 1
            figures.slow_peak = max(figures.slow_peak, figures.slow_open)
        try:
            for byte in head:
                if stop.is_set():
                    break
                sock.sendall(bytes([byte]))
                with contextlib.suppress(TimeoutError, socket.timeout):
                    if sock.recv(1024) == b"":  # closed by the server (or answered 4xx and closed)
                        raise ConnectionResetError
                if stop.wait(SLOW_BYTE_S):
                    break
            else:
                continue
        except OSError:
            with lock:
                figures.slow_closed += 1
        finally:
            with lock:
                figures.slow_open -= 1
            sock.close()


def _ws_holder(url: str, token: str, stop: threading.Event, figures: Figures, lock: threading.Lock) -> None:
    from ladder.relay import ws_client

    while not stop.is_set():
        try:
            ws = ws_client.connect(url, token)
        except ws_client.ConnectionError as exc:
            with lock:
                figures.ws_refused[exc.status_code] += 1
            stop.wait(2.0)
            continue
        except OSError:
            stop.wait(1.0)
            continue
        with lock:
            figures.ws_open += 1
            figures.ws_peak = max(figures.ws_peak, figures.ws_open)
        try:
            while not stop.is_set():
                ws.receive(timeout=1.0)
        except ws_client.ConnectionClosed:
            pass
        finally:
            with lock:
                figures.ws_open -= 1
            with contextlib.suppress(Exception):
                ws.close()


def _poll_holder(base: str, path: str, token: str, stop: threading.Event, figures: Figures,
                 lock: threading.Lock) -> None:
    from ladder.cli.backoff import retry_seconds
    from ladder.cli.connect import Ladder

    ladder, conn = Ladder(base, token), None
    while not stop.is_set():
        query = f"?wait={POLL_WAIT_S}" + (f"&conn={conn}" if conn else "")
        try:
            status, body, headers = ladder.call("GET", path + query)
        except OSError:
            status, body, headers = 0, None, {}
        with lock:
            figures.polls[status] += 1
        if isinstance(body, dict) and isinstance(body.get("conn"), str):
            conn = body["conn"]
        if status == 429:
            stop.wait(retry_seconds(body, headers, 2.0))
        elif status != 200:
            conn = None
            stop.wait(1.0)


def hold_seats(env: dict[str, str], holders: int, game: str) -> tuple[str, str, list[int]]:
    """Two users with play tokens; `holders` remote seats of the first, in matches marked failed."""
    from ladder.config import Settings
    from ladder.db import make_engine, session_factory, session_scope
    from ladder.models import Match, MatchStatus
    from ladder.services import outside, tokens, users

    settings = Settings.from_env(env)
    engine = make_engine(settings)
    try:
        with session_scope(session_factory(engine)) as session:
            made = {}
            for name in ("holder", "prober"):
                user = users.sign_up(session=session, data={"username": name, "password": "bench-" + "x7Qp!" * 4})
                made[name] = (user.id, tokens.create(session=session, user_id=user.id, name="bench",
                                                     scopes=["play", "read"])[1])
            against = _opponents(game)
            seats = []
            for _ in range(holders):
                match, _ = outside.remote_challenge(session=session, user_id=made["holder"][0], game=game,
                                                    bot_name="holder", against=against, sandbox=settings.sandbox_mode)
                session.get(Match, match.id).status = MatchStatus.FAILED  # no worker plays it
                session.commit()
                seats.append(match.id)
    finally:
        engine.dispose()
    return made["holder"][1], made["prober"][1], seats


def _opponents(game: str) -> list[str]:
    """The fewest house opponents the game takes (the house user is `house` in the bench's ladders)."""
    from ladder.games import get_game

    rules = get_game(game)
    names = [rules.fallback_bot, *(n for n in rules.starter_bots if n != rules.fallback_bot)]
    return [f"house/{name}" for name in names[:rules.min_players - 1]]


def _probe(base: str, token: str, game: str, say: Callable[[str], None], last: threading.Event,
           stop: threading.Event, figures: Figures, lock: threading.Lock) -> None:
    """The other user's program: whole matches over its websocket, one after another until `last`
    (the load stays on until the one being played has finished)."""
    import random

    from ladder.cli.connect import Ladder, outcome, play_one
    from ladder.games import get_game

    ladder = Ladder(base, token)
    # the fallback starter bot as a module (run as a script, its folder's random.py would shadow the standard one)
    bot = f"{sys.executable} -m bots.{game}.{get_game(game).fallback_bot}"
    while not last.is_set():
        match_id, seat = ladder.challenge(game, "prober", _opponents(game), None)
        report = outcome(ladder, play_one(ladder, bot, match_id, seat, cut_chance=0.0, rng=random.Random(0)),
                         timeout_s=120)
        say(f"  the other user's match {match_id}: {report.status}, seat {report.seat_status}")
        with lock:
            figures.probes.append((match_id, report.status, report.seat_status))


def bench_target(target: str, *, port: int, env: dict[str, str], up_args: list[str], seconds: float, slow: int,
                 websockets: int, polls: int, game: str, say: Callable[[str], None]) -> Figures:
    figures, lock, stop = Figures(target), threading.Lock(), threading.Event()
    base = f"http://127.0.0.1:{port}"
    log = open(Path(env["LADDER_INSTANCE_DIR"]) / "up.log", "w")  # noqa: SIM115 - closed below
    say(f"{target}: starting ladder up {' '.join(up_args)} (its output: {log.name})")
    proc = subprocess.Popen([sys.executable, "-m", "ladder.cli", "up", "--port", str(port), "--concurrency", "1",
                             *up_args], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    threads: list[threading.Thread] = []
    try:
        ready = time.monotonic() + 120
        while _get_ms(base + "/", timeout=2) is None:
            if proc.poll() is not None or time.monotonic() > ready:
                raise RuntimeError(f"{target}: the ladder did not come up (see {log.name})")
            time.sleep(0.5)
        holder, prober, seats = hold_seats(env, websockets + polls, game)
        board = f"{base}/leaderboard/{game}"
        idle = [(_get_ms(base + "/"), _get_ms(board)) for _ in range(15)]
        figures.idle_home_ms = statistics.median(h for h, _ in idle if h is not None)
        figures.idle_board_ms = statistics.median(b for _, b in idle if b is not None)

        def start(target_fn, *args) -> None:
            thread = threading.Thread(target=target_fn, args=(*args, stop, figures, lock), daemon=True)
            thread.start()
            threads.append(thread)

        ws_base = base.replace("http://", "ws://")
        for match_id in seats[:websockets]:
            start(_ws_holder, f"{ws_base}/api/v1/seats/{match_id}/0/ws", holder)
        for match_id in seats[websockets:]:
            start(_poll_holder, base, f"/api/v1/seats/{match_id}/0/lines", holder)
        for _ in range(slow):
            start(_slowloris, "127.0.0.1", port)
        time.sleep(3.0)  # every holder in place
        last = threading.Event()
        start(_probe, base, prober, game, say, last)
        prober_thread = threads[-1]
        end = time.monotonic() + seconds
        while time.monotonic() < end + PROBE_LIMIT_S and (time.monotonic() < end or prober_thread.is_alive()):
            if time.monotonic() >= end:
                last.set()  # the match being played is the last; the load stays on until it ends
            for url, into in ((base + "/", figures.home_ms), (board, figures.board_ms)):
                ms = _get_ms(url)
                if ms is None:
                    figures.failed_gets += 1
                else:
                    into.append(ms)
            time.sleep(0.1)
        say(f"{target}: {figures.ws_open} websockets and {figures.slow_open} slow sockets open at the end")
        stop.set()
        for thread in threads:
            thread.join(150)
    finally:
        stop.set()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGINT)
        try:
            figures.stop_status = proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()
        figures.tracebacks = Path(log.name).read_text(errors="replace").count("Traceback")
    return figures


def run_clients_bench(*, port: int, seconds: float, slow: int, websockets: int, polls: int, game: str,
                      targets: list[str], postgres: str, redis_url: str | None, database_name: str,
                      say: Callable[[str], None] = print) -> list[Figures]:
    """Each of `targets` ("up": the embedded default; "web3": three web processes on PostgreSQL and
    Redis), in turn, on `port`."""
    results = []
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("LADDER_") and k != "DATABASE_URL"}
    base_env.pop("REDIS_URL", None)
    for target in targets:
        with tempfile.TemporaryDirectory(prefix=f"ladder-bench-clients-{target}-") as instance:
            env = {**base_env, **HOLD_LIMITS, "LADDER_ENV": "development", "LADDER_INSTANCE_DIR": instance,
                   "PYTHONUNBUFFERED": "1"}
            up_args: list[str] = []
            if target == "web3":
                if redis_url is None:
                    raise RuntimeError("web3 needs --redis-url (a Redis of your own)")
                database = _fresh_database(postgres, database_name)
                env.update(DATABASE_URL=database, REDIS_URL=redis_url)
                up_args = ["--web-workers", "3"]
            results.append(bench_target(target, port=port, env=env, up_args=up_args, seconds=seconds, slow=slow,
                                        websockets=websockets, polls=polls, game=game, say=say))
            for line in results[-1].lines():
                say(line)
    return results


def _fresh_database(admin_url: str, name: str) -> str:
    import sqlalchemy as sa

    admin_url = admin_url.replace("postgresql://", "postgresql+psycopg://", 1)
    engine = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return admin_url.rsplit("/", 1)[0] + f"/{name}"
