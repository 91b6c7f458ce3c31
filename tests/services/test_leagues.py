"""Leagues over the database: tables made within a league with its boss, a league short of bots
borrowing, the meetings recorded with a result and the promotion they bring, the pages' data."""

from __future__ import annotations

import random

import pytest
from sqlmodel import select

from ladder.models import Bot, BotVersion, LeagueMember, LeagueMove
from ladder.ranking.leagues import DEFAULT_NAMES
from ladder.ranking.matchmaking import TableSize
from ladder.services import bots, matches, results
from ladder.services.leagues import bot_league, league_tables, standings
from ladder.services.results import MatchOutcome, SeatOutcome

GAME = "treasure"  # leagues: Wood (random), Bronze (careful, memory), Silver (search), Gold (open)
SIZES = TableSize(2, 6, 4)


@pytest.fixture
def house(session):
    return {b.builtin: b for b in bots.seed_house_bots(session=session, games=[GAME])}


def _version(session, bot: Bot) -> int:
    return session.exec(select(BotVersion.id).where(BotVersion.bot_id == bot.id)).first()


def _tables(session, count=4, seed=1):
    pool = matches.matchmaking_pool(session=session, game=GAME)
    return league_tables(session=session, game=GAME, candidates=pool.candidates, sizes=SIZES,
                         rng=random.Random(seed), now=1e9, count=count, exclude=pool.busy,
                         house_owner=pool.house_owner)


def _bots_at(session, table) -> set[str]:
    names = set()
    for vid in table.bots:
        bot = session.get(Bot, session.get(BotVersion, vid).bot_id)
        names.add(bot.builtin or bot.name)
    return names


def _in_league(session, bot: Bot, league: int) -> None:
    session.add(LeagueMember(bot_id=bot.id, game=GAME, league=league))
    session.commit()


def test_a_league_table_seats_its_boss_and_only_its_bots_seed_it(world, session, house):
    climbers = [world.bot(name=f"c{i}")[0] for i in range(3)]
    made = _tables(session)
    assert len(made) == 1  # three climbers and the boss fill one table of four; nobody sits twice
    table, league = made[0]
    assert league == 0 and _bots_at(session, table) == {"random", "c0", "c1", "c2"}
    assert session.get(Bot, session.get(BotVersion, table.seed.bot).bot_id) in climbers


def test_the_boss_sits_at_every_table_of_its_league_at_once(world, session, house):
    for i in range(6):
        world.bot(name=f"c{i}")
    made = _tables(session, count=3)
    assert [league for _, league in made] == [0, 0]
    assert all("random" in _bots_at(session, t) for t, _ in made)
    seated = [b for t, _ in made for b in _bots_at(session, t) if b != "random"]
    assert sorted(seated) == [f"c{i}" for i in range(6)]  # each climber once, the boss twice


def test_a_league_short_of_a_table_borrows_the_league_below_then_above_who_never_seed(world, session, house):
    lone, _ = world.bot(name="lone")
    made = _tables(session, count=1)
    (table, league), = made
    # Wood is the boss and one climber: Bronze's two house bots fill the table
    assert league == 0 and _bots_at(session, table) == {"random", "lone", "careful", "memory"}
    assert table.seed.bot == _version(session, lone)


def test_a_lone_bot_at_the_top_plays_the_strongest_free_bots_below(world, session, house):
    top, _ = world.bot(name="top")
    _in_league(session, top, 3)  # Gold, the open league, has no house bot: Silver's boss, then Bronze's
    (table, league), = _tables(session, count=2, seed=3)
    assert league == 3 and _bots_at(session, table) == {"top", "search", "careful", "memory"}
    lower, _ = world.bot(name="lower")
    _in_league(session, lower, 1)  # Bronze plays too now: which league's table comes first is drawn
    for seed in range(4):
        made = {league: _bots_at(session, t) for t, league in _tables(session, count=2, seed=seed)}
        # nobody sits at both but Bronze's boss, who may play several tables at once
        assert set(made) == {1, 3} and made[1] & made[3] <= {"careful"}
        assert "careful" in made[1] and "top" in made[3] and "lower" in made[1]


def test_a_ladder_without_a_contestant_plays_one_flat_ladder(session, house):
    made = _tables(session, count=1)
    assert len(made) == 1 and made[0][1] is None


def _play(session, version_ids, ranks, *, league, ranked=True):
    match = matches.queue_match(session=session, game=GAME, seats=version_ids, ranked=ranked, league=league)
    assert matches.claim_match(session=session, match_id=match.id, worker_id="w") is not None
    outcome = MatchOutcome([SeatOutcome(rank=r, score=10 * (9 - r), status="ok") for r in ranks])
    return results.record_result(session=session, match_id=match.id, outcome=outcome, worker_id="w")


