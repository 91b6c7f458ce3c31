"""Bot data (docs/bots.md, "Bot data"): each bot's private folder that persists between its matches.

The folder's versions are zips (ladder/bot/data.py) in `bot_data_versions`; `bot_data` holds the
latest version's number and the last refusal, for the owner. What concurrent matches see and keep:

- a match starts from the latest committed version, or the version its seat was pinned to at queue
  time (events and validation games: reproducible, and they keep nothing);
- a finished match's changes (files created, changed, deleted) are applied file by file onto the
  version that is latest when the result is recorded, inside the result's own transaction
  (services/results.py), so two concurrent matches of one bot both keep their files and neither
  sees half of the other's. The new version is claimed with a compare-and-set on the number: a
  writer that lost the race (an upload beside a result) reads the new latest and applies again;
- a seat that did not finish cleanly (a fault, a forfeit), a voided or failed match, and a folder
  over the cap keep nothing: the previous data stays, and the owner sees why in the note.

Nobody but the owner reads any of it: every owner call raises NotFound for anyone else, so a bot's
data is not even known to exist.

Where the zips live: given a `store` (ladder/storage; the worker's and the web's), a new version is
a blob under a key of its own (`botdata/<bot>/<number>-<random>.zip`, named by the row's `blob`),
written before its row, so a transaction that rolls back leaves only a blob no row names (retention
sweeps those a day later) and never one a committed row shares. Without a store (tools, tests) and
for versions written before the store, the zip is in the row's `data` column; reads take either,
and `move_to_store` moves the old ones in batches.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, select

from ladder.bot.data import BotDataError, Cap, Changes, Collected, Snapshot, apply, read_zip, write_zip
from ladder.models import (
    Bot,
    BotData,
    BotDataVersion,
    EventEntrant,
    Match,
    MatchKind,
    MatchStatus,
    Seat,
    SeatStatus,
    utcnow,
)
from ladder.services.common import atomic
from ladder.services.errors import Conflict, Invalid, NotFound
from ladder.storage import Store, StoreError

PREFIX = "botdata/"

# Stored versions were checked against the cap when they were written; an operator may lower the
# cap since, so they are read back against this bound instead.
STORED = Cap(1 << 30, 100_000)
PINNED_KINDS = (MatchKind.EVENT, MatchKind.VALIDATION)
CAS_TRIES = 20  # compare-and-set rounds before a writer gives up (each lost round means another commit)
EMPTY_ZIP = write_zip({})
_KEEP = object()  # _write's note: leave it as it is


@dataclass(frozen=True, slots=True)
class DataInfo:
    """What the owner sees of the folder."""

    bot_id: int
    version: int
    size: int
    files: int
    updated_at: datetime | None
    note: str | None
    note_at: datetime | None
    cap: Cap


def head_versions(session: Session, bot_ids: Sequence[int]) -> dict[int, int]:
    """The latest version of each bot (0: never written)."""
    rows = session.exec(select(BotData.bot_id, BotData.version).where(BotData.bot_id.in_(list(bot_ids)))).all()
    found = dict(rows)
    return {bot_id: found.get(bot_id, 0) for bot_id in bot_ids}


def pin_for(kind: str, session: Session, bot_ids: Sequence[int]) -> dict[int, int | None]:
    """The data version each seat of a new match is pinned to: the latest now for an event or a
    validation game, None (the latest when it starts) for the rest."""
    if kind not in PINNED_KINDS:
        return dict.fromkeys(bot_ids)
    return dict(head_versions(session, bot_ids))


def _zip_of(row: BotDataVersion, store: Store | None) -> bytes:
    if row.data is not None:
        return row.data
    if store is None:
        raise StoreError(f"bot {row.bot_id}'s data version {row.number} is in the store, and none was given")
    return store.get(row.blob)


def files_of(session: Session, bot_id: int, number: int, store: Store | None = None) -> dict[str, bytes]:
    """The files of one version; version 0 is the empty folder."""
    if number == 0:
        return {}
    row = session.get(BotDataVersion, (bot_id, number))
    if row is None:
        raise NotFound(f"bot {bot_id} has no data version {number}")
    return read_zip(_zip_of(row, store), STORED)


def _stored(bot_id: int, number: int, files: dict[str, bytes], store: Store | None) -> tuple[bytes | None, str | None]:
    """(data, blob) of a new version's row: its zip in the store when there is one, else in the row."""
    data = write_zip(files)
    if store is None:
        return data, None
    blob = f"{PREFIX}{bot_id}/{number}-{secrets.token_hex(8)}.zip"
    store.put(blob, data)
    return None, blob


