"""Events on the site: organizer rights, entries, frozen field, exactly-once feeding, no ratings."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

from ladder.models import (
    Bot,
    BotVersion,
    EventEntrant,
    EventMatch,
    EventStatus,
    Match,
    MatchKind,
    MatchStatus,
    Rating,
    RatingChange,
    Seat,
)
from ladder.services import bots, matches, results
from ladder.services.errors import Conflict, Forbidden, Invalid, NotFound
from ladder.services.results import MatchOutcome, SeatOutcome
from ladder.services.tournament_views import event_view, invitations_for
from ladder.services.tournaments import (
    add_entrant,
    answer_invitation,
    cancel_event,
    create_event,
    event_matches_in_flight,
    feed_events,
    start_due_events,
    start_event,
    withdraw_entrant,
)
from ladder.services.users import set_admin
from ladder.tournaments.model import schedule_size
from ladder.tournaments.standings import standing_order

NOW = datetime(2026, 11, 23, 12, tzinfo=UTC)


def event(world, organizer, **kw):
    args = dict(name="Autumn cup", game="treasure", table_size=2, deals=2)
    return create_event(session=world.session, organizer_id=organizer.id, **{**args, **kw})


def invite(world, ev, bot, organizer):
    """The organizer invites; the bot's owner accepts: an entrant."""
    add_entrant(session=world.session, event_id=ev.id, bot_id=bot.id, acting_user_id=organizer.id)
    answer_invitation(session=world.session, event_id=ev.id, bot_id=bot.id, acting_user_id=bot.owner_id, accept=True)


def play_all(session, match_ids, *, fail=()):
    """Claim and record each match: the lower bot id ranks first (a fixed strength order)."""
    for match_id in match_ids:
        assert matches.claim_match(session=session, match_id=match_id, worker_id="w") is not None
        if match_id in fail:
            matches.mark_failed(session=session, match_id=match_id, reason="sandbox", worker_id="w")
            continue
        seats = session.exec(select(Seat).where(Seat.match_id == match_id).order_by(Seat.seat)).all()
        order = sorted(s.bot_id for s in seats)
        outcome = MatchOutcome([SeatOutcome(rank=1 + order.index(s.bot_id), score=10 - order.index(s.bot_id))
                                for s in seats])
        results.record_result(session=session, match_id=match_id, outcome=outcome, worker_id="w")


def test_only_an_admin_organizes_and_bad_settings_are_refused(world):
    user = world.user()
    with pytest.raises(Forbidden):
        event(world, user)
    set_admin(session=world.session, username=user.username)
    assert event(world, user).status == EventStatus.REGISTRATION
    for bad, message in [(dict(game="chess"), "unknown game"), (dict(table_size=9), "players"),
                         (dict(deals=0), "deals"), (dict(format="knockout"), "format"), (dict(name=" "), "name"),
                         (dict(open_registration=True), "deadline"), (dict(rounds=2), "round robin")]:
        with pytest.raises(Invalid, match=message):
            event(world, user, **bad)


def test_entries_by_invitation_or_open_until_the_deadline(world):
    organizer, owner = world.user(admin=True), world.user()
    (mine, _), (theirs, _) = world.bot(owner), world.bot()
    invite = event(world, organizer)
    with pytest.raises(Forbidden, match="invitation"):
        add_entrant(session=world.session, event_id=invite.id, bot_id=mine.id, acting_user_id=owner.id)
    entry = add_entrant(session=world.session, event_id=invite.id, bot_id=mine.id, acting_user_id=organizer.id)
    assert entry.invited and not entry.accepted
    with pytest.raises(Conflict, match="already"):
        add_entrant(session=world.session, event_id=invite.id, bot_id=mine.id, acting_user_id=organizer.id)
    open_ = event(world, organizer, open_registration=True, deadline=NOW)
    with pytest.raises(Forbidden, match="own"):
        add_entrant(session=world.session, event_id=open_.id, bot_id=theirs.id, acting_user_id=owner.id, now=NOW)
    add_entrant(session=world.session, event_id=open_.id, bot_id=mine.id, acting_user_id=owner.id, now=NOW)
    withdraw_entrant(session=world.session, event_id=open_.id, bot_id=mine.id, acting_user_id=owner.id)
    with pytest.raises(Conflict, match="deadline"):
        add_entrant(session=world.session, event_id=open_.id, bot_id=mine.id, acting_user_id=owner.id,
                    now=NOW + timedelta(seconds=1))
    other_game, _ = world.bot(owner, game="drachengold")
    with pytest.raises(Invalid, match="plays drachengold"):
        add_entrant(session=world.session, event_id=invite.id, bot_id=other_game.id, acting_user_id=organizer.id)


