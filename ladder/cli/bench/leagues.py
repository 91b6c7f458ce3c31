"""`ladder bench leagues`: a seeded ladder of one game (the house bots, one contestant per Python
starter kit, each of its own owner, and a fresh upload of the kit the site offers first) played
through the real league tables, result recording and promotion, then a season's final among its
eight best; prints the figures docs/ratings.md ("Leagues", "Seasons") quotes.

Games are played in-process by the starter bots' own code (no sandbox: this measures the leagues,
not the workers), and "ladder time" is a model stated with the figures: a ladder of WORKERS
workers plays that many matches at once, each costing its in-process play time plus the strict
sandbox's per-match overhead (OVERHEAD_S, from `ladder bench service`'s 387 matches per busy
core-minute on the service bench's matches: about 0.15 s of a core each).
"""

from __future__ import annotations

import random
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from statistics import median

import click

WORKERS = 2
OVERHEAD_S = 0.15


@dataclass
class Run:
    matches: int = 0
    seconds: float = 0.0  # in-process play time
    promoted_after: dict[int, tuple[int, float]] = field(default_factory=dict)  # bot -> (its games, ladder min)
    lowest: list[int] = field(default_factory=list)  # 1 per first place of a contestant at a lowest-league table

    def ladder_minutes(self) -> float:
        return (self.seconds + OVERHEAD_S * self.matches) / WORKERS / 60


def _play(session, game: str, match, names: list[str], now: datetime) -> tuple[list[int], float]:
    from ladder.play import play_builtin
    from ladder.services import matches, results
    from ladder.services.results import MatchOutcome, SeatOutcome

    started = time.perf_counter()
    played = play_builtin(game, names, seed=match.seed, options=match.options)
    spent = time.perf_counter() - started
    ranks = [r.rank for r in sorted(played.results, key=lambda r: r.seat)]
    scores = [r.score if isinstance(r.score, int) else 0 for r in sorted(played.results, key=lambda r: r.seat)]
    matches.claim_match(session=session, match_id=match.id, worker_id="bench", now=now)
    results.record_result(session=session, match_id=match.id, worker_id="bench", now=now, outcome=MatchOutcome(
        [SeatOutcome(rank=rank, score=score, status="ok") for rank, score in zip(ranks, scores, strict=True)]))
    return ranks, spent


@click.command("leagues")
@click.option("--game", default=None, help="A registered game (default: the flagship).")
@click.option("--minutes", type=click.FloatRange(min=1), default=30, show_default=True,
              help="Ladder time to play (the model above), or until the fresh kit is promoted out of the first league.")
@click.option("--matches", "max_matches", type=click.IntRange(min=1), default=None,
              help="Stop after this many ladder matches, whatever the ladder time (a quick check of the command).")
