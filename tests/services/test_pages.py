"""Page data: leaderboard, bot page, match page, replays and owner-only logs."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import event, inspect
from sqlmodel import select

from ladder.games import get_game
from ladder.models import Rating, RatingChange
from ladder.ranking.ratings import INITIAL_RATING
from ladder.services import bots, pages
from ladder.services.errors import Forbidden, Invalid, NotFound


def test_leaderboard_orders_pages_and_describes_each_bot(world, session):
    bots.seed_house_bots(session=session, games=["treasure"])
    entries = [world.bot() for _ in range(5)]
    versions = [v.id for _, v in entries]
    world.play(versions, [1, 2, 3, 4, 5])
    world.play(versions[:2], [1, 2])
    retired, _ = entries[4]
    bots.retire_bot(session=session, bot_id=retired.id)

    starters = set(get_game("treasure").starter_bots)
    total = 4 + len(starters)  # 4 live bots and the game's starter bots
    per_page = (total + 1) // 2
    first = pages.leaderboard(session=session, game="treasure", page=1, per_page=per_page)
    second = pages.leaderboard(session=session, game="treasure", page=2, per_page=per_page)
    rows = first.rows + second.rows
    assert first.total == second.total == total and first.pages == 2
    assert [r.rank for r in rows] == list(range(1, total + 1))
    assert [r.rating for r in rows] == sorted((r.rating for r in rows), reverse=True)
    assert retired.id not in {r.bot_id for r in rows}
    top = rows[0]
    assert (top.bot_id, top.games, top.wins, top.win_rate, top.provisional) == (entries[0][0].id, 2, 2, 1.0, True)
    assert top.owner_name.startswith("user") and not top.house and top.last_played_at is not None
    house = [r for r in rows if r.house]
    assert {r.bot_name for r in house} == starters
    assert all(r.rating == INITIAL_RATING and r.games == 0 and r.win_rate is None for r in house)
    assert pages.leaderboard(session=session, game="drachengold").rows == []
    with pytest.raises(Invalid):
        pages.leaderboard(session=session, game="treasure", per_page=10_000)


def test_bot_page_shows_versions_history_recent_matches_and_head_to_head(world, session):
    alice = world.user()
    bot, v1 = world.bot(owner=alice, name="smaug")
    (other, o1), (_, t1) = world.bot(name="glaurung"), world.bot(name="fafnir")
    bots.add_version(session=session, bot_id=bot.id, code=b"v2", filename="b.py")
    played = [world.play([v1.id, o1.id], [1, 2]), world.play([o1.id, v1.id], [1, 2]),
              world.play([v1.id, o1.id, t1.id], [1, 1, 3])]

    session.expunge_all()  # a fresh request: nothing cached in the session
    page = pages.bot_page(session=session, bot_id=bot.id, history=2, recent=2)
    assert (page.bot.name, page.owner.id) == ("smaug", alice.id)
    assert [v.number for v in page.versions] == [2, 1]
    assert all("code" not in inspect(v).dict for v in page.versions)  # the code is not loaded
    assert [p.match_id for p in page.history] == [played[1].id, played[2].id]  # the last two, oldest first
    assert page.history[-1].after == page.rating.rating == session.get(Rating, bot.id).rating
    assert [r.match.id for r in page.recent] == [played[2].id, played[1].id]
    assert [(r.seat.rank, r.seats) for r in page.recent] == [(1, 3), (2, 2)]
    board = pages.leaderboard(session=session, game="treasure")
    assert (page.rank, page.board_size) == (next(r.rank for r in board.rows if r.bot_id == bot.id), board.total)
    for row in board.rows:  # every bot's own page agrees with the leaderboard
        assert pages.bot_page(session=session, bot_id=row.bot_id).rank == row.rank
    # its Elo change from the rating history and whom it played, in rank order
    changes = {c.match_id: c.delta for c in session.exec(select(RatingChange).where(RatingChange.bot_id == bot.id))}
    assert [r.delta for r in page.recent] == [changes[played[2].id], changes[played[1].id]]
    assert [p.delta for p in page.history] == [changes[played[1].id], changes[played[2].id]]  # after - before
    assert all(r.delta is not None for r in page.recent)
    assert [[(o.bot_name, o.rank) for o in r.opponents] for r in page.recent] == [
        [("glaurung", 1), ("fafnir", 3)], [("glaurung", 1)]]
    # read as plain rows, not entities: the columns' types still make the times aware UTC
    assert {p.at.utcoffset() for p in page.history} == {r.match.created_at.utcoffset() for r in page.recent} == {
        timedelta(0)}
    untimed = pages.bot_page(session=session, bot_id=bot.id, history=2, recent=2, history_times=False)
    assert untimed.history == [replace(p, at=None) for p in page.history]  # the web page's chart needs no times
    assert (untimed.recent, untimed.head_to_head) == (page.recent, page.head_to_head)
    h2h = {row.opponent_name: row for row in page.head_to_head}
    glaurung = h2h["glaurung"]
    assert (glaurung.meetings, glaurung.wins, glaurung.losses, glaurung.ties) == (3, 1, 1, 1)
    assert (h2h["fafnir"].meetings, h2h["fafnir"].wins) == (1, 1)
    assert [row.opponent_name for row in page.head_to_head] == ["glaurung", "fafnir"]  # most met first
    mirror = {row.opponent_id: row for row in pages.bot_page(session=session, bot_id=other.id).head_to_head}
    assert (mirror[bot.id].wins, mirror[bot.id].losses) == (1, 1)
    with pytest.raises(NotFound):
        pages.bot_page(session=session, bot_id=999_999)


def test_bot_page_rows_are_covered_by_their_indexes_on_postgresql(session):
    """A bot's seats and head-to-head rows come from the index alone on PostgreSQL (migration 0003;
    rating changes: 0002, tests/test_models.py): heap pages made a full bot page slow at 1M matches."""
    engine = session.get_bind()
    wanted = {
        ("seats", "ix_seats_bot_match"): (["bot_id", "match_id"], {"rank", "score", "status"}),
        ("head_to_head", "ix_head_to_head_bot_meetings"): (["bot_id", "meetings"],
                                                           {"opponent_id", "wins", "losses", "ties"}),
    }
    for (table, name), (columns, covered) in wanted.items():
        index = next(i for i in inspect(engine).get_indexes(table) if i["name"] == name)
        assert index["column_names"] == columns
        if engine.dialect.name == "postgresql":
            assert set(index["dialect_options"]["postgresql_include"]) == covered


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)  # included columns are PostgreSQL's
def test_the_charts_history_is_read_from_its_index_alone_on_postgresql(world, session):
    """The statement the web page's chart runs (no times) is an index-only scan of the rating
    history's covering index (migration 0027 keeps in it only the columns that statement reads)."""
    engine = session.get_bind()
    (bot, v1), (_, o1) = world.bot(), world.bot()
    world.play([v1.id, o1.id], [1, 2])
    statements = []

    def grab(conn, cursor, statement, parameters, context, executemany):
        if "FROM rating_changes" in statement and "seats" not in statement:
            statements.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", grab)
    try:
        pages.bot_page(session=session, bot_id=bot.id, history_times=False)
    finally:
        event.remove(engine, "before_cursor_execute", grab)
    (statement, parameters), = statements
    with engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        cursor = raw.cursor()
        cursor.execute("SET enable_seqscan = off")
        cursor.execute("SET enable_bitmapscan = off")
        cursor.execute(f"EXPLAIN {statement}", parameters)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        raw.rollback()
    assert "Index Only Scan" in plan and "ix_rating_changes_bot_sequence" in plan, plan


