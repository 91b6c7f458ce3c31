"""The service's commands on an embedded instance: migrate, ratings recompute (which must notice a
tampered rating), and the workers' refusal to run bots in a weak sandbox outside development."""

from __future__ import annotations

from click.testing import CliRunner
from sqlmodel import select, update

from ladder.cli import main
from ladder.config import Settings
from ladder.db import make_engine, session_factory
from ladder.games import GAMES, get_game
from ladder.models import Match, Rating
from ladder.services.health import migration_head
from ladder.services.matches import claim_match, queue_match
from ladder.services.results import MatchOutcome, SeatOutcome, record_result


def run(args: list[str], instance, **env: str):
    # the metrics folder's variables too, so that CliRunner puts them back after a command set them
    environ = {"LADDER_INSTANCE_DIR": str(instance), "LADDER_ENV": "development", "DATABASE_URL": "",
               "REDIS_URL": "", "PROMETHEUS_MULTIPROC_DIR": None, "LADDER_PROMETHEUS_MULTIPROC_DIR": None, **env}
    return CliRunner().invoke(main, args, env=environ)


def play_some(instance, count: int) -> None:
    engine = make_engine(Settings(instance_dir=instance))
    with session_factory(engine)() as session:
        versions = sorted(r.bot_id for r in session.exec(select(Rating).where(Rating.game == "drachengold")))
        for n in range(count):
            match = queue_match(session=session, game="drachengold", seats=versions[:4])
            claim_match(session=session, match_id=match.id, worker_id="w")
            ranks = [1 + (n + i) % 4 for i in range(4)]
            record_result(session=session, match_id=match.id, worker_id="w",
                          outcome=MatchOutcome([SeatOutcome(rank=r, score=4 - r) for r in ranks]))
    engine.dispose()


def test_migrate_then_recompute_matches_and_notices_tampering(tmp_path):
    migrated = run(["migrate"], tmp_path)
    assert migrated.exit_code == 0, migrated.output
    starters = sum(len(get_game(g).starter_bots) for g in GAMES)  # every game's, as they declare them
    head = migration_head()
    assert f"migrated from an empty database to {head}; {starters} starter bots" in migrated.output
    again = run(["migrate"], tmp_path)  # safe to run at every deploy
    assert again.exit_code == 0 and f"schema at {head}, nothing to migrate" in again.output
    play_some(tmp_path, 5)
    checked = run(["ratings", "recompute"], tmp_path)
    assert checked.exit_code == 0, checked.output
    assert "5 rated matches replayed" in checked.output and "matches" in checked.output
    engine = make_engine(Settings(instance_dir=tmp_path))
    with session_factory(engine)() as session:
        row = session.exec(select(Rating).where(Rating.games > 0)).first()
        row.rating += 1
        session.add(row)
        session.commit()
        tampered = row.bot_id
    engine.dispose()
    refused = run(["ratings", "recompute"], tmp_path)
    assert refused.exit_code == 1
    assert f"bot {tampered} current rating rating" in refused.output


def test_recompute_write_rewrites_the_stored_ratings_then_checks_clean(tmp_path):
    assert run(["migrate"], tmp_path).exit_code == 0
    play_some(tmp_path, 4)
    engine = make_engine(Settings(instance_dir=tmp_path))
    with session_factory(engine)() as session:
        session.exec(update(Rating).where(Rating.games > 0).values(rating=Rating.rating + 5))
        session.commit()
    engine.dispose()
    dry = run(["ratings", "recompute"], tmp_path)
    assert dry.exit_code == 1 and "4 stored numbers differ" in dry.output, dry.output
    assert run(["ratings", "recompute"], tmp_path).exit_code == 1  # the dry run wrote nothing
    written = run(["ratings", "recompute", "--write"], tmp_path)
    assert written.exit_code == 0, written.output
    assert "4 stored numbers rewritten" in written.output
    assert run(["ratings", "recompute"], tmp_path).exit_code == 0


def test_recompute_reports_a_finished_ranked_match_without_rating_changes(tmp_path):
    assert run(["migrate"], tmp_path).exit_code == 0
    play_some(tmp_path, 2)
    engine = make_engine(Settings(instance_dir=tmp_path))
    with session_factory(engine)() as session:
        versions = sorted(r.bot_id for r in session.exec(select(Rating).where(Rating.game == "drachengold")))
        match = queue_match(session=session, game="drachengold", seats=versions[:4])
        session.exec(update(Match).where(Match.id == match.id).values(status="finished"))  # no result, no ratings
        session.commit()
        lacking = match.id
    engine.dispose()
    checked = run(["ratings", "recompute"], tmp_path)
    assert checked.exit_code == 1, checked.output
    assert "every stored rating, change and count matches" in checked.output  # the replay itself agrees
    assert "1 finished ranked matches lack rating changes" in checked.output
    assert f"match {lacking}: 0 rating changes for 4 seats" in checked.output


def test_workers_refuse_a_weak_sandbox_outside_development(tmp_path):
    result = run(["worker"], tmp_path, LADDER_ENV="production", LADDER_SANDBOX_MODE="none",
                 LADDER_SECRET_KEY="pVs2UrwNOc6DoD6aNxVUk7Gq_Rt5bq2Ws9LhXe3Jm", DATABASE_URL="postgresql://db/x",
                 REDIS_URL="redis://redis:6379/0", LADDER_STORE="s3://ladder/blobs")
    assert result.exit_code != 0
    assert "development only" in result.output


