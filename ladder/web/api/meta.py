"""The API's own description: the index of its routes and its OpenAPI document."""

from __future__ import annotations

from flask import current_app, jsonify, url_for

from ladder.web.api.openapi import document


def index():
    return jsonify(version=1, docs=url_for("guide.doc_api_guide", _external=True), endpoints=sorted(
        f"{','.join(sorted(r.methods - {'HEAD', 'OPTIONS'}))} {r.rule}"
        for r in current_app.url_map.iter_rules() if r.endpoint.startswith("api.")))


def openapi():
    """This API as an OpenAPI 3.1 document (ladder/web/api/openapi.py)."""
    return jsonify(document())
