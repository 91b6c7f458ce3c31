"""Bots in the JSON API: a bot's page as JSON, its versions, the token owner's bots, and uploads
(a new bot, or a new version of one) through the site's own use case (ladder/services/uploads.py)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from flask import g, jsonify, request, url_for

from ladder.models import BotPublic, BotVersionPublic, UserPublic
from ladder.ranking.ratings import to_points
from ladder.services import bots as bot_service
from ladder.services import pages
from ladder.services.builds import build_logs
from ladder.services.errors import NotFound
from ladder.services.leagues import bot_league
from ladder.services.limits import check_upload
from ladder.services.rejections import rejection_causes
from ladder.services.uploads import upload_bot
from ladder.web.api.common import dump, error, reader_id, sureness, token_user
from ladder.web.api.leagues import bot_league_json
from ladder.web.common import db, dispatch, settings


def _versions(versions: list, owner_id: int) -> list[dict[str, Any]]:
    """Versions as JSON. Why one was rejected is its owner's (as on the bot's web page): others get
    `rejection_reason` null; with the owner's token, a rejected one also carries `cause`, the end of
    its validation game's stderr (the bot's log is its owner's, so nobody else gets it), and a built
    one `build`, the compiler's output."""
    viewer = g.get("api_user")
    mine = viewer is not None and viewer.id == owner_id
    causes = rejection_causes(session=db(), versions=versions, owner_id=owner_id,
                              viewer_id=reader_id() if viewer is not None else None)
    built = build_logs(session=db(), versions=versions) if mine and reader_id() is not None else {}
    return [{**dump(BotVersionPublic, v), **({} if mine else {"rejection_reason": None}),
             **({"cause": causes[v.id]} if v.id in causes else {}),
             **({"build": asdict(built[v.id])} if v.id in built else {})} for v in versions]


def bot(bot_id: int):
    data = pages.bot_page(session=db(), bot_id=bot_id, history=50, recent=20)
    rating = data.rating
    return jsonify(
        bot=dump(BotPublic, data.bot), owner=data.owner.username,
        rating=None if rating is None else {"rating": to_points(rating.rating), "games": rating.games,
                                            "wins": rating.wins, **sureness(rating.deviation)},
        versions=_versions(data.versions, data.bot.owner_id),
        history=[{"match_id": p.match_id, "before": to_points(p.before), "after": to_points(p.after),
                  "at": p.at.isoformat()} for p in data.history],
        recent_matches=[{"match_id": r.match.id, "kind": r.match.kind, "status": r.match.status,
                         "rank": r.seat.rank, "score": r.seat.score, "seats": r.seats} for r in data.recent],
        head_to_head=[{"opponent_id": h.opponent_id, "opponent": h.opponent_name, "meetings": h.meetings,
                       "wins": h.wins, "losses": h.losses, "ties": h.ties} for h in data.head_to_head],
        boss=None if data.boss is None else {
            "bot_id": data.boss.boss_id, "bot": data.boss.boss_name, "meetings": data.boss.meetings,
            "above": data.boss.above, "below": data.boss.below, "ties": data.boss.ties, "beaten": data.boss.beaten},
        league=bot_league_json(bot_league(session=db(), bot=data.bot, names=settings().leagues)),
    )


def versions(bot_id: int):
    bot = bot_service.get_bot(session=db(), bot_id=bot_id)
    return jsonify(versions=_versions(bot_service.list_versions(session=db(), bot_id=bot_id), bot.owner_id))


def version(version_id: int):
    row = bot_service.version_of(session=db(), version_id=version_id)
    if row is None:
        raise NotFound(f"no bot version {version_id}")
    return jsonify(version=_versions([row], bot_service.get_bot(session=db(), bot_id=row.bot_id).owner_id)[0])


def me():
    user = token_user()
    owned = bot_service.user_bots(session=db(), user_id=user.id)
    # the rating stays a number (what clients read since /me began), its +- beside it, null until rated
    return jsonify(user=dump(UserPublic, user), bots=[
        {**dump(BotPublic, b.bot), "rating": to_points(b.rating.rating) if b.rating else None,
         **(sureness(b.rating.deviation) if b.rating else dict.fromkeys(("deviation", "plus_minus", "uncertain"))),
         "active_version": b.active.number if b.active else None} for b in owned])


def _upload(bot_id: int | None):
    user = token_user("upload")
    check_upload(session=db(), settings=settings(), user_id=user.id)
    file = request.files.get("file")
    if file is None:
        return error(400, "send the bot as a multipart form field named 'file'")
    name, game = request.form.get("name", "").strip(), request.form.get("game", "").strip()
    existing = bot_service.get_bot(session=db(), bot_id=bot_id) if bot_id is not None else None
    if existing is not None:
        name, game = existing.name, game or existing.game
    if not game:  # a missing or bad name is the model's to say (services/uploads.py), as on the form
        return error(400, "the form needs a 'game' field")
    result = upload_bot(session=db(), settings=settings(), owner_id=user.id, name=name, game=game,
                        code=file.stream.read(settings().max_upload_bytes + 1), filename=file.filename,
                        description=request.form.get("description", ""), bot=existing)
    if result.match is not None:
        dispatch([result.match.id])
    status = 200 if not result.created else 422 if result.version.status == "rejected" else 201
    return jsonify(
        bot=dump(BotPublic, result.bot), version=dump(BotVersionPublic, result.version),
        validation_match=result.match.id if result.match else None, note=result.note,
        url=url_for("bots.page", bot_id=result.bot.id, _external=True),
    ), status


def upload():
    """Upload a bot (a new bot, or a new version of your bot with that name and game)."""
    return _upload(None)


def upload_version(bot_id: int):
    return _upload(bot_id)
