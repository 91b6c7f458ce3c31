"""Play one game: seat the bots, drive the state, record the replay.

The loop talks to each seat through three calls, `setup(hello)`, `on_event(event_json)` and
`decide(kind, observation) -> decision`: an in-process `bots.sdk.Bot` has them, and the sandboxed
match runner passes proxies with the same calls. A proxy reports a fault it detected (timeout,
protocol error, crash, ...) by raising `BotFault`; any other exception from a bot is a `crash`, and a
decision the rules refuse is `illegal`. A fault never stops the game: the state's
`default_decision()` is played for that request and the fault is logged.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import marshal
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bots import builtin_names, load_builtin, reference_bot
from bots.sdk import Bot
from ladder.games import get_game
from ladder.games.base import Game, State
from ladder.replay import (
    ENGINE_VERSION,
    SCHEMA_VERSION,
    Header,
    Replay,
    Result,
    SeatRecord,
    entry_from_json,
    results_of,
)

MAX_DECISIONS = 200_000  # far above any real game: a game still running here has a rules bug


class Player(Protocol):
    """What plays a seat: an in-process bot, a sandboxed process's proxy (workers/match/seats/process.py), or
    one played from outside. Named apart from `ladder.models.Seat`, a seat's row in the database."""

    def setup(self, hello: dict[str, Any]) -> None: ...
    def on_event(self, event: dict[str, Any]) -> None: ...
    def decide(self, kind: str, observation: dict[str, Any]) -> Any: ...


class BotFault(Exception):
    """Raised by a seat proxy: the bot failed this request. `forfeit` ranks the seat last."""

    def __init__(self, status: str, reason: str, *, forfeit: bool = False) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.forfeit = forfeit


@dataclass
class PlayedGame:
    replay: Replay | None  # None only while the game is being played
    state: State
    decisions: int = 0
    engine_ns: int = 0  # inside state.validate + state.apply only
    observation_ns: int = 0  # inside state.observation only
    faults: list[dict[str, Any]] = field(default_factory=list)

    @property
    def results(self) -> tuple[Result, ...]:
        return self.replay.results

    @property
    def seats(self) -> tuple[SeatRecord, ...]:
        return self.replay.seats


