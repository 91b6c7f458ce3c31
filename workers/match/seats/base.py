"""What every seat of a match is to `ladder.play.play_game` and to the runner, written once.

A seat answers the play loop's three calls (`setup`, `on_event`, `decide`) and the runner's
(`start`, `refused`, `send_end`, `wait_exit`, `close`, `completed`). This class keeps what all
kinds share: the strikes (a refused answer is told and counted; the `strikes`-th hands the seat
over), the takeover (the game's fallback bot, caught up on every event seen, plays the seat for
the rest of the game, which then forfeits), and the void (once the ladder failed,
workers/match/blame.py, every seat hands over at once and the game runs out in process). A kind
of seat says how it asks (`_ask`), how it is told of a strike (`_tell_refused`), what it does when
it is taken over (`_let_go`) and what the replay keeps of it (`_run`).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from bots import load_builtin, reference_bot
from ladder.games.base import Game
from ladder.play import BotFault, fresh_json
from ladder.replay import SandboxRun, SeatRecord
from workers.match import blame, protocol
from workers.match.protocol import Fault

log = logging.getLogger(__name__)


class MatchVoid:
    """Shared by the seats of one match: once the ladder failed (workers.match.blame) the match is void,
    every seat hands its bot to the fallback, the game runs out in process, the runner raises."""

    def __init__(self) -> None:
        self.fault: blame.LadderFault | None = None


class Seat:
    """One seat of a match (see the module's doc); `game` is the Game object or its name."""

    wire = True  # play_game may hand it the engine's values: it only serialises them (or copies)
    run: Any = None  # what the seat's process reported when it ended (workers/sandbox/record.py), if any

    def __init__(self, name: str, game: Game | str, *, strikes: int = protocol.STRIKES,
                 void: MatchVoid | None = None, final_attempt: bool = True):
        self.name, self.game, self.max_strikes = name, game, strikes  # the fallback is found through the game
        self.void = void or MatchVoid()
        self.final_attempt = final_attempt  # whether an uncertain ladder fault stands as the bot's
        self.hello: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []  # everything seen, so a fallback can catch up
        self.request_id = 0
        self.kind: str | None = None
        self.raised: Fault | None = None  # the strike decide() raised for the current request
        self.strikes: list[dict[str, Any]] = []
        self.takeover: Fault | None = None
        self.takeover_at: int | None = None  # request id (0: before the first request)
        self.fallback: Any = None
        self.timings: list[list[float]] = []  # [wall ms, cpu ms] per answered request

    # --- the play loop's calls ---------------------------------------------------------------

    def setup(self, hello: dict[str, Any]) -> None:
        self.hello = dict(hello)
        if not self._voided():
            self._greet(self.hello)

    def on_event(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        if self.fallback is not None or self._voided():
            self.fallback.on_event(fresh_json(event))
        elif self.takeover is None:
            self._queue_event(event)

    def decide(self, kind: str, observation: dict[str, Any]) -> Any:
        if self.fallback is not None or self._voided():
            return self.fallback.decide(kind, fresh_json(observation))
        self.request_id += 1
        self.kind, self.raised = kind, None
        return self._ask(self.request_id, kind, observation)

    def refused(self, entry: dict[str, Any]) -> None:
        """play_game replaced this seat's answer by `entry["decision"]` (the default): a strike."""
        if self.takeover is not None:
            return  # the takeover fault itself, or the fallback's own mistake: nobody to tell
        fault = self.raised or Fault("illegal", str(entry["fault"].get("reason")))
        rid = self.request_id
        self.strikes.append({"request": rid, "kind": self.kind, "code": fault.code, "reason": fault.reason})
        self._tell_refused(rid, fault, entry["decision"])
        if len(self.strikes) >= self.max_strikes:
            self._take_over(Fault(fault.code, f"{len(self.strikes)} strikes, the last: {fault.reason}"))

    # --- faults and takeover -----------------------------------------------------------------

    def _voided(self) -> bool:
        """Whether the match is void: then this seat's bot is handed to the fallback at once."""
        if self.void.fault is None:
            return False
        if self.takeover is None:
            self._take_over(Fault("error", f"the match is void: {self.void.fault.reason}"), voided=True)
        return True

    def _fail(self, fault: Fault) -> None:
        self._take_over(fault)
        raise BotFault(fault.status, fault.reason, forfeit=True)

    def _take_over(self, fault: Fault, *, voided: bool = False) -> None:
        if not voided:
            log.info("seat %s: the fallback takes the seat: %s", self.name, fault.reason)
        self.takeover, self.takeover_at = fault, self.request_id
        self._let_go(fault, voided)
        bot = load_builtin(self.game, reference_bot(self.game))()
        bot.setup(self.hello)
        for event in self.events:
            bot.on_event(fresh_json(event))
        self.fallback = bot

    # --- what a kind of seat says ------------------------------------------------------------

    def _greet(self, hello: dict[str, Any]) -> None:
        raise NotImplementedError

    def _queue_event(self, event: dict[str, Any]) -> None:
        raise NotImplementedError

    def _ask(self, request_id: int, kind: str, observation: dict[str, Any]) -> Any:
        raise NotImplementedError

    def _tell_refused(self, request_id: int, fault: Fault, default: Any) -> None:
        raise NotImplementedError

    def _let_go(self, fault: Fault, voided: bool) -> None:
        """The seat is taken over: stop asking whoever played it (`voided`: the match is void)."""

    def _run(self, sandbox: str, takeover: dict[str, Any] | None) -> tuple[SandboxRun, str]:
        """What the replay keeps of this seat's run, and its log."""
        raise NotImplementedError

    # --- the runner's calls ------------------------------------------------------------------

    def start(self) -> None:
        """Before the game: a process is started, an outside program told to begin."""

    def send_end(self, results: list[dict[str, Any]], grace_s: float) -> None:
        pass

    def wait_exit(self, deadline: float) -> None:
        pass

    def close(self) -> None:
        pass

    @property
    def status(self) -> str:
        return "ok" if self.takeover is None else self.takeover.status

    @property
    def reason(self) -> str | None:
        return None if self.takeover is None else f"{self.takeover.code}: {self.takeover.reason}"

    def completed(self, record: SeatRecord, *, forfeit: bool, sandbox: str) -> SeatRecord:
        """play_game's record of this seat as the replay keeps it: its status is the takeover's
        (refused answers alone leave it "ok"), with what the seat saw of its run and its log."""
        takeover = None
        if self.takeover is not None:
            takeover = {"code": self.takeover.code, "reason": self.takeover.reason, "request": self.takeover_at}
        run, stderr = self._run(sandbox, takeover)
        return replace(record, status=self.status, reason=self.reason, forfeit=forfeit, run=run, stderr=stderr)
