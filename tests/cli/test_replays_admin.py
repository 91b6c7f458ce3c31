"""`ladder admin compact-replays`: converts old gzip rows in batches, says what it did, and with
--expand turns them back; bad combinations are refused."""

import gzip

from click.testing import CliRunner
from sqlalchemy import update
from sqlmodel import select

from ladder.cli import main
from ladder.models import BotVersion
from ladder.models import Replay as ReplayRow
from ladder.play import play_builtin
from ladder.replay import dumps_replay
from ladder.services.bots import seed_house_bots
from ladder.services.matches import claim_match, queue_match
from ladder.services.results import outcome_from_replay, record_result
from ladder.services.stored_replays import stored_replay_bytes


def test_compact_replays_converts_in_batches_and_expands_back(engine, db_url, session, tmp_path):
    env = {"DATABASE_URL": db_url, "LADDER_INSTANCE_DIR": str(tmp_path), "LADDER_ENV": "test"}
    seed_house_bots(session=session, games=["treasure"])
    versions = session.exec(select(BotVersion.id).order_by(BotVersion.id)).all()[:2]
    raws = {}
    for seed in range(3):
        match = queue_match(session=session, game="treasure", seats=versions, seed=seed)
        claim_match(session=session, match_id=match.id, worker_id="w")
        replay = play_builtin("treasure", ["careful", "random"], seed=match.seed).replay
        record_result(session=session, match_id=match.id, outcome=outcome_from_replay(replay), worker_id="w")
        raws[match.id] = dumps_replay(replay)
        table = ReplayRow.__table__
        session.exec(update(table).where(table.c.match_id == match.id)
                     .values(data=gzip.compress(raws[match.id]), compact=False))  # as an older ladder stored it
        session.commit()

    done = CliRunner().invoke(main, ["admin", "compact-replays", "--batch", "2"], env=env)
    assert done.exit_code == 0, done.output
    assert "3 replays compacted, 0 kept as they were" in done.output
    assert "2 rows looked at" in done.output  # the first batch's progress line
    session.rollback()
    assert all(row.compact for row in session.exec(select(ReplayRow)).all())
    assert all(stored_replay_bytes(session=session, match_id=m) == raw for m, raw in raws.items())
    again = CliRunner().invoke(main, ["admin", "compact-replays"], env=env)
    assert again.exit_code == 0 and "0 replays compacted" in again.output

    back = CliRunner().invoke(main, ["admin", "compact-replays", "--expand", "--game", "treasure"], env=env)
    assert back.exit_code == 0 and "3 replays expanded" in back.output, back.output
    session.rollback()
    assert not any(row.compact for row in session.exec(select(ReplayRow)).all())
    refused = CliRunner().invoke(main, ["admin", "compact-replays", "--game", "treasure"], env=env)
    assert refused.exit_code == 2 and "--game goes with --expand" in refused.output
    unknown = CliRunner().invoke(main, ["admin", "compact-replays", "--expand", "--game", "chess"], env=env)
    assert unknown.exit_code == 2 and "unknown game 'chess'" in unknown.output
