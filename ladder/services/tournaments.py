"""Tournaments on the site ("events"): create, enter, start, feed to the workers, standings.

An event is organised by an admin (`users.is_admin`, granted with `ladder admin grant USER`). Bots
enter by the organizer's invitation, or, with open registration, by their owners until the
deadline. Starting it freezes each entrant's active version and writes the schedule of
ladder/tournaments/model.py as `event_matches` rows (a Swiss event: one round at a time).

`feed_events` turns scheduled rows into queued matches, at most `slots` event matches queued or
running at once, so the ladder keeps the rest of the workers. Each row gets its match in the same
transaction that creates the match, guarded by `match_id IS NULL`, so a row is queued exactly
once however many schedulers race; the match itself then runs exactly once through the ladder's
claim guard, and a worker killed mid-match is swept and the match replayed like any other.
TournamentEvent matches are kind `event` and unranked: recording them never touches ratings (is_rated).
What the pages read (event_view, lists) is in ladder/services/tournament_views.py.
"""

from __future__ import annotations

import contextlib
import secrets
from datetime import datetime

from sqlalchemy import func, update
from sqlmodel import Session, select

from ladder.games import OptionError, get_game
from ladder.models import (
    Bot,
    BotVersion,
    EventEntrant,
    EventMatch,
    EventStatus,
    Match,
    MatchKind,
    MatchStatus,
    Seat,
    TournamentEvent,
    User,
    VersionStatus,
    utcnow,
)
from ladder.services.botdata import head_versions
from ladder.services.common import atomic, fetch
from ladder.services.errors import Conflict, Forbidden, Invalid, NotFound
from ladder.services.tournament_views import event_spec, event_view
from ladder.tournaments import model
from ladder.tournaments.standings import standing_order

MAX_DEALS = 200
BUSY = (MatchStatus.QUEUED, MatchStatus.RUNNING)


def _admin(session: Session, user_id: int) -> User:
    user = fetch(session, User, user_id, "user")
    if not user.is_admin:
        raise Forbidden("only an organizer (admin) may do this")
    return user


def create_event(
    *, session: Session, organizer_id: int, name: str, game: str, table_size: int, deals: int,
    format: str = model.ROUND_ROBIN, rounds: int = 1, duplicate: bool = True, options: dict | None = None,
    open_registration: bool = False, deadline: datetime | None = None, seed: int | None = None,
) -> TournamentEvent:
    """A new event in registration; Forbidden unless the organizer is an admin, Invalid for bad settings."""
    _admin(session, organizer_id)
    name = (name or "").strip()
    if not 1 <= len(name) <= 80:
        raise Invalid("the event needs a name of 1-80 characters")
    try:
        game_obj = get_game(game)
        resolved = game_obj.resolve_options(options or {})
        game_obj.check_players(table_size)
    except KeyError:
        raise Invalid(f"unknown game {game!r}") from None
    except OptionError as exc:
        raise Invalid(str(exc)) from None
    if format not in model.FORMATS:
        raise Invalid(f"unknown format {format!r} (choose {', '.join(model.FORMATS)})")
    if not 1 <= deals <= MAX_DEALS:
        raise Invalid(f"deals must be 1-{MAX_DEALS}")
    if not 1 <= rounds <= 20 or (format == model.ROUND_ROBIN and rounds != 1):
        raise Invalid("a round robin has one round; a Swiss event 1-20")
    if open_registration and deadline is None:
        raise Invalid("open registration needs a deadline")
    event = TournamentEvent(name=name, game=game, options=resolved, format=format, table_size=table_size, deals=deals,
                  rounds=rounds, duplicate=duplicate, seed=secrets.randbits(62) if seed is None else seed,
                  open_registration=open_registration, deadline=deadline, organizer_id=organizer_id)
    with atomic(session):
        session.add(event)
    return event


