"""Fork until refused; every child sleeps and holds its slot."""
import os
import time

import _probe as p

p.context()
forked, error = 0, None
while forked < 10000:
    try:
        pid = os.fork()
    except OSError as exc:
        error = p.errname(exc)
        break
    if pid == 0:
        time.sleep(3600)
        os._exit(0)
    forked += 1
p.report(forked=forked, error=error)
p.report(done=True)
time.sleep(3600)
