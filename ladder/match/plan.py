"""One match as a value: what is played, by whom, under which terms, made once and read by all.

A `MatchPlan` is built in one place per source (ladder/services/match_plan.py from the database,
`local_plan` for `ladder match` and the local tournament) and handed to the runner
(workers/match/runner.py `run(plan, env)`), which never looks anything of the match up again: the
`Game` object is the one the plan holds, the options are resolved once here, the seats are typed.
A seat is one `SeatPlan` variant per kind; a new kind of seat is one variant here and one seat
class in workers/match/seats/ (the runner dispatches on the variant's type).

Pure values: nothing here imports bots/ or workers/ (tests/test_architecture.py holds it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ladder.bot.data import Snapshot
from ladder.games import get_game
from ladder.games.base import Game

STRIKES = 3  # refused answers before the fallback takes the seat (docs/protocol.md)
HOUSE_PREFIX = "builtin:"  # `ladder match builtin:NAME`: a house bot run from its own file


@dataclass(frozen=True)
class TimeControl:
    """Time allowances in milliseconds; sent to the bot in hello as `time`."""

    decision_ms: int = 1000
    bank_ms: int = 10000
    startup_ms: int = 5000

    def as_json(self) -> dict[str, int]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class UploadedCode:
    """A stored version's code, staged into the sandbox: `filename` is the name it is staged under
    (a fixed one, never the uploader's), `runtime` the version's (ladder/bot/runtimes.py; None: found
    from the package), `data` the bot data folder it starts from (None: no folder)."""

    name: str
    code: bytes
    filename: str = "main.py"
    runtime: str | None = None
    version_id: int | None = None
    data: Snapshot | None = None


@dataclass(frozen=True, slots=True)
class LocalCode:
    """A bot on this machine's disk (`ladder match PATH`): a .py file, a .zip or a bot folder."""

    name: str
    path: Path
    version_id: int | None = None
    data: Snapshot | None = None


@dataclass(frozen=True, slots=True)
class HouseBot:
    """One of the game's house bots, run as a process from its own file, as an author's copy runs."""

    name: str
    bot: str
    version_id: int | None = None
    data: Snapshot | None = None


@dataclass(frozen=True, slots=True)
class RemoteProgram:
    """A program on its owner's machine, played over the relay (workers/match/seats/outside.py)."""

    name: str
    version_id: int | None = None
    data: Snapshot | None = None  # never staged: the program keeps its own files


@dataclass(frozen=True, slots=True)
class Person:
    """A person at the table in the browser ("Play it yourself"), `clock_s` seconds a decision."""

    name: str
    clock_s: float = 120.0
    version_id: int | None = None
    data: Snapshot | None = None  # never staged: a person has no folder


SeatPlan = UploadedCode | LocalCode | HouseBot | RemoteProgram | Person
SANDBOXED = (UploadedCode, LocalCode, HouseBot)  # the kinds that run as a sandboxed process
OUTSIDE = (RemoteProgram, Person)  # the kinds played from outside, over the relay: they see the deal live


@dataclass(frozen=True)
class MatchPlan:
    """Everything one match is: made by `plan()`, which checks the table and resolves the options."""

    game: Game
    seats: tuple[SeatPlan, ...]
    seed: int
    options: Mapping[str, Any]  # resolved: every option with its value
    sandbox: str = "strict"
    ranked: bool = False
    clock: TimeControl = TimeControl()
    strikes: int = STRIKES
    match_id: int | None = None
    seed_key: bytes | None = None  # the bots' seeds' key, to repeat a match (None: a fresh one)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def played_from_outside(self) -> bool:
        """Some seat is played over the relay (OUTSIDE): the match needs one, and its deal was seen."""
        return any(isinstance(seat, OUTSIDE) for seat in self.seats)


def plan(game: Game | str, seats: Sequence[SeatPlan], *, seed: int, options: Mapping[str, Any] | None = None,
         sandbox: str = "strict", ranked: bool = False, clock: TimeControl | None = None, strikes: int = STRIKES,
         match_id: int | None = None, seed_key: bytes | None = None) -> MatchPlan:
    """The one way a MatchPlan is made: raises OptionError (an unknown game, a bad option, a table
    of the wrong size) before anything is staged."""
    game = get_game(game) if isinstance(game, str) else game
    game.check_players(len(seats))
    resolved = MappingProxyType(game.resolve_options(options))
    return MatchPlan(game, tuple(seats), seed, resolved, sandbox, ranked, clock or TimeControl(), strikes, match_id,
                     seed_key)


def local_seat(spec: str, name: str | None = None) -> HouseBot | LocalCode:
    """`builtin:NAME` or a path, as `ladder match` is given its bots; the seat is named `name`,
    else the spec itself."""
    if spec.startswith(HOUSE_PREFIX):
        return HouseBot(name or spec, spec.removeprefix(HOUSE_PREFIX))
    return LocalCode(name or spec, Path(spec))


def local_plan(game: Game | str, specs: Sequence[str], *, names: Sequence[str] | None = None,
               data: Sequence[Snapshot | None] | None = None, **terms: Any) -> MatchPlan:
    """A plan from `ladder match`'s bot arguments (see `local_seat`); `data[i]` seat i's bot data."""
    names = list(names) if names is not None else list(specs)
    seats = [local_seat(spec, name) for spec, name in zip(specs, names, strict=True)]
    if data is not None:
        seats = [_with_data(seat, snapshot) for seat, snapshot in zip(seats, data, strict=True)]
    return plan(game, seats, **terms)


def _with_data(seat: HouseBot | LocalCode, snapshot: Snapshot | None) -> HouseBot | LocalCode:
    return replace(seat, data=snapshot)
