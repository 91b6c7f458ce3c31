"""Who holds a claim, written so that a process on the same host can prove its holder is gone.

A claim (matches.claimed_by) names the worker process that can finish its match: host, pid, the
pid's start time and the pid namespace, as a match folder's name does (workers/sandbox/scratch.py).
The sweeper (workers/queue/scheduler.py) then releases at once a claim whose holder on this host
has exited (a kill -9 of the worker's group or of one pool process), instead of leaving the match
`running` for `match_stale_after`. A pid with another start time is another process (pids are
reused); a claim of another host or pid namespace, or of an older form, proves nothing here and
waits for the stale bound as before.
"""

from __future__ import annotations

import os
import re
import socket

from workers.sandbox.cgroup_base import _owner_gone
from workers.sandbox.reap import start_time
from workers.sandbox.scratch import _pid_namespace

_CLAIM_RE = re.compile(r"^(?P<host>[^:]+):p(?P<pid>\d+)-(?P<start>\d+)-n(?P<ns>\d+)(?::|$)")


def worker_id() -> str:
    """This process as a claim names it: host:p<pid>-<start time>-n<pid namespace>."""
    pid = os.getpid()
    return f"{socket.gethostname()}:p{pid}-{start_time(pid)}-n{_pid_namespace()}"


def owner_gone(claim: str | None) -> bool:
    """Whether the claim's holder is provably gone: a process of this host and pid namespace that has
    exited (or whose pid is another process's now). False whenever it cannot be proved."""
    m = _CLAIM_RE.match(claim or "")
    if m is None or m["host"] != socket.gethostname() or int(m["ns"]) != _pid_namespace():
        return False
    return _owner_gone(m["pid"], m["start"])
