"""`ladder connect`: play a bot on this machine in a ladder's match (docs/remote.md).

It asks the ladder for a challenge with the token owner's remote bot, starts the bot as a local
process (a `.py` file runs with this Python; anything else is a command line), and relays its
JSON lines over the seat's websocket: the same lines as in the sandbox, so the same bot runs
either way. With `--http` it uses the seat's HTTP long poll instead, for a network
where websockets cannot go. A cut connection is reconnected, resuming after the last line received (`received`),
so the bot never sees a line twice. `--cut-chance` cuts the connection on purpose before a
request reaches the bot, to test that: each match then reports how many cuts it made and
how many `disconnect` faults the ladder recorded for the seat (they must be equal). A `restart`
line (the ladder plays the match again from scratch) starts a fresh local process.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import shlex
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from ladder.cli.backoff import BUSY_S, RECONNECT_DELAYS, retry_seconds
from ladder.cli.service import PORT
from ladder.games import FLAGSHIP, get_game
from ladder.relay import seat_relay
from ladder.replay import Replay

GIVE_UP_S = 600  # a match not finished this long after its connection ended is reported hanging


class LadderRefused(click.ClickException):
    pass


@dataclass
class MatchReport:
    match_id: int
    seat: int
    cuts: int = 0
    reconnects: int = 0
    restarts: int = 0  # the ladder played the match again from the start (docs/remote.md)
    status: str = "?"  # the match's
    seat_status: str | None = None
    recorded: int | None = None  # disconnect faults in the replay
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return self.status == "finished" and self.recorded == self.cuts


class Ladder:
    """The ladder's HTTP API, with the token."""

    def __init__(self, url: str, token: str):
        self.url, self.token = url.rstrip("/"), token

    def call(self, method: str, path: str, body: dict | None = None, raw: bytes | None = None) -> tuple[int, Any, dict]:
        data = json.dumps(body).encode() if body is not None else raw
        request = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read() or b"null"), dict(response.headers)
        except urllib.error.HTTPError as exc:
            try:
                payload = json.loads(exc.read() or b"null")
            except ValueError:
                payload = None
            return exc.code, payload, dict(exc.headers)

    def challenge(self, game: str, bot: str, against: list[str], seed: int | None) -> tuple[int, int]:
        body = {"game": game, "bot": bot, "against": against, **({"seed": seed} if seed is not None else {})}
        while True:
            status, payload, headers = self.call("POST", "/api/v1/remote/challenges", body)
            if status == 201:
                return payload["match"]["id"], payload["seat"]
            if status == 429:  # the user's challenges in flight, or the request rate: wait as told
                time.sleep(retry_seconds(payload, headers))
                continue
            raise LadderRefused(f"the ladder refused the challenge ({status}): {(payload or {}).get('error')}")

    def ws_url(self, match_id: int, seat: int, received: int) -> str:
        base = self.url.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        return f"{base}/api/v1/seats/{match_id}/{seat}/ws?received={received}"


