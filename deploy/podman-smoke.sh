#!/usr/bin/env bash
# The compose smoke test, with Podman: build every image, bring docker-compose.yml up (with
# deploy/compose.no-registry.yml: PostgreSQL and Redis from Debian's packages), and check what an
# operator relies on: web's /readyz, the worker's heartbeat check, a bot uploaded over the API
# whose validation game and a ranked match finish through the real worker, PostgreSQL and Redis,
# and /metrics on web and worker. Then everything it made goes (containers, volumes, network),
# pass or fail; the images stay (the next run's build is then mostly cached). As root, by hand or
# from a CI stage of its own (a build from an empty cache took 12.5 to 21 minutes here: not in
# .ci/run; with the images cached a run takes about 3 minutes):
#   deploy/podman-smoke.sh
# Settings (environment): LADDER_SMOKE_PORT (8120: the web's port on the host's 127.0.0.1),
# LADDER_SMOKE_PROJECT (ladder-smoke: the compose project, so its names), LADDER_SMOKE_TIMEOUT
# (900: seconds for the validation game and the ranked match), LADDER_SMOKE_BUILD=0 (use the images already built).
# Why podman-compose 1.0.3 (Debian 12's), and what it needs help with, is in docs/operations.md
# ("The compose smoke test"): Podman 4.3 cannot wait for `condition: service_healthy` and runs no
# health checks without systemd, so this script starts the services in order and runs each health
# check itself; podman-compose 1.0.3 drops `cgroup: private`, so it is passed to `podman run`.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${LADDER_SMOKE_PORT:-8120}"
project="${LADDER_SMOKE_PROJECT:-ladder-smoke}"
match_timeout="${LADDER_SMOKE_TIMEOUT:-900}"
work="${TMPDIR:-/tmp}/ladder-podman-smoke"
base="http://127.0.0.1:$port"
mkdir -p "$work"
log="$work/compose.log"
: > "$log"

# --- progress and the summary -------------------------------------------------------------------
run_started=$(date +%s.%N)
summary=()
step=""
step_started=""
failed=""
composer_version=""

elapsed() { python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.1f}")' "$1" "$(date +%s.%N)"; }
begin() { step="$1"; step_started=$(date +%s.%N); echo "== $step"; }
pass() {
  summary+=("$(printf '%-8s %7ss  %s%s' PASS "$(elapsed "$step_started")" "$step" "${1:+: $1}")")
  step=""
}
say() { echo "   $*"; }
fail() { echo "FAILED: $step: $*" >&2; failed="$step: $*"; exit 1; }

# --- podman and podman-compose, as this host needs them -----------------------------------------
container() { echo "${project}_$1_1"; }
compose() {
  # cgroup: private (the worker's cgroups inside its own group) is in docker-compose.yml, but
  # podman-compose 1.0.3 drops the key; every container of the project gets its own namespace
  podman-compose -p "$project" -f docker-compose.yml -f deploy/compose.no-registry.yml \
    --podman-run-args=--cgroupns=private "$@" >>"$log" 2>&1
}
healthy() {  # run a container's health check until it passes (no systemd: nothing else runs it)
  local name; name=$(container "$1")
  local deadline=$(( $(date +%s) + $2 ))
  while (( $(date +%s) < deadline )); do
    if [ "$(podman inspect -f '{{.State.Status}}' "$name" 2>/dev/null)" != running ]; then
      podman logs --tail 30 "$name" >&2 || true
      fail "$name is not running"
    fi
    if podman healthcheck run "$name" >/dev/null 2>&1; then
      return 0
    fi
    sleep 2
  done
  podman logs --tail 30 "$name" >&2 || true
  fail "$name's health check did not pass within $2 s"
}
json() {  # json EXPR: evaluate EXPR over the JSON document on stdin (as d)
  python3 -c 'import json, sys; d = json.load(sys.stdin); print(eval(sys.argv[1], {"d": d}))' "$1"
}

