"""Leave zombies and a double-forked daemon (new session, deaf to SIGTERM/SIGHUP) behind."""
import os
import signal
import time

import _probe as p

p.context()
for _ in range(5):
    if os.fork() == 0:
        os._exit(0)  # never waited for: zombies
r, w = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        os.write(w, str(os.getpid()).encode())
        while True:
            time.sleep(1)
    os._exit(0)
daemon = int(os.read(r, 32))
p.report(daemon=daemon, alive=p.attempt(os.kill, daemon, 0))
p.report(done=True)
time.sleep(3600)
