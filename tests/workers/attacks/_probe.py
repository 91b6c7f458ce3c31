"""Shared by the attack bots (staged next to each as _probe.py): try things, report what happened.

Attacks report facts ("ok:..." or "err:ERRNO"), never their own verdict: the tests judge.
"""

import ctypes
import errno
import json
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def context() -> dict:
    return json.loads(sys.stdin.readline())


def attempt(fn, *args) -> str:
    try:
        result = fn(*args)
    except OSError as exc:
        return "err:" + errno.errorcode.get(exc.errno or 0, str(exc.errno))
    except Exception as exc:
        return f"exc:{type(exc).__name__}:{exc}"[:300]
    return "ok:" + repr(result)[:300]


def syscall(nr: int, *args) -> str:
    """A raw system call; "ok:<ret>" or "err:<ERRNO>"."""
    ctypes.set_errno(0)
    ret = libc.syscall(ctypes.c_long(nr), *[ctypes.c_ulong(a) if isinstance(a, int) else a for a in args])
    if ret == -1:
        return "err:" + errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))
    return f"ok:{ret}"


def report(**results) -> None:
    sys.stdout.write(json.dumps(results) + "\n")
    sys.stdout.flush()


def read(path: str) -> str:
    with open(path, "rb") as f:
        return f.read(4096).decode("latin-1")


def listdir(path: str) -> list:
    return sorted(os.listdir(path))


def errname(exc: OSError) -> str:
    return "err:" + errno.errorcode.get(exc.errno or 0, str(exc.errno))
