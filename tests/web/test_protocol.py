"""The protocol's JSON Schemas are published on the site, the same documents as in the repository."""

from __future__ import annotations

from ladder.protocol_schema import envelope_schema, game_schema


def test_the_envelope_and_each_game_schema_are_served(client):
    response = client.get("/protocol/schema.json")
    assert response.status_code == 200 and response.mimetype == "application/schema+json"
    assert response.get_json() == envelope_schema()
    for game in ("drachengold", "treasure"):
        response = client.get(f"/protocol/{game}.schema.json")
        assert response.status_code == 200 and response.get_json() == game_schema(game)
        assert "observation" in response.get_json()["$defs"]


def test_an_unknown_game_has_no_schema(client):
    assert client.get("/protocol/chess.schema.json").status_code == 404
    assert client.get("/protocol/..%2Fconfig.schema.json").status_code == 404
