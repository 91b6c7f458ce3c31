"""Scorecards in the database: written with the result, merged per version, table size and
opponent, left out where they would tell what is held, rebuilt by the recompute."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest
from sqlmodel import select

from ladder.models import Match, ScorecardSum, ScorecardTally, utcnow
from ladder.play import play_builtin
from ladder.services import bots, matches, results, scorecard
from ladder.services.scorecard import ALL, recompute
from ladder.services.scorecard_views import bot_scorecard, recent_matches


def _record(world, session, versions, starters, seed, kind="ladder"):
    match = matches.queue_match(session=session, game="treasure", seats=versions, seed=seed, kind=kind)
    matches.claim_match(session=session, match_id=match.id, worker_id="w")
    played = play_builtin("treasure", starters, seed=seed)
    results.record_result(session=session, match_id=match.id, outcome=results.outcome_from_replay(played.replay),
                          worker_id="w")
    return match.id


@pytest.fixture
def history(world, session):
    """Bot a (two versions) against b and c at tables of 2 and 3."""
    (a, a1), (b, b1), (c, c1) = world.bot(name="a"), world.bot(name="b"), world.bot(name="c")
    ids = [_record(world, session, [a1.id, b1.id], ["careful", "random"], 1),
           _record(world, session, [b1.id, a1.id, c1.id], ["memory", "careful", "random"], 2)]
    a2 = bots.add_version(session=session, bot_id=a.id, code=b"print(2)\n", filename="bot.py", placement_games=0)
    bots.activate_version(session=session, version_id=a2.id)
    ids.append(_record(world, session, [c1.id, a2.id], ["random", "memory"], 3))
    return {"a": a, "b": b, "c": c, "a1": a1, "a2": a2, "ids": ids}


def _pooled(rows, name):
    """Independent of tallies.merge: sum the pairs, or add up the median counts."""
    stored = [r[name] for r in rows if name in r]
    if stored and isinstance(stored[0][0], list):
        total = Counter()
        for pairs in stored:
            for value, count in pairs:
                total[value] += count
        return [[v, total[v]] for v in sorted(total)]
    return [sum(s[0] for s in stored), sum(s[1] for s in stored)] if stored else None


def _sum(session, bot_id, version=ALL, players=ALL, opponent=ALL):
    return session.get(ScorecardSum, (bot_id, version, players, opponent))


@dataclass
class _Seat:
    """A seat's stored row with its whole tallies measured again from the replay."""

    match_id: int
    bot_version_id: int
    players: int
    tallies: dict
    winners: dict


def _seats_of(session, bot_id):
    rows = session.exec(select(ScorecardTally).where(ScorecardTally.bot_id == bot_id)).all()
    cards = scorecard.stored_cards(session, [r.match_id for r in rows])
    out = []
    for r in rows:
        (card,) = [c for c in cards[r.match_id][1] if c.seat == r.seat]
        assert r.charted == scorecard.charted(cards[r.match_id][0], card.tallies)  # the row keeps the chart's
        out.append(_Seat(r.match_id, r.bot_version_id, r.players, card.tallies, card.winners))
    return out


def test_the_sums_are_the_seats_tallies_merged_per_version_size_and_opponent(history, session):
    a, b, c = history["a"], history["b"], history["c"]
    rows = _seats_of(session, a.id)
    assert len(rows) == 3
    cases = {
        (ALL, ALL, ALL): rows,
        (history["a1"].id, ALL, ALL): [r for r in rows if r.bot_version_id == history["a1"].id],
        (history["a2"].id, ALL, ALL): [r for r in rows if r.bot_version_id == history["a2"].id],
        (ALL, 2, ALL): [r for r in rows if r.players == 2],
        (ALL, 3, ALL): [r for r in rows if r.players == 3],
        (ALL, ALL, b.id): [r for r in rows if r.match_id in history["ids"][:2]],
        (ALL, ALL, c.id): [r for r in rows if r.match_id in history["ids"][1:]],
    }
    for (version, players, opponent), chosen in cases.items():
        row = _sum(session, a.id, version, players, opponent)
        assert row.matches == len(chosen), (version, players, opponent)
        for name in ("bust_rate", "first", "score", "sets_diamond", "ev_optimal"):
            assert row.tallies.get(name) == _pooled([r.tallies for r in chosen], name), name
        if players == ALL and opponent == ALL:  # a version's and the bot's: the winners' too
            for name in ("bust_rate", "first", "score", "sets_diamond", "ev_optimal"):
                assert row.winners.get(name) == _pooled([r.winners for r in chosen], name), name
        else:  # per size and per opponent: no winners' figures, no medians (services/scorecard.py, merged)
            assert row.winners == {} and "first" in row.tallies
            assert not any(isinstance(t[0], list) for t in row.tallies.values())
    # only the combinations the pages read are kept: no version per opponent, no size per version
    assert _sum(session, a.id, history["a1"].id, 2, ALL) is None and _sum(session, a.id, ALL, 2, b.id) is None


