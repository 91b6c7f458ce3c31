"""Bulk seeding of a PostgreSQL ladder database for `ladder bench service`.

It writes, with COPY on four connections at once, what years of play would leave: `bots` bots
(one user per 5 bots, one active version each, one game), `matches` finished rated matches of 4
seats, a rating change and a scorecard per seat, current ratings, the head-to-head table and the
scorecards' sums. Tables are made the way matchmaking makes them (a seed bot and opponents near it
in strength), so a bot meets the same few dozen neighbours again and again, as on a real ladder.
Ratings move by a fixed zero-sum step per rank rather than by Elo: the bench measures pages, not the rating maths.

Foreign-key triggers are switched off for the load (`session_replication_role = replica`, which
needs a superuser, as the bench's PostgreSQL role is), because rows arrive in four streams.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import psycopg

from ladder.games import FLAGSHIP

SEATS = 4
WINDOW = 25  # opponents come from this many bots either side of the seed in strength
STEP = (12_000, 4_000, -4_000, -12_000)  # milli-points by rank 1..4: zero-sum
GAME = FLAGSHIP
BOT_CODE = b"# bench bot: never run\n"
START = datetime(2024, 1, 1, tzinfo=UTC)
CHUNK = 5_000  # matches per write to the COPY streams
NULL = "\\N"  # COPY's text format for NULL
# A seat's scorecard (ladder/services/scorecard.py) as a sandboxed seat of the flagship leaves one: the
# every-game measures, the score breakdown's categories and a few dozen answer times. The game's
# own part adds as many again. A seat's row keeps only the charted ones; the sums keep them all.
TALLY = {"first": [0, 1], "placing": [0.5, 1], "score": [40, 1], "faults": [0, 1], "forfeits": [0, 1],
         "strikes": [0, 1], "timeouts": [0, 1], "bank_left": [0.98, 1], "decision_p99_ms": [[12.0, 1]],
         **{f"score.{k}": [5, 1] for k in ("black", "gold", "red", "silver", "sets", "counts.black", "counts.blue",
                                           "counts.gold", "counts.green", "counts.red", "counts.silver")},
         "decision_ms": [[round(0.5 + 0.1 * i, 1), 2] for i in range(30)],
         "clock_used": [[round(0.2 + 0.05 * i, 2), 2] for i in range(30)]}


def _ts(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S+00")


def _copy_lines(conn: psycopg.Connection, table: str, columns: str, lines: list[str]) -> None:
    with conn.cursor().copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        copy.write("".join(lines))


def _bulk(conninfo: str) -> psycopg.Connection:
    conn = psycopg.connect(conninfo)
    conn.execute("SET session_replication_role = replica")  # no FK triggers while rows stream in
    conn.execute("SET synchronous_commit = off")
    return conn


def seed_bots(conninfo: str, bots: int) -> None:
    """Users, bots, one active version each, and a rating row each."""
    owners = (bots + 4) // 5
    code_hash = hashlib.sha256(BOT_CODE).hexdigest()
    code_hex = "\\\\x" + BOT_CODE.hex()  # bytea in COPY text format
    with _bulk(conninfo) as conn:
        _copy_lines(conn, "users", "id, username, password_hash, is_admin, is_system, created_at",
                    [f"{u}\tbench{u}\t!\tf\tf\t{_ts(START)}\n" for u in range(1, owners + 1)])
        _copy_lines(conn, "bots", "id, name, game, description, owner_id, retired, created_at",
                    [f"{b}\tbot{b}\t{GAME}\t\t{(b - 1) // 5 + 1}\tf\t{_ts(START)}\n" for b in range(1, bots + 1)])
        _copy_lines(conn, "bot_versions",
                    "id, bot_id, number, filename, code, sha256, size, status, placement_owed, created_at",
                    [f"{b}\t{b}\t1\tmain.py\t{code_hex}\t{code_hash}\t{len(BOT_CODE)}\tactive\t0\t{_ts(START)}\n"
                     for b in range(1, bots + 1)])
        conn.commit()


def finish_history(conn: psycopg.Connection, matches: int) -> None:
    """What the ratings service keeps beside a seeded history: the rating clock at its last
    sequence, each version's first rated sequence (one version a bot here) and the id sequences."""
    conn.execute("INSERT INTO rating_clock (id, applied) VALUES (1, %s) "
                 "ON CONFLICT (id) DO UPDATE SET applied = EXCLUDED.applied", (matches,))
    conn.execute("UPDATE bot_versions v SET first_rated_sequence = f.first_seq FROM "
                 "(SELECT bot_id, min(sequence) AS first_seq FROM rating_changes GROUP BY bot_id) f "
                 "WHERE f.bot_id = v.bot_id")
    for table, column in (("users", "id"), ("bots", "id"), ("bot_versions", "id"), ("matches", "id")):
        conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                     f"(SELECT COALESCE(MAX({column}), 1) FROM {table}))")


def _scaled(matches: int) -> str:
    """TALLY merged over `matches` matches (ladder/scorecard/tallies.py: pairs add, sample counts add)."""
    return json.dumps({k: [[v, c * matches] for v, c in t] if isinstance(t[0], list) else [t[0] * matches,
                                                                                         t[1] * matches]
                       for k, t in TALLY.items()})


