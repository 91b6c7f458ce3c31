"""`ladder bench ratings`: how sure the ratings are, measured on seeded in-process ladders.

A ladder here is the game's house bots, each its own bot from the first match, plus two that make
the history the ladder's own kind: a bot arriving late (the game's fallback bot's code, as a new
upload would) and a bot whose second version arrives later still (the first house bot's code, then
the boss's). Tables are made by ladder.ranking.matchmaking (placement games, waiting times, windows) and
played by ladder/play.py (no sandbox: the bench measures ratings, not isolation); ratings are
ladder.ranking.ratings' RatingBook, exactly as services/ratings.py applies them.

Each seat's rating before a match is checked against its version's true level: a Bradley-Terry
fit (the Elo's own logistic) over every pair result of the whole history, per version, put on the
Elo's scale by the mean over the history's second half. Three deviations are measured on the
same points, each as rating +- 2 deviations:

- propagation: ladder.ranking.ratings.next_deviations (what the ladder stores);
- glicko: a Glicko-1 deviation kept beside the Elo, each match counted as its pair results
  weighted 1/(n - 1) as the Elo weighs them, `c` added per match;
- bootstrap: the spread of the bot's performance rating over its last BOOT_MATCHES matches,
  resampled BOOT_SAMPLES times (every `--bootstrap-every`-th point: it is slow).

Then the accuracy report (ladder/ranking/report.py) of each ladder's history, as the site computes it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from ladder.games import get_game
from ladder.play import make_bots, play_game
from ladder.ranking.matchmaking import Candidate, TableSize, make_table
from ladder.ranking.ratings import INITIAL_DEVIATION, MILLI, RankedSeat, RatingBook, ranks_with_forfeits
from ladder.ranking.report import Entry, Report, report
from ladder.services.bots import DEFAULT_PLACEMENT_GAMES

LATE_AT = 0.3  # of the matches: when the late bot arrives
UPGRADE_AT = 0.6  # when the upgraded bot's second version arrives
BOOT_MATCHES = 30
BOOT_SAMPLES = 50
GLICKO_C = 10.0  # Elo points of drift added per match (Glicko's c)
GAME_BUCKETS = (10, 20, 50, 100)  # games of the version before the match: 0-9, 10-19, 20-49, 50-99, 100+
METHODS = ("propagation", "glicko", "bootstrap")
_Q = math.log(10) / 400


@dataclass(slots=True)
class Bot:
    name: str
    versions: list[tuple[float, str]]  # (from this share of the matches, house code)
    arrives: float = 0.0

    def code(self, share: float) -> tuple[int, str]:
        number, code = 0, self.versions[0][1]
        for i, (at, name) in enumerate(self.versions):
            if share >= at:
                number, code = i + 1, name
        return number, code


def roster(game: str) -> list[Bot]:
    g = get_game(game)
    bots = [Bot(name, [(0.0, name)]) for name in g.starter_bots]
    first, *_ = g.starter_bots  # the first house bot (random in every game): the weakest code
    bots.append(Bot("late", [(0.0, g.fallback_bot)], arrives=LATE_AT))
    bots.append(Bot("upgraded", [(0.0, first), (UPGRADE_AT, g.boss or g.fallback_bot)]))
    return bots


@dataclass(frozen=True, slots=True)
class Point:
    """One seat's rating before one match, with each method's deviation (points; None: not taken)."""

    match: int
    key: tuple[str, int]  # (bot, version)
    games: int  # of this version, before the match
    rating: float  # Elo points
    deviations: dict[str, float | None]


@dataclass(slots=True)
class Glicko:
    rd: dict[str, float] = field(default_factory=dict)
    version: dict[str, int] = field(default_factory=dict)

    def before(self, bot: str, version: int) -> float:
        rd = self.rd.get(bot, INITIAL_DEVIATION / MILLI)
        if self.version.get(bot, version) != version:  # a new version: widened as the ladder widens it
            rd = math.hypot(rd, 150.0)
        return min(math.hypot(rd, GLICKO_C), INITIAL_DEVIATION / MILLI)

    def update(self, seats: Sequence[tuple[str, int, float, int]]) -> None:
        """seats: (bot, version, rating before in points, rank)."""
        pre = {b: self.before(b, v) for b, v, _, _ in seats}
        n = len(seats)
        for b, v, r, _ in seats:
            info = 0.0
            for b2, _, r2, _ in seats:
                if b2 == b:
                    continue
                g = 1 / math.sqrt(1 + 3 * _Q * _Q * pre[b2] ** 2 / math.pi ** 2)
                e = 1 / (1 + 10 ** (-g * (r - r2) / 400))
                info += _Q * _Q * g * g * e * (1 - e) / (n - 1)
            self.rd[b] = math.sqrt(1 / (1 / pre[b] ** 2 + info))
            self.version[b] = v


def performance(results: Sequence[tuple[float, float]]) -> float:
    """The rating (points) whose expected score against these opponents' ratings equals the
    scores got (pair results), by Newton's method; bounded 800 points beyond the opponents."""
    lo = min(r for r, _ in results) - 800
    hi = max(r for r, _ in results) + 800
    score = sum(s for _, s in results)
    if score <= 0:
        return lo
    if score >= len(results):
        return hi
    x = sum(r for r, _ in results) / len(results)
    for _ in range(30):
        es = [1 / (1 + 10 ** ((r - x) / 400)) for r, _ in results]
        f = sum(es) - score
        d = sum(e * (1 - e) for e in es) * _Q
        step = f / d
        x = min(max(x - step, lo), hi)
        if abs(step) < 0.01:
            break
    return x


