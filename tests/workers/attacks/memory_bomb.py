"""Allocate and touch memory until something stops us."""
import _probe as p

p.context()
hoard = []
while True:
    hoard.append(b"\x01" * (16 << 20))  # written, so really resident
    p.report(allocated_mb=16 * len(hoard))
