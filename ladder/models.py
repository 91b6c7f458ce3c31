# Over 400 lines: every table of the schema in one module, as the migrations and Alembic's autogenerate read it.
"""Tables, and the models that cross the web/API boundary.

Per entity (SQLModel's pattern): a base with the fields a user may set, the table, a `*Create`
model for input and a `*Public` model for output, so a form or the API never writes or shows a
column it should not (password and token hashes, code bytes, claim bookkeeping).

Ratings are integers in milli-points (ladder/ranking/ratings.py). Statuses are short strings, listed in the
StrEnums below and enforced by CHECK constraints. Timestamps are timezone-aware UTC everywhere.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from enum import StrEnum
from typing import ClassVar

import sqlalchemy as sa
from pydantic import field_validator
from sqlalchemy import JSON, BigInteger, CheckConstraint, DateTime, Index, LargeBinary, Text, UniqueConstraint
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

from ladder.ranking.ratings import INITIAL_DEVIATION, INITIAL_RATING

metadata = SQLModel.metadata


class MatchStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    FINISHED = "finished"
    FAILED = "failed"  # infrastructure failure: never rated


class MatchKind(StrEnum):
    LADDER = "ladder"
    VALIDATION = "validation"  # a new version against starter bots, unranked
    CHALLENGE = "challenge"  # requested by an owner, unranked
    EVENT = "event"  # a tournament's match (ladder/services/tournaments.py), unranked


class SeatStatus(StrEnum):
    OK = "ok"
    TIMEOUT = "timeout"
    CRASH = "crash"
    ILLEGAL = "illegal"
    PROTOCOL_ERROR = "protocol_error"
    ERROR = "error"


class VersionStatus(StrEnum):
    PENDING = "pending"  # stored, waiting for its validation game
    VALIDATING = "validating"
    ACTIVE = "active"  # plays on the ladder; at most one per bot
    REJECTED = "rejected"
    RETIRED = "retired"


def _check(column: str, enum: type[StrEnum], name: str) -> CheckConstraint:
    values = ", ".join(f"'{v.value}'" for v in enum)
    return CheckConstraint(f"{column} IN ({values})", name=name)


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator):
    """Aware UTC datetimes in and out; SQLite stores naive text, so UTC is normalised here."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: pass an aware UTC datetime")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _when(nullable: bool = False, **kw):
    if nullable:
        return Field(default=None, sa_type=UTCDateTime, **kw)
    return Field(default_factory=utcnow, sa_type=UTCDateTime, **kw)


# --- users -----------------------------------------------------------------------------------


class UserBase(SQLModel):
    username: str = Field(min_length=3, max_length=32, schema_extra={"pattern": r"^[a-z0-9][a-z0-9_-]*$"})
    email: str | None = Field(default=None, max_length=254)

    @field_validator("username", mode="before")
    @classmethod
    def _canonical_username(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value  # "Alice" and "alice" are one user


class User(UserBase, table=True):
    __tablename__ = "users"
    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(max_length=32, unique=True)
    password_hash: str = Field(max_length=255)
    is_admin: bool = False
    is_system: bool = False  # owns the starter bots; cannot log in
    created_at: datetime = _when()
    # moderation (ladder/services/moderation.py): a suspended user cannot log in, use a token or
    # seat; None until: for good. A hidden name is served as "user<id>" everywhere.
    suspended: bool = False
    suspended_until: datetime | None = _when(nullable=True)
    suspension_reason: str | None = Field(default=None, sa_type=Text)
    name_hidden: bool = False


class LoginSession(SQLModel, table=True):
    """One log-in of one browser. The session and remember-me cookies carry its random key (only its
    SHA-256 is stored); deleting the row ends that log-in on the server, whoever copied the cookie."""

    __tablename__ = "login_sessions"
    __table_args__ = (Index("ix_login_sessions_user", "user_id"),)
    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    key_hash: str = Field(max_length=64, unique=True)
    remember: bool = False
    created_at: datetime = _when()
    expires_at: datetime = Field(sa_type=UTCDateTime)


class TokenScope(StrEnum):
    READ = "read"  # the token owner's private reads: /me, own seats' logs and replays
    UPLOAD = "upload"  # new bots and versions
    PLAY = "play"  # programs played from outside the sandbox (ladder/services/outside.py)


class ApiToken(SQLModel, table=True):
    """A named personal API token; several per user, each with its scopes, revocable one by one."""

    __tablename__ = "api_tokens"
    __table_args__ = (UniqueConstraint("user_id", "name", name="uq_api_tokens_user_name"),)
    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=40)
    token_hash: str = Field(max_length=64, unique=True)  # sha256 of the token, which is shown once
    scopes: str = Field(max_length=64)  # space-separated TokenScope values
    created_at: datetime = _when()
    last_used_at: datetime | None = _when(nullable=True)

    @property
    def scope_set(self) -> frozenset[str]:
        return frozenset(self.scopes.split())


