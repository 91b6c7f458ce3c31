"""Run one match with every bot as a sandboxed process: what `ladder match` and the workers call.

Steps: check and stage every bot (workers.build.packaging) into a fresh read-only directory, start them
all through workers.sandbox.process (from the calling thread, which must be the main thread for the
sandboxes), then let `ladder.play.play_game` drive the game through one `SandboxedSeat` per bot.
Faults never stop the match: a seat that fails for good is played by the built-in fallback and
ranks last, and every other seat's result stands. The replay records the sandbox mode, and per
seat the strikes, the takeover, the time per decision, the exit and the tail of stderr.

A bot spec is a path to a `.py` file, a `.zip`, a bot directory, or `builtin:NAME` (a starter bot
of the game, run as a process from its own file exactly as an author's copy would run).
"""

from __future__ import annotations

import functools
import inspect
import secrets
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bots import load_builtin
from ladder import runtimes, seat_relay
from ladder.bot_data import Cap, Collected, Snapshot
from ladder.games import FLAGSHIP, get_game
from ladder.play import play_game
from ladder.replay import Replay, results_of, write_replay
from workers.build import bot_data as bot_data_folders
from workers.build import builds, packaging, runtime_view
from workers.build.sdk import SDK_MOUNT, shared_sdk, stage_sdk
from workers.match import blame, protocol
from workers.match.outside_seat import OutsideSeat
from workers.match.phases import NO_PHASES, Phases
from workers.match.protocol import TimeControl
from workers.match.seat import MatchVoid, SandboxedSeat
from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import interrupts
from workers.sandbox import scratch as sandbox_scratch

TABLE_CPUS = 1.0  # what all bots of one match may use together (strict): one core per pool process


class RunnerError(RuntimeError):
    """The match cannot be run as asked (sandbox unavailable, ranked without strict, bad bot)."""


class BuildError(RunnerError):
    """Seat `seat`'s bot did not compile: `build.log` is the compiler's output."""

    def __init__(self, seat: int, build: builds.Build):
        super().__init__(f"seat {seat}: {build.failure()}")
        self.seat, self.build = seat, build


def runtime_tree(entry: str, mode: str) -> Path | None:
    """The runtime's files the bot may see (None: the host's /usr, mode none or no dpkg here)."""
    if mode == "none":
        return None
    try:
        return runtime_view.run_tree(runtimes.BY_ENTRY[entry])
    except runtime_view.ViewError as exc:
        if mode == "strict":
            raise RunnerError(f"the {runtimes.BY_ENTRY[entry].name} runtime is unavailable here: {exc}") from None
        _warn_host_usr(str(exc))
        return None


def runtime_terms(entry: str, limits: Any, clock: TimeControl) -> tuple[Any, TimeControl]:
    """A seat's sandbox limits and clock: the match's, raised to its runtime's floors (a runtime
    that loads a large library needs more memory and time to start; ladder/runtimes.py)."""
    runtime = runtimes.BY_ENTRY[entry]
    if runtime.memory_bytes and runtime.memory_bytes > limits.memory_bytes:
        limits = replace(limits, memory_bytes=runtime.memory_bytes)
    if runtime.startup_ms and runtime.startup_ms > clock.startup_ms:
        clock = replace(clock, startup_ms=runtime.startup_ms)
    return limits, clock


@functools.cache
def _warn_host_usr(why: str) -> None:
    sys.stderr.write(f"note: bots see the host's /usr ({why})\n")


def runnable(bots: Sequence[packaging.StagedBot], *, mode: str, cache: builds.BuildCache | None,
             parent: Path, on_build: Callable[[int, str], None] | None = None) -> list[packaging.StagedBot]:
    """Every staged bot ready to start: compiled runtimes built (or taken from `cache`);
    `on_build(seat, runtime)` is called before a build starts (they take seconds)."""
    ready = []
    for seat, bot in enumerate(bots):
        announce = functools.partial(on_build, seat) if on_build is not None else None
        try:
            ready.append(builds.ensure_built(bot, mode=mode, cache=cache, parent=parent, announce=announce)[0])
        except builds.BuildFailed as exc:  # what the compiler said: the author's
            raise BuildError(seat, exc.build) from None
        except Exception as exc:  # the build's sandbox, the cache: the ladder's (workers/match/blame.py)
            raise blame.build_failure(exc, seat) from exc
    return ready


