"""What the image makes once, at build time (Dockerfile): every runtime's file trees and the
sandbox's start helper, so no worker pays for them at its first match.

One module the Dockerfile runs (`python -m workers.build.image`) and CI runs against the
installed package (tests/deploy/test_dockerfile.py), so a moved import fails the tests, not the
image build: the Dockerfile's inline `python -c` steps went stale once (workers.build.runtimes
became ladder/bot/runtimes.py) and nothing noticed.
"""

from __future__ import annotations

import sys

from ladder.bot import runtimes
from workers.build import runtime_view
from workers.sandbox import spawn_helper


def prepare(say=print) -> int:
    """Make each runtime's run tree (and build tree for the compiled ones) and the start helper;
    0 when all were made, 1 when one could not be (said on stderr)."""
    for runtime in runtimes.RUNTIMES:
        trees = [runtime_view.run_tree(runtime)]
        if runtime.compiled:
            trees.append(runtime_view.build_tree(runtime))
        say(f"{runtime.name}: {', '.join(str(t) for t in trees)}")
    helper = spawn_helper.path()
    if not helper:
        print("the sandbox's start helper (workers/sandbox/spawn.c) could not be built", file=sys.stderr)
        return 1
    say(f"start helper: {helper}")
    return 0


if __name__ == "__main__":
    sys.exit(prepare())
