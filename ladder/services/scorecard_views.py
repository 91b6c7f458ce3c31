"""The scorecard as the bot page and the API read it: a bot's measures (every version, its latest,
per table size, the winners at its tables), per opponent with the margin, its last matches' values
for the chart, and its matches filtered by opponent or result.

Every read is bounded: a handful of sum rows by primary key, the opponents' rows through
ix_scorecard_sums_bot_matches, and the last CHART_MATCHES tally rows through
ix_scorecard_tallies_bot_match; a page costs the same at a thousand matches or a million.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import func
from sqlalchemy.orm import aliased
from sqlmodel import Session, select

from ladder.games import GAMES, get_game
from ladder.games.scorecard import Measure
from ladder.models import Bot, BotVersion, Match, RatingChange, ScorecardSum, ScorecardTally, Seat, User
from ladder.scorecard.common import Catalogue, catalogue
from ladder.scorecard.tallies import merge_all, value
from ladder.services.errors import Invalid, NotFound
from ladder.services.match_lists import seats_by_match
from ladder.services.pages import MatchSummary, RecentMatch, SeatSummary
from ladder.services.scorecard import ALL, CHART_ROWS, main_measures, sums_for

CHART_MATCHES = CHART_ROWS  # the rows retention keeps a bot (services/scorecard.py)
CHART_WINDOW = 10  # the chart's points pool this many matches, so one match's luck does not dominate
OPPONENTS = 20
RESULTS = ("won", "lost")  # the match list's result filter: first place, or not


@dataclass(frozen=True, slots=True)
class MeasureRow:
    measure: Measure
    value: float | None  # every version
    latest: float | None  # the latest version
    winners: float | None  # the winners at its tables
    by_size: tuple[float | None, ...] = ()  # per table size, in Scorecard.sizes' order


@dataclass(frozen=True, slots=True)
class OpponentRow:
    opponent_id: int
    name: str
    owner: str
    matches: int
    # (measure, this bot's value against it, its value against this bot, the margin: the first less the second)
    values: tuple[tuple[Measure, float | None, float | None, float | None], ...]


@dataclass(frozen=True, slots=True)
class ChartSeries:
    measure: Measure
    points: tuple[tuple[int, float], ...]  # (match id, value over the window ending there), oldest first
    marks: tuple[tuple[int, str], ...]  # (index into points, "v3"): where a new version starts


@dataclass(frozen=True, slots=True)
class Scorecard:
    game: str
    matches: int
    latest_matches: int
    sizes: tuple[int, ...]
    size_matches: tuple[int, ...]
    rows: tuple[MeasureRow, ...]
    opponents: tuple[OpponentRow, ...] = ()
    charts: tuple[ChartSeries, ...] = field(default=())


def _figure(measures: Catalogue, sum_row, name: str, side: str = "tallies") -> float | None:
    if not sum_row:
        return None
    kind = measures.kind(name)
    return value(kind, sum_row[side].get(name)) if kind else None


def _names(measures: Catalogue, rows) -> list[str]:
    """The measures to show: the game's and every game's in their order, then the breakdown's."""
    present = {name for row in rows if row for side in ("tallies", "winners") for name in row[side]}
    ordered = [m.name for m in measures if m.name in present]
    return ordered + sorted(n for n in present if n.startswith("score.") and n not in ordered)


def bot_scorecard(*, session: Session, bot: Bot, latest_version_id: int | None, version_numbers: dict[int, int],
                  opponents: int = OPPONENTS, chart: bool = True) -> Scorecard:
    game = get_game(bot.game)
    measures = catalogue(game)
    sizes = tuple(range(game.min_players, game.max_players + 1))
    keys = [(ALL, ALL, ALL), *((ALL, n, ALL) for n in sizes)]
    if latest_version_id is not None:
        keys.append((latest_version_id, ALL, ALL))
    sums = sums_for(session, bot.id, keys)
    overall = sums.get((ALL, ALL, ALL))
    latest = sums.get((latest_version_id, ALL, ALL)) if latest_version_id is not None else None
    by_size = [sums.get((ALL, n, ALL)) for n in sizes]
    rows = tuple(MeasureRow(measures.get(name), _figure(measures, overall, name), _figure(measures, latest, name),
                            _figure(measures, overall, name, "winners"),
                            tuple(_figure(measures, s, name) for s in by_size))
                 for name in _names(measures, [overall]))
    return Scorecard(
        game.name, overall["matches"] if overall else 0, latest["matches"] if latest else 0, sizes,
        tuple(s["matches"] if s else 0 for s in by_size), rows,
        opponent_rows(session=session, bot_id=bot.id, measures=measures, limit=opponents) if overall else (),
        chart_series(session=session, bot_id=bot.id, measures=measures, version_numbers=version_numbers)
        if chart and overall else ())