@dataclass
class MatchResult:
    game: str
    seed: int
    sandbox: str
    results: list[dict[str, Any]]  # seat, bot, score, rank, status, reason
    replay: Replay
    replay_path: Path | None = None
    build_keys: list[str | None] | None = None  # per seat, the artifact a compiled bot ran
    data: list[Collected | None] | None = None  # per seat, its bot data's changes (workers/build/bot_data.py)

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "sandbox": self.sandbox,
            "cgroup": self.replay.header.cgroup,
            "results": self.results,
            "replay": str(self.replay_path) if self.replay_path else None,
        }


def choose_mode(sandbox: str, *, ranked: bool = False, require_strict: bool = True) -> str:
    """The sandbox mode to use: `auto` picks strict, else user (never none, which must be asked)."""
    from workers.sandbox.process import MODES, sandbox_available

    if sandbox == "auto":
        sandbox = next((m for m in ("strict", "user") if sandbox_available(m)[0]), "")
        if not sandbox:
            raise RunnerError(
                f"no sandbox available here (strict: {sandbox_available('strict')[1]}; user: "
                f"{sandbox_available('user')[1]}); use --sandbox none for local debugging of your own bots"
            )
    if sandbox not in MODES:
        raise RunnerError(f"unknown sandbox mode {sandbox!r} (choose {', '.join(MODES)} or auto)")
    if ranked and require_strict and sandbox != "strict":
        raise RunnerError(f"ranked matches need the strict sandbox, not {sandbox!r}")
    ok, why = sandbox_available(sandbox)
    if not ok:
        raise RunnerError(f"sandbox mode {sandbox!r} is unavailable here: {why}")
    return sandbox


def builtin_source(game: str, name: str) -> Path:
    """The file of a built-in starter bot; raises KeyError naming the choices."""
    return Path(inspect.getsourcefile(load_builtin(game, name)))


def stage_bot(spec: str, game: str, parent: Path) -> packaging.StagedBot:
    if spec.startswith("builtin:"):
        try:
            source = builtin_source(game, spec.removeprefix("builtin:"))
        except KeyError as exc:
            raise RunnerError(str(exc.args[0])) from None
        return packaging.stage(source, parent)
    return packaging.stage(spec, parent)


def run_match(
    specs: Sequence[str],
    *,
    game: str = FLAGSHIP,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    sandbox: str = "strict",
    clock: TimeControl | None = None,
    strikes: int = protocol.STRIKES,
    ranked: bool = False,
    require_strict: bool = True,
    replay_path: str | Path | None = None,
    names: Sequence[str] | None = None,
    on_entry: Callable[[dict[str, Any]], None] | None = None,
    build_cache: builds.BuildCache | None = None,
    on_build: Callable[[int, str], None] | None = None,
    final_attempt: bool = True,
    seed_key: bytes | None = None,
    bot_data: Sequence[Snapshot | None] | None = None,
    data_cap: Cap | None = None,
    relay: Any = None,
    phases: Phases = NO_PHASES,
    outside: Mapping[int, Callable[[str], Any]] | None = None,
) -> MatchResult:
    """Play one match, seat i played by specs[i]. Raises RunnerError/PackagingError/OptionError
    (BuildError for a bot that does not compile) before any bot starts when the match cannot be
    run. Raises blame.LadderFault when the ladder failed (a sandbox that did not start, a bot the
    ladder killed at start-up, a build sandbox that failed): the match is void, no seat is charged,
    and the caller plays it again (blame.retrying); `final_attempt` False also voids a start-up
    death the ladder cannot prove was its own. Otherwise, once it runs, it always finishes.
    A stop signal (SIGINT, SIGTERM) tears the match down and is then handed on
    (workers/sandbox/interrupts.py). Compiled bots are built in the sandbox first, or taken from
    `build_cache` (default: builds.DirCache, the local cache `ladder match` keeps). The bots'
    seeds are keyed with `seed_key`, a fresh secret per match unless given (to repeat a recorded
    match): no bot can work back from its seed to the game's hidden draws (ladder.play.bot_seed).
    `bot_data[i]` is seat i's data folder to start from (shown at /botdata; None: no folder): its
    changes come back in MatchResult.data, read once the bots are gone (workers/build/bot_data.py).
    `phases` collects where the match's time goes (workers/match/phases.py; `ladder bench service`).
    `outside` maps a seat to a factory, given the seat's name, of a seat played from outside the
    sandbox (workers/match/person_seat.py): that seat's spec is staged, never started (it names the
    fallback), and the factory's object stands in for a SandboxedSeat.
    A spec `remote:<match>:<seat>` (ladder/seat_relay.py) is a program outside, played over `relay`
    (workers/match/outside_seat.py) instead of a sandboxed process."""
    with interrupts.catching():
        return _run_match(specs, game=game, seed=seed, options=options, sandbox=sandbox, clock=clock,
                          strikes=strikes, ranked=ranked, require_strict=require_strict, replay_path=replay_path,
                          names=names, on_entry=on_entry, build_cache=build_cache, on_build=on_build,
                          final_attempt=final_attempt, seed_key=seed_key, bot_data=bot_data,
                          data_cap=data_cap, phases=phases, outside=outside or {}, relay=relay)