def test_match_detail_and_replay(world, session):
    (_, a), (_, b) = world.bot(), world.bot()
    match = world.play([a.id, b.id], [2, 1])
    view = pages.match_detail(session=session, match_id=match.id)
    assert view.match.status == "finished" and not view.has_replay
    assert [(s.seat.seat, s.seat.rank, s.version_number) for s in view.seats] == [(0, 2, 1), (1, 1, 1)]
    query = select(RatingChange.seat, RatingChange.delta).where(RatingChange.match_id == match.id)
    deltas = dict(session.exec(query).all())
    assert [s.rating_delta for s in view.seats] == [deltas[0], deltas[1]] and deltas[0] < 0 < deltas[1]
    with pytest.raises(NotFound, match="no replay"):
        pages.replay_json(session=session, match_id=match.id)


def test_logs_are_for_the_owner_and_admins_only(world, session):
    alice, admin, mallory = world.user(), world.user(admin=True), world.user()
    (_, a), (_, b) = world.bot(owner=alice), world.bot()
    match = world.play([a.id, b.id], [1, 2], logs=["alice's stderr", None])
    assert pages.bot_log(session=session, match_id=match.id, seat=0, viewer_id=alice.id).text == "alice's stderr"
    assert pages.bot_log(session=session, match_id=match.id, seat=0, viewer_id=admin.id).text == "alice's stderr"
    for viewer in (mallory.id, None):
        with pytest.raises(Forbidden):
            pages.bot_log(session=session, match_id=match.id, seat=0, viewer_id=viewer)
    with pytest.raises(NotFound):
        pages.bot_log(session=session, match_id=match.id, seat=5, viewer_id=alice.id)


