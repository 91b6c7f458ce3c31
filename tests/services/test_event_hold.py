"""A duplicate deal's matches hold back their seed, replay, logs and dataset rows until every seat
order of the deal is over (issue #39: match 116 started 0.5 s after 115 finished, on the same seed,
and 115's replay showed all 49 tiles)."""

from __future__ import annotations

import functools
from datetime import timedelta

import pytest
from sqlmodel import select

from ladder.models import EventMatch, Match, utcnow
from ladder.play import play_builtin
from ladder.services import dumps, event_hold, matches, pages, results
from ladder.services.errors import NotFound
from ladder.services.export import ExportFilter, count_matches
from ladder.services.results import outcome_from_replay
from ladder.services.tournaments import add_entrant, cancel_event, create_event, feed_events, start_event
from ladder.storage import FolderStore


def _event(world, *, duplicate=True, deals=1):
    """Three entrants, tables of two: every deal is played by 3 tables x 2 seat orders, one seed."""
    organizer = world.user(admin=True)
    ev = create_event(session=world.session, organizer_id=organizer.id, name="cup", game="treasure", table_size=2,
                      deals=deals, duplicate=duplicate)
    for _ in range(3):
        add_entrant(session=world.session, event_id=ev.id, bot_id=world.bot(owner=organizer)[0].id,
                    acting_user_id=organizer.id)
    start_event(session=world.session, event_id=ev.id, acting_user_id=organizer.id)
    queued = feed_events(session=world.session, slots=100)
    return ev, organizer, queued


@functools.cache
def _game(seed: int):
    """One game per seed: every order of a deal plays the same (who sits where matters not here)."""
    return play_builtin("treasure", ["random", "random"], seed=seed).replay


def _play(session, match_id):
    match = session.get(Match, match_id)
    matches.claim_match(session=session, match_id=match_id, worker_id="w")
    results.record_result(session=session, match_id=match_id, worker_id="w",
                          outcome=outcome_from_replay(_game(match.seed), ["the board I saw\n", None]))


def test_a_deal_is_held_until_its_last_order_is_over(world, session, sessions, tmp_path):
    _, organizer, queued = _event(world)
    assert len(queued) == 6 and len({session.get(Match, m).seed for m in queued}) == 1  # one deal, one seed
    first, *others = queued
    _play(session, first)
    view = pages.match_detail(session=session, match_id=first)
    assert view.match.status == "finished" and view.held and view.seed is None and not view.has_replay
    for read in (pages.replay_json, pages.replay_gzip):
        with pytest.raises(NotFound, match="every seat order of its deal"):
            read(session=session, match_id=first)
    with pytest.raises(NotFound, match="held"):
        pages.bot_log(session=session, match_id=first, seat=0, viewer_id=organizer.id)
    assert event_hold.held_ids(session, queued) == set(queued)  # the busy ones are held as well
    assert count_matches(sessions, ExportFilter("treasure")) == 0  # no export, no dump of it yet
    day = session.get(Match, first).finished_at.date()
    assert dumps.write_daily_dumps(sessions, FolderStore(tmp_path), day + timedelta(days=1), backfill=1) == []
    for match_id in others[:-1]:
        _play(session, match_id)
    assert event_hold.held_ids(session, queued) == set(queued)  # one order still queued holds all
    _play(session, others[-1])
    assert event_hold.held_ids(session, queued) == set()
    view = pages.match_detail(session=session, match_id=first)
    assert not view.held and view.seed == view.match.seed and view.has_replay
    assert pages.replay_json(session=session, match_id=first)
    assert pages.bot_log(session=session, match_id=first, seat=0, viewer_id=organizer.id).text == "the board I saw\n"
    assert count_matches(sessions, ExportFilter("treasure")) == 6
    # the day of the deal's first order: its dump waited for the deal (a dump is written once)
    written = dumps.write_daily_dumps(sessions, FolderStore(tmp_path), day + timedelta(days=1), backfill=1)
    assert [d.day for d in written] == [day]


def test_a_cancelled_event_and_an_event_without_duplicate_seating_hold_nothing(world, session):
    ev, organizer, queued = _event(world)
    _play(session, queued[0])
    assert event_hold.is_held(session, queued[0])
    cancel_event(session=session, event_id=ev.id, acting_user_id=organizer.id)  # the other orders never play
    assert not event_hold.is_held(session, queued[0])
    _, _, separate = _event(world, duplicate=False)
    _play(session, separate[0])
    assert event_hold.held_ids(session, separate) == set()


def test_deal_seeds_are_keyed_with_the_events_own_secret(world, session):
    """The seeds were base + deal * 1,000,003: one deal's seed told every other. Now each event's
    deals are keyed with a secret of its own (events.deal_key), which no page shows."""
    a, _, _ = _event(world, deals=3)
    b, _, _ = _event(world, deals=3)
    assert a.deal_key != b.deal_key and len(bytes.fromhex(a.deal_key)) == 32

    def seeds(ev):
        rows = session.exec(select(EventMatch.deal, EventMatch.seed).where(EventMatch.event_id == ev.id)).all()
        assert len(rows) == 18 and len(set(rows)) == 3  # every order and table of a deal: its seed
        return [seed for _, seed in sorted(set(rows))]

    first, second = seeds(a), seeds(b)
    assert first[1] - first[0] != first[2] - first[1] and not set(first) & set(second)


def test_a_duplicate_deal_given_back_or_voided_keeps_its_deal(world, session):
    """Every order of a deal must play one deal, and a held match publishes nothing before its deal
    is over (no live feed, no seat played from outside): given back, swept or voided, it is played
    again on the same seed."""
    _, _, queued = _event(world)
    match_id = queued[0]
    seed = session.get(Match, match_id).seed
    matches.claim_match(session=session, match_id=match_id, worker_id="w1")
    assert matches.redeal_after_void(session=session, match_id=match_id, worker_id="w1") is None
    matches.release_match(session=session, match_id=match_id, worker_id="w1")
    matches.claim_match(session=session, match_id=match_id, worker_id="w2")
    matches.requeue_stale(session=session, stale_after=0, now=utcnow() + timedelta(seconds=1))
    session.expire_all()
    assert session.get(Match, match_id).seed == seed
