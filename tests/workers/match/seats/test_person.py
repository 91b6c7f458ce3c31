"""A person's seat in the worker (workers/match/seats/person.py) over an in-process relay: a scripted
person plays a whole game through the game's forms; no answer within the clock, a page no longer
seen and a refused answer are handled like a faulty bot's; the runner seats it without a sandbox."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest
from match_support import run_specs

from bots import load_builtin
from ladder.games import get_game
from ladder.match import Person
from ladder.play import make_bots, play_game
from ladder.relay.backends import MemoryRelay, topics
from workers.match import seats
from workers.match.seats import PersonSeat

MATCH = 41


class ScriptedPerson(threading.Thread):
    """Reads the seat's topic as the page does and answers each request through the game's form
    with what house bot `bot` would choose (fill, then read: the values a person would submit).
    `answers` caps how many it answers, `here` whether it keeps saying the page is open."""

    def __init__(self, relay, game: str, seat: int, bot: str, answers: int | None = None, here: bool = True,
                 illegal: int = 0):
        super().__init__(daemon=True)
        self.relay, self.game, self.seat = relay, game, seat
        self.answers, self.here, self.illegal = answers, here, illegal
        self.bot_name = bot
        self.bot = load_builtin(game, bot)()
        self.forms = get_game(game).part("forms")
        self.seen: list[dict] = []
        self.stop = threading.Event()

    def run(self) -> None:
        down, up = topics.seat_down(MATCH, self.seat), topics.seat_up(MATCH, self.seat)
        after = "0"
        while not self.stop.is_set():
            if self.here:
                self.relay.publish(up, {"type": "here"})
            for message in self.relay.read(down, after, block=0.2):
                after = message.id
                data = message.data
                self.seen.append(data)
                if data["type"] == "restart":  # as the page does: the table starts afresh
                    self.bot = load_builtin(self.game, self.bot_name)()
                elif data["type"] == "hello":
                    self.bot.setup({**data, "bot_seed": 1, "seed": 1})
                elif data["type"] == "event":
                    self.bot.on_event(data["event"])
                elif data["type"] == "request" and (self.answers is None or self.answers > 0):
                    if self.answers is not None:
                        self.answers -= 1
                    observation = data["observation"]
                    if self.illegal > 0:
                        self.illegal -= 1
                        decision = {"nonsense": True}
                    else:
                        choice = self.bot.decide(data["kind"], observation)
                        decision = self.forms.read(observation, self.forms.fill(observation, choice))
                    self.relay.publish(up, {"type": "answer", "id": data["id"], "decision": decision})


def _play(game: str, person: ScriptedPerson, seat: int, players: list[str], **seat_kw):
    relay = person.relay
    seats = make_bots(game, players)
    names = list(players)
    chair = PersonSeat(relay=relay, match_id=MATCH, seat=seat, game=game, name="alice (in person)", **seat_kw)
    seats.insert(seat, chair)
    names.insert(seat, "alice (in person)")

    def route(entry: dict) -> None:  # as the runner does: a refused answer is the seat's strike
        if "fault" in entry and entry["seat"] == seat:
            chair.refused(entry)

    person.start()
    try:
        played = play_game(game, seats, seed=3, names=names, on_entry=route)
        chair.send_end([{"seat": r.seat, "score": r.score, "rank": r.rank} for r in played.results], 0)
        deadline = time.monotonic() + 10
        while not any(m["type"] == "end" for m in person.seen) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        person.stop.set()
        person.join(5)
    return played, chair


@pytest.mark.parametrize(("game", "bot", "others"), [
    ("treasure", "careful", ["random", "careful", "memory"]),
    ("drachengold", "greedy", ["random", "bargainer", "trader"]),
    ("dragonflame", "looter", ["random", "heuristic"]),
])
def test_a_person_plays_a_whole_game_through_the_forms(game, bot, others) -> None:
    relay = MemoryRelay()
    person = ScriptedPerson(relay, game, 1, bot)
    played, chair = _play(game, person, 1, others, clock_s=30, absent_s=30)
    assert played.faults == [] and chair.takeover is None and chair.status == "ok"
    kinds = {m["kind"] for m in person.seen if m["type"] == "request"}
    assert kinds, "the person was asked"
    assert len(chair.timings) == sum(1 for m in person.seen if m["type"] == "request")
    # what the seat saw is only what the rules let it see: events addressed to it or to everyone
    events = [m["event"] for m in person.seen if m["type"] == "event"]
    assert events and all(e["to"] is None or 1 in e["to"] for e in events)
    assert person.seen[0]["type"] == "hello" and person.seen[-1]["type"] == "end"


def test_no_answer_within_the_clock_hands_the_seat_to_the_fallback() -> None:
    relay = MemoryRelay()
    person = ScriptedPerson(relay, "treasure", 0, "careful", answers=1)
    played, chair = _play("treasure", person, 0, ["random", "careful"], clock_s=0.5, absent_s=30)
    assert chair.takeover is not None and chair.takeover.code == "timeout"
    assert "within the person's clock" in chair.takeover.reason
    assert played.seats[0].forfeit and played.seats[0].status == "timeout"
    assert any(m["type"] == "takeover" for m in person.seen)
    assert played.results[0].rank == 3  # a forfeit ranks last; the others' results stand


def test_a_page_no_longer_seen_is_a_seat_left() -> None:
    relay = MemoryRelay()
    person = ScriptedPerson(relay, "treasure", 0, "careful", answers=0, here=False)
    played, chair = _play("treasure", person, 0, ["random", "careful"], clock_s=60, absent_s=0.5)
    assert chair.takeover is not None and chair.takeover.code == "exited"
    assert "left the table" in chair.takeover.reason
    assert played.seats[0].forfeit


def test_a_refused_answer_is_a_strike_told_to_the_page() -> None:
    relay = MemoryRelay()
    person = ScriptedPerson(relay, "treasure", 0, "careful", illegal=1)
    played, chair = _play("treasure", person, 0, ["random", "careful"], clock_s=30, absent_s=30)
    refused = [m for m in person.seen if m["type"] == "refused"]
    assert len(refused) == 1 and refused[0]["id"] == 1 and refused[0]["reason"]
    assert chair.takeover is None and len(chair.strikes) == 1
    assert played.seats[0].faults == 1 and not played.seats[0].forfeit


def test_answers_left_from_an_earlier_attempt_are_not_read() -> None:
    relay = MemoryRelay()
    relay.publish(topics.seat_up(MATCH, 0), {"type": "answer", "id": 1, "decision": {"stop": True}})
    chair = PersonSeat(relay=relay, match_id=MATCH, seat=0, game="treasure", name="p", clock_s=0.3, absent_s=30)
    chair.setup({"game": "treasure", "seat": 0, "players": 2, "options": {}, "bot_seed": 1, "seed": 1})
    state = get_game("treasure").new_state({}, 1, 2)
    with pytest.raises(Exception, match="within the person's clock"):
        chair.decide("flip", state.observation(0))


def test_the_runner_seats_a_person_without_starting_a_process() -> None:
    relay = MemoryRelay()
    person = ScriptedPerson(relay, "treasure", 2, "careful")
    person.start()
    try:
        result = run_specs(["builtin:random", "builtin:careful", Person("me", clock_s=30)], game="treasure", seed=4,
                           sandbox="none", require_strict=False, names=["a", "b", "me"], match_id=MATCH, relay=relay,
                           person_absent_s=30)
    finally:
        person.stop.set()
        person.join(5)
    seat = result.replay.seats[2]
    assert seat.status == "ok" and seat.run.sandbox == "person" and seat.run.timings
    assert result.results[2]["status"] == "ok"
    assert any(m["type"] == "end" for m in person.seen)


def test_a_voided_attempt_restarts_the_table_instead_of_a_second_hello(monkeypatch) -> None:
    """The ladder fails mid-game: the person is asked nothing more in that attempt, the page hears
    `restart` right before the replay's `hello`, and then plays the replayed game to its end."""
    from workers.match import blame, runner

    voids, voided = [], []

    class Recorded(runner.MatchVoid):
        def __init__(self):
            super().__init__()
            voids.append(self)

    class Failing(PersonSeat):
        def __init__(self, **kw):
            if len(voids) == 1:  # the first attempt: the ladder fails once the person has been asked
                voids[0].fault = blame.LadderFault("a test's ladder failure")
            super().__init__(**kw)

    monkeypatch.setattr(runner, "MatchVoid", Recorded)
    monkeypatch.setitem(seats.KINDS, Person, replace(seats.KINDS[Person], cls=Failing))
    relay = MemoryRelay()
    person = ScriptedPerson(relay, "treasure", 1, "careful")
    person.start()

    try:
        result = blame.retrying(
            lambda final: run_specs(["builtin:careful", Person("me", clock_s=30)], game="treasure", seed=4,
                                    sandbox="none", require_strict=False, names=["a", "me"], match_id=MATCH,
                                    relay=relay, person_absent_s=30, final_attempt=final),
            on_void=lambda number, fault: voided.append(number))
        deadline = time.monotonic() + 10
        while not any(m["type"] == "end" for m in person.seen) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        person.stop.set()
        person.join(5)
    assert voided == [1]
    kinds = [m["type"] for m in person.seen]
    restart = kinds.index("restart")
    assert kinds.count("restart") == 1 and kinds[:restart] == ["hello"]  # asked nothing in the void attempt
    assert kinds[restart + 1] == "hello" and kinds[-1] == "end" and "request" in kinds[restart:]
    assert result.replay.seats[1].status == "ok" and result.results[1]["status"] == "ok"
