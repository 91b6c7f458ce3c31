"""Kernel surfaces with a history of exploits: keyrings, bpf, perf events."""
import ctypes

import _probe as p

p.context()
attr = ctypes.create_string_buffer(128)
p.report(
    keyctl=p.syscall(250, 0, 0xFFFFFFFD, 0),  # KEYCTL_GET_KEYRING_ID, session keyring
    add_key=p.syscall(248, b"user", b"ladder", b"x", 1, 0xFFFFFFFD),
    request_key=p.syscall(249, b"user", b"ladder", 0, 0),
    bpf=p.syscall(321, 0, ctypes.byref(attr), 128),  # BPF_MAP_CREATE
    perf_event_open=p.syscall(298, ctypes.byref(attr), 0, -1 & 0xFFFFFFFF, -1 & 0xFFFFFFFF, 0),
)
p.report(done=True)
