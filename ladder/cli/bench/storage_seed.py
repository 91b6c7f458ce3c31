"""Filling a scratch PostgreSQL database for `ladder bench storage` with matches of real replays.

Real games are played once: `per_game` matches of each game between its house bots, through the
match runner in a sandbox (`user` by default: what a strict worker records, timings, clock and
stderr marks included, without needing root) or in-process (`inprocess`: no sandbox record). Each
is stored the way the worker stores it (its public replay through ladder/services/stored_replays.py,
compact or gzip; its seats' stderr apart). Then `matches` rows are written with COPY by replicating
those templates with fresh ids, dates and bots: a match row, a seat, a rating change and a
scorecard row per seat, its replay row, its logs where the template's bots wrote any; then ratings and the head-to-head
table consistent with them. The games take turns (a third each); one bot per game is busy (it
takes a seat in BUSY_SHARE of its game's matches), the rest are drawn at random.

Foreign-key triggers are off for the load (`session_replication_role = replica`), as in
ladder/cli/bench/service_seed.py.
"""

from __future__ import annotations

import hashlib
import json
import random
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import psycopg

from ladder.cli.bench.service_seed import _bulk, finish_history

START = datetime(2025, 1, 1, tzinfo=UTC)
EVERY_S = 0.2  # 300 matches a minute
CHUNK = 5_000
BUSY_SHARE = 0.05
NULL = "\\N"
BOT_CODE = b"# bench bot: never run\n"


@dataclass(frozen=True)
class Template:
    game: str
    options: str  # JSON
    seed: int
    sandbox: str
    data_hex: str  # the replay row's data, as COPY text (bytea hex)
    data_bytes: int
    size: int
    compact: bool
    whole: bytes  # the replay's JSON bytes as the worker stored it (before any name resolution)
    seats: tuple[tuple[int | None, int, str, str | None, bool], ...]  # score, rank, status, reason, forfeited
    logs: tuple[str | None, ...]
    # each seat's scorecard row's charted tallies as COPY text (JSON), measured from the replay as
    # services/scorecard.py does when the result is recorded
    cards: tuple[str, ...]


