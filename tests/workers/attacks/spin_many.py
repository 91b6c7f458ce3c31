"""Many processes spinning on every core."""
import os

import _probe as p

p.context()
for _ in range(7):
    if os.fork() == 0:
        while True:
            pass
p.report(spinning=8)
while True:
    pass
