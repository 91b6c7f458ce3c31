#!/usr/bin/env bash
# Build the image with Podman on a machine like the project's (no Docker engine, Docker Hub
# unreachable, cgroup v1 host, a TLS-intercepting proxy), by hand, not in CI (about 15 minutes):
#   deploy/podman-build.sh [TAG]
# What each workaround is for (docs/operations.md, "The image built with Podman"):
# - debian:bookworm-slim is a debootstrap tree imported into Podman (Docker Hub is unreachable);
# - runc, not crun (crun refuses the hybrid cgroup mounts), and ulimits no higher than Podman's own;
# - the host's CA bundle and a pip.conf naming it are mounted for the build only, so pip trusts
#   the proxy's certificate; nothing of them stays in the image, and the Dockerfile is unchanged.
#   The bundle goes to a path of its own (/run/ladder-build-ca.pem): mounted over the image's
#   /etc/ssl/certs/ca-certificates.crt, the ca-certificates package the first RUN installs cannot
#   replace it ("mv: cannot move ... Device or resource busy") and apt-get fails.
set -euo pipefail
cd "$(dirname "$0")/.."
tag="${1:-dragon-ladder}"
work="${TMPDIR:-/tmp}/ladder-podman-build"
mkdir -p "$work"
apt-get install -y -qq --no-install-recommends podman runc debootstrap >/dev/null
if ! podman image exists docker.io/library/debian:bookworm-slim; then
  rm -rf "$work/rootfs"
  debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >/dev/null
  tar -C "$work/rootfs" -c . | podman import - docker.io/library/debian:bookworm-slim
fi
printf '[global]\ncert = /run/ladder-build-ca.pem\n' > "$work/pip.conf"
podman --runtime "$(command -v runc)" build --network host \
  --ulimit nofile=20000:20000 --ulimit nproc=32768:32768 \
  -v /etc/ssl/certs/ca-certificates.crt:/run/ladder-build-ca.pem:ro -v "$work/pip.conf:/etc/pip.conf:ro" \
  -t "$tag" .
podman images "$tag"
