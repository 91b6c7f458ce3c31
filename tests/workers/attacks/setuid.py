"""Become root: setuid calls, a setuid-root binary (su), a setuid copy in /tmp."""
import os
import shutil
import subprocess

import _probe as p

p.context()
status = dict(line.split(":", 1) for line in p.read("/proc/self/status").splitlines() if ":" in line)
su = subprocess.run(["/usr/bin/su", "root", "-c", "id -u"], stdin=subprocess.DEVNULL, capture_output=True,
                    text=True, timeout=20)
shutil.copy("/usr/bin/id", "/tmp/myid")
os.chmod("/tmp/myid", 0o4755)
own = subprocess.run(["/tmp/myid", "-u"], capture_output=True, text=True)
p.report(
    setuid0=p.attempt(os.setuid, 0),
    setresuid0=p.attempt(os.setresuid, 0, 0, 0),
    setgid0=p.attempt(os.setgid, 0),
    no_new_privs=status["NoNewPrivs"].strip(),
    cap_eff=status["CapEff"].strip(),
    euid=os.geteuid(),
    su=f"rc={su.returncode} out={su.stdout.strip()!r}",
    setuid_copy=own.stdout.strip(),
)
p.report(done=True)