def bootstrap_deviation(matches: Sequence[list[tuple[float, float]]], rng: random.Random) -> float | None:
    if len(matches) < 5:
        return None
    estimates = []
    for _ in range(BOOT_SAMPLES):
        sample = [pair for _ in matches for pair in matches[rng.randrange(len(matches))]]
        estimates.append(performance(sample))
    mean = sum(estimates) / len(estimates)
    return math.sqrt(sum((x - mean) ** 2 for x in estimates) / (len(estimates) - 1))


@dataclass(slots=True)
class Ladder:
    game: str
    points: list[Point]
    history: list[list[Entry]]
    pairs: list[tuple[tuple[str, int], tuple[str, int], float]]  # (a, b, a's score)
    new_versions: list[tuple[str, int]]
    seconds: float


def play_ladder(*, game: str, matches: int, seed: int, bootstrap_every: int,
                progress: Callable[[str], None] = lambda _: None, every: int = 200) -> Ladder:
    started = time.monotonic()
    rng = random.Random(seed)
    boot_rng = random.Random(seed + 1)
    bots = roster(game)
    sizes = TableSize.of(get_game(game))
    book = RatingBook()
    glicko = Glicko()
    owed: dict[tuple[str, int], int] = {}
    last_played: dict[str, float] = {}
    version_games: dict[tuple[str, int], int] = {}
    recent: dict[str, list[list[tuple[float, float]]]] = {}
    out = Ladder(game, [], [], [], [], 0.0)
    seen_at: dict[tuple[str, int], int] = {}
    for m in range(matches):
        share = m / matches
        candidates = []
        for i, bot in enumerate(bots):
            if share < bot.arrives:
                continue
            number, _ = bot.code(share)
            key = (bot.name, number)
            if key not in owed:
                owed[key] = DEFAULT_PLACEMENT_GAMES if (bot.arrives or number > 1) else 0
            candidates.append(Candidate(bot.name, f"owner{i}", game, book.rating(bot.name), book.games.get(bot.name, 0),
                                        owed[key], last_played.get(bot.name), deviation=book.deviation_before(
                                            bot.name, number)))
        table = make_table(candidates, sizes, rng, now=float(m))
        seated = [c.bot for c in table.seats]
        by_name = {b.name: b for b in bots}
        codes = [by_name[name].code(share) for name in seated]
        played = play_game(game, make_bots(game, [code for _, code in codes]), seed=rng.randrange(2**31),
                           names=seated)
        results = {r.seat: r for r in played.replay.results}
        forfeits = {s.seat: bool(s.forfeit) for s in played.replay.seats}
        seats = [RankedSeat(name, results[i].rank, forfeits.get(i, False), number)
                 for i, (name, (number, _)) in enumerate(zip(seated, codes, strict=True))]
        rated = book.apply(m, seats)
        ratings_before = {c.player: c.before / MILLI for c in rated.changes}
        entries = []
        for seat, change in zip(seats, rated.changes, strict=True):
            key = (seat.player, seat.version)
            if key not in seen_at:
                seen_at[key] = m
                if m > 0:
                    out.new_versions.append(key)
            games = version_games.get(key, 0)
            boot = None
            if bootstrap_every and games % bootstrap_every == 0:
                boot = bootstrap_deviation(recent.get(seat.player, [])[-BOOT_MATCHES:], boot_rng)
            out.points.append(Point(m, key, games, change.before / MILLI, {
                "propagation": change.deviation_before / MILLI,
                "glicko": glicko.before(seat.player, seat.version),
                "bootstrap": boot,
            }))
            entries.append(Entry(seat.player, seat.version, 0, change.before, change.deviation_before, change.after))
        ranked = _ranks(seats)
        entries = [Entry(e.player, e.version, r, e.before, e.deviation_before, e.after)
                   for e, r in zip(entries, ranked, strict=True)]
        glicko.update([(s.player, s.version, ratings_before[s.player], r) for s, r in zip(seats, ranked, strict=True)])
        for i, a in enumerate(seats):
            mine = []
            for j, b in enumerate(seats):
                if i != j:
                    score = 1.0 if ranked[i] < ranked[j] else 0.5 if ranked[i] == ranked[j] else 0.0
                    mine.append((ratings_before[b.player], score))
                    if i < j:
                        out.pairs.append(((a.player, a.version), (b.player, b.version), score))
            recent.setdefault(a.player, []).append(mine)
            key = (a.player, a.version)
            version_games[key] = version_games.get(key, 0) + 1
            if owed.get(key, 0) > 0:
                owed[key] -= 1
            last_played[a.player] = float(m)
        out.history.append(entries)
        if every and (m + 1) % every == 0:
            progress(f"{game} seed {seed}: {m + 1}/{matches} matches, {time.monotonic() - started:.0f} s")
    out.seconds = time.monotonic() - started
    return out


