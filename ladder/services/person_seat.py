"""A person's seat ("Play it yourself", docs/play.md): the use cases behind ladder/web/play.py.

A logged-in user starts an unrated match of a game with "me" at one seat and active bots of that
game at the others. The match is an ordinary challenge in the queue, played by a worker; its
`person_seats` row says which seat is the person's, and that seat's `seats` row names the game's
house "person" bot, a retired bot whose code is the game's fallback bot: what plays the seat when
the person leaves or runs out of time (workers/match/seats/person.py).

The web tier only relays: `updates` reads what the worker wrote for the seat (topic
`match:<id>:seat:<n>:down`) and says the page is still there; `answer` reads a submitted form with
the game's own form code (its `forms` part) against the request the worker is waiting on, and
writes the decision to `...:up`. Only the person may read or answer their seat: anyone else gets
NotFound, so not even the seat's existence leaks.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from ladder.config import Settings
from ladder.games import OptionError, get_game
from ladder.games.forms import FormError
from ladder.models import Bot, BotVersion, Match, MatchKind, PersonSeat, Seat, User, VersionStatus
from ladder.relay.backends import START, Relay, RelayMessage, topics
from ladder.services.common import atomic, fetch, unit_of_work
from ladder.services.errors import Conflict, Invalid, NotFound
from ladder.services.matches import BUSY, queue_match
from ladder.services.users import ensure_system_user

PERSON_BOT = "person"  # the house bot whose seats people play
MAX_UPDATES = 200  # messages per poll: a page far behind catches up over several polls
MAX_ANSWER_FIELDS = 400  # far above the largest form (a market: 3 offers of a colour count each and a hoard)


@dataclass(frozen=True, slots=True)
class Table:
    """What the start form offers for one game: the seats and the bots that may sit at the others."""

    game: str
    title: str
    min_players: int
    max_players: int
    bots: list[tuple[int, str]]  # (bot id, "owner/name"), house bots first


def table_choices(*, session: Session, game: str, house_username: str = "house") -> Table:
    game_obj = _playable(game)
    rows = session.exec(
        select(Bot.id, Bot.name, User.username)
        .join(BotVersion, BotVersion.bot_id == Bot.id).join(User, User.id == Bot.owner_id)
        .where(Bot.game == game, Bot.retired == False, BotVersion.status == VersionStatus.ACTIVE)  # noqa: E712
        .order_by((User.username != house_username), User.username, Bot.name).limit(300)
    ).all()
    return Table(game, game_obj.title, game_obj.min_players, game_obj.max_players,
                 [(bot_id, f"{owner}/{name}") for bot_id, name, owner in rows])


def start(*, session: Session, settings: Settings, user_id: int, address: str, game: str, seat: int,
          opponents: Sequence[int], options: Mapping[str, Any] | None = None, seed: int | None = None) -> Match:
    """Queue an unrated match with the person at `seat` and the active versions of the bots
    `opponents` (bot ids, in seat order) at the others. Refuses with the reason: an unknown game,
    a table size or seat out of range, a bot that is not an active bot of the game, and a user or
    address already at its limit of unfinished person matches."""
    game_obj = _playable(game)
    players = 1 + len(opponents)
    if not game_obj.min_players <= players <= game_obj.max_players:
        raise Invalid(f"{game_obj.title} takes {game_obj.min_players}-{game_obj.max_players} players: choose "
                      f"{game_obj.min_players - 1} to {game_obj.max_players - 1} bots, not {len(opponents)}")
    if not 0 <= seat < players:
        raise Invalid(f"seat {seat} is not at a table of {players}: choose 0 to {players - 1}")
    address = (address or "?")[:64]
    # one transaction: the limits are counted where the new table is written, and a match is never
    # queued without its person seat (a worker would play it as a bot match)
    with unit_of_work(session):
        return _start(session, settings, user_id, address, game, game_obj, seat, opponents, options, seed)


def _start(session, settings, user_id, address, game, game_obj, seat, opponents, options, seed) -> Match:
    _check_limits(session, settings, user_id, address)
    versions = []
    for bot_id in opponents:
        row = session.exec(select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id).where(
            Bot.id == bot_id, Bot.game == game, Bot.retired == False, Bot.disabled == False,  # noqa: E712
            BotVersion.status == VersionStatus.ACTIVE)).first()
        if row is None:
            raise Invalid(f"bot {bot_id} is not an active {game_obj.title} bot")
        versions.append(row)
    person = _person_version(session, game, settings.house_username)
    versions.insert(seat, person)
    try:
        match = queue_match(session=session, game=game, seats=versions, options=options, seed=seed,
                            kind=MatchKind.CHALLENGE, ranked=False, sandbox=settings.sandbox_mode,
                            requested_by=user_id)
    except OptionError as exc:
        raise Invalid(str(exc)) from None
    with atomic(session):
        session.add(PersonSeat(match_id=match.id, seat=seat, user_id=user_id, address=address,
                               clock_s=settings.person_clock))
    return match


def _playable(game: str):
    try:
        game_obj = get_game(game)
    except (KeyError, OptionError):
        raise NotFound(f"no game {game!r}") from None
    if game_obj.part("forms") is None:
        raise Invalid(f"{game_obj.title} cannot be played in person yet")
    return game_obj


def _check_limits(session: Session, settings: Settings, user_id: int, address: str) -> None:
    def unfinished(*where: Any) -> int:
        return session.exec(select(func.count()).select_from(PersonSeat).join(Match, Match.id == PersonSeat.match_id)
                            .where(Match.status.in_(BUSY), *where)).one()

    if unfinished(PersonSeat.user_id == user_id) >= settings.person_seats_per_user:
        raise Conflict(f"you are already at {settings.person_seats_per_user} unfinished table(s): "
                       "finish or leave that game first")
    if unfinished(PersonSeat.address == address) >= settings.person_seats_per_address:
        raise Conflict(f"{settings.person_seats_per_address} people are already playing from your address")


def _person_version(session: Session, game: str, house_username: str) -> int:
    """The version id of the game's house "person" bot, made on first use: retired, so it is never
    on the ladder; its code is the game's fallback bot, what the seat is played by without the person."""
    house = ensure_system_user(session=session, username=house_username)
    bot = session.exec(select(Bot).where(Bot.owner_id == house.id, Bot.game == game, Bot.name == PERSON_BOT)).first()
    if bot is None:
        bot = Bot(owner_id=house.id, game=game, name=PERSON_BOT, retired=True,
                  description="A person playing from the browser (docs/play.md); the fallback bot plays "
                              "the seat when the person leaves")
        with atomic(session, conflict="the person seat is being set up concurrently; retry"):
            session.add(bot)
    version = session.exec(select(BotVersion).where(BotVersion.bot_id == bot.id)
                           .order_by(BotVersion.number.desc())).first()
    if version is None:
        fallback = get_game(game).fallback_bot
        module = get_game(game).bot_module(fallback)
        with open(importlib.util.find_spec(module).origin, "rb") as fh:
            code = fh.read()
        version = BotVersion(bot_id=bot.id, number=1, filename=f"{fallback}.py", code=code,
                             sha256=hashlib.sha256(code).hexdigest(), size=len(code), status=VersionStatus.RETIRED,
                             runtime="python")
        with atomic(session, conflict="the person seat is being set up concurrently; retry"):
            session.add(version)
    return version.id