def move_to_store(*, session: Session, store: Store, batch: int = 50) -> int:
    """Put up to `batch` versions still held in the database into the store (each its own short
    transaction; a version deleted meanwhile leaves an orphan blob, swept by retention)."""
    keys = session.exec(select(BotDataVersion.bot_id, BotDataVersion.number).where(BotDataVersion.data.is_not(None))
                        .order_by(BotDataVersion.bot_id, BotDataVersion.number).limit(batch)).all()
    session.rollback()
    moved = 0
    for bot_id, number in keys:
        data = session.exec(select(BotDataVersion.data).where(BotDataVersion.bot_id == bot_id,
                                                             BotDataVersion.number == number)).first()
        session.rollback()
        if data is None:
            continue
        blob = f"{PREFIX}{bot_id}/{number}-{secrets.token_hex(8)}.zip"
        store.put(blob, data)
        with atomic(session):
            moved += session.exec(update(BotDataVersion).where(
                BotDataVersion.bot_id == bot_id, BotDataVersion.number == number, BotDataVersion.data.is_not(None))
                .values(data=None, blob=blob).execution_options(synchronize_session=False)).rowcount
    return moved


def snapshots(session: Session, match_id: int, store: Store | None = None) -> list[Snapshot]:
    """What each seat of a match starts from, in seat order (the worker stages these)."""
    seats = session.exec(select(Seat.bot_id, Seat.data_version).where(Seat.match_id == match_id)
                         .order_by(Seat.seat)).all()
    heads = head_versions(session, [bot_id for bot_id, _ in seats])
    out = []
    for bot_id, pinned in seats:
        number = heads[bot_id] if pinned is None else pinned
        try:
            files = files_of(session, bot_id, number, store)
        except NotFound:  # a pin whose version is gone (it never should be: _prune keeps pins)
            number, files = heads[bot_id], files_of(session, bot_id, heads[bot_id], store)
        out.append(Snapshot(number, files, keep=pinned is None))
    return out


def _ensure_head(session: Session, bot_id: int, now: datetime) -> None:
    """The bot's `bot_data` row exists (version 0 if new). An INSERT that does nothing on a
    conflict: two first writers do not fail each other, and on SQLite it takes the write lock first."""
    dialect = session.get_bind().dialect.name
    insert = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}[dialect]
    session.exec(insert(BotData).values(bot_id=bot_id, version=0, updated_at=now)
                 .on_conflict_do_nothing(index_elements=["bot_id"]))


def _write(session: Session, bot_id: int, change: Callable[[dict[str, bytes]], dict[str, bytes]], cap: Cap,
           source: str, now: datetime, note: object = _KEEP, store: Store | None = None) -> int:
    """Write a new version made by `change(latest files)`, inside the caller's transaction, and
    return its number. The number is claimed by compare-and-set: when another writer committed
    first, its version is read and `change` applied again to it. BotDataError when the result
    is over `cap` (nothing written). `note`, when given, replaces the owner's note."""
    _ensure_head(session, bot_id, now)
    for _ in range(CAS_TRIES):
        latest = session.exec(select(BotData.version).where(BotData.bot_id == bot_id)
                              .execution_options(populate_existing=True)).one()
        files = change(files_of(session, bot_id, latest, store))
        cap.check(files)
        values: dict[str, object] = {"version": latest + 1, "updated_at": now}
        if note is not _KEEP:
            values.update(note=note, note_at=now if note else None)
        claimed = session.exec(
            update(BotData).where(BotData.bot_id == bot_id, BotData.version == latest).values(**values)
            .execution_options(synchronize_session=False)
        ).rowcount
        if claimed == 1:
            data, blob = _stored(bot_id, latest + 1, files, store)  # the blob before the row
            session.add(BotDataVersion(bot_id=bot_id, number=latest + 1, data=data, blob=blob,
                                       size=sum(map(len, files.values())), files=len(files), source=source[:64],
                                       created_at=now))
            session.flush()
            _prune(session, bot_id, latest + 1)
            return latest + 1
    raise Conflict("the bot's data changed too often at once to be written; try again")


def _prune(session: Session, bot_id: int, latest: int) -> None:
    """Delete the versions nobody needs: not the latest two (a pin being taken as this commits
    still finds its version), nor any version a queued or running seat or an event is pinned to."""
    seat_pins = (select(Seat.data_version).join(Match, Match.id == Seat.match_id)
                 .where(Seat.bot_id == bot_id, Seat.data_version.is_not(None),
                        Match.status.in_((MatchStatus.QUEUED, MatchStatus.RUNNING))))
    event_pins = select(EventEntrant.data_version).where(EventEntrant.bot_id == bot_id,
                                                         EventEntrant.data_version.is_not(None))
    stale = session.exec(select(BotDataVersion.number).where(
        BotDataVersion.bot_id == bot_id, BotDataVersion.number < latest - 1,
        BotDataVersion.number.not_in(seat_pins), BotDataVersion.number.not_in(event_pins))).all()
    for number in stale:
        session.delete(session.get(BotDataVersion, (bot_id, number)))


