"""The OpenAPI document (ladder/web/api/openapi.py) as rows for the readable reference page, /docs/api:
per operation its path, method, summary, parameters, request body, responses and required auth."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class Parameter:
    name: str
    where: str
    required: bool
    schema: str
    description: str


@dataclass(frozen=True)
class Response:
    status: str
    description: str
    schema: str


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    summary: str
    auth: str  # "" when public
    parameters: list[Parameter]
    body: list[Parameter]  # multipart form fields
    body_type: str
    responses: list[Response]


def schema_text(schema: dict[str, Any] | None) -> str:
    """A short type for a schema: a component's name, `array of X`, `a or b`, or the type with its limits."""
    if not schema:
        return ""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " or ".join(schema_text(s) for s in schema["anyOf"])
    kind = schema.get("type", "object")
    if kind == "array":
        return f"array of {schema_text(schema.get('items'))}"
    if kind == "object" and schema.get("properties"):
        return "{" + ", ".join(schema["properties"]) + "}"
    limits = [f"{key} {schema[key]}" for key in ("minimum", "maximum", "maxLength", "format") if key in schema]
    return f"{kind} ({', '.join(limits)})" if limits else str(kind)


def _auth(operation: dict[str, Any], schemes: dict[str, Any]) -> str:
    names = [name for requirement in operation.get("security", []) for name in requirement]
    return ", ".join(f"{name} ({schemes.get(name, {}).get('scheme', '')})".replace(" ()", "") for name in names)


def _parameter(raw: dict[str, Any]) -> Parameter:
    return Parameter(raw["name"], raw.get("in", ""), bool(raw.get("required")), schema_text(raw.get("schema")),
                     raw.get("description", ""))


def _body(operation: dict[str, Any]) -> tuple[str, list[Parameter]]:
    content = operation.get("requestBody", {}).get("content", {})
    for media, item in content.items():
        schema = item.get("schema", {})
        required = set(schema.get("required", []))
        return media, [Parameter(name, "body", name in required, schema_text(prop), prop.get("description", ""))
                       for name, prop in schema.get("properties", {}).items()]
    return "", []


def _responses(operation: dict[str, Any]) -> list[Response]:
    out = []
    for status, raw in sorted(operation.get("responses", {}).items()):
        schema = next(iter(raw.get("content", {}).values()), {}).get("schema")
        out.append(Response(status, raw.get("description", ""), schema_text(schema)))
    return out


def operations(document: dict[str, Any]) -> list[Operation]:
    schemes = document.get("components", {}).get("securitySchemes", {})
    out = []
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                operation = item[method]
                body_type, body = _body(operation)
                out.append(Operation(method.upper(), path, operation.get("summary", ""), _auth(operation, schemes),
                                     [_parameter(p) for p in operation.get("parameters", [])], body, body_type,
                                     _responses(operation)))
    return out


def schemas(document: dict[str, Any]) -> dict[str, str]:
    """Each component schema as indented JSON, for the reference's appendix."""
    return {name: json.dumps(schema, indent=2) for name, schema in document.get("components", {})
            .get("schemas", {}).items()}
