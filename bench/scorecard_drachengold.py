"""What Drachengold's scorecard costs per match, against the match's own play (issue #45).

    .venv/bin/python bench/scorecard_drachengold.py [--games 20] [--players 4]

Plays seeded in-process games of four house bots and times, in CPU time of this process (the
machine is shared: wall time would count other engineers' work), each game's play and its
`measure(replay)`; prints the medians and the ratio. Not a test: a number to quote
(docs/scorecard.md (Drachengold), "Cost").
"""

from __future__ import annotations

import argparse
import time
from statistics import median

from ladder.games import get_game
from ladder.play import play_builtin

LINEUP = ("greedy", "conceder", "hardhead", "bargainer", "trader", "modeler")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, as ladder play takes them")
    args = parser.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    measure = get_game("drachengold").part("scorecard").measure
    play_ms, measure_us = [], []
    for seed in range(args.games):
        t0 = time.process_time()
        replay = play_builtin("drachengold", LINEUP[: args.players], seed=seed, options=options).replay
        t1 = time.process_time()
        measure(replay)
        t2 = time.process_time()
        play_ms.append((t1 - t0) * 1e3)
        measure_us.append((t2 - t1) * 1e6)
    p, m = median(play_ms), median(measure_us)
    print(f"{args.games} games, {args.players} players, options {options or 'default'}")
    print(f"play    median {p:8.1f} ms CPU per match")
    print(f"measure median {m:8.0f} us CPU per match (max {max(measure_us):.0f} us), {m / 1e3 / p:.1%} of play")


if __name__ == "__main__":
    main()
