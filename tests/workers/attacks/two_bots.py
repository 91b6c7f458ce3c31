"""Two bots of one match try to meet: abstract socket, /tmp, /dev/shm, SysV shm, signals, /proc."""
import os
import socket
import sys

import _probe as p

ctx = p.context()
NAME = b"\0ladder-meet-" + ctx["token"].encode()
KEY = 0x1ADDE
if ctx["role"] == "a":
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(NAME)
    listener.listen(1)
    for path in ("/tmp/meet", "/dev/shm/meet"):
        with open(path, "w") as f:
            f.write("from a")
    shm = p.syscall(29, KEY, 4096, 0o1666)  # shmget(KEY, 4096, IPC_CREAT | 0666)
    p.report(pid=os.getpid(), shm=shm, ready=True)
    sys.stdin.readline()
    listener.setblocking(False)
    p.report(accepted=p.attempt(listener.accept))
    p.report(done=True)
else:
    def connect():
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(NAME)
            return "connected"

    peer = ctx["peer_pid"]
    p.report(
        connect=p.attempt(connect),
        tmp=p.attempt(p.read, "/tmp/meet"),
        shm_file=p.attempt(p.read, "/dev/shm/meet"),
        sysv_shm=p.syscall(29, KEY, 4096, 0),
        visible=sorted(int(d) for d in os.listdir("/proc") if d.isdigit()),
        peer_cmdline=p.attempt(p.read, f"/proc/{peer}/cmdline"),
        peer_host=p.attempt(os.kill, ctx["peer_host_pid"], 0),
    )
    p.report(done=True)
