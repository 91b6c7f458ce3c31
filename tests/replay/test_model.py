"""The typed replay (ladder/replay/model.py): exactly the stored JSON, and a value nobody changes."""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path

import pytest

from ladder.play import BotFault, make_bots, play_builtin, play_game
from ladder.replay import (
    ABSENT,
    Decision,
    Fault,
    LoggedEvent,
    Replay,
    ReplayError,
    SandboxRun,
    SeatRecord,
    dumps_replay,
    load_replay,
    verify_replay,
)

GOLDEN = Path(__file__).parents[1] / "golden"


@pytest.fixture
def toy(monkeypatch):
    import toygame  # tests/ is on the path (pyproject: pythonpath)

    toygame.register(monkeypatch)
    return toygame


def golden_files():
    return sorted(p for p in GOLDEN.iterdir() if p.name.endswith((".json", ".json.gz")))


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.name)
def test_every_golden_goes_through_the_types_byte_for_byte(toy, path):
    data = load_replay(path)
    replay = Replay.from_json(data)
    assert replay.to_json() == data
    assert dumps_replay(replay) == dumps_replay(data)
    if not path.name.endswith(".gz"):
        assert dumps_replay(replay) == path.read_bytes()
    assert verify_replay(replay).ok
    assert [type(e) for e in replay.log] == [Decision if "decision" in e else LoggedEvent for e in data["log"]]


def _faulty_game():
    """A toy game with a bot that answers illegally and a proxy that forfeits (a seat proxy's
    BotFault, as the sandboxed runner raises it)."""

    class Forfeits:
        def __init__(self):
            self.calls = 0

        def setup(self, hello):
            pass

        def on_event(self, event):
            pass

        def decide(self, kind, observation):
            self.calls += 1
            if self.calls >= 2:
                raise BotFault("timeout", "no answer in time", forfeit=True)
            return {"n": 1}

    bots = [*make_bots("toy", ["illegal"]), Forfeits(), *make_bots("toy", ["fixed"])]
    return play_game("toy", bots, seed=3, names=["illegal", "forfeits", "fixed"], options={"pile": 30},
                     seed_key=b"key")


def test_a_replay_with_faults_and_a_forfeit_keeps_them_in_both_forms(toy):
    played = _faulty_game()
    replay = played.replay
    illegal, forfeits, fixed = replay.seats
    assert (illegal.status, illegal.forfeit) == ("illegal", False) and illegal.faults > 0
    assert (forfeits.status, forfeits.forfeit, forfeits.reason) == ("timeout", True, "no answer in time")
    assert fixed.status == "ok" and replay.results[1].rank == 3
    faults = [e.fault for e in replay.log if isinstance(e, Decision) and e.fault is not None]
    assert {f.status for f in faults} == {"illegal", "timeout"}
    assert any(f.attempted == {"n": 99} for f in faults) and any(f.attempted is ABSENT for f in faults)
    data = json.loads(dumps_replay(replay))
    assert Replay.from_json(data) == replay and Replay.from_json(data).to_json() == data
    assert [s["bot_seed"] for s in data["seats"]] == [s.bot_seed for s in replay.seats] and data["seed_key"] == "6b6579"
    assert verify_replay(data).ok


def test_a_refused_null_is_kept_apart_from_no_attempt():
    sent_null = Decision(0, "take", {"n": 1}, Fault("illegal", "not an object", attempted=None))
    assert sent_null.to_json()["fault"] == {"status": "illegal", "reason": "not an object", "attempted": None}
    assert "attempted" not in Fault("crash", "boom").to_json()
    assert "attempted" not in pickle.loads(pickle.dumps(Fault("crash", "boom"))).to_json()  # another process


def test_a_replay_is_never_changed_only_replaced(toy):
    replay = play_builtin("toy", ["random", "fixed"], seed=2).replay
    before = dumps_replay(replay)
    with pytest.raises(dataclasses.FrozenInstanceError):
        replay.header.seed = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        replay.seats[0].status = "crash"
    with pytest.raises(TypeError):
        replay.header.options["pile"] = 1
    with pytest.raises(AttributeError):
        replay.log.append(replay.log[0])
    done = replay.completed(results=replay.results, seats=[dataclasses.replace(replay.seats[0], forfeit=True),
                                                           replay.seats[1]], cgroup="v2")
    assert done.header.cgroup == "v2" and done.seats[0].forfeit and done.to_json()["cgroup"] == "v2"
    assert dumps_replay(replay) == before and "cgroup" not in replay.to_json()


def _sandboxed(replay: Replay) -> Replay:
    """The replay as workers/match/runner.py completes it: each seat with what the sandbox saw."""
    seats = [
        dataclasses.replace(seat, run=SandboxRun("strict", ready={"name": "B"}, strikes=({"request": 2},),
                                                 timings=([1.5, 0.5],), bank_left_ms=900.0, stderr_bytes=6,
                                                 exit={"code": 0, "signal": None}, clean=True),
                            stderr=["hello\n", ""][seat.seat % 2])
        for seat in replay.seats
    ]
    return replay.completed(results=replay.results, seats=seats, cgroup="v2")


def test_a_sandboxed_seat_has_the_runners_keys_and_its_log_splits_off(toy):
    replay = _sandboxed(play_builtin("toy", ["random", "fixed", "random"], seed=4).replay)
    data = replay.to_json()
    assert set(data["seats"][0]) == {"seat", "bot", "status", "reason", "faults", "forfeit", "sandbox", "ready",
                                     "strikes", "takeover", "timings", "bank_left_ms", "stderr", "stderr_bytes",
                                     "exit", "clean"}
    assert Replay.from_json(json.loads(dumps_replay(replay))) == replay
    public, logs = replay.split_logs()
    assert logs == ("hello\n", None, "hello\n")  # an empty log is no log
    assert all(seat.stderr is None for seat in public.seats) and replay.seats[0].stderr == "hello\n"
    assert all("stderr" not in seat for seat in public.to_json()["seats"])
    owner = replay.without_logs(except_seats={2})
    assert [seat.stderr for seat in owner.seats] == [None, None, "hello\n"]
    assert public.without_logs() is public  # nothing to take out: the same value


def test_keys_a_newer_writer_added_are_kept(toy):
    data = play_builtin("toy", ["random", "fixed"], seed=2).replay.to_json()
    data["note"] = {"by": "a later ladder"}
    data["seats"][1]["colour"] = "blue"
    assert Replay.from_json(data).to_json() == data


@pytest.mark.parametrize("breakage", [
    lambda d: d["log"].append({"seat": 0, "kind": "take", "decision": 1, "fault": "not an object"}),
    lambda d: d["results"].append({"seat": 9, "bot": "x", "score": 0, "rank": 1, "breakdown": {}}) or
    d["results"][0].pop("rank"),
    lambda d: d.pop("log"),
    lambda d: d["seats"][0].update(bot=None),
])
def test_a_malformed_replay_is_a_replay_error(toy, breakage):
    data = play_builtin("toy", ["random", "fixed"], seed=2).replay.to_json()
    breakage(data)
    with pytest.raises(ReplayError):
        Replay.from_json(data)


def test_seat_faults_keep_the_first_unless_one_forfeits():
    seat = SeatRecord(0, "b").with_fault("illegal", "first").with_fault("crash", "second")
    assert (seat.status, seat.reason, seat.faults, seat.forfeit) == ("illegal", "first", 2, False)
    seat = seat.with_fault("timeout", "gone", forfeit=True).with_fault("crash", "after")
    assert (seat.status, seat.reason, seat.faults, seat.forfeit) == ("timeout", "gone", 4, True)
