"""Progress where nobody watches a terminal: plain lines in a log, at most one a task per interval,
and the task's end said once."""

from __future__ import annotations

import io
import threading

from rich.console import Console

from ladder.cli.progress import Progress, plain_line


def _log_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=False, width=200), out


def test_a_log_gets_a_line_per_interval_and_one_at_the_end():
    console, out = _log_console()
    with Progress(console=console, every=3600) as progress:
        task = progress.add_task("matches", total=5)
        for _ in range(5):
            progress.advance(task)
        progress.update(task, completed=5)  # updated after its end: not said again
    lines = [line for line in out.getvalue().splitlines() if line.startswith("matches:")]
    assert lines == ["matches: 5/5 (100%), 0:00:00 taken"], out.getvalue()


def test_every_advance_past_the_interval_is_said_with_what_is_left():
    console, out = _log_console()
    with Progress(console=console, every=0) as progress:
        task = progress.add_task("games", total=4)
        for _ in range(3):
            progress.advance(task)
    said = [line for line in out.getvalue().splitlines() if line.startswith("games:")]
    assert [line.split(",")[0] for line in said] == ["games: 1/4 (25%)", "games: 2/4 (50%)", "games: 3/4 (75%)"]


def test_a_terminal_gets_rich_bar_alone():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=200)
    with Progress(console=console, every=0, transient=True) as progress:
        task = progress.add_task("games", total=2)
        progress.advance(task)
        progress.advance(task)
    assert "games: 1/2" not in out.getvalue()


def test_threads_advancing_at_once_say_the_end_once():
    console, out = _log_console()
    with Progress(console=console, every=0) as progress:
        task = progress.add_task("jobs", total=200)

        def work() -> None:
            for _ in range(50):
                progress.advance(task)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    ends = [line for line in out.getvalue().splitlines() if line.startswith("jobs: 200/200")]
    assert len(ends) == 1


def test_the_line_without_a_total_or_an_estimate():
    assert plain_line("rows", 12, None, 75.4, None) == "rows: 12, 0:01:15 taken"
    assert plain_line("", 3, 4, 1, 30) == "progress: 3/4 (75%), 0:00:01 taken, about 0:00:30 left"
