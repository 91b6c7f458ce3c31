"""Leagues (issue #46), pure: a game's ladder of leagues, each with a boss to beat, and the rule
that promotes a bot past it. The database side is ladder/services/leagues.py; docs/ratings.md
("Leagues") states the rules for authors.

- A game declares its leagues' house bots (`Game.leagues`), weakest league first, each league's
  boss first; the last league is open (no boss). The operator names them (LADDER_LEAGUE_NAMES).
- Every table of a league with a boss seats its boss, so a bot's progress is read from meetings
  with the boss alone, at tables of the bot's own league.
- PROMOTION: a sequential test (Wald's SPRT) of the bot's meetings with its league's boss, at
  tables of the bot's league: H0 "it finishes above the boss half the time" against H1 "70% of
  the time". Each meeting adds its log-likelihood ratio to the bot's evidence (a tie half of
  each); the bot is promoted when the evidence reaches log((1 - BETA) / ALPHA), and the evidence
  starts again from zero when it falls to log(BETA / (1 - ALPHA)) (the test accepted H0: the bot
  is not yet better; it keeps trying). Why a sequential test and not "above the boss in k of the
  last n": the ladder looks after every meeting, and a sliding window looked at after every
  meeting promotes a bot exactly as good as the boss by luck (simulated: a 90% Wilson bound over
  the last 20 meetings promoted 56% of such bots within 50 meetings). This rule, simulated over
  4,000 careers each (`tests/ranking/test_leagues.py` keeps the figures): a bot above the boss in 40% of meetings
  is promoted within 100 meetings 1.7% of the time, at 50% 14%, at 60% 62%, at 70% 98% (median
  29 meetings), at 80% always (median 17).
- No relegation: a bot that got past a boss keeps its league (CodinGame's rule). Pushing a bot
  down when a new version is worse would let a weak re-upload farm the league below; a weak
  version sinks in its league's standings instead.
- A new version keeps its bot's league; a new bot starts in the first league.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WINDOW = 20  # meetings with the boss the pages show (the newest)
P0, P1 = 0.5, 0.7  # the test's two hypotheses: the share of meetings finished above the boss
ALPHA, BETA = 0.05, 0.10  # its error rates per attempt: promoting a bot at P0, not promoting one at P1
PROMOTE = math.log((1 - BETA) / ALPHA)  # evidence that promotes
RESTART = math.log(BETA / (1 - ALPHA))  # evidence at which the test starts again from zero
_WIN, _LOSS = math.log(P1 / P0), math.log((1 - P1) / (1 - P0))

ABOVE, BELOW, TIE = "A", "B", "T"  # a meeting with the boss, as the bot finished against it
DEFAULT_NAMES = ("Wood", "Bronze", "Silver", "Gold", "Legend")
MOST_LEAGUES = len(DEFAULT_NAMES)  # no game declares more (tests/ranking/test_leagues.py holds it)


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


def league_names(value: str) -> tuple[str, ...]:
    """The operator's league names (LADDER_LEAGUE_NAMES: comma-separated, weakest first), checked:
    distinct, 1 to 24 characters each, enough for the game with most leagues."""
    names = tuple(n.strip() for n in value.split(","))
    if any(not n or len(n) > 24 for n in names) or len(set(names)) != len(names):
        raise ValueError(f"{value!r}: league names are comma-separated, distinct, 1 to 24 characters each")
    if len(names) < MOST_LEAGUES:
        raise ValueError(f"{value!r}: the games need {MOST_LEAGUES} league names, weakest first")
    return names


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
    """The record the pages show (oldest first, the newest WINDOW meetings) after one more meeting."""
    return (record + outcome)[-WINDOW:]


def weighed(evidence: float, outcome: str) -> float:
    """The test's evidence after one more meeting; 0.0 again when it fell to the restart bound."""
    step = _WIN if outcome == ABOVE else _LOSS if outcome == BELOW else (_WIN + _LOSS) / 2
    evidence += step
    return 0.0 if evidence <= RESTART else evidence


def promoted(evidence: float) -> bool:
    """The promotion rule (the module's docstring says why)."""
    return evidence >= PROMOTE


def meetings_needed(evidence: float) -> int:
    """The fewest further meetings, all finished above the boss, that would promote: what the bot
    page shows as the distance to the next league (0 when the evidence already promotes)."""
    return max(0, math.ceil((PROMOTE - evidence) / _WIN - 1e-9))
