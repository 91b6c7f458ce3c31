"""How Drachengold games end: a census over the sweep's seeded games (tests/games/drachengold/sweep.py).

Counts, per player count, the games by end reason and how many ended with tokens still in the
bag (before the printed end: the bag empty, or the pile used up). docs/rules.md quotes it (run
from the repository root):

    PYTHONPATH=tests .venv/bin/python -m games.drachengold.ends --games 200
"""

from __future__ import annotations

import argparse
from collections import Counter

from games.drachengold.sweep import PLAYERS, RULES, SPLITS, play_checked


def census(games: int, players: int) -> tuple[Counter[str], int, int]:
    """(end reasons, games ending with tokens in the bag, tokens left in those) over every rules and
    split option, `games` seeds each (the sweep's seeds)."""
    reasons: Counter[str] = Counter()
    early = left = 0
    for rules in RULES:
        for split in SPLITS:
            for i in range(games):
                state = play_checked(rules, split, players, i * 7919 + players, check_hidden=False)
                reasons[state.end_reason] += 1
                if state.bag and state.end_reason != "pile_empty":
                    early += 1
                    left += len(state.bag)
    return reasons, early, left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="seeds per rules x split combination")
    parser.add_argument("--players", type=int, nargs="*", default=list(PLAYERS))
    args = parser.parse_args()
    for players in args.players:
        reasons, early, left = census(args.games, players)
        total = sum(reasons.values())
        shown = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
        mean = f", {left / early:.0f} tokens left on average" if early else ""
        print(f"{players} players, {total} games: {shown}; ended before the bag was empty (not by the pile): "
              f"{early} ({100 * early / total:.2f}%){mean}", flush=True)


if __name__ == "__main__":
    main()
