"""`ladder tournament`'s round robin (the same schedule: duplicate seating, the same deal seeds),
played in process: each bot a fresh SDK object per match, no bot processes. For a loaded machine
where starting four processes a match costs more than the match; for bots without a clock-bound
search the ranks are those of `--sandbox none` (the match seeds the bots alike). Writes a
tournament.json with the fields measure/share_above.py reads.

    python bots/heldout/measure/inprocess.py --game G --deals N --seed S --out FILE BOT BOT ...

BOT is a path to a bot file or builtin:NAME.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path

from bots import load_builtin
from bots.sdk import Bot
from ladder.play import play_game
from ladder.tournaments.model import Entrant, TournamentSpec, round_robin


def loader(game: str, spec: str):
    if spec.startswith("builtin:"):
        return spec.split(":", 1)[1], load_builtin(game, spec.split(":", 1)[1])
    path = Path(spec)
    module_spec = importlib.util.spec_from_file_location(f"entrant_{path.stem}", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    (cls,) = [v for v in vars(module).values()
              if isinstance(v, type) and issubclass(v, Bot) and v.__module__ == module.__name__]
    return path.stem, cls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="+")
    parser.add_argument("--game", required=True)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    classes = dict(loader(args.game, b) for b in args.bots)
    entrants = tuple(Entrant(name, name) for name in classes)
    spec = TournamentSpec(args.game, entrants, args.players or len(entrants), args.deals, seed=args.seed)
    matches = []
    for m in round_robin(spec):
        played = play_game(args.game, [classes[k]() for k in m.seats], seed=m.seed, names=list(m.seats))
        faults = list(played.faults)
        matches.append({"index": m.index, "round": m.round, "table": m.table, "deal": m.deal, "seed": m.seed,
                        "order": m.order, "seats": list(m.seats), "faults": faults,
                        "results": [{"rank": r.rank, "score": r.score,
                                     "forfeited": played.replay.seats[r.seat].forfeit}
                                    for r in played.replay.results]})
    Path(args.out).write_text(json.dumps({"game": args.game, "seed": args.seed, "deals": args.deals,
                                          "sandbox": "in-process", "matches": matches}))
    print(f"{len(matches)} matches, {sum(len(m['faults']) for m in matches)} faults -> {args.out}")


if __name__ == "__main__":
    main()
