"""The one pass over a DragonFlame replay (ladder/games/dragonflame/view/timeline.py) that both the
step list and the viewer frames draw on: it must end with the table the engine ended with, open
each section before the event that starts it changes anything, and keep only what its sight sees."""

from __future__ import annotations

import pytest

from ladder.games.dragonflame import DragonFlame
from ladder.games.dragonflame.view.lines import card_text
from ladder.games.dragonflame.view.timeline import PAGE, Sight, Timeline
from ladder.play import play_builtin
from ladder.replay import Replay

HIDDEN = card_text(None)


def played(players: int, seed: int) -> dict:
    bots = ["heuristic", "random", "looter", "random", "looter"][:players]
    return play_builtin("dragonflame", bots, seed=seed).replay.to_json()


def final_state(replay: dict):
    state = DragonFlame().new_state(replay.get("options"), replay["seed"], replay["players"])
    for entry in replay["log"]:
        if "decision" in entry:
            state.apply(entry["seat"], entry["decision"])
    return state


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_pass_ends_with_the_table_the_engine_ended_with(players):
    replay = played(players, seed=players + 20)
    timeline = Timeline.of(Replay.from_json(replay), PAGE)
    moments = list(timeline)
    assert sum(m.is_decision for m in moments) == sum("decision" in e for e in replay["log"])
    state, table = final_state(replay), timeline.table
    assert [[c["id"] for c in hoard] for hoard in table.hoards] == [list(hoard) for hoard in state.hoards]
    grid = state.grid
    assert [[cell["fire"] for cell in row] for row in table.grid] == [
        [list(grid.cell(r, c).fire) for c in range(grid.cols)] for r in range(grid.rows)]
    assert table.fire == list(state.fire)
    assert [(b["colour"], b["number"]) for b in table.banners] == [tuple(b) for b in state.banners]
    assert timeline.title == "End" and timeline.deck is not None


def test_a_section_opens_before_the_event_that_starts_it_changes_the_table():
    replay = played(4, seed=7)
    timeline = Timeline.of(Replay.from_json(replay), PAGE)
    titles, looted = [], 0
    for moment in timeline:
        table = timeline.table
        if moment.opens:
            titles.append(timeline.title)
            if moment.kind == "round":  # still the last round's castles, looted (none before the first)
                assert table.castles == [] if len(titles) == 1 else any(c["attacker"] is not None
                                                                      for c in table.castles)
            elif moment.kind == "attack":  # the castle still holds what this attack takes
                castle = table.castle(moment.data["castle"]["number"])
                assert castle["attacker"] is None and len(castle["cards"]) == len(moment.data["cards"]) > 0
                looted += 1
        elif moment.kind == "round":
            assert table.castles and all(c["attacker"] is None and not c["cards"] for c in table.castles)
    rounds = sum(e.get("type") == "round" for e in replay["log"])
    expected = [t for n in range(1, rounds + 1) for t in (f"Round {n}: cards played", f"Round {n}: attacks")]
    assert titles == [*expected, "End"] and looted > 0


def test_each_sight_keeps_only_what_it_sees():
    replay = played(3, seed=11)
    events = [e for e in replay["log"] if "type" in e]
    private = [e for e in events if e.get("to") is not None]
    assert private

    def kept(sight):
        return [m.entry.to_json() for m in Timeline.of(Replay.from_json(replay), sight)
                if not m.is_decision and not m.opens]

    assert kept(PAGE) == kept(Sight()) == [e for e in events if e.get("to") is None]
    assert kept(Sight(1)) == [e for e in events if e.get("to") is None or 1 in e["to"]]
    assert kept(Sight(events=True, decisions=True)) == events


def face_down_texts(replay, sight):
    timeline = Timeline.of(Replay.from_json(replay), sight)
    for _ in timeline:
        for castle in timeline.table.castles:
            yield from ((c["text"], c.get("by"), c.get("spied")) for c in castle["cards"] if c["face"] == "down")


def test_the_page_names_every_face_down_card_and_the_public_sight_none_it_was_not_shown():
    replay = played(4, seed=5)
    page = list(face_down_texts(replay, PAGE))
    assert page and all(text != HIDDEN for text, _, _ in page)
    public = list(face_down_texts(replay, Sight()))
    assert public and all(text == HIDDEN for text, _, _ in public)
    own = list(face_down_texts(replay, Sight(2)))
    assert all((text != HIDDEN) == (by == 2 or bool(spied)) for text, by, spied in own)
    assert any(by == 2 for _, by, _ in own)
