"""The API's routes are one table (ladder/web/api/__init__.py): it holds every route the app serves
under /api/v1, its query parameters are the ones the OpenAPI document describes, and every route
refuses one it does not take (or one given twice) with a 400 naming it, before anything else."""

from __future__ import annotations

import re

import pytest

from ladder.web.api import API, SEAT_SOCKET, SEATS, query_parameters
from ladder.web.api.openapi import document


def _path(blueprint_prefix: str, rule: str) -> str:
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", blueprint_prefix + rule)


def test_the_tables_hold_every_api_route_of_the_app_and_nothing_else(app):
    served = {(r.endpoint, m) for r in app.url_map.iter_rules() if r.endpoint.split(".")[0] in ("api", "seats")
              for m in r.methods - {"HEAD", "OPTIONS"}}
    tabled = {(f"api.{r.endpoint}", m) for r in API for m in r.methods.split()} | \
        {(f"seats.{r.endpoint}", m) for r in (*SEATS, SEAT_SOCKET) for m in r.methods.split()}
    assert served == tabled


def test_the_query_parameters_of_each_route_are_the_documents():
    paths = document()["paths"]
    for route in API:
        for method in route.methods.split():
            operation = paths[_path("/api/v1", route.rule)][method.lower()]
            described = sorted(p["name"] for p in operation.get("parameters", []) if p["in"] == "query")
            assert described == sorted(route.takes(method)), (method, route.rule)


def _plain(rule: str) -> str:
    return re.sub(r"<(?:[a-z]+:)?[a-z_]+>", "1", rule)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # refused before any read
@pytest.mark.parametrize("route", API, ids=lambda r: f"{r.methods} {r.rule}")
def test_every_api_route_refuses_a_parameter_it_does_not_take(client, route):
    for method in route.methods.split():
        url = "/api/v1" + _plain(route.rule)
        unknown = client.open(f"{url}?colour=red", method=method)
        assert unknown.status_code == 400, (method, url)
        takes = ", ".join(route.takes(method)) or "none"
        assert unknown.get_json()["error"].startswith(f"unknown query parameter 'colour' for {url}: it takes {takes}")
        for name in route.takes(method):
            twice = client.open(f"{url}?{name}=1&{name}=2", method=method)
            assert twice.status_code == 400
            assert twice.get_json()["error"] == f"the query parameter {name!r} is given more than once"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_seats_long_poll_refuses_a_parameter_it_does_not_take_with_that_method(client, method):
    allowed = ", ".join(query_parameters("seats.lines", method))
    refused = client.open("/api/v1/seats/1/0/lines?received=1", method=method)  # the websocket's, not the poll's
    assert refused.status_code == 400
    assert refused.get_json()["error"] == f"unknown or repeated query parameter 'received': it takes {allowed}"
    assert query_parameters("seats.connect", "GET") == ("received",)
