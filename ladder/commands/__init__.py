"""Commands of the ladder service (web, workers, scheduler, `ladder up`, ratings, service bench).

They live here rather than in ladder/cli.py so the service's owners can change them without
touching the engine's commands; `register(main)` adds them to the `ladder` group. Each command
imports what it needs when it runs, so `ladder --help` stays fast.
"""

from __future__ import annotations

import click


def register(main: click.Group) -> None:
    from ladder.commands import admin, bench_check, chaos, export, gauntlet, runtimes, service, tournament

    for command in (service.up, service.web, service.worker, service.scheduler, service.migrate, service.ratings):
        main.add_command(command)
    main.add_command(tournament.tournament)
    main.add_command(gauntlet.gauntlet)
    main.add_command(runtimes.runtimes)
    main.add_command(admin.admin)
    main.add_command(export.export)
    bench = main.commands.get("bench")
    if isinstance(bench, click.Group):
        bench.add_command(service.bench_service)
        bench.add_command(tournament.bench_tournament)
        bench.add_command(export.bench_export)
        bench.add_command(chaos.bench_chaos)
        bench.add_command(bench_check.bench_check)
