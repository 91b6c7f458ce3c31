"""Start threads until refused."""
import threading
import time

import _probe as p

p.context()
started, error = 0, None
while started < 10000:
    try:
        threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
    except RuntimeError as exc:
        error = f"exc:{exc}"
        break
    started += 1
p.report(started=started, error=error)
p.report(done=True)
time.sleep(3600)
