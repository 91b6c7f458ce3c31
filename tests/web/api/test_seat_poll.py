"""The seat's HTTP long poll across web processes: one waiting GET per `conn` over all of them.

A real second process (a werkzeug server started with `python -c`, its own app and its own module
state) over the same SQLite file and the relay every process shares: the database's relay_messages
(as `ladder up --web-workers N` runs without Redis), or Redis streams (as production runs); two app
objects in one process would share the module's state and prove nothing."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from service_support import redis_url  # noqa: F401 - fixture
from web.api.test_seat_socket import HELLO, alice, http, server, wait_for  # noqa: F401 - fixtures

from ladder.relay import seat_relay
from ladder.relay.backends import RedisRelay, SqlRelay

SERVE = """
import sys
from werkzeug.serving import make_server
from ladder import create_app
app = create_app({"database_url": sys.argv[1], "env": "test", "instance_dir": sys.argv[2], "TESTING": True,
                  "redis_url": sys.argv[3] or None, "LADDER_DISPATCH": lambda ids: None})
http = make_server("127.0.0.1", 0, app, threaded=True)
print(http.server_port, flush=True)
http.serve_forever()
"""


@pytest.fixture(params=["database", "redis"])
def shared(request, engine):
    """The relay both processes use: (its URL for the second process, or "" for the database's; the relay)."""
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        return url, RedisRelay(url)
    return "", SqlRelay(engine)


@pytest.fixture
def other_process(db_url, tmp_path, shared):
    """Another web process over the same database and relay."""
    proc = subprocess.Popen([sys.executable, "-c", SERVE, db_url, str(tmp_path), shared[0]], stdout=subprocess.PIPE,
                            text=True)
    try:
        port = proc.stdout.readline().strip()
        assert port.isdigit(), "the second web process did not start"
        yield f"127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_waiting_get_on_another_process_replaces_the_first(server, other_process, shared, alice, app):  # noqa: F811
    first, _memory = server
    relay = shared[1]
    app.extensions["ladder_relay"] = relay  # the relay both processes share
    places = app.extensions["ladder_long_lived"]
    match = alice["matches"][0]
    path = f"/api/v1/seats/{match}/0/lines"
    conn = http(first, alice["play"], "GET", path + "?wait=0")[1]["conn"]
    answers: dict[str, tuple] = {}

    def get(name: str, address: str) -> threading.Thread:
        thread = threading.Thread(target=lambda: answers.__setitem__(
            name, http(address, alice["play"], "GET", f"{path}?conn={conn}&wait=20")))
        thread.start()
        return thread

    older = get("older", first)
    wait_for(lambda: places.held == 1)
    newer = get("newer", other_process)
    older.join(10)
    assert not older.is_alive() and answers["older"][0] == 200
    assert answers["older"][1]["replaced"] is True and answers["older"][1]["lines"] == []
    assert places.held == 0  # this process holds no place for the conn any more
    relay.publish(seat_relay.down_topic(match, 0), {"line": HELLO})
    newer.join(10)
    assert answers["newer"][0] == 200 and answers["newer"][1]["lines"] == [HELLO]
    assert "replaced" not in answers["newer"][1]