def person_seat_of(*, session: Session, match_id: int) -> tuple[PersonSeat, str] | None:
    """The match's person seat and the person's user name (None: nobody plays it in person)."""
    row = session.exec(select(PersonSeat, User.username).join(User, User.id == PersonSeat.user_id)
                       .where(PersonSeat.match_id == match_id)).first()
    return None if row is None else (row[0], row[1])


@dataclass(frozen=True, slots=True)
class Sitting:
    match: Match
    seat: PersonSeat


def sitting(*, session: Session, match_id: int, user_id: int | None) -> Sitting:
    """The user's own seat at match `match_id`; NotFound for anyone else (and for no such match)."""
    row = session.get(PersonSeat, match_id)
    if row is None or user_id is None or row.user_id != user_id:
        raise NotFound(f"no table {match_id} of yours")
    return Sitting(fetch(session, Match, match_id, "match"), row)


def seat_names(*, session: Session, sat: Sitting) -> list[str]:
    """The names at the table in seat order, as the person reads them: the person's user name at
    their seat, each bot by its name ("greedy", not "seat 2"); a name twice gets its owner's."""
    rows = session.exec(select(Seat.seat, Bot.name, User.username).join(Bot, Bot.id == Seat.bot_id)
                        .join(User, User.id == Bot.owner_id).where(Seat.match_id == sat.match.id)
                        .order_by(Seat.seat)).all()
    person = session.get(User, sat.seat.user_id)
    me = person.username if person is not None else "you"
    bots = [name for seat, name, _ in rows if seat != sat.seat.seat]
    names = []
    for seat, name, owner in rows:
        if seat == sat.seat.seat:
            names.append(me)
        else:
            names.append(name if bots.count(name) == 1 and name != me else f"{owner}/{name}")
    return names


