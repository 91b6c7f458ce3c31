"""Replays: a versioned JSON record of one game, enough to re-simulate it.

Format (schema_version 1), one JSON object:

    schema_version  int, SCHEMA_VERSION of the writer
    engine_version  str, the ladder's version that played the game (informative)
    game            str, registered game name
    options         {name: value}, every option resolved (defaults filled in)
    seed            int, the game's seed
    players         int, number of seats
    sandbox         null for in-process play, else the sandbox mode in force (strict|user|none)
    seed_key        hex, only where the bots' seeds were keyed (every sandboxed match): with seed
                    and seat it gives each bot's seed (ladder.play.bot_seed); absent, the seeds
                    follow from seed alone
    seats           [{seat, bot, status, reason, faults, forfeit[, bot_seed]}, ...] one per seat, in seat order;
                    status "ok" or the fault status (crash, illegal, timeout, protocol_error, ...),
                    reason null or one line; forfeit true ranks the seat last. The match runner
                    adds what the sandbox saw (SandboxRun: sandbox, ready, strikes, takeover,
                    timings, bank_left_ms, stderr_bytes, exit, clean) and the bot's stderr, which
                    the worker splits off before storing (a log is its owner's); verify ignores them
    cgroup          only for a strict-sandbox match: the cgroup hierarchy that held the bots
    log             every decision and every event, in the order they happened:
                    decision {seat, kind, decision[, fault]}; decision is what was applied, fault
                    {status, reason[, attempted]} when the bot's own answer was replaced by the
                    state's default_decision();
                    event {type, data, to}, to null (everyone) or the list of seats that saw it
    results         [{seat, bot, score, rank, breakdown}, ...] in seat order

The typed form (ladder/replay/model.py) is what the ladder passes around: `Replay`, built once by
the play loop, completed once by the match runner, never changed afterwards; its `to_json` is
this format and its `from_json` reads it.

`write_replay` writes deterministic bytes (sorted keys, compact values, one top-level key per line
and one list item per line so goldens diff well), gzipped when the path ends in .gz.
`verify_replay` re-simulates from options, seed and the logged decisions and reports the first
difference.
"""

from __future__ import annotations

import gzip
import json
import json.encoder
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ladder import __version__
from ladder.games import get_game
from ladder.games.base import OptionError, State, competition_ranks
from ladder.replay.model import (
    ABSENT,
    RESULT_KEYS,
    SCHEMA_VERSION,
    Decision,
    Entry,
    Fault,
    Header,
    LoggedEvent,
    Replay,
    ReplayError,
    Result,
    SandboxRun,
    SeatRecord,
    check_shape,
    entry_from_json,
)

__all__ = [
    "ABSENT", "ENGINE_VERSION", "SCHEMA_VERSION", "Decision", "Entry", "Fault", "Header", "LoggedEvent", "Replay",
    "ReplayError", "Result", "SandboxRun", "SeatRecord", "Verification", "canonical", "check_shape", "dumps_replay",
    "entry_from_json", "load_replay", "loads_replay", "results_of", "verify_replay", "write_replay",
]

ENGINE_VERSION = __version__

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
# json.dumps builds an encoder and then a C encoder for every call; a replay is hundreds of calls
# (one per entry: recording a match spent more time there than in gzip), so the C encoder is
# built once. Without a circular check (replays are trees of JSON values). Same text as
# _CANONICAL.encode, which stands in where the C encoder is missing (tests/replay compare them).
_C_CANONICAL = json.encoder.c_make_encoder(
    None, _CANONICAL.default, json.encoder.encode_basestring, None, ":", ",", True, False, False,
) if json.encoder.c_make_encoder is not None else None


def canonical(value: Any) -> str:
    """The one JSON text of a value: what replays store and what verify compares."""
    if _C_CANONICAL is None or isinstance(value, str):  # a bare string: the C encoder's fast path needs a container
        return _CANONICAL.encode(value)
    return "".join(_C_CANONICAL(value, 0))


def results_of(state: State, names: Sequence[str], forfeited: Iterable[int] = ()) -> tuple[Result, ...]:
    """Final results of a finished state. Forfeited seats rank after every other seat; the others
    keep the game's own order (its ranks may break ties its own way)."""
    forfeited = set(forfeited)
    scores, breakdown, game_ranks = state.scores(), state.breakdown(), state.ranks()
    standing = [s for s in range(state.num_players) if s not in forfeited]
    ranks = [len(standing) + 1] * state.num_players
    for seat, rank in zip(standing, competition_ranks([-game_ranks[s] for s in standing]), strict=True):
        ranks[seat] = rank
    return tuple(Result(s, names[s], scores[s], ranks[s], breakdown[s]) for s in range(state.num_players))


# --- bytes -----------------------------------------------------------------------------------


def dumps_replay(replay: Replay | Mapping[str, Any]) -> bytes:
    if isinstance(replay, Replay):
        replay = replay.to_json()
    lines = []
    for key in sorted(replay):
        value = replay[key]
        if isinstance(value, list) and value:
            body = "[\n" + ",\n".join(canonical(item) for item in value) + "\n]"
        else:
            body = canonical(value)
        lines.append(f"{canonical(key)}:{body}")
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode("utf-8")