def test_a_round_robin_event_runs_to_the_end_without_touching_ratings(world):
    organizer = world.user(admin=True)
    entered = [world.bot() for _ in range(3)]
    no_version = bots.create_bot(session=world.session, owner_id=organizer.id,
                                 data={"name": "empty", "game": "treasure"})
    ev = event(world, organizer)
    for bot, _ in entered:
        invite(world, ev, bot, organizer)
    add_entrant(session=world.session, event_id=ev.id, bot_id=no_version.id, acting_user_id=organizer.id)
    with pytest.raises(Forbidden):
        start_event(session=world.session, event_id=ev.id, acting_user_id=world.user(admin=True).id)
    assert start_event(session=world.session, event_id=ev.id, acting_user_id=organizer.id) == ["empty"]
    with pytest.raises(Conflict):
        start_event(session=world.session, event_id=ev.id, acting_user_id=organizer.id)
    view = event_view(session=world.session, event_id=ev.id)
    assert [v for _, _, v in view.entrants] == [v.id for _, v in entered]  # frozen at the start
    total = schedule_size(view.spec)
    assert total == 3 * 2 * 2 and view.progress == (0, total)
    # a new version uploaded now does not enter the event
    bots.add_version(session=world.session, bot_id=entered[0][0].id, code=b"x=1\n", filename="bot.py")
    sent = []
    while True:
        batch = feed_events(session=world.session, slots=5, now=NOW)
        assert len(batch) <= 5 and event_matches_in_flight(world.session) <= 5
        assert feed_events(session=world.session, slots=5) == []  # full: nothing more, nothing twice
        if not batch:
            break
        sent += batch
        play_all(world.session, batch, fail={sent[0]})
    assert len(sent) == len(set(sent)) == total
    rows = world.session.exec(select(EventMatch).where(EventMatch.event_id == ev.id)).all()
    assert sorted(r.match_id for r in rows) == sorted(sent)
    kinds = world.session.exec(select(Match.kind, Match.ranked).where(Match.id.in_(sent))).all()
    assert set(kinds) == {(MatchKind.EVENT, False)}
    assert world.session.exec(select(RatingChange)).all() == []
    assert all(r.games == 0 for r in world.session.exec(select(Rating)).all())
    view = event_view(session=world.session, event_id=ev.id)
    assert view.event.status == EventStatus.FINISHED and view.progress == (total, total)
    assert [r.entrant.key for r in view.standings.rows] == [str(b.id) for b, _ in entered]  # lower id stronger
    assert view.standings.excluded == [(0, "failed: the match failed on the workers")]
    assert view.standings.rows[0].rank.mean == 1 and view.standings.rows[-1].rank.mean == 2


def test_a_swiss_event_schedules_its_next_round_when_one_ends(world):
    organizer = world.user(admin=True)
    entered = [world.bot() for _ in range(4)]
    ev = event(world, organizer, format="swiss", rounds=2, deals=1)
    for bot, _ in entered:
        invite(world, ev, bot, organizer)
    start_event(session=world.session, event_id=ev.id, acting_user_id=organizer.id)
    first = feed_events(session=world.session, slots=100)
    assert len(first) == 2 * 2
    play_all(world.session, first)
    assert feed_events(session=world.session, slots=100) == []  # this tick writes round 2's schedule
    second = feed_events(session=world.session, slots=100)
    assert len(second) == 4
    after_first = event_view(session=world.session, event_id=ev.id)
    top = {int(k) for k in standing_order(after_first.standings)[:2]}  # the first round's two winners
    assert all(r.wins == 2 for r in after_first.standings.rows if r.entrant.key in {str(t) for t in top})
    seated = {frozenset(s.bot_id for s in world.session.exec(select(Seat).where(Seat.match_id == m))) for m in second}
    assert frozenset(top) in seated
    play_all(world.session, second)
    feed_events(session=world.session, slots=100)
    assert event_view(session=world.session, event_id=ev.id).event.status == EventStatus.FINISHED