def add_entrant(*, session: Session, event_id: int, bot_id: int, acting_user_id: int,
                now: datetime | None = None) -> EventEntrant:
    """The organizer invites any bot of the game (an entry once its owner accepts); with open
    registration an owner enters their own bot until the deadline. Conflict when the event has
    started or the bot is already in."""
    event = fetch(session, TournamentEvent, event_id, "event")
    bot = fetch(session, Bot, bot_id, "bot")
    user = fetch(session, User, acting_user_id, "user")
    if event.status != EventStatus.REGISTRATION:
        raise Conflict(f"event {event.id} is {event.status}: entries are closed")
    organizer = user.is_admin and user.id == event.organizer_id
    if not organizer:
        if not event.open_registration:
            raise Forbidden("this event is by invitation only")
        if bot.owner_id != user.id:
            raise Forbidden("you may only enter your own bots")
        if event.deadline is not None and (now or utcnow()) > event.deadline:
            raise Conflict("registration closed at the deadline")
    if bot.game != event.game:
        raise Invalid(f"bot {bot.name!r} plays {bot.game}, not {event.game}")
    if bot.retired:
        raise Invalid(f"bot {bot.name!r} is retired")
    _check_seatable(event, bot)
    # an invitation waits for the owner's answer, unless the organizer owns the bot or it is a
    # house bot (no person to ask: the site's organizer speaks for it)
    accepted = not organizer or bot.owner_id == user.id or fetch(session, User, bot.owner_id, "user").is_system
    entrant = EventEntrant(event_id=event.id, bot_id=bot.id, invited=organizer, accepted=accepted)
    with atomic(session, conflict=f"bot {bot.name!r} is already entered or invited"):
        session.add(entrant)
    return entrant


# A program played from outside sees its seat's events as they happen and keeps them: in a
# duplicate-seated event it would know each deal before its other seat orders play it (the sandbox
# keeps nothing of a bot's run, and an event's bots play a pinned data version). A person's seat
# ("Play it yourself") is never an event's.
NO_OUTSIDE_SEATS = ("bot {name!r} is played from outside (a remote bot): it cannot enter a duplicate-seated event, "
                    "where it would see each deal before the event's other seat orders play it; enter a bot that "
                    "runs on the ladder, or choose an event without duplicate seating")


def _check_seatable(event: TournamentEvent, bot: Bot) -> None:
    if event.duplicate and bot.remote:
        raise Invalid(NO_OUTSIDE_SEATS.format(name=bot.name))


def answer_invitation(*, session: Session, event_id: int, bot_id: int, acting_user_id: int, accept: bool) -> None:
    """The bot's owner accepts the organizer's invitation (the bot becomes an entrant) or declines
    it (the invitation is gone). NotFound without a pending invitation; Conflict once started."""
    event = fetch(session, TournamentEvent, event_id, "event")
    bot = fetch(session, Bot, bot_id, "bot")
    if bot.owner_id != acting_user_id:
        raise Forbidden("only the bot's owner may answer its invitation")
    if event.status != EventStatus.REGISTRATION:
        raise Conflict(f"event {event.id} is {event.status}: entries are closed")
    with atomic(session):
        entrant = session.get(EventEntrant, (event_id, bot_id), populate_existing=True)
        if entrant is None or entrant.accepted:
            raise NotFound(f"bot {bot.name!r} has no pending invitation to event {event_id}")
        if accept:
            _check_seatable(event, bot)
            entrant.accepted = True
            session.add(entrant)
        else:
            session.delete(entrant)


def withdraw_entrant(*, session: Session, event_id: int, bot_id: int, acting_user_id: int) -> None:
    event = fetch(session, TournamentEvent, event_id, "event")
    bot = fetch(session, Bot, bot_id, "bot")
    user = fetch(session, User, acting_user_id, "user")
    if bot.owner_id != user.id and not (user.is_admin and user.id == event.organizer_id):
        raise Forbidden("only the bot's owner or the organizer may withdraw it")
    if event.status != EventStatus.REGISTRATION:
        raise Conflict("the event has started: its field is fixed")
    with atomic(session):
        entrant = session.get(EventEntrant, (event_id, bot_id))
        if entrant is not None:
            session.delete(entrant)


def _rows(event_id: int, matches: list[model.MatchSpec]) -> list[EventMatch]:
    return [EventMatch(event_id=event_id, index=m.index, round=m.round, table_no=m.table, deal=m.deal, seed=m.seed,
                       order_no=m.order, seats=[int(k) for k in m.seats]) for m in matches]


def start_event(*, session: Session, event_id: int, acting_user_id: int, now: datetime | None = None) -> list[str]:
    """Freeze the field (each accepted entrant's active version; bots without one, and invitations
    not accepted, are dropped, their names returned) and write the schedule. The organizer may
    start before the deadline. Conflict unless in registration; Invalid if too few remain."""
    event = fetch(session, TournamentEvent, event_id, "event")
    if event.organizer_id != acting_user_id:
        raise Forbidden("only the event's organizer may start it")
    _admin(session, acting_user_id)
    return _start(session, event_id, now or utcnow())


def schedule_event(*, session: Session, event_id: int, now: datetime) -> list[str]:
    """Start an event in registration for the ladder itself (a season's final: services/seasons.py),
    as start_event does for its organizer, without the organizer's checks."""
    return _start(session, event_id, now)


