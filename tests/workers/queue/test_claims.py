"""A claim names its worker process so that the sweeper on the same host can prove it gone."""

from __future__ import annotations

import os
import socket
import subprocess

from workers.queue import claims
from workers.sandbox.reap import start_time


def _claim(pid: int, start: int | None, host: str | None = None, ns: int | None = None) -> str:
    ns = os.stat("/proc/self/ns/pid").st_ino if ns is None else ns
    return f"{host or socket.gethostname()}:p{pid}-{start}-n{ns}:abcd1234"


def test_a_claim_is_gone_only_when_its_process_here_has_exited():
    me = claims.worker_id()
    assert me.startswith(f"{socket.gethostname()}:p{os.getpid()}-{start_time(os.getpid())}-n")
    assert not claims.owner_gone(me) and not claims.owner_gone(me + ":abcd1234")
    child = subprocess.Popen(["sleep", "60"])
    claim = _claim(child.pid, start_time(child.pid))
    assert not claims.owner_gone(claim)
    child.kill()
    child.wait()
    assert claims.owner_gone(claim)
    # the same pid with another start time is another process: the claim's holder is gone
    assert claims.owner_gone(_claim(os.getpid(), start_time(os.getpid()) + 1))


def test_a_claim_that_proves_nothing_here_is_never_gone():
    dead = subprocess.Popen(["true"])
    dead.wait()
    for claim in (_claim(dead.pid, 1, host="another-host"),  # another machine's pids
                  _claim(dead.pid, 1, ns=1),  # another pid namespace's
                  f"{socket.gethostname()}:{dead.pid}",  # the old form: no start time
                  "w1", "", None):
        assert not claims.owner_gone(claim), claim
