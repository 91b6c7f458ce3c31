"""The sandbox: the only place a bot process starts (process.py), under bubblewrap (bwrap.py), a
seccomp filter (seccomp.py), its own uid slot (slots.py) and cgroup (cgroup*.py), read and written
through bounded pipes (streams.py), reaped when orphaned (reap.py), and never cut in half by a stop
signal (interrupts.py). Nothing here knows a game, a database or a queue."""
