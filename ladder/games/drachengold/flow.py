"""The request a game flow yields when it waits for a decision."""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Request:
    seat: int
    kind: str
    # Returns the reason a decision is illegal, or None.
    check: Callable[[dict[str, Any]], str | None]
    # What the observation's "request" entry shows the deciding seat.
    info: dict[str, Any] = field(default_factory=dict)
    # The documented safe decision, played for a faulty bot.
    default: Any = None


Flow = Generator[Request, Any, Any]
