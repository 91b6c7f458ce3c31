"""Shared by the person-seat tests (tests/web/test_play.py, tests/browser/test_play.py): a runner that
plays a match in-process with the starter bots named by its seats, and the person's seat as the
worker makes it (workers/match/seats/person.py through workers.queue.jobs), so the page, the relay and
the seat are real and only the sandbox is left out."""

from __future__ import annotations

import re
import threading

from match_support import record_of

from bots import builtin_names, load_builtin
from ladder.play import play_game


class PersonRunner:
    """Stands in for workers.match.runner.run: each bot seat plays its starter bot (its name ends
    "/<starter> v1"), each person's seat is the seat object the runner makes of it."""

    def __call__(self, plan, env):
        from ladder.match import Person
        from workers.match.protocol import EventLines
        from workers.match.seats import MatchVoid, Table, seat_for

        game, seed, options, names = plan.game.name, plan.seed, plan.options, plan.names
        outside = [i for i, seat in enumerate(plan.seats) if isinstance(seat, Person)]
        starters = builtin_names(game)
        seats = []
        for i, name in enumerate(names):
            if i in outside:
                seats.append(seat_for(i, Table(plan, env, "none", EventLines(), MatchVoid(), {})))
                continue
            found = re.search(r"/([a-z]+) v\d+$", name)
            bot = found.group(1) if found and found.group(1) in starters else starters[0]
            seats.append(load_builtin(game, bot)())

        def route(entry):
            if "fault" in entry and entry["seat"] in outside:
                seats[entry["seat"]].refused(entry)

        played = play_game(game, seats, seed=seed, options=options, names=names, on_entry=route)
        forfeited = [i for i in outside if seats[i].takeover is not None]
        records = [seats[i].completed(r, forfeit=i in forfeited or r.forfeit, sandbox="none") if i in outside else r
                   for i, r in enumerate(played.seats)]
        results = [{"seat": r.seat, "score": r.score, "rank": r.rank} for r in played.results]
        for i in outside:
            seats[i].send_end(results, 0)
        return record_of(plan, played.replay.completed(results=played.results, seats=records, cgroup=None))


def play_in_background(match_id, *, sessions, settings):
    """Play the match through workers.queue.jobs in a thread; returns (thread, outcome list)."""
    from workers.queue.jobs import play_match

    outcome = []

    def run():
        outcome.append(play_match(match_id, sessions=sessions, settings=settings, worker_id="test-worker",
                                  runner=PersonRunner()))

    thread = threading.Thread(target=run, daemon=True, name=f"match-{match_id}")
    thread.start()
    return thread, outcome
