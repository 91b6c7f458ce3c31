"""Fill /dev/shm (an unsized one would be unbounded memory)."""
import _probe as p

p.context()
total, error = 0, None
try:
    with open("/dev/shm/fill", "wb") as f:
        for _ in range(4096):
            f.write(b"z" * (1 << 20))
            f.flush()
            total += 1 << 20
except OSError as exc:
    error = p.errname(exc)
p.report(total=total, error=error)
p.report(done=True)