def test_the_boss_is_marked_on_the_board_and_each_bot_page_says_whether_it_was_beaten(world, session):
    seeded = {b.builtin: b for b in bots.seed_house_bots(session=session, games=["treasure"])}
    boss_name = get_game("treasure").boss
    boss = seeded[boss_name]
    boss_version = bots.active_version(session=session, bot_id=boss.id).id
    (climber, c1), (stuck, s1), (fresh, _) = world.bot(name="climber"), world.bot(name="stuck"), world.bot()
    for ranks in ([1, 2, 3], [1, 2, 3], [2, 1, 3]):  # climber above the boss twice of three, stuck never
        world.play([c1.id, boss_version, s1.id], ranks)

    board = pages.leaderboard(session=session, game="treasure")
    assert [r.bot_name for r in board.rows if r.boss] == [boss.name]
    record = pages.bot_page(session=session, bot_id=climber.id).boss
    assert (record.boss_id, record.meetings, record.above, record.below, record.beaten) == (boss.id, 3, 2, 1, True)
    record = pages.bot_page(session=session, bot_id=stuck.id).boss
    assert (record.meetings, record.above, record.beaten) == (3, 0, False)
    assert pages.bot_page(session=session, bot_id=fresh.id).boss.meetings == 0
    assert pages.bot_page(session=session, bot_id=boss.id).boss is None  # the boss has no boss


def test_every_page_of_the_board_names_the_boss_and_where_it_stands(world, session):
    seeded = {b.builtin: b for b in bots.seed_house_bots(session=session, games=["treasure"])}
    boss = seeded[get_game("treasure").boss]
    boss_version = bots.active_version(session=session, bot_id=boss.id).id
    (_, above), (_, below) = world.bot(), world.bot()
    world.play([above.id, boss_version, below.id], [1, 2, 3])  # one bot climbs over it, one falls below

    everyone = pages.leaderboard(session=session, game="treasure", per_page=200)
    where = next(r.rank for r in everyone.rows if r.bot_id == boss.id)
    assert where > 1 and everyone.boss.rating == next(r.rating for r in everyone.rows if r.bot_id == boss.id)
    for page in range(1, everyone.total + 1):  # pages of one bot: the boss is on one of them only
        board = pages.leaderboard(session=session, game="treasure", page=page, per_page=1)
        assert (board.boss.bot_id, board.boss.name, board.boss.rank) == (boss.id, boss.name, where)

    bots.retire_bot(session=session, bot_id=boss.id)  # a retired boss is named, without a place
    board = pages.leaderboard(session=session, game="treasure")
    assert board.boss.bot_id == boss.id and board.boss.rank is None and board.boss.rating is None


def test_a_board_whose_boss_is_not_seeded_names_none(world, session):
    world.bot()
    assert pages.leaderboard(session=session, game="treasure").boss is None
