"""The ladder's games as a dataset: finished matches written as Parquet (docs/dataset.md).

Three files, joined by `match_id`:
- matches.parquet: one row per match (game, options, seed, when);
- seats.parquet: one row per seat (who played, how it went, its rating change);
- log.parquet: one row per decision and per event of the match's replay, in order, with who could
  see it (`visible_to`: null for everyone);
- scorecard.parquet: one row per seat and measure of the match's scorecard (docs/scorecard.md), the
  seat's figure beside the match's winners', so that bots can be ranked by any measure.

Streaming: matches are read in id order, `batch` at a time (keyset pagination: no OFFSET, which
would slow down as the export goes on), and each batch becomes one row group of each file, so
memory is bounded by the batch, not by the export. The files are written under temporary names and
renamed when complete: a reader never sees half an export.

Every finished match is public (anyone may watch or download its replay once it is over), so the
export holds exactly what the replay downloads hold; a running match is never exported.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from sqlalchemy import and_, func
from sqlmodel import Session, select

from ladder.games import GAMES
from ladder.models import Bot, BotVersion, Match, MatchStatus, RatingChange, Seat, User
from ladder.ranking.ratings import to_points
from ladder.replay import Decision, Replay
from ladder.scorecard.common import Catalogue, catalogue
from ladder.scorecard.tallies import value as tally_value
from ladder.services import event_hold
from ladder.services.scorecard import measured_cards, seat_keys
from ladder.services.stored_replays import stored_replays

Sessions = Callable[[], Session]  # a session factory (ladder.db.session_factory)

DEFAULT_BATCH = 2_000  # matches per row group: about 10 MB of Python objects at the most for log rows
_UTC = pa.timestamp("us", tz="UTC")

# (column, type, description): the schema and docs/dataset.md are both made from these lists.
MATCH_COLUMNS: tuple[tuple[str, pa.DataType, str], ...] = (
    ("match_id", pa.int64(), "the match's id on the ladder (`/matches/<id>`)"),
    ("game", pa.string(), "the registered game's name (as in the site's URLs)"),
    ("kind", pa.string(), "ladder (rated ladder table), challenge, validation or event"),
    ("ranked", pa.bool_(), "whether the match moved ratings"),
    ("options", pa.string(), "the game's options as JSON, every option resolved"),
    ("seed", pa.int64(), "the game's seed (with the replay's decisions it re-simulates the match)"),
    ("players", pa.int16(), "number of seats"),
    ("sandbox", pa.string(),
     "the sandbox mode the bots ran in (strict, user; none: played in-process by `ladder play --record`)"),
    ("created_at", _UTC, "when the match was queued"),
    ("finished_at", _UTC, "when its result was recorded"),
    ("engine_version", pa.string(), "the ladder version that played it; null when it has no replay"),
    ("has_replay", pa.bool_(), "whether log.parquet has its decisions and events"),
)
SEAT_COLUMNS: tuple[tuple[str, pa.DataType, str], ...] = (
    ("match_id", pa.int64(), "the match"),
    ("seat", pa.int16(), "0-based seat, in turn order"),
    ("bot_id", pa.int64(), "the bot's id on the ladder (`/bots/<id>`)"),
    ("bot", pa.string(), "the bot's name"),
    ("owner", pa.string(), "its owner's user name"),
    ("version", pa.int32(), "the bot version's number"),
    ("score", pa.int32(), "the game's score for the seat"),
    ("rank", pa.int16(), "1 = best; equal scores share a rank"),
    ("status", pa.string(), "ok, or the fault that ended the seat's own play (timeout, crash, illegal, ...)"),
    ("forfeited", pa.bool_(), "ranked last by the rating maths for a fault"),
    ("rating_before", pa.float64(), "Elo points before the match; null when the match was not rated"),
    ("rating_delta", pa.float64(), "the change the match made"),
    ("rating_after", pa.float64(), "Elo points after the match"),
)
LOG_COLUMNS: tuple[tuple[str, pa.DataType, str], ...] = (
    ("match_id", pa.int64(), "the match"),
    ("index", pa.int32(), "position in the match's log, from 0: decisions and events in the order they happened"),
    ("entry", pa.string(), "decision or event"),
    ("seat", pa.int16(), "the deciding seat (decisions); null for events"),
    ("kind", pa.string(), "the decision kind (`attack`, `propose`, `flip`, ...) or the event type"),
    ("payload", pa.string(), "JSON: the decision as applied, or the event's data (docs/protocol.md)"),
    ("fault", pa.string(), "decisions only: the fault status when the bot's own answer was replaced by the default"),
    ("visible_to", pa.list_(pa.int16()),
     "the seats that saw it when it happened; null = every seat (a decision: its own seat)"),
)


SCORECARD_COLUMNS: tuple[tuple[str, pa.DataType, str], ...] = (
    ("match_id", pa.int64(), "the match"),
    ("seat", pa.int16(), "0-based seat"),
    ("bot_id", pa.int64(), "the bot"),
    ("measure", pa.string(), "the measure's name (docs/scorecard.md; `score.<category>`: the score breakdown's)"),
    ("kind", pa.string(), "rate, mean, total (numerator / denominator) or median (of the samples)"),
    ("value", pa.float64(), "the seat's figure in this match: numerator / denominator, or the samples' median"),
    ("numerator", pa.float64(), "rate, mean, total: what was counted (sum these over matches, then divide)"),
    ("denominator", pa.float64(), "rate, mean, total: out of how many"),
    ("samples", pa.int32(), "median: how many samples (each rounded to two significant figures)"),
    ("winners_value", pa.float64(),
     "the same figure of the match's winners (first place, the seat included if it won)"),
)


def _schema(columns: Sequence[tuple[str, pa.DataType, str]]) -> pa.Schema:
    return pa.schema([pa.field(name, kind, metadata={"description": text}) for name, kind, text in columns])


TABLES: dict[str, pa.Schema] = {"matches": _schema(MATCH_COLUMNS), "seats": _schema(SEAT_COLUMNS),
                                 "log": _schema(LOG_COLUMNS), "scorecard": _schema(SCORECARD_COLUMNS)}
COLUMNS = {"matches": MATCH_COLUMNS, "seats": SEAT_COLUMNS, "log": LOG_COLUMNS, "scorecard": SCORECARD_COLUMNS}


@dataclass(frozen=True)
class ExportFilter:
    game: str | None = None
    since: date | None = None  # finished on or after this day (UTC)
    until: date | None = None  # finished before this day (UTC)
    held: bool = False  # the matches held back (services/event_hold.py) instead of the others

    def clauses(self) -> list[Any]:
        # a held match (an order of a duplicate deal still being played) tells its deal: not yet
        where = [Match.status == MatchStatus.FINISHED, event_hold.held() if self.held else ~event_hold.held()]
        if self.game is not None:
            where.append(Match.game == self.game)
        if self.since is not None:
            where.append(Match.finished_at >= _midnight(self.since))
        if self.until is not None:
            where.append(Match.finished_at < _midnight(self.until))
        return where


@dataclass(frozen=True)
class ExportSummary:
    matches: int
    seats: int
    log_rows: int
    files: dict[str, Path]


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=UTC)


def count_matches(sessions: Sessions, where: ExportFilter) -> int:
    with sessions() as session:
        return session.exec(select(func.count()).select_from(Match).where(and_(*where.clauses()))).one()


def export_matches(sessions: Sessions, out_dir: Path, where: ExportFilter = ExportFilter(), *,
                   batch: int = DEFAULT_BATCH, progress: Callable[[int], None] = lambda n: None) -> ExportSummary:
    """Write the finished matches `where` selects to out_dir/{matches,seats,log}.parquet.
    `progress(n)` is called after each batch with the matches it held."""
    out_dir.mkdir(parents=True, exist_ok=True)
    final = {name: out_dir / f"{name}.parquet" for name in TABLES}
    partial = {name: out_dir / f".{name}.parquet.partial" for name in TABLES}
    writers = {name: pq.ParquetWriter(partial[name], schema, compression="zstd") for name, schema in TABLES.items()}
    counts = dict.fromkeys(TABLES, 0)
    try:
        for rows in _batches(sessions, where, batch):
            for name, table_rows in rows.items():
                writers[name].write_table(pa.Table.from_pylist(table_rows, schema=TABLES[name]))
                counts[name] += len(table_rows)
            progress(len(rows["matches"]))
    except BaseException:
        for name, writer in writers.items():
            writer.close()
            partial[name].unlink(missing_ok=True)
        raise
    for name, writer in writers.items():
        writer.close()
        os.replace(partial[name], final[name])
    return ExportSummary(counts["matches"], counts["seats"], counts["log"], final)


# Columns, not ORM objects: building a model instance per row cost four fifths of the export's time.
_MATCH = (Match.id, Match.game, Match.kind, Match.ranked, Match.options, Match.seed, Match.sandbox,
          Match.created_at, Match.finished_at)


def _batches(sessions: Sessions, where: ExportFilter, batch: int) -> Iterator[dict[str, list[dict[str, Any]]]]:
    last = 0
    while True:
        with sessions() as session:  # one short session per batch: no transaction held for the export
            matches = session.exec(select(*_MATCH).where(and_(*where.clauses()), Match.id > last)
                                   .order_by(Match.id).limit(batch)).all()
            if not matches:
                return
            last = matches[-1][0]
            yield _rows(session, matches)


def _rows(session: Session, matches: Sequence[Any]) -> dict[str, list[dict[str, Any]]]:
    lo, hi = matches[0][0], matches[-1][0]
    wanted = {m[0] for m in matches}
    seat_rows = session.exec(
        select(Seat.match_id, Seat.seat, Seat.bot_id, Bot.name, User.username, BotVersion.number, Seat.score,
               Seat.rank, Seat.status, Seat.forfeited)
        .join(Bot, Bot.id == Seat.bot_id).join(User, User.id == Bot.owner_id)
        .join(BotVersion, BotVersion.id == Seat.bot_version_id)
        .where(Seat.match_id >= lo, Seat.match_id <= hi).order_by(Seat.match_id, Seat.seat)
    ).all()
    changes = {(match_id, seat): rest for match_id, seat, *rest in session.exec(
        select(RatingChange.match_id, RatingChange.seat, RatingChange.before, RatingChange.delta, RatingChange.after)
        .where(RatingChange.match_id >= lo, RatingChange.match_id <= hi)).all()}
    # public_only: a moderator took the others out of public view
    replays = stored_replays(session=session, match_ids=wanted, public_only=True)
    out: dict[str, list[dict[str, Any]]] = {"matches": [], "seats": [], "log": [],
                                            "scorecard": scorecard_rows(session, lo, hi, replays)}
    players: dict[int, int] = {}
    for match_id, seat, bot_id, bot, owner, number, score, rank, status, forfeited in seat_rows:
        if match_id not in wanted:
            continue
        players[match_id] = players.get(match_id, 0) + 1
        change = changes.get((match_id, seat))
        before, delta, after = (to_points(v) for v in change) if change else (None, None, None)
        out["seats"].append({
            "match_id": match_id, "seat": seat, "bot_id": bot_id, "bot": bot, "owner": owner, "version": number,
            "score": score, "rank": rank, "status": status, "forfeited": forfeited,
            "rating_before": before, "rating_delta": delta, "rating_after": after,
        })
    for match_id, game, kind, ranked, options, seed, sandbox, created_at, finished_at in matches:
        replay = replays.get(match_id)
        out["matches"].append({
            "match_id": match_id, "game": game, "kind": kind, "ranked": ranked, "options": _json(options),
            "seed": seed, "players": replay.header.players if replay else players.get(match_id), "sandbox": sandbox,
            "created_at": created_at, "finished_at": finished_at,
            "engine_version": replay.header.engine_version if replay else None, "has_replay": replay is not None,
        })
        if replay:
            out["log"] += log_rows(match_id, replay)
    return out


def log_rows(match_id: int, replay: Replay) -> list[dict[str, Any]]:
    """The replay's log as rows, one per decision and per event, in order."""
    rows = []
    for index, entry in enumerate(replay.log):
        if isinstance(entry, Decision):
            rows.append({"match_id": match_id, "index": index, "entry": "decision", "seat": entry.seat,
                         "kind": entry.kind, "payload": _json(entry.decision),
                         "fault": entry.fault.status if entry.fault else None, "visible_to": [entry.seat]})
        else:
            rows.append({"match_id": match_id, "index": index, "entry": "event", "seat": None,
                         "kind": entry.type, "payload": _json(entry.data), "fault": None,
                         "visible_to": None if entry.to is None else list(entry.to)})
    return rows