teardown() {
  local rc=$? t0
  set +e
  if [ -n "$step" ]; then
    summary+=("$(printf '%-8s %7ss  %s: %s' FAIL "$(elapsed "$step_started")" "$step" "${failed#*: }")")
    echo "-- compose's output (last 40 lines of $log)"
    tail -n 40 "$log"
    for svc in postgres redis migrate web worker scheduler; do
      if podman container exists "$(container $svc)"; then
        echo "-- $(container $svc) (last 15 log lines)"
        podman logs --tail 15 "$(container $svc)" 2>&1
      fi
    done
  fi
  echo "== tear down"
  t0=$(date +%s.%N)
  # compose's own down first (-t: the worker's warm shutdown; 1.0.3 ignores stop_grace_period),
  # then anything of the project's labels it left (a container it never made, a failed start)
  podman-compose -p "$project" -f docker-compose.yml -f deploy/compose.no-registry.yml down -v -t 60 >>"$log" 2>&1
  local label="label=io.podman.compose.project=$project"
  podman ps -aq --filter "$label" | xargs -r podman rm -f -v >/dev/null 2>&1
  podman volume ls -q --filter "$label" | xargs -r podman volume rm -f >/dev/null 2>&1
  podman network ls -q --filter "$label" | xargs -r podman network rm -f >/dev/null 2>&1
  local left
  left="$(podman ps -aq --filter "$label")$(podman volume ls -q --filter "$label")$(podman network ls -q --filter "$label")"
  if [ -z "$left" ]; then
    summary+=("$(printf '%-8s %7ss  %s' PASS "$(elapsed "$t0")" "tear down: no container, volume or network of $project left")")
  else
    summary+=("$(printf '%-8s %7ss  %s' FAIL "$(elapsed "$t0")" "tear down: left $left")")
    rc=1
  fi
  echo
  echo "== summary ($(date -u +%Y-%m-%dT%H:%MZ), $(podman --version), podman-compose $composer_version)"
  printf '%s\n' "${summary[@]}"
  printf '%-8s %7ss  %s\n' "$( ((rc == 0)) && echo PASSED || echo FAILED)" "$(elapsed "$run_started")" "total"
  exit "$rc"
}

# --- the run --------------------------------------------------------------------------------------
if [ -e .env ]; then
  # podman-compose lays a .env beside the first file over the environment: the run's own
  # secrets and port would lose to an operator's
  echo "podman-smoke: a .env is in $(pwd): run from a checkout without one" >&2
  exit 2
fi

# the run's own secrets (compose refuses to read the file without them, even to build or tear down)
export LADDER_SECRET_KEY POSTGRES_PASSWORD REDIS_PASSWORD LADDER_PORT="$port" LADDER_BIND=127.0.0.1
LADDER_SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(48))')
POSTGRES_PASSWORD=$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')
REDIS_PASSWORD=$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')

begin "install podman, podman-compose, runc"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --no-install-recommends podman podman-compose runc iptables debootstrap >/dev/null
# Podman's default ulimits (1048576 open files) fail where the hard limits are lower (this
# machine: no CAP_SYS_RESOURCE), and crun refuses a host with v1 controllers beside a cgroup2
# mount; a configuration of the run's own, the host's left alone. The limits are no higher than
# conmon's own: the hard open-files limit, and at most 32768 processes (conmon runs with 32768
# here whatever the shell's limit; 96362, this shell's, failed with "error setting rlimit type 6")
if [ -z "${CONTAINERS_CONF:-}" ]; then
  nofile=$(ulimit -Hn) nproc=$(ulimit -Hu)
  [ "$nofile" = unlimited ] && nofile=1048576
  { [ "$nproc" = unlimited ] || (( nproc > 32768 )); } && nproc=32768
  printf '[containers]\ndefault_ulimits = ["nofile=%s:%s", "nproc=%s:%s"]\n[engine]\nruntime = "runc"\n' \
    "$nofile" "$nofile" "$nproc" "$nproc" > "$work/containers.conf"
  export CONTAINERS_CONF="$work/containers.conf"
fi
composer_version=$(podman-compose version 2>/dev/null | sed -n 's/^podman-composer* version *//p' | head -1)
pass "$(podman --version), podman-compose $composer_version, $(runc --version | head -1)"

trap teardown EXIT
trap 'failed="$step: interrupted"; exit 130' INT TERM  # through the EXIT trap: it tears down too
trap 'failed="${failed:-$step: the command at line $LINENO failed}"' ERR
# leftovers of an interrupted run (same project) would make `podman run` fail on their names
podman ps -aq --filter "label=io.podman.compose.project=$project" | xargs -r podman rm -f -v >/dev/null 2>&1 || true
podman volume ls -q --filter "label=io.podman.compose.project=$project" | xargs -r podman volume rm -f >/dev/null 2>&1 || true

if [ "${LADDER_SMOKE_BUILD:-1}" = 1 ]; then
  begin "build the ladder image (deploy/podman-build.sh)"
  deploy/podman-build.sh dragon-ladder >"$work/build-ladder.log" 2>&1 || { tail -n 30 "$work/build-ladder.log" >&2; fail "see $work/build-ladder.log"; }
  pass "$(podman image inspect -f '{{.Size}}' dragon-ladder | awk '{printf "%.2f GB", $1 / 1e9}')"
  begin "build ladder-postgres:15 and ladder-redis:7 (compose build)"
  compose build postgres redis || fail "see $log"
  for image in ladder-postgres:15 ladder-redis:7; do
    podman image exists "$image" || fail "no image $image after the build: see $log"
  done
  pass "$(podman image inspect -f '{{.Size}}' ladder-postgres:15 | awk '{printf "%.0f MB", $1 / 1e6}') and $(podman image inspect -f '{{.Size}}' ladder-redis:7 | awk '{printf "%.0f MB", $1 / 1e6}')"
else
  for image in dragon-ladder ladder-postgres:15 ladder-redis:7; do
    podman image exists "$image" || { echo "podman-smoke: no image $image (LADDER_SMOKE_BUILD=0)" >&2; exit 2; }
  done
fi

begin "postgres and redis up and healthy"
compose up -d --no-build postgres redis || fail "see $log"
healthy postgres 120
healthy redis 60
pass "$(podman exec "$(container postgres)" postgres --version), $(podman exec "$(container redis)" redis-server --version | cut -d' ' -f1-3)"

begin "migrate"
# started alone and waited for: Podman 4.3 cannot hold web back until it has exited
compose up -d --no-build migrate || fail "see $log"
code=$(podman wait "$(container migrate)")
migrated=$(podman logs "$(container migrate)" 2>&1 | grep -m1 '^migrated' || true)
[ "$code" = 0 ] || { podman logs "$(container migrate)" >&2; fail "ladder migrate exited $code"; }
say "$migrated"
pass "$migrated"

begin "web, worker and scheduler up"
# (up starts the exited migrate once more, as a dependency: at head, it changes nothing)
compose up -d --no-build web worker scheduler || fail "see $log"
pass

begin "web healthy (/readyz)"
healthy web 180
ready=$(curl -fsS "$base/readyz") || fail "GET /readyz: $(curl -sS "$base/readyz" 2>&1)"
say "GET /readyz: $ready"
[ "$(json 'd["status"]' <<<"$ready")" = ready ] || fail "not ready: $ready"
pass "/readyz ready, /healthz $(curl -sS "$base/healthz")"

begin "worker healthy (heartbeat check)"
healthy worker 120
check=$(podman exec "$(container worker)" ladder worker --check --name 'ladder@%h')
sandbox=$(podman logs "$(container worker)" 2>&1 | grep -m1 -o 'sandbox: .*' || true)
say "$check"
say "$sandbox"
case "$sandbox" in *"sandbox: strict"*) ;; *) fail "the worker is not in the strict sandbox: ${sandbox:-no sandbox line}" ;; esac
pass "$check; $sandbox"

