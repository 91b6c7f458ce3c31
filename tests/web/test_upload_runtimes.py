"""Uploads and runtimes: the entry point picks the runtime, the upload page shows the table, and
an upload for a runtime this ladder does not run (its operator's list, or a missing package) is
refused with the reason and stores nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import escape
from needs import unavailable
from sqlmodel import select
from web.helpers import make_zip

from ladder.bot import runtimes
from ladder.config import Settings
from ladder.models import Bot, BotVersion

KITS = Path(__file__).parents[2] / "bots" / "examples"


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(env="test", instance_dir=tmp_path, sandbox_mode="strict", max_upload_bytes=64 * 1024,
                    placement_games=2, runtimes="python,node,go")


def _bots(sessions) -> list[str]:
    with sessions() as session:
        return list(session.exec(select(Bot.name).where(Bot.builtin.is_(None))).all())


def test_the_upload_page_shows_each_entry_point_and_which_runtimes_this_ladder_runs(site):
    site.signup("alice")
    html = site.client.get("/bots/upload").get_data(as_text=True)
    for runtime in runtimes.RUNTIMES:
        assert f"<code>{runtime.entry}</code>" in html and str(escape(runtime.title)) in html
    assert html.count("not accepted on this ladder") == len(runtimes.RUNTIMES) - 3


def test_a_runtime_the_operator_left_out_is_refused_with_what_the_ladder_runs(site, sessions, dispatched):
    site.signup("alice")
    response = site.upload(make_zip({"main.c": (KITS / "c" / "main.c").read_bytes()}), "bot.zip", name="cbot")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "this ladder does not run C (gcc, C17) bots (main.c)" in html
    assert "it runs: Python 3 with numpy and scipy, Node.js, Go" in html
    assert _bots(sessions) == [] and dispatched == []


def test_a_runtime_missing_on_the_machine_is_refused_with_the_reason(site, sessions, dispatched, monkeypatch):
    db = dict(runtimes.installed())
    db.pop("golang-1.19-go", None)
    monkeypatch.setattr(runtimes, "installed", lambda: db)
    site.signup("alice")
    zipped = make_zip({name: (KITS / "go" / name).read_bytes() for name in ("go.mod", "main.go")})
    response = site.upload(zipped, "bot.zip", name="gobot")
    assert response.status_code == 400
    assert "this ladder cannot run Go bots (go.mod): its machine lacks the runtime" in response.get_data(as_text=True)
    assert _bots(sessions) == [] and dispatched == []


def test_an_accepted_runtime_is_stored_with_its_version(site, sessions):
    if not runtimes.available(runtimes.BY_NAME["node"])[0]:
        unavailable("the node runtime")
    site.signup("alice")
    response = site.upload(make_zip({"main.js": (KITS / "node" / "main.js").read_bytes()}), "bot.zip", name="js")
    assert response.status_code == 302
    with sessions() as session:
        [version] = session.exec(select(BotVersion)).all()[-1:]
    assert version.runtime == "node" and version.status == "validating"
    page = site.client.get(response.headers["Location"]).get_data(as_text=True)
    assert "<td>node</td>" in page
