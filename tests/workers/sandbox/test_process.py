"""BotProcess behaviour in every mode: round trips, deadlines, caps, exits, freezing, teardown."""

from __future__ import annotations

import binascii
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from needs import sandbox_mode

from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import reap as sandbox_reap
from workers.sandbox import slots as sandbox_slots
from workers.sandbox.bwrap import SandboxConfigError
from workers.sandbox.process import PYTHON, BotProcess, Limits, SandboxError, sandbox_available
from workers.sandbox.slots import SlotBusy

ECHO = """
import sys
for line in sys.stdin:
    sys.stdout.write("echo:" + line)
    sys.stdout.flush()
"""


def soon(seconds: float = 10.0) -> float:
    return time.monotonic() + seconds


@pytest.fixture(params=["strict", "user", "none"])
def any_mode(request) -> str:
    return request.getfixturevalue(f"{request.param}_sandbox") if request.param != "none" else "none"


def test_echo_round_trip(any_mode, kit):
    bp = kit.start(ECHO, mode=any_mode)
    assert bp.mode == any_mode
    for i in range(3):
        assert bp.send_line(f"hello {i}".encode(), soon()) == (True, "ok")
        assert bp.read_line(soon()) == (f"echo:hello {i}".encode(), "ok")


def test_none_mode_warns_loudly(kit, capfd):
    kit.start(ECHO, mode="none")
    assert "UNCONFINED" in capfd.readouterr().err


def test_read_deadline_is_kept(strict_sandbox, kit):
    bp = kit.start("import time\ntime.sleep(60)\n", mode=strict_sandbox)
    start = time.monotonic()
    assert bp.read_line(start + 0.3) == (None, "timeout")
    assert 0.3 <= time.monotonic() - start < 1.5


def test_oversized_line_then_recovery(strict_sandbox, kit):
    source = "import sys\nsys.stdout.write('a' * 5000 + '\\nshort\\n'); sys.stdout.flush()\nsys.stdin.read()\n"
    bp = kit.start(source, mode=strict_sandbox, limits=Limits(line_bytes=1000))
    assert bp.read_line(soon()) == (None, "oversized")
    assert bp.read_line(soon()) == (b"short", "ok")


@pytest.mark.parametrize(("source", "code", "sig"), [
    ("import sys\nprint('bye', flush=True)\nsys.exit(3)\n", 3, None),
    ("import os, signal\nprint('bye', flush=True)\nos.kill(os.getpid(), signal.SIGABRT)\n", None, signal.SIGABRT),
])
def test_early_exit_is_reported(source, code, sig, any_mode, kit):
    bp = kit.start(source, mode=any_mode)
    assert bp.read_line(soon()) == (b"bye", "ok")  # lines written before the exit still arrive
    assert bp.read_line(soon()) == (None, "exited")
    assert (bp.exit_code, bp.exit_signal) == (code, sig)
    assert bp.send_line(b"too late", soon(1)) == (False, "closed")


def test_environment_is_an_allowlist(strict_sandbox, kit):
    source = "import os, json\nprint(json.dumps(dict(os.environ)), flush=True)\n"
    bp = kit.start(source, mode=strict_sandbox, env={"LADDER_SEAT": "2"})
    line, reason = bp.read_line(soon())
    assert reason == "ok"
    env = json.loads(line)
    assert env["LADDER_SEAT"] == "2"
    assert "LADDER_SECRET_CANARY" not in env and kit.canary.encode() not in line


def test_extra_read_only_bind(any_mode, kit):
    sdk = kit_stage_dir({"helper.py": "VALUE = 41 + 1\n"})
    try:
        source = ("import helper, sys\nprint(helper.VALUE, flush=True)\n"
                  "try:\n    open('/sdk/new', 'w')\n    print('wrote', flush=True)\n"
                  "except OSError as e:\n    print('refused', flush=True)\n")
        bp = kit.start(source, mode=any_mode, extra_ro_binds={"/sdk": sdk}, env={"PYTHONPATH": "/sdk"},
                       command=[PYTHON, "-s", "main.py"])  # not -E: PYTHONPATH must count
        assert bp.read_line(soon()) == (b"42", "ok")
        if any_mode != "none":
            assert bp.read_line(soon()) == (b"refused", "ok")
    finally:
        shutil.rmtree(sdk, ignore_errors=True)


def kit_stage_dir(files: dict[str, str]) -> Path:
    import tempfile

    d = Path(tempfile.mkdtemp(prefix="ladder-test-sdk-", dir="/tmp"))
    d.chmod(0o755)
    for name, text in files.items():
        (d / name).write_text(text)
        (d / name).chmod(0o644)
    return d


def test_freeze_thaw_and_cpu_accounting(strict_sandbox, kit):
    source = "import sys\nfor line in sys.stdin:\n    sum(range(3_000_000))\n    print('done', flush=True)\n"
    bp = kit.start(source, mode=strict_sandbox)
    cpu0 = bp.cpu_seconds()
    assert bp.send_line(b"go", soon()) == (True, "ok")
    assert bp.read_line(soon()) == (b"done", "ok")
    assert bp.cpu_seconds() > cpu0
    assert bp.freeze() is True
    assert bp.send_line(b"go", soon()) == (True, "ok")  # the pipe buffers it
    assert bp.read_line(time.monotonic() + 0.3) == (None, "timeout")  # frozen: no answer
    bp.thaw()
    assert bp.read_line(soon()) == (b"done", "ok")


