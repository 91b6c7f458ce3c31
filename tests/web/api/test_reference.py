"""The OpenAPI document as reference rows: every operation, its parameters, body fields and auth."""

from __future__ import annotations

from ladder.web.api.openapi import document
from ladder.web.api.reference import operations, schema_text


def test_every_operation_of_the_document_is_a_row_with_its_auth():
    doc = document()
    rows = operations(doc)
    assert {(op.method.lower(), op.path) for op in rows} == {
        (method, path) for path, item in doc["paths"].items() for method in item}
    upload = next(op for op in rows if (op.method, op.path) == ("POST", "/api/v1/bots"))
    assert upload.auth == "token (bearer)" and upload.body_type == "multipart/form-data"
    assert {p.name for p in upload.body if p.required} == {"file", "name", "game"}
    assert next(op for op in rows if op.path == "/api/v1/games").auth == ""


def test_schema_text_names_refs_arrays_unions_and_limits():
    assert schema_text({"$ref": "#/components/schemas/Bot"}) == "Bot"
    assert schema_text({"type": "array", "items": {"$ref": "#/components/schemas/Match"}}) == "array of Match"
    assert schema_text({"anyOf": [{"type": "integer"}, {"type": "null"}]}) == "integer or null"
    assert schema_text({"type": "integer", "minimum": 1, "maximum": 200}) == "integer (minimum 1, maximum 200)"
    assert schema_text(None) == ""
