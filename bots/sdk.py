"""The Python SDK for bot authors.

Subclass `Bot` and write one method per decision kind of your game (for Drachengold:
`attack`, `magic`, `propose`, `vote`, `theft_victim`, `theft_pick`, `market_offer`,
`market_answer`, `divide`, `choose`; for Treasure of the Dragons: `flip`, `move_spider`; for
DragonFlame: `play`, `spy`, `attack`, `flame`).
Each method gets the observation (a dict, see docs/protocol.md) and returns the decision
(a dict). `on_event` receives every event your seat may see. Log with `self.log(...)`:
it goes to stderr, which the ladder keeps for you.

To run a bot as a process (how the ladder runs every bot), end its file with

    if __name__ == "__main__":
        run(MyBot)

`run` speaks docs/protocol.md on stdin/stdout. While it runs, `print` goes to stderr: stdout
belongs to the protocol.
"""

from __future__ import annotations

import json
import random
import sys

# Importing typing (and traceback, imported where used) would cost every bot start ~12 million
# instructions each, a tenth of its start-up: annotations only, for type checkers.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO


class Bot:
    def __init__(self) -> None:
        self.seat: int = 0
        self.num_players: int = 0
        self.options: dict[str, Any] = {}
        self.game: str = ""
        self.rng = random.Random()

    def setup(self, hello: dict[str, Any]) -> None:
        """Called once with the handshake: game, seat, players, options, seed."""
        self.game = hello.get("game", "")
        self.seat = int(hello.get("seat", 0))
        self.num_players = int(hello.get("players", 0))
        self.options = dict(hello.get("options") or {})
        # Seeding from the bot seed keeps games reproducible (in-process hellos carry it as seed too).
        seed = hello.get("bot_seed", hello.get("seed", 0))
        self.rng = random.Random(f"{seed}:{self.seat}:{type(self).__name__}")

    def on_event(self, event: dict[str, Any]) -> None:
        """Every event this seat may see, in order. Override to remember the game."""

    def decide(self, kind: str, observation: dict[str, Any]) -> dict[str, Any]:
        method = getattr(self, kind, None)
        if method is None:
            raise NotImplementedError(f"{type(self).__name__} has no method for decision kind {kind!r}")
        return method(observation)

    def on_error(self, message: dict[str, Any]) -> None:
        """The ladder refused an answer (code, reason, and the default it played instead)."""
        self.log(f"answer to request {message.get('id')} refused ({message.get('code')}): {message.get('reason')}")

    def on_end(self, message: dict[str, Any]) -> None:
        """The game is over: `results` for every seat, `you` is this seat."""

    def log(self, *parts: Any) -> None:
        print(*parts, file=sys.stderr, flush=True)


def run(bot_class: type[Bot], stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
    """Play one game over the protocol: hello -> ready, events, requests -> answers, until end."""
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    saved, sys.stdout = sys.stdout, sys.stderr  # a stray print must not corrupt the protocol
    bot = bot_class()

    def send(message: dict[str, Any]) -> None:
        out.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        out.flush()

    try:
        for line in inp:
            try:
                message = json.loads(line)
            except ValueError:
                bot.log(f"ignored a line that is not JSON: {line[:80]!r}")
                continue
            kind = message.get("type") if isinstance(message, dict) else None
            if kind == "hello":
                bot.setup(message)
                send({"type": "ready", "name": bot_class.__name__})
            elif kind == "event":
                _guarded(bot, bot.on_event, message.get("event") or {})
            elif kind == "request":
                decision = _guarded(bot, bot.decide, message.get("kind"), message.get("observation") or {})
                # On a bug in the bot: answer {} (often refused, never a crash) and log why above.
                send({"id": message.get("id"), "decision": decision if isinstance(decision, dict) else {}})
            elif kind == "error":
                _guarded(bot, bot.on_error, message)
            elif kind == "end":
                _guarded(bot, bot.on_end, message)
                return
            # any other type is from a newer protocol: ignore it
    finally:
        sys.stdout = saved


def _guarded(bot: Bot, method: Any, *args: Any) -> Any:
    try:
        return method(*args)
    except Exception:
        import traceback

        bot.log(traceback.format_exc())
        return None
