"""`ladder bench service` on a tiny seed: it runs end to end and prints its numbers (no timing is
asserted), its seed is what it claims to be, and it leaves no database behind. Needs PostgreSQL
and Redis (and the strict sandbox for the Celery part): skipped without them, failed under
LADDER_REQUIRE_SERVICES=1."""

from __future__ import annotations

import os
import re

from click.testing import CliRunner
from service_support import pg_url, redis_url, strict_mode  # noqa: F401 (fixtures)
from sqlalchemy import create_engine, text

from ladder.cli import main
from ladder.cli.bench.service import _conninfo, scratch_database
from ladder.cli.bench.service_seed import SEATS, seed_bots, seed_matches
from ladder.config import Settings
from ladder.db import make_engine, upgrade
from workers.queue import celery_app


def test_the_seed_is_a_consistent_history(pg_url):  # noqa: F811
    bots, matches = 60, 400
    migrated = make_engine(pg_url)
    upgrade(migrated)
    migrated.dispose()
    seed_bots(_conninfo(Settings(database_url=pg_url).sqlalchemy_url), bots)
    seed_matches(_conninfo(Settings(database_url=pg_url).sqlalchemy_url), bots, matches)
    engine = create_engine(Settings(database_url=pg_url).sqlalchemy_url)
    with engine.connect() as conn:
        one = lambda sql: conn.execute(text(sql)).scalar_one()  # noqa: E731
        assert one("SELECT count(*) FROM bots") == bots
        assert one("SELECT count(*) FROM matches WHERE status = 'finished' AND ranked") == matches
        assert one("SELECT count(*) FROM seats") == one("SELECT count(*) FROM rating_changes") == SEATS * matches
        assert one("SELECT sum(games) FROM ratings") == SEATS * matches
        assert one("SELECT sum(rating - 1500000) FROM ratings") == 0  # zero-sum steps
        assert one("SELECT sum(meetings) FROM head_to_head") == SEATS * (SEATS - 1) * matches
        assert one("SELECT count(*) FROM ratings r WHERE r.rating <> 1500000 + "
                   "(SELECT coalesce(sum(delta), 0) FROM rating_changes c WHERE c.bot_id = r.bot_id)") == 0
        assert one("SELECT applied FROM rating_clock") == matches
        # a scorecard per seat, and the sums recording would have left (services/scorecard.py)
        assert one("SELECT count(*) FROM scorecard_tallies") == SEATS * matches
        every = "SELECT sum(matches) FROM scorecard_sums WHERE opponent_id = 0 AND "
        for where in ("version_id = 0 AND players = 0", "version_id = bot_id AND players = 0",
                      f"version_id = 0 AND players = {SEATS}"):
            assert one(every + where) == SEATS * matches, where
        assert one("SELECT sum(matches) FROM scorecard_sums WHERE opponent_id <> 0") == \
            one("SELECT sum(meetings) FROM head_to_head")
        assert one("SELECT count(*) FROM scorecard_sums s JOIN ratings r ON r.bot_id = s.bot_id "
                   "WHERE s.opponent_id = 0 AND s.players = 0 AND s.version_id = 0 AND "
                   "(s.tallies -> 'first' ->> 1)::int <> r.games") == 0
        # a new row gets the next id: the sequences were moved past the copied ids
        assert one("SELECT nextval(pg_get_serial_sequence('matches', 'id'))") == matches + 1
    engine.dispose()


def test_a_small_history_can_seat_only_its_first_bots(pg_url):  # noqa: F811
    # the page bench's like-for-like small history: few players, each with a big history's share
    migrated = make_engine(pg_url)
    upgrade(migrated)
    migrated.dispose()
    seed_bots(_conninfo(Settings(database_url=pg_url).sqlalchemy_url), 50)
    seed_matches(_conninfo(Settings(database_url=pg_url).sqlalchemy_url), 50, 100, players=8)
    engine = create_engine(Settings(database_url=pg_url).sqlalchemy_url)
    with engine.connect() as conn:
        one = lambda sql: conn.execute(text(sql)).scalar_one()  # noqa: E731
        assert one("SELECT count(DISTINCT bot_id) FROM seats") == 8 and one("SELECT max(bot_id) FROM seats") == 8
        assert one("SELECT count(*) FROM ratings") == 50  # every bot is on the leaderboard
        assert one("SELECT sum(games) FROM ratings WHERE bot_id <= 8") == SEATS * 100
    engine.dispose()


