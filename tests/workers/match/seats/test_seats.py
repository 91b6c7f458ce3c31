"""workers/match/seats/: one Seat interface, and one class per kind of seat plan."""

from __future__ import annotations

import typing

from ladder.match import SeatPlan
from workers.match.seats import KINDS, Seat


def test_every_kind_of_seat_plan_is_played_by_one_seat_class():
    assert set(KINDS) == set(typing.get_args(SeatPlan))
    assert all(issubclass(kind.cls, Seat) for kind in KINDS.values())
