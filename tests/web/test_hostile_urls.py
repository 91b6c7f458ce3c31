"""Every route of the site and the API, fed hostile path and query values (huge, negative, NUL,
unicode, long), as a visitor and as a logged-in user: never a server error."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from web.helpers import without_flood_limits

HOSTILE = ["-1", str(2**31), str(2**63), "9" * 5000, "%00", "a\x00b", "é" * 300, "x" * 5000, "../../etc/passwd"]
QUERY_NAMES = ["page", "per_page", "limit", "before", "game", "next"]
QUERY_VALUES = ["-1", str(2**63), "9" * 5000, "%00", "é" * 300, "abc"]


@pytest.fixture
def settings(settings):
    return without_flood_limits(settings)


def _urls(app) -> list[tuple[str, str]]:
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
        for value in HOSTILE:
            path = re.sub(r"<(?:[a-z]+:)?[a-z_]+>", quote(value, safe="%"), rule.rule)
            out += [(method, path) for method in methods]
        if "GET" in methods:
            plain = re.sub(r"<(?:[a-z]+:)?[a-z_]+>", "1", rule.rule)
            query = "&".join(f"{name}={{}}" for name in QUERY_NAMES)
            for value in QUERY_VALUES:  # every parameter at once: each is read, so each is checked
                out.append(("GET", f"{plain}?{query.format(*[quote(value, safe='%')] * len(QUERY_NAMES))}"))
            for name in QUERY_NAMES:
                out += [("GET", f"{plain}?{name}={quote(value, safe='%')}") for value in QUERY_VALUES[:3]]
    return out


def _crawl(client, urls) -> list[str]:
    errors = []
    for method, url in urls:
        response = client.open(url, method=method)
        status = response.status_code
        if status == 503 and url.startswith("/readyz") and response.json["status"] == "unready":
            continue  # the answer it exists for: this test app has no broker (tests/web/test_health.py)
        if status >= 500:
            errors.append(f"{method} {url[:120]} -> {status}")
    return errors


def test_no_route_answers_a_server_error_to_hostile_values(app, site, build):
    build.bot("alice", "target")  # id 1-ish rows exist, so "1" reaches real lookups
    urls = _urls(app)
    assert len(urls) > 500
    assert _crawl(app.test_client(), urls) == []  # a visitor
    site.signup("mallory")
    assert _crawl(site.client, urls) == []  # logged in: the owner-only routes run too


def test_out_of_range_ids_are_404_and_bad_query_values_400_with_the_reason(client):
    for url in ("/bots/9223372036854775808", "/matches/9223372036854775808", "/matches/2147483648/replay.json",
                "/api/v1/bots/9223372036854775808", "/api/v1/versions/2147483648", "/api/v1/matches/" + "9" * 5000):
        assert client.get(url).status_code == 404, url
    for url, reason in (("/api/v1/matches?limit=abc", "limit must be a whole number in 1..200"),
                        ("/api/v1/matches?before=9223372036854775808", "before must be a whole number"),
                        ("/api/v1/matches?game=chess", "game must be one of"),
                        ("/api/v1/leaderboards/treasure?page=9223372036854775808", "page must be")):
        response = client.get(url)
        assert response.status_code == 400 and reason in response.get_json()["error"], (url, response.get_json())
    assert client.get("/matches/?before=9223372036854775808").status_code == 400
    assert "page must be" in client.get("/leaderboard/treasure?page=99999999999999999999").get_data(as_text=True)


def test_forms_with_nul_and_huge_values_are_refused_not_server_errors(site):
    """PostgreSQL refuses NUL in text: a form value with one must be a refusal, not a 500."""
    assert site.post("/auth/login", {"username": "a\x00b", "password": "x\x00y"}).status_code < 500
    assert site.post("/auth/login", {"username": "é" * 5000, "password": "x"}).status_code < 500
    site.signup("alice")
    from web.helpers import GOOD_BOT
    for fields in ({"description": "d\x00"}, {"name": "n\x00"}, {"game": "treasure\x00"}):
        assert site.upload(GOOD_BOT, **fields).status_code == 400, fields
