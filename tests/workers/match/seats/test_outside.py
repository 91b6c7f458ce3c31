"""An outside seat over the relay: the same lines as a sandboxed bot; cuts, stalls, floods and lies
get the statuses a sandboxed bot gets; no match waits past the clock.

A fake client thread stands for the web tier and the program: it reads the seat's down topic and
answers with an in-process house bot, misbehaving as each test scripts it."""

from __future__ import annotations

import json
import threading

import pytest
from match_support import run_specs

from bots import load_builtin
from ladder.match import RemoteProgram
from ladder.relay import seat_relay
from ladder.relay.backends import MemoryRelay
from ladder.replay import verify_replay
from workers.match import blame, runner
from workers.match.protocol import TimeControl
from workers.match.seats import outside as outside_seat

GAME = "treasure"
MATCH = 7
CLOCK = TimeControl(decision_ms=300, bank_ms=600, startup_ms=3000)


class Client(threading.Thread):
    """`script(n, message) -> list of up messages` for request n (1, 2, ...); None: answer honestly."""

    def __init__(self, relay: MemoryRelay, script=None, connect: bool = True):
        super().__init__(daemon=True)
        self.relay, self.script, self.connect = relay, script or (lambda n, m: None), connect
        self.down, self.up = seat_relay.down_topic(MATCH, 0), seat_relay.up_topic(MATCH, 0)
        self.bot = load_builtin(GAME, "careful")()
        self.got: list[dict] = []
        self.closed: str | None = None
        self.stop = threading.Event()

    def say(self, *messages: dict) -> None:
        self.relay.publish_many(self.up, list(messages))

    def run(self) -> None:
        if self.connect:
            self.say({"mark": "connect"})
        after, requests = "0", 0
        while not self.stop.is_set() and self.closed is None:
            for message in self.relay.read(self.down, after, block=0.2):
                after = message.id
                if "close" in message.data:
                    self.closed = message.data["close"]
                    break
                line = json.loads(message.data["line"])
                self.got.append(line)
                if line["type"] == "restart":  # as `ladder connect` does: a fresh program
                    self.bot = load_builtin(GAME, "careful")()
                elif line["type"] == "hello":
                    self.bot.setup(line)
                    self.say({"line": json.dumps({"type": "ready"})})
                elif line["type"] == "event":
                    self.bot.on_event(line["event"])
                elif line["type"] == "request":
                    requests += 1
                    scripted = self.script(requests, line)
                    if scripted is None:
                        decision = self.bot.decide(line["kind"], line["observation"])
                        scripted = [{"line": json.dumps({"id": line["id"], "decision": decision})}]
                    if scripted:
                        self.say(*scripted)
                elif line["type"] == "end":
                    self.say({"mark": "delivered"})


def play(client: Client, relay: MemoryRelay, seed: int = 3):
    client.start()
    try:
        result = run_specs([RemoteProgram("far"), "builtin:careful"], game=GAME, match_id=MATCH, seed=seed,
                           sandbox="none", require_strict=False, clock=CLOCK, relay=relay, names=["far", "near"])
    finally:
        client.stop.set()
        client.join(5)
    verify_replay(result.replay)
    return result, result.replay.seats[0]


def answer(line: dict, bot) -> dict:
    return {"line": json.dumps({"id": line["id"], "decision": bot.decide(line["kind"], line["observation"])})}


def test_an_honest_program_plays_the_same_lines_as_a_sandboxed_bot():
    relay = MemoryRelay()
    client = Client(relay)
    result, seat = play(client, relay)
    assert [r["status"] for r in result.results] == ["ok", "ok"]
    assert seat.run.sandbox == "remote" and seat.run.disconnects == () and seat.run.takeover is None
    hello = client.got[0]
    assert hello["type"] == "hello" and hello["limits"]["max_line_bytes"] == seat_relay.MAX_LINE_BYTES
    assert client.got[-1]["type"] == "end" and client.closed == "the match is over"
    assert len(seat.run.timings) == sum(1 for m in client.got if m["type"] == "request")


def test_each_cut_is_one_disconnect_fault_and_two_cuts_leave_the_seat_playing():
    relay = MemoryRelay()
    client = Client(relay)

    def script(n, line):
        if n in (2, 5):  # cut, come back, then answer: the clock kept counting meanwhile
            return [{"mark": "cut"}, {"mark": "connect"}, answer(line, client.bot)]
        return None

    client.script = script
    result, seat = play(client, relay)
    assert [d["request"] for d in seat.run.disconnects] == [2, 5]
    assert seat.status == "ok" and seat.run.takeover is None
    assert result.results[0]["status"] == "ok"


