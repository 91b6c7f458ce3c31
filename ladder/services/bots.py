"""Bots and their versions: create, upload a version, activate or reject it, retire; starter bots.

A version is immutable once stored. Its life: `pending` (stored) -> `validating` (its validation
game is queued) -> `active` (plays on the ladder; the bot's previous active version retires) or
`rejected` (with the reason shown to the owner); any version can be `retired` by its owner.

The packaging checks (archive layout, sizes, entry point) belong to the sandbox/runner side: pass
them in as `validator`, a callable that raises ValueError with a one-line reason.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import ValidationError
from sqlalchemy import func
from sqlalchemy.orm import defer
from sqlmodel import Session, select

from bots import builtin_bots
from ladder.bot.packages import MAX_UPLOAD_BYTES, CheckedPackage, PackagingError, check_envelope, runtime_of
from ladder.games import GAMES
from ladder.models import Bot, BotCreate, BotVersion, Rating, VersionStatus
from ladder.services.common import atomic, fetch
from ladder.services.errors import Forbidden, Invalid
from ladder.services.ratings import take_rating_clock
from ladder.services.users import ensure_system_user

DEFAULT_PLACEMENT_GAMES = 10

Validator = Callable[[bytes, str], object]  # (code, filename) -> anything; raises ValueError(reason)


def _own(bot: Bot, acting_user_id: int | None) -> None:
    if acting_user_id is not None and bot.owner_id != acting_user_id:
        raise Forbidden("only the bot's owner may do this")


def checked_bot_fields(data: BotCreate | dict) -> BotCreate:
    """A bot's fields checked by the model's own rules (models.BotBase), before anything is written;
    Invalid says each broken rule in words (the form, the API and the CLI give the same errors)."""
    try:
        return BotCreate.model_validate(data if isinstance(data, dict) else data.model_dump())
    except ValidationError as exc:
        broken = dict.fromkeys(str(e["loc"][0]) if e["loc"] else "" for e in exc.errors())
        raise Invalid("; ".join(BotCreate.RULES.get(field, f"{field}: not valid") for field in broken)) from None


def create_bot(*, session: Session, owner_id: int, data: BotCreate | dict) -> Bot:
    """A new bot for `owner_id`; Invalid for a bad name or unknown game, Conflict when taken."""
    data = checked_bot_fields(data)
    if data.game not in GAMES:
        raise Invalid(f"unknown game {data.game!r} (known: {', '.join(sorted(GAMES))})")
    bot = Bot(owner_id=owner_id, name=data.name, game=data.game, description=data.description)
    taken = f"you already have a {data.game} bot named {data.name!r}"
    with atomic(session, conflict=taken):
        session.add(bot)
    return bot


def get_bot(*, session: Session, bot_id: int) -> Bot:
    return fetch(session, Bot, bot_id, "bot")


def list_bots(*, session: Session, owner_id: int, include_retired: bool = True) -> list[Bot]:
    query = select(Bot).where(Bot.owner_id == owner_id)
    if not include_retired:
        query = query.where(Bot.retired == False)  # noqa: E712 (SQL comparison)
    return list(session.exec(query.order_by(Bot.game, Bot.name)))


def list_versions(*, session: Session, bot_id: int) -> list[BotVersion]:
    """A bot's versions, newest first, without loading their code."""
    query = select(BotVersion).options(defer(BotVersion.code)).where(BotVersion.bot_id == bot_id)
    return list(session.exec(query.order_by(BotVersion.number.desc())))


def active_version(*, session: Session, bot_id: int) -> BotVersion | None:
    query = select(BotVersion).where(BotVersion.bot_id == bot_id, BotVersion.status == VersionStatus.ACTIVE)
    return session.exec(query).first()


def add_version(
    *,
    session: Session,
    bot_id: int,
    code: bytes,
    filename: str,
    validator: Validator | None = None,
    acting_user_id: int | None = None,
    max_bytes: int = MAX_UPLOAD_BYTES,
    placement_games: int = DEFAULT_PLACEMENT_GAMES,
) -> BotVersion:
    """Store a new version of `bot_id` as `pending`, or as `rejected` when `validator` refuses it:
    the house bots' and the tools' way in (an upload is checked once and stored by store_version).

    Either way the version is kept, so the owner sees the reason next to the upload. Invalid when
    the upload is empty or larger than `max_bytes` (nothing is stored then).
    """
    try:
        check_envelope(len(code), filename, max_bytes)
    except PackagingError as exc:
        raise Invalid(str(exc)) from None
    bot = get_bot(session=session, bot_id=bot_id)
    _check_bot_open(bot, acting_user_id)  # before any validation work
    reason = None
    if validator is not None:  # outside the transaction: validation may take a while
        try:
            validator(code, filename)
        except ValueError as exc:
            reason = str(exc) or type(exc).__name__
    runtime = runtime_of(code, filename)
    package = CheckedPackage(code, filename, None, runtime, reason)
    return store_version(session=session, bot=bot, package=package, acting_user_id=acting_user_id,
                         placement_games=placement_games)


