"""Share of games a house bot finished strictly above each other entrant of a `ladder tournament`,
with a 95% percentile bootstrap over deals (every match of a resampled deal comes along).

    python bots/heldout/measure/share_above.py OUT/tournament.json HOUSE [--resamples 2000] [--seed 1]

HOUSE is the entrant's name as the tournament lists it (`strong`, `search`). Games where either
seat forfeited count as the rules rank them (a forfeit is last). Prints one line per other entrant:
games, house above, level, below, share above and its interval.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tournament")
    parser.add_argument("house")
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with open(args.tournament) as f:
        data = json.load(f)
    # (other entrant, deal) -> [above, games]; rounds and tables keep deals apart
    per_deal: dict[str, dict[tuple, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for m in data["matches"]:
        seats = m["seats"]
        if args.house not in seats or not m.get("results"):
            continue
        house_rank = m["results"][seats.index(args.house)]["rank"]
        for seat, name in enumerate(seats):
            if name == args.house:
                continue
            rank = m["results"][seat]["rank"]
            cell = per_deal[name][(m["round"], m["table"], m["deal"])]
            cell[0] += house_rank < rank
            cell[1] += house_rank == rank
            cell[2] += 1
    rng = random.Random(args.seed)
    for name in sorted(per_deal):
        deals = list(per_deal[name].values())
        above = sum(d[0] for d in deals)
        level = sum(d[1] for d in deals)
        games = sum(d[2] for d in deals)
        shares = []
        for _ in range(args.resamples):
            pick = [deals[rng.randrange(len(deals))] for _ in deals]
            shares.append(sum(d[0] for d in pick) / sum(d[2] for d in pick))
        shares.sort()
        lo, hi = shares[int(0.025 * len(shares))], shares[int(0.975 * len(shares)) - 1]
        print(f"{args.house} above {name}: {above}/{games} games (level {level}, below {games - above - level}), "
              f"share {above / games:.3f} [{lo:.3f}, {hi:.3f}] over {len(deals)} deals")


if __name__ == "__main__":
    main()
