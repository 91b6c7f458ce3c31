"""A hostile bot for `ladder match`: forks without end instead of playing (tests/vm)."""
import contextlib
import os

while True:
    with contextlib.suppress(OSError):
        os.fork()
