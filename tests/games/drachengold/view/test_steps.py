"""How Drachengold reads (ladder/games/drachengold/view/steps.py): event lines and the step list."""

from __future__ import annotations

from ladder.games import get_game
from ladder.games.drachengold.view import steps as render
from ladder.games.render import renderer_for, seat_namer
from ladder.play import play_builtin
from ladder.replay import Replay


def test_the_game_names_its_renderer():
    assert renderer_for(get_game("drachengold")) is render


def test_event_lines_read_as_sentences():
    who = seat_namer(["ann", "bo", "cy"])
    attack = {"type": "attack", "data": {"seat": 2, "adventurer": "knight4", "dragon": "D7", "bonus": 0, "total": 9,
                                         "strength": 12}, "to": None}
    assert render.event_line(attack, who) == "cy (seat 2) sends the knight4 against D7 (attack 9 of strength 12)"
    turn = {"type": "turn", "data": {"seat": 1, "turn": 5}, "to": None}
    assert render.event_line(turn, who) == "Turn 5: bo (seat 1)"
    decision = {"seat": 0, "kind": "vote", "decision": {"accept": []}}
    assert render.event_line(decision, who) == "ann (seat 0) decides vote: accept=[]"


def test_every_public_event_of_a_game_has_a_line():
    played = play_builtin("drachengold", ["greedy", "random", "greedy"], seed=2, options={"rules": "advanced-a"})
    replay = played.replay.to_json()
    who = seat_namer(["a", "b", "c"])
    assert all(render.event_line(e, who) for e in replay["log"] if "type" in e and e["to"] is None)


def test_a_game_reads_as_setup_turns_and_end():
    replay = play_builtin("drachengold", ["greedy", "random", "greedy"], seed=2).replay.to_json()
    sections = render.sections(Replay.from_json(replay), ["a", "b", "c"])
    assert sections[0].title == "Setup" and sections[-1].title == "End"
    assert sum(s.title.startswith("Turn ") for s in sections) == sum(e.get("type") == "turn" for e in replay["log"])
    assert all(s.drawing is None for s in sections)


def test_score_cells_label_points_with_tokens_and_say_the_curse_only_when_it_struck():
    from ladder.games.drachengold.view.steps import score_cells

    cursed = {"silver": 3, "gold": 0, "red": 4, "black": -2, "majorities": {}, "sets": 0,
              "counts": {"silver": 3, "red": 2, "black": 1}, "cursed": True}
    clean = {**cursed, "black": 0, "majorities": {"gold": 6, "red": 3}, "sets": 5,
             "counts": {"silver": 3, "red": 2}, "cursed": False}
    assert score_cells(cursed) == [
        ("Silver", "3 (3 tokens)"), ("Gold", "0 (0 tokens)"), ("Red", "4 (2 tokens)"), ("Black", "-2 (1 tokens)"),
        ("Majorities", "—"), ("Sets", "0"), ("Curse", "cursed: no majorities or sets")]
    cells = dict(score_cells(clean))
    assert (cells["Majorities"], cells["Sets"], cells["Curse"]) == ("gold +6, red +3", "5", "—")
    assert not any("counts" in label.lower() or "False" in text for label, text in score_cells(clean))
