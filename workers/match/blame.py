"""Whose failure it is: the one rule for blame, in one place.

A bot answers for what it did: its exit, its output, and what it ran into of its own limits
(memory.events OOM kills, refused forks at the pids limit, its CPU). Anything else that goes wrong
while a match is played is the ladder's: a sandbox that cannot start (Popen or its pre-exec step
failing, EAGAIN, no free slot, a cgroup write refused), bubblewrap failing before the bot's program
ran, a bot killed by the ladder rather than by its limits, a build sandbox that failed, a worker
lost. A failure of the ladder never charges a seat: it raises `LadderFault` out of the runner, and
whoever plays matches (workers/queue/jobs.py, the local tournament, `ladder match`) plays the match again,
`ATTEMPTS` times in all, then ends it failed with the ladder's reason, never rated.

One death is ambiguous: SIGKILL before the bot's `ready`, with no limit reached. It is how the
ladder's own teardown, bubblewrap's parent-death signal and the kernel kill, and it is also what a
bot can do to itself. Such a death voids the match while attempts remain (a glitch of the ladder
does not repeat); on the last attempt it stands as the bot's, so no bot can void the matches it
would rather not play by dying at start-up.

One death is the ladder's at any point of a match: every seat of a table killed by the same signal,
none at a limit of its own (`table_killed`). Bots in their own pid namespaces and uids cannot reach
each other, so a whole table dying together was killed from outside: the host's OOM killer with no
group counted, an operator's `kill`. It voids the match like a sandbox that did not start.
"""

from __future__ import annotations

import errno
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

ATTEMPTS = 3  # plays of one match that the ladder's own failures may void before it ends failed
# cgroup counters that mean the bot reached a limit of its own group: its memory limit (v1
# memory.failcnt, v2 memory.events "max"; "ooms": v2's "oom"; v1 kernels that keep no failcnt: a
# peak at the limit, see own_limit) and its pids limit. An OOM kill alone is not one: the kernel
# counts it in the victim's group whichever group ran out (the worker's, the machine's), and a bot
# killed for memory outside its own limit was killed by the ladder's lack of it.
LIMIT_EVENTS = ("memory_failcnt", "ooms", "pids_refused")

T = TypeVar("T")


class LadderFault(RuntimeError):
    """The ladder failed, not a bot: the match is void. `certain` is False for a death the ladder
    may have caused but cannot prove (see the module's docstring)."""

    def __init__(self, reason: str, *, seat: int | None = None, certain: bool = True):
        super().__init__(reason)
        self.reason, self.seat, self.certain = reason, seat, certain


def start_failure(exc: BaseException, seat: int | None = None) -> LadderFault:
    """The sandbox could not start a bot: always the ladder's. The reason is public (match page,
    replay): the sandbox's own refusals are worded for that, anything else is named by its type and
    errno, never its message (server paths)."""
    from workers.sandbox.process import SandboxError

    if isinstance(exc, LadderFault):
        return exc
    if isinstance(exc, SandboxError):
        detail = str(exc)
    else:
        detail = type(exc).__name__
        code = getattr(exc, "errno", None)
        if code in errno.errorcode:
            detail += f" ({errno.errorcode[code]})"
    return LadderFault(f"the sandbox could not start the bot: {detail}"[:300], seat=seat)


def build_failure(exc: BaseException, seat: int | None = None) -> LadderFault:
    """A build that could not run (its sandbox, the artifact cache): the ladder's, not the author's
    (what the compiler says of the code is BuildFailed, the author's)."""
    if isinstance(exc, LadderFault):
        return exc
    return LadderFault(f"the build could not run: {type(exc).__name__}"[:300], seat=seat)


def startup_death(*, exit_signal: int | None, monitor_signal: int | None, program_started: bool | None,
                  events: Mapping[str, int]) -> LadderFault | None:
    """A bot that died before its `ready`: a LadderFault when the ladder killed it, None when its
    death is its own (its exit, or a limit it reached).

    `monitor_signal`: the signal that killed bubblewrap's monitor, our own child, which no bot can
    reach. `program_started`: whether bubblewrap got as far as starting the bot's program (None:
    unknown)."""
    if monitor_signal is not None:  # (then bwrap never reports an exit code either: name the cause)
        return LadderFault(f"the sandbox's monitor was killed by {signal_name(monitor_signal)}")
    if program_started is False:
        return LadderFault("the sandbox failed before the bot's program started")
    if own_limit(events):
        return None
    foreign = foreign_oom(events)
    if foreign is not None:
        return foreign
    if exit_signal == signal.SIGKILL:
        return LadderFault("killed by SIGKILL during start-up without reaching a limit", certain=False)
    return None