def _sum_lines(games: list[int], last: list[int], h2h: dict[tuple[int, int], list[int]]) -> list[str]:
    """Each bot's sums as recording leaves them: every version, its version, its table size, each opponent."""
    lines = []
    for bot, played in enumerate(games):
        if bot and played:
            merged = _scaled(played)
            for version, players in ((0, 0), (bot, 0), (0, SEATS)):
                lines.append(f"{bot}\t{version}\t{players}\t0\t{GAME}\t{played}\t{merged}\t{merged}\t"
                             f"{last[bot]}\n")
    for (a, b), (meetings, _w, _l, last_match) in h2h.items():
        merged = _scaled(meetings)
        lines.append(f"{a}\t0\t0\t{b}\t{GAME}\t{meetings}\t{merged}\t{merged}\t{last_match}\n")
    return lines


def seed_matches(conninfo: str, bots: int, matches: int, seed: int = 1,
                 advance: Callable[[int], None] = lambda n: None, players: int | None = None) -> None:
    """`matches` finished, rated 4-seat matches with seats and rating changes, then ratings and
    head-to-head rows consistent with them. `advance(n)` reports progress in matches. `players`:
    only bots 1..players sit at the tables (the others keep their rating rows and no history), so
    that a small history's bots have played as much as a big one's."""
    seated = min(bots, players or bots)
    rng = random.Random(seed)
    rating = [1_500_000] * (bots + 1)
    games = [0] * (bots + 1)
    wins = [0] * (bots + 1)
    last = [0] * (bots + 1)  # last match id
    h2h: dict[tuple[int, int], list[int]] = {}  # (bot, opponent) -> meetings, wins, losses, last match
    streams = [_bulk(conninfo) for _ in range(4)]
    charted = json.dumps({k: TALLY[k] for k in ("first", "score")})
    copies = [
        streams[0].cursor().copy(
            "COPY matches (id, game, options, seed, status, kind, ranked, sandbox, attempts, claimed_by, "
            "claimed_at, created_at, started_at, finished_at) FROM STDIN"),
        streams[1].cursor().copy(
            "COPY seats (match_id, seat, bot_id, bot_version_id, score, rank, status, forfeited) FROM STDIN"),
        streams[2].cursor().copy(
            "COPY rating_changes (sequence, match_id, bot_id, seat, rank, forfeited, before, delta, after, "
            "games_before, created_at) FROM STDIN"),
        streams[3].cursor().copy(
            "COPY scorecard_tallies (match_id, seat, bot_id, bot_version_id, game, players, rank, charted) FROM STDIN"),
    ]
    writers = [c.__enter__() for c in copies]
    try:
        m_lines: list[str] = []
        s_lines: list[str] = []
        r_lines: list[str] = []
        t_lines: list[str] = []
        for match_id in range(1, matches + 1):
            centre = rng.randint(1, seated)
            low, high = max(1, centre - WINDOW), min(seated, centre + WINDOW)
            table = [centre, *rng.sample([b for b in range(low, high + 1) if b != centre], SEATS - 1)]
            rng.shuffle(table)
            ranks = rng.sample(range(1, SEATS + 1), SEATS)
            when = _ts(START + timedelta(seconds=30 * match_id))
            m_lines.append(f"{match_id}\t{GAME}\t{{}}\t{match_id}\tfinished\tladder\tt\tstrict\t1\tbench\t"
                           f"{when}\t{when}\t{when}\t{when}\n")
            for seat, (bot, rank) in enumerate(zip(table, ranks, strict=True)):
                delta = STEP[rank - 1]
                before = rating[bot]
                s_lines.append(f"{match_id}\t{seat}\t{bot}\t{bot}\t{10 - rank}\t{rank}\tok\tf\n")
                t_lines.append(f"{match_id}\t{seat}\t{bot}\t{bot}\t{GAME}\t{SEATS}\t{rank}\t{charted}\n")
                r_lines.append(f"{match_id}\t{match_id}\t{bot}\t{seat}\t{rank}\t"
                               f"f\t{before}\t{delta}\t{before + delta}\t{games[bot]}\t{when}\n")
                rating[bot] = before + delta
                games[bot] += 1
                wins[bot] += rank == 1
                last[bot] = match_id
            for a, rank_a in zip(table, ranks, strict=True):
                for b, rank_b in zip(table, ranks, strict=True):
                    if a != b:
                        row = h2h.setdefault((a, b), [0, 0, 0, 0])
                        row[0] += 1
                        row[1] += rank_a < rank_b
                        row[2] += rank_a > rank_b
                        row[3] = match_id
            if match_id % CHUNK == 0 or match_id == matches:
                for writer, lines in zip(writers, (m_lines, s_lines, r_lines, t_lines), strict=True):
                    writer.write("".join(lines))
                    lines.clear()
                advance(match_id % CHUNK or CHUNK)
    finally:
        for copy in copies:
            copy.__exit__(None, None, None)
        for conn in streams:
            conn.commit()
            conn.close()
    with _bulk(conninfo) as conn:
        _copy_lines(conn, "ratings", "bot_id, game, rating, games, wins, last_played_at, last_sequence", [
            f"{b}\t{GAME}\t{rating[b]}\t{games[b]}\t{wins[b]}\t"
            f"{_ts(START + timedelta(seconds=30 * last[b])) if last[b] else NULL}\t{last[b] or NULL}\n"
            for b in range(1, bots + 1)])
        _copy_lines(conn, "head_to_head", "bot_id, opponent_id, meetings, wins, losses, ties, last_match_id", [
            f"{a}\t{b}\t{m}\t{w}\t{lost}\t{m - w - lost}\t{lm}\n" for (a, b), (m, w, lost, lm) in h2h.items()])
        _copy_lines(conn, "scorecard_sums", "bot_id, version_id, players, opponent_id, game, matches, tallies, "
                    "winners, last_match_id", _sum_lines(games, last, h2h))
        finish_history(conn, matches)
        conn.commit()
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")  # fresh statistics and visibility maps, as autovacuum would leave them
