"""The request a game flow yields when it waits for a decision, and where a flow may resume."""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ladder.games.drachengold.rules import market, negotiation, strategic
    from ladder.games.drachengold.rules.magic import TurnEffects


@dataclass(slots=True)
class Request:
    seat: int
    kind: str
    # Returns the reason a decision is illegal, or None.
    check: Callable[[dict[str, Any]], str | None]
    # What the observation's "request" entry shows the deciding seat.
    info: dict[str, Any] = field(default_factory=dict)
    # The documented safe decision, played for a faulty bot.
    default: Any = None
    # When given, the safe decision is default_of(info), made only when asked: a faulty bot is rare,
    # and a request made every turn (the attack's) need not build one each time.
    default_of: Callable[[dict[str, Any]], Any] | None = None


Flow = Generator[Request, Any, Any]


@dataclass(slots=True)
class Resume:
    """Where a determinization (forward.py) joins the turn under way; normal play never makes one.

    The table, hoards and hands are already in the state; this carries what only the running flow
    holds: the card played this turn, which attack of the turn it is, and the progress of the
    phase under way (at most one of `negotiation`, `division`, `theft` and `market` is set)."""

    effects: TurnEffects
    strike: int = 0  # 0: the turn's own attack; 1: Double Strike's, after which the turn ends
    slot: int | None = None  # the dead dragon whose treasure is being shared (its slot on the table)
    seized: dict[int, list[int]] = field(default_factory=dict)  # the lone wizard's rubies (basic rules)
    negotiation: negotiation.Progress | None = None
    division: strategic.Progress | None = None
    theft: tuple[int, int | None] | None = None  # (index of the thief in play order, victim once named)
    market: market.Progress | None = None
