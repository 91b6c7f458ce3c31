"""`ladder bench botdata`, CI-sized: a few concurrent strict matches through the worker path keep
every clean match's file, tear nothing and hold the cap, on SQLite and PostgreSQL; and its check
can fail (results recorded without their data are reported as lost writes)."""

from __future__ import annotations

import pytest
from conftest import PG_ADMIN_URL
from needs import unavailable
from sqlmodel import select

from ladder.cli.bench import botdata as bench
from ladder.config import Settings
from ladder.db import make_engine, session_factory
from ladder.models import Seat
from ladder.services import matches, results
from ladder.services.results import MatchOutcome, SeatOutcome


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_concurrent_matches_lose_no_write_and_hold_the_cap(strict_sandbox, database, request):
    if database == "postgresql" and request.getfixturevalue("postgres_database").startswith("unreachable"):
        unavailable("PostgreSQL")
    lines: list[str] = []
    [result] = bench.run_botdata_bench(matches=4, workers=2, databases=[database], postgres=PG_ADMIN_URL,
                                       echo=lines.append, game="treasure")
    assert result.ok, lines
    assert (result.finished, result.keeper_clean, result.runs, result.keeper_version) == (4, 4, 4, 4), lines
    assert "over the cap" in result.hog_note


def test_results_recorded_without_their_data_are_reported_as_lost_writes(tmp_path):
    with bench._sqlite() as url:
        ids, keeper, hog = bench._seed(url, str(tmp_path), "treasure", 2, Settings().bot_data_cap)
        engine = make_engine(url)
        with session_factory(engine)() as session:
            for match_id in ids:
                matches.claim_match(session=session, match_id=match_id, worker_id="w")
                seats = session.exec(select(Seat).where(Seat.match_id == match_id)).all()
                results.record_result(session=session, match_id=match_id, worker_id="w", outcome=MatchOutcome(
                    [SeatOutcome(rank=i + 1) for i in range(len(seats))]))
        engine.dispose()
        checked = bench._check(url, str(tmp_path), "sqlite", keeper, hog, ids, 1.0)
    assert not checked.ok
    assert any("lost writes" in b for b in checked.breaches), checked.breaches
