"""docs/protocol.md's field tables, generated from the schemas so the page cannot drift from them.

`ladder protocol docs` prints them; `--write` puts them into docs/protocol.md between the markers
`<!-- BEGIN generated: NAME -->` and `<!-- END generated: NAME -->` (NAME is `envelope` or a game);
a test checks the page holds exactly what this module generates.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ladder.protocol_schema import envelope_schema, game_schema, schema_games

# the order of sections in a game's reference: shared types last
SECTIONS = (("options", "hello.options"), ("observation", "The observation"), ("request", "Requests"),
            ("decision", "Decisions"), ("event", "Events' data"))


def _ref_name(node: dict[str, Any]) -> str | None:
    ref = node.get("$ref")
    return ref.rsplit("/", 1)[1] if isinstance(ref, str) else None


def _anchor(name: str) -> str:
    return f"{_CONTEXT['prefix']}-{name}".replace(".", "-").replace("_", "-")


def _type(node: dict[str, Any]) -> str:
    """A short type text: `integer`, `token_id`, `string: up, down`, `list of token`, `... or null`."""
    if (name := _ref_name(node)) is not None:
        return f"[{name}](#{_anchor(name)})"
    for key in ("anyOf", "oneOf"):
        if key in node:
            return " or ".join(_type(n) for n in node[key])
    if "const" in node:
        return f"`{_json(node['const'])}`"
    kind = node.get("type", "any")
    if isinstance(kind, list):
        base = _type({**node, "type": kind[0]})
        return " or ".join([base, *kind[1:]])
    if kind == "array":
        items = node.get("items", {})
        fixed = "minItems" in node and node.get("minItems") == node.get("maxItems")
        bounds = f" of {node['minItems']}" if fixed else ""
        inner = _type(items)
        return f"list{bounds} of " + (f"({inner})" if " or " in inner else inner)
    if kind == "object" and "additionalProperties" in node and isinstance(node["additionalProperties"], dict):
        return f"object: seat (string) → {_type(node['additionalProperties'])}"
    if "enum" in node:
        return f"{kind}: " + ", ".join(f"`{v}`" for v in node["enum"])
    extra = []
    if "pattern" in node:
        extra.append(f"like `{_example(node['pattern'])}`")
    if "minimum" in node and "maximum" in node:
        extra.append(f"{node['minimum']}..{node['maximum']}")
    elif "minimum" in node:
        extra.append(f"≥ {node['minimum']}")
    return kind + (f" ({', '.join(extra)})" if extra else "")


_CONTEXT: dict[str, Any] = {"prefix": "", "defs": {}}  # the document being rendered


def _example(pattern: str) -> str:
    return re.sub(r"\^|\$|\[0-9\]\+", lambda m: "7" if m.group() == "[0-9]+" else "", pattern)


def _json(value: Any) -> str:
    return "true" if value is True else "false" if value is False else "null" if value is None else \
        f'"{value}"' if isinstance(value, str) else str(value)


def _rows(node: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, str, str, bool]]:
    """(field path, type, description, required) for an object's fields, nested objects and lists
    of objects flattened into dotted paths (`negotiation.standing[].shares`)."""
    required = set(node.get("required", []))
    for name, prop in node.get("properties", {}).items():
        path = f"{prefix}{name}"
        text = prop.get("description") or _CONTEXT["defs"].get(_ref_name(prop) or "", {}).get("description", "")
        yield path, _type(prop), text, name in required
        if prop.get("type") == "object" and "properties" in prop:
            yield from _rows(prop, path + ".")
        elif prop.get("type") == "array" and isinstance(prop.get("items"), dict):
            items = prop["items"]
            while items.get("type") == "array" and isinstance(items.get("items"), dict) and "properties" not in items:
                items, path = items["items"], path + "[]"
            if items.get("type") == "object" and "properties" in items:
                yield from _rows(items, path + "[].")


def _table(node: dict[str, Any]) -> list[str]:
    rows = list(_rows(node))
    if not rows:
        if node.get("type") == "object" and node.get("properties") == {}:
            return ["(no fields: `{}`)"]
        return [f"{_type(node)}"]
    out = ["| field | type | meaning |", "|---|---|---|"]
    for path, kind, text, required in rows:
        optional = "" if required else " *(optional)*"
        out.append(f"| `{path}` | {kind.replace('|', '/')} | {text.replace('|', '/')}{optional} |")
    return out


def _section(name: str, node: dict[str, Any]) -> list[str]:
    return [f'<a id="{_anchor(name)}"></a>**`{name}`**: {node.get("description", "")}', "",
            *_table(node), ""]


def render(doc: dict[str, Any], anchor_prefix: str) -> str:
    """The reference for one schema document: each $def as a table, grouped (a game's by section;
    the envelope's in order). Anchors start with `anchor_prefix`, so two games share a page."""
    defs = doc["$defs"]
    _CONTEXT.update(prefix=anchor_prefix, defs=defs)
    lines: list[str] = []
    done: set[str] = set()
    for prefix, title in SECTIONS if anchor_prefix != "envelope" else ():
        names = [n for n in defs if n == prefix or n.startswith(prefix + ".")]
        if not names:
            continue
        lines += [f"#### {title}", ""]
        for name in names:
            lines += _section(name, defs[name])
            done.add(name)
    rest = [n for n in defs if n not in done]
    if rest:
        lines += ["#### Types", ""] if done else []
        for name in rest:
            lines += _section(name, defs[name])
    return "\n".join(lines).rstrip() + "\n"


def generated() -> dict[str, str]:
    """NAME -> generated markdown, for the envelope and every game with a schema."""
    return {"envelope": render(envelope_schema(), "envelope"), **{g: render(game_schema(g), g) for g in schema_games()}}


def fill(page: str, blocks: dict[str, str]) -> str:
    """`page` with each marked block replaced by its generated text. A game without a block yet
    (a new game's schema.json) gets a section with one at the end: adding a game's reference to
    the page is running `ladder protocol docs --write docs/protocol.md`, nothing more."""
    for name in blocks:
        if f"<!-- BEGIN generated: {name} -->" not in page and name != "envelope":
            page = (page.rstrip("\n") + f'\n\n<a id="{name}-fields"></a>\n### {name} field reference\n\n'
                    f"Generated from `ladder/games/{name}/schema.json`.\n\n"
                    f"<!-- BEGIN generated: {name} -->\n<!-- END generated: {name} -->\n")
    for name, text in blocks.items():
        pattern = re.compile(
            rf"(<!-- BEGIN generated: {re.escape(name)} -->\n).*?(<!-- END generated: {re.escape(name)} -->)", re.S
        )
        page = pattern.sub(lambda m, text=text: m.group(1) + "\n" + text + "\n" + m.group(2), page)
    return page
