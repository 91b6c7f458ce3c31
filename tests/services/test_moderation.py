"""Moderator actions: each one transaction with its audit entry; suspensions end every way in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import func, select

from ladder.models import (
    ApiToken,
    Bot,
    LobbyEntry,
    LoginSession,
    ModerationAction,
    Replay,
    SeatConnection,
    utcnow,
)
from ladder.services import logins, matches, moderation, tokens
from ladder.services.audit import Actor
from ladder.services.errors import Conflict, Invalid
from ladder.services.users import suspension_notice

MOD = Actor("mod", None)


def _actions(session) -> list[tuple[str, str, int | None]]:
    return [(a.action, a.target_kind, a.target_id) for a in session.exec(select(ModerationAction).order_by(
        ModerationAction.id))]


def test_a_disabled_bot_leaves_the_matchmaking_pool_until_enabled(world, session):
    bot, version = world.bot()
    pool = {c.bot for c in matches.matchmaking_pool(session=session, game="treasure").candidates}
    assert version.id in pool
    moderation.set_bot_state(session=session, actor=MOD, bot_id=bot.id, action="disable", reason="rude")
    assert version.id not in {c.bot for c in matches.matchmaking_pool(session=session, game="treasure").candidates}
    moderation.set_bot_state(session=session, actor=MOD, bot_id=bot.id, action="enable", reason="fixed")
    assert version.id in {c.bot for c in matches.matchmaking_pool(session=session, game="treasure").candidates}
    moderation.set_bot_state(session=session, actor=MOD, bot_id=bot.id, action="retire", reason="gone")
    session.refresh(version)
    assert version.status == "retired" and session.get(Bot, bot.id).retired
    assert _actions(session) == [("disable_bot", "bot", bot.id), ("enable_bot", "bot", bot.id),
                                 ("retire_bot", "bot", bot.id)]
    with pytest.raises(Invalid, match="action must be"):
        moderation.set_bot_state(session=session, actor=MOD, bot_id=bot.id, action="explode", reason="x")


def test_rename_and_hide_names_are_logged_with_the_old_name(world, session):
    owner = world.user("nasty")
    bot, _ = world.bot(owner=owner, name="BadName")
    world.bot(owner=owner, name="Taken")
    with pytest.raises(Conflict):
        moderation.rename_bot(session=session, actor=MOD, bot_id=bot.id, name="Taken", reason="x")
    with pytest.raises(Invalid, match="a bot name"):
        moderation.rename_bot(session=session, actor=MOD, bot_id=bot.id, name="no spaces", reason="x")
    assert moderation.rename_bot(session=session, actor=MOD, bot_id=bot.id, name="Fine", reason="x").name == "Fine"
    hidden = moderation.hide_bot_name(session=session, actor=MOD, bot_id=bot.id, reason="y")
    assert (hidden.name, hidden.name_hidden) == (f"hidden-{bot.id}", True)
    user = moderation.hide_user_name(session=session, actor=MOD, user_id=owner.id, reason="z")
    assert user.username == f"hidden-{owner.id}"
    log = session.exec(select(ModerationAction).order_by(ModerationAction.id)).all()
    assert [(e.action, e.details["old_name"]) for e in log] == [
        ("rename_bot", "BadName"), ("hide_bot_name", "Fine"), ("hide_user_name", "nasty")]


def test_suspension_ends_log_ins_tokens_seats_and_lobby_places_and_shows_the_reason(world, session):
    user = world.user()
    bot, version = world.bot(owner=user)
    logins.start(session=session, user_id=user.id, remember=False, days=1)
    tokens.create(session=session, user_id=user.id, name="t", scopes=["read"])
    match = matches.queue_match(session=session, game="treasure", seats=[version.id, world.bot()[1].id])
    session.add(SeatConnection(match_id=match.id, seat=0, conn="c", user_id=user.id, address="a", transport="ws",
                               expires_at=utcnow() + timedelta(minutes=1)))
    session.add(LobbyEntry(bot_id=bot.id, user_id=user.id, game="treasure", address="a", waiting=True))
    session.commit()
    until = utcnow() + timedelta(days=3)
    moderation.suspend_user(session=session, actor=MOD, user_id=user.id, reason="farming", until=until)
    for model in (LoginSession, ApiToken, SeatConnection, LobbyEntry):
        assert session.exec(select(func.count()).select_from(model)).one() == 0, model
    assert "until" in suspension_notice(user) and "farming" in suspension_notice(user)
    assert version.id not in {c.bot for c in matches.matchmaking_pool(session=session, game="treasure").candidates}
    assert suspension_notice(user, now=until + timedelta(seconds=1)) is None  # it ends by itself
    with pytest.raises(Invalid, match="future"):
        moderation.suspend_user(session=session, actor=MOD, user_id=user.id, reason="x", until=utcnow())
    moderation.lift_suspension(session=session, actor=MOD, user_id=user.id, reason="appeal")
    assert suspension_notice(user) is None
    [suspend, lift] = session.exec(select(ModerationAction).order_by(ModerationAction.id)).all()
    assert (suspend.details["seats_closed"], suspend.details["lobby_places"]) == (1, 1)
    assert lift.action == "lift_suspension"


def test_admins_are_not_suspended_and_a_replay_can_be_hidden(world, session):
    admin = world.user(admin=True)
    with pytest.raises(Invalid, match="admin"):
        moderation.suspend_user(session=session, actor=MOD, user_id=admin.id, reason="x")
    versions = [world.bot()[1].id for _ in range(2)]
    match = world.play(versions, [1, 2])
    session.add(Replay(match_id=match.id, data=b"", size=0))
    session.commit()
    assert moderation.set_replay_hidden(session=session, actor=MOD, match_id=match.id, hidden=True,
                                        reason="spoiler").hidden
    assert _actions(session)[-1] == ("hide_replay", "replay", match.id)