def test_the_page_figures_read_the_sums(history, session):
    a = history["a"]
    card = bot_scorecard(session=session, bot=a, latest_version_id=history["a2"].id,
                         version_numbers={history["a1"].id: 1, history["a2"].id: 2})
    assert card.matches == 3 and card.latest_matches == 1 and card.size_matches[:2] == (2, 1)
    first = next(r for r in card.rows if r.measure.name == "first")
    stored = _sum(session, a.id).tallies["first"]
    assert first.value == stored[0] / stored[1]
    assert {o.opponent_id for o in card.opponents} == {history["b"].id, history["c"].id}
    vs_b = next(o for o in card.opponents if o.opponent_id == history["b"].id)
    mine = _sum(session, a.id, opponent=history["b"].id).tallies["score"]
    theirs = _sum(session, history["b"].id, opponent=a.id).tallies["score"]
    score = next(v for v in vs_b.values if v[0].name == "score")
    assert score[1:] == (mine[0] / mine[1], theirs[0] / theirs[1], mine[0] / mine[1] - theirs[0] / theirs[1])
    chart = {s.measure.name: s for s in card.charts}
    assert len(chart["first"].points) == 3 and [label for _i, label in chart["first"].marks] == ["v1", "v2"]


def test_the_match_list_filters_by_opponent_and_result(history, session):
    a, b = history["a"], history["b"]
    assert [m.match.id for m in recent_matches(session=session, bot_id=a.id, opponent_id=b.id)] == \
        list(reversed(history["ids"][:2]))
    won = recent_matches(session=session, bot_id=a.id, result="won")
    lost = recent_matches(session=session, bot_id=a.id, result="lost")
    assert all(m.seat.rank == 1 for m in won) and all(m.seat.rank > 1 for m in lost)
    assert sorted(m.match.id for m in won + lost) == sorted(history["ids"])


def test_recompute_rebuilds_the_same_tables_and_its_check_finds_a_changed_row(history, session, sessions):
    before_rows = {(t.match_id, t.seat): t.charted for t in session.exec(select(ScorecardTally))}
    before_sums = {(s.bot_id, s.version_id, s.players, s.opponent_id): (s.matches, s.tallies, s.winners)
                   for s in session.exec(select(ScorecardSum))}
    session.commit()
    assert recompute(sessions, write=False).differences == 0
    row = session.exec(select(ScorecardTally)).first()
    row.charted = {**row.charted, "first": [7, 1]}
    session.add(row)
    total = _sum(session, history["a"].id)  # a sum: where every measure but the charted ones is kept
    total.tallies = {**total.tallies, "bust_rate": [0, 99]}
    session.add(total)
    session.commit()
    checked = recompute(sessions, write=False)
    assert checked.differences == 2 and checked.matches == 3 and checked.seats == 7
    written = recompute(sessions, write=True)
    assert written.differences == 2
    session.expire_all()
    after = {(t.match_id, t.seat): t.charted for t in session.exec(select(ScorecardTally))}
    assert after == before_rows
    assert {(s.bot_id, s.version_id, s.players, s.opponent_id): (s.matches, s.tallies, s.winners)
            for s in session.exec(select(ScorecardSum))} == before_sums
    assert recompute(sessions, write=False).differences == 0


def test_an_events_match_and_a_match_without_a_replay_are_not_measured(world, session):
    versions = [world.bot()[1].id for _ in range(2)]
    event = _record(world, session, versions, ["careful", "random"], 5, kind="event")
    assert session.exec(select(ScorecardTally).where(ScorecardTally.match_id == event)).all() == []
    plain = world.play(versions, [1, 2])  # an outcome with no replay
    assert session.exec(select(ScorecardTally).where(ScorecardTally.match_id == plain.id)).all() == []
    assert session.exec(select(ScorecardSum)).all() == []


def test_a_failing_measure_costs_the_match_no_result(world, session, sessions, monkeypatch, caplog):
    from ladder.games.treasure.view import scorecard as part

    def broken(replay):
        raise KeyError("a defect")

    monkeypatch.setattr(part, "measure", broken)
    versions = [world.bot()[1].id for _ in range(2)]
    match_id = _record(world, session, versions, ["careful", "random"], 6)
    assert session.get(Match, match_id).status == "finished"
    assert session.exec(select(ScorecardTally)).all() == []
    assert "ladder scorecard recompute" in caplog.text
    monkeypatch.undo()
    session.commit()
    assert scorecard.recompute(sessions, write=True).seats == 2


