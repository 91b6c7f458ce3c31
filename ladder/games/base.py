"""The interface every game on the ladder implements.

Shape borrowed from OpenSpiel: a `Game` builds a `State`; the state says whose decision is
pending and of which kind, what each seat may observe, whether a decision is legal (with a
reason when it is not), applies it, and says when the game is over and how it scored.

Rules are pure: no I/O, no clock, no global random. The only randomness is `State.rng`, one
`random.Random` seeded from the game's seed, so the same seed and the same decisions give the
same game, event for event.

Decisions, observations and event payloads are plain JSON values (dicts, lists, str, int,
bool, None): they cross the bot protocol and are stored in replays unchanged.
"""

from __future__ import annotations

import importlib
import importlib.resources
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar

JSON = Any


class IllegalDecision(ValueError):
    """A decision the rules do not allow; the message says why."""


class OptionError(ValueError):
    """An unknown option or a value outside what the option allows."""


@dataclass(frozen=True, slots=True)
class Pending:
    """The one decision the game is waiting for."""

    seat: int
    kind: str


_NO_DATA: Any = object()  # Event's `data` when none is given: a fresh dict, as field(default_factory=dict)


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """Something that happened. `to` lists the seats that may see it; None means everyone.

    Private information is never put into a public event: a game emits a public event without
    the secret and a second event, addressed to the seats allowed to know it, carrying it.
    """

    type: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    to: tuple[int, ...] | None = None

    def __init__(self, type: str, data: Mapping[str, JSON] = _NO_DATA, to: tuple[int, ...] | None = None) -> None:
        # The generated frozen __init__ stores each field through object.__setattr__, a generic
        # attribute lookup per field: the slots' own setters (below) store the same values at
        # about half the cost of the whole construction (a game makes one or two events a decision).
        _set_type(self, type)
        _set_data(self, {} if data is _NO_DATA else data)
        _set_to(self, to)

    def visible_to(self, seat: int) -> bool:
        return self.to is None or seat in self.to

    def as_json(self) -> dict[str, JSON]:
        return {"type": self.type, "data": dict(self.data), "to": None if self.to is None else list(self.to)}

    @classmethod
    def from_json(cls, event: Mapping[str, JSON]) -> Event:
        """The inverse of `as_json`: how a forward model puts the events a seat saw into a sample."""
        to = event.get("to")
        return cls(event["type"], dict(event.get("data") or {}), None if to is None else tuple(to))


# The slots' setters Event.__init__ stores through: they bypass the frozen __setattr__, as the
# generated __init__'s object.__setattr__ did, so nothing else can change an event after it is made.
_set_type, _set_data, _set_to = Event.type.__set__, Event.data.__set__, Event.to.__set__  # type: ignore[attr-defined]


class EventFields:
    """Event's slots, in its layout, without its frozen __setattr__: a game that makes events on its
    hot path fills one with plain stores and then makes it the Event by assigning its __class__,
    which Python allows between two classes of the same slots. Calling Event(...) costs a call of
    the class, of its __init__ from C and of a slot setter per field: about twice the work, and a
    game emits one or two events a decision. After the assignment the object is an Event like any
    other, as frozen as one the constructor made."""

    __slots__ = Event.__slots__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Option:
    """One game option: its default and either a set of choices or an integer range."""

    default: JSON
    choices: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def parse(self, name: str, value: JSON) -> JSON:
        if self.choices is not None:
            if value not in self.choices:
                raise OptionError(f"option {name}={value!r}: choose one of {', '.join(self.choices)}")
            return value
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise OptionError(f"option {name}={value!r}: expected a whole number") from None
        if isinstance(value, bool) or (isinstance(value, str) and value.strip() != str(number)):
            raise OptionError(f"option {name}={value!r}: expected a whole number")
        if (self.minimum is not None and number < self.minimum) or (
            self.maximum is not None and number > self.maximum
        ):
            raise OptionError(f"option {name}={number}: allowed range is {self.minimum}..{self.maximum}")
        return number


def competition_ranks(keys: Sequence[Any]) -> list[int]:
    """Ranks from keys where larger is better; equal keys share a rank ("1224" ranking)."""
    order = sorted(keys, reverse=True)
    return [order.index(k) + 1 for k in keys]