class UserCreate(UserBase):
    password: str = Field(min_length=8, max_length=256)


class UserPublic(SQLModel):
    id: int
    username: str
    is_system: bool
    created_at: datetime


# --- bots and versions -----------------------------------------------------------------------


class BotBase(SQLModel):
    name: str = Field(min_length=1, max_length=40, schema_extra={"pattern": r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"})
    game: str = Field(max_length=32)
    description: str = Field(default="", max_length=2000, sa_type=Text)

    # Each field's rule in words: what the form, the API and the CLI say when a value breaks it
    # (services/bots.py checked_bot_fields turns the model's validation errors into these).
    RULES: ClassVar[dict[str, str]] = {
        "name": "a bot name is 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit",
        "game": "a game is named in at most 32 characters",
        "description": "a description has at most 2000 characters and no NUL",
    }

    @field_validator("description")
    @classmethod
    def _no_nul(cls, value: str) -> str:
        if "\x00" in value:  # PostgreSQL text cannot hold it
            raise ValueError("a NUL character")
        return value


class Bot(BotBase, table=True):
    __tablename__ = "bots"
    __table_args__ = (UniqueConstraint("owner_id", "game", "name", name="uq_bots_owner_game_name"),)
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=40)
    game: str = Field(max_length=32, index=True)
    owner_id: int = Field(foreign_key="users.id", index=True)
    retired: bool = False
    builtin: str | None = Field(default=None, max_length=40)  # starter bot name (Game.starter_bots)
    created_at: datetime = _when()
    # played by its owner's program from outside the sandbox (ladder/services/outside.py): never on
    # the sandboxed ladder; rated only on the open ladder, among remote bots, when `open_ladder`
    remote: bool = False
    open_ladder: bool = False
    # moderation: a disabled bot is out of every new match until a moderator enables it (its owner
    # cannot); a hidden name is served as "bot<id>" on every page, frame, download and dump
    disabled: bool = False
    name_hidden: bool = False


class BotCreate(BotBase):
    pass


class BotPublic(BotBase):
    id: int
    owner_id: int
    retired: bool
    builtin: str | None
    created_at: datetime
    remote: bool = False
    open_ladder: bool = False


class BotVersionBase(SQLModel):
    bot_id: int = Field(foreign_key="bots.id")
    number: int  # 1, 2, ... per bot
    filename: str = Field(max_length=255)  # tells the runner how to unpack `code` (.py, .zip, .tar.gz)
    sha256: str = Field(max_length=64)
    size: int
    status: str = Field(default=VersionStatus.PENDING, max_length=16)
    rejection_reason: str | None = Field(default=None, sa_type=Text)
    placement_owed: int = 0
    validation_match_id: int | None = Field(default=None, foreign_key="matches.id")
    created_at: datetime = _when()
    runtime: str | None = Field(default=None, max_length=16)  # ladder/bot/runtimes.py; None: not a bot package
    build_key: str | None = Field(default=None, max_length=64)  # its artifact (build_artifacts), once built


class BotVersion(BotVersionBase, table=True):
    """One upload, immutable: the code and its hash never change (enforced below)."""

    __tablename__ = "bot_versions"
    __table_args__ = (
        UniqueConstraint("bot_id", "number", name="uq_bot_versions_bot_number"),
        Index("ix_bot_versions_status_bot", "status", "bot_id"),
        _check("status", VersionStatus, "ck_bot_versions_status"),
    )
    id: int | None = Field(default=None, primary_key=True)
    code: bytes = Field(sa_type=LargeBinary)
    # The rating sequence of its first rated match (services/ratings.py writes it, the recompute
    # checks it): the accuracy report's "new versions" without an index of the seats by version
    # (migration 0027), about 100 B a match on the table that grows with matches.
    first_rated_sequence: int | None = Field(default=None, sa_type=BigInteger)


class BotVersionPublic(BotVersionBase):
    id: int


_IMMUTABLE_VERSION_FIELDS = ("bot_id", "number", "filename", "code", "sha256", "size")


@sa.event.listens_for(BotVersion, "before_update")
def _versions_are_immutable(_mapper, _connection, target: BotVersion) -> None:
    state = sa.inspect(target)
    for name in _IMMUTABLE_VERSION_FIELDS:
        if state.attrs[name].history.has_changes():
            raise ValueError(f"bot version {target.id}: {name} is immutable; upload a new version")


# --- matches ---------------------------------------------------------------------------------


class MatchBase(SQLModel):
    game: str = Field(max_length=32)
    options: dict = Field(default_factory=dict, sa_type=JSON)
    seed: int = Field(sa_type=BigInteger)
    status: str = Field(default=MatchStatus.QUEUED, max_length=16)
    kind: str = Field(default=MatchKind.LADDER, max_length=16)
    ranked: bool = True
    sandbox: str = Field(default="strict", max_length=16)
    created_at: datetime = _when()
    started_at: datetime | None = _when(nullable=True)
    finished_at: datetime | None = _when(nullable=True)
    failure_reason: str | None = Field(default=None, sa_type=Text)
    # voided by a moderator (ladder/services/voiding.py): its rating changes are gone, it stays listed
    voided_at: datetime | None = _when(nullable=True)
    void_reason: str | None = Field(default=None, sa_type=Text)
    # the league whose table this is (ladder/ranking/leagues.py: 0 = the first), None outside leagues; only a
    # league's own tables count towards promotion in it
    league: int | None = None


class Match(MatchBase, table=True):
    __tablename__ = "matches"
    __table_args__ = (
        Index("ix_matches_status_id", "status", "id"),  # the queue, oldest first
        Index("ix_matches_status_claimed_at", "status", "claimed_at"),  # the sweeper
        Index("ix_matches_game_id", "game", "id"),  # recent matches per game
        _check("status", MatchStatus, "ck_matches_status"),
        _check("kind", MatchKind, "ck_matches_kind"),
    )
    id: int | None = Field(default=None, primary_key=True)
    attempts: int = 0  # claims so far; the sweeper gives up after settings.match_max_attempts
    requested_by: int | None = Field(default=None, foreign_key="users.id")
    claimed_by: str | None = Field(default=None, max_length=200)  # worker id holding the claim
    claimed_at: datetime | None = _when(nullable=True)
    # when a run_match message for it last reached the broker (None: never recorded, e.g. sent by the
    # web site at creation); the sweeper sends a queued match again once this is older than
    # settings.match_resend_after, busy broker or not (workers/queue/scheduler.py)
    sent_at: datetime | None = _when(nullable=True)
    # when retention (ladder/services/retention.py) deleted its replay and logs: its rows stay (the
    # page, the ratings), and a ladder match's replay is in its day's dump
    replay_pruned_at: datetime | None = _when(nullable=True)


class MatchPublic(MatchBase):
    id: int


class SeatBase(SQLModel):
    bot_id: int = Field(foreign_key="bots.id")  # denormalised from the version: per-bot pages
    bot_version_id: int = Field(foreign_key="bot_versions.id")
    score: int | None = None
    rank: int | None = None  # as the game ranked it; forfeits are applied by the rating maths
    status: str | None = Field(default=None, max_length=16)
    reason: str | None = Field(default=None, sa_type=Text)
    forfeited: bool = False


class Seat(SeatBase, table=True):
    """Who sat where (written at queue time) and how it went (written with the result)."""

    __tablename__ = "seats"
    __table_args__ = (
        # A bot's recent matches; covering on PostgreSQL, so the bot page reads no seat heap pages.
        Index("ix_seats_bot_match", "bot_id", "match_id", postgresql_include=["rank", "score", "status"]),
        _check("status", SeatStatus, "ck_seats_status"),
    )
    match_id: int = Field(foreign_key="matches.id", primary_key=True, ondelete="CASCADE")
    seat: int = Field(primary_key=True)
    # the bot data version this seat plays with, pinned at queue time (events, validation: they are
    # reproducible, and keep nothing); None: the latest when it starts, its changes kept after
    data_version: int | None = None


class SeatPublic(SeatBase):
    seat: int


class Replay(SQLModel, table=True):
    __tablename__ = "replays"
    match_id: int = Field(foreign_key="matches.id", primary_key=True, ondelete="CASCADE")
    # the gzip of the replay JSON (ladder.replay format), or with `compact` its compact form
    # (ladder/replay/compact.py); read only through ladder/services/stored_replays.py
    data: bytes = Field(sa_type=LargeBinary)
    size: int  # the whole replay's JSON bytes
    created_at: datetime = _when()
    hidden: bool = False  # taken out of public view by a moderator: only admins may read it
    compact: bool = False
    # its seats' scorecards are in the sums (services/scorecard.py): what a void takes back out and
    # an export measures again, now that the seats' scorecard rows are kept only for the chart
    measured: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})


