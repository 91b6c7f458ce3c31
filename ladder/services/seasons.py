"""Seasons (issue #46): an organiser opens a season for a game with an end; at the end the game's
submissions freeze and a final is played among the best bots of the top league, as a
duplicate-seated Swiss event (the tournament machinery: its standings carry bootstrap intervals
over deals); when the final has finished its standings are archived on the season's page and the
game's submissions open again. docs/ratings.md ("Seasons") states the rules.

Ratings and leagues carry into the next season unchanged. Why not a reset or a shrink towards the
mean: a rating here is the exact sum of its recorded changes (`ladder ratings recompute` checks it
every hour), so a shrink would be a change no match made; and a reset throws away what the ratings
know, making the next season's first weeks noise for everyone. The season's result is its final,
not the ladder's ratings; what restarts is the race to the next final.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_, update
from sqlmodel import Session, select

from ladder.games import OptionError, get_game
from ladder.models import (
    Bot,
    BotVersion,
    EventEntrant,
    EventStatus,
    LeagueMember,
    Rating,
    Season,
    SeasonStanding,
    SeasonStatus,
    TournamentEvent,
    User,
    VersionStatus,
    utcnow,
)
from ladder.services.common import atomic, fetch
from ladder.services.errors import Conflict, Forbidden, Invalid, NotFound
from ladder.services.tournament_views import event_view
from ladder.services.tournaments import MAX_DEALS, schedule_event
from ladder.tournaments import model

FROZEN = ("submissions for {game} are frozen while the final of {season!r} is played: a new bot or version "
          "can be uploaded again once its standings are archived (see the season's page)")


def open_season(*, session: Session, organizer_id: int, game: str, name: str, ends_at: datetime,
                finalists: int = 8, final_rounds: int = 5, final_deals: int = 2,
                now: datetime | None = None) -> Season:
    """A new open season; Forbidden unless an admin, Invalid for bad settings, Conflict while the
    game has a season not yet closed."""
    user = fetch(session, User, organizer_id, "user")
    if not user.is_admin:
        raise Forbidden("only an organizer (admin) may open a season")
    name = (name or "").strip()
    if not 1 <= len(name) <= 80:
        raise Invalid("a season needs a name of 1-80 characters")
    try:
        game_obj = get_game(game)
    except (KeyError, OptionError):
        raise Invalid(f"unknown game {game!r}") from None
    now = now or utcnow()
    if ends_at.tzinfo is None:
        raise Invalid("the season's end needs a time zone (UTC, say)")
    if ends_at <= now:
        raise Invalid("the season must end in the future")
    if not game_obj.min_players <= finalists <= 32:
        raise Invalid(f"a final seats {game_obj.min_players}-32 bots")
    if not 1 <= final_rounds <= 20 or not 1 <= final_deals <= MAX_DEALS:
        raise Invalid(f"a final plays 1-20 rounds of 1-{MAX_DEALS} deals")
    season = Season(game=game, name=name, organizer_id=organizer_id, opened_at=now, ends_at=ends_at,
                    finalists=finalists, final_rounds=final_rounds, final_deals=final_deals)
    with atomic(session):
        if current_season(session=session, game=game) is not None:
            raise Conflict(f"{game} already has a season that is not closed")
        session.add(season)
    return season


def current_season(*, session: Session, game: str) -> Season | None:
    """The game's season not yet closed (open or in its final), if any."""
    return session.exec(select(Season).where(Season.game == game, Season.status != SeasonStatus.CLOSED)
                        .order_by(Season.id.desc())).first()


def frozen_message(*, session: Session, game: str) -> str | None:
    """Why an upload for `game` is refused now (its season's final is being played), or None."""
    season = session.exec(select(Season).where(Season.game == game, Season.status == SeasonStatus.FINAL)).first()
    return None if season is None else FROZEN.format(game=game, season=season.name)


def finalists(*, session: Session, game: str, count: int) -> list[int]:
    """The final's field: contestants (no house bot) with an active version, top league first,
    then by rating; a top league with fewer than `count` is completed from the league below."""
    active = select(BotVersion.bot_id).where(BotVersion.status == VersionStatus.ACTIVE)
    rows = session.exec(
        select(Bot.id, User.is_system)
        .join(User, User.id == Bot.owner_id).outerjoin(Rating, Rating.bot_id == Bot.id)
        .outerjoin(LeagueMember, LeagueMember.bot_id == Bot.id)
        .where(Bot.game == game, Bot.retired == False, Bot.remote == False, Bot.disabled == False,  # noqa: E712
               or_(User.suspended == False, User.suspended_until <= utcnow()), Bot.id.in_(active))  # noqa: E712
        .order_by(func.coalesce(LeagueMember.league, 0).desc(), Rating.rating.desc().nulls_last(), Bot.id)
    ).all()
    return [bot_id for bot_id, system in rows if not system][:count]


def advance_seasons(*, session: Session, now: datetime | None = None) -> dict[int, str]:
    """The scheduler's part: a season past its end starts its final; a season whose final has ended
    is archived and closed. Returns season id -> what happened (a season another tick moved is left out)."""
    now = now or utcnow()
    done: dict[int, str] = {}
    due = session.exec(select(Season.id).where(Season.status == SeasonStatus.OPEN, Season.ends_at <= now)
                       .order_by(Season.id)).all()
    session.commit()
    for season_id in due:
        outcome = _start_final(session, season_id, now)
        if outcome:
            done[season_id] = outcome
    playing = session.exec(
        select(Season.id).join(TournamentEvent, TournamentEvent.id == Season.event_id)
        .where(Season.status == SeasonStatus.FINAL,
               TournamentEvent.status.in_((EventStatus.FINISHED, EventStatus.CANCELLED)))
        .order_by(Season.id)).all()
    session.commit()
    for season_id in playing:
        if _close(session, season_id, now):
            done[season_id] = "closed"
    return done


