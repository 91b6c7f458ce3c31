"""What the event pages read: an event with its entrants, schedule, standings so far; lists.

Standings come from the stored seats of the event's finished matches (failed ones count for
nobody), through ladder/tournaments/standings.py, the code `ladder tournament` prints with.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from ladder.models import (
    Bot,
    BotVersion,
    EventEntrant,
    EventMatch,
    EventStatus,
    Match,
    MatchStatus,
    Seat,
    TournamentEvent,
    User,
)
from ladder.services.errors import Invalid, NotFound
from ladder.tournaments import model
from ladder.tournaments.standings import BOOTSTRAP, PlayedMatch, SeatResult, Standings, standings


def event_spec(event: TournamentEvent, entrants: list[EventEntrant], names: dict[int, str]) -> model.TournamentSpec:
    return model.TournamentSpec(
        event.game, tuple(model.Entrant(str(e.bot_id), names.get(e.bot_id, str(e.bot_id))) for e in entrants),
        table_size=event.table_size, deals=event.deals, format=event.format, rounds=event.rounds,
        duplicate=event.duplicate, seed=event.seed, options=dict(event.options),
        secret=bytes.fromhex(event.deal_key or ""))


_CACHE: dict[int, tuple[tuple, Standings]] = {}  # event id -> (what was counted, its standings)
RUNNING_SAMPLES = 200  # bootstrap samples while matches still come in; the final table uses 1000


def _standings(event: TournamentEvent, spec: model.TournamentSpec | None, played: list[PlayedMatch]) -> Standings:
    """Standings, computed again only when a result came in: the bootstrap of a big event takes
    a second or two, and its page reloads itself while it runs."""
    key = (event.status, event.seed, tuple(e.key for e in spec.entrants) if spec else (),
           tuple((p.spec, p.seats, p.failed) for p in played))  # exactly what is counted
    cached = _CACHE.get(event.id)
    if cached is not None and cached[0] == key:
        return cached[1]
    samples = BOOTSTRAP if event.status == EventStatus.FINISHED else RUNNING_SAMPLES
    table = standings(spec.entrants if spec else (), played, seed=event.seed, samples=samples)
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[event.id] = (key, table)
    return table


@dataclass
class EventView:
    event: TournamentEvent
    spec: model.TournamentSpec
    standings: Standings
    played: list[PlayedMatch]
    matches: list[tuple[EventMatch, str | None]]  # schedule rows with their match's status
    entrants: list[tuple[int, str, int | None]]  # bot id, display name, frozen version id
    owners: dict[int, int]  # bot id -> owner id (who may withdraw it, or answer its invitation)
    invitations: list[tuple[int, str]]  # bot id, name: invited, not yet accepted (no entrants)

    @property
    def progress(self) -> tuple[int, int]:
        """(matches ended, matches scheduled so far)."""
        return sum(s in (MatchStatus.FINISHED, MatchStatus.FAILED) for _, s in self.matches), len(self.matches)


def event_view(*, session: Session, event_id: int) -> EventView:
    """Everything the event page shows: entrants, schedule with statuses, standings so far."""
    event = session.exec(select(TournamentEvent).where(TournamentEvent.id == event_id)
                             .execution_options(populate_existing=True)).first()
    if event is None:
        raise NotFound(f"no event {event_id}")
    entrant_rows = session.exec(
        select(EventEntrant, Bot.name, User.username, BotVersion.number, Bot.owner_id)
        .join(Bot, Bot.id == EventEntrant.bot_id).join(User, User.id == Bot.owner_id)
        .outerjoin(BotVersion, BotVersion.id == EventEntrant.bot_version_id)
        .where(EventEntrant.event_id == event_id).order_by(EventEntrant.bot_id)
    ).all()
    names = {e.bot_id: f"{owner}/{name}" + (f" v{number}" if number else "")
             for e, name, owner, number, _ in entrant_rows}
    owners = {e.bot_id: owner_id for e, *_, owner_id in entrant_rows}
    entrants = [e for e, *_ in entrant_rows if e.accepted]
    invitations = [(e.bot_id, names[e.bot_id]) for e, *_ in entrant_rows if not e.accepted]
    rows = session.exec(
        select(EventMatch, Match.status).outerjoin(Match, Match.id == EventMatch.match_id)
        .where(EventMatch.event_id == event_id).order_by(EventMatch.index)
        .execution_options(populate_existing=True)  # match_id is set by guarded UPDATEs
    ).all()
    match_ids = [r.match_id for r, status in rows if status == MatchStatus.FINISHED]
    seats: dict[int, list[Seat]] = {}
    if match_ids:
        for seat in session.exec(select(Seat).where(Seat.match_id.in_(match_ids)).order_by(Seat.match_id, Seat.seat)):
            seats.setdefault(seat.match_id, []).append(seat)
    session.commit()
    played = []
    for row, status in rows:
        spec = model.MatchSpec(row.index, row.round, row.table_no, row.deal, row.seed,
                               tuple(str(b) for b in row.seats), row.order_no)
        if status == MatchStatus.FAILED:
            played.append(PlayedMatch(spec, failed="the match failed on the workers"))
        elif status == MatchStatus.FINISHED:
            played.append(PlayedMatch(spec, tuple(SeatResult(s.rank, s.score or 0, s.forfeited)
                                                  for s in seats[row.match_id])))
    try:
        spec = event_spec(event, entrants, names)
    except model.TournamentError:  # still in registration with too few entrants: an empty table
        spec = None
    table = _standings(event, spec, played)
    return EventView(event, spec, table, played, list(rows),
                     [(e.bot_id, names[e.bot_id], e.bot_version_id) for e in entrants], owners, invitations)


def list_events(*, session: Session, limit: int = 100) -> list[TournamentEvent]:
    events = list(session.exec(select(TournamentEvent).order_by(TournamentEvent.id.desc()).limit(limit)))
    session.commit()
    return events


def find_bot(*, session: Session, game: str, ref: str) -> Bot:
    """A bot by "owner/name" (how the organizer invites); NotFound otherwise."""
    owner, _, name = (ref or "").strip().partition("/")
    bot = session.exec(
        select(Bot).join(User, User.id == Bot.owner_id)
        .where(User.username == owner.strip().lower(), Bot.name == name.strip(), Bot.game == game)
    ).first()
    session.commit()
    if bot is None:
        raise Invalid(f"no {game} bot {ref!r} (write it as owner/name)")
    return bot


def invitations_for(*, session: Session, user_id: int) -> list[tuple[TournamentEvent, Bot]]:
    """The pending invitations to this user's bots, of events still in registration."""
    rows = list(session.exec(
        select(TournamentEvent, Bot).join(EventEntrant, EventEntrant.event_id == TournamentEvent.id)
        .join(Bot, Bot.id == EventEntrant.bot_id)
        .where(Bot.owner_id == user_id, EventEntrant.accepted == False,  # noqa: E712
               TournamentEvent.status == EventStatus.REGISTRATION).order_by(TournamentEvent.id, Bot.name)
    ).all())
    session.commit()
    return [tuple(r) for r in rows]


def own_bots(*, session: Session, user_id: int, game: str) -> list[Bot]:
    bots = list(session.exec(select(Bot).where(Bot.owner_id == user_id, Bot.game == game, Bot.retired == False)  # noqa: E712
                             .order_by(Bot.name)))
    session.commit()
    return bots
