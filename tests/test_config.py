"""Settings from the environment: embedded defaults, URL handling, refusing placeholder secrets."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from ladder.config import DEV_SECRET_KEY, ConfigError, Settings

STRONG = "pVs2UrwNOc6DoD6aNxVUk7Gq_Rt5bq2Ws9LhXe3Jm"  # random: zxcvbn puts it at 10^40 guesses
SERVICES = {"DATABASE_URL": "postgresql://ladder:Vx83kLq9@db/ladder", "REDIS_URL": "redis://:Rt5bq2Ws@redis:6379/0"}
PRODUCTION = {"LADDER_ENV": "production", "LADDER_SECRET_KEY": STRONG, **SERVICES, "LADDER_STORE": "s3://ladder/prod"}


def test_embedded_defaults_need_no_services(tmp_path):
    s = Settings.from_env({"LADDER_INSTANCE_DIR": str(tmp_path)})
    assert s.env == "development" and s.embedded
    assert s.sqlalchemy_url == f"sqlite:///{tmp_path.resolve() / 'ladder.sqlite3'}"
    assert s.broker_url == f"sqla+sqlite:///{tmp_path.resolve() / 'broker.sqlite3'}"
    assert s.secret_key == DEV_SECRET_KEY


def test_reads_only_the_given_mapping(monkeypatch):
    monkeypatch.setenv("LADDER_PLACEMENT_GAMES", "99")
    assert Settings.from_env({}).placement_games == 10
    assert Settings.from_env().placement_games == 99  # os.environ when no mapping is passed


def test_typed_values_are_parsed_and_checked():
    s = Settings.from_env({"LADDER_MATCH_STALE_AFTER": "60", "LADDER_SQL_ECHO": "true", "LADDER_SANDBOX_MODE": "user"})
    assert (s.match_stale_after, s.sql_echo, s.sandbox_mode) == (60, True, "user")
    with pytest.raises(ConfigError, match="LADDER_MATCH_STALE_AFTER"):
        Settings.from_env({"LADDER_MATCH_STALE_AFTER": "soon"})
    with pytest.raises(ConfigError, match="LADDER_SANDBOX_MODE"):
        Settings.from_env({"LADDER_SANDBOX_MODE": "off"})


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgres://u:p@db/ladder", "postgresql+psycopg://u:p@db/ladder"),
        ("postgresql://u:p@db:5433/ladder", "postgresql+psycopg://u:p@db:5433/ladder"),
        ("postgresql+psycopg://u@db/x", "postgresql+psycopg://u@db/x"),
        ("sqlite:////var/lib/ladder.db", "sqlite:////var/lib/ladder.db"),
    ],
)
def test_database_url_uses_psycopg3(given, expected):
    s = Settings.from_env({"DATABASE_URL": given})
    assert s.sqlalchemy_url == expected and not s.embedded


def test_redis_url_is_the_broker_and_blank_means_unset():
    assert Settings.from_env({"REDIS_URL": "redis://r:6379/0"}).broker_url == "redis://r:6379/0"
    assert Settings.from_env({"REDIS_URL": "  ", "DATABASE_URL": ""}).embedded


@pytest.mark.parametrize("secret", [None, "", "changeme", "dev", DEV_SECRET_KEY, "short-but-random-7Gq"])
def test_production_refuses_placeholder_or_short_secrets(secret):
    env = {"LADDER_ENV": "production", **SERVICES}
    if secret is not None:
        env["LADDER_SECRET_KEY"] = secret
    with pytest.raises(ConfigError, match="LADDER_SECRET_KEY"):
        Settings.from_env(env)


def test_production_refuses_placeholder_database_password():
    with pytest.raises(ConfigError, match="DATABASE_URL uses a placeholder"):
        Settings.from_env({**PRODUCTION, "DATABASE_URL": "postgresql://ladder:changeme@db/ladder"})
    with pytest.raises(ConfigError, match="REDIS_URL uses a placeholder"):
        Settings.from_env({**PRODUCTION, "REDIS_URL": "redis://:password@redis:6379/0"})
    s = Settings.from_env(PRODUCTION)
    assert s.env == "production" and not s.development


@pytest.mark.parametrize("secret", ["a" * 40, "passwordpasswordpasswordpassword", "passwordpasswordpasswordpassword1",
                                    "abcdefghijklmnopqrstuvwxyz0123456789", "Tr0ub4dor&3Tr0ub4dor&3Tr0ub4dor&3xx"])
def test_production_refuses_long_but_guessable_secrets(secret):
    with pytest.raises(ConfigError, match=r"too easy to guess.*secrets\.token_urlsafe"):
        Settings.from_env({**PRODUCTION, "LADDER_SECRET_KEY": secret})


# made in the test, not in the parameters: xdist's workers each collect the parameters, and random
# ones differ between them (a collection error)
@pytest.mark.parametrize("make", [lambda: secrets.token_urlsafe(48), lambda: secrets.token_hex(16),
                                  lambda: secrets.token_urlsafe(24)], ids=["urlsafe-48", "hex-16", "urlsafe-24"])
def test_production_takes_random_secrets(make):
    secret = make()
    assert Settings.from_env({**PRODUCTION, "LADDER_SECRET_KEY": secret}).secret_key == secret


def test_production_refuses_the_embedded_database_and_broker():
    without_db = {k: v for k, v in PRODUCTION.items() if k != "DATABASE_URL"}
    with pytest.raises(ConfigError, match="DATABASE_URL must be set when LADDER_ENV=production"):
        Settings.from_env(without_db)
    with pytest.raises(ConfigError, match="DATABASE_URL is an SQLite database"):
        Settings.from_env({**PRODUCTION, "DATABASE_URL": "sqlite:////var/lib/ladder.db"})
    with pytest.raises(ConfigError, match="REDIS_URL must be set when LADDER_ENV=production"):
        Settings.from_env({k: v for k, v in PRODUCTION.items() if k != "REDIS_URL"})
    with pytest.raises(ConfigError, match="REDIS_URL must be set"):
        Settings.from_env({**PRODUCTION, "REDIS_URL": " "})  # blank is unset
    assert Settings.from_env({"LADDER_ENV": "development"}).embedded  # development keeps its defaults


def test_production_needs_a_store_every_host_reaches():
    with pytest.raises(ConfigError, match="LADDER_STORE must be set when LADDER_ENV=production"):
        Settings.from_env({k: v for k, v in PRODUCTION.items() if k != "LADDER_STORE"})
    with pytest.raises(ConfigError, match="LADDER_STORE_SECRET_KEY is a placeholder"):
        Settings.from_env({**PRODUCTION, "LADDER_STORE_SECRET_KEY": "changeme"})
    assert Settings.from_env({**PRODUCTION, "LADDER_STORE": "file:///srv/nfs/ladder"}).store_url == \
        "file:///srv/nfs/ladder"  # a folder every host mounts
    assert Settings.from_env({"LADDER_ENV": "development"}).store is None  # development: the instance folder


def test_trusted_proxies_are_refused_where_clients_reach_the_app_directly():
    proxied = Settings.from_env({**PRODUCTION, "LADDER_TRUSTED_PROXIES": "1"})
    for host in ("127.0.0.1", "::1", "localhost", "unix:/run/ladder/web.sock"):
        assert proxied.proxy_refusal(host) is None, host
    for host in ("0.0.0.0", "10.0.0.5", "example.org"):
        assert "forge their address" in proxied.proxy_refusal(host), host
    internal = Settings.from_env({**PRODUCTION, "LADDER_TRUSTED_PROXIES": "1", "LADDER_PRIVATE_BIND": "1"})
    assert internal.proxy_refusal("0.0.0.0") is None  # the operator says only the proxy reaches it
    assert Settings.from_env(PRODUCTION).proxy_refusal("0.0.0.0") is None  # no proxy believed: nothing to forge
    assert Settings(trusted_proxies=1).proxy_refusal("0.0.0.0") is None  # development


def test_development_accepts_the_defaults_and_tests_pass_settings_in(tmp_path):
    s = Settings(env="test", instance_dir=Path(tmp_path), placement_games=0)
    assert s.development and s.placement_games == 0
    with pytest.raises(Exception, match="frozen"):
        s.placement_games = 3  # one immutable object, passed around


def test_limits_are_settings_with_defaults_and_bad_rates_are_refused():
    s = Settings.from_env({"LADDER_UPLOADS_PER_DAY": "5", "LADDER_API_RATE": "10/second;100 per hour"})
    assert s.uploads_per_day == 5 and s.api_rate == "10/second;100 per hour"
    assert Settings().ratelimit_storage == "memory://"
    assert Settings(redis_url="redis://r:6379/1").ratelimit_storage == "redis://r:6379/1"
    with pytest.raises(ConfigError, match=r"LADDER_LOGIN_FAILURES_PER_ACCOUNT: .*not a rate"):
        Settings.from_env({"LADDER_LOGIN_FAILURES_PER_ACCOUNT": "five a minute"})
    with pytest.raises(ConfigError, match="LADDER_CHALLENGES_IN_FLIGHT"):
        Settings.from_env({"LADDER_CHALLENGES_IN_FLIGHT": "0"})


def test_cookies_are_secure_in_production_unless_turned_off():
    assert not Settings().cookies_secure
    assert Settings.from_env(PRODUCTION).cookies_secure
    assert not Settings.from_env({**PRODUCTION, "LADDER_SECURE_COOKIES": "false"}).cookies_secure
    assert Settings(secure_cookies=True).cookies_secure
