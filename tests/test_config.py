"""Settings from the environment: embedded defaults, URL handling, refusing placeholder secrets."""

from __future__ import annotations

from pathlib import Path

import pytest

from ladder.config import DEV_SECRET_KEY, ConfigError, Settings

STRONG = "k" * 20 + "Q7x!" + "z" * 20


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
    env = {"LADDER_ENV": "production"}
    if secret is not None:
        env["LADDER_SECRET_KEY"] = secret
    with pytest.raises(ConfigError, match="LADDER_SECRET_KEY"):
        Settings.from_env(env)


def test_production_refuses_placeholder_database_password():
    env = {"LADDER_ENV": "production", "LADDER_SECRET_KEY": STRONG}
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        Settings.from_env({**env, "DATABASE_URL": "postgresql://ladder:changeme@db/ladder"})
    with pytest.raises(ConfigError, match="REDIS_URL"):
        Settings.from_env({**env, "REDIS_URL": "redis://:password@redis:6379/0"})
    s = Settings.from_env({**env, "DATABASE_URL": "postgresql://ladder:Vx83kLq9@db/ladder"})
    assert s.env == "production" and not s.development


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
    assert Settings(env="production", secret_key=STRONG).cookies_secure
    assert not Settings(env="production", secret_key=STRONG, secure_cookies=False).cookies_secure
    assert Settings(secure_cookies=True).cookies_secure
