"""`ladder bench live`: what following matches live costs. The worker side: CPU per in-process
match with the live publisher (workers/queue/live.py) on each relay against none (the process's
CPU time, the publisher's thread included). The web side: the CPU a web process spends on each new
batch of a watched match (ladder/services/live.py), early and late in a long match: flat, since
only the new entries are drawn. Prints medians; asserts nothing."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ladder.config import Settings
from ladder.games import get_game
from ladder.games.frames import Heading, drawn
from ladder.play import default_bot_names, make_bots, play_game
from ladder.relay.backends import MemoryRelay, Relay, relay_for, topics
from ladder.replay.public import public_log, typed_public_entry


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
    _web_batches(game, echo)


BATCH = 5  # public entries per live batch (the publisher sends what gathered in a quarter second)
SAMPLES = 8  # batches measured at the start and at the end of the match


def _web_batches(game: str, echo: Callable[[str], None]) -> None:
    """What a web process spends per live batch of a watched match: feeding the game's stream the
    batch's entries and answering from the client's last frame on (ladder/services/live.py), early
    and late in a long match. Flat: the feed draws only what is new."""
    obj = get_game(game)
    names = default_bot_names(game, obj.max_players)
    replay = play_game(game, make_bots(game, names), seed=1, names=names).replay
    log = [typed_public_entry(e) for e in public_log(replay.log)]
    stream = obj.part("view").stream(Heading.of(replay), None, reveal=False)
    costs, have = [], 0
    for first in range(0, len(log), BATCH):
        start = time.process_time()
        stream.feed(log[first:first + BATCH], first)
        total = stream.count()
        stream.frames_from(max(0, min(have, total) - 1))
        costs.append((time.process_time() - start) * 1000)
        have = total
    early, late = costs[:SAMPLES], costs[-SAMPLES - 1:-1]  # the last batch is the end's, often short
    start = time.process_time()
    drawn(obj.part("view").stream(Heading.of(replay), None, reveal=False), log)
    whole = (time.process_time() - start) * 1000
    echo(f"  web: per live batch of {BATCH} public entries ({len(log)} in the match, {len(costs)} batches): "
         f"early {statistics.median(early):.2f} ms, late {statistics.median(late):.2f} ms (medians of {SAMPLES}); "
         f"redrawing the whole match would cost {whole:.1f} ms a batch at its end")