begin "scheduler healthy (its schedule file)"
healthy scheduler 120
pass

begin "a bot uploaded over the API, its validation game"
# the account and its token from the ladder's own services, inside the web container (sign-up
# over HTTP is a browser form with CSRF); everything after is the public API
token=$(podman exec -i "$(container web)" python - <<'EOF'
import os
import secrets

from ladder.config import Settings
from ladder.db import make_engine, session_factory, session_scope
from ladder.services import tokens, users

engine = make_engine(Settings.from_env(os.environ))
with session_scope(session_factory(engine)) as session:
    user = users.sign_up(session=session, data={"username": "smoke", "password": secrets.token_urlsafe(24)})
    print(tokens.create(session=session, user_id=user.id, name="smoke", scopes=["upload", "read"])[1])
EOF
) || fail "could not make the account"
upload=$(curl -fsS -H "Authorization: Bearer $token" -F file=@bots/examples/python/main.py \
  -F name=smoke -F game=treasure "$base/api/v1/bots") || fail "upload refused"
bot=$(json 'd["bot"]["id"]' <<<"$upload")
validation=$(json 'd["validation_match"]' <<<"$upload")
say "bot $bot uploaded, validation match $validation"
deadline=$(( $(date +%s) + match_timeout ))
while :; do
  status=$(curl -fsS "$base/api/v1/matches/$validation" | json 'd["match"]["status"]')
  case "$status" in finished) break ;; failed) fail "validation match $validation failed" ;; esac
  (( $(date +%s) < deadline )) || fail "validation match $validation still $status after $match_timeout s"
  sleep 3
