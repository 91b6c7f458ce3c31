"""feed in workers/queue/events.py: the scheduler's tick for events, within LADDER_EVENT_SLOTS."""

from ladder.config import Settings
from ladder.models import MatchKind
from ladder.services.bots import seed_house_bots
from ladder.services.tournaments import add_entrant, create_event, start_event
from ladder.services.users import set_admin, sign_up
from workers.queue.events import feed
from workers.queue.scheduler import Queued


def test_feed_respects_the_slots_and_zero_pauses_events(sessions, tmp_path):
    with sessions() as session:
        starters = [b.id for b in seed_house_bots(session=session, games=["treasure"])]
        organizer = sign_up(session=session, data={"username": "org", "password": "plan-7-dragon-events"})
        set_admin(session=session, username="org")
        event = create_event(session=session, organizer_id=organizer.id, name="e", game="treasure", table_size=2,
                             deals=3)
        for bot_id in starters[:2]:
            add_entrant(session=session, event_id=event.id, bot_id=bot_id, acting_user_id=organizer.id)
        start_event(session=session, event_id=event.id, acting_user_id=organizer.id)
    assert feed(sessions, Settings(env="test", instance_dir=tmp_path, event_slots=0)) == []
    first = feed(sessions, Settings(env="test", instance_dir=tmp_path, event_slots=2))
    assert len(first) == 2
    assert feed(sessions, Settings(env="test", instance_dir=tmp_path, event_slots=2)) == []
    assert len(feed(sessions, Settings(env="test", instance_dir=tmp_path, event_slots=5))) == 3


def test_event_matches_ride_the_bulk_queue():
    queued = Queued()
    queued.add(1, MatchKind.EVENT)
    queued.add(2, MatchKind.VALIDATION)
    assert (queued.ladder, queued.priority) == ([1], [2])


def test_a_tick_starts_an_open_event_past_its_deadline_even_with_events_paused(sessions, tmp_path):
    from datetime import UTC, datetime

    from ladder.models import EventStatus, TournamentEvent

    with sessions() as session:
        house = [b.id for b in seed_house_bots(session=session, games=["treasure"])]
        organizer = sign_up(session=session, data={"username": "org", "password": "plan-7-dragon-events"})
        set_admin(session=session, username="org")
        event = create_event(session=session, organizer_id=organizer.id, name="e", game="treasure", table_size=2,
                             deals=1, open_registration=True, deadline=datetime(2026, 1, 1, tzinfo=UTC))
        for bot_id in house[:2]:  # house bots need nobody's acceptance
            add_entrant(session=session, event_id=event.id, bot_id=bot_id, acting_user_id=organizer.id)
        event_id = event.id
    assert feed(sessions, Settings(env="test", instance_dir=tmp_path, event_slots=0)) == []
    with sessions() as session:
        assert session.get(TournamentEvent, event_id).status == EventStatus.RUNNING
    assert len(feed(sessions, Settings(env="test", instance_dir=tmp_path, event_slots=5))) == 2