def _ranks(seats: Sequence[RankedSeat]) -> list[int]:
    return ranks_with_forfeits([s.rank for s in seats], [s.forfeited for s in seats])


def bradley_terry(pairs: Sequence[tuple[Hashable, Hashable, float]], iterations: int = 500) -> dict[Hashable, float]:
    """Each player's level in Elo points (mean 0) from pair results (a, b, a's score), by the
    minorise-maximise iteration (Hunter 2004); one virtual draw with a level-0 anchor each keeps a
    player who never won finite."""
    players = sorted({p for a, b, _ in pairs for p in (a, b)}, key=repr)
    wins = {p: 0.5 for p in players}  # the anchor draw
    meet: dict[Hashable, dict[Hashable, int]] = {p: {} for p in players}
    for a, b, s in pairs:
        wins[a] += s
        wins[b] += 1 - s
        meet[a][b] = meet[a].get(b, 0) + 1
        meet[b][a] = meet[b].get(a, 0) + 1
    gamma = {p: 1.0 for p in players}
    for _ in range(iterations):
        fresh = {}
        for p in players:
            denom = 1 / (gamma[p] + 1.0) + sum(n / (gamma[p] + gamma[q]) for q, n in meet[p].items())
            fresh[p] = wins[p] / denom
        gamma = fresh
    levels = {p: 400 * math.log10(g) for p, g in gamma.items()}
    mean = sum(levels.values()) / len(levels)
    return {p: v - mean for p, v in levels.items()}


