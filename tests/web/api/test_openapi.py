"""The OpenAPI document of /api/v1: it describes exactly the API's routes, and schemathesis, driving
every operation with generated (and deliberately invalid) input through the WSGI app with a real API
token, finds no server error and no response outside the document, on SQLite and PostgreSQL."""

from __future__ import annotations

import io
import re
import time

import pytest
import schemathesis
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from web.helpers import GOOD_BOT, without_flood_limits

from ladder.services import tournaments, users
from ladder.web.api.openapi import document

EXAMPLES = 12  # per operation, mode and id choice: about 20 s per database on this machine (see below)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# a bot's data is PUT as a zip (binary): sent as the bytes schemathesis generates for it
schemathesis.serializer.alias("application/zip", "application/octet-stream")


@pytest.fixture
def settings(settings):
    return without_flood_limits(settings)


def _operations_of_app(app) -> set[tuple[str, str]]:
    found = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
            found |= {(method.lower(), path) for method in rule.methods - {"HEAD", "OPTIONS"}}
    return found


def test_the_document_describes_every_api_route_and_nothing_else(app, client):
    described = {(method, path) for path, item in document()["paths"].items() for method in item}
    assert described == _operations_of_app(app)
    served = client.get("/api/v1/openapi.json")
    assert served.status_code == 200 and served.get_json()["openapi"] == "3.1.0"


@pytest.fixture
def world(app, build, sessions, play, client):
    """A token, a bot of its owner with a version, a finished and a queued match: ids that exist."""
    user = build.user("alice")
    with sessions() as session:
        token = users.issue_api_token(session=session, user_id=user.id)
    auth = {"Authorization": f"Bearer {token}"}
    upload = client.post("/api/v1/bots", headers=auth, content_type="multipart/form-data",
                         data={"name": "fuzzed", "game": "treasure", "file": (io.BytesIO(GOOD_BOT), "main.py")})
    assert upload.status_code == 201, upload.get_json()
    body = upload.get_json()
    finished = body["validation_match"]
    play(finished)
    queued = build.match(build.starters()[:2])
    event_id = _events(sessions, play, user.id, body["bot"]["id"], build.starters()[0], build.bot("bob", "b")[0].id)
    return {"auth": auth, "upload": upload, "ids": {"bot_id": body["bot"]["id"], "version_id": body["version"]["id"],
                                  "match_id": finished, "seat": 0, "event_id": event_id}, "queued": queued}


def _events(sessions, play, organizer_id, own_bot, house_bot, others_bot) -> int:
    """A running event with one match played (standings with intervals, one not yet played), and
    one in registration with a pending invitation: the shapes /api/v1/events can answer."""
    with sessions() as session:
        users.set_admin(session=session, username="alice")
        ev = tournaments.create_event(session=session, organizer_id=organizer_id, name="Cup", game="treasure",
                                      table_size=2, deals=1)
        for bot_id in (own_bot, house_bot):
            tournaments.add_entrant(session=session, event_id=ev.id, bot_id=bot_id, acting_user_id=organizer_id)
        tournaments.start_event(session=session, event_id=ev.id, acting_user_id=organizer_id)
        first = tournaments.feed_events(session=session, slots=1)
        pending = tournaments.create_event(session=session, organizer_id=organizer_id, name="Next", game="treasure",
                                           table_size=2, deals=1)
        tournaments.add_entrant(session=session, event_id=pending.id, bot_id=others_bot, acting_user_id=organizer_id)
        event_id = ev.id
    play(first[0])
    return event_id


def test_schemathesis_finds_no_server_error_and_no_response_outside_the_document(app, world):
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    # generated uploads are refused (random bytes); a real one (the fixture's, a 201) fits the document too
    schema["/api/v1/bots"]["POST"].validate_response(world["upload"])
    started, cases = time.monotonic(), 0
    for result in schema.get_all_operations():
        operation = result.ok()
        known = {p.name: world["ids"][p.name] for p in operation.path_parameters if p.name in world["ids"]}
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            for fixed in ({}, known) if known else ({},):
                strategy = operation.as_strategy(generation_mode=mode, path_parameters=fixed or None)

                @hypothesis_settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                          suppress_health_check=list(HealthCheck))
                @given(case=strategy)
                def check(case):
                    nonlocal cases
                    cases += 1
                    response = case.call(headers=world["auth"])
                    case.validate_response(response, checks=CHECKS)

                try:
                    check()
                except Unsatisfiable:  # nothing left to make invalid (no parameters, or all fixed)
                    assert mode == GenerationMode.NEGATIVE
                except Exception as exc:  # name the operation: hypothesis shows the failing case
                    raise AssertionError(f"{operation.label} ({mode.value}, ids {fixed}): {exc}") from exc
    print(f"schemathesis: {cases} cases in {time.monotonic() - started:.1f} s")
