"""The replay as a typed value: frozen dataclasses with `to_json`/`from_json` for the stored format.

The play loop builds one `Replay` (ladder/play.py); the match runner completes it once with what
the sandbox saw (`Replay.completed`, workers/match/runner.py); after that nobody changes it. The job
splits the seats' logs off with `Replay.split_logs` (a bot's stderr is its owner's, a replay is
public), services and pages read fields. The JSON form is the format documented in
ladder/replay/__init__.py, key for key: `Replay.from_json(r).to_json() == r` for every replay this
ladder wrote (tests/replay/test_model.py holds it for every golden and for sandboxed matches).

Payloads that are the game's own JSON (options, a decision, an event's data, a breakdown, the
runner's strikes and timings) are kept as the JSON values they are, shared and never copied (a
log holds hundreds to thousands of them): the types hold them read-only by convention only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

JSON = Any
SCHEMA_VERSION = 1

_TOP_LEVEL = {
    "schema_version": int,
    "engine_version": str,
    "game": str,
    "options": dict,
    "seed": int,
    "players": int,
    "sandbox": (str, type(None)),
    "seats": list,
    "log": list,
    "results": list,
}
RESULT_KEYS = ("seat", "bot", "score", "rank", "breakdown")


class ReplayError(ValueError):
    """A file that is not a replay this ladder can read; the message says why."""


class _Absent:
    """A key that is not there (for `attempted`, where null is a value a bot can send)."""

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self) -> str:
        return "ABSENT"  # unpickled as this module's one ABSENT, so `is ABSENT` holds in another process


ABSENT: Any = _Absent()


@dataclass(frozen=True, slots=True)
class Fault:
    """Why a seat's own answer was replaced by the state's default decision."""

    status: str
    reason: str
    attempted: JSON = ABSENT  # the refused decision, when the bot sent one

    def to_json(self) -> dict[str, JSON]:
        out = {"status": self.status, "reason": self.reason}
        if self.attempted is not ABSENT:
            out["attempted"] = self.attempted
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Fault:
        return cls(data["status"], data["reason"], data.get("attempted", ABSENT))


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision the state applied: the bot's, or the default when `fault` says why not."""

    seat: int
    kind: str
    decision: JSON
    fault: Fault | None = None

    def to_json(self) -> dict[str, JSON]:
        out = {"seat": self.seat, "kind": self.kind, "decision": self.decision}
        if self.fault is not None:
            out["fault"] = self.fault.to_json()
        return out


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """An event as the log keeps it; `to` None: everyone saw it, else the seats that did."""

    type: str
    data: JSON
    to: tuple[int, ...] | None

    def to_json(self) -> dict[str, JSON]:
        return {"type": self.type, "data": self.data, "to": None if self.to is None else list(self.to)}


Entry = Decision | LoggedEvent


def entry_from_json(data: Mapping[str, JSON]) -> Entry:
    if "decision" in data:
        fault = data.get("fault")
        return Decision(data["seat"], data["kind"], data["decision"], None if fault is None else Fault.from_json(fault))
    to = data["to"]
    return LoggedEvent(data["type"], data["data"], None if to is None else tuple(to))


