"""The accuracy report of each game's ratings: computed from the stored history, stored, served.

The scheduler computes it (workers/queue/scheduler.py, every `ratings_report_interval`) over the
game's last `window` rated matches, read through the rating history's sequence index, so one run
costs the same at a thousand matches or a million; pages and the API read the stored row only.
The figures and their definitions are ladder/ranking/report.py's (docs/ratings.md).
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from itertools import groupby

from sqlalchemy import delete
from sqlmodel import Session, select

from ladder.models import Bot, BotVersion, RatingChange, RatingReport, Seat, utcnow
from ladder.ranking.ratings import MILLI, UNCERTAIN_HALF_WIDTH
from ladder.ranking.report import (
    CALIBRATION_BUCKETS,
    NOMINAL_COVERAGE,
    SETTLE_RUN,
    SETTLE_TAIL,
    SETTLED_BAND,
    Entry,
    Report,
    report,
)
from ladder.services.common import atomic

MAX_SEATS = 6  # no game seats more: a window of m matches is at most 6 m rating changes


def read_history(session: Session, game: str, window: int) -> tuple[list[list[Entry]], set[tuple[int, int]]]:
    """The game's last `window` rated matches (oldest first, each its seats in seat order), and
    the (bot, version) pairs whose first rated match is among them (by each version's first rated
    sequence, which services/ratings.py keeps)."""
    rows = session.exec(
        select(RatingChange.sequence, RatingChange.bot_id, Seat.bot_version_id, RatingChange.rank,
               RatingChange.before, RatingChange.deviation_before, RatingChange.after)
        .join(Seat, (Seat.match_id == RatingChange.match_id) & (Seat.seat == RatingChange.seat))
        .join(Bot, Bot.id == RatingChange.bot_id)
        .where(Bot.game == game)
        .order_by(RatingChange.sequence.desc(), RatingChange.seat.desc())
        .limit(window * MAX_SEATS)
    ).all()
    matches = [[Entry(r[1], r[2], r[3], r[4], r[5], r[6]) for r in reversed(list(group))]
               for _, group in groupby(rows, key=lambda r: r[0])]
    if len(rows) == window * MAX_SEATS and matches:
        matches.pop()  # the oldest may be cut short by the limit
    matches = matches[:window][::-1]
    if not matches:
        return [], set()
    first = min(r[0] for r in rows[:sum(len(m) for m in matches)])
    keys = {(e.player, e.version) for m in matches for e in m}
    versions = sorted({v for _, v in keys})
    new = set()
    for start in range(0, len(versions), 1000):
        chunk = versions[start:start + 1000]
        new.update((bot, version) for version, bot, since in session.exec(
            select(BotVersion.id, BotVersion.bot_id, BotVersion.first_rated_sequence)
            .where(BotVersion.id.in_(chunk))
        ) if since is None or since >= first)  # None only on a hand-made database: counted as new
    return matches, new


def as_json(rep: Report, *, last: int, window: int) -> dict:
    """The stored form: the figures, and the definitions they were computed with."""
    p, s, c = rep.prediction, rep.settling, rep.calibration
    return {
        "prediction": {**asdict(p), "last": last},
        "settling": {**asdict(s), "games": list(s.games), "tail": SETTLE_TAIL, "run": SETTLE_RUN,
                     "band": SETTLED_BAND / MILLI},
        "calibration": {
            "ratings": c.ratings, "inside": c.inside, "coverage": c.coverage, "nominal": NOMINAL_COVERAGE,
            "buckets": [{"low": b.low / MILLI, "high": None if b.high is None else b.high / MILLI,
                         "ratings": b.ratings, "inside": b.inside, "coverage": b.coverage} for b in c.buckets],
            "bounds": [b / MILLI for b in CALIBRATION_BUCKETS],
        },
        "window": window, "matches": rep.matches, "uncertain_above": UNCERTAIN_HALF_WIDTH / MILLI,
    }


def compute_report(*, session: Session, game: str, last: int = 1000, window: int = 20_000,
                   now: datetime | None = None) -> RatingReport:
    """Compute the game's report from its stored history and store it (replacing the previous one)."""
    history, new = read_history(session, game, window)
    session.commit()  # end the read before the write
    rep = report(history, last=last, new_versions=new)
    row = RatingReport(game=game, computed_at=now or utcnow(), matches=rep.matches,
                       body=as_json(rep, last=last, window=window))
    with atomic(session):
        session.exec(delete(RatingReport).where(RatingReport.game == game))
        session.add(row)
    return row


def stored_report(*, session: Session, game: str) -> RatingReport | None:
    """The game's newest report; None before the scheduler's first run."""
    return session.get(RatingReport, game)