def store_version(*, session: Session, bot: Bot, package: CheckedPackage, acting_user_id: int | None = None,
                  placement_games: int = DEFAULT_PLACEMENT_GAMES) -> BotVersion:
    """Store `package` as the next version of `bot`: `pending`, or `rejected` with the package's
    refusal. The package was checked once by its caller; the bot is locked, not read again."""
    with atomic(session, conflict="another upload of this bot happened at the same time; retry"):
        # lock the bot row (PostgreSQL; SQLite holds its write lock already) so numbers do not collide
        query = select(Bot).where(Bot.id == bot.id).with_for_update()
        locked = session.exec(query.execution_options(populate_existing=True)).one()
        _check_bot_open(locked, acting_user_id)
        last = session.exec(select(func.max(BotVersion.number)).where(BotVersion.bot_id == bot.id)).one()
        version = BotVersion(
            bot_id=bot.id, number=(last or 0) + 1, filename=package.filename, code=bytes(package.code),
            sha256=package.sha256, size=len(package.code),
            status=VersionStatus.PENDING if package.refusal is None else VersionStatus.REJECTED,
            rejection_reason=package.refusal, placement_owed=placement_games, runtime=package.runtime,
        )
        session.add(version)
    return version


def _check_bot_open(bot: Bot, acting_user_id: int | None) -> None:
    _own(bot, acting_user_id)
    if bot.retired:
        raise Invalid("the bot is retired")


def activate(session: Session, version: BotVersion) -> None:
    """Make `version` its bot's active version, retiring the previous one (no commit: the caller's
    transaction, e.g. recording the validation game, decides)."""
    for other in session.exec(
        select(BotVersion).where(BotVersion.bot_id == version.bot_id, BotVersion.status == VersionStatus.ACTIVE)
    ):
        if other.id != version.id:
            other.status = VersionStatus.RETIRED
            session.add(other)
    version.status = VersionStatus.ACTIVE
    version.rejection_reason = None
    session.add(version)
    bot = session.get(Bot, version.bot_id)
    if session.get(Rating, version.bot_id) is None:  # on the leaderboard from now on
        session.add(Rating(bot_id=version.bot_id, game=bot.game))


def activate_version(*, session: Session, version_id: int) -> BotVersion:
    version = fetch(session, BotVersion, version_id, "bot version")
    with atomic(session):
        take_rating_clock(session)  # rating rows are created under the clock, like every rating write
        activate(session, version)
    return version


def reject_version(*, session: Session, version_id: int, reason: str) -> BotVersion:
    version = fetch(session, BotVersion, version_id, "bot version")
    with atomic(session):
        version.status = VersionStatus.REJECTED
        version.rejection_reason = reason
        session.add(version)
    return version


def retire_version(*, session: Session, version_id: int, acting_user_id: int | None = None) -> BotVersion:
    version = fetch(session, BotVersion, version_id, "bot version")
    _own(fetch(session, Bot, version.bot_id, "bot"), acting_user_id)
    with atomic(session):
        version.status = VersionStatus.RETIRED
        session.add(version)
    return version


def retire_bot(*, session: Session, bot_id: int, acting_user_id: int | None = None) -> Bot:
    """Take a bot off the ladder for good: its active version retires, its history stays."""
    bot = fetch(session, Bot, bot_id, "bot")
    _own(bot, acting_user_id)
    with atomic(session):
        bot.retired = True
        session.add(bot)
        for version in session.exec(select(BotVersion).where(BotVersion.bot_id == bot_id)):
            if version.status in (VersionStatus.ACTIVE, VersionStatus.PENDING, VersionStatus.VALIDATING):
                version.status = VersionStatus.RETIRED
                session.add(version)
    return bot


def seed_house_bots(*, session: Session, username: str = "house", games: list[str] | None = None) -> list[Bot]:
    """The starter bots (each game's `starter_bots`) as active bots of the system user; safe to run at every start.

    A starter bot whose source file changed gets a new active version, so the ladder plays the
    code that ships. House versions owe no placement games: they are the reference points.
    """
    house = ensure_system_user(session=session, username=username)
    seeded = []
    for (game, name), module in sorted(builtin_bots().items()):
        if game not in GAMES or (games is not None and game not in games):
            continue
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            continue
        with open(spec.origin, "rb") as fh:
            code = fh.read()
        bot = session.exec(select(Bot).where(Bot.owner_id == house.id, Bot.game == game, Bot.name == name)).first()
        if bot is None:
            doc = (importlib.import_module(module).__doc__ or "").strip().splitlines()
            bot = Bot(owner_id=house.id, game=game, name=name, builtin=name,
                      description=doc[0] if doc else f"starter bot {name}")
            with atomic(session, conflict="the starter bots are being seeded concurrently; retry"):
                session.add(bot)
        current = active_version(session=session, bot_id=bot.id)
        if current is None or current.sha256 != hashlib.sha256(code).hexdigest():
            version = add_version(session=session, bot_id=bot.id, code=code, filename=f"{module.split('.')[-1]}.py",
                                  placement_games=0)
            activate_version(session=session, version_id=version.id)
        seeded.append(bot)
    return seeded


def version_of(*, session: Session, version_id: int) -> BotVersion | None:
    return session.get(BotVersion, version_id)


@dataclass(frozen=True)
class OwnedBot:
    bot: Bot
    rating: Rating | None
    active: BotVersion | None
    versions: int


def user_bots(*, session: Session, user_id: int) -> list[OwnedBot]:
    """A user's bots, each with its rating, active version and number of versions (their page, /me)."""
    bots = list_bots(session=session, owner_id=user_id)
    ids = [b.id for b in bots]
    ratings = {r.bot_id: r for r in session.exec(select(Rating).where(Rating.bot_id.in_(ids)))} if ids else {}
    counts = dict(session.exec(
        select(BotVersion.bot_id, func.count()).where(BotVersion.bot_id.in_(ids)).group_by(BotVersion.bot_id)
    ).all()) if ids else {}
    return [OwnedBot(b, ratings.get(b.id), active_version(session=session, bot_id=b.id), counts.get(b.id, 0))
            for b in bots]
