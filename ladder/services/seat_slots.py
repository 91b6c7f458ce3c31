"""Remote seats' live connections, shared by every web process (table `seat_connections`).

The rules (docs/remote.md): one live connection per seat, a newer one replacing it; at most
`per_user` connections of one user and `per_address` from one address at once. They are kept in
the database, not in a process's memory, so they hold however many web processes (or hosts) serve
the seats: a client cannot get past a limit by landing on another process, and a connection made
on one process replaces one held by another.

Each row is held for a lease: a websocket's handler renews it while the connection lives, an HTTP
client's every poll renews it. A row past its lease is nobody's (its process crashed, its client
stopped polling): it no longer counts and the next `take` deletes it, so no slot is held forever.

Each call is one short transaction of its own on the engine (no request's session is involved: a
websocket holds none through a match). Takes are serialised (SQLite: BEGIN IMMEDIATE; PostgreSQL:
a transaction-level advisory lock), so two processes cannot both count a free place and both take it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import sqlalchemy as sa

from ladder.models import SeatConnection, utcnow

LOCK_KEY = 26_013  # pg_advisory_xact_lock's key for takes: any constant no other code uses


@dataclass(frozen=True, slots=True)
class Taken:
    refusal: str | None  # why the connection is refused (then nothing was taken)
    replaced: str | None  # the id of the connection this one replaces on the seat, if any


class SeatSlots:
    def __init__(self, engine: Any, per_user: int, per_address: int):
        self.engine, self.per_user, self.per_address = engine, per_user, per_address
        self.table = SeatConnection.__table__

    def _begin(self):
        return self.engine.connect().execution_options(sqlite_begin="IMMEDIATE")

    def take(self, key: tuple[int, int], *, conn: str, user_id: int, address: str, transport: str,
             lease_s: float) -> Taken:
        """Hold seat `key` for connection `conn` for `lease_s` seconds, within the limits; the
        connection the seat had (if live) is replaced, and its id returned so its holder is told."""
        t, now = self.table, utcnow()
        match_id, seat = key
        address = (address or "?")[:64]
        with self._begin() as c, c.begin():
            if c.dialect.name == "postgresql":
                c.execute(sa.select(sa.func.pg_advisory_xact_lock(LOCK_KEY)))
            c.execute(t.delete().where(t.c.expires_at < now))
            old = c.execute(sa.select(t.c.conn).where(t.c.match_id == match_id, t.c.seat == seat)).scalar()
            values = {"conn": conn, "user_id": user_id, "address": address, "transport": transport,
                      "expires_at": now + timedelta(seconds=lease_s)}
            if old is not None:  # the old connection's place passes to the new one
                c.execute(t.update().where(t.c.match_id == match_id, t.c.seat == seat).values(**values))
                return Taken(None, old if old != conn else None)
            users = c.execute(sa.select(sa.func.count()).select_from(t).where(t.c.user_id == user_id)).scalar()
            if users >= self.per_user:
                return Taken(f"you have {self.per_user} programs connected, the most allowed at once", None)
            addresses = c.execute(sa.select(sa.func.count()).select_from(t).where(t.c.address == address)).scalar()
            if addresses >= self.per_address:
                return Taken(f"{self.per_address} programs are connected from your address, the most allowed at once",
                             None)
            c.execute(t.insert().values(match_id=match_id, seat=seat, **values))
            return Taken(None, None)

    def renew(self, key: tuple[int, int], conn: str, lease_s: float) -> bool:
        """Extend `conn`'s lease; False when the seat is no longer its own (replaced, or expired
        and taken): its holder then ends it."""
        t = self.table
        with self._begin() as c, c.begin():
            done = c.execute(t.update().where(t.c.match_id == key[0], t.c.seat == key[1], t.c.conn == conn)
                             .values(expires_at=utcnow() + timedelta(seconds=lease_s)))
            return done.rowcount == 1

    def holder(self, key: tuple[int, int]) -> str | None:
        """The seat's live connection now (None: none, or only an expired one)."""
        t = self.table
        with self.engine.connect() as c:
            return c.execute(sa.select(t.c.conn).where(t.c.match_id == key[0], t.c.seat == key[1],
                                                       t.c.expires_at >= utcnow())).scalar()

    def give_back(self, key: tuple[int, int], conn: str) -> bool:
        """Release `conn`'s place; False when it had been replaced already."""
        t = self.table
        with self._begin() as c, c.begin():
            done = c.execute(t.delete().where(t.c.match_id == key[0], t.c.seat == key[1], t.c.conn == conn))
            return done.rowcount == 1
