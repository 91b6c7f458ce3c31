"""Read and write another process's memory directly (process_vm_readv/writev) and via /proc/pid/mem."""
import ctypes
import os
import time

import _probe as p

p.context()


class IOVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


child = os.fork()
if child == 0:
    time.sleep(60)
    os._exit(0)
buf = ctypes.create_string_buffer(64)
local = IOVec(ctypes.cast(buf, ctypes.c_void_p), 64)
remote = IOVec(ctypes.cast(buf, ctypes.c_void_p), 64)  # same layout after fork
p.report(
    readv_child=p.syscall(310, child, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0),
    writev_child=p.syscall(311, child, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0),
    readv_pid1=p.syscall(310, 1, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0),
    child_mem=p.attempt(p.read, f"/proc/{child}/mem"),
)
os.kill(child, 9)
p.report(done=True)
