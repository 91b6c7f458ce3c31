"""One typed settings object, read from the environment once and passed around.

Every setting comes from a `LADDER_*` variable, plus the conventional `DATABASE_URL` and
`REDIS_URL`. With nothing set the ladder runs embedded: an SQLite file and a local broker under
the instance directory. Outside development (`LADDER_ENV=production`) placeholder secrets are
refused at start-up rather than discovered later.

Tests build `Settings(...)` or `Settings.from_env({...})` and pass it in; nothing reads a global.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from sqlalchemy.engine import make_url

from ladder.bot.data import Cap
from ladder.bot.packages import MAX_UPLOAD_BYTES
from ladder.bot.runtimes import BY_NAME
from ladder.ranking.leagues import DEFAULT_NAMES as DEFAULT_LEAGUE_NAMES
from ladder.ranking.leagues import league_names

ENV_PREFIX = "LADDER_"
DEV_SECRET_KEY = "dev-only-secret-key"  # the development default; refused anywhere else
# Values people leave in .env files and compose files; never acceptable as a real secret.
PLACEHOLDERS = frozenset({
    "", DEV_SECRET_KEY, "dev", "secret", "changeme", "change-me", "change_me", "changethis",
    "password", "postgres", "example", "xxx", "todo",
})
MIN_SECRET_LENGTH = 32
# zxcvbn's estimate of the guesses a key needs, as a power of ten: 10^24 is about 80 bits. A random
# key (secrets.token_urlsafe(48), a 32-digit hex) is 10^31 or more; repeats ("aaaa...") and words
# ("passwordpassword...") are under 10^5 however long, which a length check alone let through.
MIN_SECRET_GUESSES_LOG10 = 24
RELAXED_ENVS = ("development", "test")  # where defaults and placeholders are allowed


class ConfigError(ValueError):
    """The environment describes a configuration the ladder refuses to run with."""


class Settings(BaseModel):
    """Everything the ladder reads from its environment. Immutable once built."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    env: Literal["development", "test", "production"] = "development"
    instance_dir: Path = Path("instance")
    secret_key: str = DEV_SECRET_KEY
    database_url: str | None = None  # DATABASE_URL; None: SQLite file in instance_dir
    redis_url: str | None = None  # REDIS_URL; None: the embedded local broker
    sql_echo: bool = False

    # matches and workers
    sandbox_mode: Literal["strict", "user", "none"] = "strict"
    match_stale_after: int = Field(default=900, gt=0)  # seconds running before the sweeper requeues
    match_max_attempts: int = Field(default=3, ge=1)  # claims before a match is given up as failed
    # a queued match whose last send to the broker is older than this is sent again, busy broker or
    # not (a lost message waits about this long, plus a sweep); the Redis visibility timeout derives from it
    match_resend_after: int = Field(default=60, gt=0)
    placement_games: int = Field(default=10, ge=0)  # rated games a new version plays first
    # ladder.bot.packages.MAX_UPLOAD_BYTES is the one limit; a deployment may only lower it here
    max_upload_bytes: int = Field(default=MAX_UPLOAD_BYTES, gt=0, le=MAX_UPLOAD_BYTES)
    max_log_chars: int = Field(default=64 * 1024, gt=0)  # stderr kept per seat and match
    # each bot's data folder (ladder/bot/data.py): what it may hold, as bytes of files and files
    bot_data_max_bytes: int = Field(default=20 << 20, gt=0, le=1 << 30)
    bot_data_max_files: int = Field(default=1000, gt=0, le=100_000)
    # the runtimes (ladder/bot/runtimes.py) uploads may use, comma-separated; None: each one this
    # machine has (an operator may narrow it, e.g. LADDER_RUNTIMES=python,node)
    runtimes: str | None = None

    # matchmaking
    house_username: str = "house"  # the system user owning the starter bots
    scheduler_interval: float = Field(default=5.0, gt=0)  # seconds between scheduler ticks
    tables_per_tick: int = Field(default=4, ge=1)
    queue_target: int = Field(default=8, ge=0)  # queued matches per game the scheduler keeps
    # the leagues' names, weakest first (ladder/ranking/leagues.py): a game with four leagues takes the first
    # four; comma-separated, as many as the game with most leagues needs (five)
    league_names: str = ",".join(DEFAULT_LEAGUE_NAMES)
    event_slots: int = Field(default=2, ge=0)  # tournament matches queued or running at once (0: paused)
    # seconds between the scheduler's ratings checks (a dry `ladder ratings recompute`, recorded for
    # the ladder_ratings_check_ok metric); 0: none, only the ones an operator runs
    ratings_check_interval: int = Field(default=3600, ge=0)
    # the accuracy report (docs/ratings.md): seconds between the scheduler's recomputations (0: none),
    # the rated matches it reads per game (bounded: it stays quick at a million matches), and the
    # last matches whose predictions it scores
    ratings_report_interval: int = Field(default=3600, ge=0)
    ratings_report_window: int = Field(default=20_000, ge=100)
    ratings_report_last: int = Field(default=1000, ge=10)

    # limits against hostile users (docs/operations.md, "Limits"); rates are Flask-Limiter strings,
    # counted in Redis when REDIS_URL is set (shared by every web process), in memory otherwise
    uploads_per_day: int = Field(default=20, ge=1)  # versions a user may upload in any 24 hours
    challenges_in_flight: int = Field(default=4, ge=1)  # a user's queued or running challenges
    challenges_per_target: int = Field(default=2, ge=1)  # ... of which against any one other bot
    # programs connected from outside at once (docs/remote.md), per web process: per user, per address
    remote_seats_per_user: int = Field(default=4, ge=1)
    remote_seats_per_address: int = Field(default=8, ge=1)
    signup_rate: str = "5 per hour;20 per day"  # accounts created per address
    login_failures_per_address: str = "10 per minute;100 per day"  # failed log-ins before 429, per address
    login_failures_per_account: str = "5 per minute;20 per hour"  # failed log-ins before 429, per user name
    api_rate: str = "120 per minute"  # API requests per token (per address without one)
    # the remote seats' requests per token and per address (docs/remote.md): a seat polled over HTTP
    # makes about two a decision, so more than the API's, yet a flood (300 GETs in 2.6 s) is refused
    seat_rate: str = "20 per second;600 per minute"
    trusted_proxies: int = Field(default=0, ge=0, le=5)  # reverse proxies whose X-Forwarded-For is believed
    # requests held open (seat long polls and websockets, lobby waits, live views, person tables) at
    # once per web process, one budget over all (ladder/web/held.py); past it, 429 with retry_ms.
    # 0: sized by the server `ladder web` runs (gevent: LONG_LIVED_GEVENT; threads: half of them)
    long_lived_per_process: int = Field(default=0, ge=0)
    # live matches (ladder/web/live.py): an address holding this many waiting polls gets 429
    live_waiting_per_address: int = Field(default=2, ge=1)
    live_wait_seconds: float = Field(default=10.0, gt=0, le=60)  # how long one poll waits for news

    # a person's seat ("Play it yourself", docs/play.md): seconds a decision, seconds without the
    # page before the fallback bot takes the seat, and the unfinished person matches per user and per address
    person_clock: int = Field(default=120, ge=5, le=3600)
    person_absent: int = Field(default=45, ge=5, le=3600)
    person_seats_per_user: int = Field(default=1, ge=1)
    person_seats_per_address: int = Field(default=3, ge=1)

    # the store of blobs (ladder/storage: build artifacts, the daily dumps; docs/operations.md, "The
    # store"): file:///an/absolute/folder or s3://bucket/prefix; None: the folder instance_dir/store.
    # Workers and web hosts share nothing else but the database and the broker.
    store: str | None = None
    store_endpoint: str | None = None  # an S3-compatible server's URL (MinIO, R2...); None: AWS's own
    store_region: str | None = None
    # S3 credentials; None: boto3's own chain (AWS_ACCESS_KEY_ID, an instance profile...)
    store_access_key: str | None = None
    store_secret_key: str | None = None

    # retention (ladder/services/retention.py; docs/operations.md, "Retention"), in days; 0: forever.
    # Replays (and the seats' logs) of validation, challenge and unranked ladder matches after they finished;
    retain_validation_days: int = Field(default=14, ge=0)
    retain_challenge_days: int = Field(default=30, ge=0)
    retain_unranked_days: int = Field(default=30, ge=0)
    # ranked ladder and event matches' replays, once their day's dump is in the store (summary rows stay)
    retain_ladder_days: int = Field(default=90, ge=0)
    # build artifacts none of whose versions can play any more
    retain_retired_build_days: int = Field(default=30, ge=0)
    prune_interval: int = Field(default=3600, ge=0)  # seconds between the scheduler's prune runs; 0: none
    prune_batch: int = Field(default=500, ge=1, le=100_000)  # matches (or artifacts) per transaction

    # operations (docs/operations.md, "Health, metrics and logs")
    log_format: Literal["text", "json"] = "text"  # json: one JSON object a line (match ends, requests)
    worker_heartbeat_interval: float = Field(default=10.0, gt=0, le=300)  # seconds between a worker's heartbeats
    worker_metrics_port: int | None = Field(default=None, ge=1, le=65535)  # a worker's /metrics; None: none
    # where it listens: loopback unless told (it shows internals); a Prometheus on another machine
    # or a container network needs the private address or 0.0.0.0 (docker-compose.yml sets that)
    worker_metrics_host: str = "127.0.0.1"
    # the web's bind address is reachable only by the reverse proxy though not loopback (a
    # container's internal network): needed, outside development, to believe X-Forwarded-For
    private_bind: bool = False

    # sessions
    login_days: int = Field(default=30, ge=1, le=365)  # a log-in (and its remember-me cookie) lasts at most
    secure_cookies: bool | None = None  # cookies only over HTTPS; None: on when LADDER_ENV=production

    # moderation (issue #42; docs/operations.md, "Moderation"). Names a bot or a user may not have:
    # comma-separated words, each refused anywhere in a name, case and "0/o 1/i/l 3/e 4/a 5/s 7/t"
    # folded (ladder/services/names.py); "-" alone: the built-in list only; "": none at all
    name_deny_list: str = "-"
    # sign-up addresses, kept as keyed hashes (ladder/services/signups.py) for this many days
    signup_address_days: int = Field(default=90, ge=1, le=3650)
    accounts_per_address: int = Field(default=10, ge=1)  # accounts signed up from one address in that time

    @field_validator("store", "store_endpoint", "store_region", "store_access_key", "store_secret_key")
    @classmethod
    def _blank_store_is_unset(cls, value: str | None) -> str | None:
        return (value.strip() or None) if value is not None else None

    @field_validator("store")
    @classmethod
    def _store_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        url = urlparse(value)
        if url.scheme == "file" and not url.netloc and url.path.startswith("/"):
            return value
        if url.scheme == "s3" and url.netloc and not url.query:
            return value
        raise ValueError(f"{value!r} is not a store: file:///an/absolute/folder or s3://bucket[/prefix]")

    @field_validator("database_url", "redis_url")
    @classmethod
    def _blank_is_unset(cls, value: str | None) -> str | None:
        return (value.strip() or None) if value is not None else None

    @field_validator("runtimes")
    @classmethod
    def _known_runtimes(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        names = [n.strip() for n in value.split(",") if n.strip()]
        unknown = [n for n in names if n not in BY_NAME]
        if unknown:
            raise ValueError(f"unknown runtime(s) {', '.join(unknown)}; the runtimes are {', '.join(BY_NAME)}")
        return ",".join(names)

    @field_validator("league_names")
    @classmethod
    def _league_names(cls, value: str) -> str:
        return ",".join(league_names(value))  # ValueError with the reason

    @property
    def leagues(self) -> tuple[str, ...]:
        """The leagues' names, weakest first."""
        return tuple(self.league_names.split(","))

    @property
    def accepted_runtimes(self) -> tuple[str, ...] | None:
        """The runtimes an upload may use; None: whichever this machine has."""
        return tuple(self.runtimes.split(",")) if self.runtimes else None

    @field_validator("signup_rate", "login_failures_per_address", "login_failures_per_account", "api_rate",
                     "seat_rate")
    @classmethod
    def _rate_limit_string(cls, value: str) -> str:
        from limits import parse_many

        try:
            if not parse_many(value):
                raise ValueError
        except ValueError:
            raise ValueError(f"{value!r} is not a rate such as '10 per minute' or '5/hour;20/day'") from None
        return value

    @model_validator(mode="after")
    def _refuse_placeholders(self) -> Settings:
        if self.env in RELAXED_ENVS:
            return self
        if self.secret_key.strip().lower() in PLACEHOLDERS or len(self.secret_key) < MIN_SECRET_LENGTH:
            raise ValueError(
                f"LADDER_SECRET_KEY must be set to a random value of at least {MIN_SECRET_LENGTH} characters "
                f"when LADDER_ENV={self.env} (e.g. {NEW_KEY})"
            )
        if secret_strength(self.secret_key) < MIN_SECRET_GUESSES_LOG10:
            raise ValueError(
                f"LADDER_SECRET_KEY is too easy to guess for LADDER_ENV={self.env} (repeated characters, words or "
                f"a pattern: about 10^{secret_strength(self.secret_key):.0f} guesses, at least "
                f"10^{MIN_SECRET_GUESSES_LOG10} needed); make a random one: {NEW_KEY}"
            )
        # the embedded defaults are one machine's: a production process on them would split the
        # ladder (a worker on a private SQLite broker beside the real PostgreSQL, or a new SQLite file)
        if self.database_url is None:
            raise ValueError(f"DATABASE_URL must be set when LADDER_ENV={self.env} (postgresql://...): "
                             "the embedded SQLite database is for development")
        if make_url(self.sqlalchemy_url).get_backend_name() == "sqlite":
            raise ValueError(f"DATABASE_URL is an SQLite database; LADDER_ENV={self.env} needs PostgreSQL")
        if self.redis_url is None:
            raise ValueError(f"REDIS_URL must be set when LADDER_ENV={self.env} (redis://...): the embedded "
                             "SQLite broker is one machine's, and each process would have its own")
        # the embedded store is one machine's folder: a worker's build would be missing on the web
        # host, a dump written by one scheduler missing from another's /datasets
        if self.store is None:
            raise ValueError(f"LADDER_STORE must be set when LADDER_ENV={self.env}: s3://bucket/prefix (with "
                             "LADDER_STORE_ENDPOINT for a server other than AWS's), or file:///a/folder that every "
                             "web and worker host mounts; the embedded instance folder is one machine's")
        if self.store_secret_key is not None and self.store_secret_key.strip().lower() in PLACEHOLDERS:
            raise ValueError(f"LADDER_STORE_SECRET_KEY is a placeholder when LADDER_ENV={self.env}")
        for name in ("database_url", "redis_url"):
            password = _url_password(getattr(self, name))
            if password is not None and password.strip().lower() in PLACEHOLDERS:
                raise ValueError(f"{name.upper()} uses a placeholder password when LADDER_ENV={self.env}")
        return self

    def proxy_refusal(self, host: str) -> str | None:
        """Why the web must not listen on `host` with these settings (None: it may). A trusted
        proxy's X-Forwarded-For is believed only where nothing but the proxy reaches the app: a
        client reaching it directly would set its own address per request (the per-address limits,
        log-in failures first, then count nothing)."""
        if not self.trusted_proxies or self.development or self.private_bind or loopback(host):
            return None
        return (f"LADDER_TRUSTED_PROXIES={self.trusted_proxies} believes X-Forwarded-For, but the site would listen "
                f"on {host}, where clients may reach it without the proxy and forge their address. Bind "
                "127.0.0.1 or a unix socket (--host unix:/run/ladder/web.sock) behind the proxy, or set "
                "LADDER_PRIVATE_BIND=1 if only the proxy can reach this address (a container's internal "
                "network; docs/operations.md, \"Behind a reverse proxy\")")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Settings from `environ` (default: os.environ), then keyword `overrides` on top."""
        environ = os.environ if environ is None else environ
        values: dict[str, object] = {}
        known = set(cls.model_fields)
        for key, value in environ.items():
            if not key.startswith(ENV_PREFIX):
                continue
            name = key[len(ENV_PREFIX):].lower()
            if name in ("database_url", "redis_url"):
                continue  # read from their conventional names only, so there is one source
            if name in GONE:
                raise ConfigError(f"{key}: {GONE[name]}")
            if name not in known:
                continue  # other LADDER_* variables belong to tests and tools (LADDER_REQUIRE_SERVICES)
            values[name] = value
        for key in ("DATABASE_URL", "REDIS_URL"):
            if key in environ:
                values[key.lower()] = environ[key]
        values.update(overrides)
        try:
            return cls(**values)
        except ValidationError as exc:
            raise ConfigError(_explain(exc)) from None

    @property
    def bot_data_cap(self) -> Cap:
        return Cap(self.bot_data_max_bytes, self.bot_data_max_files)

    @property
    def development(self) -> bool:
        return self.env in RELAXED_ENVS

    @property
    def cookies_secure(self) -> bool:
        """Session and remember-me cookies carry the Secure flag (sent over HTTPS only)."""
        return self.env == "production" if self.secure_cookies is None else self.secure_cookies

    @property
    def ratelimit_storage(self) -> str:
        """Where Flask-Limiter counts: Redis when configured, so all web processes share the counts."""
        return self.redis_url or "memory://"

    @property
    def sqlalchemy_url(self) -> str:
        """The database URL for SQLAlchemy, with the psycopg (v3) driver for PostgreSQL."""
        if self.database_url is None:
            return f"sqlite:///{(self.instance_dir / 'ladder.sqlite3').resolve()}"
        url = self.database_url
        for prefix in ("postgres://", "postgresql://"):  # Heroku-style and bare URLs mean psycopg here
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url[len(prefix):]
        return url

    @property
    def store_url(self) -> str:
        """LADDER_STORE, or the embedded folder under the instance directory (nothing to set up)."""
        return self.store or f"file://{(self.instance_dir / 'store').resolve()}"

    @property
    def embedded(self) -> bool:
        """True when no external services are configured (`ladder up` runs everything itself)."""
        return self.database_url is None and self.redis_url is None

    @property
    def broker_url(self) -> str:
        """Redis when REDIS_URL is set, else a broker in an SQLite file (kombu's SQLAlchemy transport)."""
        if self.redis_url is not None:
            return self.redis_url
        return f"sqla+sqlite:///{(self.instance_dir / 'broker.sqlite3').resolve()}"


# settings that were, and what replaced them: refused rather than ignored, so a deployment that set
# one learns where its files now go
GONE = {"dumps_dir": "the daily dumps live in the store now (LADDER_STORE, docs/operations.md \"The store\"): "
                     "move the old folder's <game>/ folders under the store's dumps/ and unset it"}

NEW_KEY = "python3 -c 'import secrets; print(secrets.token_urlsafe(48))'"


def secret_strength(key: str) -> float:
    """zxcvbn's estimate of the guesses `key` needs, log10 (its first 128 characters: its cost
    grows with length, and 128 random characters are far past any bound)."""
    from zxcvbn import zxcvbn

    return float(zxcvbn(key[:128])["guesses_log10"])


def loopback(host: str) -> bool:
    """Only this machine reaches `host`: a loopback address or name, or a unix socket (unix:PATH)."""
    if host.startswith("unix:") or host in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: assume it resolves beyond this machine


def _url_password(url: str | None) -> str | None:
    if url is None:
        return None
    try:
        return make_url(url).password
    except Exception:  # an unparsable URL fails later, with the driver's own message
        return None


def _explain(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"])
        name = loc.upper() if loc in ("database_url", "redis_url") else f"{ENV_PREFIX}{loc.upper()}" if loc else ""
        parts.append(f"{name}: {err['msg']}" if name else err["msg"].removeprefix("Value error, "))
    return "; ".join(parts)