def updates(*, relay: Relay, match_id: int, seat: int, after: str, block: float = 0.0) -> list[RelayMessage]:
    """What the worker wrote for the seat since `after` (a relay id the page got from here), waiting
    up to `block` seconds for the first; and the page is there: the worker's absence clock restarts.
    The caller has checked the seat is the user's (`sitting`) and holds no transaction open."""
    relay.publish(topics.seat_up(match_id, seat), {"type": "here"})
    return relay.read(topics.seat_down(match_id, seat), after, limit=MAX_UPDATES, block=block)


def whole_table(*, relay: Relay, match_id: int, seat: int) -> list[RelayMessage]:
    """Everything the worker wrote for the seat (the table page drawn without JavaScript: its log and
    the decision asked), and the page is there. The caller has checked the seat is the user's."""
    relay.publish(topics.seat_up(match_id, seat), {"type": "here"})
    out, after = [], START
    while batch := relay.read(topics.seat_down(match_id, seat), after, limit=MAX_UPDATES):
        out += batch
        after = batch[-1].id
    return out


def current_request(*, relay: Relay, sat: Sitting, after: str, request_id: int) -> dict[str, Any]:
    """The request `request_id` if it is the one the worker waits on: written after `after` and with
    no request, takeover or end after it. Invalid otherwise (an answer too late, or forged)."""
    found = None
    down = topics.seat_down(sat.match.id, sat.seat.seat)
    while True:
        batch = relay.read(down, after, limit=MAX_UPDATES)
        if not batch:
            break
        after = batch[-1].id
        for message in batch:
            kind = message.data.get("type")
            if kind == "request":
                found = message.data if message.data.get("id") == request_id else None
            elif kind in ("takeover", "end", "hello", "restart"):
                found = None
    if found is None:
        raise Invalid("that decision is no longer asked for: the game has moved on")
    return found


def answer(*, relay: Relay, sat: Sitting, after: str, request_id: int, values: Mapping[str, Sequence[str]]) -> Any:
    """Read the submitted form for request `request_id` with the game's form code and hand the
    decision to the worker; Invalid with the form's message when the form is not a legal answer."""
    if len(values) > MAX_ANSWER_FIELDS:
        raise Invalid("too many form fields")
    request = current_request(relay=relay, sat=sat, after=after, request_id=request_id)
    forms = get_game(sat.match.game).part("forms")
    try:
        decision = forms.read(request["observation"], values)
    except FormError as exc:
        raise Invalid(str(exc)) from None
    except (KeyError, ValueError, TypeError, IndexError) as exc:  # a post no form would make: never a 500
        raise Invalid(f"not an answer to this form ({type(exc).__name__})") from None
    relay.publish(topics.seat_up(sat.match.id, sat.seat.seat), {"type": "answer", "id": request_id,
                                                                 "decision": decision})
    return decision


def match_status(*, session: Session, match_id: int) -> str:
    """The match's status, for the seat's poll (the page stops asking once it is over)."""
    return session.get(Match, match_id).status
