"""The app factory: nothing at import time, config passed in, error pages, security headers."""

from __future__ import annotations

import io
import subprocess
import sys
import time

from sqlalchemy import text

from ladder import create_app
from ladder.config import Settings


def test_importing_ladder_loads_no_web_stack():
    code = "import sys, ladder, ladder.replay; print(sorted(m for m in ('flask', 'sqlalchemy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_config_as_settings_or_mapping(tmp_path):
    settings = Settings(env="test", instance_dir=tmp_path, max_upload_bytes=1000)
    app = create_app(settings)
    assert app.extensions["ladder"].settings is settings
    assert app.config["SECRET_KEY"] == settings.secret_key
    mapped = create_app({"env": "test", "instance_dir": tmp_path, "max_upload_bytes": 2000, "TESTING": True})
    assert mapped.extensions["ladder"].settings.max_upload_bytes == 2000 and mapped.testing
    assert mapped.extensions["ladder"].dispatch is None


def test_error_pages_and_headers(client):
    page = client.get("/no/such/page")
    assert page.status_code == 404 and "There is nothing here" in page.get_data(as_text=True)
    api = client.get("/api/v1/no/such")
    assert api.status_code == 404 and api.get_json()["status"] == 404
    home = client.get("/")
    assert "script-src 'self'" in home.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in home.headers["Content-Security-Policy"]
    assert home.headers["X-Content-Type-Options"] == "nosniff"


def test_a_body_far_over_the_limit_gets_a_clear_413(client, site):
    site.signup("alice")
    huge = b"x" * (64 * 1024 + 300 * 1024)
    response = site.post("/bots/upload", {"file": (io.BytesIO(huge), "main.py"), "name": "big", "game": "treasure"},
                         page="/bots/upload", content_type="multipart/form-data")
    assert response.status_code == 413
    assert "a bot may have at most 65536 bytes" in response.get_data(as_text=True)


def test_pages_render_while_a_worker_holds_a_write_transaction(client, engine):
    # a worker recording a match holds the database's write lock (SQLite: BEGIN IMMEDIATE); page
    # views only read, so they must not queue behind it
    with engine.connect().execution_options(sqlite_begin="IMMEDIATE") as conn, conn.begin():
        conn.execute(text("UPDATE ratings SET games = games"))
        started = time.monotonic()
        assert client.get("/leaderboard/treasure").status_code == 200
        assert client.get("/").status_code == 200
        assert time.monotonic() - started < 5
        conn.rollback()