class BuildArtifact(SQLModel, table=True):
    """A compiled bot (workers/build/builds.py), by the hash of its source, runtime and toolchain: built
    once, run by every match of every version with the same key. The log goes to owners only. The
    tar itself is in the store (services/builds.py); `data` holds it only for rows not moved yet."""

    __tablename__ = "build_artifacts"
    key: str = Field(primary_key=True, max_length=64)
    runtime: str = Field(max_length=16)
    toolchain: str = Field(max_length=200)
    data: bytes | None = Field(default=None, sa_type=LargeBinary, nullable=True)  # before the store only
    size: int
    log: str = Field(default="", sa_type=Text)  # the compiler's output
    seconds: float = 0.0
    created_at: datetime = _when()


class BotData(SQLModel, table=True):
    """A bot's data folder (ladder/services/botdata.py): which version is the latest, and the
    last refusal (over the cap, ...) for its owner. No row: version 0, the empty folder."""

    __tablename__ = "bot_data"
    bot_id: int = Field(foreign_key="bots.id", primary_key=True, ondelete="CASCADE")
    version: int = 0  # changed only by a compare-and-set (services/botdata.py)
    note: str | None = Field(default=None, sa_type=Text)  # the owner's only: never shown to others
    note_at: datetime | None = _when(nullable=True)
    updated_at: datetime = _when()