def test_configuration_errors_are_reported_not_raised(tmp_path):
    result = run(["migrate"], tmp_path, LADDER_ENV="production", LADDER_SECRET_KEY="changeme")
    assert result.exit_code != 0
    assert "LADDER_SECRET_KEY" in result.output and "Traceback" not in result.output


def test_ladder_up_says_where_the_site_is_first(tmp_path, monkeypatch):
    """The site's address is the first line `ladder up` prints, before any report or banner (the
    children are not started here: the supervisor is replaced by one that returns at once)."""
    import ladder.cli.serve

    class Started:
        def __init__(self, *args, **kwargs):
            pass

        def run(self, **kwargs):
            return 0

    monkeypatch.setattr(ladder.cli.serve, "Supervisor", Started)
    result = run(["up", "--port", "5099", "--sandbox", "none", "--instance", str(tmp_path)], tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("ladder up: the site will be at http://127.0.0.1:5099/")


def test_a_worker_builds_the_start_helper_before_its_pool_forks(tmp_path, strict_sandbox, capsys):
    from needs import unavailable

    from ladder.cli.service import _check_sandbox
    from workers.sandbox import spawn_helper

    _check_sandbox(Settings(instance_dir=tmp_path, sandbox_mode=strict_sandbox))
    helper = spawn_helper.path()  # what the check built: the pool's processes inherit the answer
    if helper is None:
        unavailable("the start helper could not be built here (a C compiler)")
    err = capsys.readouterr().err
    assert f"sandbox: {strict_sandbox} (" in err and f"bots start through {helper}" in err


PRODUCTION = {"LADDER_ENV": "production", "LADDER_SECRET_KEY": "pVs2UrwNOc6DoD6aNxVUk7Gq_Rt5bq2Ws9LhXe3Jm",
              "DATABASE_URL": "postgresql://ladder:Vx83kLq9@127.0.0.1:1/ladder", "REDIS_URL": "redis://127.0.0.1:1/0",
              "LADDER_STORE": "file:///srv/ladder-store"}


def test_production_commands_refuse_the_embedded_services_with_the_reason(tmp_path):
    for args in (["migrate"], ["worker"], ["web"], ["scheduler"]):
        result = run(args, tmp_path, **{**PRODUCTION, "DATABASE_URL": ""})
        assert result.exit_code != 0 and "DATABASE_URL must be set when LADDER_ENV=production" in result.output
        result = run(args, tmp_path, **{**PRODUCTION, "REDIS_URL": ""})
        assert result.exit_code != 0 and "REDIS_URL must be set when LADDER_ENV=production" in result.output
    assert not (tmp_path / "ladder.sqlite3").exists() and not (tmp_path / "broker.sqlite3").exists()


def test_the_web_refuses_to_believe_forwarded_addresses_where_clients_reach_it(tmp_path):
    result = run(["web", "--host", "0.0.0.0"], tmp_path, **PRODUCTION, LADDER_TRUSTED_PROXIES="1")
    assert result.exit_code != 0 and "forge their address" in result.output and "Traceback" not in result.output


def test_migrate_says_from_which_revision_it_went(tmp_path):
    from ladder.db import upgrade

    engine = make_engine(Settings(instance_dir=tmp_path))
    upgrade(engine, _previous_revision())
    engine.dispose()
    migrated = run(["migrate"], tmp_path)
    assert f"migrated from {_previous_revision()} to {migration_head()}" in migrated.output, migrated.output


def _previous_revision() -> str:
    from alembic.script import ScriptDirectory

    from ladder.db import alembic_config

    return ScriptDirectory.from_config(alembic_config()).get_revision(migration_head()).down_revision


def test_scorecard_recompute_checks_then_rewrites_the_stored_scorecards(tmp_path):
    from ladder.models import ScorecardSum
    from ladder.play import play_builtin
    from ladder.services.results import outcome_from_replay

    assert run(["migrate"], tmp_path).exit_code == 0
    engine = make_engine(Settings(instance_dir=tmp_path))
    with session_factory(engine)() as session:
        versions = sorted(r.bot_id for r in session.exec(select(Rating).where(Rating.game == "treasure")))
        for seed in (1, 2):
            match = queue_match(session=session, game="treasure", seats=versions[:3], seed=seed)
            claim_match(session=session, match_id=match.id, worker_id="w")
            played = play_builtin("treasure", ["careful", "random", "memory"], seed=seed)
            record_result(session=session, match_id=match.id, worker_id="w", outcome=outcome_from_replay(played.replay))
        row = session.exec(select(ScorecardSum)).first()  # a seat's own row keeps only the charted measures
        row.tallies = {**row.tallies, "bust_rate": [0, 99]}
        session.add(row)
        session.commit()
    engine.dispose()
    checked = run(["scorecard", "recompute", "--check"], tmp_path)
    assert checked.exit_code == 1 and "2 matches, 6 seats measured" in checked.output
    assert "1 stored seats or sums differed" in checked.output, checked.output
    written = run(["scorecard", "recompute", "--game", "treasure"], tmp_path)
    assert written.exit_code == 0 and "sums written" in written.output, written.output
    clean = run(["scorecard", "recompute", "--check"], tmp_path)
    assert clean.exit_code == 0 and "0 stored seats or sums differed" in clean.output
    assert run(["scorecard", "recompute", "--game", "chess"], tmp_path).exit_code == 2
