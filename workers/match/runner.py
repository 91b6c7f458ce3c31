"""Run one match with every bot as a sandboxed process: what `ladder match` and the workers call.

Steps: check and stage every bot (workers.build.packaging) into a fresh read-only directory, start them
all through workers.sandbox.process (from the calling thread, which must be the main thread for the
sandboxes), then let `ladder.play.play_game` drive the game through one `SandboxedSeat` per bot.
Faults never stop the match: a seat that fails for good is played by the built-in fallback and
ranks last, and every other seat's result stands. The replay records the sandbox mode, and per
seat the strikes, the takeover, the time per decision, the exit and the tail of stderr.

The match is one `ladder.match.MatchPlan` (its seats typed: uploaded code, a bot on this disk, a
house bot run as a process from its own file exactly as an author's copy would run, a program
outside, a person), played with one `Env` (what is the machine's), into one `MatchRecord`.
"""

from __future__ import annotations

import functools
import inspect
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ladder.bot import runtimes
from ladder.bot.data import Cap, Collected
from ladder.games import get_game
from ladder.games.base import Game
from ladder.match import SANDBOXED, HouseBot, MatchPlan, SeatPlan, UploadedCode
from ladder.play import play_game
from ladder.replay import Replay, results_of
from workers.build import bot_data as bot_data_folders
from workers.build import builds, packaging, runtime_view
from workers.build.sdk import SDK_MOUNT, shared_sdk, stage_sdk
from workers.match import blame, protocol
from workers.match.phases import NO_PHASES, Phases
from workers.match.protocol import TimeControl
from workers.match.seats import MatchVoid, Table, seat_for
from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import interrupts
from workers.sandbox import scratch as sandbox_scratch
from workers.sandbox.record import RunRecord

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
    that loads a large library needs more memory and time to start; ladder/bot/runtimes.py)."""
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
             parent: Path, on_build: Callable[[int, str], None] | None = None,
             seats: Sequence[int] | None = None) -> list[packaging.StagedBot]:
    """Every staged bot ready to start: compiled runtimes built (or taken from `cache`);
    `seats[n]` is the n-th bot's seat (default: n), which a BuildError names and `on_build(seat,
    runtime)` is told before a build starts (they take seconds)."""
    ready = []
    for n, bot in enumerate(bots):
        seat = seats[n] if seats is not None else n
        announce = functools.partial(on_build, seat) if on_build is not None else None
        try:
            ready.append(builds.ensure_built(bot, mode=mode, cache=cache, parent=parent, announce=announce)[0])
        except builds.BuildFailed as exc:  # what the compiler said: the author's
            raise BuildError(seat, exc.build) from None
        except Exception as exc:  # the build's sandbox, the cache: the ladder's (workers/match/blame.py)
            raise blame.build_failure(exc, seat) from exc
    return ready


@dataclass(frozen=True)
class Env:
    """What a match is played with that belongs to the machine, not to the match: the build cache
    (default: builds.DirCache, the local cache `ladder match` keeps), the relay outside seats and
    people play over, the bot data cap, the callbacks, and how this attempt stands (the last one
    charges a seat with a start-up death the ladder cannot prove was its own: workers/match/blame.py)."""

    build_cache: builds.BuildCache | None = None
    relay: Any = None
    require_strict: bool = True  # a ranked match needs the strict sandbox (off in development)
    final_attempt: bool = True
    data_cap: Cap | None = None
    on_entry: Callable[[dict[str, Any]], None] | None = None  # every log entry as it is played
    on_build: Callable[[int, str], None] | None = None  # (seat, runtime) before a build starts
    phases: Phases = field(default_factory=lambda: NO_PHASES)  # where the match's time goes (workers/match/phases.py)
    person_absent_s: float = 45.0  # a person's page unseen this long has left the table
    person_budget_s: float | None = None  # the longest a match with a person may take


@dataclass(frozen=True)
class MatchRecord:
    """What one played match produced, made once at its end: the completed replay, the results as
    the bots were told them, and per seat the artifact a compiled bot ran and its bot data's changes
    (workers/build/bot_data.py; None: no folder)."""

    plan: MatchPlan
    sandbox: str  # the mode the bots ran in
    results: tuple[dict[str, Any], ...]  # seat, bot, score, rank, status, reason
    replay: Replay
    build_keys: tuple[str | None, ...]
    data: list[Collected | None] | None = None
    runs: tuple[RunRecord | None, ...] = ()  # per seat, what its process did (None: it had none)

    def as_json(self, replay_path: Path | None = None) -> dict[str, Any]:
        return {
            "game": self.plan.game.name,
            "seed": self.plan.seed,
            "sandbox": self.sandbox,
            "cgroup": self.replay.header.cgroup,
            "results": list(self.results),
            "replay": str(replay_path) if replay_path else None,
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


def builtin_source(game: Game | str, name: str) -> Path:
    """The file of a built-in starter bot; raises KeyError naming the choices."""
    game = get_game(game) if isinstance(game, str) else game
    return Path(inspect.getsourcefile(game.bot_class(name)))


def stage_seat(seat: SeatPlan, index: int, game: Game, parent: Path) -> packaging.StagedBot:
    """A sandboxed seat's bot checked and staged under `parent` (packaging.stage)."""
    if isinstance(seat, HouseBot):
        try:
            source = builtin_source(game, seat.bot)
        except KeyError as exc:
            raise RunnerError(str(exc.args[0])) from None
    elif isinstance(seat, UploadedCode):  # the stored bytes, written where the bots' uids can read them
        folder = parent / f"code-{index}"
        folder.mkdir(mode=0o755)
        source = folder / seat.filename
        source.write_bytes(seat.code)
        source.chmod(0o644)
    else:
        source = seat.path
    return packaging.stage(source, parent)


def run(plan: MatchPlan, env: Env | None = None) -> MatchRecord:
    """Play the match `plan` with `env`. Raises RunnerError/PackagingError (BuildError for a bot
    that does not compile) before any bot starts when the match cannot be run. Raises
    blame.LadderFault when the ladder failed (a sandbox that did not start, a bot the ladder killed
    at start-up, a build sandbox that failed): the match is void, no seat is charged, and the caller
    plays it again (blame.retrying); `env.final_attempt` False also voids a start-up death the ladder
    cannot prove was its own. Otherwise, once it runs, it always finishes.
    A stop signal (SIGINT, SIGTERM) tears the match down and is then handed on
    (workers/sandbox/interrupts.py). The bots' seeds are keyed with `plan.seed_key`, a fresh secret
    per match unless given (to repeat a recorded match): no bot can work back from its seed to the
    game's hidden draws (ladder.play.bot_seed). A seat's bot data snapshot is shown at /botdata: its
    changes come back in MatchRecord.data, read once the bots are gone (workers/build/bot_data.py)."""
    with interrupts.catching():
        return _run(plan, env if env is not None else Env())


def _run(plan: MatchPlan, env: Env) -> MatchRecord:
    from workers.sandbox.process import BotProcess, Limits

    phases = env.phases
    phases.begin()
    mode = choose_mode(plan.sandbox, ranked=plan.ranked, require_strict=env.require_strict)
    game, names = plan.game, plan.names
    limits = Limits(
        line_bytes=protocol.MAX_LINE_BYTES, stderr_bytes=protocol.LOG_BYTES, cpu_seconds=protocol.CPU_BACKSTOP_S
    )
    root = sandbox_scratch.make(f"{plan.match_id}-" if plan.match_id is not None else "")  # a warden removes it
    seats: list[Any] = []
    void = MatchVoid()
    table = None
    folders, collected, finished = None, None, False  # bot data (workers/build/bot_data.py)
    sandboxed = [i for i, seat in enumerate(plan.seats) if isinstance(seat, SANDBOXED)]
    staged: list[packaging.StagedBot | None] = [None] * len(plan.seats)
    try:
        if mode == "strict":
            table = sandbox_cgroup.TableCpuGroup.create(TABLE_CPUS)
        sdk = stage_sdk(root) if mode == "none" else shared_sdk()
        ready = runnable([stage_seat(plan.seats[i], i, game, root) for i in sandboxed], mode=mode,
                         cache=env.build_cache if env.build_cache is not None else builds.DirCache(), parent=root,
                         on_build=env.on_build, seats=sandboxed)
        trees: list[Path | None] = [None] * len(plan.seats)
        for i, bot in zip(sandboxed, ready, strict=True):
            staged[i], trees[i] = bot, runtime_tree(bot.entry, mode)
        snapshots = [seat.data for seat in plan.seats]
        if any(snapshot is not None for snapshot in snapshots):
            folders = bot_data_folders.SeatFolders(root, snapshots, env.data_cap or Cap(), mode)
        phases.lap("stage")
        processes = {}  # per sandboxed seat: what starts its process, and its clock
        for index in sandboxed:
            bot, tree = staged[index], trees[index]
            seat_limits, seat_clock = runtime_terms(bot.entry, limits, plan.clock)

            def factory(bot: packaging.StagedBot = bot, tree: Path | None = tree, limits: Any = seat_limits,
                        index: int = index) -> Any:
                # LADDER_BOT=1: bots.sdk moves the protocol off fd 1 at import, so stray prints
                # (even at import time) go to the log instead of breaking the protocol
                data_env = folders.env(index) if folders is not None else {}
                return BotProcess.start(
                    bot.command, bot.path, mode=mode, limits=limits,
                    extra_ro_binds={SDK_MOUNT: sdk}, env={"PYTHONPATH": SDK_MOUNT, "LADDER_BOT": "1", **data_env},
                    table=table, view=tree, rw_binds=folders.binds(index) if folders is not None else None,
                )

            processes[index] = (factory, seat_clock)
        # one per match: each event is encoded once for every seat
        sitting = Table(plan, env, mode, protocol.EventLines(), void, processes)
        for index in range(len(plan.seats)):
            seat = seat_for(index, sitting)  # the class of the seat's kind (workers/match/seats/)
            seats.append(seat)
            try:
                seat.start()
            except blame.LadderFault as fault:
                fault.seat = index
                void.fault = void.fault or fault  # the seats started already hear the match is void
                raise
        phases.lap("start", seats)

        def route(entry: dict[str, Any]) -> None:
            if "fault" in entry:
                seats[entry["seat"]].refused(entry)
            if env.on_entry is not None:
                env.on_entry(entry)

        played = play_game(game, seats, seed=plan.seed, options=plan.options, checked=True, names=names, sandbox=mode,
                           on_entry=route, seed_key=plan.seed_key if plan.seed_key is not None
                           else secrets.token_bytes(16))
        phases.lap("play", seats)
        if void.fault is not None:
            raise void.fault
        killed = blame.table_killed(_seat_ends(seats))  # the whole table killed from outside: void
        if killed is not None:
            raise killed
        forfeited = [i for i, s in enumerate(seats) if s.takeover is not None or played.seats[i].forfeit]
        final = results_of(played.state, names, forfeited)  # a takeover forfeits too
        results = tuple(
            {"seat": r.seat, "bot": r.bot, "score": r.score, "rank": r.rank, "status": s.status, "reason": s.reason}
            for r, s in zip(final, seats, strict=True)
        )
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
                    collected = folders.collect([seat.run for seat in seats])
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
    phases.lap("replay")
    return MatchRecord(plan, mode, results, replay, tuple(bot and bot.build_key for bot in staged), collected,
                       tuple(seat.run for seat in seats))


def _seat_ends(seats: Sequence[Any]) -> list[blame.SeatEnd]:
    """What blame.table_killed judges, per seat, from its run record: only our own processes count
    (a seat played from outside or by a person has no record, and no signal of ours reaches it)."""
    return [blame.SeatEnd(process=seat.run is not None, fault=seat.takeover and seat.takeover.code,
                          signal=seat.run.signal if seat.run is not None else None,
                          events=seat.run.events if seat.run is not None else {}) for seat in seats]
