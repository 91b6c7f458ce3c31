"""JSON log lines: one object a line with the event's fields merged; the gunicorn configuration is
one logging's dictConfig accepts, and routes its lines through the same formatter."""

from __future__ import annotations

import io
import json
import logging
import logging.config

from ladder.telemetry.logs import JsonFormatter, configure, gunicorn_config


def test_a_line_is_one_json_object_with_the_events_fields():
    record = logging.LogRecord("ladder.match", logging.INFO, __file__, 1, "match %s failed", (7,), None)
    record.ladder = {"event": "match_end", "match": 7, "status": "failed", "bots": ["a v1", "b v2"]}
    line = JsonFormatter().format(record)
    assert "\n" not in line
    data = json.loads(line)
    assert data["message"] == "match 7 failed" and data["status"] == "failed" and data["bots"] == ["a v1", "b v2"]
    assert data["level"] == "info" and data["logger"] == "ladder.match" and data["ts"].endswith("+00:00")


def test_configure_json_replaces_the_root_handlers_and_text_leaves_them():
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        assert configure("text") is None and root.handlers == saved[0]
        stream = io.StringIO()
        configure("json", stream=stream)
        logging.getLogger("ladder.test").info("hello", extra={"ladder": {"n": 1}})
        assert json.loads(stream.getvalue().splitlines()[-1])["n"] == 1
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def test_gunicorns_configuration_is_valid_and_json():
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        logging.config.dictConfig(gunicorn_config())
        assert isinstance(root.handlers[0].formatter, JsonFormatter)
        assert logging.getLogger("gunicorn.error").propagate and not logging.getLogger("gunicorn.access").propagate
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
