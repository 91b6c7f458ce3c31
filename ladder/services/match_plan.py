"""A stored match as the one value a worker plays: `match_plan(session=..., match_id=...)`.

Reads the match, each seat's version (its code, filename and runtime, or that it is played from
outside), the owner's names, each seat's bot data snapshot and the person at the table, in one
place, and hands them on as a `ladder.match.MatchPlan`: the worker's job stages nothing of its own
and passes the runner no strings. A person's seat carries no code: the retired "person" bot its row
points at is neither staged nor built.
"""

from __future__ import annotations

from sqlmodel import Session, select

from ladder.match import MatchPlan, Person, RemoteProgram, SeatPlan, UploadedCode, plan
from ladder.models import Bot, BotVersion, Match, Seat, User
from ladder.services import botdata
from ladder.services.errors import NotFound
from ladder.services.match_lists import in_person
from ladder.services.person_seat import person_seat_of
from ladder.services.replay_names import seat_label
from ladder.storage import Store


def staged_filename(filename: str) -> str:
    """The name a version's code is staged under: a fixed one, never the uploader's (a stored name
    the file system refuses, too long or holding a NUL, would fail every match the bot sits at)."""
    return "bot.zip" if filename.lower().endswith(".zip") else "main.py"


def match_plan(*, session: Session, match_id: int, store: Store | None = None) -> MatchPlan:
    """The match `match_id` as its plan; NotFound when there is no such match."""
    match = session.get(Match, match_id)
    if match is None:
        raise NotFound(f"no match {match_id}")
    rows = session.exec(
        select(Seat.seat, BotVersion.id, BotVersion.number, BotVersion.filename, BotVersion.code, BotVersion.runtime,
               Bot.name, Bot.remote, User.username)
        .join(BotVersion, BotVersion.id == Seat.bot_version_id)
        .join(Bot, Bot.id == Seat.bot_id)
        .join(User, User.id == Bot.owner_id)
        .where(Seat.match_id == match_id)
        .order_by(Seat.seat)
    ).all()
    person = person_seat_of(session=session, match_id=match_id)
    snapshots = botdata.snapshots(session, match_id, store)  # each seat's data folder to start from
    seats: list[SeatPlan] = []
    for (seat, version_id, number, filename, code, runtime, bot, remote, owner), data in zip(rows, snapshots,
                                                                                                strict=True):
        if person is not None and person[0].seat == seat:  # "Play it yourself"
            seats.append(Person(in_person(person[1]), clock_s=person[0].clock_s, version_id=version_id))
        elif remote:  # played from outside, over the relay: no code
            seats.append(RemoteProgram(seat_label(owner, bot, number, remote), version_id=version_id, data=data))
        else:
            seats.append(UploadedCode(seat_label(owner, bot, number, remote), code, staged_filename(filename),
                                      runtime, version_id, data))
    return plan(match.game, seats, seed=match.seed, options=match.options, sandbox=match.sandbox,
                ranked=match.ranked, match_id=match_id)