def bot_seed(seed: int, seat: int, key: bytes | None = None) -> int:
    """The seed a bot gets in hello: its own, never the game seed itself (with the game seed and
    the engine a bot could replay the hidden draws).

    Without `key` it is a public function of the game seed: fine for in-process house bots, which
    `ladder play` keeps deterministic, but a sandboxed bot could invert it by search wherever the
    game seed is small or structured (a default `--seed 1`, a tournament's deals) and so rebuild
    every hidden card. Every sandboxed match therefore passes a secret `key` (workers.match.runner draws
    one per match): HMAC-SHA256 of the seed and seat under a key the bot never sees is not
    invertible, and the replay records the key afterwards so a run can be repeated on request."""
    if key is None:
        return random.Random(f"bot:{seed}:{seat}").getrandbits(63)
    digest = hmac.new(key, f"bot:{seed}:{seat}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def fresh_json(value: Any) -> Any:
    """A new copy of a JSON value, as it would arrive over the wire (tuples become lists): each
    in-process seat's own copy of an event, so it can change nothing the log or another seat
    holds; and a decision as the replay will store it. Observations need no copy here: the game
    builds each one anew for its seat (State.observation; tests/games/test_random_play.py checks
    every game), and copying it would cost more than building it."""
    return json.loads(json.dumps(value, allow_nan=False))


def _listens(bot: Any) -> bool:
    """False for an SDK bot that keeps the SDK's empty on_event: it needs no events, nor copies."""
    return not (isinstance(bot, Bot) and type(bot).on_event is Bot.on_event)


def _wire(bot: Any) -> bool:
    """A seat that only serialises what it is handed (a proxy for a bot process) may be handed
    the engine's own values and one event object shared by every such seat: it sets `wire`."""
    return getattr(bot, "wire", False) is True


def _validate(state: State, seat: int, decision: Any) -> str | None:
    try:
        return state.validate(seat, decision)
    except Exception as exc:  # a shape the rules did not expect is still the bot's illegal answer
        return f"rejected ({type(exc).__name__}: {exc})"


def play_game(
    game: Game | str,
    bots: Sequence[Player],
    *,
    seed: int,
    options: Mapping[str, Any] | None = None,
    checked: bool = False,
    names: Sequence[str] | None = None,
    sandbox: str | None = None,
    on_entry: Callable[[dict[str, Any]], None] | None = None,
    max_decisions: int = MAX_DECISIONS,
    seed_key: bytes | None = None,
) -> PlayedGame:
    """Play one game of `game` with one bot per seat; raises OptionError for a bad game, option
    or player count. `on_entry` sees every log entry as it happens (decisions and events).
    `seed_key` keys the bots' seeds (`bot_seed`); the replay records it as hex. `checked`: the
    table is checked and `options` are resolved already (a ladder.match.MatchPlan's, checked when it was made)."""
    game_obj = game if isinstance(game, Game) else get_game(game)
    game = game_obj.name
    players = len(bots)
    if checked:
        resolved = dict(options or {})
    else:
        game_obj.check_players(players)
        resolved = game_obj.resolve_options(options)
    names = list(names) if names is not None else [type(b).__name__ for b in bots]
    if len(names) != players:
        raise ValueError(f"{len(names)} names for {players} bots")
    state = game_obj.new_state(resolved, seed, players)
    seeds = [bot_seed(seed, seat, seed_key) for seat in range(players)]
    # Only a keyed seed is recorded: an unkeyed one follows from the game seed.
    records = [SeatRecord(seat, name, bot_seed=seeds[seat] if seed_key is not None else None)
               for seat, name in enumerate(names)]
    log: list[dict[str, Any]] = []
    played = PlayedGame(replay=None, state=state)
    perf = time.perf_counter_ns

    def bot_fault(seat: int, exc: Exception) -> dict[str, Any]:
        if isinstance(exc, BotFault):
            fault = {"status": exc.status, "reason": exc.reason}
            records[seat] = records[seat].with_fault(exc.status, exc.reason, exc.forfeit)
        else:
            fault = {"status": "crash", "reason": f"{type(exc).__name__}: {exc}"[:300]}
            records[seat] = records[seat].with_fault(fault["status"], fault["reason"])
        return fault

    for seat, bot in enumerate(bots):
        hello = {
            "game": game,
            "seat": seat,
            "players": players,
            "options": dict(resolved),
            # docs/protocol.md names it bot_seed; bots/sdk.py reads seed: same value under both
            "bot_seed": seeds[seat],
            "seed": seeds[seat],
        }
        try:
            bot.setup(hello)
        except Exception as exc:
            played.faults.append({"seat": seat, "during": "setup", **bot_fault(seat, exc)})

    sent = 0  # state.events before this index are logged and delivered
    wire = [_wire(bot) for bot in bots]
    listens = [_listens(bot) for bot in bots]

    def deliver() -> None:
        nonlocal sent
        events = state.events
        while sent < len(events):
            event = events[sent]
            sent += 1
            entry = event.as_json()
            log.append(entry)
            if on_entry is not None:
                on_entry(entry)
            # Packed once per event; each in-process bot gets its own copy (it can alter neither
            # the log, nor the state, nor what another seat sees). Wire seats only serialise what
            # they are handed, so they all get the log entry itself: one object per event, which
            # workers/match/seats/process.py encodes once per match. marshal copies the JSON value as it
            # is, several times faster than a JSON round trip (measured in ladder bench engine).
            packed = None
            for seat, bot in enumerate(bots):
                if listens[seat] and event.visible_to(seat):
                    if wire[seat]:
                        message = entry
                    else:
                        if packed is None:
                            packed = marshal.dumps(entry)
                        message = marshal.loads(packed)
                    try:
                        bot.on_event(message)
                    except Exception as exc:
                        played.faults.append({"seat": seat, "during": "event", **bot_fault(seat, exc)})

    deliver()
    while (pending := state.pending()) is not None:
        if played.decisions >= max_decisions:
            raise RuntimeError(f"{game} seed {seed} did not end after {max_decisions} decisions")
        seat, kind = pending.seat, pending.kind
        t0 = perf()
        observation = state.observation(seat)
        played.observation_ns += perf() - t0
        fault = None
        try:
            answer = bots[seat].decide(kind, observation)
        except Exception as exc:
            fault = bot_fault(seat, exc)
        else:
            try:
                decision = fresh_json(answer)
            except (TypeError, ValueError) as exc:
                fault = {"status": "illegal", "reason": f"not a JSON value: {exc}"}
            else:
                t0 = perf()
                reason = _validate(state, seat, decision)
                if reason is None:
                    state.apply_validated(seat, decision)
                played.engine_ns += perf() - t0
                if reason is not None:
                    fault = {"status": "illegal", "reason": reason, "attempted": decision}
            if fault is not None:
                records[seat] = records[seat].with_fault("illegal", fault["reason"])
        if fault is not None:
            decision = state.default_decision()
            t0 = perf()
            state.apply(seat, decision)  # an illegal default is a rules bug: let it raise
            played.engine_ns += perf() - t0
            played.faults.append({"seat": seat, "during": kind, **fault})
        entry = {"seat": seat, "kind": kind, "decision": decision}
        if fault is not None:
            entry["fault"] = fault
        log.append(entry)
        if on_entry is not None:
            on_entry(entry)
        played.decisions += 1
        deliver()

    # The one Replay of this game: the log entries the loop handed out as JSON, typed once here.
    forfeited = [s for s, r in enumerate(records) if r.forfeit]
    header = Header(SCHEMA_VERSION, ENGINE_VERSION, game, resolved, seed, players, sandbox,
                    seed_key=None if seed_key is None else seed_key.hex())
    played.replay = Replay(header, tuple(records), tuple(entry_from_json(e) for e in log),
                           results_of(state, names, forfeited))
    return played


def default_bot_names(game: str, players: int) -> list[str]:
    """Alternate the game's reference bot with "random": a mixed table by default."""
    names = builtin_names(game)
    reference = reference_bot(game)
    lineup = [reference, "random"] if "random" in names and reference != "random" else [reference]
    return [lineup[i % len(lineup)] for i in range(players)]


def make_bots(game: str, names: Sequence[str]) -> list[Any]:
    """Fresh instances of built-in bots; raises KeyError naming the choices for an unknown one."""
    return [load_builtin(game, name)() for name in names]


def play_builtin(
    game: str, names: Sequence[str], *, seed: int, options: Mapping[str, Any] | None = None, **kwargs: Any
) -> PlayedGame:
    get_game(game)  # an unknown game is reported as such, not as an unknown bot
    return play_game(game, make_bots(game, names), seed=seed, options=options, names=names, **kwargs)
