"""A bot's data folder in the JSON API, for its owner's token only: `GET` the latest version as a
zip, `PUT` a zip to replace it, `DELETE` to reset it (docs/bots.md, "Bot data"; described in
ladder/web/api/openapi.py). Anyone else, token or not, gets 404, as on the site."""

from __future__ import annotations

from flask import jsonify, request

from ladder.services import botdata
from ladder.web.api.common import error, token_user
from ladder.web.bot_data import zip_response
from ladder.web.common import db, settings, store

ZIP_OVERHEAD = 1 << 20  # a zip of incompressible files is a little larger than the files


def _info(bot_id: int, user_id: int) -> dict:
    info = botdata.info(session=db(), bot_id=bot_id, user_id=user_id, cap=settings().bot_data_cap)
    return {"bot_id": bot_id, "version": info.version, "size": info.size, "files": info.files,
            "note": info.note, "note_at": info.note_at.isoformat() if info.note_at else None,
            "cap": {"bytes": info.cap.max_bytes, "files": info.cap.max_files}}


def bot_data(bot_id: int):
    version, data = botdata.download(session=db(), bot_id=bot_id, user_id=token_user().id, store=store())
    return zip_response(bot_id, version, data)


def replace_bot_data(bot_id: int):
    user = token_user("upload")
    cap = settings().bot_data_cap
    request.max_content_length = cap.max_bytes + ZIP_OVERHEAD  # this body may be larger than a bot
    data = request.get_data(cache=False)
    if not data:
        return error(400, "send the folder as a zip in the request body (Content-Type: application/zip)")
    botdata.replace(session=db(), bot_id=bot_id, user_id=user.id, data=data, cap=cap, store=store())
    return jsonify(_info(bot_id, user.id))


def reset_bot_data(bot_id: int):
    user = token_user("upload")
    botdata.reset(session=db(), bot_id=bot_id, user_id=user.id, cap=settings().bot_data_cap, store=store())
    return jsonify(_info(bot_id, user.id))
