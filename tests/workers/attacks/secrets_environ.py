"""The engine's environment: our own, /proc/self/environ and the sandbox's pid 1 (bwrap's)."""
import os

import _probe as p

p.context()
p.report(
    environ=dict(os.environ),
    self_environ=p.attempt(p.read, "/proc/self/environ"),
    pid1_environ=p.attempt(p.read, "/proc/1/environ"),
    parent_environ=p.attempt(p.read, f"/proc/{os.getppid()}/environ"),
)
p.report(done=True)
