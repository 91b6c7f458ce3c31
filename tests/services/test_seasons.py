"""Seasons: opened by an organiser, a final at the end among the top league's best (a
duplicate-seated Swiss event) with the game's uploads frozen meanwhile, archived standings after."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import select

from ladder.config import Settings
from ladder.models import EventEntrant, LeagueMember, Rating, Season, SeasonStanding, Seat, TournamentEvent
from ladder.services import bots, matches, results
from ladder.services.errors import Conflict, Forbidden, Invalid
from ladder.services.results import MatchOutcome, SeatOutcome
from ladder.services.seasons import (
    advance_seasons,
    current_season,
    finalists,
    frozen_message,
    open_season,
    season_view,
    seasons_of,
)
from ladder.services.tournaments import feed_events
from ladder.services.uploads import upload_bot
from ladder.tournaments.model import seat_orders

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)
GAME = "treasure"
BOT = b"from bots.treasure.random import RandomBot\nfrom bots.sdk import run\nrun(RandomBot)\n"


@pytest.fixture
def organizer(world):
    return world.user(admin=True)


def _ladder(world, session, leagues: list[int]) -> list[int]:
    """Contestants (each of its own owner) in the given leagues, rated higher the later they come."""
    bots.seed_house_bots(session=session, games=[GAME])
    ids = []
    for i, league in enumerate(leagues):
        bot, _ = world.bot(name=f"b{i}")
        session.add(LeagueMember(bot_id=bot.id, game=GAME, league=league))
        rating = session.get(Rating, bot.id) or Rating(bot_id=bot.id, game=GAME)
        rating.rating, rating.games = 1_500_000 + 1000 * i, 30
        session.add(rating)
        ids.append(bot.id)
    session.commit()
    return ids


def test_only_an_organizer_opens_a_season_with_an_end_ahead_and_one_at_a_time(world, session, organizer):
    with pytest.raises(Forbidden):
        open_season(session=session, organizer_id=world.user().id, game=GAME, name="S1", ends_at=NOW, now=NOW)
    with pytest.raises(Invalid, match="future"):
        open_season(session=session, organizer_id=organizer.id, game=GAME, name="S1", ends_at=NOW, now=NOW)
    with pytest.raises(Invalid, match="time zone"):
        open_season(session=session, organizer_id=organizer.id, game=GAME, name="S1",
                    ends_at=datetime(2027, 1, 1), now=NOW)
    with pytest.raises(Invalid, match="unknown game"):
        open_season(session=session, organizer_id=organizer.id, game="chess", name="S1",
                    ends_at=NOW + timedelta(days=1), now=NOW)
    with pytest.raises(Invalid, match="final seats"):
        open_season(session=session, organizer_id=organizer.id, game=GAME, name="S1",
                    ends_at=NOW + timedelta(days=1), finalists=1, now=NOW)
    season = open_season(session=session, organizer_id=organizer.id, game=GAME, name=" Winter ",
                         ends_at=NOW + timedelta(days=30), now=NOW)
    assert (season.name, season.status, current_season(session=session, game=GAME).id) == ("Winter", "open", season.id)
    with pytest.raises(Conflict, match="already has a season"):
        open_season(session=session, organizer_id=organizer.id, game=GAME, name="Again",
                    ends_at=NOW + timedelta(days=3), now=NOW)
    assert session.exec(select(Season)).all() == [season]  # the refused one wrote nothing


def test_the_finalists_are_the_top_leagues_best_then_the_league_below(world, session):
    ids = _ladder(world, session, [0, 3, 3, 2, 2, 2, 1])
    # Gold's two by rating, then Silver's three by rating: never a house bot
    assert finalists(session=session, game=GAME, count=4) == [ids[2], ids[1], ids[5], ids[4]]


def _play_out(session, event_id: int) -> int:
    """Play the final: the lowest bot id wins every table (so places are known); matches played."""
    played = 0
    event = session.get(TournamentEvent, event_id)
    while True:
        queued = feed_events(session=session, slots=100, sandbox="off", now=NOW)
        session.refresh(event)
        if not queued and event.status != "running":
            return played
        for match_id in queued:
            matches.claim_match(session=session, match_id=match_id, worker_id="w")
            bot_ids = [s.bot_id for s in _seats(session, match_id)]
            order = sorted(bot_ids)
            results.record_result(session=session, match_id=match_id, worker_id="w", outcome=MatchOutcome(
                [SeatOutcome(rank=1 + order.index(b), score=50 - order.index(b), status="ok") for b in bot_ids]))
            played += 1


def _seats(session, match_id):
    return session.exec(select(Seat).where(Seat.match_id == match_id).order_by(Seat.seat)).all()


def test_at_its_end_a_season_freezes_uploads_plays_its_final_and_archives_it(world, session, organizer, tmp_path):
    ids = _ladder(world, session, [3, 3, 3, 2, 2])
    season = open_season(session=session, organizer_id=organizer.id, game=GAME, name="Winter",
                         ends_at=NOW + timedelta(days=1), finalists=4, final_rounds=2, final_deals=1, now=NOW)
    assert advance_seasons(session=session, now=NOW) == {}  # not over yet
    later = NOW + timedelta(days=1, seconds=1)
    outcome = advance_seasons(session=session, now=later)
    session.refresh(season)
    assert season.status == "final" and outcome[season.id].startswith(f"final started (event {season.event_id}")
    entrants = session.exec(select(EventEntrant).where(EventEntrant.event_id == season.event_id)).all()
    assert sorted(e.bot_id for e in entrants) == sorted([*ids[:3], ids[4]]) and all(e.bot_version_id for e in entrants)
    event = session.get(TournamentEvent, season.event_id)
    assert (event.format, event.duplicate, event.table_size, event.status) == ("swiss", True, 4, "running")
    # the game's uploads are frozen with a reason; another game's are not
    settings = Settings(instance_dir=Path(tmp_path), runtimes="python")
    owner = world.user()
    with pytest.raises(Conflict, match="frozen while the final of 'Winter'"):
        upload_bot(session=session, settings=settings, owner_id=owner.id, name="late", game=GAME, code=BOT,
                   filename="main.py")
    assert frozen_message(session=session, game="drachengold") is None
    assert advance_seasons(session=session, now=later) == {}  # the final is still on
    played = _play_out(session, season.event_id)
    orders = len(seat_orders(4))  # a deal is played in each of these seat orders at a table of four
    assert played == 2 * 1 * orders  # two rounds of one table, one deal
    assert advance_seasons(session=session, now=later) == {season.id: "closed"}
    view = season_view(session=session, season_id=season.id)
    assert view.season.status == "closed" and frozen_message(session=session, game=GAME) is None
    assert [s.bot_id for s in view.standings] == sorted([*ids[:3], ids[4]])  # the lowest id won every table
    first = view.standings[0]
    assert (first.place, first.matches, first.wins, first.mean_rank) == (1, 2 * orders, 2 * orders, 1.0)
    assert first.rank_low <= first.mean_rank <= first.rank_high and first.league == 3
    assert session.exec(select(SeasonStanding)).all()[-1].place == 4
    assert seasons_of(session=session, game=GAME)[0].id == season.id
    assert advance_seasons(session=session, now=later) == {}  # closed once


def test_a_season_with_too_few_contestants_closes_without_a_final(world, session, organizer):
    _ladder(world, session, [0])
    season = open_season(session=session, organizer_id=organizer.id, game=GAME, name="Quiet",
                         ends_at=NOW + timedelta(hours=1), now=NOW)
    outcome = advance_seasons(session=session, now=NOW + timedelta(hours=2))
    assert outcome == {season.id: "closed without a final: 1 bots could play it, 2 are needed"}
    assert season_view(session=session, season_id=season.id).standings == ()
    assert frozen_message(session=session, game=GAME) is None