def write_replay(replay: Replay | Mapping[str, Any], path: str | Path) -> Path:
    path = Path(path)
    data = dumps_replay(replay)
    if path.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)  # mtime 0: same game, same bytes
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def loads_replay(data: bytes) -> dict[str, Any]:
    """Parse replay bytes (plain or gzip); raises ReplayError for anything malformed."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise ReplayError(f"corrupt gzip data: {exc}") from None
    try:
        replay = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ReplayError(f"not UTF-8 text: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ReplayError(f"not valid JSON: {exc}") from None
    check_shape(replay)
    return replay


def load_replay(path: str | Path) -> dict[str, Any]:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror or exc}") from None
    return loads_replay(data)


# --- verify ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verification:
    ok: bool
    difference: str | None
    game: str
    seed: int
    decisions: int
    events: int

    def summary(self) -> str:
        if not self.ok:
            return f"MISMATCH {self.game} seed {self.seed}: {self.difference}"
        return (
            f"OK {self.game} seed {self.seed}: {self.decisions} decisions, {self.events} events "
            "and the results match a fresh simulation"
        )


def _show(value: Any, limit: int = 300) -> str:
    try:
        text = canonical(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Mismatch(Exception):
    pass


def verify_replay(replay: Replay | dict[str, Any]) -> Verification:
    """Re-simulate a replay; `ok` only if every event and every result matches."""
    if isinstance(replay, Replay):
        replay = replay.to_json()
    counts = {"decision": 0, "event": 0, "entry": 0}
    try:
        _resimulate(replay, counts)
        difference = None
    except _Mismatch as exc:
        difference = str(exc)
    except Exception as exc:  # a tampered log can drive a game where no legal play goes
        difference = f"log entry {counts['entry']}: the engine raised {type(exc).__name__}: {exc}"
    return Verification(
        ok=difference is None,
        difference=difference,
        game=str(replay.get("game")),
        seed=replay.get("seed", -1),
        decisions=counts["decision"],
        events=counts["event"],
    )


def _resimulate(replay: dict[str, Any], counts: dict[str, int]) -> None:
    try:
        game = get_game(replay["game"])
        options = game.resolve_options(replay["options"])
        game.check_players(replay["players"])
    except OptionError as exc:
        raise _Mismatch(str(exc)) from None
    seats = replay["seats"]
    if len(seats) != replay["players"]:
        raise _Mismatch(f"seats: expected {replay['players']} entries, found {len(seats)}")
    state = game.new_state(options, replay["seed"], replay["players"])
    log = replay["log"]
    emitted = 0  # events of state.events already matched against the log
    for i, entry in enumerate(log):
        counts["entry"] = i
        if emitted < len(state.events):
            expected = state.events[emitted].as_json()
            if "decision" in entry or canonical(expected) != canonical(entry):
                raise _Mismatch(f"log entry {i}: expected event {_show(expected)}, found {_show(entry)}")
            emitted += 1
            counts["event"] += 1
            continue
        pending = state.pending()
        if pending is None:
            raise _Mismatch(f"log entry {i}: the game is already over, found {_show(entry)}")
        if "decision" not in entry or entry["seat"] != pending.seat or entry["kind"] != pending.kind:
            raise _Mismatch(
                f"log entry {i}: expected a {pending.kind!r} decision by seat {pending.seat}, "
                f"found {_show(entry)}"
            )
        decision = entry["decision"]
        if "fault" in entry:
            default = state.default_decision()
            if canonical(default) != canonical(decision):
                raise _Mismatch(
                    f"log entry {i}: a faulted seat plays the default {_show(default)}, "
                    f"found {_show(decision)}"
                )
        reason = state.validate(pending.seat, decision)
        if reason is not None:
            raise _Mismatch(f"log entry {i}: decision {_show(decision)} is illegal: {reason}")
        state.apply(pending.seat, decision)
        counts["decision"] += 1
    counts["entry"] = len(log)
    if emitted < len(state.events):
        expected = state.events[emitted].as_json()
        raise _Mismatch(f"log entry {len(log)}: expected event {_show(expected)}, found the end of the log")
    pending = state.pending()
    if pending is not None:
        raise _Mismatch(
            f"log entry {len(log)}: expected a {pending.kind!r} decision by seat {pending.seat}, "
            "found the end of the log"
        )
    names = [seat["bot"] for seat in seats]
    forfeited = [i for i, seat in enumerate(seats) if seat.get("forfeit")]
    expected_results = [result.to_json() for result in results_of(state, names, forfeited)]
    found_results = replay["results"]
    if len(found_results) != len(expected_results):
        raise _Mismatch(f"results: expected {len(expected_results)} entries, found {len(found_results)}")
    for i, (want, got) in enumerate(zip(expected_results, found_results, strict=True)):
        for key in RESULT_KEYS:
            if canonical(want[key]) != canonical(got[key]):
                raise _Mismatch(f"results[{i}].{key}: expected {_show(want[key])}, found {_show(got[key])}")
