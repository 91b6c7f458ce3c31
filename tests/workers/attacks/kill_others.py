"""Kill the parent, pid 1, every process (-1), a host process and the engine."""
import os
import signal

import _probe as p

ctx = p.context()
p.report(
    host_pid=p.attempt(os.kill, ctx["host_pid"], signal.SIGKILL),
    engine_pid=p.attempt(os.kill, ctx["engine_pid"], signal.SIGKILL),
    parent=p.attempt(os.kill, os.getppid(), signal.SIGKILL),
    pid1=p.attempt(os.kill, 1, signal.SIGKILL),
    pgroup=p.attempt(os.killpg, os.getpgid(0), signal.SIGCONT),
)
p.report(everyone=p.attempt(os.kill, -1, signal.SIGKILL))
p.report(done=True)