def _run_match(specs, *, game, seed, options, sandbox, clock, strikes, ranked, require_strict, replay_path, names,
               on_entry, build_cache, on_build, final_attempt, seed_key, phases, outside, relay, bot_data=None,
               data_cap=None) -> MatchResult:
    from workers.sandbox.process import BotProcess, Limits

    phases.begin()
    mode = choose_mode(sandbox, ranked=ranked, require_strict=require_strict)
    game_obj = get_game(game)
    game_obj.check_players(len(specs))
    game_obj.resolve_options(options)
    clock = clock or TimeControl()
    names = list(names) if names is not None else list(specs)
    limits = Limits(
        line_bytes=protocol.MAX_LINE_BYTES, stderr_bytes=protocol.LOG_BYTES, cpu_seconds=protocol.CPU_BACKSTOP_S
    )
    root = sandbox_scratch.make()  # named for this process: a warden removes it if we are killed
    seats: list[SandboxedSeat] = []
    void = MatchVoid()
    table = None
    folders, collected, finished = None, None, False  # bot data (workers/build/bot_data.py)
    try:
        if mode == "strict":
            table = sandbox_cgroup.TableCpuGroup.create(TABLE_CPUS)
        sdk = stage_sdk(root) if mode == "none" else shared_sdk()
        remote = {i: seat_relay.parse_remote_spec(spec) for i, spec in enumerate(specs)}
        remote = {i: where for i, where in remote.items() if where is not None}
        staged = [stage_bot(spec, game, root) for i, spec in enumerate(specs) if i not in remote]
        staged = runnable(staged, mode=mode, cache=build_cache if build_cache is not None else builds.DirCache(),
                          parent=root, on_build=on_build)
        trees = [runtime_tree(bot.entry, mode) for bot in staged]
        for i in sorted(remote):  # a remote seat has no process: None in the sandboxed lists
            staged.insert(i, None)
            trees.insert(i, None)
        if bot_data is not None:
            folders = bot_data_folders.SeatFolders(root, bot_data, data_cap or Cap(), mode)
        phases.lap("stage")
        lines = protocol.EventLines()  # one per match: each event is encoded once for every seat
        for index, (name, bot, tree) in enumerate(zip(names, staged, trees, strict=True)):
            if index in outside:  # a person's seat (its spec, the fallback, is staged, never started)
                seats.append(outside[index](name))
                seats[-1].void = void
                continue
            if bot is None:  # a program outside (workers/match/outside_seat.py)
                match_id, number = remote[index]
                seats.append(OutsideSeat(name, game, relay=relay, match_id=match_id, seat=number, clock=clock,
                                         strikes=strikes, lines=lines, void=void, final_attempt=final_attempt))
                seats[-1].start()
                continue
            seat_limits, seat_clock = runtime_terms(bot.entry, limits, clock)
            seat = SandboxedSeat(name, game, mode, seat_clock, strikes, lines, void=void, final_attempt=final_attempt)

            def factory(bot: packaging.StagedBot = bot, tree: Path | None = tree, limits: Any = seat_limits,
                        index: int = len(seats)) -> Any:
                # LADDER_BOT=1: bots.sdk moves the protocol off fd 1 at import, so stray prints
                # (even at import time) go to the log instead of breaking the protocol
                data_env = folders.env(index) if folders is not None else {}
                return BotProcess.start(
                    bot.command, bot.path, mode=mode, limits=limits,
                    extra_ro_binds={SDK_MOUNT: sdk}, env={"PYTHONPATH": SDK_MOUNT, "LADDER_BOT": "1", **data_env},
                    table=table, view=tree, rw_binds=folders.binds(index) if folders is not None else None,
                )

            seats.append(seat)
            try:
                seat.start(factory)
            except blame.LadderFault as fault:
                fault.seat = len(seats) - 1
                void.fault = void.fault or fault  # the seats started already hear the match is void
                raise
        phases.lap("start", seats)

        def route(entry: dict[str, Any]) -> None:
            if "fault" in entry:
                seats[entry["seat"]].refused(entry)
            if on_entry is not None:
                on_entry(entry)

        played = play_game(game, seats, seed=seed, options=options, names=names, sandbox=mode, on_entry=route,
                           seed_key=seed_key if seed_key is not None else secrets.token_bytes(16))
        phases.lap("play", seats)
        if void.fault is not None:
            raise void.fault
        killed = blame.table_killed(_seat_ends(seats))  # the whole table killed from outside: void
        if killed is not None:
            raise killed
        forfeited = [i for i, s in enumerate(seats) if s.takeover is not None or played.seats[i].forfeit]
        final = results_of(played.state, names, forfeited)  # a takeover forfeits too
        results = [
            {"seat": r.seat, "bot": r.bot, "score": r.score, "rank": r.rank, "status": s.status, "reason": s.reason}
            for r, s in zip(final, seats, strict=True)
        ]
        for seat in seats:
            seat.send_end(results, protocol.END_GRACE_MS / 1000)
        deadline = time.monotonic() + protocol.END_GRACE_MS / 1000
        for seat in seats:
            seat.wait_exit(deadline)
        finished = True
        phases.lap("end", seats)
    finally:
        with interrupts.deferred():  # a stop signal waits for the teardown
            for seat in seats:
                seat.close()
            if table is not None:
                table.remove()
            if folders is not None:  # read back once every bot is gone, and only from a match that ended
                if finished:  # a bot the ladder had to stop may be halfway through a write: not kept
                    collected = folders.collect([_exited_cleanly(seat) for seat in seats])
                folders.remove()
            for path in root.iterdir():
                packaging.remove_staged(path)
            packaging.remove_staged(root)
        phases.lap("teardown")
    replay = played.replay.completed(
        results=final,
        seats=[seat.completed(record, forfeit=i in forfeited, sandbox=mode)
               for i, (seat, record) in enumerate(zip(seats, played.seats, strict=True))],
        # which hierarchy held the bots (workers/sandbox/cgroup.py)
        cgroup=sandbox_cgroup.backend() if mode == "strict" else None,
    )
    path = write_replay(replay, replay_path) if replay_path is not None else None
    phases.lap("replay")
    return MatchResult(game, seed, mode, results, replay, path, [bot and bot.build_key for bot in staged],
                       collected)


def _seat_ends(seats: Sequence[Any]) -> list[blame.SeatEnd]:
    """What blame.table_killed judges, per seat: only our own processes count (no signal of ours
    reaches a program outside or a person)."""
    return [blame.SeatEnd(process=type(seat) is SandboxedSeat, fault=seat.takeover and seat.takeover.code,
                          signal=(getattr(seat, "exit", None) or {}).get("signal"),
                          events=getattr(seat, "end_events", {})) for seat in seats]


def _exited_cleanly(seat: Any) -> bool:
    """The seat's bot ended on its own after the end and left nothing behind: only then are its
    data folder's changes kept. A seat played from outside has no process, and no folder."""
    ended = getattr(seat, "exit", None) or {}
    return getattr(seat, "clean", None) is True and ended.get("signal") is None and ended.get("code") is not None