def test_too_few_entrants_cannot_start(world):
    organizer = world.user(admin=True)
    ev = event(world, organizer)
    bot, _ = world.bot()
    invite(world, ev, bot, organizer)
    with pytest.raises(Invalid, match="cannot fill"):
        start_event(session=world.session, event_id=ev.id, acting_user_id=organizer.id)
    assert event_view(session=world.session, event_id=ev.id).event.status == EventStatus.REGISTRATION
    assert world.session.exec(select(BotVersion)).all()


def test_a_swiss_field_the_game_cannot_seat_does_not_start(world):
    organizer = world.user(admin=True)
    ev = event(world, organizer, game="drachengold", table_size=3, format="swiss", rounds=2)
    for _ in range(4):
        bot, _ = world.bot(game="drachengold")
        invite(world, ev, bot, organizer)
    with pytest.raises(Invalid, match="3-6 players, not 2"):
        start_event(session=world.session, event_id=ev.id, acting_user_id=organizer.id)
    assert world.session.exec(select(EventMatch)).all() == []


def test_only_accepted_invitations_become_entrants(world):
    organizer, alice, bob = world.user(admin=True), world.user(), world.user()
    (a, _), (b, _), (c, _) = world.bot(alice), world.bot(bob), world.bot(bob)
    own, _ = world.bot(organizer)
    ev = event(world, organizer)
    for bot in (a, b, c, own):
        add_entrant(session=world.session, event_id=ev.id, bot_id=bot.id, acting_user_id=organizer.id)
    assert {(e.id, bot.id) for e, bot in invitations_for(session=world.session, user_id=bob.id)} == \
        {(ev.id, b.id), (ev.id, c.id)}
    with pytest.raises(Forbidden, match="owner"):
        answer_invitation(session=world.session, event_id=ev.id, bot_id=b.id, acting_user_id=alice.id, accept=True)
    answer_invitation(session=world.session, event_id=ev.id, bot_id=a.id, acting_user_id=alice.id, accept=True)
    answer_invitation(session=world.session, event_id=ev.id, bot_id=b.id, acting_user_id=bob.id, accept=False)
    with pytest.raises(NotFound, match="no pending invitation"):  # declined: gone; accepted: not pending
        answer_invitation(session=world.session, event_id=ev.id, bot_id=b.id, acting_user_id=bob.id, accept=True)
    with pytest.raises(NotFound):
        answer_invitation(session=world.session, event_id=ev.id, bot_id=a.id, acting_user_id=alice.id, accept=False)
    view = event_view(session=world.session, event_id=ev.id)
    assert [b_id for b_id, *_ in view.entrants] == [a.id, own.id]  # the organizer's own bot needs no answer
    assert [b_id for b_id, _ in view.invitations] == [c.id]
    assert sorted(start_event(session=world.session, event_id=ev.id, acting_user_id=organizer.id)) == [c.name]
    with pytest.raises(Conflict, match="running"):  # too late to accept now
        answer_invitation(session=world.session, event_id=ev.id, bot_id=c.id, acting_user_id=bob.id, accept=True)
    seated = {bot_id for row in world.session.exec(select(EventMatch)) for bot_id in row.seats}
    assert seated == {a.id, own.id}


