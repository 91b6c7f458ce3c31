"""A worker's heartbeat file and `ladder worker --check`: alive while the worker's own timer
writes it, dead once it is silent longer than the bound; a real worker writes it, serves its
metrics, and fails the check within seconds of a SIGKILL, with no broker asked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request

from service_support import wait_until

from workers.queue import heartbeat

PORT = 5187  # a port of this stream's range (the worker's metrics endpoint)


def test_the_check_reads_the_freshest_or_the_named_heartbeat(tmp_path):
    assert heartbeat.check(tmp_path, max_age=10) == (False, f"no worker heartbeat in {tmp_path / 'heartbeats'}")
    heartbeat.write(tmp_path, "a@host", now=1000.0)
    heartbeat.write(tmp_path, "b@host", now=1008.0)
    alive, what = heartbeat.check(tmp_path, max_age=10, now=1010.0)
    assert alive and "worker b@host" in what and "2.0 s ago" in what
    alive, what = heartbeat.check(tmp_path, max_age=5, node="a@host", now=1010.0)
    assert not alive and "silent for more than 5 s" in what
    assert not heartbeat.check(tmp_path, max_age=5, node="c@host", now=1010.0)[0]
    (tmp_path / "heartbeats" / "junk.json").write_text("{not json")  # being replaced, or not ours: ignored
    assert len(heartbeat.read_all(tmp_path, now=1010.0)) == 2


def test_a_real_worker_beats_serves_metrics_and_is_found_dead_after_a_kill(tmp_path):
    env = {**os.environ, "LADDER_INSTANCE_DIR": str(tmp_path), "LADDER_ENV": "development", "DATABASE_URL": "",
           "REDIS_URL": "", "LADDER_SANDBOX_MODE": "none", "LADDER_WORKER_HEARTBEAT_INTERVAL": "0.5",
           "LADDER_WORKER_METRICS_PORT": str(PORT), "PROMETHEUS_MULTIPROC_DIR": ""}
    ladder = [sys.executable, "-m", "ladder.cli"]
    subprocess.run([*ladder, "migrate"], env=env, check=True, capture_output=True, timeout=120)
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([*ladder, "worker", "--concurrency", "1", "--name", "beat@%h"], env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        def check():
            return subprocess.run([*ladder, "worker", "--check", "--name", "beat@%h", "--max-age", "3"], env=env,
                                  capture_output=True, text=True, timeout=60)

        # waits read the files in-process (a `ladder` start costs a CPU second); the command runs once each way
        wait_until(lambda: heartbeat.check(tmp_path, max_age=3)[0], 90, "the worker's first heartbeat", [log])
        alive = check()
        assert alive.returncode == 0 and "beat@" in alive.stdout
        first = heartbeat.read_all(tmp_path)[0]
        assert first.node.startswith("beat@") and first.pid == proc.pid
        time.sleep(1.5)
        assert heartbeat.read_all(tmp_path)[0].age_s < 1.5  # rewritten by the timer, not once
        body = urllib.request.urlopen(f"http://127.0.0.1:{PORT}/metrics", timeout=10).read().decode()
        assert f'ladder_worker_heartbeat_age_seconds{{node="{first.node}"}}' in body
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        wait_until(lambda: not heartbeat.check(tmp_path, max_age=3)[0], 15, "the worker to fall silent", [log])
        dead = check()
        assert dead.returncode == 1 and "silent for more than 3 s" in dead.stderr
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
