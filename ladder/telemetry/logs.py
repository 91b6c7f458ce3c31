"""The ladder's log lines: plain text by default, one JSON object a line with
LADDER_LOG_FORMAT=json (for a log shipper: no parsing of free text).

A record's fields are its time (UTC, ISO 8601), level, logger and message, plus whatever the
caller passed as `extra={"ladder": {...}}` (a match's end: ladder/services/monitoring.py's
MatchEnd; a request: ladder/web/metrics.py), merged at the top level.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {"ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
                "level": record.levelname.lower(), "logger": record.name, "message": record.getMessage()}
        fields = getattr(record, "ladder", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, separators=(",", ":"))


def configure(log_format: str, level: int | str = logging.INFO, stream=None) -> logging.Handler | None:
    """JSON lines on stderr for the root logger when `log_format` is json (None otherwise: the
    process keeps the logging its server sets up, gunicorn's or Celery's)."""
    if log_format != "json":
        return None
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler


def gunicorn_config() -> dict:
    """gunicorn's logconfig_dict for JSON lines: its own messages as JSON on stderr too, and no
    access log (the app writes one JSON line per request, with its route and latency)."""
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"json": {"()": "ladder.telemetry.logs.JsonFormatter"}},
        "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
        "root": {"level": "INFO", "handlers": ["json"]},
        "loggers": {"gunicorn.error": {"level": "INFO", "handlers": [], "propagate": True},
                    "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": False}},
    }
