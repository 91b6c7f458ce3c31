"""`ladder bench live`: what following matches live costs. The worker side: CPU per in-process
match with the live publisher (workers/queue/live.py) on each relay against none (the process's
CPU time, the publisher's thread included). The web side: the CPU of drawing a spectator's frames
from a whole match's public entries, which a web process does once per new batch of a watched
match (ladder/services/live.py). Prints medians; asserts nothing."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ladder.config import Settings
from ladder.games import get_game
from ladder.play import default_bot_names, make_bots, play_game
from ladder.relay.backends import MemoryRelay, Relay, relay_for, topics
from ladder.replay.public import public_log, public_replay_json


def _match_cpu(game: str, seed: int, relay: Relay | None) -> float:
    from workers.queue.live import LivePublisher

    names = default_bot_names(game, get_game(game).default_players)
    bots = make_bots(game, names)
    start = time.process_time()
    if relay is None:
        play_game(game, bots, seed=seed, names=names)
    else:
        live = LivePublisher(relay, seed)
        live.begin(game=game, options=None, names=names)
        play_game(game, bots, seed=seed, names=names, on_entry=live.append)
        live.end("finished")
        live.close()
        relay.delete(topics.public(seed))
    return (time.process_time() - start) * 1000


def run_live_bench(*, game: str, matches: int, redis_url: str | None, echo: Callable[[str], None]) -> None:
    with tempfile.TemporaryDirectory(prefix="ladder-bench-live-") as folder:
        from ladder.db import make_engine, upgrade

        engine = make_engine(f"sqlite:///{Path(folder) / 'ladder.sqlite3'}")
        upgrade(engine)
        relays: dict[str, Relay | None] = {"none": None, "memory": MemoryRelay(),
                                           "sqlite": relay_for(Settings(), engine=engine)}
        if redis_url:
            relays["redis"] = relay_for(Settings(redis_url=redis_url))
        cpu: dict[str, list[float]] = {name: [] for name in relays}
        for i in range(matches):  # interleaved, so a change of load hits every relay alike
            for name, relay in relays.items():
                cpu[name].append(_match_cpu(game, 1000 + i, relay))
        base = statistics.median(cpu["none"])
        echo(f"{game}: CPU per in-process match, median of {matches} (the publisher's thread included)")
        for name, values in cpu.items():
            median = statistics.median(values)
            extra = "" if name == "none" else f"  (+{median - base:.1f} ms)"
            echo(f"  relay {name:7} {median:7.1f} ms{extra}")
        engine.dispose()
    names = default_bot_names(game, get_game(game).default_players)
    replay = play_game(game, make_bots(game, names), seed=1, names=names).replay
    log = public_log(replay.log)
    view = get_game(game).part("view")
    draws = []
    for _ in range(max(3, matches // 2)):
        start = time.process_time()
        view.frames(public_replay_json(game=game, players=len(names), options=replay.header.options, names=names,
                                       log=log), None, reveal=False)
        draws.append((time.process_time() - start) * 1000)
    echo(f"  web: drawing a whole match's live frames ({len(log)} public entries of {len(replay.log)}): "
         f"{statistics.median(draws):.1f} ms, once per new batch of a watched match per web process")
