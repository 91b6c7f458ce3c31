"""What SQLite's table copies need in a migration (alembic's batch mode copies a table to change
it). Kept here, outside the revisions, because several share it; it imports nothing of the ladder."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from alembic import op


@contextmanager
def foreign_keys_off(revision: str) -> Iterator[None]:
    """SQLite copies a table and drops the original to alter it; with foreign keys on, that DROP
    deletes by cascade every row that references the table (a copy of `matches` took its seats and
    replays with it) or fails where a reference has no cascade. The pragma only works outside a
    transaction, hence the commits; the check puts back what the copy must not have broken before
    the keys are enforced again. Elsewhere it does nothing."""
    bind = op.get_bind()
    if bind.dialect.name != 'sqlite':
        yield
        return
    bind.commit()
    raw = bind.connection.dbapi_connection
    raw.execute('PRAGMA foreign_keys=OFF')
    try:
        yield
        broken = bind.exec_driver_sql('PRAGMA foreign_key_check').all()
        if broken:
            raise RuntimeError(f'migration {revision} broke foreign keys: {broken[:5]}')
        bind.commit()
    except BaseException:
        bind.rollback()  # the pragma below only takes outside a transaction
        raise
    finally:
        raw.execute('PRAGMA foreign_keys=ON')
