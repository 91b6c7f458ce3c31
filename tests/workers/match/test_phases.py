"""workers/match/phases.py: laps add up per phase, the bots' CPU is read while they run."""

from __future__ import annotations

import time

from workers.match.phases import NO_PHASES, Phases


class _Proc:
    def __init__(self):
        self.cpu = 0.0
        self.alive = True

    def cpu_seconds(self):
        if not self.alive:
            raise OSError("torn down")
        return self.cpu


class _Seat:
    def __init__(self):
        self.proc = _Proc()


def _spin(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_laps_split_wall_worker_cpu_and_bots_cpu_per_phase():
    phases = Phases()
    seats = [_Seat(), _Seat()]
    for _ in range(2):
        for seat in seats:
            seat.proc.alive, seat.proc.cpu = True, 0.0
        phases.begin()
        _spin(0.02)
        phases.lap("stage")
        seats[0].proc.cpu, seats[1].proc.cpu = 0.1, 0.2
        phases.lap("start", seats)
        seats[0].proc.cpu = 0.5
        time.sleep(0.02)
        phases.lap("play", seats)
        for seat in seats:
            seat.proc.alive = False
        phases.lap("teardown", seats)  # gone: keeps the last figure, adds nothing
    rows = dict(phases.per_match())
    assert list(rows) == ["stage", "start", "play", "teardown"]
    assert rows["stage"].cpu >= 0.015 and rows["stage"].bots == 0.0
    assert abs(rows["start"].bots - 0.3) < 1e-9 and abs(rows["play"].bots - 0.4) < 1e-9
    assert rows["teardown"].bots == 0.0
    assert rows["play"].wall >= 0.015 and rows["play"].cpu < rows["play"].wall  # sleeping is not CPU


def test_phases_measured_outside_the_runner_are_added_and_listed_last():
    phases = Phases()
    phases.begin()
    phases.lap("play")
    phases.add("claim and record", wall=0.2, cpu=0.1)
    assert [name for name, _ in phases.per_match()] == ["play", "claim and record"]
    assert phases.per_match()[1][1].wall == 0.2


def test_no_phases_records_nothing():
    NO_PHASES.begin()
    NO_PHASES.lap("play", [_Seat()])
    assert NO_PHASES.totals == {} and NO_PHASES.matches == 0
