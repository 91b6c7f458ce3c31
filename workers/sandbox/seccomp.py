"""The seccomp filter every sandboxed bot runs under (strict and user modes).

Built with pyseccomp (ctypes over the system's libseccomp2) rather than hand-written BPF: libseccomp
knows each syscall's number, handles the x32 ABI bit and the architecture check, and its output is
what bwrap's `--seccomp FD` expects. The filter is a deny list on top of "allow": bots may be written
in any language, so an allow list would break runtimes we do not test; the namespaces, cgroups and
the unprivileged uid are the other layers. Denied calls fail with an errno (the bot sees an error
and can go on); a syscall of another architecture (int 0x80, i.e. 32-bit x86) kills the process.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import tempfile

# Calls a bot never needs and that reach kernel surfaces, other processes or the host.
DENIED = (
    # other processes' memory
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp", "process_madvise",
    # namespaces and the mount table
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree",
    "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    # kernel surfaces with a record of privilege escalations
    "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "fanotify_init", "name_to_handle_at", "open_by_handle_at", "lookup_dcookie", "quotactl",
    # the machine itself
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot",
    "syslog", "acct", "swapon", "swapoff", "vhangup", "iopl", "ioperm", "modify_ldt", "uselib",
    "sethostname", "setdomainname",
    # clocks
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
)

# Namespace flags refused on clone(2); clone3 hides its flags in memory, so it gets ENOSYS and glibc
# falls back to clone, where the flags are visible to the filter. (CLONE_NEWTIME cannot be given to
# clone, whose low byte is the exit signal; it needs unshare or clone3, both refused.)
CLONE_NS_FLAGS = (
    0x00020000,  # CLONE_NEWNS
    0x02000000,  # CLONE_NEWCGROUP
    0x04000000,  # CLONE_NEWUTS
    0x08000000,  # CLONE_NEWIPC
    0x10000000,  # CLONE_NEWUSER
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
)
TIOCSTI = 0x5412
TIOCLINUX = 0x541C
AF_UNIX = 1
PERSONALITY_QUERY = 0xFFFFFFFF


class SeccompUnavailable(RuntimeError):
    """libseccomp (Debian package libseccomp2) or pyseccomp is missing."""


def _library():
    try:
        import pyseccomp
    except (ImportError, RuntimeError, OSError) as exc:  # RuntimeError: "Unable to find libseccomp"
        raise SeccompUnavailable(f"pyseccomp/libseccomp2 not usable: {exc}") from exc
    return pyseccomp


def _build(sc) -> object:
    filt = sc.SyscallFilter(sc.ALLOW)
    filt.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)
    eperm = sc.ERRNO(errno.EPERM)
    for name in DENIED:
        # A syscall this libseccomp or architecture does not know cannot be called either.
        with contextlib.suppress(OSError):
            filt.add_rule(eperm, name)
    for flag in CLONE_NS_FLAGS:
        filt.add_rule(eperm, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    filt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    # The kernel truncates the ioctl request to 32 bits, so compare only those: TIOCSTI with high
    # bits set must not slip through.
    for request in (TIOCSTI, TIOCLINUX):
        filt.add_rule(eperm, "ioctl", sc.Arg(1, sc.MASKED_EQ, 0xFFFFFFFF, request))
    filt.add_rule(sc.ERRNO(errno.EAFNOSUPPORT), "socket", sc.Arg(0, sc.NE, AF_UNIX))
    filt.add_rule(sc.ERRNO(errno.EAFNOSUPPORT), "socketpair", sc.Arg(0, sc.NE, AF_UNIX))
    filt.add_rule(eperm, "personality", sc.Arg(0, sc.NE, PERSONALITY_QUERY))
    # A binary tree of the syscall numbers rather than one test after another: every system call a
    # bot makes runs the filter, and the linear program's ~100 instructions cost about 0.3 ms of a
    # Python bot's start (`ladder bench sandbox`); the same rules, found in ~7 tests. Older
    # libseccomp (before 2.5) has no such option and keeps the linear program.
    with contextlib.suppress(OSError, ValueError, AttributeError):
        filt.set_attr(sc.Attr.CTL_OPTIMIZE, 2)
    return filt


@functools.cache
def filter_bpf() -> bytes:
    """The compiled BPF program (built once per process)."""
    sc = _library()
    filt = _build(sc)
    with tempfile.TemporaryFile() as out:
        filt.export_bpf(out)
        out.seek(0)
        return out.read()


def filter_fd() -> int:
    """A fresh fd positioned at the start of the program, for bwrap's `--seccomp FD`.

    bwrap reads the fd to its end, so every sandbox needs its own; the caller closes it after the
    child has started.
    """
    program = filter_bpf()
    fd = os.memfd_create("ladder-seccomp", os.MFD_CLOEXEC)
    try:
        os.write(fd, program)
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd
