"""`ladder bench check`: the key bench figures against the committed baseline (ladder/cli/bench/check.py)."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("check")
@click.option("--baseline", "baseline_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The baseline file (default: bench/baseline.json in the repository).")
@click.option("--tolerance", type=click.FloatRange(min=0.01, max=10), default=0.25, show_default=True,
              help="How much worse a figure may get (0.25: 25%) before the check fails.")
@click.option("--update", is_flag=True, help="Write the figures measured now as the new baseline instead.")
@click.option("--sandbox/--no-sandbox", default=True, show_default=True,
              help="Also the strict sandbox's figures (needs root and bubblewrap).")
def bench_check(baseline_path: Path | None, tolerance: float, update: bool, sandbox: bool) -> None:
    """Measure the engine's and the sandbox's key figures and compare them with the baseline: exit 1
    when one is more than TOLERANCE worse, or no longer measured. For a quiet machine, not for CI."""
    from rich.console import Console
    from rich.table import Table

    from ladder.cli.bench import check

    path = baseline_path or check.BASELINE
    console = Console()
    baseline, taken_on = ({}, {}) if update else _load(check, path)
    figures = check.measure(lambda message: console.print(f"[dim]{message}[/dim]"),
                            sandbox="strict" if sandbox else None)
    if update:
        check.write_baseline(path, figures)
        console.print(f"wrote {len(figures)} figures to {path}")
        return
    if not sandbox:  # a check without the sandbox compares the engine's figures only
        baseline = {k: v for k, v in baseline.items() if not k.startswith("sandbox.")}
    verdicts = check.compare(baseline, figures, tolerance)
    table = Table(title=f"ladder bench check against {path} (tolerance {tolerance:.0%})")
    for column in ("figure", "baseline", "now", "change", "verdict"):
        table.add_column(column, justify="left" if column in ("figure", "verdict") else "right")
    for v in verdicts:
        change = "" if v.change is None else f"{v.change:+.0%}"
        colour = "red" if v.failed else "green" if v.status == "improved" else ""
        table.add_row(v.name, _num(v.baseline, v.unit), _num(v.now, v.unit), change,
                      f"[{colour}]{v.status}[/{colour}]" if colour else v.status)
    console.print(table)
    here = check.machine()
    if taken_on and taken_on != here:
        console.print(f"note: the baseline was taken on {taken_on}, this is {here}: compare with care")
    failed = [v.name for v in verdicts if v.failed]
    if failed:
        console.print(f"[red]{len(failed)} figure(s) worse than the baseline by more than {tolerance:.0%}:[/red] "
                      + ", ".join(failed))
        raise click.exceptions.Exit(1)
    console.print("no figure worse than the baseline beyond the tolerance")


def _load(check, path: Path):
    try:
        return check.load_baseline(path)
    except ValueError as exc:
        raise click.UsageError(f"{exc} (write one with --update)") from None


def _num(value: float | None, unit: str) -> str:
    return "-" if value is None else f"{value:,.3g} {unit}"
