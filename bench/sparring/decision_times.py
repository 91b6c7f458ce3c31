"""Per-decision wall and CPU time of the boss's searched attacks (boss-dg session, issue #47): plays
whole games in process, the boss at seat 0 beside strong, greedy and trader, at its default budget.

    python bench/sparring/decision_times.py --games 4 --seed 300
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots import load_builtin
from bots.drachengold.boss import BossBot
from ladder.play import play_game


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=300)
    ap.add_argument("--players", type=int, default=4)
    a = ap.parse_args()
    wall, cpu, samples = [], [], []
    for g in range(a.games):
        bot = BossBot()
        attack = bot.attack

        def timed(obs, attack=attack):
            w, c = time.perf_counter(), time.process_time()
            out = attack(obs)
            wall.append(time.perf_counter() - w)
            cpu.append(time.process_time() - c)
            return out

        bot.attack = timed
        others = [load_builtin("drachengold", n)() for n in ("strong", "greedy", "trader", "bargainer", "random")]
        played = play_game("drachengold", [bot, *others[: a.players - 1]], seed=a.seed + g, options={})
        assert not played.faults, played.faults[:2]
        samples += bot.sampled

    def stats(xs: list[float]) -> str:
        xs = sorted(xs)
        p99 = xs[min(len(xs) - 1, int(0.99 * len(xs)))]
        return f"median {xs[len(xs) // 2] * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {xs[-1] * 1000:.0f} ms"

    print(f"{len(wall)} attacks; wall {stats(wall)}; cpu {stats(cpu)}; "
          f"samples median {sorted(samples)[len(samples) // 2]}, least {min(samples)}")


if __name__ == "__main__":
    main()
