"""The worker's heap and Python's cyclic garbage collector.

A full collection walks every object the collector tracks. In a worker that means Celery, kombu,
SQLAlchemy, the games and the match runner: objects that live as long as the process. Each full
collection took about 100 ms. That came to 5 of the 7 ms a match spent collecting
(`ladder bench service`'s breakdown, 40 matches, 2026-11-28). `gc.freeze()` moves every object
that exists at that moment into a permanent generation the collector never walks again. A full
collection then walks only what matches allocate: 7 ms, not 100.

The pool's parent freezes before it forks the pool processes. The gc docs advise this, because
otherwise each child copies the pages whose object headers the collector writes. Each pool process
then imports what a match needs and freezes again.
"""

from __future__ import annotations

import gc
import importlib

# What a match's job imports on first use. A pool process imports it at its start, so it is frozen too.
MATCH_MODULES = ("workers.queue.jobs", "workers.match.runner")


def freeze() -> int:
    """Collect once, then move every object left into the permanent generation. Returns how many
    objects are frozen now."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def freeze_for_matches() -> int:
    """A pool process's start: import what a match needs (every game's package too), then freeze."""
    from ladder.games import available_games

    for name in MATCH_MODULES:
        importlib.import_module(name)
    available_games()  # loads each game's package
    return freeze()


def install() -> None:
    """Freeze at the worker's start, before the pool forks, and at each pool process's start."""
    from celery.signals import worker_init, worker_process_init

    worker_init.connect(_on_worker_init, weak=False)
    worker_process_init.connect(_on_process_init, weak=False)


def _on_worker_init(**_kw) -> None:
    freeze()


def _on_process_init(**_kw) -> None:
    freeze_for_matches()
