"""A match from `ladder match`-style bot arguments, as the tests play them: `run_specs(specs, ...)`
builds the plan (ladder.match.local_plan) and runs it (workers.match.runner.run). A spec is a path,
`builtin:NAME`, or a SeatPlan itself (a remote program, a person)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ladder.bot.data import Snapshot
from ladder.games import FLAGSHIP
from ladder.match import STRIKES, SeatPlan, TimeControl, local_seat, plan
from ladder.replay import write_replay


def plan_of(specs: Sequence[str | SeatPlan], *, game: str = FLAGSHIP, seed: int = 1, options: Any = None,
            sandbox: str = "strict", clock: TimeControl | None = None, ranked: bool = False,
            names: Sequence[str] | None = None, seed_key: bytes | None = None, strikes: int = STRIKES,
            bot_data: Sequence[Snapshot | None] | None = None, match_id: int | None = None):
    seats = []
    for i, spec in enumerate(specs):
        name = names[i] if names is not None else None
        seat = local_seat(spec, name) if isinstance(spec, str) else spec
        if name is not None and not isinstance(spec, str):
            seat = replace(seat, name=name)
        if bot_data is not None:
            seat = replace(seat, data=bot_data[i])
        seats.append(seat)
    return plan(game, seats, seed=seed, options=options, sandbox=sandbox, clock=clock, ranked=ranked,
                strikes=strikes, match_id=match_id, seed_key=seed_key)


PLAN_TERMS = ("game", "seed", "options", "sandbox", "clock", "ranked", "names", "seed_key", "strikes", "bot_data",
              "match_id")


def run_specs(specs: Sequence[str | SeatPlan], *, replay_path: str | Path | None = None, **kw: Any):
    """Play one match; the keywords are the plan's terms (PLAN_TERMS) and the Env's fields."""
    from workers.match.runner import Env, run

    terms = {k: kw.pop(k) for k in PLAN_TERMS if k in kw}
    record = run(plan_of(specs, **terms), Env(**kw))
    if replay_path is not None:
        write_replay(record.replay, replay_path)
    return record


def record_of(plan: Any, replay: Any, data: Sequence[Any] | None = None, sandbox: str = "strict"):
    """What a stand-in for the runner hands the job: the MatchRecord of `replay` (its results as
    the bots would be told them, no compiled artifact)."""
    from workers.match.runner import MatchRecord

    results = tuple({"seat": r.seat, "bot": r.bot, "score": r.score, "rank": r.rank, "status": "ok", "reason": None}
                    for r in replay.results)
    return MatchRecord(plan, sandbox, results, replay, (None,) * len(plan.seats),
                       None if data is None else list(data))
