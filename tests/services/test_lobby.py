"""The open ladder's lobby: who waits, who is paired with whom, and what a no-show costs."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlmodel import select

from ladder.models import Bot, LobbyEntry, Match, MatchKind, Seat, utcnow
from ladder.services import lobby, outside
from ladder.services.bots import seed_house_bots
from ladder.services.errors import Conflict, Invalid, NotFound
from ladder.services.limits import LimitExceeded
from ladder.services.users import sign_up

LIMITS = {"per_user": 2, "per_address": 3}


@pytest.fixture
def people(session):
    seed_house_bots(session=session, username="house")
    users = [sign_up(session=session, data={"username": name, "password": "correct horse battery"})
             for name in ("ann", "bob", "cyd", "dee")]
    return users


def opted(session, user, name="home", game="treasure"):
    bot = outside.remote_bot(session=session, user_id=user.id, game=game, name=name).bot
    return lobby.set_open(session=session, user_id=user.id, bot_id=bot.id, open_ladder=True)


def waits(session, user, bot, address="10.0.0.1", now=None):
    return lobby.wait(session=session, user_id=user.id, bot_id=bot.id, address=address, now=now, **LIMITS)


def never(match_id, seat):
    return False


def always(match_id, seat):
    return True


def test_only_its_owner_opts_a_remote_bot_in_and_a_sandboxed_bot_never(session, people):
    ann, bob = people[:2]
    bot = outside.remote_bot(session=session, user_id=ann.id, game="treasure", name="home").bot
    with pytest.raises(NotFound):
        lobby.set_open(session=session, user_id=bob.id, bot_id=bot.id, open_ladder=True)
    with pytest.raises(Invalid):
        lobby.set_open(session=session, user_id=ann.id, bot_id=bot.id, open_ladder="yes")
    session.refresh(bot)
    assert not bot.open_ladder  # nothing was written
    house = session.exec(select(Bot).where(Bot.remote == False)).first()  # noqa: E712
    with pytest.raises(NotFound):  # a house bot is not ann's either
        lobby.set_open(session=session, user_id=ann.id, bot_id=house.id, open_ladder=True)
    with pytest.raises(Invalid, match="sandboxed"):
        lobby.set_open(session=session, user_id=house.owner_id, bot_id=house.id, open_ladder=True)
    with pytest.raises(Conflict, match="opt it in"):
        waits(session, ann, bot)
    assert lobby.set_open(session=session, user_id=ann.id, bot_id=bot.id, open_ladder=True).open_ladder


def test_waiting_bots_are_paired_into_one_rated_open_match_with_their_seats(session, people):
    bots = [opted(session, user) for user in people[:3]]
    for user, bot in zip(people, bots, strict=False):
        assert waits(session, user, bot).status == "waiting"
    made = lobby.pair(session=session, game="treasure", rng=random.Random(1), sandbox="none", showed=always)
    assert len(made) == 1
    match = session.get(Match, made[0])
    assert match.kind == MatchKind.LADDER and match.ranked
    seats = {s.bot_id: s.seat for s in session.exec(select(Seat).where(Seat.match_id == match.id))}
    assert set(seats) == {b.id for b in bots}  # three waiting: one table of three, nobody else
    for user, bot in zip(people, bots, strict=False):
        state = waits(session, user, bot)
        assert (state.status, state.match_id, state.seat) == ("matched", match.id, seats[bot.id])
    # paired bots are not paired again while their match is open
    assert lobby.pair(session=session, game="treasure", rng=random.Random(2), sandbox="none", showed=always) == []


def test_a_client_not_heard_from_and_one_that_left_are_not_paired(session, people):
    ann, bob, cy = people[:3]
    a, b, c = (opted(session, u) for u in (ann, bob, cy))
    waits(session, ann, a, now=utcnow() - timedelta(seconds=lobby.EXPIRY_S + 5))  # gone since
    waits(session, bob, b)
    waits(session, cy, c)
    lobby.leave(session=session, user_id=cy.id, bot_id=c.id)
    assert lobby.waiting_bots(session=session, game="treasure") == {b.id}
    assert lobby.pair(session=session, game="treasure", rng=random.Random(1), sandbox="none", showed=always) == []


def test_two_bots_of_one_owner_never_share_a_table(session, people):
    ann = people[0]
    one, two = opted(session, ann, "one"), opted(session, ann, "two")
    waits(session, ann, one)
    waits(session, ann, two)
    assert lobby.pair(session=session, game="treasure", rng=random.Random(1), sandbox="none", showed=always) == []


def test_limits_per_user_and_per_address(session, people):
    ann = people[0]
    bots = [opted(session, ann, f"b{i}") for i in range(3)]
    waits(session, ann, bots[0])
    waits(session, ann, bots[1])
    waits(session, ann, bots[1])  # a heartbeat of one already waiting is no new place
    with pytest.raises(LimitExceeded, match="lobby"):
        waits(session, ann, bots[2])
    others = [opted(session, u, "x") for u in people[1:]]
    waits(session, people[1], others[0], address="10.0.0.1")
    with pytest.raises(LimitExceeded, match="address"):
        waits(session, people[2], others[1], address="10.0.0.1")
    assert waits(session, people[2], others[1], address="10.0.0.2").status == "waiting"
    assert session.get(LobbyEntry, bots[2].id) is None  # a refused wait wrote nothing


def test_no_shows_are_counted_and_a_bot_that_keeps_missing_leaves_the_lobby(session, people):
    ann, bob = people[:2]
    a, b = opted(session, ann), opted(session, bob)
    for round_ in range(lobby.MAX_NO_SHOWS):
        waits(session, ann, a)
        waits(session, bob, b)
        made = lobby.pair(session=session, game="treasure", rng=random.Random(round_), sandbox="none",
                          showed=always)
        assert len(made) == 1
        match = session.get(Match, made[0])
        match.status = "finished"  # the worker played it; the fallback took ann's seat
        session.add(match)
        session.commit()
        seat_a = session.get(LobbyEntry, a.id).seat
        assert lobby.settle(session=session, game="treasure", showed=lambda m, s, seat_a=seat_a: s != seat_a) == [a.id]
        session.expire_all()
        assert session.get(LobbyEntry, a.id).no_shows == round_ + 1
        assert session.get(LobbyEntry, b.id).no_shows == 0
    entry = session.get(LobbyEntry, a.id)
    assert not entry.waiting and entry.benched_until > utcnow()
    with pytest.raises(LimitExceeded, match="missed its last 3"):
        waits(session, ann, a)
    assert lobby.waiting_bots(session=session, game="treasure") == {b.id}


def test_a_finished_match_is_not_told_again_before_the_tick_settles_it(session, people):
    # `ladder connect --open --matches 3` played one match and reported it three times: the lobby
    # kept answering "matched" with the finished match until the scheduler's next tick
    ann, bob = people[:2]
    a, b = opted(session, ann), opted(session, bob)
    waits(session, ann, a)
    waits(session, bob, b)
    made = lobby.pair(session=session, game="treasure", rng=random.Random(3), sandbox="none", showed=always)
    assert waits(session, ann, a).status == "matched"
    for status in ("finished", "failed"):
        match = session.get(Match, made[0])
        match.status = status
        session.add(match)
        session.commit()
        state = waits(session, ann, a)
        assert (state.status, state.match_id) == ("waiting", None)
    assert lobby.settle(session=session, game="treasure", showed=always) == []
    assert waits(session, bob, b).status == "waiting"
