"""End to end, by hand (not in CI: about three minutes): a real Prometheus (Debian's `prometheus`)
scrapes a ladder of a three-process `ladder web`, two workers and the scheduler on PostgreSQL and
a Redis of its own while matches play; prints each metric at two times (they must move), then
SIGKILLs one worker and waits for the 'worker silent' alert to fire (a copy of alerts.yml with
short `for:`). Exit 0 only if every metric was seen and the alert fired.

    .venv/bin/python deploy/prometheus/e2e.py [--base-port 5100] [--redis-port 6381] [--database ladder_ops]

Needs: prometheus, redis-server, PostgreSQL at 127.0.0.1:5432 (trust), bubblewrap (user sandbox).
Ports: base (web), base+1 and base+3 (workers' metrics), base+2 (Prometheus).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
LADDER = [sys.executable, "-m", "ladder.cli"]
WATCHED = [
    ('sum(ladder_matches_ended_total{status="finished"})', "matches finished"),
    ('sum(ladder_matches_ended_total{status="failed"}) or vector(0)', "matches failed"),
    ("sum(ladder_match_duration_seconds_count)", "match durations observed"),
    ('sum(ladder_match_phase_seconds_count{phase="play"})', "match phases observed (play)"),
    ("sum(ladder_rating_changes_applied_total)", "rating changes applied"),
    ("sum(ladder_http_requests_total)", "HTTP requests"),
    ("sum(ladder_http_request_duration_seconds_count)", "HTTP latencies observed"),
    ('max(ladder_queue_depth{queue="ladder.matches"})', "queue depth (ladder.matches)"),
    ('max(ladder_queue_oldest_age_seconds{queue="ladder.matches"})', "oldest queued age (s)"),
    ("max(ladder_matches_running)", "matches running"),
    ("max(ladder_matches_running_past_stale)", "running past the stale bound"),
    ("min(ladder_worker_last_claim_age_seconds)", "last claim age, freshest host (s)"),
    ("max(ladder_worker_heartbeat_age_seconds)", "heartbeat age, oldest (s)"),
    ("sum(ladder_sweeper_sent_total) or vector(0)", "sweeper sends"),
    ("sum(ladder_sandbox_start_failures_total) or vector(0)", "sandbox start failures"),
    ("sum(ladder_match_attempts_voided_total) or vector(0)", "attempts voided"),
    ('count(up{job="ladder-worker"} == 1)', "workers up"),
]
MUST_MOVE = {"matches finished", "match durations observed", "match phases observed (play)", "rating changes applied",
             "HTTP requests", "HTTP latencies observed"}


def query(port: int, expr: str) -> float | None:
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(url, timeout=10) as response:
        result = json.load(response)["data"]["result"]
    return float(result[0]["value"][1]) if result else None


def alerts(port: int) -> list[dict]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/alerts", timeout=10) as response:
        return json.load(response)["data"]["alerts"]


def wait(predicate, timeout: float, what: str) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            if predicate():
                return time.monotonic() - start
        except OSError:
            pass
        time.sleep(1)
    raise SystemExit(f"timed out after {timeout:.0f} s waiting for {what}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-port", type=int, default=5100)
    parser.add_argument("--redis-port", type=int, default=6381)
    parser.add_argument("--database", default="ladder_ops")
    parser.add_argument("--play-seconds", type=float, default=40)
    args = parser.parse_args()
    web, worker_a, prom, worker_b = (args.base_port + i for i in range(4))
    work = Path(tempfile.mkdtemp(prefix="ladder-e2e-"))
    procs: list[subprocess.Popen] = []

    def start(name: str, argv: list[str], **extra: str) -> subprocess.Popen:
        log = (work / f"{name}.log").open("wb")
        proc = subprocess.Popen(argv, env={**env, **extra}, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        procs.append(proc)
        return proc

    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", "--force", args.database], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", args.database], check=True)
    env = {**os.environ, "DATABASE_URL": f"postgresql://postgres@127.0.0.1:5432/{args.database}",
           "REDIS_URL": f"redis://127.0.0.1:{args.redis_port}/0", "LADDER_ENV": "development",
           "LADDER_SANDBOX_MODE": "user", "LADDER_INSTANCE_DIR": str(work / "instance"),
           "LADDER_WORKER_HEARTBEAT_INTERVAL": "2", "PROMETHEUS_MULTIPROC_DIR": ""}
    rules = (HERE / "alerts.yml").read_text().replace("for: 1m", "for: 10s").replace("for: 2m", "for: 10s")
    rules = rules.replace("ladder_worker_heartbeat_age_seconds) > 60", "ladder_worker_heartbeat_age_seconds) > 10")
    (work / "alerts.yml").write_text(rules)
    (work / "prometheus.yml").write_text(f"""global: {{scrape_interval: 2s, evaluation_interval: 2s}}
