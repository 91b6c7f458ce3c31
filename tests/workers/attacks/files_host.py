"""Host files: /root, /etc/shadow, the engine's world-readable canary, /home, /var, /sys."""
import _probe as p

ctx = p.context()
p.report(
    root_dir=p.attempt(p.listdir, "/root"),
    root_bashrc=p.attempt(p.read, "/root/.bashrc"),
    shadow=p.attempt(p.read, "/etc/shadow"),
    passwd=p.attempt(p.read, "/etc/passwd"),
    home=p.attempt(p.listdir, "/home"),
    var=p.attempt(p.listdir, "/var/lib"),
    sys=p.attempt(p.listdir, "/sys/fs/cgroup"),
    canary_file=p.attempt(p.read, ctx["canary_file"]),
    canary_dir=p.attempt(p.listdir, ctx["canary_dir"]),
    own_file=p.attempt(p.read, "/bot/main.py"),
)
p.report(done=True)
