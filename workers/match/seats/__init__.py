"""The seats of a match: one `Seat` interface (base.py) and one class per kind of seat, chosen by
the kind of its `ladder.match.SeatPlan` in one place (`KINDS`).

  base.py      Seat: the strikes, the takeover and the void, written once; MatchVoid
  process.py   SandboxedSeat: a bot process in the sandbox (uploaded code, a bot on disk, a house bot)
  outside.py   OutsideSeat: a program on its owner's machine, over the relay (a SandboxedSeat whose
               process is a RelayLink)
  person.py    PersonSeat: a person in the browser, over the relay

A new kind of seat is one SeatPlan variant (ladder/match/plan.py), one class here with its
`seated` constructor, and one line in KINDS.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ladder.match import HouseBot, LocalCode, MatchPlan, Person, RemoteProgram, UploadedCode
from workers.match.protocol import EventLines, TimeControl
from workers.match.seats.base import MatchVoid, Seat
from workers.match.seats.outside import OutsideSeat
from workers.match.seats.person import PersonSeat
from workers.match.seats.process import SandboxedSeat


@dataclass(frozen=True)
class Table:
    """What every seat of one match is made with: the plan, the runner's Env, the sandbox mode,
    the match's shared event lines and void, and per sandboxed seat its process factory and its
    clock (the match's, raised to its runtime's floors)."""

    plan: MatchPlan
    env: Any  # workers.match.runner.Env
    mode: str
    lines: EventLines
    void: MatchVoid
    processes: Mapping[int, tuple[Callable[[], Any], TimeControl]]


def _sandboxed(cls: type, index: int, table: Table) -> Seat:
    start, clock = table.processes[index]
    return cls(table.plan.seats[index].name, table.plan.game, table.mode, clock, table.plan.strikes,
                         table.lines, void=table.void, final_attempt=table.env.final_attempt, process=start)


def _outside(cls: type, index: int, table: Table) -> Seat:
    plan = table.plan
    return cls(plan.seats[index].name, plan.game, relay=table.env.relay, match_id=plan.match_id, seat=index,
               clock=plan.clock, strikes=plan.strikes, lines=table.lines, void=table.void,
               final_attempt=table.env.final_attempt)


def _person(cls: type, index: int, table: Table) -> Seat:
    plan, env = table.plan, table.env
    return cls(relay=env.relay, match_id=plan.match_id, seat=index, game=plan.game, name=plan.seats[index].name,
               clock_s=plan.seats[index].clock_s, absent_s=env.person_absent_s, budget_s=env.person_budget_s,
               strikes=plan.strikes, void=table.void)


@dataclass(frozen=True)
class Kind:
    cls: type[Seat]
    seated: Callable[[type, int, Table], Seat]  # seated(cls, index, table): the seat, made of its plan


# the one dispatch from a seat's plan to its class
KINDS: dict[type, Kind] = {
    UploadedCode: Kind(SandboxedSeat, _sandboxed),
    LocalCode: Kind(SandboxedSeat, _sandboxed),
    HouseBot: Kind(SandboxedSeat, _sandboxed),
    RemoteProgram: Kind(OutsideSeat, _outside),
    Person: Kind(PersonSeat, _person),
}


def seat_for(index: int, table: Table) -> Seat:
    """Seat `index` of the table, of the class its plan's kind names."""
    kind = KINDS[type(table.plan.seats[index])]
    return kind.seated(kind.cls, index, table)


__all__ = ["KINDS", "Kind", "MatchVoid", "OutsideSeat", "PersonSeat", "SandboxedSeat", "Seat", "Table", "seat_for"]
