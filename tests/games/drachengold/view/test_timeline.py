"""The one pass over a Drachengold replay (ladder/games/drachengold/view/timeline.py) that both the
step list and the viewer frames draw on: it follows every token the viewer may follow, counts the
ones it may not, and keeps to what its view may see."""

import pytest

from ladder.games.drachengold.view.timeline import walk
from ladder.play import play_builtin
from ladder.replay import Replay

GAMES = [
    (4, ["greedy", "trader", "random"], {"rules": "advanced-a"}),
    (5, ["trader", "trader", "greedy", "random", "bargainer"], {"rules": "advanced-b", "split": "strategic"}),
    (6, ["random"] * 6, {"rules": "basic"}),
]


@pytest.fixture(params=GAMES, ids=lambda g: f"seed{g[0]}-{len(g[1])}p-{g[2]['rules']}")
def replay(request):
    seed, names, options = request.param
    return play_builtin("drachengold", names, seed=seed, options=options).replay.to_json()


def _views(replay):
    return [(None, True), (None, False)] + [(s, False) for s in range(replay["players"])]


def _table_before_the_end(replay, seat, reveal):
    """The table as the pass left it just before game_over shows every hoard again."""
    table = None
    for moment in walk(Replay.from_json(replay), seat, reveal=reveal):
        if moment.kind == "game_over":
            return table
        table = moment.table
    raise AssertionError("no game_over event")


def test_every_view_follows_each_hoard_s_size_and_its_own_hoard_s_colours(replay):
    counts = [{c: n for c, n in r["breakdown"]["counts"].items() if n} for r in replay["results"]]
    for seat, reveal in _views(replay):
        table = _table_before_the_end(replay, seat, reveal)
        # thefts, windfalls and trades out of sight are counted, so every size is right in every view
        assert [table.hoard_size(s) for s in range(replay["players"])] == [sum(c.values()) for c in counts]
        for s in range(replay["players"]) if reveal else [seat] if seat is not None else []:
            assert table.hoardcolours(s) == counts[s] and table.unseen[s] == table.lost[s] == 0, (seat, s)


def test_the_pass_yields_every_decision_and_only_the_events_its_view_may_see(replay):
    log = replay["log"]
    for seat, reveal in _views(replay):
        moments = list(walk(Replay.from_json(replay), seat, reveal=reveal))
        decisions = [m.entry.to_json() for m in moments if m.is_decision]
        events = [m.entry.to_json() for m in moments if not m.is_decision]
        assert decisions == [e for e in log if "kind" in e]
        assert events == [e for e in log if "type" in e
                          and (reveal or e["to"] is None or (seat is not None and seat in e["to"]))]
    assert len(list(walk(Replay.from_json(replay)))) == len(log)  # the step list's pass: one moment per entry


def test_the_end_shows_the_engine_s_scores_and_the_phases_run_setup_turns_end(replay):
    moments = list(walk(Replay.from_json(replay), None, reveal=True))
    assert moments[-1].kind == "game_over" and moments[-1].phase == "end" and moments[-1].seat is None
    assert moments[-1].table.scores() == [r["score"] for r in replay["results"]]
    phases = [m.phase for m in moments]
    assert phases[0] == "setup" and "turn" in phases
    for m in moments:
        if m.kind == "turn":
            assert (m.phase, m.turn, m.seat) == ("turn", m.data["turn"], m.data["seat"])
        elif m.kind == "market_open":
            assert (m.phase, m.seat) == ("market", None)


def test_a_theft_out_of_sight_is_counted_not_guessed():
    # seed 4 has thefts: the public view sees each theft but not which token was stolen
    played = play_builtin("drachengold", ["greedy", "trader", "random"], seed=4, options={"rules": "advanced-a"})
    replay = played.replay.to_json()
    thefts, seen = 0, {}
    for moment in walk(Replay.from_json(replay), None, reveal=False):
        assert moment.kind != "stolen"
        table = moment.table
        if moment.kind == "theft":
            thefts += 1
            thief, victim = moment.data["seat"], moment.data["victim"]
            assert table.unseen[thief] == seen["unseen"][thief] + 1 and table.lost[victim] == seen["lost"][victim] + 1
            assert table.hoardcolours(thief) == seen["colours"][thief]  # no colour guessed
        seen = {"unseen": list(table.unseen), "lost": list(table.lost),
                "colours": [dict(table.hoardcolours(s)) for s in range(table.n)]}
    assert thefts
