"""The moderators' JSON API (an admin's token with the read scope; a 404 for anyone else): the
audit log and the collusion report."""

from __future__ import annotations

from flask import abort, jsonify, url_for

from ladder.services import audit
from ladder.services import collusion as collusion_service
from ladder.web.api.common import token_user
from ladder.web.common import MAX_ID, db, int_arg, text_arg


def admin_token_user():
    user = token_user("read")
    if not user.is_admin:
        abort(404)
    return user


def admin_log():
    admin_token_user()
    rows = audit.entries(session=db(), limit=int_arg("limit", 100, 1, 500), before=int_arg("before", None, 1, MAX_ID))
    return jsonify(entries=[audit.as_json(r) for r in rows], older=rows[-1].id if rows else None)


def admin_collusion():
    admin_token_user()
    games = collusion_service.games_with_negotiations()
    report = collusion_service.collusion_report(
        session=db(), game=text_arg("game", games) or games[0],
        matches=int_arg("matches", collusion_service.DEFAULT_MATCHES, 10, 20_000), top=int_arg("top", 50, 1, 500))
    return jsonify(collusion_service.as_json(report, lambda m: url_for("matches.page", match_id=m, _external=True)))