done
version=$(curl -fsS "$base/api/v1/bots/$bot" | json 'd["versions"][0]["status"]')
[ "$version" = active ] || fail "the version is $version after its validation game"
pass "match $validation finished, version active"

begin "a ranked match of that bot finished"
while :; do
  ranked=$(curl -fsS "$base/api/v1/matches?bot=$bot&status=finished&limit=200" \
    | json '",".join(str(m["id"]) for m in d["matches"] if m["kind"] == "ladder")')
  [ -n "$ranked" ] && break
  (( $(date +%s) < deadline )) || fail "no ranked match of bot $bot finished within $match_timeout s"
  sleep 5
done
first=${ranked##*,}
detail=$(curl -fsS "$base/api/v1/matches/$first")
say "match $first: $(json '"; ".join("%s rank %s (%+.1f)" % (s["bot"], s["rank"], s["rating_delta"] or 0) for s in d["seats"])' <<<"$detail")"
msandbox=$(json 'd["match"]["sandbox"]' <<<"$detail")
[ "$msandbox" = strict ] || fail "match $first ran in the $msandbox sandbox"
curl -fsS -o "$work/replay.json" "$base/api/v1/matches/$first/replay" || fail "GET the replay of match $first"
cgroup=$(json 'd.get("cgroup")' <"$work/replay.json")
verified=$(podman exec -i "$(container web)" sh -c 'cat > /tmp/smoke-replay.json && ladder replay verify /tmp/smoke-replay.json' \
  <"$work/replay.json" 2>&1) || fail "ladder replay verify: $verified"
say "replay: sandbox $msandbox, cgroup $cgroup; ladder replay verify: $(tail -n 1 <<<"$verified")"
finished=$(curl -fsS "$base/api/v1/matches?status=finished&limit=200" | json 'len(d["matches"])')
pass "match $first (ranked; sandbox $msandbox, cgroup $cgroup; its replay verified); $finished matches finished in all"

begin "/metrics on web and worker"
web_metrics=$(curl -fsS "$base/metrics") || fail "GET /metrics"
requests=$(grep -c '^ladder_http_requests_total{' <<<"$web_metrics" || true)
[ "$requests" -gt 0 ] || fail "web's /metrics has no ladder_http_requests_total"
worker_metrics=$(podman exec "$(container web)" python -c \
  "import urllib.request; print(urllib.request.urlopen('http://worker:9808/metrics', timeout=10).read().decode())") \
  || fail "the worker's /metrics (worker:9808 on the compose network)"
ended=$(grep '^ladder_matches_ended_total{' <<<"$worker_metrics" | grep 'status="finished"' || true)
[ -n "$ended" ] || fail "the worker's /metrics counts no finished match"
say "web: $requests ladder_http_requests_total series; worker:"
sed 's/^/     /' <<<"$ended"
pass "web $requests request series; worker $(awk '{s += $2} END {print s}' <<<"$ended") finished matches counted"

trap - EXIT
teardown
