"""/healthz answers whatever the services do; /readyz is 200 only with the database at head and the
broker answering, else 503 with a JSON reason; neither is cached."""

from __future__ import annotations

from service_support import redis_url  # noqa: F401 (fixture)
from sqlalchemy import text

from ladder import create_app
from ladder.config import Settings
from ladder.db import make_engine, upgrade


def _app(tmp_path, **settings):
    engine = make_engine(f"sqlite:///{tmp_path / 'ladder.sqlite3'}")
    upgrade(engine)
    return create_app({"settings": Settings(env="test", instance_dir=tmp_path, **settings), "LADDER_ENGINE": engine,
                       "TESTING": True}), engine


def test_ready_with_the_database_at_head_and_the_broker_answering(tmp_path, redis_url):  # noqa: F811
    app, _ = _app(tmp_path, redis_url=redis_url)
    response = app.test_client().get("/readyz")
    assert response.status_code == 200 and response.json["status"] == "ready"
    assert response.json["checks"]["database"]["ok"] and response.json["checks"]["broker"]["ok"]
    assert response.headers["Cache-Control"] == "no-store"


def test_unready_says_why_and_healthz_still_answers(tmp_path):
    app, engine = _app(tmp_path, redis_url="redis://127.0.0.1:1/0")
    client = app.test_client()
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json["status"] == "unready"
    assert response.json["reason"].startswith("broker: unreachable")
    with engine.begin() as conn:  # a deploy that did not migrate yet
        conn.execute(text("UPDATE alembic_version SET version_num = '0001_old'"))
    reason = client.get("/readyz").json["reason"]
    assert "database: schema at 0001_old" in reason and "run `ladder migrate`" in reason
    alive = client.get("/healthz")
    assert alive.status_code == 200 and alive.json == {"status": "ok"}