class BotDataVersion(SQLModel, table=True):
    """One version of a bot's data folder, as a zip (ladder/bot/data.py's stored form). The latest
    two and every pinned one are kept; older ones are deleted as new ones are written."""

    __tablename__ = "bot_data_versions"
    bot_id: int = Field(foreign_key="bots.id", primary_key=True, ondelete="CASCADE")
    number: int = Field(primary_key=True)
    data: bytes | None = Field(default=None, sa_type=LargeBinary, nullable=True)  # without a store, or not moved
    blob: str | None = Field(default=None, max_length=200)  # its key in the store (services/botdata.py)
    size: int  # bytes of files, unpacked
    files: int
    source: str = Field(max_length=64)  # "match 12", "upload", "reset"
    created_at: datetime = _when()


class PersonSeat(SQLModel, table=True):
    """The seat of a match that a person plays from the browser ("Play it yourself",
    ladder/services/person_seat.py); its `seats` row names the game's house "person" bot, whose code
    is the fallback that takes the seat when the person leaves or runs out of time."""

    __tablename__ = "person_seats"
    match_id: int = Field(foreign_key="matches.id", primary_key=True, ondelete="CASCADE")
    seat: int
    user_id: int = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    address: str = Field(max_length=64, index=True)  # who started it: the per-address limit
    clock_s: int  # seconds the person has for each decision
    created_at: datetime = _when()


class SeatConnection(SQLModel, table=True):
    """The live connection of a remote seat, shared by every web process (ladder/services/seat_slots.py):
    one per seat (a newer one replaces it), counted per user and per address for the limits. A
    row is held for a lease its holder renews; one past `expires_at` (its process died, its HTTP
    client stopped polling) is nobody's and frees its place."""

    __tablename__ = "seat_connections"
    match_id: int = Field(foreign_key="matches.id", primary_key=True, ondelete="CASCADE")
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    conn: str = Field(max_length=32)
    user_id: int = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    address: str = Field(max_length=64, index=True)
    transport: str = Field(max_length=8)  # "ws" or "http"
    expires_at: datetime = Field(sa_type=UTCDateTime, index=True)


