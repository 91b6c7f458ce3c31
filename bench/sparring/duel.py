"""In-process duel harness for issue #47 (boss-dg session): HOUSE against OUTSIDER at a table of
4 with two fillers, in every ordered pair of seats for the two (12 games a deal) on the same deal
seed; prints the share of games HOUSE finished above OUTSIDER (ties count half) and mean ranks.

    python bench/sparring/duel.py bots/drachengold/boss.py bench/sparring/mc_outsider.py --deals 3 --seed 100 \\
        --set bots.drachengold.boss.WALL_BUDGET=0.12

Bots: builtin:<name> or path/to/file.py[:Class] (the class `run(...)` names by default).
`--set module.NAME=value` changes a module's constant once the bots are loaded (a file bot's
module is duel_<its path, non-word characters as _>). Seeds 5000-9999 are reserved: use lower.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import itertools
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots import load_builtin
from ladder.play import play_game


def factory(spec: str):
    if spec.startswith("builtin:"):
        return load_builtin("drachengold", spec.removeprefix("builtin:"))
    path, _, cls = spec.partition(":")
    cls = cls or re.findall(r"run\((\w+)\)", Path(path).read_text())[-1]
    name = "duel_" + re.sub(r"\W", "_", path)
    if name not in sys.modules:
        found = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(found)
        sys.modules[name] = module
        found.loader.exec_module(module)
    return getattr(sys.modules[name], cls)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("house")
    ap.add_argument("outsider")
    ap.add_argument("--fillers", default="builtin:greedy,builtin:trader")
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args()
    options = dict(o.split("=", 1) for o in a.option)
    house, outsider = factory(a.house), factory(a.outsider)
    fillers = [factory(f) for f in a.fillers.split(",")]
    for s in a.set:
        key, value = s.split("=", 1)
        module, attr = key.rsplit(".", 1)
        setattr(importlib.import_module(module), attr, ast.literal_eval(value))
    above = games = 0.0
    per_deal, ranks_h, ranks_o, start = [], [], [], time.time()
    pairs = list(itertools.permutations(range(a.players), 2))
    for d in range(a.deals):
        seed, deal = a.seed + d, 0.0
        for hs, os_ in pairs:
            seats = [None] * a.players
            seats[hs], seats[os_] = house(), outsider()
            for j, i in enumerate(i for i in range(a.players) if seats[i] is None):
                seats[i] = fillers[j % len(fillers)]()
            played = play_game("drachengold", seats, seed=seed, options=options)
            assert not played.faults, played.faults[:2]
            rh, ro = played.results[hs].rank, played.results[os_].rank
            ranks_h.append(rh)
            ranks_o.append(ro)
            deal += 1.0 if rh < ro else 0.5 if rh == ro else 0.0
        per_deal.append(deal / len(pairs))
        above += deal
        games += len(pairs)
        print(f"deal {seed}: {deal}/{len(pairs)}  running {above / games:.3f}  ({time.time() - start:.0f}s)",
              flush=True)
    print(json.dumps({"house": a.house, "outsider": a.outsider, "set": a.set, "options": options,
                      "share": round(above / games, 3), "games": games, "per_deal": per_deal,
                      "rank_house": round(sum(ranks_h) / len(ranks_h), 3),
                      "rank_out": round(sum(ranks_o) / len(ranks_o), 3), "seconds": round(time.time() - start)}))


if __name__ == "__main__":
    main()
