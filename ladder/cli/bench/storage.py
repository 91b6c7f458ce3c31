"""`ladder bench storage`: what a match costs PostgreSQL, and do the pages stay fast as matches pile up?

Two scratch databases with the same bots are filled (ladder/cli/bench/storage_seed.py) from real
games played once: one with `small` matches (default 1,000), one with `matches` (default
1,000,000; 10,000,000 is reachable, size it to the machine). Then:

1. Bytes per match by table: pg_total_relation_size (heap, TOAST and indexes) of each table that
   grows with matches, over the matches. By game: `sample` matches of each game, the bytes of
   their rows (pg_column_size) plus each row's share of its table's indexes and page overhead.
2. Page times, median of `requests` GETs through the real Flask app in-process (the WSGI test
   client): the home page, the flagship's leaderboard, its busy bot's page and a match page (a
   different match each time: a compact one is rebuilt on its first view), small and big in turn
   so whatever else the machine does weighs on both alike.
3. Every replay still served: `verify` matches per game downloaded through the replay route and
   verified (`ladder replay verify`'s check) on the big database.

With `explain`, the slowest statements of each page on the big database are shown with their
EXPLAIN (ANALYZE, BUFFERS). Prints numbers, asserts nothing; the databases are dropped unless `keep`.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from sqlalchemy import create_engine, event, text

from ladder.cli.bench.service import _conninfo, make_client, scratch_database, timed_get, trim
from ladder.cli.bench.storage_seed import play_templates, seed_bots, seed_matches
from ladder.cli.progress import Progress

GROWING = ("matches", "seats", "rating_changes", "replays", "bot_logs", "scorecard_tallies")
ONE_YEAR = 300 * 60 * 24 * 365  # matches a year at 300 a minute


@dataclass(frozen=True)
class Sizes:
    matches: int
    by_table: dict[str, int]  # bytes
    by_game: dict[str, dict[str, float]]  # game -> table -> bytes per match


def fill(url: str, templates, games: list[str], bots: int, matches: int, console: Console) -> float:
    started = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task(f"filling {matches:,} matches", total=matches)
        ids = seed_bots(_conninfo(url), games, bots)
        seed_matches(_conninfo(url), templates, ids, matches, advance=lambda n: progress.advance(task, n))
        progress.update(task, description=f"{matches:,} matches; VACUUM ANALYZE done")
    filled = time.perf_counter() - started
    trimmed, took = trim(url)
    console.print(f"retention's scorecard trim: {trimmed:,} rows past each bot's chart deleted in {took:.1f} s")
    return filled


def measure_sizes(url: str, games: list[str], matches: int, sample: int) -> Sizes:
    engine = create_engine(url)
    with engine.connect() as conn:
        by_table = {t: conn.execute(text(f"SELECT pg_total_relation_size('{t}')")).scalar_one() for t in GROWING}
        heap = {}
        rows = {}
        for t in GROWING:
            rows[t] = conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one()
            heap[t] = conn.execute(text(f"SELECT COALESCE(sum(pg_column_size(x.*)), 0) FROM {t} x")).scalar_one() \
                if rows[t] <= 200_000 else None
        by_game: dict[str, dict[str, float]] = {}
        for game in games:
            ids = conn.execute(text("SELECT id FROM matches TABLESAMPLE SYSTEM (5) WHERE game = :g LIMIT :n"),
                               {"g": game, "n": sample}).scalars().all() or conn.execute(
                text("SELECT id FROM matches WHERE game = :g LIMIT :n"), {"g": game, "n": sample}).scalars().all()
            per = {}
            for t in GROWING:
                key = "id" if t == "matches" else "match_id"
                found = conn.execute(text(f"SELECT count(*), COALESCE(sum(pg_column_size(x.*)), 0) FROM {t} x "
                                          f"WHERE {key} = ANY(:ids)"), {"ids": list(ids)}).one()
                # each row's share of what the table holds beyond its rows' own bytes (indexes, page
                # and tuple headers, free space), from the whole table
                total_rows = rows[t] or 1
                if heap[t] is None:
                    sampled = conn.execute(text(f"SELECT COALESCE(avg(pg_column_size(x.*)), 0) FROM {t} x "
                                                f"TABLESAMPLE SYSTEM (1)")).scalar_one()
                    own = float(sampled) * total_rows
                else:
                    own = float(heap[t])
                overhead = max(0.0, by_table[t] - own) / total_rows
                per[t] = (float(found[1]) + overhead * found[0]) / max(1, len(ids))
            by_game[game] = per
    engine.dispose()
    return Sizes(matches, by_table, by_game)


def render_sizes(console: Console, sizes: Sizes, label: str) -> float:
    table = Table(title=f"bytes per match on PostgreSQL, {sizes.matches:,} matches ({label})")
    table.add_column("table")
    table.add_column("total MB", justify="right")
    table.add_column("per match", justify="right")
    for game in sizes.by_game:
        table.add_column(game, justify="right")
    total = 0.0
    for t in GROWING:
        per = sizes.by_table[t] / sizes.matches
        total += per
        table.add_row(t, f"{sizes.by_table[t] / 1e6:,.1f}", f"{per:,.0f}",
                      *[f"{sizes.by_game[g][t]:,.0f}" for g in sizes.by_game])
    table.add_row("all", f"{sum(sizes.by_table.values()) / 1e6:,.1f}", f"{total:,.0f}",
                  *[f"{sum(sizes.by_game[g].values()):,.0f}" for g in sizes.by_game], style="bold")
    console.print(table)
    console.print(f"a year at 300 matches a minute ({ONE_YEAR:,} matches): {total * ONE_YEAR / 1e9:,.0f} GB "
                  "in these tables")
    return total


def _paths(games: list[str], busy: int, matches: int, rng: random.Random, requests: int) -> dict[str, list[str]]:
    flagship = games[0]
    return {
        "home": ["/"] * requests,
        "leaderboard": [f"/leaderboard/{flagship}"] * requests,
        "busy bot": [f"/bots/{busy}"] * requests,
        "match page": [f"/matches/{rng.randint(1, matches)}" for _ in range(requests)],
    }


def measure_pages(small_url: str, big_url: str, small: int, big: int, games: list[str], requests: int,
                  console: Console, explain: bool) -> list[tuple[str, float, float]]:
    from ladder.services.stored_replays import clear_cache

    rng = random.Random(11)
    clients = [make_client(small_url), make_client(big_url)]
    plans = [_paths(games, 1, small, rng, requests), _paths(games, 1, big, rng, requests)]
    out = []
    for name in plans[0]:
        timings: tuple[list[float], list[float]] = ([], [])
        for index in range(requests + 2):  # two warm-up requests each
            for (client, _), paths, sink in zip(clients, plans, timings, strict=True):
                path = paths[name][index % requests] if name != "match page" or index >= 2 else "/matches/1"
                took = timed_get(client, path)
                if index >= 2:
                    sink.append(took)
        clear_cache()
        out.append((name, statistics.median(timings[0]), statistics.median(timings[1])))
    if explain:
        _explain(clients[1][1], clients[1][0], plans[1], console)
    for _, engine in clients:
        engine.dispose()
    return out


def _explain(engine, client, paths: dict[str, list[str]], console: Console) -> None:
    """The slowest statements each page sends, with their plans on this database."""
    seen: list[tuple[str, object, float]] = []

    def before(conn, cursor, statement, parameters, context, executemany):
        conn.info["started"] = time.perf_counter()

    def after(conn, cursor, statement, parameters, context, executemany):
        seen.append((statement, parameters, (time.perf_counter() - conn.info.pop("started")) * 1000))

    event.listen(engine, "before_cursor_execute", before)
    event.listen(engine, "after_cursor_execute", after)
    try:
        for name, page in paths.items():
            seen.clear()
            timed_get(client, page[-1])
            worst = sorted(seen, key=lambda s: -s[2])[:3]
            console.rule(f"{name}: {page[-1]}: {len(seen)} statements, the slowest")
            with engine.connect() as conn:
                raw = conn.connection.dbapi_connection
                for statement, parameters, ms in worst:
                    if not statement.lstrip().upper().startswith("SELECT"):
                        continue
                    with raw.cursor() as cursor:
                        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + statement, parameters)
                        plan = "\n".join(row[0] for row in cursor.fetchall())
                    console.print(f"[bold]{ms:.2f} ms[/bold] {' '.join(statement.split())[:300]}")
                    console.print(plan, markup=False, highlight=False)
                raw.rollback()
    finally:
        event.remove(engine, "before_cursor_execute", before)
        event.remove(engine, "after_cursor_execute", after)


def verify_served(url: str, games: list[str], per_game: int) -> tuple[int, int]:
    """(served and verified, looked at): `per_game` random matches of each game, downloaded
    through the replay route as a browser would and re-simulated."""
    from ladder.replay import loads_replay, verify_replay

    client, engine = make_client(url)
    ok = looked = 0
    with engine.connect() as conn:
        ids = [i for g in games for i in conn.execute(text(
            "SELECT id FROM matches WHERE game = :g ORDER BY random() LIMIT :n"), {"g": g, "n": per_game}).scalars()]
    for match_id in ids:
        looked += 1
        response = client.get(f"/matches/{match_id}/replay.json")
        if response.status_code == 200 and verify_replay(loads_replay(response.data)).ok:
            ok += 1
    engine.dispose()
    return ok, looked


def run_storage_bench(*, admin_url: str, matches: int, small: int, bots: int, per_game: int, sandbox: str,
                      form: str, requests: int, sample: int, verify: int, keep: bool, prefix: str,
                      explain: bool, console: Console) -> None:
    from ladder.games import FLAGSHIP, available_games

    games = [FLAGSHIP, *sorted(g for g in available_games() if g != FLAGSHIP)]
    started = time.perf_counter()
    with Progress(TextColumn("{task.description}"), console=console, transient=True) as progress:
        task = progress.add_task("playing the templates")
        templates = play_templates(games, per_game, sandbox, form,
                                   lambda message: progress.update(task, description=message))
    console.print(f"{len(templates)} real matches played ({sandbox}) in {time.perf_counter() - started:.0f} s; "
                  "stored as " + ", ".join(
                      f"{g} {statistics.mean(t.data_bytes for t in templates if t.game == g):,.0f} B"
                      for g in games) + f" per replay row ({form})")
    with scratch_database(admin_url, "small", keep, f"{prefix}_small") as small_url, \
            scratch_database(admin_url, "big", keep, f"{prefix}_big") as big_url:
        for url, count in ((small_url, small), (big_url, matches)):
            took = fill(url, templates, games, bots, count, console)
            console.print(f"filled {count:,} matches of {bots * len(games):,} bots in {took:.0f} s "
                          f"({count / took:,.0f} matches/s)")
        sizes = measure_sizes(big_url, games, matches, sample)
        render_sizes(console, sizes, form)
        ok, looked = verify_served(big_url, games, verify)
        console.print(f"replays served and verified: {ok} of {looked} ({verify} random matches per game)")
        pages = measure_pages(small_url, big_url, small, matches, games, requests, console, explain)
        table = Table(title=f"page times, median of {requests} GETs (Flask test client)")
        for column in ("page", f"{small:,} matches ms", f"{matches:,} matches ms", "ratio"):
            table.add_column(column, justify="right" if column != "page" else "left")
        for name, a, b in pages:
            table.add_row(name, f"{a:.1f}", f"{b:.1f}", f"{b / a:.2f}")
        console.print(table)