def test_bench_service_prints_latencies_and_throughput(pg_url, redis_url, strict_mode):  # noqa: F811
    admin = Settings(database_url=pg_url).sqlalchemy_url
    saved = (celery_app.app.ladder_settings, dict(celery_app.app.conf))  # the bench points the app at Redis
    try:
        result = CliRunner().invoke(main, [
            "bench", "service", "--bots", "40", "--matches", "2000", "--small-matches", "20", "--requests", "5",
            "--celery-matches", "2", "--database-url", admin, "--redis-url", redis_url, "--sandbox", strict_mode,
            "--breakdown", "2", "--pool", "light",
        ])
    finally:
        celery_app.app.ladder_settings = saved[0]
        celery_app.app.conf.update(saved[1])
    print(result.output)
    assert result.exit_code == 0, result.output
    assert re.search(r"leaderboard\s+│\s+20 │\s+[\d.]+ │\s+[\d.]+", result.output)
    assert re.search(r"│\s+2,000 │\s+[\d.]+ │\s+[\d.]+ │\s+[\d.]+ │\s+[\d.]+", result.output)
    assert "bot page" in result.output
    # like for like: the small history's pages are of bots that played (8 of 40 at 20 matches)
    assert "20 matches among 8 of them" in result.output and "2,000 matches among 40 of them" in result.output
    # the console wraps long lines at its width: compare with the line breaks taken out
    assert "pool light: house and users' copies of the starters conceder, greedy, modeler, random" \
        in " ".join(result.output.split())
    for row in ("matches per minute", "cores busy", "cores stolen", "matches per busy core-minute"):
        assert re.search(rf"{row}[^│]*│\s+[\d.]+ │\s+[\d.]+ │", result.output), row
    # the breakdown: every phase of the runner and the job, with the bots' CPU where bots run
    breakdown = {m[0]: [float(v) for v in m[1:]] for m in re.findall(
        r"│ ([a-z ]+?)\s+│\s+([\d.]+) │\s+([\d.]+) │\s+([\d.]+) │\s+\d+% │", result.output)}
    assert set(breakdown) == {"stage", "start", "play", "end", "teardown", "replay", "claim and record"}, breakdown
    assert breakdown["play"][0] > 0 and breakdown["play"][1] > 0 and breakdown["play"][2] > 0  # the bots ran
    assert breakdown["start"][2] > 0 and breakdown["teardown"][2] == 0.0
    assert re.search(r"Core-seconds per match: [\d.]+ in the worker and the bots", result.output)
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        left = conn.execute(text("SELECT datname FROM pg_database WHERE datname LIKE 'ladder_bench_%'")).all()
    engine.dispose()
    assert [name for (name,) in left if f"_{os.getpid()}_" in name] == []


def test_scratch_databases_are_dropped(pg_url):  # noqa: F811
    admin = Settings(database_url=pg_url).sqlalchemy_url
    with scratch_database(admin, "probe", keep=False) as url:
        name = url.rsplit("/", 1)[1]
        engine = create_engine(url)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM rating_clock")).scalar_one() >= 0  # migrated
        engine.dispose()
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM pg_database WHERE datname = :n"), {"n": name}).scalar_one() == 0
    engine.dispose()


def test_the_light_pool_seats_only_the_light_starters_and_the_house_pool_every_one(pg_url):  # noqa: F811
    from ladder.cli.bench.service import LIGHT_POOL, _prepare_worker_db
    from ladder.models import Bot, BotVersion

    admin = Settings(database_url=pg_url).sqlalchemy_url
    for names, expected in ((LIGHT_POOL, set(LIGHT_POOL)), (None, None)):
        with scratch_database(admin, "pool", keep=False) as url:
            versions = _prepare_worker_db(url, users=12, names=names)
            engine = create_engine(url)
            with engine.connect() as conn:
                seated = conn.execute(
                    text(f"SELECT b.name FROM {BotVersion.__tablename__} v JOIN {Bot.__tablename__} b "
                         "ON b.id = v.bot_id WHERE v.id = ANY(:ids)"), {"ids": versions}).scalars().all()
            engine.dispose()
        starters = {name.rstrip("0123456789") for name in seated}
        assert len(seated) == len(set(versions)) == (len(LIGHT_POOL) + 12 if names else len(seated))
        if expected is not None:
            assert starters == expected
        else:
            assert {"strong", "hardhead"} <= starters and set(LIGHT_POOL) <= starters
