"""How many lines a remote seat sent up and how many requests came down (the flood rule of
ladder/web/api/seat_lines.py: one line up per hello or request down), counted on the seat's relay topics.

A topic holds a whole match's lines, so each request counts on from where this process counted
last instead of reading both whole topics again (issue #39: each POST of the long poll did).
"""

from __future__ import annotations

import threading
from typing import Any

from flask import current_app


def _asks(line: str) -> bool:
    """A line down that allows one line up: the hello (ready) and each request (its answer)."""
    return line.startswith(('{"type":"request"', '{"type":"hello"'))


def _is_sent(data: dict) -> bool:
    return "line" in data


def _is_ask(data: dict) -> bool:
    line = data.get("line")
    return isinstance(line, str) and _asks(line)


class TopicCounts:
    """Lines counted on seats' topics, read on from where this process last counted: a POST reads
    what came since, never both whole topics again (a topic holds a whole match's lines). Counts
    only grow (a topic is a log), so two requests counting at once keep the larger."""

    MAX_TOPICS = 10_000  # (topic, kind) pairs remembered; past it, forgotten and recounted whole

    def __init__(self) -> None:
        self._seen: dict[tuple[str, Any], tuple[str, int]] = {}
        self._lock = threading.Lock()

    def count(self, relay: Any, topic: str, test: Any) -> int:
        key = (topic, test)
        with self._lock:
            after, n = self._seen.get(key, ("0", 0))
        while True:
            batch = relay.read(topic, after, limit=1000)
            if not batch:
                break
            n += sum(1 for m in batch if test(m.data))
            after = batch[-1].id
        with self._lock:
            if len(self._seen) >= self.MAX_TOPICS and key not in self._seen:
                self._seen.clear()
            if n >= self._seen.get(key, ("0", -1))[1]:
                self._seen[key] = (after, n)
        return n


def counts() -> TopicCounts:
    """This app's counts (one per process: each process counts for itself, from the topic)."""
    extensions = current_app.extensions
    if "ladder_seat_counts" not in extensions:
        extensions["ladder_seat_counts"] = TopicCounts()
    return extensions["ladder_seat_counts"]


def _sent(relay: Any, up: str) -> int:
    return counts().count(relay, up, _is_sent)


def _asked(relay: Any, down: str) -> int:
    return counts().count(relay, down, _is_ask)
