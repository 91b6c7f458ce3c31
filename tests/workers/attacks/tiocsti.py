"""Push keystrokes into a terminal (TIOCSTI), also with the high bits of the request set."""
import ctypes

import _probe as p

p.context()
libc = p.libc
libc.ioctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_char_p]
TIOCSTI, TIOCLINUX = 0x5412, 0x541C


def ioctl(fd, request):
    ctypes.set_errno(0)
    if libc.ioctl(fd, request, b"x") == -1:
        return p.errname(OSError(ctypes.get_errno(), ""))
    return "ok"


results = {}
for fd in (0, 1, 2):
    results[f"tiocsti_{fd}"] = ioctl(fd, TIOCSTI)
    results[f"tiocsti_high_{fd}"] = ioctl(fd, TIOCSTI | 0xFFFFFFFF00000000)
    results[f"tioclinux_{fd}"] = ioctl(fd, TIOCLINUX | 0x100000000)
results["dev_tty"] = p.attempt(open, "/dev/tty", "r+b")
p.report(**results)
p.report(done=True)