class LobbyEntry(SQLModel, table=True):
    """A remote bot's place in the open ladder's lobby (ladder/services/lobby.py): waiting while its
    client says so (`seen_at`, a heartbeat), then matched (`match_id`, `seat`) until the scheduler
    settles the match. The row outlives the wait, so no-shows count across waits."""

    __tablename__ = "lobby"
    bot_id: int = Field(foreign_key="bots.id", primary_key=True, ondelete="CASCADE")
    user_id: int = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    game: str = Field(max_length=32, index=True)
    address: str = Field(max_length=64, index=True)  # the client's: the per-address limit
    waiting: bool = False  # the client said it waits, and has not left
    seen_at: datetime = _when()  # its last heartbeat: older than the expiry, it is gone
    match_id: int | None = Field(default=None, foreign_key="matches.id", ondelete="SET NULL")
    seat: int | None = None
    no_shows: int = 0  # matches in a row it was paired for and never connected to
    benched_until: datetime | None = _when(nullable=True)  # too many no-shows: out of the lobby until then


class BotLog(SQLModel, table=True):
    """A seat's stderr for one match, truncated; shown to the bot's owner only."""

    __tablename__ = "bot_logs"
    match_id: int = Field(foreign_key="matches.id", primary_key=True, ondelete="CASCADE")
    seat: int = Field(primary_key=True)
    text: str = Field(sa_type=Text)
    truncated: bool = False


# --- ratings ---------------------------------------------------------------------------------


class RatingCheck(SQLModel, table=True):
    """One run of the ratings check (`ladder ratings recompute`, or the scheduler's hourly check):
    how many stored numbers differed from the history replayed, how many finished ranked matches
    lacked their rating changes, and whether it wrote the corrections. The newest is what an
    operator's alert reads (ladder_ratings_check_ok)."""

    __tablename__ = "rating_checks"
    __table_args__ = (Index("ix_rating_checks_checked_at", "checked_at"),)
    id: int | None = Field(default=None, primary_key=True)
    checked_at: datetime = _when()
    differences: int
    missing: int
    wrote: bool = False  # `--write`: the differences found were written, then checked again


_DEVIATION_DEFAULT = {"server_default": str(INITIAL_DEVIATION)}  # rows from before the deviations (0018)


class RatingChange(SQLModel, table=True):
    """One bot's change in one rated match; `sequence` is the order ratings were applied in (one
    number a match), so (sequence, seat) is the key (migration 0026 says why there is no id)."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        UniqueConstraint("match_id", "bot_id", name="uq_rating_changes_match_bot"),
        # Covering on PostgreSQL: a bot's rating history reads a handful of index pages instead of
        # one heap page per change (the bot page must not slow down as history grows). Only what the
        # page's chart reads (a delta is after - before): 40 B a row where the times and deltas made
        # it 48 (migration 0027); the API's history, which shows times, reads their heap rows.
        Index("ix_rating_changes_bot_sequence", "bot_id", "sequence",
              postgresql_include=["match_id", "before", "after"]),
    )
    sequence: int = Field(sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    match_id: int = Field(foreign_key="matches.id")
    bot_id: int = Field(foreign_key="bots.id")
    rank: int  # after forfeits: what the rating maths used
    forfeited: bool
    before: int
    delta: int
    after: int
    games_before: int
    created_at: datetime = _when()
    # how sure the rating was (ladder/ranking/ratings.py): before the match (after a new version's widening), after it
    deviation_before: int = Field(default=INITIAL_DEVIATION, sa_column_kwargs=_DEVIATION_DEFAULT)
    deviation: int = Field(default=INITIAL_DEVIATION, sa_column_kwargs=_DEVIATION_DEFAULT)


class Rating(SQLModel, table=True):
    """A bot's current rating; the sum of its rating changes, kept for fast pages."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_rating", "game", "rating", "bot_id"),)
    bot_id: int = Field(foreign_key="bots.id", primary_key=True)
    game: str = Field(max_length=32)
    rating: int = INITIAL_RATING
    games: int = 0
    wins: int = 0  # rated matches finished first (shared first place counts)
    last_played_at: datetime | None = _when(nullable=True)
    last_sequence: int | None = Field(default=None, sa_type=BigInteger)
    # the rating's deviation (milli-points, ladder/ranking/ratings.py) and the version its last rated match
    # was played with: a match with another version widens the deviation first
    deviation: int = Field(default=INITIAL_DEVIATION, sa_column_kwargs=_DEVIATION_DEFAULT)
    version_id: int | None = None


