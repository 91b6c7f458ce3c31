"""The multiprocess metrics folder: one per process role and pid, wiped at start, dead ones'
removed, and what forked children count summed by a scrape of the parent (as gunicorn's and the
prefork pool's processes are); set too late, it says so."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from ladder.telemetry.metrics_dir import MULTIPROC_ENV, use_multiproc_dir


def test_a_fresh_folder_per_process_and_dead_ones_removed(tmp_path):
    environ: dict[str, str] = {}
    stale = tmp_path / "metrics" / "web-999999999"  # no such pid
    stale.mkdir(parents=True)
    other_role = tmp_path / "metrics" / "worker-999999999"
    other_role.mkdir()
    mine = tmp_path / "metrics" / f"web-{os.getpid()}"
    mine.mkdir()
    (mine / "counter_1.db").write_bytes(b"old run")
    folder = use_multiproc_dir(tmp_path, "web", environ)
    assert folder == mine and list(folder.iterdir()) == [] and not stale.exists() and other_role.exists()
    assert environ[MULTIPROC_ENV] == str(folder) and environ[f"LADDER_{MULTIPROC_ENV}"] == str(tmp_path / "metrics")


def test_forked_processes_values_are_summed_by_a_scrape(tmp_path):
    program = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from ladder.telemetry.metrics_dir import use_multiproc_dir
        use_multiproc_dir(Path({str(tmp_path)!r}), "worker")
        from ladder.telemetry import metrics
        for _ in range(2):
            pid = os.fork()
            if pid == 0:
                metrics.MATCHES_ENDED.labels("treasure", "finished").inc()
                os._exit(0)
            os.waitpid(pid, 0)
        print(metrics.exposition().decode())
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60,
                          env={**os.environ, MULTIPROC_ENV: ""})
    assert done.returncode == 0, done.stderr
    assert 'ladder_matches_ended_total{game="treasure",status="finished"} 2.0' in done.stdout
    assert "set after prometheus_client was imported" not in done.stderr


def test_a_folder_set_after_the_client_loaded_is_reported(tmp_path):
    program = ("import prometheus_client; from pathlib import Path; "
               "from ladder.telemetry.metrics_dir import use_multiproc_dir; "
               f"use_multiproc_dir(Path({str(tmp_path)!r}), 'web')")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert "set after prometheus_client was imported" in done.stderr
