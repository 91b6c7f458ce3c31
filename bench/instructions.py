"""Instruction counts of Drachengold's engine and observations over a fixed set of decisions, for a
machine that is never idle (issue #29 item 3): wall-clock µs swing with the load, instructions not.

    .venv/bin/python bench/instructions.py record            # once: the decisions, to /tmp
    for mode in base engine observation; do
      PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$mode \
        .venv/bin/python bench/instructions.py $mode
    done

Each mode replays the recorded games (`ladder bench engine`'s greedy line-up: 4 x greedy, seeds
0..GAMES-1) from their decisions: `base` only sets each game up and walks its decisions, `engine`
also validates and applies each one (what the bench times as engine µs), `observation` also builds
the deciding seat's observation (the bench's obs µs). Per decision: (engine - base) / decisions
and (observation - engine) / decisions, from the "summary:" line of each callgrind output file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

GAMES = 24
RECORD = Path("/tmp/drachengold-decisions.json")


def record() -> None:
    from ladder.play import play_builtin

    games = []
    for seed in range(GAMES):
        played = play_builtin("drachengold", ["greedy"] * 4, seed=seed)
        decisions = [[e.seat, e.decision] for e in played.replay.log if hasattr(e, "decision")]
        games.append({"seed": seed, "decisions": decisions})
    RECORD.write_text(json.dumps(games))
    print(f"{sum(len(g['decisions']) for g in games)} decisions in {GAMES} games -> {RECORD}")


def replay(mode: str) -> None:
    from ladder.games import get_game

    game = get_game("drachengold")
    games = json.loads(RECORD.read_text())
    count = 0
    for played in games:
        state = game.new_state({}, played["seed"], 4)
        for seat, decision in played["decisions"]:
            count += 1
            if mode == "base":
                continue
            if mode == "observation":
                state.observation(seat)
            if state.validate(seat, decision) is not None:
                raise SystemExit(f"seed {played['seed']}: the recorded decision {decision} is refused")
            state.apply_validated(seat, decision)
        if mode != "base" and not state.is_terminal():
            raise SystemExit(f"seed {played['seed']}: the game did not end")
    print(f"{mode}: {count} decisions")


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "record"
    record() if mode == "record" else replay(mode)
