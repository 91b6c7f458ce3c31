"""The settings .ci/vm passes into its VM (.ci/vm-env): the listed ones arrive as the same strings,
however hostile, none is run by the guest's shell, and nothing else passes."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[2]

HOSTILE = {
    "VM_PYTEST_ARGS": "tests/x.py -k 'a and not b' \"$(touch {canary})\" `touch {canary}` ; touch {canary}\nnext line",
    "LADDER_REAP_TEST_MATCHES": "25",
    "LADDER_REQUIRE_SERVICES": "$HOME 'x' \\ \"",
}


def test_the_passed_settings_arrive_unchanged_and_none_is_run(tmp_path):
    canary = tmp_path / "ran"
    settings = {k: v.format(canary=canary) for k, v in HOSTILE.items()}
    host_env = {"PATH": os.environ["PATH"], "LADDER_DATABASE_URL": "postgresql://host-only", **settings}
    lines = subprocess.run([str(ROOT / ".ci" / "vm-env")], env=host_env, capture_output=True, text=True,
                           check=True).stdout
    (tmp_path / "env").write_text(lines)
    # The guest sources the file in a fresh environment of its own, as .ci/vm-guest.sh does.
    got = subprocess.run(["bash", "-c", '. "$1"; env -0', "_", str(tmp_path / "env")],
                         env={"PATH": os.environ["PATH"]}, capture_output=True, text=True, check=True).stdout
    guest = dict(item.split("=", 1) for item in got.split("\0") if item)
    assert {k: guest.get(k) for k in settings} == settings
    assert "LADDER_DATABASE_URL" not in guest  # not listed: stays on the host
    assert "LADDER_VM_CLOCK" not in guest  # listed but unset here: the guest keeps its default
    assert not canary.exists()
