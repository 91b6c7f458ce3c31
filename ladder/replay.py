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
                    reason null or one line; forfeit true ranks the seat last. A runner may add keys
                    (e.g. stderr); verify ignores them.
    log             every decision and every event, in the order they happened:
                    decision {seat, kind, decision[, fault]}; decision is what was applied, fault
                    {status, reason[, attempted]} when the bot's own answer was replaced by the
                    state's default_decision();
                    event {type, data, to}, to null (everyone) or the list of seats that saw it
    results         [{seat, bot, score, rank, breakdown}, ...] in seat order

`write_replay` writes deterministic bytes (sorted keys, compact values, one top-level key per line
and one list item per line so goldens diff well), gzipped when the path ends in .gz.
`verify_replay` re-simulates from options, seed and the logged decisions and reports the first
difference.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ladder import __version__
from ladder.games import get_game
from ladder.games.base import OptionError, State, competition_ranks

SCHEMA_VERSION = 1
ENGINE_VERSION = __version__

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
_RESULT_KEYS = ("seat", "bot", "score", "rank", "breakdown")


class ReplayError(ValueError):
    """A file that is not a replay this ladder can read; the message says why."""


def canonical(value: Any) -> str:
    """The one JSON text of a value: what replays store and what verify compares."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def make_replay(
    *,
    game: str,
    options: dict[str, Any],
    seed: int,
    players: int,
    seats: list[dict[str, Any]],
    log: list[dict[str, Any]],
    results: list[dict[str, Any]],
    sandbox: str | None = None,
    seed_key: bytes | None = None,
) -> dict[str, Any]:
    keyed = {} if seed_key is None else {"seed_key": seed_key.hex()}
    return {
        "schema_version": SCHEMA_VERSION,
        "engine_version": ENGINE_VERSION,
        "game": game,
        "options": options,
        "seed": seed,
        "players": players,
        "sandbox": sandbox,
        "seats": seats,
        "log": log,
        "results": results,
        **keyed,
    }


def results_of(state: State, names: Sequence[str], forfeited: Iterable[int] = ()) -> list[dict[str, Any]]:
    """Final results of a finished state. Forfeited seats rank after every other seat; the others
    keep the game's own order (its ranks may break ties its own way)."""
    forfeited = set(forfeited)
    scores, breakdown, game_ranks = state.scores(), state.breakdown(), state.ranks()
    standing = [s for s in range(state.num_players) if s not in forfeited]
    ranks = [len(standing) + 1] * state.num_players
    for seat, rank in zip(standing, competition_ranks([-game_ranks[s] for s in standing]), strict=True):
        ranks[seat] = rank
    return [
        {"seat": s, "bot": names[s], "score": scores[s], "rank": ranks[s], "breakdown": breakdown[s]}
        for s in range(state.num_players)
    ]


# --- bytes -----------------------------------------------------------------------------------


def dumps_replay(replay: dict[str, Any]) -> bytes:
    lines = []
    for key in sorted(replay):
        value = replay[key]
        if isinstance(value, list) and value:
            body = "[\n" + ",\n".join(canonical(item) for item in value) + "\n]"
        else:
            body = canonical(value)
        lines.append(f"{canonical(key)}:{body}")
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode("utf-8")


def write_replay(replay: dict[str, Any], path: str | Path) -> Path:
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
        if not isinstance(result, dict) or any(k not in result for k in _RESULT_KEYS):
            raise ReplayError(f"results[{i}] should have the keys {', '.join(_RESULT_KEYS)}")


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


def verify_replay(replay: dict[str, Any]) -> Verification:
    """Re-simulate a replay; `ok` only if every event and every result matches."""
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
    expected_results = results_of(state, names, forfeited)
    found_results = replay["results"]
    if len(found_results) != len(expected_results):
        raise _Mismatch(f"results: expected {len(expected_results)} entries, found {len(found_results)}")
    for i, (want, got) in enumerate(zip(expected_results, found_results, strict=True)):
        for key in _RESULT_KEYS:
            if canonical(want[key]) != canonical(got[key]):
                raise _Mismatch(f"results[{i}].{key}: expected {_show(want[key])}, found {_show(got[key])}")