def _ts(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f+00")


def _text(value: str | None) -> str:
    if value is None:
        return NULL
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def players_of(game: str) -> int:
    from ladder.games import get_game

    g = get_game(game)
    return max(g.min_players, min(4, g.max_players))


def play_templates(games: list[str], per_game: int, sandbox: str, form: str,
                   progress: Callable[[str], None]) -> list[Template]:
    """Play `per_game` real matches of each game (house bots, the game's default line-up) and keep
    each as the worker would store it."""
    from ladder.games import get_game
    from ladder.play import default_bot_names, play_builtin
    from ladder.replay import dumps_replay
    from ladder.services.scorecard import charted, match_cards
    from ladder.services.stored_replays import stored_form

    out = []
    for game in games:
        names = default_bot_names(game, players_of(game))
        for seed in range(per_game):
            progress(f"playing {game} {seed + 1}/{per_game} ({sandbox})")
            if sandbox == "inprocess":
                replay = play_builtin(game, names, seed=1000 + seed).replay
            else:
                replay = _sandboxed(game, names, 1000 + seed, sandbox)
            public, logs = replay.split_logs()
            whole = dumps_replay(public)
            stored = stored_form(public)
            if form == "gzip" or not stored.compact:
                import gzip

                data, compact = gzip.compress(whole, compresslevel=6, mtime=0), False
            else:
                data, compact = stored.data, True
            cards = match_cards(get_game(game), public, [(s.seat, 0, 0) for s in public.seats])
            texts = tuple(_text(json.dumps(charted(get_game(game), c.tallies))) for c in cards)
            results = {r.seat: r for r in public.results}
            seats = tuple((results[s.seat].score, results[s.seat].rank, s.status, s.reason, s.forfeit)
                          for s in public.seats)
            out.append(Template(game, json.dumps(dict(public.header.options), sort_keys=True), public.header.seed,
                                public.header.sandbox or "none", "\\\\x" + data.hex(), len(data), len(whole),
                                compact, whole, seats, logs, texts))
    return out


def _sandboxed(game: str, names: list[str], seed: int, sandbox: str):
    from ladder.match import local_plan
    from workers.match.runner import run

    plan = local_plan(game, [f"builtin:{n}" for n in names], seed=seed, options={}, sandbox=sandbox,
                      seed_key=hashlib.sha256(f"bench {seed}".encode()).digest())
    return run(plan).replay


def seed_bots(conninfo: str, games: list[str], bots: int) -> dict[str, range]:
    """`bots` bots per game (one user per 5), one active version each; the bot ids of each game.
    The first of each game is its busy bot."""
    ids = {game: range(i * bots + 1, (i + 1) * bots + 1) for i, game in enumerate(games)}
    total = bots * len(games)
    code_hash = hashlib.sha256(BOT_CODE).hexdigest()
    code_hex = "\\\\x" + BOT_CODE.hex()
    when = _ts(START)
    game_of = {b: g for g, r in ids.items() for b in r}
    with _bulk(conninfo) as conn:
        with conn.cursor().copy("COPY users (id, username, password_hash, is_admin, is_system, created_at) "
                                "FROM STDIN") as copy:
            copy.write("".join(f"{u}\tbench{u}\t!\tf\tf\t{when}\n" for u in range(1, (total + 4) // 5 + 1)))
        with conn.cursor().copy("COPY bots (id, name, game, description, owner_id, retired, created_at) "
                                "FROM STDIN") as copy:
            copy.write("".join(f"{b}\tbot{b}\t{game_of[b]}\t\t{(b - 1) // 5 + 1}\tf\t{when}\n"
                               for b in range(1, total + 1)))
        with conn.cursor().copy("COPY bot_versions (id, bot_id, number, filename, code, sha256, size, status, "
                                "placement_owed, created_at) FROM STDIN") as copy:
            copy.write("".join(f"{b}\t{b}\t1\tmain.py\t{code_hex}\t{code_hash}\t{len(BOT_CODE)}\tactive\t0\t{when}\n"
                               for b in range(1, total + 1)))
        conn.commit()
    return ids


def seed_matches(conninfo: str, templates: list[Template], bot_ids: dict[str, range], matches: int, *,
                 seed: int = 1, advance: Callable[[int], None] = lambda n: None) -> None:
    """`matches` finished, rated matches replicating the templates, the games in turn."""
    rng = random.Random(seed)
    games = list(bot_ids)
    by_game = {g: [t for t in templates if t.game == g] for g in games}
    total_bots = sum(len(r) for r in bot_ids.values())
    rating = array("q", [1_500_000]) * (total_bots + 1)
    played = array("q", [0]) * (total_bots + 1)
    wins = array("q", [0]) * (total_bots + 1)
    last = array("q", [0]) * (total_bots + 1)
    width = max(len(r) for r in bot_ids.values())
    # head to head per game as flat arrays over (bot, opponent) of that game: meetings, wins, losses, last
    h2h = {g: [array("q", [0]) * (width * width) for _ in range(4)] for g in games}
    streams = [_bulk(conninfo) for _ in range(5)]
    statements = (
        "COPY matches (id, game, options, seed, status, kind, ranked, sandbox, attempts, claimed_by, claimed_at, "
        "created_at, started_at, finished_at) FROM STDIN",
        "COPY seats (match_id, seat, bot_id, bot_version_id, score, rank, status, reason, forfeited) FROM STDIN",
        "COPY rating_changes (sequence, match_id, bot_id, seat, rank, forfeited, before, delta, after, "
        "games_before, created_at) FROM STDIN",
        "COPY replays (match_id, data, size, created_at, hidden, compact, measured) FROM STDIN",
        "COPY scorecard_tallies (match_id, seat, bot_id, bot_version_id, game, players, rank, charted) FROM STDIN",
    )
    copies = [conn.cursor().copy(sql) for conn, sql in zip(streams, statements, strict=True)]
    writers = [c.__enter__() for c in copies]
    logs: list[str] = []
    try:
        lines: list[list[str]] = [[], [], [], [], []]
        for match_id in range(1, matches + 1):
            game = games[match_id % len(games)]
            template = rng.choice(by_game[game])
            pool = bot_ids[game]
            n = len(template.seats)
            table = rng.sample(pool, n)
            if pool[0] not in table and rng.random() < BUSY_SHARE:
                table[rng.randrange(n)] = pool[0]
            when = _ts(START + timedelta(seconds=EVERY_S * match_id))
            lines[0].append(f"{match_id}\t{game}\t{template.options}\t{template.seed}\tfinished\tladder\tt\t"
                            f"{template.sandbox}\t1\tbench\t{when}\t{when}\t{when}\t{when}\n")
            ranks = [s[1] for s in template.seats]
            for seat, (bot, (score, rank, status, reason, forfeited)) in enumerate(zip(table, template.seats,
                                                                                      strict=True)):
                delta = (n + 1 - 2 * rank) * 4000
                before = rating[bot]
                lines[1].append(f"{match_id}\t{seat}\t{bot}\t{bot}\t{NULL if score is None else score}\t{rank}\t"
                                f"{status}\t{_text(reason)}\t{'t' if forfeited else 'f'}\n")
                lines[2].append(f"{match_id}\t{match_id}\t{bot}\t{seat}\t{rank}\t"
                                f"{'t' if forfeited else 'f'}\t{before}\t{delta}\t{before + delta}\t{played[bot]}\t"
                                f"{when}\n")
                rating[bot] = before + delta
                played[bot] += 1
                wins[bot] += rank == 1
                last[bot] = match_id
                lines[4].append(f"{match_id}\t{seat}\t{bot}\t{bot}\t{game}\t{n}\t{rank}\t{template.cards[seat]}\n")
                if template.logs[seat]:
                    logs.append(f"{match_id}\t{seat}\t{_text(template.logs[seat])}\tf\n")
            meet, won, lost, seen = h2h[game]
            base = pool[0]
            for a, rank_a in zip(table, ranks, strict=True):
                for b, rank_b in zip(table, ranks, strict=True):
                    if a != b:
                        k = (a - base) * width + (b - base)
                        meet[k] += 1
                        won[k] += rank_a < rank_b
                        lost[k] += rank_a > rank_b
                        seen[k] = match_id
            lines[3].append(f"{match_id}\t{template.data_hex}\t{template.size}\t{when}\tf\t"
                            f"{'t' if template.compact else 'f'}\tt\n")
            if match_id % CHUNK == 0 or match_id == matches:
                for writer, chunk in zip(writers, lines, strict=True):
                    writer.write("".join(chunk))
                    chunk.clear()
                advance(match_id % CHUNK or CHUNK)
    finally:
        for copy in copies:
            copy.__exit__(None, None, None)
        for conn in streams:
            conn.commit()
            conn.close()
    with _bulk(conninfo) as conn:
        if logs:
            with conn.cursor().copy("COPY bot_logs (match_id, seat, text, truncated) FROM STDIN") as copy:
                for i in range(0, len(logs), CHUNK):
                    copy.write("".join(logs[i:i + CHUNK]))
        game_of = {b: g for g, r in bot_ids.items() for b in r}
        with conn.cursor().copy("COPY ratings (bot_id, game, rating, games, wins, last_played_at, last_sequence) "
                                "FROM STDIN") as copy:
            copy.write("".join(
                f"{b}\t{game_of[b]}\t{rating[b]}\t{played[b]}\t{wins[b]}\t"
                f"{_ts(START + timedelta(seconds=EVERY_S * last[b])) if last[b] else NULL}\t{last[b] or NULL}\n"
                for b in range(1, total_bots + 1)))
        with conn.cursor().copy("COPY head_to_head (bot_id, opponent_id, meetings, wins, losses, ties, "
                                "last_match_id) FROM STDIN") as copy:
            for game, (meet, won, lost, seen) in h2h.items():
                base = bot_ids[game][0]
                rows = []
                for k, m in enumerate(meet):
                    if m:
                        a, b = divmod(k, width)
                        rows.append(f"{a + base}\t{b + base}\t{m}\t{won[k]}\t{lost[k]}\t{m - won[k] - lost[k]}\t"
                                    f"{seen[k]}\n")
                copy.write("".join(rows))
        finish_history(conn, matches)
        conn.commit()
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")
