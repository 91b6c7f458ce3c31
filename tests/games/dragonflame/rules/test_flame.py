"""Dragonflame: straight lines from the side the player picks, lowest free space, Fields and full
villages skipped, out of fire tokens burns nothing; the card is discarded afterwards."""

from __future__ import annotations

from games.dragonflame.helpers import attack, clear_castles, fetch, new, put, set_banners, to_attacks

from ladder.games.dragonflame.rules.village import Cell, Grid


def grid3() -> Grid:
    names = [("Ashton", 3), ("Brightwater", 4), ("Dunmore", 5), ("Elmstead", 3), ("Field", 0),
             ("Fernhill", 4), ("Greymoor", 5), ("Kindleton", 4), ("Field", 0)]
    return Grid(3, 3, [Cell(n, s) for n, s in names])


def looting(fire: int, extra=(), players: int = 3):
    """Seat 0 (banner 1) about to resolve a Dragonflame with `fire` icons on a known grid."""
    state = new(players)
    set_banners(state, list(range(1, players + 1)))
    to_attacks(state)
    clear_castles(state)
    state.grid = grid3()
    state.castle(2).cards.append((fetch(state, "Dragonflame", fire=fire), True, 1))
    put(state, 2, list(extra), by=1)
    attack(state, 2)
    return state


def test_a_dragonflame_places_as_many_tokens_as_fire_icons():
    state = looting(2)
    state.apply(0, {"side": "left", "index": 0})
    assert [len(state.grid.cell(0, c).fire) for c in range(3)] == [1, 1, 0]
    assert state.fire[0] == 13 and state.grid.tokens_of(0) == 2


def test_fire_goes_in_a_straight_line_from_the_chosen_side():
    state = looting(3)
    state.apply(0, {"side": "bottom", "index": 2})  # column 2 from the bottom: row 2 is a Field
    assert [state.grid.cell(r, 2).fire for r in range(3)] == [[0], [0], []]
    event = next(e for e in state.events if e.type == "flame")
    assert [(p["row"], p["col"]) for p in event.data["placed"]] == [(1, 2), (0, 2)]
    assert event.data["wasted"] == 1 and event.data["tokens"] == 3


def test_one_token_per_village_and_only_as_far_as_the_fire_reaches():
    state = looting(1)
    state.apply(0, {"side": "right", "index": 0})
    assert [len(state.grid.cell(0, c).fire) for c in range(3)] == [0, 0, 1]


def test_fire_takes_the_lowest_free_space():
    state = looting(1)
    state.grid.cell(0, 0).fire = [2]
    state.apply(0, {"side": "left", "index": 0})
    assert state.grid.cell(0, 0).fire == [2, 0]
    assert next(e for e in state.events if e.type == "flame").data["placed"][0]["space"] == 2


def test_fields_and_full_villages_take_no_token():
    state = looting(3)
    state.grid.cell(1, 0).fire = [1, 2, 1]  # Elmstead (3 spaces) is full
    state.apply(0, {"side": "left", "index": 1})  # Elmstead full, Field, Fernhill
    assert state.grid.cell(1, 0).fire == [1, 2, 1] and state.grid.cell(1, 1).fire == []
    assert state.grid.cell(1, 2).fire == [0] and state.fire[0] == 14


def test_several_dragonflames_are_resolved_one_at_a_time():
    state = looting(1, extra=["Dragonflame"])
    assert state.observation(0)["request"]["more_flames"] == 1
    state.apply(0, {"side": "top", "index": 0})
    assert state.pending().kind == "flame" and state.grid.cell(0, 0).fire == [0]
    state.apply(0, {"side": "top", "index": 0})
    assert state.grid.cell(0, 0).fire == [0, 0] and state.pending().kind == "attack"


def test_out_of_fire_tokens_burns_nothing():
    state = new(3)
    set_banners(state, [1, 2, 3])
    to_attacks(state)
    clear_castles(state)
    state.fire[0] = 0
    flames = put(state, 1, ["Dragonflame", "Dragonflame"], by=2)
    before = [list(c.fire) for c in state.grid.cells]
    attack(state, 1)
    assert [list(c.fire) for c in state.grid.cells] == before and state.pending().seat == 1
    assert all(f in state.discard for f in flames)
    fizzles = [e.data for e in state.events if e.type == "flame_fizzle"]
    assert [f["reason"] for f in fizzles] == ["no_fire", "no_fire"]


def test_running_out_midway_places_what_is_left():
    state = looting(3)
    state.fire[0] = 1
    state.apply(0, {"side": "top", "index": 0})
    assert [len(state.grid.cell(r, 0).fire) for r in range(3)] == [1, 0, 0] and state.fire[0] == 0


def test_nothing_left_to_burn_discards_the_flame_without_a_question():
    state = new(3)
    set_banners(state, [1, 2, 3])
    to_attacks(state)
    clear_castles(state)
    for cell in state.grid.cells:
        cell.fire = [1] * cell.spaces
    put(state, 1, ["Dragonflame"], by=2)
    attack(state, 1)
    assert state.pending().kind == "attack" and state.events[-1].data["reason"] == "nothing_to_burn"


def test_a_resolved_dragonflame_is_discarded():
    state = looting(2)
    flame = state.flames[0]
    state.apply(0, {"side": "left", "index": 2})
    assert flame in state.discard and flame not in state.hoards[0]


def test_every_side_and_line_is_a_choice():
    state = looting(1)
    lines = state.observation(0)["request"]["lines"]
    assert len(lines) == 12 and {"side": "bottom", "index": 2} in lines
    assert state.validate(0, {"side": "left", "index": 3}) == "flame: index must be 0-2 for side left"
    assert "side must be one of" in state.validate(0, {"side": "up", "index": 0})


def test_two_player_grid_lines():
    state = new(2)
    assert len(state.grid.lines()) == 2 * 2 + 2 * 3
    assert state.grid.path("bottom", 1) == [(1, 1), (0, 1)]