@dataclass(frozen=True, slots=True)
class SandboxRun:
    """What the match runner saw of one sandboxed seat (workers/match/seats/process.py, from its run record)."""

    sandbox: str  # the mode the bot ran in
    ready: JSON = None  # the bot's ready message, None when it never sent one
    strikes: tuple[JSON, ...] = ()  # {request, kind, code, reason} per refused answer
    takeover: JSON = None  # {code, reason, request} when the fallback bot took the seat
    timings: JSON = ()  # [wall ms, cpu ms] per answered request
    bank_left_ms: float | None = None
    stderr_bytes: int | None = None  # how much the bot wrote to stderr in all (the log keeps the tail)
    exit: JSON = None  # {code, signal}
    clean: bool | None = None
    # an outside seat's connection cuts, {request, reason} each (workers/match/seats/outside.py)
    disconnects: tuple[JSON, ...] = ()
    # The seat's clock, {decision_ms, bank_ms}, and its stderr's byte count when each request was
    # answered, one per entry of `timings`: what the owner's view needs to show each decision's time
    # against the clock and its own stderr (ladder/replay/decisions.py). Optional: a runner that does
    # not record them leaves them out, and older replays have neither.
    clock: JSON = None
    stderr_marks: tuple[int, ...] = ()

    KEYS = ("sandbox", "ready", "strikes", "takeover", "timings", "bank_left_ms", "stderr_bytes", "exit", "clean",
            "disconnects", "clock", "stderr_marks")
    OPTIONAL = ("disconnects", "clock", "stderr_marks")  # written only when set: older records stay as they were

    def to_json(self) -> dict[str, JSON]:
        out = {key: getattr(self, key) for key in self.KEYS}
        out["strikes"] = list(self.strikes)
        out["timings"] = list(self.timings)
        out["disconnects"] = list(self.disconnects)
        out["stderr_marks"] = list(self.stderr_marks)
        for key in self.OPTIONAL:
            if not out[key]:
                del out[key]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> SandboxRun:
        values = {key: data[key] for key in cls.KEYS if key in data}
        values["strikes"] = tuple(values.get("strikes") or ())
        values["timings"] = tuple(values.get("timings") or ())
        values["disconnects"] = tuple(values.get("disconnects") or ())
        values["stderr_marks"] = tuple(values.get("stderr_marks") or ())
        return cls(**values)


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat: its bot, how it behaved and, for a sandboxed match, what the runner saw.

    `status` is "ok" or the seat's first fault (or the one that forfeited it); `forfeit` ranks the
    seat last. `bot_seed` is recorded only where it was keyed (else it follows from the game seed).
    `stderr` is the bot's log, private to its owner: `Replay.split_logs` takes it out."""

    seat: int
    bot: str
    status: str = "ok"
    reason: str | None = None
    faults: int = 0
    forfeit: bool = False
    bot_seed: int | None = None
    run: SandboxRun | None = None
    stderr: str | None = None
    extra: Mapping[str, JSON] | None = None  # keys a newer writer added: kept, never read

    def with_fault(self, status: str, reason: str, forfeit: bool = False) -> SeatRecord:
        """This seat after one more fault: its status is its first fault, or the one that forfeited it."""
        first = self.faults == 0 or (forfeit and not self.forfeit)
        return replace(self, status=status if first else self.status, reason=reason if first else self.reason,
                       faults=self.faults + 1, forfeit=self.forfeit or forfeit)

    def to_json(self) -> dict[str, JSON]:
        out = {"seat": self.seat, "bot": self.bot, "status": self.status, "reason": self.reason,
               "faults": self.faults, "forfeit": self.forfeit}
        if self.bot_seed is not None:
            out["bot_seed"] = self.bot_seed
        if self.run is not None:
            out.update(self.run.to_json())
        if self.stderr is not None:
            out["stderr"] = self.stderr
        if self.extra:
            out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, JSON], index: int) -> SeatRecord:
        sandboxed = "sandbox" in data  # the runner writes every SandboxRun key or none
        known = {*_SEAT_KEYS, *SandboxRun.KEYS} if sandboxed else set(_SEAT_KEYS)
        extra = {k: v for k, v in data.items() if k not in known}
        return cls(
            seat=data.get("seat", index), bot=data["bot"], status=data.get("status") or "ok",
            reason=data.get("reason"), faults=data.get("faults", 0), forfeit=bool(data.get("forfeit")),
            bot_seed=data.get("bot_seed"), run=SandboxRun.from_json(data) if sandboxed else None,
            stderr=data.get("stderr"), extra=extra or None,
        )


_SEAT_KEYS = ("seat", "bot", "status", "reason", "faults", "forfeit", "bot_seed", "stderr")


@dataclass(frozen=True, slots=True)
class Result:
    """A seat's final standing: score and rank (1 best; forfeited seats after every other)."""

    seat: int
    bot: str
    score: JSON
    rank: int
    breakdown: JSON

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "bot": self.bot, "score": self.score, "rank": self.rank,
                "breakdown": self.breakdown}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Result:
        return cls(data["seat"], data["bot"], data["score"], data["rank"], data["breakdown"])


@dataclass(frozen=True, slots=True)
class Header:
    """What was played: the game, every option resolved, the seed, the seats, where it ran."""

    schema_version: int
    engine_version: str
    game: str
    options: Mapping[str, JSON]
    seed: int
    players: int
    sandbox: str | None = None  # None: in-process play, else the sandbox mode in force
    seed_key: str | None = None  # hex; only where the bots' seeds were keyed
    cgroup: str | None = None  # the cgroup hierarchy that held the bots (strict sandbox only)

    def __post_init__(self) -> None:
        if not isinstance(self.options, MappingProxyType):  # a small dict: a read-only copy costs nothing
            object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def to_json(self) -> dict[str, JSON]:
        out = {"schema_version": self.schema_version, "engine_version": self.engine_version, "game": self.game,
               "options": dict(self.options), "seed": self.seed, "players": self.players, "sandbox": self.sandbox}
        if self.seed_key is not None:
            out["seed_key"] = self.seed_key
        if self.cgroup is not None:
            out["cgroup"] = self.cgroup
        return out


_HEADER_KEYS = ("schema_version", "engine_version", "game", "options", "seed", "players", "sandbox", "seed_key",
                "cgroup")