def test_an_open_event_starts_at_its_deadline_once(world):
    organizer = world.user(admin=True)
    ev = event(world, organizer, open_registration=True, deadline=NOW)
    small = event(world, organizer, open_registration=True, deadline=NOW)  # one entrant: cannot play
    later = event(world, organizer, open_registration=True, deadline=NOW + timedelta(hours=1))
    for _ in range(2):
        bot, _ = world.bot()
        add_entrant(session=world.session, event_id=ev.id, bot_id=bot.id, acting_user_id=bot.owner_id, now=NOW)
        add_entrant(session=world.session, event_id=later.id, bot_id=bot.id, acting_user_id=bot.owner_id, now=NOW)
    add_entrant(session=world.session, event_id=small.id, bot_id=bot.id, acting_user_id=bot.owner_id, now=NOW)
    assert start_due_events(session=world.session, now=NOW - timedelta(seconds=1)) == {}
    done = start_due_events(session=world.session, now=NOW)
    assert done[ev.id] == "started" and done[small.id].startswith("cancelled") and later.id not in done
    assert start_due_events(session=world.session, now=NOW) == {}  # a second tick starts nothing again
    rows = world.session.exec(select(EventMatch).where(EventMatch.event_id == ev.id)).all()
    assert len(rows) == 2 * 2  # written once
    assert event_view(session=world.session, event_id=small.id).event.status == EventStatus.CANCELLED
    # the organizer may start early, before the deadline
    start_event(session=world.session, event_id=later.id, acting_user_id=organizer.id, now=NOW)
    assert event_view(session=world.session, event_id=later.id).event.status == EventStatus.RUNNING


def test_cancel_stops_the_queued_matches_and_rates_nothing(world):
    organizer = world.user(admin=True)
    entered = [world.bot() for _ in range(3)]
    ev = event(world, organizer)
    for bot, _ in entered:
        invite(world, ev, bot, organizer)
    start_event(session=world.session, event_id=ev.id, acting_user_id=organizer.id)
    first = feed_events(session=world.session, slots=3)
    play_all(world.session, first[:1])
    assert matches.claim_match(session=world.session, match_id=first[1], worker_id="w") is not None  # running
    with pytest.raises(Forbidden):
        cancel_event(session=world.session, event_id=ev.id, acting_user_id=world.user(admin=True).id)
    assert cancel_event(session=world.session, event_id=ev.id, acting_user_id=organizer.id) == 2
    statuses = dict(world.session.exec(select(Match.id, Match.status).where(Match.id.in_(first))).all())
    assert statuses == {first[0]: MatchStatus.FINISHED, first[1]: MatchStatus.FAILED, first[2]: MatchStatus.FAILED}
    with pytest.raises(Conflict):  # the worker still playing it cannot record a result now
        results.record_result(session=world.session, match_id=first[1], worker_id="w",
                              outcome=MatchOutcome([SeatOutcome(rank=1, score=1), SeatOutcome(rank=2, score=0)]))
    assert feed_events(session=world.session, slots=10) == []  # nothing more is queued
    with pytest.raises(Conflict, match="cancelled"):
        cancel_event(session=world.session, event_id=ev.id, acting_user_id=organizer.id)
    assert world.session.exec(select(RatingChange)).all() == []
    assert event_view(session=world.session, event_id=ev.id).event.status == EventStatus.CANCELLED
    assert world.session.get(Bot, entered[0][0].id) is not None


def test_a_remote_bot_cannot_enter_a_duplicate_event(world):
    """#39: a remote entrant read each deal off the first seat order to finish. A program outside
    keeps what it saw, so a duplicate-seated event refuses it (entry, invitation, and at the start
    for one entered before); an event without duplicate seating, whose matches share no seed, takes it."""
    organizer = world.user(admin=True)
    remote, _ = world.bot()
    remote.remote = True
    world.session.add(remote)
    world.session.commit()
    duplicate, separate = event(world, organizer), event(world, organizer, duplicate=False)
    with pytest.raises(Invalid, match="played from outside"):
        add_entrant(session=world.session, event_id=duplicate.id, bot_id=remote.id, acting_user_id=organizer.id)
    invite(world, separate, remote, organizer)
    assert world.session.get(EventEntrant, (separate.id, remote.id)).accepted
    # an entry made before the rule: dropped at the start, named with the others
    world.session.add(EventEntrant(event_id=duplicate.id, bot_id=remote.id, invited=True, accepted=True))
    world.session.commit()
    for _ in range(2):
        invite(world, duplicate, world.bot()[0], organizer)
    assert start_event(session=world.session, event_id=duplicate.id, acting_user_id=organizer.id) == [remote.name]