class RatingReport(SQLModel, table=True):
    """A game's newest accuracy report (ladder/ranking/report.py), as the scheduler computed it:
    pages and the API serve it from here, never computing it on a request."""

    __tablename__ = "rating_reports"
    game: str = Field(primary_key=True, max_length=32)
    computed_at: datetime = _when()
    matches: int  # rated matches the report read
    body: dict = Field(default_factory=dict, sa_type=JSON)


class RatingClock(SQLModel, table=True):
    """One row. Rating updates lock it first, which serialises them and numbers them in order."""

    __tablename__ = "rating_clock"
    id: int = Field(default=1, primary_key=True)
    applied: int = Field(default=0, sa_type=BigInteger)


class Switch(SQLModel, table=True):
    """An operator's switch kept in the database, so every process reads the same value whatever its
    environment: `drain` (workers/queue/scheduler.py) stops the scheduler queueing anything new."""

    __tablename__ = "switches"
    name: str = Field(primary_key=True, max_length=32)
    enabled: bool = False
    changed_at: datetime = _when()


class RelayEntry(SQLModel, table=True):
    """One message of a relay topic (ladder/relay/backends.py) when the ladder runs without Redis: live
    events, a person's or a remote program's requests and answers. `seq` counts per topic from 1;
    the primary key (topic, seq) makes concurrent publishers commit in `seq` order, so a reader that resumes
    after the last `seq` it saw never skips one."""

    __tablename__ = "relay_messages"
    __table_args__ = (Index("ix_relay_messages_created_at", "created_at"),)
    topic: str = Field(max_length=200, primary_key=True)
    seq: int = Field(sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    body: str = Field(sa_type=Text)
    created_at: datetime = _when()


class HeadToHead(SQLModel, table=True):
    """Per ordered pair of bots, their rated meetings: keeps the bot page independent of history size."""

    __tablename__ = "head_to_head"
    # Covering on PostgreSQL: the bot page's opponents come from the index alone.
    __table_args__ = (Index("ix_head_to_head_bot_meetings", "bot_id", "meetings",
                            postgresql_include=["opponent_id", "wins", "losses", "ties"]),)
    bot_id: int = Field(foreign_key="bots.id", primary_key=True)
    opponent_id: int = Field(foreign_key="bots.id", primary_key=True)
    meetings: int = 0
    wins: int = 0  # bot ranked above opponent
    losses: int = 0
    ties: int = 0
    last_match_id: int | None = None


class LeagueMember(SQLModel, table=True):
    """A contestant's league in its game (ladder/services/leagues.py) and its newest meetings with
    that league's boss; no row = the first league. House bots have none: their league is declared."""

    __tablename__ = "league_members"
    __table_args__ = (Index("ix_league_members_game_league", "game", "league"),)
    bot_id: int = Field(foreign_key="bots.id", primary_key=True, ondelete="CASCADE")
    game: str = Field(max_length=32)
    league: int = 0
    entered_at: datetime = _when()
    record: str = Field(default="", max_length=32)  # ladder.ranking.leagues.ABOVE/BELOW/TIE, oldest first
    evidence: float = 0.0  # the promotion test's log-likelihood ratio since it last started (ladder.ranking.leagues)


class LeagueMove(SQLModel, table=True):
    """A promotion, never changed: the bot page's history and the league's 'promoted' list."""

    __tablename__ = "league_moves"
    __table_args__ = (Index("ix_league_moves_game_at", "game", "at"), Index("ix_league_moves_bot", "bot_id"))
    id: int | None = Field(default=None, primary_key=True)
    bot_id: int = Field(foreign_key="bots.id", ondelete="CASCADE")
    game: str = Field(max_length=32)
    from_league: int
    to_league: int
    at: datetime = _when()
    match_id: int | None = Field(default=None, foreign_key="matches.id", ondelete="SET NULL")
    record: str = Field(default="", max_length=32)  # the meetings that promoted it


class SeasonStatus(StrEnum):
    OPEN = "open"  # the ladder plays; uploads welcome
    FINAL = "final"  # past its end: the game's uploads are frozen while its final (an event) plays
    CLOSED = "closed"  # the final's standings are archived


class Season(SQLModel, table=True):
    """A game's season (ladder/services/seasons.py): an organiser opens it with an end; at the end
    the game's submissions freeze and a duplicate-seated final among the top league's best is played."""

    __tablename__ = "seasons"
    __table_args__ = (Index("ix_seasons_game_status", "game", "status"),
                      _check("status", SeasonStatus, "ck_seasons_status"))
    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(max_length=32)
    name: str = Field(max_length=80)
    status: str = Field(default=SeasonStatus.OPEN, max_length=16)
    organizer_id: int = Field(foreign_key="users.id")
    opened_at: datetime = _when()
    ends_at: datetime = Field(sa_type=UTCDateTime)
    finalists: int = 8
    final_rounds: int = 5  # the final is a Swiss event: rounds of tables of the game's preferred size
    final_deals: int = 2  # per round, each in every seat order (duplicate seating)
    event_id: int | None = Field(default=None, foreign_key="events.id")
    closed_at: datetime | None = _when(nullable=True)


class SeasonStanding(SQLModel, table=True):
    """A closed season's archived final standings, one row per finalist, never changed."""

    __tablename__ = "season_standings"
    season_id: int = Field(foreign_key="seasons.id", primary_key=True, ondelete="CASCADE")
    place: int = Field(primary_key=True)
    bot_id: int = Field(foreign_key="bots.id")
    name: str = Field(max_length=120)  # "owner/bot vN" as the final showed it
    league: int | None = None
    rating: int | None = None  # its Elo when the season closed
    matches: int
    wins: int
    mean_rank: float
    rank_low: float  # the mean rank's 95% bootstrap interval over the final's deals
    rank_high: float
    mean_score: float


# --- moderation ------------------------------------------------------------------------------


class ModerationAction(SQLModel, table=True):
    """The audit log: one row per moderator action (ladder/services/audit.py), never changed."""

    __tablename__ = "moderation_log"
    __table_args__ = (Index("ix_moderation_log_target", "target_kind", "target_id"),)
    id: int | None = Field(default=None, primary_key=True)
    at: datetime = _when()
    actor_id: int | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    actor: str = Field(max_length=80)  # the admin's name, or "cli:<login>" for `ladder admin`
    action: str = Field(max_length=32)
    target_kind: str = Field(max_length=16)  # bot, version, user, match, replay, address, ratings
    target_id: int | None = None
    reason: str = Field(default="", sa_type=Text)
    details: dict = Field(default_factory=dict, sa_type=JSON)


class SignupAddress(SQLModel, table=True):
    """A sign-up's address as a keyed hash (HMAC-SHA256, key derived from the secret key), kept for
    the retention period (settings.signup_address_days): the accounts-per-address limit and bans."""

    __tablename__ = "signup_addresses"
    __table_args__ = (Index("ix_signup_addresses_hash", "address_hash", "created_at"),)
    id: int | None = Field(default=None, primary_key=True)
    address_hash: str = Field(max_length=64)
    user_id: int | None = Field(default=None, foreign_key="users.id", index=True, ondelete="SET NULL")
    created_at: datetime = _when()


class AddressBan(SQLModel, table=True):
    """A banned user's sign-up addresses (their hashes): no sign-up from them until `until`."""

    __tablename__ = "address_bans"
    address_hash: str = Field(primary_key=True, max_length=64)
    user_id: int | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    until: datetime | None = _when(nullable=True)  # None: for good
    created_at: datetime = _when()


# --- tournaments (events) ----------------------------------------------------------------------


class EventStatus(StrEnum):
    REGISTRATION = "registration"  # entrants join (invited or open until the deadline)
    RUNNING = "running"  # entrants frozen; matches being played
    FINISHED = "finished"
    CANCELLED = "cancelled"  # by the organizer, or an open event too small at its deadline: nothing rated


class TournamentEvent(SQLModel, table=True):
    """A tournament on the site: a fixed field and schedule (ladder/tournaments), never rated."""

    __tablename__ = "events"
    __table_args__ = (_check("status", EventStatus, "ck_events_status"),)
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=80)
    game: str = Field(max_length=32)
    options: dict = Field(default_factory=dict, sa_type=JSON)
    format: str = Field(max_length=16)  # ladder.tournaments.model.FORMATS
    table_size: int
    deals: int  # per round
    rounds: int = 1
    duplicate: bool = True
    seed: int = Field(sa_type=BigInteger)
    # the secret its deal seeds are keyed with (ladder/tournaments/model.py deal_seed): never shown;
    # None only for an event made before it existed (then its seed keys them)
    deal_key: str | None = Field(default_factory=lambda: secrets.token_hex(32), max_length=64)
    open_registration: bool = False  # else: by the organizer's invitation only
    deadline: datetime | None = _when(nullable=True)  # open registration closes then
    status: str = Field(default=EventStatus.REGISTRATION, max_length=16)
    organizer_id: int = Field(foreign_key="users.id")
    created_at: datetime = _when()
    started_at: datetime | None = _when(nullable=True)
    finished_at: datetime | None = _when(nullable=True)