def scorecard_rows(session: Session, lo: int, hi: int, replays: Mapping[int, Replay]) -> list[dict[str, Any]]:
    """The scorecards of the counted matches among `replays` (those whose replay is public), one
    row per seat and measure: measured from the replays already read for the log (a seat's stored
    row keeps only what the chart draws: services/scorecard.py), the matches that have their rows."""
    rows = []
    catalogues: dict[str, Catalogue] = {}
    keys = {m: k for m, k in seat_keys(session, [m for m in replays if lo <= m <= hi]).items() if k[0] in GAMES}
    for match_id, (game, cards) in measured_cards(keys, replays).items():
        measures = catalogues.get(game.name) or catalogues.setdefault(game.name, catalogue(game))
        for card in cards:
            rows += _measure_rows(match_id, card.seat, card.bot_id, measures, card.tallies, card.winners)
    return rows


def _measure_rows(match_id: int, seat: int, bot_id: int, measures: Catalogue, tallies: Mapping[str, Any],
                  winners: Mapping[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for name in sorted(tallies):
        kind = measures.kind(name)
        if kind is None:
            continue
        stored = tallies[name]
        median = kind == "median"
        rows.append({"match_id": match_id, "seat": seat, "bot_id": bot_id, "measure": name, "kind": kind,
                     "value": tally_value(kind, stored),
                     "numerator": None if median else stored[0], "denominator": None if median else stored[1],
                     "samples": sum(c for _v, c in stored) if median else None,
                     "winners_value": tally_value(kind, winners.get(name))})
    return rows


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def schema_markdown() -> str:
    """docs/dataset.md's column tables, from the schema the export writes (a test keeps them equal)."""
    parts = []
    for name, columns in COLUMNS.items():
        parts.append(f"### {name}.parquet\n\n| column | type | meaning |\n|---|---|---|")
        parts += [f"| `{col}` | {kind} | {text} |" for col, kind, text in columns]
        parts.append("")
    return "\n".join(parts)
