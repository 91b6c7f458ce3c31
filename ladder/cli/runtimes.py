"""`ladder runtimes`: the runtime table (ladder/bot/runtimes.py) and what this machine has of it."""

from __future__ import annotations

import click


@click.command()
@click.option("--markdown", is_flag=True, help="Print the table as docs/bots.md shows it.")
@click.option("--packages", is_flag=True, help="Print the Debian packages every runtime needs (for apt-get).")
def runtimes(markdown: bool, packages: bool) -> None:
    """Which languages bots may be written in, how each is built and run, and which are here."""
    from ladder.bot import runtimes as table

    if packages:
        click.echo(" ".join(table.debian_packages()))
        return
    if markdown:
        click.echo(table.markdown_table())
        return
    for runtime in table.RUNTIMES:
        ok, detail = table.available(runtime)
        mark = click.style("found  ", fg="green") if ok else click.style("missing", fg="red")
        click.echo(f"{mark} {runtime.name:7} {runtime.entry:11} {detail}")
        if runtime.build:
            click.echo(f"{'':20}build: {runtime.build}")
        click.echo(f"{'':20}run:   {' '.join(runtime.run)}")
    from workers.sandbox.process import sandbox_available

    for mode in ("strict", "user"):  # where these runtimes' bots would run (strict names its cgroup backend)
        ok, why = sandbox_available(mode)
        click.echo(f"sandbox {mode}: {'available' if ok else 'unavailable'} ({why})")


def report(accepted: tuple[str, ...] | None) -> None:
    """The line `ladder up` and `ladder worker` print: which runtimes they found, and what is missing."""
    from ladder.bot.runtimes import report_line

    click.echo(report_line(accepted), err=True)