def _set_note(session: Session, bot_id: int, note: str, now: datetime) -> None:
    _ensure_head(session, bot_id, now)
    session.exec(update(BotData).where(BotData.bot_id == bot_id).values(note=note[:2000], note_at=now)
                 .execution_options(synchronize_session=False))


def record_match_data(session: Session, match: Match, seats: Sequence[Seat],
                      collected: Sequence[Collected | None] | None, cap: Cap, now: datetime,
                      store: Store | None = None) -> dict[int, int]:
    """Keep each seat's changes, inside record_result's transaction: only a clean seat of a match
    that finished, not pinned; anything else keeps nothing and, where the bot had tried to write,
    says why in the owner's note. Returns {seat: new version}."""
    written: dict[int, int] = {}
    if not collected:
        return written
    for seat, got in zip(seats, collected, strict=False):
        if got is None or seat.data_version is not None:
            continue  # no data staged (an old worker) or pinned: an event's data is read-only
        where = f"match {match.id}"
        if got.refused is not None:
            _set_note(session, seat.bot_id, f"{where}: nothing kept: {got.refused}; the previous data stays", now)
            continue
        if got.changes is None or not got.changes:
            continue
        if match.status != MatchStatus.FINISHED or seat.status != SeatStatus.OK or seat.forfeited:
            why = seat.reason or seat.status or match.status
            _set_note(session, seat.bot_id, f"{where}: nothing kept, the seat did not finish cleanly ({why})", now)
            continue
        changes = got.changes
        try:
            written[seat.seat] = _write(session, seat.bot_id, lambda files, c=changes: apply(files, c), cap,
                                        where, now, store=store)
        except BotDataError as exc:  # the latest plus this match's changes: over the cap
            _set_note(session, seat.bot_id, f"{where}: nothing kept: {exc}; the previous data stays", now)
    return written


# --- the owner's calls ---------------------------------------------------------------------------


def _owned(session: Session, bot_id: int, user_id: int | None) -> Bot:
    """The bot, for its owner; NotFound for anyone else (the data's existence is the owner's too)."""
    bot = session.get(Bot, bot_id)
    if bot is None or user_id is None or bot.owner_id != user_id:
        raise NotFound(f"no bot {bot_id}")
    return bot


def info(*, session: Session, bot_id: int, user_id: int | None, cap: Cap) -> DataInfo:
    _owned(session, bot_id, user_id)
    row = session.get(BotData, bot_id)
    version = row.version if row is not None else 0
    stored = session.get(BotDataVersion, (bot_id, version)) if version else None
    return DataInfo(bot_id, version, stored.size if stored else 0, stored.files if stored else 0,
                    row.updated_at if row is not None else None, row.note if row is not None else None,
                    row.note_at if row is not None else None, cap)


def download(*, session: Session, bot_id: int, user_id: int | None, store: Store | None = None) -> tuple[int, bytes]:
    """(version, zip) of the latest data."""
    _owned(session, bot_id, user_id)
    row = session.get(BotData, bot_id)
    if row is None or row.version == 0:
        return 0, EMPTY_ZIP
    return row.version, _zip_of(session.get(BotDataVersion, (bot_id, row.version)), store)


def replace(*, session: Session, bot_id: int, user_id: int | None, data: bytes, cap: Cap,
            now: datetime | None = None, store: Store | None = None) -> int:
    """The owner's zip becomes the new latest version (checked whole first: on bad input, an
    Invalid that says what is wrong, and nothing written). Returns the version."""
    _owned(session, bot_id, user_id)
    try:
        files = read_zip(data, cap)
    except BotDataError as exc:
        raise Invalid(f"bot data refused: {exc}") from None
    with atomic(session):
        return _write(session, bot_id, lambda _latest: files, cap, "upload", now or utcnow(), note=None, store=store)


def reset(*, session: Session, bot_id: int, user_id: int | None, cap: Cap, now: datetime | None = None,
          store: Store | None = None) -> int:
    """An empty folder as the new latest version (the old ones stay while pinned)."""
    _owned(session, bot_id, user_id)
    with atomic(session):
        return _write(session, bot_id, lambda _latest: {}, cap, "reset", now or utcnow(), note=None, store=store)


def changes_version(session: Session, bot_id: int, changes: Changes | Mapping[str, bytes], cap: Cap,
                    source: str = "test", now: datetime | None = None, store: Store | None = None) -> int:
    """Apply `changes` onto the latest version in one transaction (what a match's commit does,
    without a match: the bench and the tests' concurrent writers)."""
    if not isinstance(changes, Changes):
        changes = Changes(dict(changes))
    with atomic(session):
        return _write(session, bot_id, lambda files: apply(files, changes), cap, source, now or utcnow(), store=store)