class EventEntrant(SQLModel, table=True):
    """A bot in an event; its version is frozen (set) when the event starts."""

    __tablename__ = "event_entrants"
    event_id: int = Field(foreign_key="events.id", primary_key=True, ondelete="CASCADE")
    bot_id: int = Field(foreign_key="bots.id", primary_key=True)
    bot_version_id: int | None = Field(default=None, foreign_key="bot_versions.id")
    data_version: int | None = None  # its bot data, pinned with the version when the event starts
    invited: bool = False
    accepted: bool = True  # false: the organizer's invitation, until the bot's owner accepts it
    joined_at: datetime = _when()


class EventMatch(SQLModel, table=True):
    """One scheduled match of an event; `match_id` is set once, when it is queued."""

    __tablename__ = "event_matches"
    __table_args__ = (UniqueConstraint("match_id", name="uq_event_matches_match"),)
    event_id: int = Field(foreign_key="events.id", primary_key=True, ondelete="CASCADE")
    index: int = Field(primary_key=True)
    round: int
    table_no: int
    deal: int
    seed: int = Field(sa_type=BigInteger)
    order_no: int
    seats: list = Field(sa_type=JSON)  # bot ids in seat order
    match_id: int | None = Field(default=None, foreign_key="matches.id")


# --- scorecards (issue #45; ladder/services/scorecard.py) --------------------------------------


