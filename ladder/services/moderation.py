"""Moderator actions: what an admin (on the site) or the operator (`ladder admin`) may do to any
bot, version, user or replay. Each is one transaction with its audit log entry (services/audit.py).

Names: a bot or a user is renamed in its row, and every page reads the row; replays store the
names of their day and are served with the current ones (services/replay_names.py), and the
dumps read the rows too. A hidden name is a rename to "hidden-<id>" that the owner cannot undo.
A suspension (with an end, or for good) or a ban (for good, and the sign-up addresses refused:
services/signups.py) ends the user's log-ins, API tokens, remote seats and lobby places at once,
keeps the user from logging in (the reason is shown to them) and their bots out of new matches.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, delete, select

from ladder.models import (
    Bot,
    BotCreate,
    BotVersion,
    LobbyEntry,
    LoginSession,
    Replay,
    SeatConnection,
    User,
    UserBase,
    VersionStatus,
    utcnow,
)
from ladder.services import bots, signups, tokens
from ladder.services.audit import Actor, clean_reason, record
from ladder.services.common import fetch, unit_of_work
from ladder.services.errors import Conflict, Invalid, NotFound
from ladder.services.users import get_user_by_name, suspension_notice

__all__ = ["suspension_notice"]  # the log-in's check, kept with the accounts (services/users.py)

BOT_ACTIONS = ("disable", "enable", "retire")
HIDDEN_PREFIX = "hidden-"


def user_by_name(session: Session, username: str) -> User:
    user = get_user_by_name(session=session, username=username)
    if user is None:
        raise NotFound(f"no user {username!r}")
    return user


def set_bot_state(*, session: Session, actor: Actor, bot_id: int, action: str, reason: str) -> Bot:
    """disable (out of every new match until enabled again: its owner cannot), enable, or retire
    (for good: its live versions retire, its history stays)."""
    reason = clean_reason(reason)
    if action not in BOT_ACTIONS:
        raise Invalid(f"action must be one of {', '.join(BOT_ACTIONS)}")
    with unit_of_work(session):
        bot = fetch(session, Bot, bot_id, "bot")
        if action == "retire":
            bots.retire_bot(session=session, bot_id=bot_id)  # the owner's retirement, for any bot
        else:
            bot.disabled = action == "disable"
            session.add(bot)
        record(session, actor, f"{action}_bot", "bot", bot.id, reason, name=bot.name)
    return bot


def retire_version(*, session: Session, actor: Actor, version_id: int, reason: str) -> BotVersion:
    """Retire any version (a moderator's disable: a retired version never plays again)."""
    reason = clean_reason(reason)
    with unit_of_work(session):
        version = fetch(session, BotVersion, version_id, "bot version")
        before = version.status
        version.status = VersionStatus.RETIRED
        session.add(version)
        record(session, actor, "retire_version", "version", version.id, reason, bot_id=version.bot_id,
               number=version.number, status_before=before)
    return version


def rename_bot(*, session: Session, actor: Actor, bot_id: int, name: str, reason: str) -> Bot:
    reason = clean_reason(reason)
    bot = fetch(session, Bot, bot_id, "bot")
    name = _bot_name(bot, name)
    return _rename_bot(session, actor, bot, name, reason, hidden=False)


def hide_bot_name(*, session: Session, actor: Actor, bot_id: int, reason: str) -> Bot:
    reason = clean_reason(reason)
    bot = fetch(session, Bot, bot_id, "bot")
    return _rename_bot(session, actor, bot, f"{HIDDEN_PREFIX}{bot.id}", reason, hidden=True)


def _bot_name(bot: Bot, name: str) -> str:
    try:
        name = BotCreate.model_validate({"name": (name or "").strip(), "game": bot.game}).name
    except ValueError:
        raise Invalid("a bot name is 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit") \
            from None
    return name  # a moderator's choice: not held to the deny list


def _rename_bot(session: Session, actor: Actor, bot: Bot, name: str, reason: str, *, hidden: bool) -> Bot:
    taken = session.exec(select(Bot.id).where(Bot.owner_id == bot.owner_id, Bot.game == bot.game,
                                              Bot.name == name, Bot.id != bot.id)).first()
    if taken is not None:
        raise Conflict(f"the owner already has a {bot.game} bot named {name!r}")
    with unit_of_work(session):
        old = bot.name
        bot.name, bot.name_hidden = name, hidden
        session.add(bot)
        record(session, actor, "hide_bot_name" if hidden else "rename_bot", "bot", bot.id, reason,
               old_name=old, new_name=name)
    return bot


def rename_user(*, session: Session, actor: Actor, user_id: int, username: str, reason: str) -> User:
    reason = clean_reason(reason)
    user = fetch(session, User, user_id, "user")
    try:
        username = UserBase.model_validate({"username": username or ""}).username
    except ValueError:
        raise Invalid("a user name is 3 to 32 lower-case letters, digits, '_' or '-'") from None
    return _rename_user(session, actor, user, username, reason, hidden=False)


def hide_user_name(*, session: Session, actor: Actor, user_id: int, reason: str) -> User:
    """The user's name becomes "hidden-<id>" everywhere, their log-in name too (they are told)."""
    reason = clean_reason(reason)
    user = fetch(session, User, user_id, "user")
    return _rename_user(session, actor, user, f"{HIDDEN_PREFIX}{user.id}", reason, hidden=True)


def _rename_user(session: Session, actor: Actor, user: User, username: str, reason: str, *, hidden: bool) -> User:
    if user.is_system:
        raise Invalid("the system user keeps its name (LADDER_HOUSE_USERNAME)")
    if session.exec(select(User.id).where(User.username == username, User.id != user.id)).first() is not None:
        raise Conflict(f"the name {username!r} is taken")
    with unit_of_work(session):
        old = user.username
        user.username, user.name_hidden = username, hidden
        session.add(user)
        record(session, actor, "hide_user_name" if hidden else "rename_user", "user", user.id, reason,
               old_name=old, new_name=username)
    return user


def suspend_user(*, session: Session, actor: Actor, user_id: int, reason: str, until: datetime | None = None,
                 ban: bool = False, now: datetime | None = None) -> User:
    """Suspend the user until `until` (None: for good); a ban is a suspension whose sign-up
    addresses are refused as long as it lasts (until `until`, or for good). Ends every log-in, API
    token, remote seat and lobby place of the user in the same transaction."""
    reason = clean_reason(reason)
    now = now or utcnow()
    if until is not None and until <= now:
        raise Invalid("the end of a suspension must be in the future")
    with unit_of_work(session):
        user = fetch(session, User, user_id, "user")
        if user.is_system or user.is_admin:
            raise Invalid(f"{user.username!r} is {'the system user' if user.is_system else 'an admin'}: "
                          "revoke the admin role first")
        user.suspended, user.suspended_until, user.suspension_reason = True, until, reason
        session.add(user)
        session.exec(delete(LoginSession).where(LoginSession.user_id == user.id))
        tokens.revoke_all(session=session, user_id=user.id)  # main's: joins this transaction
        seats = session.exec(delete(SeatConnection).where(SeatConnection.user_id == user.id)).rowcount
        lobby = session.exec(delete(LobbyEntry).where(LobbyEntry.user_id == user.id)).rowcount
        banned = signups.ban_addresses(session=session, user_id=user.id, until=until) if ban else 0
        record(session, actor, "ban_user" if ban else "suspend_user", "user", user.id, reason,
               username=user.username, until=until.isoformat() if until else None, seats_closed=seats,
               lobby_places=lobby, addresses_banned=banned)
    return user


def lift_suspension(*, session: Session, actor: Actor, user_id: int, reason: str) -> User:
    """End a suspension or ban now (and the ban on the user's addresses)."""
    reason = clean_reason(reason)
    with unit_of_work(session):
        user = fetch(session, User, user_id, "user")
        if not user.suspended:
            raise Invalid(f"{user.username!r} is not suspended")
        user.suspended, user.suspended_until, user.suspension_reason = False, None, None
        session.add(user)
        lifted = signups.lift_bans(session=session, user_id=user.id)
        record(session, actor, "lift_suspension", "user", user.id, reason, addresses_unbanned=lifted)
    return user


def set_replay_hidden(*, session: Session, actor: Actor, match_id: int, hidden: bool, reason: str) -> Replay:
    """Take a replay out of public view (only admins read it then), or put it back."""
    reason = clean_reason(reason)
    with unit_of_work(session):
        replay = session.get(Replay, match_id)
        if replay is None:
            raise NotFound(f"match {match_id} has no replay")
        replay.hidden = hidden
        session.add(replay)
        record(session, actor, "hide_replay" if hidden else "show_replay", "replay", match_id, reason)
    return replay
