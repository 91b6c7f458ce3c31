"""Leagues (issue #46), pure: a game's ladder of leagues, each with a boss to beat, and the rule
that promotes a bot past it. The database side is ladder/services/leagues.py; docs/ratings.md
("Leagues") states the rules for authors.

- A game declares its leagues' house bots (`Game.leagues`), weakest league first, each league's
  boss first; the last league is open (no boss). The operator names them (LADDER_LEAGUE_NAMES).
- Every table of a league with a boss seats its boss, so a bot's progress is read from meetings
  with the boss alone, at tables of the bot's own league.
- PROMOTION: over the bot's last WINDOW meetings with its league's boss (at least MIN_MEETINGS),
  the lower end of the Wilson interval (one-sided, 90%) of its share of finishes above the boss
  (a tie counts half) is above one half. Why Wilson and not a fixed count: a bot that is as good
  as the boss is promoted by luck in under one case in ten at any window length, and a clearly
  better bot (above the boss in 8 of 10) needs no more than the minimum; the window forgets the
  meetings of an older version, so a bot that got better climbs on its new play.
- No relegation: a bot that got past a boss keeps its league (CodinGame's rule). Pushing a bot
  down when a new version is worse would let a weak re-upload farm the league below; a weak
  version sinks in its league's standings instead.
- A new version keeps its bot's league; a new bot starts in the first league.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WINDOW = 20  # meetings with the boss the rule looks at (the newest ones)
MIN_MEETINGS = 10  # before any promotion
Z = 1.2816  # one-sided 90%: the normal quantile of the Wilson bound

ABOVE, BELOW, TIE = "A", "B", "T"  # a meeting with the boss, as the bot finished against it
DEFAULT_NAMES = ("Wood", "Bronze", "Silver", "Gold", "Legend")
MOST_LEAGUES = len(DEFAULT_NAMES)  # no game declares more (tests/leagues holds it): names enough for any


@dataclass(frozen=True, slots=True)
class League:
    """One league of a game: its place (0 = the first), its name, its boss (a house bot's builtin
    name, "" for the open top league) and the other house bots that play in it."""

    index: int
    name: str
    boss: str
    house: tuple[str, ...]  # every house bot of the league, boss first

    @property
    def open(self) -> bool:
        return not self.boss


def league_ladder(declared: Sequence[Sequence[str]], names: Sequence[str]) -> tuple[League, ...]:
    """A game's leagues from its declaration (each league's house bots, boss first; the last one
    empty: the open league) and the operator's names (the first len(declared) of them)."""
    if not declared:
        return ()
    if len(names) < len(declared):
        raise ValueError(f"{len(declared)} leagues need {len(declared)} names, got {len(names)}")
    if declared[-1]:
        raise ValueError("the last league is the open one: it has no boss")
    if any(not bots for bots in declared[:-1]):
        raise ValueError("every league but the last has a boss")
    seen = [bot for bots in declared for bot in bots]
    if len(seen) != len(set(seen)):
        raise ValueError("a house bot is declared in two leagues")
    return tuple(League(i, names[i], bots[0] if bots else "", tuple(bots)) for i, bots in enumerate(declared))


def meeting(rank: int, boss_rank: int) -> str:
    """How a bot finished against the boss at one table (rank 1 is best)."""
    return ABOVE if rank < boss_rank else BELOW if rank > boss_rank else TIE


def recorded(record: str, outcome: str) -> str:
    """The record (oldest first, the newest WINDOW meetings) after one more meeting."""
    return (record + outcome)[-WINDOW:]


def above_share(record: str) -> float:
    """Share of the record's meetings finished above the boss, a tie counting half."""
    return (record.count(ABOVE) + record.count(TIE) / 2) / len(record) if record else 0.0


def wilson_lower(share: float, n: int, z: float = Z) -> float:
    """The lower end of the Wilson score interval of a proportion observed as `share` of `n`."""
    if n == 0:
        return 0.0
    centre = share + z * z / (2 * n)
    spread = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n)


def promoted(record: str) -> bool:
    """The promotion rule (the module's docstring says why)."""
    return len(record) >= MIN_MEETINGS and wilson_lower(above_share(record), len(record)) > 0.5


def meetings_needed(record: str) -> int:
    """The fewest further meetings, all finished above the boss, that would promote: what the bot
    page shows as the distance to the next league (0 when the record already promotes)."""
    extra = 0
    while not promoted(record):
        record = recorded(record, ABOVE)
        extra += 1
    return extra
