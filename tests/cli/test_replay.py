"""`ladder replay view FILE` (ladder/cli/replay.py): the local server hands out the
viewer page, the viewer's own static files and the frames of the file, and nothing else."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.cli import main
from ladder.cli.replay import make_server
from ladder.games.treasure.view.frames import frames
from ladder.replay import Replay, load_replay

GOLDEN = Path(__file__).parents[1] / "golden" / "treasure-seed5.json"


@pytest.fixture
def served():
    replay = load_replay(GOLDEN)
    server = make_server(Replay.from_json(replay), "a <b>local</b> replay")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield replay, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(5)


def _get(url: str) -> tuple[int, bytes, dict]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers)


def test_the_local_viewer_serves_the_page_the_scripts_and_the_frames(served):
    replay, base = served
    status, body, headers = _get(base + "/")
    page = body.decode()
    assert status == 200 and "script-src 'self'" in headers["Content-Security-Policy"]
    assert 'data-frames="/frames.json"' in page and "/game/viewer.js" in page
    assert _get(base + "/game/viewer.js")[1].startswith(b"// Treasure of the Dragons")  # the game's own drawing
    assert "a &lt;b&gt;local&lt;/b&gt; replay" in page  # the title is escaped
    assert _get(base + "/static/viewer.js")[0] == 200
    status, body, _ = _get(base + "/frames.json?view=seat&seat=1")
    data = json.loads(body)
    assert status == 200 and data["seat"] == 1 and data["frames"] == frames(Replay.from_json(replay), 1)
    assert _get(base + "/frames.json?view=nonsense")[0] == 400
    for path in ("/static/../replay.py", "/game/state.py", "/game/../viewer.py", "/nothing", "/static/%2e%2e/cli.py"):
        assert _get(base + path)[0] == 404, path


def test_a_file_that_is_no_replay_is_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(main, ["replay", "view", str(bad)])
    assert result.exit_code != 0 and "not valid JSON" in result.output


def test_a_log_the_game_cannot_follow_is_a_400_not_a_crash():
    replay = load_replay(GOLDEN)
    replay["log"].append({"type": "flip", "data": {"square": "nonsense"}, "to": None})
    server = make_server(Replay.from_json(replay), "tampered")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        status, body, _ = _get(f"http://127.0.0.1:{server.server_address[1]}/frames.json")
        assert status == 400 and "cannot be drawn" in json.loads(body)["error"]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
