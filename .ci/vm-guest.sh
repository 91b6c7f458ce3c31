#!/usr/bin/env bash
# Runs inside the VM that .ci/vm boots (the host's files read-only, /tmp and /run writable, cgroup2
# the only cgroup mount): checks that, then the strict-sandbox tests and a few strict matches.
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONDONTWRITEBYTECODE=1 LADDER_REQUIRE_SERVICES=1 HOME=/tmp/vm-home TMPDIR=/tmp
mkdir -p "$HOME"
echo "== vm: $(uname -r), cgroup mounts: $(grep -c cgroup /proc/mounts) ($(awk '$3 ~ /cgroup/ {print $3" "$2}' /proc/mounts | tr '\n' ' '))"
if [ "$(awk '$3 ~ /^cgroup/ {print $3" "$2}' /proc/mounts)" != "cgroup2 /sys/fs/cgroup" ]; then
  echo "vm: expected cgroup2 as the only cgroup mount" >&2; exit 1
fi
.venv/bin/python -c 'from workers import sandbox_cgroup as c, sandbox as s; ok, why = s.sandbox_available("strict"); print("vm: strict:", ok, why); assert ok and c.backend() == "v2"'
echo "== vm: tests"
.venv/bin/python -m pytest -p no:cacheprovider -q -x ${VM_PYTEST_ARGS:-tests/workers/test_sandbox_cgroup.py}
