"""What a service refuses, as exceptions a view or task maps to a response (404, 409, 400)."""

from __future__ import annotations


class ServiceError(Exception):
    """Base of every refusal; the message is safe to show to the user."""


class NotFound(ServiceError, LookupError):
    pass


class Conflict(ServiceError):
    """The request clashes with the current state: a taken name, a match already recorded."""


class Invalid(ServiceError, ValueError):
    """The input itself is wrong: a bad name, an unknown game, an oversized upload."""


class Forbidden(ServiceError):
    """The acting user may not do this (someone else's bot)."""


class AlreadyRecorded(Conflict):
    """The match is not running under this claim any more: finished, failed or requeued."""