@dataclass(frozen=True, slots=True)
class Coverage:
    method: str
    points: int
    inside: int
    mean_half_width: float
    buckets: tuple[tuple[int, int], ...]  # (points, inside) per GAME_BUCKETS bucket

    @property
    def share(self) -> float:
        return self.inside / self.points if self.points else float("nan")


def coverage(ladders: Sequence[Ladder]) -> tuple[list[Coverage], float]:
    """Each method's share of ratings within +- 2 deviations of the true level; and the spread
    (standard deviation, points) of the versions' true levels, which INITIAL_DEVIATION stands for."""
    counts = {m: [0, 0, 0.0, [[0, 0] for _ in range(len(GAME_BUCKETS) + 1)]] for m in METHODS}
    spreads = []
    for lad in ladders:
        truth = bradley_terry(lad.pairs)
        half = [p for p in lad.points if p.match >= lad.points[-1].match // 2]
        offset = sum(p.rating - truth[p.key] for p in half) / len(half)
        spreads.extend(truth.values())
        for p in lad.points:
            error = abs(p.rating - (truth[p.key] + offset))
            bucket = next((i for i, hi in enumerate(GAME_BUCKETS) if p.games < hi), len(GAME_BUCKETS))
            for m in METHODS:
                dev = p.deviations[m]
                if dev is None:
                    continue
                c = counts[m]
                inside = error <= 2 * dev
                c[0] += 1
                c[1] += inside
                c[2] += 2 * dev
                c[3][bucket][0] += 1
                c[3][bucket][1] += inside
    mean = sum(spreads) / len(spreads)
    spread = math.sqrt(sum((v - mean) ** 2 for v in spreads) / len(spreads))
    return [Coverage(m, c[0], c[1], c[2] / c[0] if c[0] else float("nan"), tuple(tuple(b) for b in c[3]))
            for m, c in counts.items()], spread


def ladder_report(lad: Ladder, last: int) -> Report:
    return report(lad.history, last=last, new_versions=lad.new_versions)


def coverage_lines(found: Sequence[Coverage], spread: float) -> list[str]:
    names = [f"{lo}-{hi - 1}" for lo, hi in zip((0, *GAME_BUCKETS), GAME_BUCKETS, strict=False)] + \
        [f"{GAME_BUCKETS[-1]}+"]
    lines = ["share of ratings within +-2 deviations of the version's true level (nominal 95%), by games of "
             "the version before the match: " + ", ".join(names)]
    for c in found:
        parts = ", ".join("-" if n == 0 else f"{k / n:.0%} ({n})" for n, k in c.buckets)
        lines.append(f"  {c.method:12} {c.share:.1%} of {c.points}; mean +- {c.mean_half_width:.0f} points; "
                     f"by games: {parts}")
    lines.append(f"spread of the versions' true levels: {spread:.0f} points (INITIAL_DEVIATION stands for it)")
    return lines


def report_lines(rep: Report) -> list[str]:
    p, s, c = rep.prediction, rep.settling, rep.calibration
    lines = [f"prediction over the last {p.matches} matches ({p.pairs} pairs): log loss {p.log_loss:.4f} "
             f"(naive {p.naive_log_loss:.4f}), pairwise accuracy {p.accuracy:.1%} (naive {p.naive_accuracy:.0%})"
             if p.pairs else "prediction: no matches"]
    if s.versions:
        lines.append(f"settling: {s.settled} of {s.versions} new versions settled; games to settle "
                     f"{', '.join(map(str, s.games))} (median {s.median:.0f}, 90th percentile {s.p90:.0f})")
    else:
        lines.append(f"settling: no new version with enough games ({s.too_few} with too few)")
    parts = ", ".join(f"+-{b.low // MILLI}-{'' if b.high is None else b.high // MILLI}: "
                      + ("-" if not b.ratings else f"{b.coverage:.0%} of {b.ratings}") for b in c.buckets)
    lines.append(f"calibration against the versions' later levels: {c.coverage:.1%} of {c.ratings} inside "
                 f"(nominal {c.nominal:.0%}); {parts}" if c.ratings else "calibration: no version with enough games")
    return lines
