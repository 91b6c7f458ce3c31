"""Match lists: every listed match's seats, with names and ranks, in one query."""

from __future__ import annotations

from sqlalchemy import event

from ladder.services import matches
from ladder.services.match_lists import seats_by_match


def test_seats_come_in_rank_order_once_ranked_and_in_seat_order_before(world, session):
    (_, a), (_, b), (_, c) = world.bot(name="ann"), world.bot(name="bea"), world.bot(name="cid")
    finished = world.play([a.id, b.id, c.id], [3, 1, 2])
    queued = matches.queue_match(session=session, game="treasure", seats=[c.id, a.id], ranked=True, kind="ladder")
    statements = []
    event.listen(session.get_bind(), "before_cursor_execute", lambda *args: statements.append(args[2]))
    listed = seats_by_match(session=session, match_ids=[finished.id, queued.id])
    assert len([s for s in statements if s.startswith("SELECT")]) == 1  # one query however many are listed
    assert [(s.bot_name, s.rank, s.won) for s in listed[finished.id]] == [
        ("bea", 1, True), ("cid", 2, False), ("ann", 3, False)]
    assert [(s.seat, s.bot_name, s.rank) for s in listed[queued.id]] == [(0, "cid", None), (1, "ann", None)]
    assert seats_by_match(session=session, match_ids=[]) == {}
