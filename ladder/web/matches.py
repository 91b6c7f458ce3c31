"""Match pages: seats and results, the scoring breakdown, the moves step by step, the replay download,
and each bot's stderr for its owner only."""

from __future__ import annotations

import zlib
from collections.abc import Iterator

from flask import Blueprint, Response, abort, current_app, render_template, request
from markupsafe import Markup

from ladder.games import get_game
from ladder.games.render import score_table
from ladder.models import MatchStatus
from ladder.replay import Replay, ReplayError, dumps_replay, loads_replay
from ladder.services import pages
from ladder.services.errors import Forbidden, NotFound
from ladder.services.match_lists import recent_matches, seats_by_match
from ladder.web.catalog import game_titles
from ladder.web.common import MAX_ID, db, int_arg, user_id
from ladder.web.page_cache import LRU
from ladder.web.steps import steps

bp = Blueprint("matches", __name__, url_prefix="/matches")


@bp.get("/")
def recent():
    game = request.args.get("game") or None
    if game is not None and game not in game_titles():
        abort(404)
    before = int_arg("before", None, 1, MAX_ID)
    latest = recent_matches(session=db(), game=game, before=before, limit=50)
    return render_template("matches/recent.html", matches=latest, game=game,
                           standings=seats_by_match(session=db(), match_ids=[m.id for m in latest]),
                           older=latest[-1].id if len(latest) == 50 else None)


def load_replay_for(match_id: int, viewer_owns: set[int]) -> Replay | None:
    """The stored replay with the viewer's own seats' stderr and no other seat's; None when there
    is none. (The worker stores the replay without any log and each seat's log apart,
    Replay.split_logs: the owner's are merged back; older replays may still hold them.)"""
    try:
        replay = Replay.from_json(loads_replay(pages.replay_json(session=db(), match_id=match_id,
                                                                 viewer_id=user_id())))
    except NotFound:
        return None
    except ReplayError:
        abort(500)
    return replay.without_logs(except_seats=viewer_owns).with_logs(
        pages.owner_logs(session=db(), match_id=match_id, seats=viewer_owns))


def _match_for_viewer(match_id: int):
    """The match (404 when missing), the viewer's id and the seats the viewer's bots played."""
    try:
        view = pages.match_detail(session=db(), match_id=match_id)
    except NotFound:
        abort(404)
    viewer = user_id()
    return view, viewer, {s.seat.seat for s in view.seats if viewer is not None and s.owner_id == viewer}


TERMINAL = (MatchStatus.FINISHED, MatchStatus.FAILED)


def render_public_parts(view: pages.MatchView) -> dict[str, Markup]:
    """The scoring table and the moves, from the stored replay as everyone sees it (no seat's
    private data): the slow part of the page (a long replay has hundreds of sections)."""
    replay = load_replay_for(view.match.id, set()) if view.has_replay else None
    if replay is None:
        return {"scoring": Markup(""), "moves": Markup("")}
    names = [s.label for s in view.seats]
    columns, rows = score_table(get_game(view.match.game), replay.results)
    return {
        "scoring": Markup(render_template("matches/_scoring.html", view=view, columns=columns, breakdown=rows)),
        "moves": Markup(render_template("matches/_moves.html", sections=steps(replay, names),
                                        game_templates=f"games/{view.match.game}/")),
    }


def public_parts(view: pages.MatchView) -> dict[str, Markup]:
    """Cached once the match is over (it never changes again); keyed by the URL root as well, since
    the links inside depend on where the app is mounted."""
    if view.match.status not in TERMINAL or view.held:  # a held match's parts change once its deal is over
        return render_public_parts(view)
    cache = current_app.extensions.setdefault("match_public_parts", LRU())  # per app: one app, one database
    return cache.get_or_make((view.match.id, request.script_root), lambda: render_public_parts(view))


@bp.get("/<int:match_id>")
def page(match_id: int):
    view, viewer, owned = _match_for_viewer(match_id)
    logs = {}
    for seat in sorted(owned):
        try:
            logs[seat] = pages.bot_log(session=db(), match_id=match_id, seat=seat, viewer_id=viewer)
        except (Forbidden, NotFound):
            continue
    return render_template(
        "matches/page.html", view=view, match=view.match,
        ordered=sorted(view.seats, key=lambda s: (s.seat.rank is None, s.seat.rank or 0, s.seat.seat)),
        owned=owned, logs=logs, public=public_parts(view),
    )


CHUNK = 64 * 1024


def _gunzip(data: bytes) -> Iterator[bytes]:
    """The JSON, decompressed a slice at a time: a client without gzip never makes us hold it all."""
    inflate = zlib.decompressobj(wbits=31)  # 31: a gzip member, header and trailer checked
    for start in range(0, len(data), CHUNK):
        out = inflate.decompress(data[start:start + CHUNK])
        if out:
            yield out
    yield inflate.flush()


@bp.get("/<int:match_id>/replay.json")
def replay_download(match_id: int):
    """The replay as JSON (see ladder/replay/__init__.py), re-simulatable with `ladder replay verify`.

    The stored gzip is sent as it is (Content-Encoding: gzip) to a client that accepts it, else
    decompressed as a stream. Stored replays hold no private data: the worker takes each seat's
    stderr out before the result is recorded (Replay.split_logs in workers/queue/jobs.py); a bot's
    owner gets the replay with their seats' stderr merged back, as the API's replay."""
    _, _, owns = _match_for_viewer(match_id)
    headers = {"Content-Disposition": f'attachment; filename="match-{match_id}.json"', "Vary": "Accept-Encoding"}
    if owns:
        replay = load_replay_for(match_id, owns)
        if replay is None:
            abort(404)
        return Response(dumps_replay(replay), mimetype="application/json",
                        headers={**headers, "Cache-Control": "private"})
    try:
        data = pages.replay_gzip(session=db(), match_id=match_id, viewer_id=user_id())
    except NotFound:
        abort(404)
    if request.accept_encodings.quality("gzip") > 0:
        return Response(data, mimetype="application/json", headers={**headers, "Content-Encoding": "gzip"})
    return Response(_gunzip(data), mimetype="application/json", headers=headers)


@bp.get("/<int:match_id>/seats/<int:seat>/log")
def seat_log(match_id: int, seat: int):
    """One seat's stderr as plain text: the bot's owner only (404 for everyone else)."""
    try:
        log = pages.bot_log(session=db(), match_id=match_id, seat=seat, viewer_id=user_id())
    except (Forbidden, NotFound):
        abort(404)
    text = log.text if log is not None else ""
    if log is not None and log.truncated:
        text = "[earlier output truncated]\n" + text
    return Response(text, mimetype="text/plain", headers={"X-Content-Type-Options": "nosniff"})
