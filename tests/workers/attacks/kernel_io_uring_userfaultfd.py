"""io_uring (can do I/O that seccomp never sees) and userfaultfd (a race-exploit helper)."""
import ctypes

import _probe as p

p.context()
params = ctypes.create_string_buffer(120)
p.report(
    io_uring_setup=p.syscall(425, 8, ctypes.byref(params)),
    io_uring_enter=p.syscall(426, 0, 1, 0, 0, 0, 0),
    userfaultfd=p.syscall(323, 0),
)
p.report(done=True)