def opponent_rows(*, session: Session, bot_id: int, measures: Catalogue, limit: int = OPPONENTS,
                  opponent_id: int | None = None) -> tuple[OpponentRow, ...]:
    """Its most met opponents (or one), each with the main measures both ways and the margin."""
    shown = main_measures(measures)
    picked = [ScorecardSum.tallies[m.name] for m in shown]  # the shown measures only, not the whole JSON
    mine_q = select(ScorecardSum.opponent_id, ScorecardSum.matches, *picked).where(
        ScorecardSum.bot_id == bot_id, ScorecardSum.version_id == ALL, ScorecardSum.players == ALL,
        ScorecardSum.opponent_id != ALL)
    if opponent_id is not None:
        mine_q = mine_q.where(ScorecardSum.opponent_id == opponent_id)
    mine = session.connection().execute(
        mine_q.order_by(ScorecardSum.matches.desc(), ScorecardSum.opponent_id).limit(limit)).all()
    if not mine:
        return ()
    ids = [row[0] for row in mine]
    theirs = {row[0]: row[1:] for row in session.connection().execute(
        select(ScorecardSum.bot_id, *picked).where(
            ScorecardSum.bot_id.in_(ids), ScorecardSum.version_id == ALL, ScorecardSum.players == ALL,
            ScorecardSum.opponent_id == bot_id))}
    names = {b: (n, o) for b, n, o in session.connection().execute(
        select(Bot.id, Bot.name, User.username).join(User, User.id == Bot.owner_id).where(Bot.id.in_(ids)))}
    out = []
    for other, matches, *tallies in mine:
        values = []
        for i, m in enumerate(shown):
            against = theirs.get(other)
            a = value(m.kind, tallies[i])
            b = value(m.kind, against[i]) if against else None
            values.append((m, a, b, None if a is None or b is None else a - b))
        name, owner = names.get(other, (f"bot{other}", ""))
        out.append(OpponentRow(other, name, owner, matches, tuple(values)))
    return tuple(out)


def chart_series(*, session: Session, bot_id: int, measures: Catalogue, version_numbers: dict[int, int],
                 matches: int = CHART_MATCHES, window: int = CHART_WINDOW) -> tuple[ChartSeries, ...]:
    shown = main_measures(measures)
    # the charted measures only (a column of their own, in the covering index): a seat's whole
    # scorecard is a kilobyte or more, and the chart reads 200 of them
    rows = list(reversed(session.connection().execute(
        select(ScorecardTally.match_id, ScorecardTally.bot_version_id, ScorecardTally.charted)
        .where(ScorecardTally.bot_id == bot_id).order_by(ScorecardTally.match_id.desc()).limit(matches)).all()))
    marks = tuple((i, f"v{version_numbers.get(v, '?')}") for i, (_m, v, _t) in enumerate(rows)
                  if i == 0 or v != rows[i - 1][1])
    out = []
    for m in shown:
        points = _windowed(m, rows, window)
        if points:
            out.append(ChartSeries(m, tuple(points), marks))
    return tuple(out)


def _windowed(m: Measure, rows, window: int) -> list[tuple[int, float]]:
    """(match id, the measure over the `window` matches ending there) for each row, oldest first;
    running sums for the summed kinds, so 200 points cost 200 additions, not 2,000 merges."""
    if m.kind == "median":
        points = []
        for i, (match_id, _v, _t) in enumerate(rows):
            pooled = merge_all({m.name: m.kind}, (t for _m, _v2, t in rows[max(0, i - window + 1):i + 1]))
            figure = value(m.kind, pooled.get(m.name))
            if figure is not None:
                points.append((match_id, figure))
        return points
    nums, dens = [0.0], [0.0]
    for _m, _v, tallies in rows:
        num, den = tallies.get(m.name) or (0, 0)
        nums.append(nums[-1] + num)
        dens.append(dens[-1] + den)
    points = []
    for i, (match_id, _v, _t) in enumerate(rows):
        start = max(0, i - window + 1)
        den = dens[i + 1] - dens[start]
        if den:
            points.append((match_id, (nums[i + 1] - nums[start]) / den))
    return points


def version_scorecard(*, session: Session, bot: Bot, version_id: int) -> dict:
    """One version's sum row (matches, measure name -> figure), for the API."""
    measures = catalogue(get_game(bot.game))
    row = sums_for(session, bot.id, [(version_id, ALL, ALL)]).get((version_id, ALL, ALL))
    return figures(measures, row)


def figures(measures: Catalogue, row) -> dict:
    if not row:
        return {"matches": 0, "measures": {}}
    return {"matches": row["matches"], "measures": {
        name: {"value": _figure(measures, row, name), "winners": _figure(measures, row, name, "winners")}
        for name in _names(measures, [row])}}


