"""Fill /tmp with many files until something says no; then show we still answer."""
import _probe as p

p.context()
total, error, files = 0, None, 0
try:
    for i in range(100000):
        with open(f"/tmp/fill{i}", "wb") as f:
            f.write(b"y" * (256 << 10))
        total += 256 << 10
        files += 1
except OSError as exc:
    error = p.errname(exc)
p.report(total=total, files=files, error=error)
p.report(done=True)