def test_a_line_longer_than_the_pipe_reaches_a_frozen_bot_thawed_on_send(strict_sandbox, kit):
    # send_line(thaw=True) fills the pipe while the bot is frozen and writes the rest once it is thawed:
    # a line past the pipe's 64 KiB would wait for ever on a bot still frozen
    source = "import sys\nfor line in sys.stdin:\n    print(len(line), flush=True)\n"
    bp = kit.start(source, mode=strict_sandbox)
    for size in (10, 300_000):
        assert bp.freeze() is True
        assert bp.send_line(b"x" * size, soon(), thaw=True) == (True, "ok")
        assert bp.read_line(soon()) == (str(size + 1).encode(), "ok")


def test_freeze_is_a_no_op_without_cgroups(user_sandbox, kit):
    bp = kit.start(ECHO, mode=user_sandbox)
    assert bp.freeze() is False
    bp.thaw()
    assert bp.send_line(b"x", soon()) == (True, "ok")
    assert bp.read_line(soon()) == (b"echo:x", "ok")
    assert bp.cpu_seconds() >= 0.0


def test_start_refuses_other_threads(strict_sandbox, kit):
    errors = []

    def run():
        try:
            kit.start(ECHO, mode=strict_sandbox)
        except SandboxError as exc:
            errors.append(str(exc))

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert errors and "main thread" in errors[0]


def test_a_leased_slot_is_not_shared(strict_sandbox, kit):
    slot = 950 + int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)
    bp = kit.start(ECHO, mode=strict_sandbox, slot=slot)
    assert bp.uid == 62000 + slot
    with pytest.raises(SlotBusy):
        kit.start(ECHO, mode=strict_sandbox, slot=slot)
    other = kit.start(ECHO, mode=strict_sandbox)
    assert other.uid != bp.uid


def test_unreadable_bot_dir_is_refused_clearly(strict_sandbox, tmp_path):
    (tmp_path / "main.py").write_text(ECHO)
    tmp_path.chmod(0o700)
    with pytest.raises(SandboxConfigError, match="not readable"):
        BotProcess.start([PYTHON, "main.py"], tmp_path, mode=strict_sandbox)


def test_availability_reasons():
    assert sandbox_available("none")[0] is True
    ok, why = sandbox_available("docker")
    assert not ok and "unknown" in why


def test_close_is_idempotent_and_after_exit(strict_sandbox, kit):
    bp = kit.start("print('x', flush=True)\n", mode=strict_sandbox)
    assert bp.read_line(soon()) == (b"x", "ok")
    assert bp.read_line(soon()) == (None, "exited")
    assert bp.close() is True
    assert bp.close() is True


WORKER = """
import sys, time
from workers.sandbox.process import BotProcess, PYTHON
bp = BotProcess.start([PYTHON, "-E", "-s", "main.py"], sys.argv[1], mode="strict", slot=int(sys.argv[2]))
line, reason = bp.read_line(time.monotonic() + 10)
print(bp.uid, *bp._cgroup.paths.values(), flush=True)
time.sleep(3600)
"""
DAEMON_BOT = """
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(3600)
    os._exit(0)
print("ready", flush=True)
time.sleep(3600)
"""


def test_worker_dying_mid_match_leaves_nothing_running(strict_sandbox, uid_processes):
    assert sandbox_reap.become_subreaper()
    bot = kit_stage_dir({"main.py": DAEMON_BOT})
    slot = 960 + int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)  # no other test's uid
    worker = subprocess.Popen([sys.executable, "-c", WORKER, str(bot), str(slot)], stdout=subprocess.PIPE,
                              text=True, cwd=Path(__file__).resolve().parents[3])
    try:
        uid, *cgroups = worker.stdout.readline().split()
        uid = int(uid)
        assert len(uid_processes(uid)) >= 4
        worker.kill()  # no close(), no finally: only the kernel and bwrap --die-with-parent act
        worker.wait()
        # Its bwrap processes come to us, a subreaper as `ladder worker`'s main process and `ladder
        # up` are, not to the machine's init: whether and when that reaps is not this test's to rely on.
        deadline = time.monotonic() + 5
        while uid_processes(uid) and time.monotonic() < deadline:
            sandbox_reap.reap_orphans()
            time.sleep(0.05)
        assert uid_processes(uid) == []
        sandbox_cgroup.sweep_stale()  # what the next worker does first (another may have done it already)
        assert not any(Path(c).exists() for c in cgroups)
        lease = sandbox_slots.acquire(slot)  # the dead worker's slot is usable again, and clean
        lease.release()
    finally:
        worker.kill()
        worker.wait()
        shutil.rmtree(bot, ignore_errors=True)


BYTES_BOT = """
import binascii, sys
for line in sys.stdin.buffer:
    sys.stdout.buffer.write(binascii.unhexlify(line.strip()) + b"\\nEND\\n")
    sys.stdout.buffer.flush()
"""
FUZZ_CAP = 64


@pytest.fixture(scope="module")
def bytes_bot():
    sandbox_mode("strict")
    d = kit_stage_dir({"main.py": BYTES_BOT})
    bp = BotProcess.start([PYTHON, "-I", "main.py"], d, mode="strict", limits=Limits(line_bytes=FUZZ_CAP))
    yield bp
    assert bp.close()
    shutil.rmtree(d, ignore_errors=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.binary(max_size=100), st.sampled_from([b"\n", b"\r\n", b"\xff" * 70])), max_size=8))
def test_read_line_never_raises_on_any_bytes_a_bot_writes(bytes_bot, parts):
    payload = b"".join(parts)
    assert bytes_bot.send_line(binascii.hexlify(payload), soon()) == (True, "ok")
    want = [(s, "ok") if len(s) <= FUZZ_CAP else (None, "oversized") for s in payload.split(b"\n")]
    got = [bytes_bot.read_line(soon()) for _ in want]
    assert got == want
    assert bytes_bot.read_line(soon()) == (b"END", "ok")
