"""An in-process relay with ladder/relay.py's methods (docs in /work/wt/RELAY.md's interface), for
tests that must not wait on a backend: topics are lists, ids their positions, reads may block."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import Any

MAX_MESSAGE_BYTES = 256 << 10


@dataclass(frozen=True)
class RelayMessage:
    id: str
    data: dict


class FakeRelay:
    def __init__(self) -> None:
        self.topics: dict[str, list[dict]] = {}
        self.changed = threading.Condition()

    def publish(self, topic: str, message: dict[str, Any]) -> str:
        return self.publish_many(topic, [message])[0]

    def publish_many(self, topic: str, messages: list[dict[str, Any]]) -> list[str]:
        for message in messages:
            if len(json.dumps(message)) > MAX_MESSAGE_BYTES:
                raise ValueError("message too large")
        with self.changed:
            log = self.topics.setdefault(topic, [])
            ids = []
            for message in messages:
                log.append(json.loads(json.dumps(message)))
                ids.append(str(len(log)))
            self.changed.notify_all()
        return ids

    def read(self, topic: str, after: str = "0", *, limit: int = 200, block: float = 0.0) -> list[RelayMessage]:
        start, deadline = int(after), time.monotonic() + block
        with self.changed:
            while len(self.topics.get(topic, ())) <= start and time.monotonic() < deadline:
                self.changed.wait(deadline - time.monotonic())
            log = self.topics.get(topic, [])
            return [RelayMessage(str(i + 1), log[i]) for i in range(start, min(len(log), start + limit))]

    def last_id(self, topic: str) -> str:
        with self.changed:
            return str(len(self.topics.get(topic, ())))

    def delete(self, topic: str) -> None:
        with self.changed:
            self.topics.pop(topic, None)
