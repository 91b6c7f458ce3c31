"""Remote seats' live connections in the database: the limits and the one-per-seat rule hold for
every web process at once (two SeatSlots over one engine stand for two processes), and a place
whose lease ran out (a crashed process, a client that stopped polling) is free again."""

from __future__ import annotations

import pytest

from ladder.services import outside
from ladder.services.bots import seed_house_bots
from ladder.services.seat_slots import SeatSlots, Taken
from ladder.services.users import sign_up


@pytest.fixture
def seats(session):
    """Three of homer's remote seats: (match, 0) keys."""
    seed_house_bots(session=session, username="house")
    homer = sign_up(session=session, data={"username": "homer", "password": "correct horse battery"})
    keys = [(outside.remote_challenge(session=session, user_id=homer.id, game="treasure", bot_name="far",
                                      against=["house/careful"])[0].id, 0) for _ in range(3)]
    return homer.id, keys


def test_two_processes_share_the_limits_and_a_replacement_keeps_its_place(session, seats):
    user, (a, b, c) = seats
    one, two = (SeatSlots(session.get_bind(), per_user=2, per_address=8) for _ in range(2))
    take = lambda slots, key, conn, address="x": slots.take(  # noqa: E731
        key, conn=conn, user_id=user, address=address, transport="ws", lease_s=60)
    assert take(one, a, "c1") == Taken(None, None)
    assert take(two, b, "c2") == Taken(None, None)  # the other process counts the first's connection
    assert "2 programs connected" in take(two, c, "c3").refusal
    assert take(one, c, "c3").refusal is not None  # and the first the second's
    assert take(two, a, "c4") == Taken(None, "c1")  # a's connection, held by process one, is replaced
    assert two.holder(a) == "c4" and not one.renew(a, "c1", 60)  # c1's holder finds out on renewal
    assert not one.give_back(a, "c1") and two.give_back(a, "c4")
    assert take(one, c, "c5").refusal is None  # a's place is free again


def test_the_address_limit_counts_every_user_and_a_lease_run_out_frees_its_place(session, seats):
    user, (a, b, c) = seats
    slots = SeatSlots(session.get_bind(), per_user=8, per_address=1)
    assert slots.take(a, conn="c1", user_id=user, address="10.0.0.1", transport="http", lease_s=60).refusal is None
    assert "from your address" in slots.take(b, conn="c2", user_id=user, address="10.0.0.1", transport="ws",
                                              lease_s=60).refusal
    assert slots.take(b, conn="c2", user_id=user, address="10.0.0.2", transport="ws", lease_s=60).refusal is None
    assert slots.renew(a, "c1", -1)  # its last poll's lease has run out: no process gives the place back
    assert slots.holder(a) is None
    assert slots.take(c, conn="c3", user_id=user, address="10.0.0.1", transport="ws", lease_s=60).refusal is None
    assert not slots.renew(a, "c1", 60)  # deleted by that take: the stale client must connect anew