def _start(session: Session, event_id: int, now: datetime) -> list[str]:
    with atomic(session):
        # the guarded UPDATE comes first: of two starters (the organizer's button, two scheduler
        # ticks) one changes the row and the other, blocked on it or serialised, sees 0 rows
        claimed = session.exec(
            update(TournamentEvent)
            .where(TournamentEvent.id == event_id, TournamentEvent.status == EventStatus.REGISTRATION)
            .values(status=EventStatus.RUNNING, started_at=now).execution_options(synchronize_session=False)
        ).rowcount
        event = session.exec(select(TournamentEvent).where(TournamentEvent.id == event_id)
                             .execution_options(populate_existing=True)).one()
        if claimed != 1:
            raise Conflict(f"event {event_id} is {event.status}")
        rows = session.exec(
            select(EventEntrant, Bot, BotVersion).join(Bot, Bot.id == EventEntrant.bot_id)
            .outerjoin(BotVersion, (BotVersion.bot_id == Bot.id) & (BotVersion.status == VersionStatus.ACTIVE))
            .where(EventEntrant.event_id == event_id).order_by(EventEntrant.bot_id)
        ).all()
        def out(entrant: EventEntrant, bot: Bot, version: BotVersion | None) -> bool:
            # (a remote bot entered before duplicate events refused them: dropped too)
            return version is None or bot.retired or not entrant.accepted or (event.duplicate and bot.remote)

        dropped = [bot.name for entrant, bot, version in rows if out(entrant, bot, version)]
        kept = []
        # each bot's data is frozen with its version: every match of the event sees the same files
        data_versions = head_versions(session, [bot.id for _, bot, _ in rows])
        for entrant, bot, version in rows:
            if out(entrant, bot, version):
                session.delete(entrant)
            else:
                entrant.bot_version_id = version.id
                entrant.data_version = data_versions[bot.id]
                session.add(entrant)
                kept.append(entrant)
        try:
            spec = event_spec(event, kept, {})
            for seats in model.table_sizes(spec):
                get_game(event.game).check_players(seats)
            matches = model.round_robin(spec) if event.format == model.ROUND_ROBIN else \
                model.swiss_round(spec, 0, [e.key for e in spec.entrants])
        except (model.TournamentError, OptionError) as exc:
            raise Invalid(str(exc)) from None
        session.add_all(_rows(event.id, matches))
    return dropped


def start_due_events(*, session: Session, now: datetime | None = None) -> dict[int, str]:
    """The scheduler's part: start each open event whose deadline has passed; one whose field
    cannot play (too few entrants) is cancelled instead, so it is not retried every tick. Returns
    event id -> "started" / "cancelled: why"; an event another tick started is left out."""
    now = now or utcnow()
    due = session.exec(select(TournamentEvent.id).where(TournamentEvent.status == EventStatus.REGISTRATION,
                                              TournamentEvent.open_registration == True,  # noqa: E712
                                              TournamentEvent.deadline.is_not(None), TournamentEvent.deadline <= now)
                       .order_by(TournamentEvent.id)).all()
    session.commit()
    done: dict[int, str] = {}
    for event_id in due:
        try:
            _start(session, event_id, now)
            done[event_id] = "started"
        except Conflict:
            continue  # another tick (or the organizer) was first
        except Invalid as exc:
            if _cancel(session, event_id, now, (EventStatus.REGISTRATION,)) is not None:
                done[event_id] = f"cancelled: {exc}"
    return done


def cancel_event(*, session: Session, event_id: int, acting_user_id: int, now: datetime | None = None) -> int:
    """The organizer cancels an event in registration or running: its queued and running matches
    end failed (unrated, as every event match), nothing more is scheduled. Returns how many
    matches were stopped; Conflict once it has finished or was cancelled."""
    event = fetch(session, TournamentEvent, event_id, "event")
    if event.organizer_id != acting_user_id:
        raise Forbidden("only the event's organizer may cancel it")
    _admin(session, acting_user_id)
    stopped = _cancel(session, event_id, now or utcnow(), (EventStatus.REGISTRATION, EventStatus.RUNNING))
    if stopped is None:
        raise Conflict(f"event {event_id} is {fetch(session, TournamentEvent, event_id, 'event').status}")
    return stopped


def _cancel(session: Session, event_id: int, now: datetime, states: tuple[str, ...]) -> int | None:
    """Guarded like _start; None if the event was not in `states`, else the matches stopped."""
    with atomic(session):
        claimed = session.exec(
            update(TournamentEvent).where(TournamentEvent.id == event_id, TournamentEvent.status.in_(states))
            .values(status=EventStatus.CANCELLED, finished_at=now).execution_options(synchronize_session=False)
        ).rowcount
        if claimed != 1:
            return None
        ids = select(EventMatch.match_id).where(EventMatch.event_id == event_id, EventMatch.match_id.is_not(None))
        # a worker still playing one finds it failed when it records: its result is refused
        return session.exec(
            update(Match).where(Match.id.in_(ids), Match.status.in_(BUSY))
            .values(status=MatchStatus.FAILED, failure_reason="the event was cancelled", finished_at=now)
            .execution_options(synchronize_session=False)
        ).rowcount


