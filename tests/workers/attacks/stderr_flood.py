"""128 MiB on stderr from a thread while the main thread keeps answering."""
import os
import sys
import threading

import _probe as p

p.context()


def flood():
    chunk = b"E" * (1 << 20)
    for _ in range(128):
        os.write(2, chunk)
    p.report(flood_done=128 << 20)


threading.Thread(target=flood).start()
for line in sys.stdin:
    p.report(pong=line.strip())
