"""/datasets: the daily dumps listed per game and served; nothing else on the disk can be named."""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, date, datetime

from service_support import house_versions, record_played

from ladder.db import session_factory
from ladder.services import dumps


def test_the_page_lists_each_games_dumps_and_serves_them(client, app, engine):
    sessions = session_factory(engine)
    with sessions() as session:
        record_played(session, "treasure", house_versions(session, "treasure")[:2], ["careful", "random"],
                      datetime(2026, 11, 20, 10, tzinfo=UTC))
    dumps.write_daily_dumps(sessions, app.extensions["ladder"].store, date(2026, 11, 21))
    page = client.get("/datasets/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "treasure-2026-11-20.zip" in html and "No dump yet" in html  # the other games have none
    got = client.get("/datasets/treasure/treasure-2026-11-20.zip")
    assert got.status_code == 200 and got.mimetype == "application/zip"
    assert "max-age=86400" in got.headers["Cache-Control"] and got.headers.get("ETag")
    with zipfile.ZipFile(io.BytesIO(got.data)) as zf:
        assert "matches.parquet" in zf.namelist()
    again = client.get("/datasets/treasure/treasure-2026-11-20.zip", headers={"If-None-Match": got.headers["ETag"]})
    assert again.status_code == 304


def test_names_that_are_not_dumps_are_404s(client, app, settings):
    app.extensions["ladder"].store.put("dumps/treasure/secret.txt", b"x")
    (settings.instance_dir / "ladder.txt").write_text("x")
    for path in ("/datasets/treasure/secret.txt", "/datasets/treasure/treasure-2026-11-20.zip",
                 "/datasets/chess/chess-2026-11-20.zip", "/datasets/treasure/..%2Fladder.txt",
                 "/datasets/treasure/treasure-2026-99-99.zip", "/datasets/%00/x.zip"):
        assert client.get(path).status_code == 404, path


def test_the_footer_links_the_datasets_and_the_docs_page_exists(client):
    assert 'href="/datasets/"' in client.get("/").get_data(as_text=True)
    doc = client.get("/docs/dataset")
    assert doc.status_code == 200 and "visible_to" in doc.get_data(as_text=True)
