"""ptrace our parent (the sandbox's pid 1) and a forked child; read pid 1's memory through /proc."""
import os
import time

import _probe as p

p.context()
PTRACE_TRACEME, PTRACE_ATTACH, PTRACE_SEIZE = 0, 16, 0x4206
child = os.fork()
if child == 0:
    time.sleep(60)
    os._exit(0)
p.report(
    attach_parent=p.syscall(101, PTRACE_ATTACH, os.getppid(), 0, 0),
    seize_child=p.syscall(101, PTRACE_SEIZE, child, 0, 0),
    traceme=p.syscall(101, PTRACE_TRACEME, 0, 0, 0),
    pid1_mem=p.attempt(p.read, "/proc/1/mem"),
)
os.kill(child, 9)
p.report(done=True)