def test_a_cut_said_after_the_reconnection_counts_once_at_the_reconnection():
    """A websocket's handler says its cut after it ends, up to a second late, when its client has
    already reconnected and answered. The newer connection's mark counts the cut: so the third one
    hands the seat over at that request (even the match's last) and the late mark adds none."""
    relay = MemoryRelay()
    client = Client(relay)  # its first connection is conn None
    conns = [None, "c1", "c2", "c3"]
    late: list[threading.Timer] = []

    def script(n, line):
        if n > 3:
            return None
        # the old connection's cut comes after the seat has read the new one's answer
        late.append(threading.Timer(0.5, client.say, args=({"mark": "cut", "conn": conns[n - 1]},)))
        late[-1].start()
        return [{"mark": "connect", "conn": conns[n]}, answer(line, client.bot)]

    client.script = script
    result, seat = play(client, relay)
    for timer in late:
        timer.cancel()
    assert [d["request"] for d in seat.run.disconnects] == [1, 2, 3]
    assert seat.run.takeover["code"] == "disconnect" and seat.run.takeover["request"] == 3
    assert result.results[0]["status"] == "protocol_error"


def test_the_third_cut_hands_the_seat_to_the_fallback():
    relay = MemoryRelay()
    client = Client(relay)
    client.script = lambda n, line: ([{"mark": "cut"}, {"mark": "connect"}, answer(line, client.bot)]
                                     if n <= 3 else None)
    result, seat = play(client, relay)
    assert len(seat.run.disconnects) == 3
    assert seat.run.takeover["code"] == "disconnect" and seat.run.takeover["request"] == 3
    assert result.results[0]["status"] == "protocol_error" and seat.forfeit
    assert client.closed.startswith("the fallback bot plays this seat now")


def test_a_seat_still_cut_off_at_its_deadline_is_played_by_the_fallback():
    relay = MemoryRelay()
    client = Client(relay)
    client.script = lambda n, line: [{"mark": "cut"}] if n == 2 else None  # and never comes back
    result, seat = play(client, relay)
    assert seat.run.takeover["code"] == "disconnect" and "still cut off" in seat.run.takeover["reason"]
    assert len(seat.run.disconnects) == 1
    assert result.results[0]["status"] == "protocol_error"


def test_a_stall_is_a_timeout_as_in_the_sandbox():
    relay = MemoryRelay()
    client = Client(relay)
    client.script = lambda n, line: [] if n == 2 else None  # connected, silent
    result, seat = play(client, relay)
    assert seat.run.takeover["code"] == "timeout" and result.results[0]["status"] == "timeout"


def test_lies_are_strikes_and_a_flood_or_an_oversized_line_a_takeover():
    relay = MemoryRelay()
    client = Client(relay)
    client.script = lambda n, line: ([{"line": json.dumps({"id": line["id"] + 100, "decision": {}})}]
                                     if n <= 3 else None)
    result, seat = play(client, relay)
    assert [s["code"] for s in seat.run.strikes] == ["wrong_id"] * 3
    assert result.results[0]["status"] == "protocol_error" and seat.run.takeover["code"] == "wrong_id"

    for mark, code in (("flood", "flood"), ("oversized", "oversized")):
        relay = MemoryRelay()
        client = Client(relay)
        client.script = lambda n, line, mark=mark: [{"mark": mark}] if n == 1 else None
        result, seat = play(client, relay)
        assert seat.run.takeover["code"] == code and result.results[0]["status"] == "protocol_error"


def test_a_program_that_never_connects_is_a_startup_fault_within_the_clock(monkeypatch):
    monkeypatch.setattr(outside_seat, "STARTUP_FLOOR_MS", CLOCK.startup_ms)
    relay = MemoryRelay()
    client = Client(relay, connect=False)
    client.script = None
    client.run = lambda: None  # nobody there
    result, seat = play(client, relay)
    assert seat.run.takeover["code"] == "startup" and "no program connected" in seat.run.takeover["reason"]
    assert result.results[1]["status"] == "ok"


@pytest.mark.parametrize("stale", ["line", "cut"])
def test_what_was_said_before_the_match_started_is_not_this_match(stale):
    relay = MemoryRelay()
    up = seat_relay.up_topic(MATCH, 0)
    relay.publish(up, {"line": json.dumps({"type": "ready"})} if stale == "line" else {"mark": "cut"})
    client = Client(relay)
    result, seat = play(client, relay)
    assert seat.run.disconnects == () and result.results[0]["status"] == "ok"


