"""What one bot process did, reported once when it is closed: the run record.

isolate (ioi/isolate) reports every run as one meta record (status, time, time-wall, max-rss,
exitcode, exitsig, killed) that everything downstream reads; this is that record for a bot's
process. The seat makes it when it closes the process (workers/match/seats/process.py), and blame
(workers/match/blame.py), the replay, bot data (workers/build/bot_data.py) and the bench
(workers/match/phases.py) read it instead of the seat's or the process's attributes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

# status: how the process ended
OK = "ok"  # exited by itself with code 0 before the match ended
EXIT = "exit"  # exited by itself with another code
SIGNAL = "signal"  # died of a signal before the match ended (its own, a limit's, or another's)
STOPPED = "stopped"  # still running when the match ended (or it was taken over): the ladder stopped it
LIMITS = ("time", "memory", "pids")  # what `limits` may name


@dataclass(frozen=True, slots=True)
class RunRecord:
    status: str
    time_s: float  # CPU seconds of every process of the bot
    wall_s: float  # from its start to its close
    peak_memory_bytes: int | None  # the cgroup's peak (None: not measured here)
    exit_code: int | None
    signal: int | None  # the signal that ended it (None: an exit)
    clean: bool | None  # nothing of it was left after the close (None: never closed)
    running: bool  # still running when the match ended, so the ladder stopped it
    limits: frozenset[str] = frozenset()  # the limits of its own that it reached (LIMITS)
    monitor_signal: int | None = None  # bubblewrap's monitor, the ladder's own child, killed by a signal
    stderr: bytes = b""  # the tail the ladder kept
    stderr_bytes: int = 0  # all it wrote
    events: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # cgroup counters

    @property
    def ended_cleanly(self) -> bool:
        """It ended on its own after the end and left nothing behind (only then is its bot data kept)."""
        return self.clean is True and self.signal is None and self.exit_code is not None

    def exit_json(self) -> dict[str, Any]:
        """The replay's `exit` ({code, signal})."""
        return {"code": self.exit_code, "signal": self.signal}


def status_of(exit_code: int | None, signal: int | None, running: bool) -> str:
    if running:
        return STOPPED
    if signal is not None:
        return SIGNAL
    return OK if exit_code == 0 else EXIT