@click.option("--final/--no-final", default=True, show_default=True, help="Then play a season's final of 8.")
@click.option("--final-rounds", type=click.IntRange(1, 20), default=5, show_default=True)
@click.option("--final-deals", type=click.IntRange(1, 200), default=2, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
def bench_leagues(game: str | None, minutes: float, max_matches: int | None, final: bool, final_rounds: int,
                  final_deals: int, seed: int) -> None:
    """Leagues and a season's final on a seeded in-process ladder (see the module's docstring)."""
    from sqlmodel import select

    from bots import builtin_names, reference_bot
    from ladder.config import Settings
    from ladder.db import make_engine, session_factory, upgrade
    from ladder.games import FLAGSHIP, get_game
    from ladder.models import Bot, BotCreate, BotVersion, LeagueMember, User
    from ladder.ranking.matchmaking import TableSize
    from ladder.services import bots, matches
    from ladder.services.leagues import league_tables

    game = game or FLAGSHIP
    rng = random.Random(seed)
    sizes = TableSize.of(get_game(game))  # an unknown game is refused before anything is made
    with tempfile.TemporaryDirectory(prefix="ladder-bench-leagues-") as tmp:
        settings = Settings(instance_dir=Path(tmp))
        engine = make_engine(settings)
        upgrade(engine)
        session = session_factory(engine)()
        bots.seed_house_bots(session=session, games=[game])
        runs_as: dict[int, str] = {}  # bot id -> the starter bot whose code it is
        for b in session.exec(select(Bot).where(Bot.game == game)):
            runs_as[b.id] = b.builtin
        kit = reference_bot(game)
        fresh_id = None
        kits = builtin_names(game)
        kits = (kits * 8)[:max(8, len(kits))]  # at least eight contestants besides the fresh one: a final's field
        for i, name in enumerate([*kits, kit]):
            owner = User(username=f"author{i}", password_hash="!")
            session.add(owner)
            session.commit()
            label = f"kit-{name}" + (f"-{i // len(set(kits)) + 1}" if i >= len(set(kits)) else "")
            bot = bots.create_bot(session=session, owner_id=owner.id,
                                  data=BotCreate(name=label if i < len(kits) else "fresh", game=game))
            version = bots.add_version(session=session, bot_id=bot.id, code=b"# the kit\n", filename="main.py",
                                       placement_games=0)
            bots.activate_version(session=session, version_id=version.id)
            runs_as[bot.id] = name
            fresh_id = bot.id
        version_bot = dict(session.exec(select(BotVersion.id, BotVersion.bot_id)).all())
        house = set(session.exec(select(Bot.id).join(User, User.id == Bot.owner_id)
                                         .where(User.is_system == True)))  # noqa: E712
        run = Run()
        clock = datetime(2026, 1, 1, tzinfo=UTC)
        click.echo(f"{game}: {len(runs_as) - len(house)} contestants (the starter kits, and a fresh {kit}) "
                   f"among {len(house)} house bots; up to {minutes:g} ladder minutes")
        shown = 0
        while run.ladder_minutes() < minutes and (max_matches is None or run.matches < max_matches):
            pool = matches.matchmaking_pool(session=session, game=game)
            tables = league_tables(session=session, game=game, candidates=pool.candidates, sizes=sizes, rng=rng,
                                   now=clock.timestamp(), count=WORKERS * 2, exclude=pool.busy,
                                   house_owner=pool.house_owner)
            session.commit()
            if not tables:
                raise click.ClickException("no table could be made")
            for table, league in tables:
                if max_matches is not None and run.matches >= max_matches:
                    break
                match = matches.queue_match(session=session, game=game, seats=table, sandbox="off", league=league)
                seated = [version_bot[v] for v in table.bots]
                before = {b: _league(session, b) for b in seated if b not in house}
                ranks, spent = _play(session, game, match, [runs_as[b] for b in seated], clock)
                run.matches += 1
                run.seconds += spent
                clock += timedelta(seconds=(spent + OVERHEAD_S) / WORKERS)
                if league == 0:
                    run.lowest += [int(r == 1) for b, r in zip(seated, ranks, strict=True) if b not in house]
                for b in before:
                    if _league(session, b) > before[b] and b not in run.promoted_after:
                        run.promoted_after[b] = (_games(session, b), run.ladder_minutes())
            if run.ladder_minutes() >= shown + 1:
                shown = int(run.ladder_minutes())
                click.echo(f"  {shown:4d} ladder min: {run.matches} matches; promoted so far: "
                           + (", ".join(f"{_name(session, b)} (after {g} games)" for b, (g, _) in
                                        run.promoted_after.items()) or "none"))
            if fresh_id in run.promoted_after and run.ladder_minutes() >= 5:
                break
        leagues = {m.bot_id: m.league for m in session.exec(select(LeagueMember))}
        click.echo("")
        click.echo(f"matches played: {run.matches} in {run.ladder_minutes():.1f} ladder minutes "
                   f"({WORKERS} workers, {OVERHEAD_S:.2f} s sandbox overhead a match; in-process "
                   f"{1000 * run.seconds / run.matches:.1f} ms a match)")
        if fresh_id in run.promoted_after:
            g, m = run.promoted_after[fresh_id]
            click.echo(f"the fresh {kit} kit left the first league after {g} of its games, {m:.1f} ladder minutes")
        else:
            click.echo(f"the fresh {kit} kit did NOT leave the first league in {minutes:g} ladder minutes")
        share = sum(run.lowest) / len(run.lowest) if run.lowest else 0.0
        click.echo(f"contestants at the first league's tables finished first in {share:.1%} of their games "
                   f"({sum(run.lowest)} of {len(run.lowest)})")
        for b in sorted(runs_as):
            if b not in house:
                click.echo(f"  {_name(session, b):18s} league {leagues.get(b, 0)}")
        if final:
            _final(session, game, clock, runs_as, final_rounds, final_deals)
        session.close()
        engine.dispose()


def _league(session, bot_id: int) -> int:
    from ladder.models import LeagueMember

    member = session.get(LeagueMember, bot_id, populate_existing=True)
    return member.league if member else 0


def _games(session, bot_id: int) -> int:
    from ladder.models import Rating

    rating = session.get(Rating, bot_id, populate_existing=True)
    return rating.games if rating else 0


def _name(session, bot_id: int) -> str:
    from ladder.models import Bot

    return session.get(Bot, bot_id).name


def _final(session, game: str, clock: datetime, runs_as: dict[int, str], rounds: int, deals: int) -> None:
    from sqlmodel import select

    from ladder.models import EventMatch, Match, Seat, TournamentEvent, User
    from ladder.services.seasons import advance_seasons, open_season
    from ladder.services.tournaments import feed_events

    organizer = User(username="organizer", password_hash="!", is_admin=True)
    session.add(organizer)
    session.commit()
    season = open_season(session=session, organizer_id=organizer.id, game=game, name="Bench season",
                         ends_at=clock + timedelta(minutes=1), finalists=8, final_rounds=rounds,
                         final_deals=deals, now=clock)
    outcome = advance_seasons(session=session, now=clock + timedelta(minutes=2))
    click.echo("")
    click.echo(f"season's final: {outcome.get(season.id)}")
    session.refresh(season)
    if season.event_id is None:
        return
    if not session.exec(select(EventMatch).where(EventMatch.event_id == season.event_id)).first():
        return
    planned = session.exec(select(EventMatch).where(EventMatch.event_id == season.event_id)).all()
    times: list[float] = []
    started = time.perf_counter()
    event = session.get(TournamentEvent, season.event_id)
    while True:
        queued = feed_events(session=session, slots=64, sandbox="off")
        session.refresh(event)
        if not queued and event.status != "running":
            break
        for match_id in queued:
            match = session.get(Match, match_id)
            seated = [s.bot_id for s in session.exec(select(Seat).where(Seat.match_id == match_id).order_by(Seat.seat))]
            _, spent = _play(session, game, match, [runs_as[b] for b in seated], clock)
            times.append(spent)
    wall = time.perf_counter() - started
    total = session.exec(select(EventMatch).where(EventMatch.event_id == season.event_id)).all()
    per_round = len(planned)
    plan_min = len(total) * (median(times) + OVERHEAD_S) / WORKERS / 60
    took_min = (sum(times) + OVERHEAD_S * len(times)) / WORKERS / 60
    advance_seasons(session=session, now=clock + timedelta(hours=1))
    session.refresh(season)
    click.echo(f"  {len(total)} matches ({per_round} a round: {season.final_rounds} Swiss rounds of "
               f"{season.final_deals} deals in every seat order), planned {plan_min:.1f} ladder minutes "
               f"(the median match's cost), took {took_min:.1f} ({wall:.0f} s in process); season {season.status}")
