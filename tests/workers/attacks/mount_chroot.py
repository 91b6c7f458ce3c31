"""mount, umount, chroot, pivot_root, and the setuid mount binary."""
import os
import subprocess

import _probe as p

p.context()
os.makedirs("/tmp/m", exist_ok=True)
mount_bin = subprocess.run(["/usr/bin/mount", "-t", "tmpfs", "none", "/tmp/m"], capture_output=True, text=True)
p.report(
    mount=p.syscall(165, b"none", b"/tmp/m", b"tmpfs", 0, 0),
    remount_usr_rw=p.syscall(165, b"none", b"/usr", 0, 0x20 | 0x1000, 0),  # MS_REMOUNT|MS_BIND
    umount_proc=p.syscall(166, b"/proc", 2),
    chroot=p.syscall(161, b"/tmp"),
    pivot_root=p.syscall(155, b"/tmp", b"/tmp/m"),
    mount_binary=f"rc={mount_bin.returncode}",
    tmp_mounts=sorted(os.listdir("/tmp/m")),
)
p.report(done=True)
