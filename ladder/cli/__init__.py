"""The `ladder` command: the group and its commands, one module each.

The command line is the ladder's composition root: it is the one part of `ladder/` that reaches
into `workers/` (the sandbox, the runner, the Celery app), and only inside the command functions,
so `ladder --help` stays fast and the core never imports the workers. Each command module imports
its heavy modules when it runs.
"""

from __future__ import annotations

import click

from ladder import __version__
from ladder.cli import (
    admin,
    bench,
    bench_check,
    bench_storage,
    chaos,
    connect,
    export,
    gauntlet,
    match,
    moderation,
    play,
    protocol,
    replay,
    replays_admin,
    runtimes,
    service,
    storage,
    tournament,
)
from ladder.cli.bench import leagues as bench_leagues


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ladder")
def main() -> None:
    """The dragon bot ladder: play games between bots, check replays, measure speed."""


for command in (play.play, match.match, play.demo, replay.replay, bench.bench, protocol.protocol,
                service.up, service.web, service.worker, service.scheduler, service.migrate, service.ratings,
                service.scorecard, tournament.tournament, gauntlet.gauntlet, runtimes.runtimes, admin.admin,
                export.export, connect.connect):
    main.add_command(command)
for command in (*moderation.COMMANDS, *storage.COMMANDS, replays_admin.compact_replays):
    admin.admin.add_command(command)
bench.bench.add_command(service.bench_service)
bench.bench.add_command(tournament.bench_tournament)
bench.bench.add_command(bench_leagues.bench_leagues)
bench.bench.add_command(export.bench_export)
bench.bench.add_command(chaos.bench_chaos)
bench.bench.add_command(bench_check.bench_check)
bench.bench.add_command(bench_storage.bench_storage)
