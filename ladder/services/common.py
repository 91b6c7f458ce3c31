"""Small helpers shared by the service modules."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel

from ladder.db import begin_write
from ladder.services.errors import Conflict, NotFound

T = TypeVar("T", bound=SQLModel)


@contextmanager
def atomic(session: Session, conflict: str | None = None) -> Iterator[None]:
    """The body is one write transaction: begun on entry (see ladder.db.begin_write), committed at
    the end, rolled back if anything raises.

    With `conflict`, a unique-constraint violation (a race with another writer that the checks
    before could not see) becomes a Conflict with that message.
    """
    begin_write(session)
    try:
        yield
        session.commit()
    except IntegrityError:
        session.rollback()
        if conflict is None:
            raise
        raise Conflict(conflict) from None
    except BaseException:
        session.rollback()
        raise


def fetch(session: Session, model: type[T], key: object, what: str | None = None) -> T:
    """The row with primary key `key`, or NotFound naming it."""
    row = session.get(model, key)
    if row is None:
        raise NotFound(f"no {what or model.__name__.lower()} {key}")
    return row
