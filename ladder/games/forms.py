"""The pieces a game's forms are made of: a person's seat answers a request through a form.

Each game's `view/forms.py` (its `forms` part, ladder/games/base.py) has three functions over the
request a seat got (`observation["request"]`) and the observation around it:

    form(observation) -> Form                       what to ask, with only legal choices offered
    read(observation, values) -> decision           the submitted values as the game's decision,
                                                    or FormError with a message for the person
    fill(observation, decision) -> values           the values a person would submit to make that
                                                    decision (tests read a bot's choice back)

`values` is what a browser posts: field name -> list of strings (a checkbox group posts several).
Reading never trusts a value: a choice is one of the field's own choices, a number is a whole
number in range, and a field that is missing or repeated is refused, so a forged post is refused
here with a clear message before it reaches the worker, where the rules check it once more.
Pure: no I/O, no web framework; the site draws a Form with one template (ladder/web/templates/).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

Values = Mapping[str, Sequence[str]]

RADIO, CHECKBOXES, SELECT, NUMBER = "radio", "checkboxes", "select", "number"


class FormError(ValueError):
    """What is wrong with a submitted form, in words for the person who filled it."""


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True, slots=True)
class Field:
    """One question. `widget`: radio (pick one), checkboxes (pick any), select (pick one from a
    list), number (a whole number from minimum to maximum). `columns` lays radio choices out as a
    grid of that width (a board); `group` names the box a field is drawn in."""

    name: str
    label: str
    widget: str = RADIO
    choices: tuple[Choice, ...] = ()
    minimum: int = 0
    maximum: int = 0
    default: str | None = None
    columns: int = 0
    group: str = ""
    optional: bool = False  # an unanswered radio or select is "" (a checkbox group may always be empty)

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "widget": self.widget, "group": self.group,
                "choices": [{"value": c.value, "label": c.label} for c in self.choices],
                "minimum": self.minimum, "maximum": self.maximum, "default": self.default,
                "columns": self.columns}


@dataclass(frozen=True, slots=True)
class Form:
    kind: str
    title: str
    fields: tuple[Field, ...]
    help: str = ""
    notes: tuple[str, ...] = field(default=())  # what the person should know to decide (a proposal's split)

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "title": self.title, "help": self.help, "notes": list(self.notes),
                "fields": [f.as_json() for f in self.fields]}


def choices(pairs: Iterable[tuple[Any, str]]) -> tuple[Choice, ...]:
    return tuple(Choice(str(value), label) for value, label in pairs)


def _given(values: Values, name: str) -> list[str]:
    got = values.get(name, [])
    if isinstance(got, str):  # a plain dict from a test or a JSON client: one value
        got = [got]
    if not isinstance(got, list | tuple) or not all(isinstance(v, str) for v in got):
        raise FormError(f"{name}: not a form value")
    return list(got)


def one(form: Form, values: Values, name: str) -> str:
    """The one choice made in radio or select field `name` ("" for an optional field left empty)."""
    spec = form.field(name)
    got = _given(values, name)
    if not got or got == [""]:
        if spec.optional:
            return ""
        raise FormError(f"choose {spec.label.lower()}")
    if len(got) > 1:
        raise FormError(f"{spec.label}: choose only one")
    allowed = {c.value for c in spec.choices}
    if got[0] not in allowed:
        raise FormError(f"{spec.label}: {got[0]!r} is not one of the choices")
    return got[0]


def some(form: Form, values: Values, name: str) -> list[str]:
    """The choices ticked in checkbox group `name`, in the form's order, each at most once."""
    spec = form.field(name)
    got = _given(values, name)
    allowed = [c.value for c in spec.choices]
    unknown = [v for v in got if v not in allowed]
    if unknown:
        raise FormError(f"{spec.label}: {unknown[0]!r} is not one of the choices")
    if len(set(got)) != len(got):
        raise FormError(f"{spec.label}: a choice is ticked twice")
    return [v for v in allowed if v in got]


def whole(form: Form, values: Values, name: str) -> int:
    """The whole number in number field `name` (empty counts as the minimum)."""
    spec = form.field(name)
    got = _given(values, name)
    if len(got) > 1:
        raise FormError(f"{spec.label}: one number only")
    text = got[0].strip() if got else ""
    if text == "":
        return spec.minimum
    if not (text.isascii() and text.isdigit()) or len(text) > 6:
        raise FormError(f"{spec.label}: {text!r} is not a whole number")
    number = int(text)
    if not spec.minimum <= number <= spec.maximum:
        raise FormError(f"{spec.label}: {number} is not between {spec.minimum} and {spec.maximum}")
    return number


def request_of(observation: Mapping[str, Any]) -> dict[str, Any]:
    request = observation.get("request")
    if not isinstance(request, dict) or not isinstance(request.get("kind"), str):
        raise FormError("there is no decision to make now")
    return request


# The names at the table while a form is drawn (`named`): the page says "greedy", not "seat 2".
# Labels only: a form's values stay seat numbers, so reading an answer never depends on names.
_NAMES: ContextVar[Sequence[str]] = ContextVar("form_names", default=())


@contextmanager
def named(names: Sequence[str]) -> Iterator[None]:
    """Draw forms inside this block with the seats' names (seat order) in their labels."""
    token = _NAMES.set(tuple(names))
    try:
        yield
    finally:
        _NAMES.reset(token)


def seat_label(seat: int, me: int) -> str:
    names = _NAMES.get()
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"
    return f"{name} (you)" if seat == me else name


def sight(observation: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What the seat may see now, as (label, text) rows: every entry of its observation but the
    request, each as compact text. A game's forms module may draw its own (`sight` there)."""
    rows = []
    for key, value in observation.items():
        if key == "request":
            continue
        rows.append((key.replace("_", " "), _text(value)))
    return rows


def _text(value: Any, depth: int = 0) -> str:
    if isinstance(value, dict):
        if "colour" in value and "id" in value and len(value) == 2:  # a token
            return f"{value['colour']}"
        inner = ", ".join(f"{k}: {_text(v, depth + 1)}" for k, v in value.items())
        return inner if depth == 0 else "{" + inner + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v, depth + 1) for v in value) + "]" if depth else \
            ", ".join(_text(v, depth + 1) for v in value) or "none"
    if value is None:
        return "none"
    return str(value)
