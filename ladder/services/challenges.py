"""A challenge its owner asks for with a sandboxed bot: the bot page's form and
`POST /api/v1/bots/<id>/challenges` (docs/api.md, "Challenges") are this one use case, with the same
checks and the same limits (ladder/services/limits.py `check_challenge`). A bot played from home
challenges through `ladder connect` instead (ladder/services/outside.py `remote_challenge`)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import Session, select

from ladder.config import Settings
from ladder.models import Bot, BotVersion, Match, Rating, User, VersionStatus
from ladder.services.bots import active_version
from ladder.services.errors import Invalid, NotFound
from ladder.services.limits import check_challenge
from ladder.services.matches import queue_challenge


def challenge(*, session: Session, settings: Settings, user_id: int, bot_id: int, opponents: Sequence[int],
              seed: int | None = None) -> Match:
    """Queue an unranked match of the user's bot `bot_id` (its active version, in seat 0) against the
    active versions `opponents` (in seat order). NotFound for a bot that is not the user's; Invalid
    with the reason for a bot that cannot play; LimitExceeded past the challenge limits."""
    bot = session.get(Bot, bot_id)
    if bot is None or bot.owner_id != user_id:
        raise NotFound(f"you have no bot {bot_id}")
    if bot.retired:
        raise Invalid(f"{bot.name} is retired")
    if bot.remote:
        raise Invalid(f"{bot.name} is played from your machine: challenge with `ladder connect` "
                      "(POST /api/v1/remote/challenges)")
    mine = active_version(session=session, bot_id=bot.id)
    if mine is None:
        raise Invalid(f"{bot.name} has no active version to play with yet: a version becomes active once it "
                      "passes its validation game")
    if mine.id in opponents:
        raise Invalid(f"{bot.name} cannot be its own opponent")
    check_challenge(session=session, settings=settings, user_id=user_id, version_ids=opponents)
    return queue_challenge(session=session, user_id=user_id, version_ids=[mine.id, *opponents], seed=seed,
                           sandbox=settings.sandbox_mode)


def opponent_versions(*, session: Session, bot_ids: Sequence[int]) -> list[int]:
    """The active version of each of these bots, in order; NotFound naming the first that has none
    (or does not exist), Invalid for a bot played from home (nobody answers for its program)."""
    if not bot_ids:
        raise Invalid("name at least one opponent by its bot id")
    found = {bot_id: (version_id, remote) for bot_id, version_id, remote in session.exec(
        select(Bot.id, BotVersion.id, Bot.remote).join(BotVersion, BotVersion.bot_id == Bot.id)
        .where(Bot.id.in_(sorted(set(bot_ids))), BotVersion.status == VersionStatus.ACTIVE,
               Bot.retired == False))}  # noqa: E712
    versions = []
    for bot_id in bot_ids:
        if bot_id not in found:
            raise NotFound(f"no active bot {bot_id}")
        version_id, remote = found[bot_id]
        if remote:
            raise Invalid(f"bot {bot_id} is played from its owner's machine: challenges seat sandboxed opponents")
        versions.append(version_id)
    return versions


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