def test_nine_league_games_above_the_boss_promote_a_bot_and_its_test_starts_again(world, session, house):
    climber, version = world.bot(name="climber")
    boss = _version(session, house["random"])
    for _ in range(8):
        _play(session, [version.id, boss], [1, 2], league=0)
    member = session.get(LeagueMember, climber.id)
    assert (member.league, member.record) == (0, "A" * 8)
    page = bot_league(session=session, bot=climber, names=DEFAULT_NAMES)
    assert (page.league.name, page.next.name, page.progress.needed, page.boss_id) == ("Wood", "Bronze", 1,
                                                                                      house["random"].id)
    last = _play(session, [boss, version.id], [2, 1], league=0)
    session.refresh(member)
    assert (member.league, member.record, member.evidence) == (1, "", 0.0)
    move, = session.exec(select(LeagueMove).where(LeagueMove.bot_id == climber.id)).all()
    assert (move.from_league, move.to_league, move.match_id, move.record) == (0, 1, last.id, "A" * 9)
    page = bot_league(session=session, bot=climber, names=DEFAULT_NAMES)
    assert (page.league.name, page.league.boss, page.progress.meetings, page.moves[0].id) == (
        "Bronze", "careful", 0, move.id)


def test_only_a_rated_table_of_the_bots_own_league_with_the_boss_at_it_counts(world, session, house):
    climber, version = world.bot(name="climber")
    borrowed, lent = world.bot(name="borrowed")
    _in_league(session, borrowed, 1)
    boss, other = _version(session, house["random"]), _version(session, house["careful"])
    _play(session, [version.id, lent.id, boss], [1, 2, 3], league=0)
    _play(session, [version.id, boss], [1, 2], league=0, ranked=False)  # unrated: not a meeting
    _play(session, [version.id, other], [1, 2], league=None)  # not a league table
    _play(session, [version.id, other], [1, 2], league=0)  # the boss was not there
    assert session.get(LeagueMember, climber.id).record == "A"
    assert session.get(LeagueMember, borrowed.id).record == ""  # Bronze's bot met Wood's boss: not its boss


def test_a_tie_with_the_boss_and_a_forfeit_are_meetings_too(world, session, house):
    climber, version = world.bot(name="climber")
    boss = _version(session, house["random"])
    _play(session, [version.id, boss], [1, 1], league=0)
    match = matches.queue_match(session=session, game=GAME, seats=[version.id, boss], league=0)
    matches.claim_match(session=session, match_id=match.id, worker_id="w")
    results.record_result(session=session, match_id=match.id, worker_id="w", outcome=MatchOutcome([
        SeatOutcome(rank=1, score=30, status="crash", forfeited=True, reason="exit code 1"),
        SeatOutcome(rank=2, score=10, status="ok")]))
    assert session.get(LeagueMember, climber.id).record == "TB"  # a forfeit ranks last, as in the ratings


def test_the_top_league_promotes_nobody_and_the_standings_show_each_league(world, session, house):
    climber, version = world.bot(name="climber")
    _in_league(session, climber, 3)
    _play(session, [version.id, _version(session, house["search"])], [1, 2], league=3)
    assert session.get(LeagueMember, climber.id).league == 3
    page = bot_league(session=session, bot=climber, names=DEFAULT_NAMES)
    assert page.next is None and page.progress is None and page.league.open
    world.bot(name="newcomer")
    board = {s.league.name: s for s in standings(session=session, game=GAME, names=DEFAULT_NAMES)}
    assert list(board) == ["Wood", "Bronze", "Silver", "Gold"]
    assert {m.name for m in board["Wood"].members} == {"random", "newcomer"}
    assert [m.boss for m in board["Wood"].members if m.name == "random"] == [True]
    assert {m.name for m in board["Bronze"].members} == {"careful", "memory"}
    assert [m.name for m in board["Gold"].members] == ["climber"] and board["Gold"].boss_id is None


def test_a_house_bot_stays_in_its_declared_league_and_a_remote_bot_has_none(world, session, house):
    page = bot_league(session=session, bot=house["search"], names=DEFAULT_NAMES)
    assert page.house and page.league.name == "Silver" and page.progress is None
    remote = Bot(name="far", game=GAME, owner_id=world.user().id, remote=True)
    session.add(remote)
    session.commit()
    assert bot_league(session=session, bot=remote, names=DEFAULT_NAMES) is None
