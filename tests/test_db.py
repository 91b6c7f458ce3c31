"""ladder/db.py: the JSON columns' codec."""

from __future__ import annotations

from sqlalchemy import text

from ladder.models import RatingReport


def test_json_columns_come_back_as_stored_on_either_database(session, db_url):
    # integer keys become strings (as json.dumps makes them), floats keep their value, nesting stays
    tallies = {"score": [31, 2], "answer_ms": [[0.25, 3], [1.2e-07, 1]], 7: [1.5, 10**15]}
    session.add(RatingReport(game="treasure", matches=3, body=tallies))
    session.commit()
    session.expire_all()
    row = session.get(RatingReport, "treasure")
    assert row.body == {"score": [31, 2], "answer_ms": [[0.25, 3], [1.2e-07, 1]], "7": [1.5, 10**15]}
    if db_url.startswith("postgresql"):
        # on PostgreSQL the codec is orjson's, whose text is compact (the standard library's has spaces)
        stored = session.exec(text("SELECT body::text FROM rating_reports")).one()[0]
        assert " " not in stored