rule_files: [alerts.yml]
scrape_configs:
  - job_name: ladder-web
    static_configs: [{{targets: ["127.0.0.1:{web}"]}}]
  - job_name: ladder-worker
    static_configs: [{{targets: ["127.0.0.1:{worker_a}", "127.0.0.1:{worker_b}"]}}]
""")
    try:
        start("redis", ["redis-server", "--port", str(args.redis_port), "--bind", "127.0.0.1", "--save", "",
                        "--appendonly", "no"])
        migrated = subprocess.run([*LADDER, "migrate"], env=env, capture_output=True, text=True, timeout=300)
        print("ladder migrate:", migrated.stdout.strip() or migrated.stderr.strip())
        start("web", [*LADDER, "web", "--port", str(web), "--workers", "3"])
        start("worker-a", [*LADDER, "worker", "-c", "1", "--name", "a@%h"], LADDER_WORKER_METRICS_PORT=str(worker_a))
        victim = procs[-1]
        start("worker-b", [*LADDER, "worker", "-c", "1", "--name", "b@%h"], LADDER_WORKER_METRICS_PORT=str(worker_b))
        start("scheduler", [*LADDER, "scheduler"])
        start("prometheus", [shutil.which("prometheus") or "/usr/bin/prometheus",
                             f"--config.file={work / 'prometheus.yml'}", f"--storage.tsdb.path={work / 'tsdb'}",
                             f"--web.listen-address=127.0.0.1:{prom}"])
        took = wait(lambda: (query(prom, WATCHED[0][0]) or 0) >= 3, 240, "three finished matches in Prometheus")
        print(f"three matches finished (seen by Prometheus) {took:.0f} s after start")
        first = {expr: query(prom, expr) for expr, _ in WATCHED}
        time.sleep(args.play_seconds)
        second = {expr: query(prom, expr) for expr, _ in WATCHED}
        print(f"\n{'metric':38} {'first':>10} {f'+{args.play_seconds:.0f} s':>10}")
        for expr, label in WATCHED:
            print(f"{label:38} {_fmt(first[expr]):>10} {_fmt(second[expr]):>10}")
        unseen = [label for expr, label in WATCHED if second[expr] is None]
        killed_at = time.monotonic()
        os.killpg(victim.pid, signal.SIGKILL)
        print(f"\nSIGKILL to worker a (pid {victim.pid}, metrics 127.0.0.1:{worker_a})")

        def firing() -> bool:
            return any(a["labels"].get("alertname") == "LadderWorkerSilent" and a["state"] == "firing"
                       and a["labels"].get("instance") == f"127.0.0.1:{worker_a}" for a in alerts(prom))

        took = wait(firing, 120, "LadderWorkerSilent to fire")
        print(f"LadderWorkerSilent firing for 127.0.0.1:{worker_a} {time.monotonic() - killed_at:.0f} s after the kill")
        checked = subprocess.run([*LADDER, "worker", "--check", "--name", "a@%h"], env=env, capture_output=True,
                                 text=True, timeout=60)
        print(f"ladder worker --check --name a@%h: exit {checked.returncode}: "
              f"{(checked.stdout + checked.stderr).strip()}")
        still = subprocess.run([*LADDER, "worker", "--check", "--name", "b@%h"], env=env, capture_output=True,
                               text=True, timeout=60)
        print(f"ladder worker --check --name b@%h: exit {still.returncode}: {(still.stdout + still.stderr).strip()}")
        # what a healthy run must move (failures, voids and sweeper sends stay 0 unless something breaks)
        moved = [label for expr, label in WATCHED if label in MUST_MOVE and (second[expr] or 0) <= (first[expr] or 0)]
        if unseen or moved:
            print(f"not seen: {unseen}; did not move: {moved}")
            return 1
        return 0 if checked.returncode == 1 and still.returncode == 0 else 1
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        print(f"logs in {work}")


def _fmt(value: float | None) -> str:
    if value is None:
        return "absent"
    return f"{value:.0f}" if value == int(value) or abs(value) >= 100 else f"{value:.2f}"


if __name__ == "__main__":
    sys.exit(main())
