"""Migration 0008: matches get sent_at, the switches table comes, and a finished ranked match in
which every seat forfeited (recorded without rating changes before) becomes failed, nothing else;
and back again on downgrade."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect, text

from ladder.db import alembic_config, make_engine, upgrade

T = "'2026-01-01 00:00:00'"


def _match(conn, status: str, ranked: bool, forfeits: tuple[bool, bool], rated: bool) -> int:
    conn.execute(text(f"INSERT INTO matches (game, options, seed, status, kind, ranked, sandbox, created_at, "
                      f"attempts) VALUES ('treasure', '{{}}', 1, :s, 'ladder', :r, 'strict', {T}, 1)"),
                 {"s": status, "r": ranked})
    match_id = conn.execute(text("SELECT max(id) FROM matches")).scalar_one()
    bots = conn.execute(text("SELECT b.id, v.id FROM bots b JOIN bot_versions v ON v.bot_id = b.id "
                             "ORDER BY b.id")).all()
    for seat, ((bot_id, version_id), forfeited) in enumerate(zip(bots, forfeits, strict=True)):
        conn.execute(text("INSERT INTO seats (match_id, seat, bot_id, bot_version_id, rank, forfeited) "
                          "VALUES (:m, :s, :b, :v, :s + 1, :f)"),
                     {"m": match_id, "s": seat, "b": bot_id, "v": version_id, "f": forfeited})
        if rated:
            conn.execute(text(f"INSERT INTO rating_changes (sequence, match_id, bot_id, seat, rank, forfeited, before, "
                              f"delta, after, games_before, created_at) VALUES (:m, :m, :b, :s, :s + 1, :f, 1500000, "
                              f"0, 1500000, 0, {T})"), {"m": match_id, "s": seat, "b": bot_id, "f": forfeited})
    return match_id


def test_sent_at_switches_and_old_all_forfeit_matches_become_failed(db_url):
    engine = make_engine(db_url)
    try:
        upgrade(engine, "0007")
        with engine.begin() as conn:
            conn.execute(text(f"INSERT INTO users (username, password_hash, is_admin, is_system, created_at) "
                              f"VALUES ('u', '!', false, false, {T})"))
            for name in ("a", "b"):
                conn.execute(text(f"INSERT INTO bots (name, game, description, owner_id, retired, created_at) "
                                  f"SELECT :n, 'treasure', '', id, false, {T} FROM users"), {"n": name})
            conn.execute(text(f"INSERT INTO bot_versions (bot_id, number, filename, sha256, size, status, "
                              f"placement_owed, created_at, code) SELECT id, 1, 'b.py', 'x', 1, 'active', 0, {T}, :c "
                              f"FROM bots"), {"c": b"x"})
            void = _match(conn, "finished", True, (True, True), rated=False)
            unranked = _match(conn, "finished", False, (True, True), rated=False)
            rated = _match(conn, "finished", True, (True, False), rated=True)
            running = _match(conn, "running", True, (False, False), rated=False)
        upgrade(engine, "0008")
        with engine.connect() as conn:
            rows = dict(conn.execute(text("SELECT id, status FROM matches")).all())
            reason = conn.execute(text("SELECT failure_reason FROM matches WHERE id = :m"), {"m": void}).scalar_one()
        assert rows == {void: "failed", unranked: "finished", rated: "finished", running: "running"}
        assert reason.startswith("every seat forfeited")
        assert "sent_at" in {c["name"] for c in inspect(engine).get_columns("matches")}
        assert "switches" in inspect(engine).get_table_names()
        command.downgrade(alembic_config(engine), "0007")
        with engine.connect() as conn:
            back = conn.execute(text("SELECT status FROM matches WHERE id = :m"), {"m": void}).scalar_one()
        assert back == "finished"
        assert "switches" not in inspect(engine).get_table_names()
        assert "sent_at" not in {c["name"] for c in inspect(engine).get_columns("matches")}
        upgrade(engine)
    finally:
        engine.dispose()
