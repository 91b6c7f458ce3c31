"""Another bot's staged files, by their host path and by guessing the usual staging places."""
import _probe as p

ctx = p.context()
other = ctx["other_bot_dir"]
p.report(
    other_dir=p.attempt(p.listdir, other),
    other_main=p.attempt(p.read, other + "/main.py"),
    tmp_listing=p.attempt(p.listdir, "/tmp"),
    proc_root=p.attempt(p.listdir, "/proc/1/root" + other),
)
p.report(done=True)