PEAK_SLACK_BYTES = 1 << 20  # a peak this close to the memory limit is the limit reached


def own_limit(events: Mapping[str, int]) -> bool:
    """Whether the bot reached a limit of its own cgroup (what it answers for). `memory_limit_bytes`
    (BotProcess.limit_events adds it) with the peak: this host's v1 kernel counted an OOM kill at a
    bot's own limit with memory.failcnt and memsw.failcnt still 0, and the peak exactly at the limit."""
    return bool(limits_reached(events) & {"memory", "pids"})


def limits_reached(events: Mapping[str, int], exit_signal: int | None = None) -> frozenset[str]:
    """The limits of its own a bot reached ("time", "memory", "pids"; a run record's `limits`):
    its memory (a failcnt or an OOM of its own group, or the peak at the limit), its pids, and its
    CPU backstop (RLIMIT_CPU's SIGXCPU)."""
    reached = set()
    limit, peak = events.get("memory_limit_bytes"), events.get("memory_peak_bytes")
    if events.get("memory_failcnt") or events.get("ooms") or (limit and peak and peak >= limit - PEAK_SLACK_BYTES):
        reached.add("memory")
    if events.get("pids_refused"):
        reached.add("pids")
    if exit_signal == signal.SIGXCPU:
        reached.add("time")
    return frozenset(reached)


def foreign_oom(events: Mapping[str, int]) -> LadderFault | None:
    """A bot the OOM killer took while it was within its own memory limit: some group above it (the
    worker's, the machine's) ran out. At any point of a match, the ladder's, and certain."""
    if events.get("oom_kills") and not own_limit(events):
        return LadderFault("killed by the OOM killer while within its own memory limit (the worker or the machine "
                           "ran out of memory)")
    return None


@dataclass(frozen=True, slots=True)
class SeatEnd:
    """How one seat's bot ended, as the runner saw it: `process` False for a seat played from
    outside (a remote program, a person), which no signal of ours reaches; `fault` the code of the
    fault that took it over (None: it played to the end); `signal` what killed its process;
    `events` its cgroup counters (BotProcess.limit_events), read before its group is removed."""

    process: bool
    fault: str | None
    signal: int | None
    events: Mapping[str, int]


def table_killed(seats: Sequence[SeatEnd]) -> LadderFault | None:
    """Every seat of the table killed by one signal mid-match, each taken over for that death alone
    (a "crash": no time limit, no protocol fault), none at a limit of its own: killed from outside
    the match, the ladder's failure for certain. None otherwise (then each death is its bot's)."""
    if len(seats) < 2 or not all(s.process and s.fault == "crash" and s.signal is not None for s in seats):
        return None
    if len({s.signal for s in seats}) != 1 or any(own_limit(s.events) for s in seats):
        return None
    name = signal_name(seats[0].signal)
    return LadderFault(f"every bot of the table was killed by {name} from outside the match, none at a limit of "
                       "its own")


def charges_seat(fault: LadderFault, final_attempt: bool) -> bool:
    """Whether a ladder fault stands as the seat's own after all (an uncertain one, last attempt)."""
    return final_attempt and not fault.certain


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def retrying(play: Callable[[bool], T], *, attempts: int = ATTEMPTS,
             on_void: Callable[[int, LadderFault], None] | None = None) -> T:
    """play(final_attempt) until no LadderFault voids it, at most `attempts` times; the last
    LadderFault propagates. `on_void(attempt, fault)` hears of each voided attempt."""
    for attempt in range(1, attempts + 1):
        try:
            return play(attempt == attempts)
        except LadderFault as fault:
            if attempt == attempts:
                raise
            if on_void is not None:
                on_void(attempt, fault)
    raise AssertionError("unreachable")
