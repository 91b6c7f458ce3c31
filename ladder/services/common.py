"""Small helpers shared by the service modules."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlmodel import Session, SQLModel

from ladder.db import begin_write
from ladder.services.errors import Conflict, NotFound

T = TypeVar("T", bound=SQLModel)
R = TypeVar("R")
log = logging.getLogger(__name__)
# what a database restart, a dropped connection or a locked SQLite file raises: the same
# transaction may succeed once it is back (pool_pre_ping gives the next one a new connection)
TRANSIENT = (OperationalError, InterfaceError)
UNIT = "ladder.unit_of_work"  # session.info key: service calls join the caller's transaction


@contextmanager
def unit_of_work(session: Session) -> Iterator[None]:
    """Several service calls as ONE write transaction (a use case such as an upload: the bot, its
    version and its validation game are stored together or not at all). Inside, `atomic` only
    flushes; the commit is here, and anything raised rolls every write back."""
    if session.info.get(UNIT):
        yield
        return
    begin_write(session)
    session.info[UNIT] = True
    try:
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.info.pop(UNIT, None)


@contextmanager
def atomic(session: Session, conflict: str | None = None) -> Iterator[None]:
    """The body is one write transaction: begun on entry (see ladder.db.begin_write), committed at
    the end, rolled back if anything raises.

    With `conflict`, a unique-constraint violation (a race with another writer that the checks
    before could not see) becomes a Conflict with that message. Inside `unit_of_work` the body
    joins the caller's transaction: it is flushed here and committed (or rolled back) there.
    """
    if session.info.get(UNIT):
        try:
            yield
            session.flush()
        except IntegrityError:
            if conflict is None:
                raise
            raise Conflict(conflict) from None
        return
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


def expire_loaded(session: Session, model: type, keys: Sequence) -> None:
    """Expire the session's objects of rows just written with Core statements (if it holds any):
    their next read sees the new values, as an ORM write would have left them."""
    if not session.identity_map:
        return
    for key in keys:
        found = session.identity_map.get(session.identity_key(model, key))
        if found is not None:
            session.expire(found)


def retry_transient(session: Session, call: Callable[[], R], *, budget_s: float, first_delay_s: float = 0.25,
                    sleep: Callable[[float], None] = time.sleep,
                    on_retry: Callable[[BaseException], None] | None = None) -> R:
    """call() (one service call: one transaction) again after a transient database error, with
    doubling pauses (at most 8 s), for at most `budget_s` seconds; then the error propagates. The
    call must be safe to repeat: a guarded write that refuses a second commit (record_result)."""
    deadline, delay = time.monotonic() + budget_s, first_delay_s
    while True:
        try:
            return call()
        except TRANSIENT as exc:
            session.rollback()  # the failed transaction (an invalidated connection is given back)
            if time.monotonic() + delay > deadline:
                raise
            log.warning("database error, retried in %.2f s: %s", delay, type(exc).__name__)
            if on_retry is not None:
                on_retry(exc)
            sleep(delay)
            delay = min(delay * 2, 8.0)
