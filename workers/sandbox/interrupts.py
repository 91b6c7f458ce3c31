"""Stop signals during a match: the match is torn down whole, never cut in half.

SIGINT (Ctrl-C) and SIGTERM (a worker told to stop) arrive at any point of a match. Python's own
handlers raise there (KeyboardInterrupt; billiard's pool processes raise SystemExit), so before this
module a signal could land inside BotProcess.close() and leave its bots frozen and their cgroups
behind, or between a sandbox's fork and the bookkeeping that lets close() find it.

`catching()` (around one match, in the main thread) puts a handler in their place that raises
`Interrupted`, a BaseException so no `except Exception` of the play loop mistakes it for a bot's
crash, except inside `deferred()` sections (starting and tearing down a sandbox), which finish
first and raise it on their way out. Once the match is torn down, `catching()` hands the signal to
the handler that was there before, so callers see what they always saw (KeyboardInterrupt,
SystemExit, or the default action), only later and with nothing of the match left running.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

SIGNALS = (signal.SIGINT, signal.SIGTERM)

_depth = 0  # deferred() sections open in the main thread
_stop: int | None = None  # the stop signal that arrived during the current match (stays set)
_owed = False  # it arrived inside a deferred() section: raised when the last one closes
_active = False  # catching() is in force


class Interrupted(BaseException):
    """A stop signal arrived during a match; raised where it is safe to unwind."""

    def __init__(self, signum: int):
        super().__init__(f"interrupted by {signal.Signals(signum).name}")
        self.signum = signum


def _handler(signum: int, _frame: object) -> None:
    global _stop, _owed
    _stop = signum
    if _depth:
        _owed = True
    else:
        raise Interrupted(signum)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """A section no stop signal may cut (sandbox start and teardown). Nests; other threads pass."""
    global _depth, _owed
    if not _main_thread():
        yield
        return
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
    if _owed and _depth == 0 and _stop is not None:  # not reached while an exception unwinds
        _owed = False
        raise Interrupted(_stop)


@contextlib.contextmanager
def catching() -> Iterator[None]:
    """Around one match in the main thread: a stop signal raises Interrupted where it is safe, and
    is handed on to the previous handler once the block has unwound. Elsewhere: does nothing."""
    global _active, _stop, _owed
    if not _main_thread() or _active:
        yield
        return
    previous = {}
    for sig in SIGNALS:
        handler = signal.getsignal(sig)
        if handler is not signal.SIG_IGN and handler is not None:  # an ignored signal stays ignored
            previous[sig] = handler
            signal.signal(sig, _handler)
    _active, _stop, _owed = True, None, False
    try:
        yield
    except Interrupted as exc:
        _restore(previous)
        _pass_on(exc.signum, previous.get(exc.signum))
        raise  # a previous handler that returned: the match is over all the same
    finally:
        _restore(previous)
        _active, _stop, _owed = False, None, False


def _restore(previous: dict) -> None:
    for sig, handler in previous.items():
        if signal.getsignal(sig) is _handler:  # not what a handler we passed the signal on to set
            signal.signal(sig, handler)


def _pass_on(signum: int, handler: object) -> None:
    """What the signal would have done without us, now that the match is torn down."""
    if callable(handler):
        handler(signum, None)  # KeyboardInterrupt, billiard's SystemExit, ...
    elif handler == signal.SIG_DFL:
        signal.raise_signal(signum)  # the default action (SIGTERM ends the process)