class Program:
    """The local bot: lines in on stdin, lines out on stdout (a thread reads them into a queue)."""

    def __init__(self, bot: str):
        path = Path(bot)
        command = [sys.executable, str(path)] if path.suffix == ".py" and path.is_file() else shlex.split(bot)
        # as in the sandbox: the SDK importable (`from bots.sdk import ...`), stray prints off the protocol
        sdk_root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "LADDER_BOT": "1",
               "PYTHONPATH": os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), sdk_root) if p)}
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, env=env)
        self.out: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.out.put(line.decode("utf-8", "replace").rstrip("\n"))
        self.out.put(None)

    def send(self, line: str) -> None:
        with contextlib.suppress(OSError):  # it exited: the ladder sees no answer, as in the sandbox
            self.proc.stdin.write(line.encode() + b"\n")

    def stop(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(2)
        except (subprocess.TimeoutExpired, OSError):
            self.proc.kill()
            self.proc.wait()


def play_one(ladder: Ladder, bot: str, match_id: int, seat: int, *, cut_chance: float, rng: random.Random,
             say=lambda text: None) -> MatchReport:
    """Relay one match's seat between the ladder and a fresh local process, cutting on purpose."""
    from ladder.relay import ws_client

    report, started = MatchReport(match_id, seat), time.monotonic()
    program = Program(bot)
    received, ws, delays = 0, None, list(RECONNECT_DELAYS)
    try:
        while True:
            if ws is None:
                try:
                    ws = ws_client.connect(ladder.ws_url(match_id, seat, received), ladder.token)
                    delays = list(RECONNECT_DELAYS)
                except ws_client.ConnectionError as exc:
                    if exc.status_code in (401, 403, 404):
                        raise LadderRefused(f"the seat refused the connection ({exc.status_code})") from None
                    # 429: the server's held requests or the request rate; its body is not read here
                    time.sleep(BUSY_S if exc.status_code == 429 else delays.pop(0) if len(delays) > 1 else delays[0])
                    report.reconnects += 1
                    continue
                except OSError:
                    time.sleep(delays.pop(0) if len(delays) > 1 else delays[0])
                    report.reconnects += 1
                    continue
            try:
                _forward_answers(program, ws)
                frame = ws.receive(timeout=0.02)
            except ws_client.ConnectionClosed:
                if ws.close_reason == 1000:  # the seat is finished with: the match ended or the fallback took it
                    report.notes.append(ws.close_message or "closed")
                    break
                if ws.close_reason == seat_relay.REVOKED_CLOSE:  # no reconnect with this token can succeed
                    raise LadderRefused(f"the ladder closed the connection: {ws.close_message}") from None
                ws = None  # cut (by the network, or refused for cause): reconnect and resume
                report.reconnects += 1
                continue
            if frame is None:
                continue
            line = frame if isinstance(frame, str) else frame.decode("utf-8", "replace")
            kind = _kind(line)
            # A cut on purpose comes before a request reaches the bot: the seat is then waiting for
            # its answer, so it hears of the cut (not so after its end). After the third the fallback
            # plays the seat, and later cuts would be of nobody's seat: none are made.
            if kind == "request" and report.cuts < seat_relay.MAX_CUTS and rng.random() < cut_chance:
                report.cuts += 1  # after reconnecting, the request comes again
                say(f"match {match_id}: cut {report.cuts}")
                ws.close()
                ws = None
                continue
            received += 1
            program = _deliver(program, bot, line, kind, report, say)
    finally:
        if ws is not None:
            with contextlib.suppress(Exception):
                ws.close()
        program.stop()
    report.seconds = time.monotonic() - started
    return report


def _deliver(program: Program, bot: str, line: str, kind: str | None, report: MatchReport, say) -> Program:
    """One line from the ladder to the local program (either transport); a `restart` starts a fresh
    program instead, as the ladder plays the match again from scratch. Returns the program now playing."""
    if kind != "restart":
        program.send(line)
        return program
    say(f"match {report.match_id}: restarted ({line[:200]})")
    program.stop()
    report.restarts += 1
    report.cuts = 0  # the replay keeps the last attempt's cuts only
    return Program(bot)


def play_one_http(ladder: Ladder, bot: str, match_id: int, seat: int, *, cut_chance: float, rng: random.Random,
                  say=lambda text: None) -> MatchReport:
    """`play_one` over the HTTP long poll (docs/remote.md), for where websockets cannot go: a thread
    keeps a GET waiting for the next lines at all times, and the program's lines are POSTed. A cut
    on purpose drops the connection before a request reaches the bot and connects anew, asking for
    the same lines again."""
    report, started = MatchReport(match_id, seat), time.monotonic()
    path = f"/api/v1/seats/{match_id}/{seat}/lines"
    down: queue.Queue[str | None] = queue.Queue()
    state: dict[str, Any] = {"conn": None, "stop": False}

    def poll() -> None:
        after, delays = "0", list(RECONNECT_DELAYS)
        while not state["stop"]:
            conn = state["conn"]
            query = f"?after={after}&wait=20" + (f"&conn={conn}" if conn else "")
            try:
                status, body, headers = ladder.call("GET", path + query)
            except OSError:
                status, body = 0, None
            if status == 429:  # the server's held requests, or the request rate: as told, same conn
                if isinstance(body, dict) and isinstance(body.get("conn"), str):
                    state["conn"] = body["conn"]
                time.sleep(retry_seconds(body, headers, BUSY_S))
                continue
            if status == 409:  # this connection is over (replaced, or it lapsed): connect anew
                state["conn"] = None
                report.reconnects += 1
                continue
            if status in (401, 403, 404):
                down.put(None)
                report.notes.append(f"the seat refused the connection ({status})")
                return
            if status != 200 or not isinstance(body, dict):
                time.sleep(delays.pop(0) if len(delays) > 1 else delays[0])
                report.reconnects += 1
                continue
            delays = list(RECONNECT_DELAYS)
            if conn is None:
                state["conn"] = body["conn"]
            if any(_kind(line) == "request" for line in body["lines"]) and report.cuts < seat_relay.MAX_CUTS \
                    and rng.random() < cut_chance:
                report.cuts += 1  # dropped unread: the next connection asks for the same lines
                say(f"match {match_id}: cut {report.cuts}")
                state["conn"] = None
                continue
            after = body["after"]
            for line in body["lines"]:
                down.put(line)
            if body.get("closed") is not None:
                report.notes.append(body["closed"])
                down.put(None)
                return

    program = Program(bot)
    poller = threading.Thread(target=poll, daemon=True, name=f"poll-{match_id}")
    poller.start()
    try:
        while True:
            answers, tries = _pending(program), 0
            while answers and state["conn"] is not None and poller.is_alive() and tries < 100:
                conn, tries = state["conn"], tries + 1
                status, body, headers = ladder.call("POST", f"{path}?conn={conn}", raw="\n".join(answers).encode())
                if status == 429:  # the request rate: not sent, send it again when told
                    time.sleep(retry_seconds(body, headers, BUSY_S))
                    continue
                if status != 409:
                    break  # sent, or refused for cause (the ladder records the fault)
                while state["conn"] == conn and poller.is_alive() and tries < 100:
                    tries += 1  # this connection is over: the poller connects anew, then this is sent
                    time.sleep(0.05)
            try:
                line = down.get(timeout=0.02)
            except queue.Empty:
                continue
            if line is None:
                break
            program = _deliver(program, bot, line, _kind(line), report, say)
    finally:
        state["stop"] = True
        program.stop()
    report.seconds = time.monotonic() - started
    return report


def _pending(program: Program) -> list[str]:
    out = []
    while True:
        try:
            line = program.out.get_nowait()
        except queue.Empty:
            return out
        if line is None:
            return out
        out.append(line)


def _forward_answers(program: Program, ws: Any) -> None:
    while True:
        try:
            line = program.out.get_nowait()
        except queue.Empty:
            return
        if line is None:
            return
        ws.send(line)


def _kind(line: str) -> str | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message.get("type") if isinstance(message, dict) else None


def outcome(ladder: Ladder, report: MatchReport, timeout_s: float = GIVE_UP_S) -> MatchReport:
    """Wait for the match to end, then read the seat's disconnect faults from its replay."""
    end = time.monotonic() + timeout_s
    while True:
        status, payload, _ = ladder.call("GET", f"/api/v1/matches/{report.match_id}")
        report.status = (payload or {}).get("match", {}).get("status", "?") if status == 200 else "?"
        if report.status in ("finished", "failed") or time.monotonic() > end:
            break
        time.sleep(0.5)
    if report.status == "finished":
        status, replay, _ = ladder.call("GET", f"/api/v1/matches/{report.match_id}/replay")
        if status == 200:
            seat = Replay.from_json(replay).seats[report.seat]
            report.recorded = len(seat.run.disconnects) if seat.run is not None else 0
            report.seat_status = seat.status
    elif report.status != "failed":
        report.status = "hanging"
    return report


@click.command()
@click.argument("bot")
@click.option("--token", required=True, envvar="LADDER_TOKEN", help="a personal API token with the play scope")
@click.option("--url", default=f"http://127.0.0.1:{PORT}", show_default=True, help="the ladder's address")
@click.option("--game", default=FLAGSHIP, show_default=True)
@click.option("--name", default=None, help="your remote bot's name on the ladder (default: the file's name)")
@click.option("--against", multiple=True,
              help="an opponent, owner/name (repeat for more seats; default: the game's fallback starter bot)")
@click.option("--matches", default=1, show_default=True, type=click.IntRange(1, 100_000))
@click.option("--cut-chance", default=0.0, show_default=True, type=click.FloatRange(0, 1),
              help="cut the connection on purpose before a request, with this chance (a test)")
@click.option("--seed", default=None, type=int, help="seeds the cuts (and nothing of the games)")
@click.option("--http", "http", is_flag=True, help="the HTTP long poll instead of a websocket (docs/remote.md)")
@click.option("--open", "open_ladder", is_flag=True,
              help="opt the bot in to the open ladder and play the rated matches the lobby pairs it into")
def connect(bot, token, url, game, name, against, matches, cut_chance, seed, http, open_ladder):
    """Play BOT (a .py file, or a command line) on a ladder from this machine, in challenges
    (or, with --open, on the open ladder)."""
    ladder = Ladder(url, token)
    against = against or (f"house/{get_game(game).fallback_bot}",)
    name = name or Path(bot.split()[0]).stem.replace("_", "-")[:40] or "remote"
    rng = random.Random(seed)
    reports = []
    if open_ladder:  # ladder/cli/open_ladder.py
        from ladder.cli.open_ladder import LobbyClient

        lobby = LobbyClient(ladder, LadderRefused)
        bot_id = lobby.opt_in(game, name)
        click.echo(f"{name} is on the open ladder; waiting in the lobby")
    for number in range(1, matches + 1):
        if open_ladder:
            match_id, seat = lobby.next_match(bot_id, say=click.echo)
        else:
            match_id, seat = ladder.challenge(game, name, list(against), None)
        play = play_one_http if http else play_one
        report = outcome(ladder, play(ladder, bot, match_id, seat, cut_chance=cut_chance, rng=rng))
        reports.append(report)
        click.echo(f"{number}/{matches} match {match_id}: {report.status}, seat {report.seat_status}, "
                   f"{report.cuts} cuts made, {report.recorded} disconnects recorded, {report.seconds:.1f} s"
                   + ("" if report.agrees else "  <-- MISMATCH"))
    if open_ladder:  # else the lobby could pair it again before it forgets the client
        lobby.leave(bot_id)
    summary = {
        "matches": len(reports), "finished": sum(r.status == "finished" for r in reports),
        "hanging": sum(r.status == "hanging" for r in reports), "failed": sum(r.status == "failed" for r in reports),
        "cuts": sum(r.cuts for r in reports), "recorded": sum(r.recorded or 0 for r in reports),
        "mismatches": sum(not r.agrees for r in reports),
    }
    click.echo(json.dumps(summary))
    if summary["mismatches"]:
        raise SystemExit(1)
