"""How a remote program waits before it asks the ladder again (docs/remote.md, "Backing off"):
after a cut, and after a 429, which says when in its `retry_ms` (or Retry-After)."""

from __future__ import annotations

from typing import Any

RECONNECT_DELAYS = (0.05, 0.2, 0.5, 1.0, 2.0, 5.0)  # then 5 s, until the match is over
BUSY_S = 2.0  # after a 429 that says nothing of when: the server's held requests' retry_ms


def retry_seconds(payload: Any, headers: dict, default: float = 5.0) -> float:
    """How long to wait after a 429 (docs/remote.md): the answer's `retry_ms`, else its Retry-After,
    else `default`; at most a minute."""
    if isinstance(payload, dict) and isinstance(payload.get("retry_ms"), int) and payload["retry_ms"] >= 0:
        return min(60.0, payload["retry_ms"] / 1000)
    try:
        return min(60.0, float(headers.get("Retry-After", default)))
    except (TypeError, ValueError):
        return default
