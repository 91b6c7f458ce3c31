"""The Python SDK for bot authors.

Subclass `Bot` and write one method per decision kind of your game (docs/protocol.md lists each
game's kinds, e.g. `attack`, `propose`, `vote`, ... or `flip`, `move_spider`).
Each method gets the observation (a dict, see docs/protocol.md) and returns the decision
(a dict). `on_event` receives every event your seat may see. Log with `self.log(...)`:
it goes to stderr, which the ladder keeps for you.

To run a bot as a process (how the ladder runs every bot), end its file with

    if __name__ == "__main__":
        run(MyBot)

`run` speaks docs/protocol.md on stdin/stdout. stdout belongs to the protocol: in a bot process
the ladder starts (it sets LADDER_BOT=1), importing this module moves the protocol to a private
copy of stdout and points file descriptor 1 and `sys.stdout` at stderr, so a stray `print` (even
one at import time, or from a C extension or a child process) lands in the log instead of
corrupting the protocol. Elsewhere (tests, a bot run by hand) `print` goes to stderr while `run`
runs.
"""

from __future__ import annotations

import os
import random
import sys

# Importing typing (and traceback, imported where used) would cost every bot start ~12 million
# instructions each, a tenth of its start-up: annotations only, for type checkers.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO


def _separate_protocol_channel() -> BinaryIO | None:
    """In a ladder bot process: the protocol's own handle on the real stdout, with fd 1 and
    sys.stdout sent to stderr from now on. None elsewhere (nothing is changed then)."""
    if os.environ.get("LADDER_BOT") != "1":
        return None
    sys.stdout.flush()
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # fd 1 is stderr now: writes from C code and child processes too
    sys.stdout = sys.stderr
    return channel


_PROTOCOL_OUT = _separate_protocol_channel()


# The protocol's JSON through CPython's C codec (_json) directly: `import json` compiles the
# regular expressions of its pure-Python fallbacks (and imports re and enum for them), about 26
# million instructions at every bot start, more than the bare interpreter's own 20 million.
# Same results as json.loads and json.dumps(separators=(",", ":")); another Python: json itself.
class _DecoderSettings:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = staticmethod({"NaN": float("nan"), "Infinity": float("inf"),
                                   "-Infinity": float("-inf")}.__getitem__)


def _unserializable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


try:
    import _json

    _scan = _json.make_scanner(_DecoderSettings())
    _markers: dict = {}  # what json.dumps gives its encoder: circular references are a ValueError
    _encode_c = _json.make_encoder(_markers, _unserializable, _json.encode_basestring_ascii, None, ":", ",",
                                   False, False, True)

    def _loads(line: bytes) -> Any:
        text = line.decode().strip()
        try:
            value, end = _scan(text, 0)
        except StopIteration:
            raise ValueError("not JSON") from None
        if end != len(text):
            raise ValueError("extra data after the JSON value")
        return value

    def _dumps(message: Any) -> bytes:
        try:
            return "".join(_encode_c(message, 0)).encode()
        except BaseException:
            _markers.clear()  # a failed encoding leaves its markers behind (json.dumps makes new ones)
            raise
except (ImportError, AttributeError, TypeError):  # not CPython's accelerator: the json module
    import json

    def _loads(line: bytes) -> Any:
        return json.loads(line)

    def _dumps(message: Any) -> bytes:
        return json.dumps(message, separators=(",", ":")).encode()

# An event line as the ladder encodes it (workers/match/protocol.py): read no further when the bot
# keeps Bot.on_event, which ignores events (a quarter of the bytes a seat reads, for most bots).
_EVENT_PREFIX = b'{"type":"event",'


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
    out = stdout if stdout is not None else _PROTOCOL_OUT or sys.stdout.buffer
    saved, sys.stdout = sys.stdout, sys.stderr  # a stray print must not corrupt the protocol
    bot = bot_class()

    def send(message: dict[str, Any]) -> None:
        out.write(_dumps(message) + b"\n")
        out.flush()

    skip_events = getattr(bot_class, "on_event", None) is Bot.on_event
    try:
        for line in inp:
            if skip_events and line.startswith(_EVENT_PREFIX):
                continue
            try:
                message = _loads(line)
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
                if stdin is None and stdout is None and _PROTOCOL_OUT is not None:
                    _exit_quickly_at_exit()
                return
            # any other type is from a newer protocol: ignore it
    finally:
        sys.stdout = saved


def _exit_quickly_at_exit() -> None:
    """A ladder bot process whose match is over: once its script has ended (code after `run` runs,
    as do atexit callbacks registered after this), end the process without the interpreter's final
    clean-up, which costs a starter bot about a sixth of its start's instructions and changes
    nothing the ladder keeps. Only when nothing could need that clean-up: no atexit callback was
    registered before this, no uncaught exception, no file in the bot's data folder still open
    (an unclosed file's buffer is written when the clean-up collects it)."""
    import atexit

    count = getattr(atexit, "_ncallbacks", None)
    if count is None or count() != 0:
        return
    atexit.register(_exit_quickly)


def _exit_quickly() -> None:
    if getattr(sys, "last_value", None) is not None or getattr(sys, "last_exc", None) is not None:
        return  # the script raised: Python's own exit, with its code and traceback
    data = os.environ.get("LADDER_BOT_DATA")
    if data:
        try:
            fds = os.listdir("/proc/self/fd")
        except OSError:  # no /proc: the ordinary exit
            return
        for fd in fds:
            try:
                target = os.readlink(f"/proc/self/fd/{fd}")
            except FileNotFoundError:  # the listing's own descriptor, closed since
                continue
            except OSError:
                return
            if target.startswith(data.rstrip("/") + "/"):
                return
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__, _PROTOCOL_OUT):
        try:  # noqa: SIM105 (contextlib would import functools and collections at every exit)
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    os._exit(0)


def _guarded(bot: Bot, method: Any, *args: Any) -> Any:
    try:
        return method(*args)
    except Exception:
        import traceback

        bot.log(traceback.format_exc())
        return None