def _start_final(session: Session, season_id: int, now: datetime) -> str | None:
    with atomic(session):
        # guarded first, as events start: of two ticks one moves the season and the other sees 0 rows
        claimed = session.exec(update(Season).where(Season.id == season_id, Season.status == SeasonStatus.OPEN)
                               .values(status=SeasonStatus.FINAL).execution_options(synchronize_session=False)
                               ).rowcount
        if claimed != 1:
            return None
        season = session.exec(select(Season).where(Season.id == season_id)
                              .execution_options(populate_existing=True)).one()
        game = get_game(season.game)
        field = finalists(session=session, game=season.game, count=season.finalists)
        if len(field) < game.min_players:
            season.status, season.closed_at = SeasonStatus.CLOSED, now
            session.add(season)
            return f"closed without a final: {len(field)} bots could play it, {game.min_players} are needed"
        size = _table_size(game, len(field))
        if size is None:
            season.status, season.closed_at = SeasonStatus.CLOSED, now
            session.add(season)
            return f"closed without a final: {len(field)} bots cannot be cut into tables of one size or one less"
        event = TournamentEvent(name=f"{season.name}: final", game=season.game, options=game.resolve_options({}),
                                format=model.SWISS, table_size=size, deals=season.final_deals,
                                rounds=season.final_rounds, duplicate=True, seed=secrets.randbits(62),
                                organizer_id=season.organizer_id)
        session.add(event)
        session.flush()
        # the finalists are seated without an invitation: a bot on the ladder plays its season's final
        session.add_all(EventEntrant(event_id=event.id, bot_id=b, invited=True, accepted=True, joined_at=now)
                        for b in field)
        season.event_id = event.id
        session.add(season)
    try:
        schedule_event(session=session, event_id=event.id, now=now)
    except (Invalid, Conflict) as exc:  # a field the schedule cannot seat: the season ends without a final
        with atomic(session):
            session.exec(update(TournamentEvent).where(TournamentEvent.id == event.id)
                         .values(status=EventStatus.CANCELLED, finished_at=now))
            session.exec(update(Season).where(Season.id == season_id)
                         .values(status=SeasonStatus.CLOSED, closed_at=now))
        return f"closed without a final: {exc}"
    return f"final started (event {event.id}, {len(field)} bots)"


def _table_size(game, field: int) -> int | None:
    """The final's table size: the game's preferred one, or the largest below it that cuts the field
    into tables of that size or one less (a Swiss round seats everyone each round)."""
    for size in range(min(game.preferred_players, field), game.min_players - 1, -1):
        try:
            model.split_sizes(field, size)
        except model.TournamentError:
            continue
        return size
    return None


def _close(session: Session, season_id: int, now: datetime) -> bool:
    season = session.get(Season, season_id)
    view = event_view(session=session, event_id=season.event_id)
    bot_ids = [int(row.entrant.key) for row in view.standings.rows]
    ratings = dict(session.exec(select(Rating.bot_id, Rating.rating).where(Rating.bot_id.in_(bot_ids))).all())
    leagues = dict(session.exec(select(LeagueMember.bot_id, LeagueMember.league)
                                .where(LeagueMember.bot_id.in_(bot_ids))).all())
    with atomic(session):
        claimed = session.exec(update(Season).where(Season.id == season_id, Season.status == SeasonStatus.FINAL)
                               .values(status=SeasonStatus.CLOSED, closed_at=now)
                               .execution_options(synchronize_session=False)).rowcount
        if claimed != 1:
            return False
        if view.event.status == EventStatus.FINISHED:
            session.add_all(
                SeasonStanding(season_id=season_id, place=place, bot_id=int(row.entrant.key), name=row.entrant.name,
                               league=leagues.get(int(row.entrant.key), 0), rating=ratings.get(int(row.entrant.key)),
                               matches=row.matches, wins=row.wins, mean_rank=row.rank.mean, rank_low=row.rank.low,
                               rank_high=row.rank.high, mean_score=row.score.mean)
                for place, row in enumerate(view.standings.rows, start=1))
    return True


@dataclass(frozen=True, slots=True)
class SeasonView:
    season: Season
    standings: tuple[SeasonStanding, ...]  # a closed season's archived final, best first
    event: TournamentEvent | None


def seasons_of(*, session: Session, game: str) -> list[Season]:
    """The game's seasons, newest first (past ones stay browsable)."""
    return list(session.exec(select(Season).where(Season.game == game).order_by(Season.id.desc())))


def season_view(*, session: Session, season_id: int) -> SeasonView:
    # populate_existing: the status is moved by guarded UPDATEs, which leave loaded objects stale
    season = session.exec(select(Season).where(Season.id == season_id)
                          .execution_options(populate_existing=True)).first()
    if season is None:
        raise NotFound(f"no season {season_id}")
    standings = tuple(session.exec(select(SeasonStanding).where(SeasonStanding.season_id == season_id)
                                   .order_by(SeasonStanding.place)))
    event = session.get(TournamentEvent, season.event_id) if season.event_id else None
    return SeasonView(season, standings, event)
