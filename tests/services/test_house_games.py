"""House-bot games stored as ladder matches: finished, unranked, the house bots' current versions,
the replay exactly the in-process game of that seed, exported like any match; bad lineups refused
with nothing written."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from sqlmodel import select

from ladder.models import Bot, Match, MatchStatus, RatingChange, Seat, User
from ladder.play import play_builtin
from ladder.replay import Decision, dumps_replay
from ladder.services.bots import active_version
from ladder.services.errors import Invalid
from ladder.services.export import export_matches
from ladder.services.house_games import RECORDER, SANDBOX, record_house_games
from ladder.services.stored_replays import stored_replay_bytes

LINEUP = ["careful", "memory", "random"]


def test_each_seed_becomes_a_finished_unranked_match_with_its_replay(session):
    recorded = record_house_games(session=session, game="treasure", bots=LINEUP, seeds=[5, 6])

    assert [g.seed for g in recorded] == [5, 6]
    rows = session.exec(select(Match).order_by(Match.id)).all()
    assert [m.id for m in rows] == [g.match_id for g in recorded]
    for match, game in zip(rows, recorded, strict=True):
        assert (match.status, match.kind, match.ranked, match.sandbox) == (MatchStatus.FINISHED, "ladder", False,
                                                                          SANDBOX)
        assert match.seed == game.seed and match.claimed_by == RECORDER and match.finished_at is not None
        # the stored replay is the game that seed gives in-process, byte for byte
        again = play_builtin("treasure", LINEUP, seed=game.seed, sandbox=SANDBOX).replay
        assert stored_replay_bytes(session=session, match_id=match.id) == dumps_replay(again)
        seats = session.exec(select(Seat, Bot, User).join(Bot, Bot.id == Seat.bot_id)
                             .join(User, User.id == Bot.owner_id)
                             .where(Seat.match_id == match.id).order_by(Seat.seat)).all()
        assert [(bot.name, user.username, user.is_system) for _s, bot, user in seats] == [
            (name, "house", True) for name in LINEUP]
        assert all(seat.bot_version_id == active_version(session=session, bot_id=bot.id).id
                   for seat, bot, _u in seats)
        assert [(s.rank, s.score) for s, _b, _u in seats] == [(r.rank, r.score) for r in again.results]
    # unranked: nobody's rating moved
    assert session.exec(select(RatingChange)).all() == []


def test_the_recorded_games_are_exported_like_any_match(session, sessions, tmp_path):
    [game] = record_house_games(session=session, game="treasure", bots=["random", "careful"], seeds=[11])

    summary = export_matches(sessions, tmp_path)

    [match] = pq.read_table(summary.files["matches"]).to_pylist()
    assert (match["match_id"], match["seed"], match["players"], match["has_replay"]) == (game.match_id, 11, 2, True)
    seats = pq.read_table(summary.files["seats"]).to_pylist()
    assert [(s["bot"], s["owner"], s["rating_delta"]) for s in seats] == [("random", "house", None),
                                                                       ("careful", "house", None)]
    log = pq.read_table(summary.files["log"]).to_pylist()
    decisions = [(r["seat"], json.loads(r["payload"])) for r in log if r["entry"] == "decision"]
    assert decisions == [(d.seat, d.decision) for d in game.replay.log if isinstance(d, Decision)]
    assert len(decisions) == game.replay.decisions() > 0


@pytest.mark.parametrize(("bots", "message"), [
    (["careful", "careful"], "repeats a name"),
    (["careful", "greedy"], "'greedy' is not a starter bot of treasure"),
    (["careful", "nosuch"], "'nosuch' is not a starter bot"),
])
def test_a_bad_lineup_is_refused_and_nothing_is_written(session, bots, message):
    with pytest.raises(Invalid, match=message):
        record_house_games(session=session, game="treasure", bots=bots, seeds=[1])
    assert session.exec(select(Match)).all() == []


def test_a_bad_player_count_writes_no_match(session):
    with pytest.raises(Exception, match="players"):
        record_house_games(session=session, game="treasure", bots=["careful"], seeds=[1])
    assert session.exec(select(Match)).all() == []
