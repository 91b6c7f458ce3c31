"""One file as big as it can get."""
import _probe as p

p.context()
written, error = 0, None
chunk = b"x" * (1 << 20)
try:
    with open("/tmp/huge", "wb") as f:
        for _ in range(1024):
            written += f.write(chunk)
            f.flush()
except OSError as exc:
    error = p.errname(exc)
p.report(written=written, error=error)
p.report(done=True)