def event_matches_in_flight(session: Session) -> int:
    return session.exec(
        select(func.count()).select_from(EventMatch).join(Match, Match.id == EventMatch.match_id)
        .where(Match.status.in_(BUSY))
    ).one()


def _queue_one(session: Session, event: TournamentEvent, row: EventMatch, sandbox: str) -> int | None:
    """Queue the match of one schedule row, in one transaction; None if another feeder did it."""
    with atomic(session):
        entrants = session.exec(
            select(EventEntrant.bot_id, EventEntrant.bot_version_id, EventEntrant.data_version)
            .where(EventEntrant.event_id == event.id)
        ).all()
        versions = {bot_id: version for bot_id, version, _ in entrants}
        pins = {bot_id: data or 0 for bot_id, _, data in entrants}
        match = Match(game=event.game, options=dict(event.options), seed=row.seed, kind=MatchKind.EVENT,
                      ranked=False, sandbox=sandbox)
        session.add(match)
        session.flush()
        for seat, bot_id in enumerate(row.seats):
            session.add(Seat(match_id=match.id, seat=seat, bot_id=bot_id, bot_version_id=versions[bot_id],
                             data_version=pins[bot_id]))
        claimed = session.exec(
            update(EventMatch).where(EventMatch.event_id == row.event_id, EventMatch.index == row.index,
                                     EventMatch.match_id.is_(None),  # and not cancelled meanwhile:
                                     EventMatch.event_id.in_(select(TournamentEvent.id)
                                                             .where(TournamentEvent.status == EventStatus.RUNNING)))
            .values(match_id=match.id).execution_options(synchronize_session=False)
        ).rowcount
        if claimed != 1:
            session.rollback()
            return None
        return match.id


def feed_events(*, session: Session, slots: int, sandbox: str = "strict", now: datetime | None = None) -> list[int]:
    """Queue scheduled event matches while fewer than `slots` are queued or running; advance
    finished Swiss rounds and finish complete events. The ids queued, to send to the workers."""
    queued: list[int] = []
    running = session.exec(select(TournamentEvent).where(TournamentEvent.status == EventStatus.RUNNING)
                           .order_by(TournamentEvent.id).execution_options(populate_existing=True)).all()
    session.commit()
    for event in running:
        free = slots - event_matches_in_flight(session)
        rows = session.exec(
            select(EventMatch).where(EventMatch.event_id == event.id, EventMatch.match_id.is_(None))
            .order_by(EventMatch.index).limit(max(free, 0)).execution_options(populate_existing=True)
        ).all()
        session.commit()
        for row in rows:
            match_id = _queue_one(session, event, row, sandbox)
            if match_id is not None:
                queued.append(match_id)
        if not rows:
            with contextlib.suppress(Conflict):  # a second scheduler wrote the next round first
                _advance(session, event, now)
    return queued


def _advance(session: Session, event: TournamentEvent, now: datetime | None) -> None:
    """Every row queued: once all their matches ended, play the next Swiss round or finish."""
    left = session.exec(
        select(func.count()).select_from(EventMatch).outerjoin(Match, Match.id == EventMatch.match_id)
        .where(EventMatch.event_id == event.id, (EventMatch.match_id.is_(None)) | Match.status.in_(BUSY))
    ).one()
    session.commit()
    if left:
        return
    view = event_view(session=session, event_id=event.id)
    done_rounds = 1 + max((m.spec.round for m in view.played), default=-1)
    with atomic(session, conflict=f"event {event.id} was advanced by another scheduler"):
        current = session.exec(select(TournamentEvent)
                               .where(TournamentEvent.id == event.id, TournamentEvent.status == EventStatus.RUNNING)
                               .execution_options(populate_existing=True)).first()
        if current is None:
            return
        if current.format == model.SWISS and done_rounds < current.rounds:
            start = session.exec(select(func.count()).select_from(EventMatch)
                                 .where(EventMatch.event_id == event.id)).one()
            matches = model.swiss_round(view.spec, done_rounds, standing_order(view.standings), start=start)
            session.add_all(_rows(event.id, matches))
            return
        current.status, current.finished_at = EventStatus.FINISHED, now or utcnow()
        session.add(current)
