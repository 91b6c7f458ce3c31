"""Writing anywhere but the private /tmp and /dev/shm."""
import _probe as p

ctx = p.context()


def write(path, mode="w"):
    with open(path, mode) as f:
        f.write("bot was here\n")
    return "written"


targets = ["/bot/main.py", "/bot/new.py", "/usr/pwned", "/pwned", "/dev/pwned", "/etc/pwned",
           "/proc/sys/kernel/hostname", "/proc/sysrq-trigger", ctx["canary_file"], ctx["canary_dir"] + "/new",
           "/sys/fs/cgroup/memory/cgroup.procs"]
p.report(attempts={t: p.attempt(write, t) for t in targets}, control=p.attempt(write, "/tmp/ok"))
p.report(done=True)
