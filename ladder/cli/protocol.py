"""`ladder protocol docs`: the protocol page's field tables, generated from the schemas."""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def protocol() -> None:
    """The bot protocol's JSON Schemas (ladder/protocol_schema, ladder/games/*/schema.json)."""


@protocol.command("docs")
@click.option("--write", "write_path", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Update the generated blocks of this page (docs/protocol.md) instead of printing them.")
def protocol_docs(write_path: Path | None) -> None:
    """The field tables docs/protocol.md holds, generated from the schemas."""
    from ladder.protocol_schema.docs import fill, generated

    blocks = generated()
    if write_path is None:
        for name, text in blocks.items():
            click.echo(f"<!-- BEGIN generated: {name} -->\n\n{text}\n<!-- END generated: {name} -->\n")
        return
    page = write_path.read_text()
    if "<!-- BEGIN generated: envelope -->" not in page:
        raise click.UsageError(f"{write_path} has no block for envelope: add "
                               "<!-- BEGIN generated: envelope --> and <!-- END generated: envelope --> lines")
    write_path.write_text(fill(page, blocks))
    click.echo(f"updated {len(blocks)} generated blocks in {write_path}")