def test_a_voided_match_leaves_the_scorecards_as_if_never_played(history, session, sessions):
    from ladder.services import voiding
    from ladder.services.audit import Actor

    voiding.void_matches(session=session, actor=Actor("operator"), reason="a test", match_ids=[history["ids"][1]])
    session.expire_all()
    assert session.exec(select(ScorecardTally).where(ScorecardTally.match_id == history["ids"][1])).all() == []
    after = {(s.bot_id, s.version_id, s.players, s.opponent_id): (s.matches, s.tallies, s.winners)
             for s in session.exec(select(ScorecardSum))}
    session.commit()
    assert recompute(sessions, write=False).differences == 0
    recompute(sessions, write=True)  # what the replays give without the voided match
    session.expire_all()
    rebuilt = {(s.bot_id, s.version_id, s.players, s.opponent_id): (s.matches, s.tallies, s.winners)
               for s in session.exec(select(ScorecardSum))}
    assert after == rebuilt
    assert _sum(session, history["a"].id, ALL, 3, ALL) is None  # its only 3-player match is gone


def test_voiding_a_match_whose_replay_was_pruned_deletes_its_rows_and_says_so(history, session):
    from sqlmodel import delete

    from ladder.models import Replay as StoredReplay

    gone, kept = history["ids"][0], history["ids"][2]
    session.exec(delete(StoredReplay).where(StoredReplay.match_id == gone))  # as retention prunes it
    session.get(Match, gone).replay_pruned_at = utcnow()
    session.commit()
    before = _sum(session, history["a"].id).matches
    forgotten = scorecard.forget_matches(session, [gone, kept])
    assert (forgotten.seats, forgotten.unmeasured) == (4, 1)  # two seats each; one could not be measured again
    assert session.exec(select(ScorecardTally).where(ScorecardTally.match_id.in_([gone, kept]))).all() == []
    assert _sum(session, history["a"].id).matches == before - 1  # the measured one is out of a's sums


def test_retention_keeps_each_bots_chart_rows_and_a_trimmed_match_still_voids_and_exports(
        world, session, sessions, monkeypatch, tmp_path):
    """A bot keeps only its newest CHART_ROWS seat rows (here 2, of 4 matches): the chart reads the
    same, the recompute's check finds nothing to fix, and an old match whose rows went is still
    in the sums, taken out by a void (the replay says `measured`) and exported whole."""
    from ladder.models import Replay as StoredReplay
    from ladder.services import export, voiding
    from ladder.services.audit import Actor
    from ladder.services.retention import Policy, prune
    from ladder.services.stored_replays import stored_replays
    from ladder.storage import FolderStore

    monkeypatch.setattr(scorecard, "CHART_ROWS", 2)
    (a, a1), (_b, b1) = world.bot(name="a"), world.bot(name="b")
    ids = [_record(world, session, [a1.id, b1.id], ["careful", "random"], seed) for seed in (11, 12, 13, 14)]
    before = _sum(session, a.id).tallies
    charted_before = {(t.match_id, t.seat): t.charted for t in session.exec(
        select(ScorecardTally).where(ScorecardTally.match_id.in_(ids[2:])))}
    report = prune(session=session, store=FolderStore(tmp_path), policy=Policy(0, 0, 0, 0, 0))
    assert {p.what: p.count for p in report.items}["scorecard rows past each bot's chart"] == 4  # 2 of a, 2 of b
    rows = session.exec(select(ScorecardTally.match_id, ScorecardTally.seat, ScorecardTally.charted)).all()
    assert {(m, s): c for m, s, c in rows} == charted_before  # the newest two matches' rows, untouched
    assert all(session.get(StoredReplay, m).measured for m in ids)
    assert scorecard.recompute(sessions, write=False).differences == 0
    assert _sum(session, a.id).tallies == before  # trimming rows leaves the sums alone
    # the export still measures the trimmed matches from their replays
    replays = stored_replays(session=session, match_ids=ids)
    exported = export.scorecard_rows(session, min(ids), max(ids), replays)
    assert {(r["match_id"], r["seat"]) for r in exported} == {(m, s) for m in ids for s in (0, 1)}
    # a void of the oldest match takes it out of the sums as if it had never been played
    voiding.void_matches(session=session, actor=Actor("operator"), reason="a test", match_ids=[ids[0]])
    assert _sum(session, a.id).matches == 3
    assert not session.get(StoredReplay, ids[0]).measured
    rebuilt = scorecard.recompute(sessions, write=False)
    assert rebuilt.differences == 0 and rebuilt.matches == 3
