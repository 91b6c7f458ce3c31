"""Issue #43's done criterion: a worker and a web process on different instance folders, sharing
nothing but PostgreSQL, Redis and the S3 store, play and serve matches of a compiled bot whose build
artifact lives in the S3 backend (moto's server, tests/store_support.py), and the web serves the
daily dump a worker wrote into the store.

Needs PostgreSQL, Redis, the strict sandbox, the C toolchain and moto; without them it skips, or
fails under LADDER_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import subprocess
import urllib.request
from datetime import timedelta
from pathlib import Path

from needs import unavailable
from service_support import (
    LADDER,
    add_user_bot,
    pg_url,  # noqa: F401 (fixture)
    redis_url,  # noqa: F401 (fixture)
    service_env,
    start,
    stop,
    wait_until,
)
from sqlalchemy import func, update
from sqlmodel import select
from store_support import free_port, s3_bucket, s3_server  # noqa: F401 (fixtures)
from web.helpers import make_zip

from ladder.bot import runtimes
from ladder.config import Settings
from ladder.db import make_engine, session_factory
from ladder.models import BotVersion, BuildArtifact, Match, Seat
from workers.queue import celery_app

KIT_C = (Path(__file__).parents[3] / "bots" / "examples" / "c" / "main.c").read_bytes()


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except OSError:
        return 0, b""


def test_a_worker_and_a_web_host_share_only_the_database_broker_and_s3_store(
        pg_url, redis_url, s3_server, s3_bucket, tmp_path, strict_sandbox):  # noqa: F811 (fixtures)
    if not runtimes.available(runtimes.BY_NAME["c"])[0]:
        unavailable("the c runtime")
    store_env = s3_server.env(s3_bucket)
    hosts = {name: tmp_path / name for name in ("migrate", "worker", "beat", "web")}
    for folder in hosts.values():
        folder.mkdir()
    envs = {name: service_env(database_url=pg_url, redis_url=redis_url, instance=folder, sandbox=strict_sandbox,
                              LADDER_SCHEDULER_INTERVAL="1", LADDER_MATCH_STALE_AFTER="120", **store_env)
            for name, folder in hosts.items()}
    done = subprocess.run([*LADDER, "migrate"], env=envs["migrate"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    engine = make_engine(pg_url)
    sessions = session_factory(engine)
    with sessions() as session:
        version = add_user_bot(session, username="carol", code=make_zip({"main.c": KIT_C}), filename="bot.zip",
                               active=False)
    port = free_port()
    logs = [tmp_path / f"{name}.log" for name in ("worker", "beat", "web")]
    worker = start(["worker", "--concurrency", "1", "--name", "nothing-shared@%h"], envs["worker"], logs[0])
    beat = start(["scheduler"], envs["beat"], logs[1])
    web = start(["web", "--port", str(port), "--workers", "1"], envs["web"], logs[2])
    base = f"http://127.0.0.1:{port}"
    try:
        def rated_with_the_c_bot():
            with sessions() as s:
                if s.get(BotVersion, version.id).status != "active":
                    return None
                return s.exec(select(Match.id).join(Seat, Seat.match_id == Match.id)
                              .where(Seat.bot_version_id == version.id, Match.status == "finished",
                                     Match.kind == "ladder")).first()
        rated = wait_until(rated_with_the_c_bot, 240, "the C bot's validation and a rated match", logs)
        with sessions() as session:
            key = session.get(BotVersion, version.id).build_key
            artifact = session.get(BuildArtifact, key)
            validation = session.get(BotVersion, version.id).validation_match_id
        # the artifact is in the bucket, not in the database nor in any host's folder
        objects = s3_server.client().list_objects_v2(Bucket=s3_bucket, Prefix="ladder/builds/").get("Contents", [])
        assert [o["Key"] for o in objects] == [f"ladder/builds/{key}.tar"]
        assert artifact.data is None and artifact.size == objects[0]["Size"] > 0
        assert not any(p.suffix == ".tar" for folder in hosts.values() for p in folder.rglob("*"))

        # the web host, on its own folder, serves both matches and their replays
        wait_until(lambda: _get(f"{base}/readyz")[0] == 200, 60, "the web host", logs)
        for match_id in (validation, rated):
            status, page = _get(f"{base}/matches/{match_id}")
            assert status == 200 and b"carol" in page
            assert _get(f"{base}/matches/{match_id}/replay.json")[0] == 200

        # a worker writes yesterday's dump into the store; the web host lists and serves it
        with sessions() as session:
            session.exec(update(Match).where(Match.id == rated).values(
                finished_at=func.now() - timedelta(days=1)).execution_options(synchronize_session=False))
            session.commit()
            day = session.get(Match, rated).finished_at.date()
        saved = (celery_app.app.ladder_settings, dict(celery_app.app.conf))
        celery_app.configure(Settings(env="test", instance_dir=tmp_path, database_url=pg_url, redis_url=redis_url))
        try:
            celery_app.app.send_task("workers.queue.tasks.write_dumps")
        finally:
            celery_app.app.ladder_settings = saved[0]
            celery_app.app.conf.update(saved[1])
        name = f"treasure-{day.isoformat()}.zip"
        wait_until(lambda: name.encode() in _get(f"{base}/datasets/")[1], 120, "the dump on the web host", logs)
        status, body = _get(f"{base}/datasets/treasure/{name}")
        assert status == 200 and body[:2] == b"PK"
    finally:
        for proc in (web, beat, worker):
            stop(proc)
        engine.dispose()