@dataclass(frozen=True, slots=True)
class Replay:
    """One played game, enough to re-simulate it (ladder/replay/__init__.py has the format)."""

    header: Header
    seats: tuple[SeatRecord, ...]
    log: tuple[Entry, ...]
    results: tuple[Result, ...]
    extra: Mapping[str, JSON] | None = None  # top-level keys a newer writer added: kept, never read

    def __post_init__(self) -> None:
        for name in ("seats", "log", "results"):  # tuples: a replay's parts cannot grow or shrink
            if not isinstance(getattr(self, name), tuple):
                object.__setattr__(self, name, tuple(getattr(self, name)))

    def to_json(self) -> dict[str, JSON]:
        out = self.header.to_json()
        out["seats"] = [seat.to_json() for seat in self.seats]
        out["log"] = [entry.to_json() for entry in self.log]
        out["results"] = [result.to_json() for result in self.results]
        if self.extra:
            out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Replay:
        """The typed replay of a JSON object; ReplayError when it does not have a replay's shape."""
        check_shape(data)
        try:
            header = Header(**{key: data[key] for key in _HEADER_KEYS if key in data})
            return cls(
                header=header,
                seats=tuple(SeatRecord.from_json(seat, i) for i, seat in enumerate(data["seats"])),
                log=tuple(entry_from_json(entry) for entry in data["log"]),
                results=tuple(Result.from_json(result) for result in data["results"]),
                extra={k: v for k, v in data.items() if k not in _TOP_KEYS} or None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"not a replay this ladder reads: {type(exc).__name__}: {exc}") from None

    # --- the one completion and the splits ----------------------------------------------------

    def completed(self, *, results: Iterable[Result], seats: Iterable[SeatRecord], cgroup: str | None) -> Replay:
        """The replay as the match runner hands it on: its final results and seats (takeovers
        forfeit, each seat with what the sandbox saw) and the cgroup hierarchy, if any."""
        return replace(self, header=replace(self.header, cgroup=cgroup), seats=tuple(seats), results=tuple(results))

    def split_logs(self) -> tuple[Replay, tuple[str | None, ...]]:
        """(the public replay without any seat's stderr, each seat's stderr or None when empty)."""
        logs = tuple(seat.stderr or None for seat in self.seats)
        return self.without_logs(), logs

    def without_logs(self, *, except_seats: Iterable[int] = ()) -> Replay:
        """The replay without the bots' logs, but for the seats in `except_seats` (its owner's)."""
        keep = set(except_seats)
        if all(seat.stderr is None or seat.seat in keep for seat in self.seats):
            return self
        seats = tuple(seat if seat.seat in keep else replace(seat, stderr=None) for seat in self.seats)
        return replace(self, seats=seats)

    def with_logs(self, logs: Mapping[int, str]) -> Replay:
        """The replay with `logs[seat]` as those seats' stderr (split off when it was stored)."""
        if not logs:
            return self
        return replace(self, seats=tuple(replace(seat, stderr=logs[seat.seat]) if seat.seat in logs else seat
                                         for seat in self.seats))

    def decisions(self) -> int:
        return sum(isinstance(entry, Decision) for entry in self.log)


_TOP_KEYS = (*_HEADER_KEYS, "seats", "log", "results")


def _type_name(kind: Any) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join("null" if k is type(None) else k.__name__ for k in kinds)


def check_shape(replay: Any) -> None:
    """Raise ReplayError unless `replay` has the shape of a replay this ladder can read."""
    if not isinstance(replay, dict):
        raise ReplayError("a replay is a JSON object")
    version = replay.get("schema_version")
    if type(version) is not int:
        raise ReplayError("missing or non-integer schema_version")
    if version > SCHEMA_VERSION:
        raise ReplayError(
            f"schema_version {version} is newer than this ladder reads ({SCHEMA_VERSION}); upgrade the ladder"
        )
    if version < 1:
        raise ReplayError(f"unknown schema_version {version}")
    for key, kind in _TOP_LEVEL.items():
        if key not in replay:
            raise ReplayError(f"missing key {key!r}")
        # bool is an int in Python but never a valid seed, count or version here
        if not isinstance(replay[key], kind) or isinstance(replay[key], bool):
            raise ReplayError(f"{key!r} should be {_type_name(kind)}")
    for i, seat in enumerate(replay["seats"]):
        if not isinstance(seat, dict) or not isinstance(seat.get("bot"), str):
            raise ReplayError(f"seats[{i}] should be an object with a 'bot' name")
    for i, entry in enumerate(replay["log"]):
        if not isinstance(entry, dict):
            raise ReplayError(f"log[{i}] should be an object")
        if "decision" in entry:
            if type(entry.get("seat")) is not int or not isinstance(entry.get("kind"), str):
                raise ReplayError(f"log[{i}]: a decision needs an integer 'seat' and a 'kind'")
        elif not isinstance(entry.get("type"), str) or "data" not in entry or "to" not in entry:
            raise ReplayError(
                f"log[{i}] is neither a decision {{seat, kind, decision}} nor an event {{type, data, to}}"
            )
    for i, result in enumerate(replay["results"]):
        if not isinstance(result, dict) or any(k not in result for k in RESULT_KEYS):
            raise ReplayError(f"results[{i}] should have the keys {', '.join(RESULT_KEYS)}")
