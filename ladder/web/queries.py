"""What the pages need that the services do not offer (yet): small reads and the upload use case.

`upload_bot` strings the services together for the form and the API alike: check the package
(workers.build.packaging's pure checks: they read bytes, they never run them), create the bot when it is
new, store the version, queue its validation game. Everything else here is a bounded read.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache

from sqlalchemy import func
from sqlmodel import Session, select

from ladder.config import Settings
from ladder.games import available_games, get_game
from ladder.models import Bot, BotVersion, Match, Rating, User, VersionStatus
from ladder.services import bots as bot_service
from ladder.services import matches as match_service
from ladder.services.common import unit_of_work
from ladder.services.errors import Conflict, Forbidden, Invalid

BOT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")  # as models.BotBase, said in words


@cache
def game_titles() -> dict[str, str]:
    return {name: get_game(name).title for name in sorted(available_games())}


def starter_files() -> list[str]:
    """Per game, the file of the starter bot it names as its fallback: where an author starts."""
    from bots import reference_bot

    out = []
    for name in sorted(available_games()):
        game = get_game(name)
        if reference_bot(name) in game.starter_bots:
            out.append(game.bot_module(reference_bot(name)).replace(".", "/") + ".py")
    return out


@dataclass(frozen=True)
class RuntimeChoice:
    name: str
    title: str
    entry: str
    version: str  # what this machine has, or why it cannot run it
    accepted: bool
    compiled: bool
    build: str | None  # the recipe, run in a copy of the upload inside the sandbox
    run: str


def runtime_choices(accepted: tuple[str, ...] | None) -> list[RuntimeChoice]:
    """The runtime table as the upload page shows it: which entry point picks which runtime, and
    whether this ladder runs it (its operator's list, and what the machine has)."""
    from workers.build import runtimes  # pure: reads dpkg's database, starts nothing

    out = []
    for r in runtimes.RUNTIMES:
        ok, detail = runtimes.available(r)
        allowed = accepted is None or r.name in accepted
        out.append(RuntimeChoice(r.name, r.title, r.entry, detail if ok else "not available here",
                                 ok and allowed, r.compiled, r.build, " ".join(r.run)))
    return out


def check_package(code: bytes, filename: str, accepted_runtimes: tuple[str, ...] | None = None) -> None:
    """Raise ValueError with the author-facing reason when the upload is not a bot package, or
    is one for a runtime this ladder does not run."""
    from workers.build import packaging  # pure: inspects names and sizes; never imports the sandbox

    packaging.check_runtime(packaging.check_bytes(code, filename), accepted_runtimes)


def check_filename(filename: str | None) -> str:
    """The shared file-name rule (workers.build.packaging.check_filename) as an Invalid refusal."""
    from workers.build import packaging

    try:
        packaging.check_filename(filename)
    except packaging.PackagingError as exc:
        raise Invalid(str(exc)) from None
    return filename


@dataclass(frozen=True)
class Upload:
    bot: Bot
    version: BotVersion
    match: Match | None  # the validation game, when it could be queued
    note: str | None = None  # why it was not
    created: bool = True  # False: the same bytes as a version the bot has in play; nothing stored


def _verdict(reason: str | None):
    """A validator for add_version that repeats a package check already made."""
    def validator(_code: bytes, _filename: str) -> None:
        if reason is not None:
            raise ValueError(reason)
    return validator


def upload_bot(
    *, session: Session, settings: Settings, owner_id: int, name: str, game: str, code: bytes,
    filename: str | None, description: str = "", bot_id: int | None = None,
) -> Upload:
    """A new version of the owner's bot `name` for `game` (the bot is created on its first upload).

    Every field is checked before anything is written, and the writes (the bot when new, the
    version, its validation game) are one transaction: a refused upload stores nothing. A brand-new
    bot whose package is refused is not created (Invalid); a further version of an existing bot
    that fails the package check is stored `rejected` with the reason, so the owner sees it in the
    bot's history.
    """
    if game not in game_titles():
        raise Invalid(f"unknown game {game!r}: choose one of {', '.join(game_titles())}")
    if bot_id is None and not BOT_NAME.fullmatch(name or ""):
        raise Invalid("a bot name is 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit")
    if len(description or "") > 2000 or "\x00" in (description or ""):
        raise Invalid("a description has at most 2000 characters and no NUL")
    filename = check_filename(filename)
    if not code:
        raise Invalid("the upload is empty")
    if len(code) > settings.max_upload_bytes:  # callers read at most one byte past the limit
        raise Invalid(f"the upload is too big: a bot may have at most {settings.max_upload_bytes} bytes")
    if bot_id is not None:
        bot = bot_service.get_bot(session=session, bot_id=bot_id)
        if bot.owner_id != owner_id:
            raise Forbidden("only the bot's owner may upload versions")
        if bot.game != game:
            raise Invalid(f"{bot.name!r} plays {bot.game}; this upload was for {game}")
    else:
        bot = session.exec(select(Bot).where(Bot.owner_id == owner_id, Bot.game == game, Bot.name == name)).first()
    if bot is not None and bot.retired:
        raise Invalid("the bot is retired")
    if bot is not None:  # the same file again (a double click, a script re-run) is not a new version
        same = session.exec(select(BotVersion).where(
            BotVersion.bot_id == bot.id, BotVersion.sha256 == hashlib.sha256(code).hexdigest(),
            BotVersion.status.in_((VersionStatus.ACTIVE, VersionStatus.PENDING, VersionStatus.VALIDATING)),
        ).order_by(BotVersion.id.desc())).first()
        if same is not None:
            return Upload(bot, same, None, f"identical to version {same.number}, which is {same.status}: "
                                            "nothing new was stored", created=False)
    try:
        check_package(code, filename, settings.accepted_runtimes)
        reason = None
    except ValueError as exc:
        reason = str(exc) or type(exc).__name__
    if bot is None and reason is not None:
        raise Invalid(reason)
    note = None
    with unit_of_work(session):
        if bot is None:
            bot = bot_service.create_bot(session=session, owner_id=owner_id,
                                         data={"name": name, "game": game, "description": description or ""})
        version = bot_service.add_version(
            session=session, bot_id=bot.id, code=code, filename=filename, validator=_verdict(reason),
            acting_user_id=owner_id, max_bytes=settings.max_upload_bytes, placement_games=settings.placement_games,
        )
        match = None
        if version.status == VersionStatus.PENDING:
            try:
                match = match_service.queue_validation_match(
                    session=session, version_id=version.id, house_username=settings.house_username,
                    sandbox=settings.sandbox_mode)
            except Conflict as exc:  # no starter bots yet: the version waits, stored, for the scheduler
                note = str(exc)
    if match is None:
        return Upload(bot, version, None, note or version.rejection_reason)
    session.refresh(version)
    return Upload(bot, version, match)


def recent_matches(*, session: Session, game: str | None = None, limit: int = 50, before: int | None = None) -> list[
        Match]:
    """The newest matches (of `game`), newest first; `before` pages by id (the primary key index)."""
    query = select(Match).order_by(Match.id.desc()).limit(limit)
    if game is not None:
        query = query.where(Match.game == game)
    if before is not None:
        query = query.where(Match.id < before)
    return list(session.exec(query))


@dataclass(frozen=True)
class OwnedBot:
    bot: Bot
    rating: Rating | None
    active: BotVersion | None
    versions: int


def user_bots(*, session: Session, user_id: int) -> list[OwnedBot]:
    bots = bot_service.list_bots(session=session, owner_id=user_id)
    ids = [b.id for b in bots]
    ratings = {r.bot_id: r for r in session.exec(select(Rating).where(Rating.bot_id.in_(ids)))} if ids else {}
    counts = dict(session.exec(
        select(BotVersion.bot_id, func.count()).where(BotVersion.bot_id.in_(ids)).group_by(BotVersion.bot_id)
    ).all()) if ids else {}
    return [OwnedBot(b, ratings.get(b.id), bot_service.active_version(session=session, bot_id=b.id),
                     counts.get(b.id, 0)) for b in bots]


def challenge_candidates(*, session: Session, bot: Bot, limit: int = 200) -> list[tuple[int, str, str, int]]:
    """(active version id, bot name, owner name, rating) for the game's other active bots, best first."""
    query = (
        select(BotVersion.id, Bot.name, User.username, Rating.rating)
        .join(Bot, Bot.id == BotVersion.bot_id).join(User, User.id == Bot.owner_id)
        .outerjoin(Rating, Rating.bot_id == Bot.id)
        .where(BotVersion.status == VersionStatus.ACTIVE, Bot.game == bot.game, Bot.retired == False,  # noqa: E712
               Bot.id != bot.id)
        .order_by(Rating.rating.desc(), Bot.id).limit(limit)
    )
    return [(vid, name, owner, rating or 0) for vid, name, owner, rating in session.exec(query)]


def user_by_name(*, session: Session, username: str) -> User | None:
    username = username.strip().lower()
    if not 1 <= len(username) <= 32 or "\x00" in username:  # no such user; PostgreSQL refuses NUL in text
        return None
    return session.exec(select(User).where(User.username == username.strip().lower())).first()


def version_of(*, session: Session, version_id: int) -> BotVersion | None:
    return session.get(BotVersion, version_id)
