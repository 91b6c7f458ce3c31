# Over 400 lines: one document of every route and schema of the API, read and kept whole like the API it describes.
"""The OpenAPI 3.1 description of /api/v1, served at /api/v1/openapi.json.

The paths are written here by hand, next to nothing else, so the document reads as the contract it
is; the shapes of bots, versions, matches, seats and users come from the same pydantic models the
views dump (ladder.models), so a column added there shows up here by itself. tests/web/api/test_openapi.py
checks that every route of the API blueprint is described and nothing else is, and runs schemathesis
against the app on SQLite and PostgreSQL: no server error, no response outside this document.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ladder.models import BotPublic, BotVersionPublic, MatchPublic, MatchStatus, SeatPublic, UserPublic
from ladder.services.pages import MAX_PER_PAGE
from ladder.web.api.openapi_scorecard import scorecard_paths
from ladder.web.common import MAX_ID

REF = "#/components/schemas/{model}"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _model(model: type, **overrides: dict[str, Any]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template=REF, mode="serialization")
    schema.pop("title", None)
    schema["properties"].update(overrides)
    return schema


NULLABLE_INT = {"anyOf": [{"type": "integer"}, {"type": "null"}]}
NULLABLE_STR = {"anyOf": [{"type": "string"}, {"type": "null"}]}
NULLABLE_NUM = {"anyOf": [{"type": "number"}, {"type": "null"}]}
TIME = {"type": "string", "format": "date-time"}
# how sure a rating is (docs/ratings.md): beside every rating the API serves
SURENESS = {
    "deviation": {"type": "number", "description": "the rating's deviation, Elo points"},
    "plus_minus": {"type": "number", "description": "the half-width of its 95% interval (2 deviations)"},
    "uncertain": {"type": "boolean", "description": "shown with \"?\": plus_minus is over 150"},
}
NULLABLE_TIME = {"anyOf": [TIME, {"type": "null"}]}
INTERVAL = {"anyOf": [{"type": "object", "properties": {k: {"type": "number"} for k in ("mean", "low", "high")},
                       "required": ["mean", "low", "high"]}, {"type": "null"}],
            "description": "null before the bot's first match"}


def _obj(required: list[str] | None = None, **properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required or list(properties)}


def _schemas() -> dict[str, Any]:
    return {
        "Error": _obj(error={"type": "string"}, status={"type": "integer"}),
        "Bot": _model(BotPublic),
        "Version": _model(BotVersionPublic, rejection_reason={
            **NULLABLE_STR, "description": "why the version was refused: shown to the bot's owner only, else null"},
            cause={"type": "string", "description": "owner only: the end of a rejected version's validation log"},
            build={**_obj(toolchain={"type": "string"}, seconds={"type": "number"}, size={"type": "integer"},
                          log={"type": "string"}),
                   "description": "owner only, compiled runtimes: how the version was built and the compiler's "
                                  "output"}),
        "Match": _model(MatchPublic, seed={**NULLABLE_INT, "description": "null until the match is finished"},
                        failure_reason=NULLABLE_STR),
        "Seat": {**_model(SeatPublic), "properties": {
            **_model(SeatPublic)["properties"], "bot": {"type": "string"}, "owner": {"type": "string"},
            "version": {"type": "integer"}, "rating_delta": NULLABLE_NUM,
            "person": {**NULLABLE_STR, "description": "the user who played the seat in person (its bot is the "
                                                      "house's stand-in \"person\"); null for a bot's seat"}}},
        "User": _model(UserPublic),
        "BotDetail": _obj(
            bot=_ref("Bot"), owner={"type": "string"},
            rating={"anyOf": [_obj(rating={"type": "number"}, games={"type": "integer"}, wins={"type": "integer"},
                                   **SURENESS), {"type": "null"}]},
            versions={"type": "array", "items": _ref("Version")},
            history={"type": "array", "items": _obj(match_id={"type": "integer"}, before={"type": "number"},
                                                    after={"type": "number"}, at=TIME)},
            recent_matches={"type": "array", "items": _obj(
                match_id={"type": "integer"}, kind={"type": "string"}, status={"type": "string"},
                rank=NULLABLE_INT, score=NULLABLE_INT, seats={"type": "integer"})},
            head_to_head={"type": "array", "items": _obj(
                opponent_id={"type": "integer"}, opponent={"type": "string"}, meetings={"type": "integer"},
                wins={"type": "integer"}, losses={"type": "integer"}, ties={"type": "integer"})},
            boss={"anyOf": [_obj(bot_id={"type": "integer"}, bot={"type": "string"}, meetings={"type": "integer"},
                                 above={"type": "integer"}, below={"type": "integer"}, ties={"type": "integer"},
                                 beaten={"type": "boolean"}), {"type": "null"}],
                  "description": "its rated meetings with the game's boss; null for the boss or a game without one"},
            league=_ref("BotLeague"),
        ),
        "LeagueProgress": {"anyOf": [_obj(
            meetings={"type": "integer"}, above={"type": "integer"}, below={"type": "integer"},
            ties={"type": "integer"}, record={"type": "string", "description": "A/B/T per meeting, oldest first"},
            needed={"type": "integer", "description": "meetings above the boss in a row that would promote"}),
            {"type": "null"}]},
        "BotLeague": {"anyOf": [_obj(
            index={"type": "integer"}, name={"type": "string"}, boss=NULLABLE_STR, boss_bot_id=NULLABLE_INT,
            next=NULLABLE_STR, house={"type": "boolean"}, progress=_ref("LeagueProgress"),
            promotions={"type": "array", "items": _obj(**{"from": {"type": "integer"}, "to": {"type": "integer"},
                                                         "at": TIME, "match_id": NULLABLE_INT})}),
            {"type": "null"}], "description": "its league (docs/ratings.md, Leagues); null without leagues"},
        "Season": _obj(id={"type": "integer"}, game={"type": "string"}, name={"type": "string"},
                       status={"enum": ["open", "final", "closed"]}, opened_at=TIME, ends_at=TIME,
                       closed_at=NULLABLE_TIME, finalists={"type": "integer"}, final_rounds={"type": "integer"},
                       final_deals={"type": "integer"}, event_id=NULLABLE_INT),
        "Leaderboard": _obj(
            game={"type": "string"}, page={"type": "integer"}, per_page={"type": "integer"},
            total={"type": "integer"}, pages={"type": "integer"},
            rows={"type": "array", "items": _obj(
                rank={"type": "integer"}, bot_id={"type": "integer"}, bot={"type": "string"},
                owner={"type": "string"}, starter={"type": "boolean"}, rating={"type": "number"},
                games={"type": "integer"}, wins={"type": "integer"}, win_rate=NULLABLE_NUM,
                provisional={"type": "boolean"}, last_played_at={"anyOf": [TIME, {"type": "null"}]},
                boss={"type": "boolean"}, **SURENESS)},
            boss={"anyOf": [_obj(bot_id={"type": "integer"}, bot={"type": "string"}, rank=NULLABLE_INT,
                                 rating=NULLABLE_NUM), {"type": "null"}],
                  "description": "the game's strongest house bot, wherever it stands on the board"},
        ),
        "AccuracyReport": _obj(
            game={"type": "string"}, computed_at=NULLABLE_TIME,
            report={"anyOf": [_obj(
                prediction=_obj(matches={"type": "integer"}, pairs={"type": "integer"},
                                decided_pairs={"type": "integer"}, log_loss=NULLABLE_NUM, accuracy=NULLABLE_NUM,
                                naive_log_loss={"type": "number"}, naive_accuracy={"type": "number"},
                                last={"type": "integer"}),
                settling=_obj(versions={"type": "integer"}, settled={"type": "integer"}, median=NULLABLE_NUM,
                              p90=NULLABLE_NUM, games={"type": "array", "items": {"type": "integer"}},
                              too_few={"type": "integer"}, tail={"type": "integer"}, run={"type": "integer"},
                              band={"type": "number"}),
                calibration=_obj(ratings={"type": "integer"}, inside={"type": "integer"}, coverage=NULLABLE_NUM,
                                 nominal={"type": "number"}, bounds={"type": "array", "items": {"type": "number"}},
                                 buckets={"type": "array", "items": _obj(
                                     low={"type": "number"}, high=NULLABLE_NUM, ratings={"type": "integer"},
                                     inside={"type": "integer"}, coverage=NULLABLE_NUM)}),
                window={"type": "integer"}, matches={"type": "integer"}, uncertain_above={"type": "number"},
            ), {"type": "null"}]},
        ),
        "Event": _obj(
            id={"type": "integer"}, name={"type": "string"}, game={"type": "string"},
            format={"type": "string", "enum": ["round-robin", "swiss"]},
            status={"type": "string", "enum": ["registration", "running", "finished", "cancelled"]},
            table_size={"type": "integer"}, deals={"type": "integer", "description": "per round"},
            rounds={"type": "integer"}, duplicate={"type": "boolean"}, options={"type": "object"},
            open_registration={"type": "boolean", "description": "else: by the organizer's invitation"},
            deadline={**NULLABLE_TIME, "description": "open registration closes, and the event starts, then"},
            created_at=TIME, started_at=NULLABLE_TIME, finished_at=NULLABLE_TIME, url={"type": "string"}),
        "EventDetail": _obj(
            event=_ref("Event"),
            entrants={"type": "array", "items": _obj(
                bot_id={"type": "integer"}, name={"type": "string"},
                version_id={**NULLABLE_INT, "description": "frozen at the start"})},
            invitations={"type": "array", "description": "invited, not yet accepted by the bot's owner",
                         "items": _obj(bot_id={"type": "integer"}, name={"type": "string"})},
            progress=_obj(done={"type": "integer"}, scheduled={"type": "integer"}),
            standings={"type": "array", "description": "best first; intervals are 95% bootstrap intervals over deals",
                       "items": _obj(position={"type": "integer"}, bot_id={"type": "integer"}, name={"type": "string"},
                                     matches={"type": "integer"}, wins={"type": "integer"},
                                     forfeits={"type": "integer"}, rank=INTERVAL, score=INTERVAL)},
            excluded={"type": "array", "items": _obj(index={"type": "integer"}, why={"type": "string"})},
            matches={"type": "array", "items": _obj(
                index={"type": "integer"}, round={"type": "integer"}, table={"type": "integer"},
                deal={"type": "integer"}, seats={"type": "array", "items": {"type": "integer"}},
                match_id=NULLABLE_INT,
                status={"type": "string", "enum": ["scheduled", "queued", "running", "finished", "failed"]})}),
        "LiveMatch": _obj(
            id={"type": "integer"}, game={"type": "string"}, kind={"type": "string"}, ranked={"type": "boolean"},
            started_at=NULLABLE_TIME, page={"type": "string"}, feed={"type": "string", "description": "its live feed"},
            seats={"type": "array", "items": _obj(seat={"type": "integer"}, bot_id={"type": "integer"},
                                                  bot={"type": "string"})}),
        "LiveFeed": _obj(
            ["match", "status", "cursor", "messages"],
            match={"type": "integer"}, status={"type": "string", "enum": [s.value for s in MatchStatus]},
            cursor={"type": "string"},
            messages={"type": "array", "description": "start (an attempt begins: game, players, options, names), "
                      "entries (public log entries from index `first`), gap, end (status): see docs/api.md",
                      "items": {"type": "object", "properties": {"id": {"type": "string"}, "type": {
                          "type": "string", "enum": ["start", "entries", "gap", "end"]}}, "required": ["id", "type"]}},
            retry_ms={"type": "integer", "description": "the site could not wait: ask again after this long"}),
        "BotData": _obj(
            bot_id={"type": "integer"}, version={"type": "integer", "description": "0: never written"},
            size={"type": "integer", "description": "bytes of files"}, files={"type": "integer"},
            note={**NULLABLE_STR, "description": "why a match's changes were last refused (over the cap, ...)"},
            note_at=NULLABLE_TIME, cap=_obj(bytes={"type": "integer"}, files={"type": "integer"})),
        "Upload": _obj(bot=_ref("Bot"), version=_ref("Version"), validation_match=NULLABLE_INT, note=NULLABLE_STR,
                       url={"type": "string"}),
    }


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    words = {400: "the request is wrong; the message says which part", 401: "no valid API token",
             403: "not yours", 404: "no such thing (also: an id out of range, someone else's log)",
             409: "clashes with the current state; retry", 413: "the body is far larger than any bot may be",
             429: "a limit was reached: Retry-After (and retry_after in the body) says when to retry"}
    return {str(code): _json(_ref("Error"), words[code]) for code in codes}


def _id(name: str, what: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": what,
            "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID}}


def _query(name: str, low: int, high: int, what: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": what,
            "schema": {"type": "integer", "minimum": low, "maximum": high}}


TOKEN = [{"token": []}]
UPLOAD_FIELDS = {
    "file": {"type": "string", "format": "binary", "description": "one .py file, or a .zip with main.py at its root"},
    "name": {"type": "string", "description": "letters, digits, '.', '_', '-'; up to 40"},
    "game": {"type": "string", "description": "one of /api/v1/games"},
    "description": {"type": "string", "maxLength": 2000},
}


def _upload(required: list[str], fields: dict[str, Any], summary: str, *params: dict[str, Any]) -> dict[str, Any]:
    return {"post": {
        "summary": summary, "security": TOKEN, "parameters": list(params),
        "requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
            "type": "object", "properties": fields, "required": required}}}},
        "responses": {"200": _json(_ref("Upload"), "the same file as a version in play: nothing new stored (see note)"),
                      "201": _json(_ref("Upload"), "stored; its validation game is queued"),
                      "422": _json(_ref("Upload"), "a new version stored, but refused by the package check"),
                      **_errors(400, 401, 403, 404, 409, 413)},
    }}


def _get(schema: dict[str, Any], summary: str, *params: dict[str, Any], errors: tuple[int, ...] = (),
         security: list | None = None) -> dict[str, Any]:
    operation: dict[str, Any] = {"summary": summary, "parameters": list(params),
                                 "responses": {"200": _json(schema, "OK"), **_errors(*errors)}}
    if security is not None:
        operation["security"] = security
    return {"get": operation}


def _bot_data(bot_id: dict[str, Any]) -> dict[str, Any]:
    """Your bot's data folder (docs/bots.md, "Bot data"); 404 for anyone else's bot."""
    as_zip = {"description": "the latest version as a zip; its number in X-Bot-Data-Version",
              "headers": {"X-Bot-Data-Version": {"schema": {"type": "integer"}}},
              "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}}}
    written = _json(_ref("BotData"), "the folder now")
    return {
        "get": {"summary": "download your bot's data", "security": TOKEN, "parameters": [bot_id],
                "responses": {"200": as_zip, **_errors(401, 403, 404)}},
        "put": {"summary": "replace your bot's data with a zip (checked whole: nothing is written on bad input)",
                "security": TOKEN, "parameters": [bot_id],
                "requestBody": {"required": True, "content": {"application/zip": {
                    "schema": {"type": "string", "format": "binary"}}}},
                "responses": {"200": written, **_errors(400, 401, 403, 404, 409, 413)}},
        "delete": {"summary": "reset your bot's data to an empty folder", "security": TOKEN, "parameters": [bot_id],
                   "responses": {"200": written, **_errors(401, 403, 404, 409)}},
    }


def _open_ladder_paths(bot_id: dict[str, Any]) -> dict[str, Any]:
    """Opting in and the lobby (ladder/web/lobby.py; docs/remote.md, "The open ladder")."""
    bot = _obj(id={"type": "integer"}, name={"type": "string"}, game={"type": "string"},
               remote={"type": "boolean"}, open_ladder={"type": "boolean"})
    flag = {"open": {"type": "boolean", "description": "true: join the open ladder; false: leave it"}}
    state = _obj(bot={"type": "integer"}, status={"type": "string", "enum": ["waiting", "matched"]},
                 match=NULLABLE_INT, seat=NULLABLE_INT, no_shows={"type": "integer"},
                 connect={"type": "string", "description": "when matched: the seat's websocket path"},
                 held={"type": "boolean", "description": "false: answered at once (the server holds a few "
                                                         "waits at a time): ask again in 2 s"})
    return {
        "/api/v1/remote/open-ladder": {"post": {
            "summary": "opt your remote bot (by game and name, created on first use) in or out of the open ladder",
            "security": TOKEN, "parameters": [],
            "requestBody": {"required": True, "content": {"application/json": {"schema": _obj(
                ["game", "bot", "open"], game={"type": "string"}, bot={"type": "string"}, **flag)}}},
            "responses": {"200": _json(_obj(bot=bot), "the bot"), **_errors(400, 401, 403, 404, 409)}}},
        "/api/v1/bots/{bot_id}/open-ladder": {"post": {
            "summary": "opt your remote bot in or out of the open ladder", "security": TOKEN, "parameters": [bot_id],
            "requestBody": {"required": True, "content": {"application/json": {"schema": _obj(["open"], **flag)}}},
            "responses": {"200": _json(_obj(bot=bot), "the bot"), **_errors(400, 401, 403, 404)}}},
        "/api/v1/lobby/{bot_id}": {
            "post": {"summary": "wait in the open ladder's lobby (a heartbeat: again at least every 30 s), held up to "
                                "`wait` seconds until the bot is paired; then its match, seat and websocket",
                     "security": TOKEN,
                     "parameters": [bot_id, _query("wait", 0, 25, "hold the answer this long for a pairing")],
                     "responses": {"200": _json(state, "waiting, or matched"),
                                   **_errors(400, 401, 403, 404, 409, 429)}},
            "delete": {"summary": "leave the lobby (a match already made is still played)", "security": TOKEN,
                       "parameters": [bot_id],
                       "responses": {"204": {"description": "left"}, **_errors(401, 403, 404)}},
        },
    }


def _paths() -> dict[str, Any]:
    bot_id, match_id = _id("bot_id", "a bot's id"), _id("match_id", "a match's id")
    game = {"name": "game", "in": "path", "required": True, "schema": {"type": "string"}}
    return {
        "/api/v1/": _get(_obj(version={"type": "integer"}, docs={"type": "string"},
                              endpoints={"type": "array", "items": {"type": "string"}}), "every endpoint"),
        "/api/v1/openapi.json": _get({"type": "object"}, "this document"),
        "/api/v1/games": _get(_obj(games={"type": "array", "items": _obj(
            name={"type": "string"}, title={"type": "string"}, leaderboard={"type": "string"})}), "the games"),
        "/api/v1/leaderboards/{game}": _get(
            _ref("Leaderboard"), "one page of a game's leaderboard", game,
            _query("page", 1, 10**6, "page number"), _query("per_page", 1, MAX_PER_PAGE, "rows per page"),
            errors=(400, 404)),
        "/api/v1/games/{game}/leagues": _get(_obj(
            game={"type": "string"},
            leagues={"type": "array", "items": _obj(
                index={"type": "integer"}, name={"type": "string"}, boss=NULLABLE_STR, boss_bot_id=NULLABLE_INT,
                open={"type": "boolean"}, total={"type": "integer"},
                members={"type": "array", "items": _obj(
                    bot_id={"type": "integer"}, bot={"type": "string"}, owner={"type": "string"},
                    rating=NULLABLE_NUM, games={"type": "integer"}, house={"type": "boolean"},
                    boss={"type": "boolean"}, progress=_ref("LeagueProgress"))})},
            promotions={"type": "array", "items": _obj(**{
                "bot_id": {"type": "integer"}, "bot": {"type": "string"}, "from": {"type": "integer"},
                "to": {"type": "integer"}, "at": TIME, "match_id": NULLABLE_INT})}),
            "a game's leagues, weakest first: each one's boss and standings (the first 50), the latest promotions",
            game, errors=(404,)),
        "/api/v1/games/{game}/seasons": _get(_obj(game={"type": "string"},
                                                  seasons={"type": "array", "items": _ref("Season")}),
                                             "a game's seasons, newest first", game, errors=(404,)),
        "/api/v1/seasons/{season_id}": _get(_obj(season=_ref("Season"), standings={"type": "array", "items": _obj(
            place={"type": "integer"}, bot_id={"type": "integer"}, bot={"type": "string"}, league=NULLABLE_INT,
            rating=NULLABLE_NUM, matches={"type": "integer"}, wins={"type": "integer"},
            rank=_obj(mean={"type": "number"}, low={"type": "number"}, high={"type": "number"}),
            score={"type": "number"})}), "a season and its final's archived standings (empty until it closes)",
            _id("season_id", "a season's id"), errors=(404,)),
        "/api/v1/leaderboards/{game}/accuracy": _get(
            _ref("AccuracyReport"), "how accurate the game's ratings are: the stored report the scheduler "
            "computes (docs/ratings.md, \"The accuracy report\"); `report` null before its first run", game,
            errors=(404,)),
        "/api/v1/leaderboards/{game}/open": _get(
            _ref("Leaderboard"), "one page of a game's open ladder: bots played from outside, rated apart "
            "(docs/remote.md)", game,
            _query("page", 1, 10**6, "page number"), _query("per_page", 1, MAX_PER_PAGE, "rows per page"),
            errors=(400, 404)),
        "/api/v1/remote/challenges": {"post": {
            "summary": "queue a challenge with your remote bot in seat 0 (created on first use); connect your "
                       "program to the websocket `connect` names (docs/remote.md)",
            "security": TOKEN, "parameters": [],
            "requestBody": {"required": True, "content": {"application/json": {"schema": _obj(
                ["game", "bot", "against"], game={"type": "string"},
                bot={"type": "string", "description": "your remote bot's name"},
                against={"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 12,
                         "description": "opponents as owner/name (a starter bot: house/careful)"},
                seed={"type": "integer", "minimum": 0}, options={"type": "object"})}}},
            "responses": {"201": _json(_obj(match=_ref("Match"), seat={"type": "integer"},
                                            connect={"type": "string"}), "queued"),
                          **_errors(400, 401, 403, 404, 409)}}},
        **_open_ladder_paths(bot_id),
        "/api/v1/bots/{bot_id}/challenges": {"post": {
            "summary": "queue an unranked challenge of your sandboxed bot (its active version, seat 0) against "
                       "the bots you name, each with its active version; the bot page's limits apply",
            "security": TOKEN, "parameters": [bot_id],
            "requestBody": {"required": True, "content": {"application/json": {"schema": {**_obj(
                ["opponents"],
                opponents={"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
                           "minItems": 1, "maxItems": 12, "uniqueItems": True,
                           "description": "the opponents' bot ids, in seat order after yours"},
                seed={"type": "integer", "minimum": 0, "maximum": 2**63 - 1}), "additionalProperties": False}}}},
            "responses": {"201": _json(_obj(match=_ref("Match"), url={"type": "string"}), "queued"),
                          **_errors(400, 401, 403, 404, 429)}}},
        "/api/v1/bots/{bot_id}": _get(_ref("BotDetail"), "a bot", bot_id, errors=(404,)),
        "/api/v1/versions/{version_id}": _get(_obj(version=_ref("Version")), "one version",
                                              _id("version_id", "a version's id"), errors=(404,)),
        "/api/v1/matches": _get(
            _obj(matches={"type": "array", "items": _ref("Match")}, next=NULLABLE_STR),
            "the newest matches, filtered; `next` is the URL of the following page (null: no more)",
            {"name": "game", "in": "query", "required": False, "schema": {"type": "string"}},
            _query("bot", 1, MAX_ID, "only matches this bot played"),
            {"name": "owner", "in": "query", "required": False, "schema": {"type": "string"},
             "description": "only matches one of this user's bots played, or the user in person; `me` (with a "
                            "token) for yours"},
            {"name": "status", "in": "query", "required": False,
             "schema": {"type": "string", "enum": [s.value for s in MatchStatus]}},
            {"name": "since", "in": "query", "required": False, "schema": {"type": "string"},
             "description": "created at or after this ISO 8601 time (UTC when it names no zone)"},
            {"name": "until", "in": "query", "required": False, "schema": {"type": "string"},
             "description": "created before this ISO 8601 time"},
            _query("limit", 1, 200, "how many"), _query("before", 1, MAX_ID, "only ids below this one"),
            errors=(400, 401, 403)),
        "/api/v1/matches/{match_id}": _get(
            _obj(match=_ref("Match"), seats={"type": "array", "items": _ref("Seat")}, replay=NULLABLE_STR),
            "a match and its seats", match_id, errors=(404,)),
        "/api/v1/matches/{match_id}/replay": _get({"type": "object"}, "a finished match's replay", match_id,
                                                  errors=(404,)),
        "/api/v1/matches/{match_id}/seats/{seat}/log": _get(
            _obj(match_id={"type": "integer"}, seat={"type": "integer"}, text={"type": "string"},
                 truncated={"type": "boolean"}),
            "your bot's stderr in a match", match_id, _id("seat", "the seat number"), errors=(401, 403, 404),
            security=TOKEN),
        "/api/v1/live": _get(
            _obj(matches={"type": "array", "items": _ref("LiveMatch")}), "the matches being played now",
            {"name": "game", "in": "query", "required": False, "schema": {"type": "string"}}, errors=(400, 404)),
        "/api/v1/live/{match_id}": _get(
            _ref("LiveFeed"), "a match's public events as they happen: a long poll; pass the last `cursor` as "
                              "`after` to get only what came since", match_id,
            {"name": "after", "in": "query", "required": False, "schema": {"type": "string"},
             "description": "the cursor of the previous answer (default: from the start)"},
            _query("wait", 0, 60, "seconds to wait for news when there is none yet (capped by the site)"),
            errors=(400, 404)),
        "/api/v1/events": _get(_obj(events={"type": "array", "items": _ref("Event")}), "the newest events",
                               _query("limit", 1, 200, "how many"), errors=(400,)),
        "/api/v1/events/{event_id}": _get(_ref("EventDetail"), "an event: entrants, standings, progress",
                                          _id("event_id", "an event's id"), errors=(404,)),
        "/api/v1/admin/log": _get(_obj(entries={"type": "array", "items": {"type": "object"}}, older=NULLABLE_INT),
                                  "admins: the moderation audit log, newest first (who, what, when, why)",
                                  _query("limit", 1, 500, "how many"),
                                  _query("before", 1, 2**31 - 1, "older than this entry"),
                                  errors=(400, 401, 403, 404), security=TOKEN),
        "/api/v1/admin/collusion": _get(
            _obj(game={"type": "string"}, matches={"type": "integer"}, pairs={"type": "integer"},
                 alpha={"type": "number"}, pairs_ranked={"type": "array", "items": {"type": "object"}}),
            "admins: the collusion report, pairs of bots strongest evidence first (docs/ratings.md, Collusion)",
            {"name": "game", "in": "query", "required": False, "schema": {"type": "string"},
             "description": "a game with negotiations (default: the first)"},
            _query("matches", 10, 20_000, "newest matches read"), _query("top", 1, 500, "pairs shown"),
            errors=(400, 401, 403, 404), security=TOKEN),
        "/api/v1/me": _get(_obj(user=_ref("User"), bots={"type": "array", "items": {
            "type": "object", "description": "a bot of yours, its rating and how sure it is",
            "properties": {"rating": NULLABLE_NUM, **{k: NULLABLE_NUM for k in ("deviation", "plus_minus")},
                           "uncertain": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
                           "active_version": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}}),
                           "you and your bots", errors=(401, 403), security=TOKEN),
        "/api/v1/bots": _upload(["file", "name", "game"], UPLOAD_FIELDS,
                                "upload a bot: a new bot, or a new version of yours with that name and game"),
        "/api/v1/bots/{bot_id}/data": _bot_data(bot_id),
        **scorecard_paths(bot_id, _get, _id),  # ladder/web/api/openapi_scorecard.py
        "/api/v1/bots/{bot_id}/versions": {
            **_get(_obj(versions={"type": "array", "items": _ref("Version")}), "a bot's versions", bot_id,
                   errors=(404,)),
            **_upload(["file"], {"file": UPLOAD_FIELDS["file"], "game": UPLOAD_FIELDS["game"]},
                      "a new version of your bot", bot_id),
        },
    }


@cache
def document() -> dict[str, Any]:
    paths = _paths()
    for item in paths.values():  # any operation: 401 to a bad token, 429 past the request rate
        for operation in item.values():
            for code in ("401", "429"):
                operation["responses"].setdefault(code, _errors(int(code))[code])
    return {
        "openapi": "3.1.0",
        "info": {"title": "Dragon ladder API", "version": "1",
                 "description": "Reads are public; uploads, your logs and /me need `Authorization: Bearer <token>`. "
                                "Errors are JSON `{error, status}`. See [the API guide](/docs/api-guide)."},
        "paths": paths,
        "components": {"schemas": _schemas(),
                       "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}}},
    }
