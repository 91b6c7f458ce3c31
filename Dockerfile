# One image for every part of the ladder: web, worker, scheduler, migrate (docker-compose.yml).
# Debian's own python3 is both the ladder's interpreter (in a venv) and a bots' runtime. Every
# runtime a bot may use (Python with numpy and scipy, Node.js, C, C++, Rust, Go, Java; the table in
# ladder/bot/runtimes.py) comes from Debian's packages, which the table names: the sandbox shows each
# bot only its runtime's package files.
FROM debian:bookworm-slim

ENV DEBIAN_FRONTEND=noninteractive \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/ladder/bin:$PATH \
    LADDER_INSTANCE_DIR=/var/lib/ladder

# bubblewrap, util-linux (setpriv) and libseccomp2: the strict sandbox; nodejs: JavaScript bots;
# tini: pid 1 (below); python3-gdbm: beat's shelve is then GNU dbm, whose 3-minute sync reaches the
# file the scheduler's health check watches (the ndbm default is never written before exit)
# /var/lib/ladder-store: the folder store's mount point (docker-compose.yml), owned by `ladder` so a new
# volume is too, and the root worker's blobs are written as its owner (ladder/storage/folder.py)
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv python3-gdbm bubblewrap util-linux \
       libseccomp2 nodejs tini \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /var/lib/ladder --create-home --shell /usr/sbin/nologin ladder \
    && install -d -o ladder -g ladder /var/lib/ladder-store

WORKDIR /app
# The bots' runtimes, as the table lists them (it needs nothing but python3 to print the list)
COPY ladder/__init__.py ladder/
COPY ladder/bot/__init__.py ladder/bot/runtimes.py ladder/bot/
RUN apt-get update \
    && apt-get install -y --no-install-recommends $(python3 -m ladder.bot.runtimes --packages) \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md ./
COPY ladder ladder
COPY workers workers
COPY bots bots
RUN python3 -m venv /opt/ladder && /opt/ladder/bin/pip install --no-cache-dir .
# The runtimes' file trees (workers/build/runtime_view.py), made once here as hard links inside the
# image rather than by each worker at its first match, and the sandbox's start helper
# (workers/sandbox/spawn.c), built with the C runtime's gcc: one module, which CI runs too
# (tests/deploy/test_dockerfile.py runs every Python step of this file)
RUN /opt/ladder/bin/python -m workers.build.image

# web, scheduler and migrate run as `ladder`; the worker runs as root (compose sets it), because
# the strict sandbox starts each bot under a per-slot uid inside cgroups of its own
USER ladder
EXPOSE 8000
# tini as pid 1 forwards SIGTERM, so celery's warm shutdown still lets matches finish, and reaps
# whatever else is orphaned. Bots' bwrap processes no longer need it: the processes that start
# sandboxes are child subreapers and reap them (workers/sandbox/reap.py).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["ladder", "web", "--host", "0.0.0.0", "--port", "8000"]