def test_a_voided_attempt_tells_the_client_to_restart_and_never_closes_it():
    """The ladder fails mid-game (its own fault): the match is played again; the client hears one
    `restart` before the replay's `hello`, its connection is never closed in between, and the match
    it then plays is an ordinary one."""
    relay = MemoryRelay()
    voids, voided = [], []

    class Recorded(runner.MatchVoid):
        def __init__(self):
            super().__init__()
            voids.append(self)

    client = Client(relay)

    def script(n, line):
        if len(voids) == 1 and n == 3:
            voids[0].fault = blame.LadderFault("a test's ladder failure")
        return None

    client.script = script
    client.start()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(runner, "MatchVoid", Recorded)
            result = blame.retrying(
                lambda final: run_specs([RemoteProgram("far"), "builtin:careful"], game=GAME, match_id=MATCH, seed=3,
                                        sandbox="none", require_strict=False, clock=CLOCK, relay=relay,
                                        names=["far", "near"], final_attempt=final),
                on_void=lambda number, fault: voided.append(number))
    finally:
        client.stop.set()
        client.join(5)
    verify_replay(result.replay)
    assert voided == [1] and len(voids) == 2
    kinds = [m["type"] for m in client.got]
    assert kinds.count("restart") == 1 and kinds.count("hello") == 2
    restart = kinds.index("restart")
    assert kinds[restart + 1] == "hello" and "end" not in kinds[:restart]
    assert client.closed == "the match is over" and kinds[-1] == "end"
    seat = result.replay.seats[0]
    assert [r["status"] for r in result.results] == ["ok", "ok"] and seat.run.disconnects == ()


def test_the_last_attempt_void_closes_the_seat_with_the_reason():
    relay = MemoryRelay()
    voids = []

    class Recorded(runner.MatchVoid):
        def __init__(self):
            super().__init__()
            voids.append(self)

    client = Client(relay)
    client.script = lambda n, line: setattr(voids[0], "fault", blame.LadderFault("broken")) if n == 2 else None
    client.start()
    try:
        with pytest.MonkeyPatch.context() as patch, pytest.raises(blame.LadderFault):
            patch.setattr(runner, "MatchVoid", Recorded)
            run_specs([RemoteProgram("far"), "builtin:careful"], game=GAME, match_id=MATCH, seed=3, sandbox="none",
                      require_strict=False, clock=CLOCK, relay=relay, names=["far", "near"], final_attempt=True)
        for _ in range(50):
            if client.closed is not None:
                break
            client.join(0.1)
    finally:
        client.stop.set()
        client.join(5)
    assert client.closed == "the match failed on the ladder's side: broken"


def test_a_polling_client_that_lets_its_lease_run_out_is_cut_once():
    """An HTTP client's connection lives by its polls (ladder/web/api/seat_socket.py): past its lease without a
    poll it is one cut, whether the worker notices the lapse while waiting or only when it comes back."""
    import time

    relay = MemoryRelay()
    client = Client(relay, connect=False)

    def script(n, line):
        now = time.time()
        if n == 1:
            return [{"mark": "connect", "conn": "h", "at": now, "until": now + 0.3}, answer(line, client.bot)]
        if n == 2:
            time.sleep(0.6)  # no poll meanwhile: the lease lapses
            now = time.time()
        return [{"mark": "lease", "conn": "h", "at": now, "until": now + 60}, answer(line, client.bot)]

    client.script = script
    client.start()
    try:
        result = run_specs([RemoteProgram("far"), "builtin:careful"], game=GAME, match_id=MATCH, seed=3, sandbox="none",
                           require_strict=False, clock=TimeControl(decision_ms=3000, bank_ms=600, startup_ms=3000),
                           relay=relay, names=["far", "near"])
    finally:
        client.stop.set()
        client.join(5)
    seat = result.replay.seats[0]
    assert [d["request"] for d in seat.run.disconnects] == [2]
    assert seat.status == "ok" and result.results[0]["status"] == "ok"


def test_a_new_connection_replaces_a_polling_one_as_one_cut():
    relay = MemoryRelay()
    client = Client(relay, connect=False)

    def script(n, line):
        import time

        now = time.time()
        if n == 1:
            return [{"mark": "connect", "conn": "h1", "at": now, "until": now + 60}, answer(line, client.bot)]
        if n == 3:  # the client dropped h1 and connected anew: nobody says h1's end but the new connect
            return [{"mark": "connect", "conn": "h2", "at": now, "until": now + 60}, answer(line, client.bot)]
        return None

    client.script = script
    _, seat = play(client, relay)
    assert [d["request"] for d in seat.run.disconnects] == [3] and seat.status == "ok"