def recent_matches(*, session: Session, bot_id: int, opponent_id: int | None = None, result: str | None = None,
                   limit: int = 20) -> list[RecentMatch]:
    """Its last matches, newest first, only those with `opponent_id` at the table and of `result`
    (won: first place; lost: any other finished place)."""
    if result is not None and result not in RESULTS:
        raise Invalid(f"result must be one of {', '.join(RESULTS)}, not {result!r}")
    others, met = aliased(Seat), aliased(Seat)
    table_size = select(func.count()).where(others.match_id == Seat.match_id).scalar_subquery()
    query = (select(Match.id, Match.kind, Match.status, Match.created_at, Match.finished_at,
                    Seat.rank, Seat.score, Seat.status, table_size, RatingChange.delta, Seat.seat)
             .join(Match, Match.id == Seat.match_id)
             .outerjoin(RatingChange, (RatingChange.match_id == Seat.match_id) & (RatingChange.bot_id == bot_id))
             .where(Seat.bot_id == bot_id))
    if opponent_id is not None:
        query = query.join(met, (met.match_id == Seat.match_id) & (met.bot_id == opponent_id))
    if result == "won":
        query = query.where(Seat.rank == 1)
    elif result == "lost":
        query = query.where(Seat.rank > 1)
    rows = session.connection().execute(query.order_by(Seat.match_id.desc()).limit(limit)).all()
    tables = seats_by_match(session=session, match_ids=[r[0] for r in rows])
    return [RecentMatch(MatchSummary(*r[:5]), SeatSummary(*r[5:8]), r[8], r[9],
                        tuple(s for s in tables.get(r[0], []) if s.seat != r[10])) for r in rows]


def measure_list(game_name: str) -> Sequence[Measure]:
    return list(catalogue(get_game(game_name)))


# --- the API's reads (ladder/web/api/scorecards.py) ------------------------------------------------


def _scored_bot(session: Session, bot_id: int) -> Bot:
    bot = session.get(Bot, bot_id)
    if bot is None or bot.game not in GAMES:
        raise NotFound(f"no bot {bot_id}")
    return bot


def definitions(game: str) -> dict:
    return {m.name: {"label": m.label, "definition": m.definition, "kind": m.kind, "unit": m.unit,
                     "doc": f"/docs/scorecard#{m.anchor or m.name}"} for m in catalogue(get_game(game))}


def api_scorecard(*, session: Session, bot_id: int) -> tuple[Bot, tuple[int, int] | None, Scorecard]:
    """(the bot, its latest version's (id, number), its scorecard without the chart)."""
    bot = _scored_bot(session, bot_id)
    versions = session.exec(select(BotVersion.id, BotVersion.number).where(BotVersion.bot_id == bot_id)
                            .order_by(BotVersion.number.desc())).all()
    latest = tuple(versions[0]) if versions else None
    card = bot_scorecard(session=session, bot=bot, latest_version_id=latest[0] if latest else None,
                         version_numbers=dict(versions), chart=False)
    return bot, latest, card


def api_version_scorecard(*, session: Session, bot_id: int, number: int) -> tuple[Bot, dict]:
    bot = _scored_bot(session, bot_id)
    version = session.exec(select(BotVersion.id).where(BotVersion.bot_id == bot_id,
                                                       BotVersion.number == number)).first()
    if version is None:
        raise NotFound(f"bot {bot_id} has no version {number}")
    return bot, version_scorecard(session=session, bot=bot, version_id=version)


def api_opponent_scorecard(*, session: Session, bot_id: int, opponent_id: int) -> dict:
    bot = _scored_bot(session, bot_id)
    measures = catalogue(get_game(bot.game))
    mine = sums_for(session, bot.id, [(ALL, ALL, opponent_id)]).get((ALL, ALL, opponent_id))
    if mine is None:
        raise NotFound(f"bot {bot_id} has no measured match with bot {opponent_id}")
    theirs = sums_for(session, opponent_id, [(ALL, ALL, bot.id)]).get((ALL, ALL, bot.id))
    ours, other = figures(measures, mine), figures(measures, theirs)
    rows = {}
    for name, figure in ours["measures"].items():
        a = figure["value"]
        b = other["measures"].get(name, {}).get("value")
        rows[name] = {"value": a, "opponent": b, "margin": None if a is None or b is None else a - b}
    main = opponent_rows(session=session, bot_id=bot.id, measures=measures, opponent_id=opponent_id, limit=1)
    return {"bot_id": bot.id, "opponent_id": opponent_id, "game": bot.game, "matches": ours["matches"],
            "opponent_name": main[0].name if main else None, "measures": rows}
