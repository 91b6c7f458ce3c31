"""Option parsing shared by the commands."""

from __future__ import annotations

from collections.abc import Sequence

import click


def hex_key(ctx: click.Context, param: click.Parameter, value: str | None) -> bytes | None:
    if value is None:
        return None
    try:
        key = bytes.fromhex(value)
    except ValueError:
        raise click.BadParameter("not a hex string (a replay's seed_key)") from None
    if not key:
        raise click.BadParameter("empty")
    return key


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.UsageError(f"--option {pair!r}: write it as key=value")
        options[key.strip()] = value.strip()
    return options
