"""The upload use case: a new bot, or a new version of one, from the web form or the API.

One package check (ladder/bot/packages.py check_package: one set of messages, one size limit, the
settings' `max_upload_bytes`), whose result is handed on to be stored, then the writes as one
transaction: the bot when it is new, the version, its
validation game. The views translate form fields and errors; `ladder match` and the workers'
staging apply the same rules to files (workers/build/packaging.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from ladder.bot import packages as rules
from ladder.bot.packages import PackagingError
from ladder.config import Settings
from ladder.games import available_games
from ladder.models import Bot, BotVersion, Match, VersionStatus
from ladder.services import bots as bot_service
from ladder.services import matches as match_service
from ladder.services import names
from ladder.services.common import unit_of_work
from ladder.services.errors import Conflict, Forbidden, Invalid
from ladder.services.seasons import frozen_message


@dataclass(frozen=True)
class Upload:
    bot: Bot
    version: BotVersion
    match: Match | None  # the validation game, when it could be queued
    note: str | None = None  # why it was not
    created: bool = True  # False: the same bytes as a version the bot has in play; nothing stored


def upload_bot(
    *, session: Session, settings: Settings, owner_id: int, name: str, game: str, code: bytes,
    filename: str | None, description: str = "", bot: Bot | None = None,
) -> Upload:
    """A new version of the owner's bot `name` for `game` (the bot is created on its first upload),
    or of `bot`, which the caller has read already (a further version).

    Every field is checked before anything is written (the name and description by the model's own
    rules, models.BotBase), the package once (bot.packages.check_package: its envelope, its one zip
    opening), and the checked package is what is stored; the writes (the bot when new, the version,
    its validation game) are one transaction: a refused upload stores nothing. A brand-new bot whose
    package is refused is not created (Invalid); a further version of an existing bot that fails the
    package check is stored `rejected` with the reason, so the owner sees it in the bot's history.
    """
    if game not in available_games():
        raise Invalid(f"unknown game {game!r}: choose one of {', '.join(sorted(available_games()))}")
    if (frozen := frozen_message(session=session, game=game)) is not None:  # a season's final is on
        raise Conflict(frozen)
    if bot is None:
        fields = bot_service.checked_bot_fields({"name": name, "game": game, "description": description or ""})
    try:  # the name and the size are refused outright, nothing stored (callers read at most limit + 1 bytes)
        package = rules.check_package(code, filename, settings.max_upload_bytes, settings.accepted_runtimes)
    except PackagingError as exc:
        raise Invalid(str(exc)) from None
    if bot is not None:
        if bot.owner_id != owner_id:
            raise Forbidden("only the bot's owner may upload versions")
        if bot.game != game:
            raise Invalid(f"{bot.name!r} plays {bot.game}; this upload was for {game}")
    else:
        bot = session.exec(select(Bot).where(Bot.owner_id == owner_id, Bot.game == game,
                                             Bot.name == fields.name)).first()
    if bot is not None and bot.retired:
        raise Invalid("the bot is retired")
    if bot is None and (refused := names.refusal(fields.name, settings.name_deny_list)) is not None:
        raise Invalid(refused)  # a new bot's name only: a name a moderator gave stays allowed
    if bot is not None:  # the same file again (a double click, a script re-run) is not a new version
        same = session.exec(select(BotVersion).where(
            BotVersion.bot_id == bot.id, BotVersion.sha256 == package.sha256,
            BotVersion.status.in_((VersionStatus.ACTIVE, VersionStatus.PENDING, VersionStatus.VALIDATING)),
        ).order_by(BotVersion.id.desc())).first()
        if same is not None:
            return Upload(bot, same, None, f"identical to version {same.number}, which is {same.status}: "
                                            "nothing new was stored", created=False)
    if bot is None and package.refusal is not None:
        raise Invalid(package.refusal)
    note = None
    with unit_of_work(session):
        if bot is None:
            bot = bot_service.create_bot(session=session, owner_id=owner_id, data=fields)
        version = bot_service.store_version(session=session, bot=bot, package=package, acting_user_id=owner_id,
                                            placement_games=settings.placement_games)
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
