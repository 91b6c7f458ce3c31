"""Keep computing in a background thread between turns; answer each line with "pong"."""
import sys
import threading

import _probe as p

p.context()


def work():
    x = 0
    while True:
        x += 1


threading.Thread(target=work, daemon=True).start()
for line in sys.stdin:
    p.report(pong=line.strip())