class ScorecardTally(SQLModel, table=True):
    """One seat's scorecard of one finished match, as lean as the chart allows: its keys and the
    tallies of the measures the bot page charts. Every other measure of the seat (and its table's
    winners') is in the sums, and is measured again from the stored replay when an export or a void
    needs the seat's own (services/scorecard.py; migration 0024 says why). Written with the result;
    `ladder scorecard recompute` rebuilds it from the replays."""

    __tablename__ = "scorecard_tallies"
    # A bot's last matches, newest first: the bot page's chart reads 200 of them from the index
    # alone on PostgreSQL (covering: the version and the charted measures' tallies, a few dozen bytes)
    __table_args__ = (Index("ix_scorecard_tallies_bot_match", "bot_id", "match_id",
                            postgresql_include=["bot_version_id", "charted"]),)
    match_id: int = Field(foreign_key="matches.id", primary_key=True, ondelete="CASCADE")
    seat: int = Field(primary_key=True)
    bot_id: int = Field(foreign_key="bots.id")
    bot_version_id: int = Field(foreign_key="bot_versions.id")
    game: str = Field(max_length=32)
    players: int
    rank: int
    # the tallies of the measures the chart draws (services/scorecard_views.py, main_measures)
    charted: dict = Field(default_factory=dict, sa_type=JSON)


class ScorecardSum(SQLModel, table=True):
    """A bot's tallies merged over its matches, kept as each result is recorded so that a page
    reads a handful of rows however long the history: per version (`version_id`), per table size
    (`players`) and per opponent (`opponent_id`, a bot met at the table); 0 in a key column means
    every version, size or opponent. Only the combinations the page and the API read are kept:
    (v, 0, 0), (0, 0, 0), (0, n, 0) and (0, 0, o); the last two without medians or winners' figures
    (services/scorecard.py, merged)."""

    __tablename__ = "scorecard_sums"
    __table_args__ = (Index("ix_scorecard_sums_bot_matches", "bot_id", "version_id", "players", "matches"),)
    bot_id: int = Field(foreign_key="bots.id", primary_key=True)
    version_id: int = Field(primary_key=True)
    players: int = Field(primary_key=True)
    opponent_id: int = Field(primary_key=True)
    game: str = Field(max_length=32)
    matches: int = 0
    tallies: dict = Field(default_factory=dict, sa_type=JSON)
    winners: dict = Field(default_factory=dict, sa_type=JSON)
    last_match_id: int | None = None
