"""Check protocol messages against the schemas with `jsonschema` (a test dependency).

Used by the random-game sweeps: every hello, request (with its observation), answer's decision,
event and end a game produces is checked, so the published schemas cannot drift from the engine.
"""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from ladder.protocol_schema import envelope_schema, game_schema


class SchemaMismatch(AssertionError):
    """A message the schema does not describe; the message says where and why."""


class ProtocolChecker:
    def __init__(self, game: str):
        self.game = game
        self.envelope, self.payloads = envelope_schema(), game_schema(game)
        self._validators: dict[tuple[str, str], Draft202012Validator] = {}
        self.checked = 0

    def check(self, doc: dict[str, Any], name: str, value: Any) -> None:
        """Raise SchemaMismatch unless `value` matches `$defs/name` of `doc`."""
        if name not in doc["$defs"]:
            raise SchemaMismatch(f"{doc['$id']} has no {name!r}: add it to the schema")
        key = (doc["$id"], name)
        validator = self._validators.get(key)
        if validator is None:
            # local $refs inlined: the same schema, but resolving a $ref per list item was a quarter
            # of the time spent on an observation (the schemas are not recursive, so this ends)
            validator = Draft202012Validator(_inline(doc["$defs"][name], doc["$defs"]))
            self._validators[key] = validator
        error = next(iter(validator.iter_errors(value)), None)
        self.checked += 1
        if error is not None:
            best = _deepest(error)
            where = "/".join(str(p) for p in best.absolute_path) or "(top)"
            raise SchemaMismatch(f"{self.game} {name}: at {where}: {best.message[:300]}")

    # --- whole wire messages ------------------------------------------------------------------

    def hello(self, message: dict[str, Any]) -> None:
        self.check(self.envelope, "hello", message)
        self.check(self.payloads, "options", message["options"])

    def request(self, message: dict[str, Any]) -> None:
        self.check(self.envelope, "request", message)
        observation = message["observation"]
        self.check(self.payloads, "observation", observation)
        asked = (observation.get("request") or {}).get("kind")  # its shape: the observation's oneOf
        if asked != message["kind"]:
            raise SchemaMismatch(f"{self.game} request of kind {message['kind']!r} whose observation asks {asked!r}")

    def answer(self, kind: str, message: dict[str, Any]) -> None:
        self.check(self.envelope, "answer", message)
        self.check(self.payloads, f"decision.{kind}", message["decision"])

    def event(self, message: dict[str, Any]) -> None:
        self.check(self.envelope, "event", message)
        event = message["event"]
        self.check(self.payloads, f"event.{event['type']}", event["data"])

    def error(self, message: dict[str, Any]) -> None:
        self.check(self.envelope, "error", message)

    def end(self, message: dict[str, Any]) -> None:
        self.check(self.envelope, "end", message)


def _inline(node: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    """`node` with every `{"$ref": "#/$defs/NAME"}` replaced by that definition (its siblings,
    such as a description, kept)."""
    if depth > 50:
        raise ValueError("a recursive $ref: the protocol schemas must not have one")
    if isinstance(node, list):
        return [_inline(v, defs, depth + 1) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _inline(v, defs, depth + 1) for k, v in node.items() if k != "$ref"}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return {**_inline(defs[ref.removeprefix("#/$defs/")], defs, depth + 1), **out}
    if ref is not None:
        out["$ref"] = ref
    return out


def _deepest(error: Any) -> Any:
    """The most specific cause of a mismatch (inside oneOf/anyOf), which names the field."""
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    return error
