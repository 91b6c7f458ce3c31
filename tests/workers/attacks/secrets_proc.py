"""/proc: which processes can we see, and what do their command lines and status tell?"""
import os

import _probe as p

ctx = p.context()
visible = sorted(int(d) for d in os.listdir("/proc") if d.isdigit())
p.report(
    visible=visible,
    cmdlines={pid: p.attempt(p.read, f"/proc/{pid}/cmdline") for pid in visible},
    host_pid=p.attempt(p.read, f"/proc/{ctx['host_pid']}/cmdline"),
    engine_pid=p.attempt(p.read, f"/proc/{ctx['engine_pid']}/environ"),
    mounts=p.attempt(p.read, "/proc/self/mountinfo"),
)
p.report(done=True)