class State:
    """One game in progress. Subclasses implement the abstract methods below."""

    game: Game
    num_players: int
    options: dict[str, JSON]
    seed: int
    rng: random.Random
    events: list[Event]

    def pending(self) -> Pending | None:
        """The decision the game waits for, or None once the game is over."""
        raise NotImplementedError

    def observation(self, seat: int) -> dict[str, JSON]:
        """Everything `seat` may know now, and nothing more. When `seat` has the pending
        decision, the observation carries a "request" entry describing what to decide.

        A fresh JSON value on every call, sharing nothing with the state: an in-process bot is
        handed it as it is and may change it (tests/games/test_random_play.py checks this)."""
        raise NotImplementedError

    def validate(self, seat: int, decision: JSON) -> str | None:
        """None when `decision` is legal for `seat` now, else a one-line reason."""
        raise NotImplementedError

    def turn_error(self, seat: int, decision: JSON) -> str | None:
        """The checks every game makes first: the game runs, it is `seat`'s turn, and the
        decision is a JSON object (every decision on the wire is one)."""
        pending = self.pending()
        if pending is None:
            return "the game is over"
        if seat != pending.seat:
            return f"it is seat {pending.seat}'s decision ({pending.kind}), not seat {seat}'s"
        if not isinstance(decision, dict):
            return "a decision must be a JSON object"
        return None

    def apply(self, seat: int, decision: JSON) -> None:
        """Apply a decision; raises IllegalDecision (with the reason) when it is not legal.

        Defined here once, so every game validates exactly once per decision and none can
        forget to: games implement `validate` and `_apply`, never `apply`."""
        reason = self.validate(seat, decision)
        if reason is not None:
            raise IllegalDecision(reason)
        self._apply(seat, decision)

    def apply_validated(self, seat: int, decision: JSON) -> None:
        """Apply a decision that `validate` has just accepted (the play loop validates first and
        times the two calls, so it must not pay for a second check)."""
        self._apply(seat, decision)

    def _apply(self, seat: int, decision: JSON) -> None:
        """The game's own move: `decision` is known to be legal for `seat` now."""
        raise NotImplementedError

    def default_decision(self) -> JSON:
        """The documented safe decision for the pending request (used for faulty bots)."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        return self.pending() is None

    def scores(self) -> list[int]:
        raise NotImplementedError

    def ranks(self) -> list[int]:
        """1 is best; equal results share a rank."""
        return competition_ranks(self.scores())

    def breakdown(self) -> list[dict[str, JSON]]:
        """Per seat, how the score was made (for results pages and replays)."""
        raise NotImplementedError


class Game:
    """A game's static description and its state factory."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    # What the ladder needs besides the rules, declared here so that nothing outside the game's
    # package has to know the game (ladder/games/render.py says how the renderer is used):
    preferred_players: ClassVar[int]  # the table size matchmaking aims for, within min..max
    # The house bots' names. Each is one file to copy, bots/<game>/<name>.py, whose bot class is
    # <Name>Bot (bot_module and bot_class derive both, and nothing else does).
    starter_bots: ClassVar[tuple[str, ...]] = ()
    fallback_bot: ClassVar[str] = ""  # the starter bot that plays a forfeited seat; the default opponent
    boss: ClassVar[str] = ""  # the strongest house bot: what `ladder gauntlet` measures by default
    # The starter bots a new version's validation game seats (all of them when empty): the quick,
    # well-worn ones, so validation stays fast and a searching house bot never slows an upload.
    validation_bots: ClassVar[tuple[str, ...]] = ()
    # The leagues' house bots (ladder/ranking/leagues.py): weakest league first, each league's boss first, the
    # last league empty (the open one). () = one flat ladder. Bosses of clearly rising strength,
    # from the house bots' measured tournaments (docs/bots.md).
    leagues: ClassVar[tuple[tuple[str, ...], ...]] = ()
    options: ClassVar[dict[str, Option]] = {}
    decision_kinds: ClassVar[tuple[str, ...]] = ()
    # The game's other parts, each a module of its own package named once here ("" when the game
    # has none). `part()` is the only code that turns such a name into a module, and `bot_module()`
    # the only one that finds a starter bot's module: nothing else looks a game's part up
    # by a naming convention. A part is imported on first use, so the pure rules never pull in a
    # view (a bot's sandbox is given only `rules_files`).
    renderer: ClassVar[str] = ""  # the step list: event_line(), sections(); "" = ladder/games/render.py
    view: ClassVar[str] = ""  # the viewer: frames(replay), stream(heading) (ladder/games/frames.py); "" = none
    forward: ClassVar[str] = ""  # the forward model's determinize(); "" = none
    forms: ClassVar[str] = ""  # a person's seat: form(), read(), fill() (ladder/games/forms.py); "" = none
    # a person's table: frame(observation) -> a viewer frame of what the seat sees, picks(observation),
    # event_line(event, who); "" = the page shows the forms alone
    seat_view: ClassVar[str] = ""
    # negotiation facts for the collusion report: acts(replay JSON) -> (offers, votes) (ladder/ranking/collusion.py)
    negotiations: ClassVar[str] = ""
    # the bot page's scorecard: MEASURES and measure(replay) -> per seat {name: Tally}
    # (ladder/games/scorecard.py says what they are)
    scorecard: ClassVar[str] = ""
    # two colluding bots for `ladder bench collusion`: a module of bots/<game>/ with FeederBot and TakerBot
    sock_puppets: ClassVar[str] = ""
    # The pure rules as a bot's sandbox gets them (module and data files of the package, relative
    # to it): chosen by inclusion, so a page's or a viewer's module never reaches a bot.
    rules_files: ClassVar[tuple[str, ...]] = ()
    # A data file of the package: the preset dictionary a compact stored replay of this game is
    # compressed with (ladder/replay/compact.py), typical decisions' text. Part of that stored
    # format: never edit it (stored rows name it); a new one is a new file. "" = the common one only.
    replay_dictionary: ClassVar[str] = ""

    @classmethod
    def package(cls) -> str:
        """The game's package (the module defining the class, for a one-module game)."""
        return cls.__module__

    def replay_dictionary_bytes(self) -> bytes:
        """The bytes of `replay_dictionary` (b"" when the game has none)."""
        if not self.replay_dictionary:
            return b""
        return importlib.resources.files(self.package()).joinpath(self.replay_dictionary).read_bytes()

    def part(self, name: str) -> ModuleType | None:
        """The module of a declared part (renderer, view, forward, forms, seat_view, negotiations,
        scorecard, sock_puppets), None when undeclared."""
        relative = getattr(type(self), name)
        return _import(f"{self.package()}.{relative}") if relative else None

    def sock_puppet_module(self) -> ModuleType | None:
        """bots/<game>/<sock_puppets>.py (FeederBot, TakerBot), None when the game declares none."""
        return _import(f"bots.{self.name}.{self.sock_puppets}") if self.sock_puppets else None

    def bot_class(self, name: str) -> type:
        """The class of one of the game's starter bots; KeyError with the choices when unknown."""
        return getattr(_import(self.bot_module(name)), f"{name.capitalize()}Bot")

    def bot_module(self, name: str) -> str:
        """The module holding a starter bot, bots.<game>.<name> (its file is the one an author
        copies); KeyError with the choices when the game has no such bot."""
        if name not in self.starter_bots:
            have = ", ".join(sorted(self.starter_bots))
            raise KeyError(f"no built-in bot {name!r} for {self.name} (have: {have})")
        return f"bots.{self.name}.{name}"

    def files(self) -> Any:
        """The game's package folder as an importlib Traversable (schema.json, rules.md, the rule
        files and view/, with view/templates/ and view/static/); None for a one-module game."""
        try:
            root = importlib.resources.files(self.package())
        except (ModuleNotFoundError, TypeError):
            return None
        return root if _is_package(self.package()) else None

    def resolve_options(self, given: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
        """Fill defaults and check every given option; raises OptionError with the reason."""
        given = dict(given or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise OptionError(f"unknown option {unknown[0]!r} for {self.name} (known: {known})")
        return {name: opt.parse(name, given.get(name, opt.default)) for name, opt in self.options.items()}

    def check_players(self, num_players: int) -> None:
        if not self.min_players <= num_players <= self.max_players:
            raise OptionError(
                f"{self.name} takes {self.min_players}-{self.max_players} players, not {num_players}"
            )

    def new_state(self, options: Mapping[str, JSON] | None, seed: int, num_players: int) -> State:
        raise NotImplementedError


def _import(module: str) -> ModuleType:
    return importlib.import_module(module)


def _is_package(module: str) -> bool:
    return hasattr(_import(module), "__path__")
