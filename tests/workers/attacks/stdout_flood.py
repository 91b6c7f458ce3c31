"""A reply that never ends: 8 MiB without a newline."""
import sys

import _probe as p

p.context()
sys.stdout.write("A" * (8 << 20))
sys.stdout.flush()
sys.stdout.write("\n")
p.report(after_flood=True)
p.report(done=True)
