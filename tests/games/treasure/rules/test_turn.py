"""One rule sentence per test: a turn of Treasure of the Dragons (flips, stops, Spiders, Dragons)."""

from __future__ import annotations

from collections import Counter

from ladder.games.base import Pending
from ladder.games.treasure import Treasure
from ladder.games.treasure.rules.tiles import COUNTS, full_tile_list


def cell(state, square, seat=0):
    return state.observation(seat)["grid"][square[0]][square[1]]


def flip(state, square):
    state.apply(state.pending().seat, {"square": list(square)})


def stop(state):
    state.apply(state.pending().seat, {"stop": True})


def test_setup_shuffles_all_49_tiles_face_down_on_a_7x7_grid():
    state = Treasure().new_state(None, 7, 3)
    assert Counter(state.grid) == Counter(full_tile_list()) and sum(COUNTS.values()) == 49
    grid = state.observation(0)["grid"]
    assert len(grid) == 7 and all(row == ["down"] * 7 for row in grid)


def test_shuffle_uses_the_state_rng_only():
    again = [Treasure().new_state(None, 11, 2).grid for _ in range(2)]
    other = Treasure().new_state(None, 12, 2).grid
    assert again[0] == again[1]
    assert again[0] != other
    assert again[0] != full_tile_list()


def test_seat_0_starts_and_turns_pass_clockwise(make_state):
    state = make_state({(0, 0): "dragon", (0, 1): "chest"}, players=3)
    assert state.pending() == Pending(0, "flip")
    seats = []
    for _ in range(4):
        seats.append(state.pending().seat)
        flip(state, (0, 1))
        stop(state)  # one Chest is not a set: nothing kept, the turn passes
    assert seats == [0, 1, 2, 0]


def test_a_turn_starts_with_a_flip(make_state):
    state = make_state()
    assert "starts with a flip" in state.validate(0, {"stop": True})
    flip(state, (0, 0))
    assert state.validate(0, {"stop": True}) is None


def test_a_flipped_tile_stays_face_up_and_the_player_may_flip_on(make_state):
    state = make_state({(2, 2): "diamond", (3, 3): "scroll"})
    flip(state, (2, 2))
    assert cell(state, (2, 2), seat=1) == "diamond"
    assert state.pending() == Pending(0, "flip")
    flip(state, (3, 3))
    assert [f["kind"] for f in state.observation(1)["flipped"]] == ["diamond", "scroll"]
    assert "face up" in state.validate(0, {"square": [2, 2]})


def test_stopping_keeps_complete_sets_rulebook_example(make_state):
    # The rulebook's example: 2 Scrolls, 4 Swords, 1 Potion and 2 Diamonds keep 2 + 3 + 2.
    placed = {
        (0, 0): "scroll", (0, 1): "scroll", (0, 2): "sword", (0, 3): "sword", (0, 4): "sword",
        (0, 5): "sword", (0, 6): "potion", (1, 0): "diamond", (1, 1): "diamond",
    }  # fmt: skip
    state = make_state(placed)
    for square in placed:
        flip(state, square)
    stop(state)
    assert state.hoards[0] == Counter(scroll=2, sword=3, diamond=2)
    keep = next(e for e in state.events if e.type == "keep")
    assert keep.data["tiles"] == {"diamond": 2, "scroll": 2, "sword": 3}
    # The extra tiles go back face down where they were; the kept squares are empty.
    assert state.grid[5] == "sword" and state.grid[6] == "potion"
    assert cell(state, (0, 5)) == "down" and cell(state, (0, 6)) == "down"
    assert [cell(state, sq) for sq in [(0, 0), (0, 2), (0, 4), (1, 1)]] == ["empty"] * 4
    turn_end = next(e for e in state.events if e.type == "turn_end")
    assert turn_end.data == {"seat": 0, "reason": "stop", "returned": [[0, 5], [0, 6]]}


def test_only_the_exact_number_for_a_set_is_kept(make_state):
    placed = {(0, 0): "chest", (0, 1): "chest", (0, 2): "chest", (0, 3): "potion"}
    state = make_state(placed)
    for square in placed:
        flip(state, square)
    stop(state)
    assert sum(state.hoards[0].values()) == 0 and not any(e.type == "keep" for e in state.events)
    assert [state.grid[i] for i in range(4)] == ["chest", "chest", "chest", "potion"]
    assert state.pending() == Pending(1, "flip")


def test_a_dragon_after_other_tiles_ends_the_turn_and_loses_them(make_state):
    state = make_state({(0, 0): "diamond", (0, 1): "dragon"})
    flip(state, (0, 0))
    flip(state, (0, 1))
    assert state.pending() == Pending(1, "flip")
    assert sum(state.hoards[0].values()) == 0
    assert cell(state, (0, 0)) == "down" and cell(state, (0, 1)) == "down"
    assert state.events[-2].data == {"seat": 0, "reason": "dragon", "returned": [[0, 0], [0, 1]]}


def test_a_dragon_first_lets_the_player_go_on_for_dragons_and_keep_them_all(make_state):
    state = make_state({(0, 0): "dragon", (3, 3): "dragon", (6, 6): "dragon"})
    for square in [(0, 0), (3, 3), (6, 6)]:
        flip(state, square)
        assert state.pending() == Pending(0, "flip") and state.observation(0)["dragon_run"]
    stop(state)
    assert state.hoards[0] == Counter(dragon=3)
    assert [cell(state, sq) for sq in [(0, 0), (3, 3), (6, 6)]] == ["empty"] * 3


def test_a_single_dragon_first_then_stop_keeps_it(make_state):
    state = make_state({(4, 4): "dragon"})
    flip(state, (4, 4))
    stop(state)
    assert state.hoards[0] == Counter(dragon=1)


def test_a_non_dragon_after_a_dragon_first_ends_the_turn_and_loses_all(make_state):
    state = make_state({(0, 0): "dragon", (0, 1): "dragon", (0, 2): "diamond"})
    for square in [(0, 0), (0, 1), (0, 2)]:
        flip(state, square)
    assert state.pending() == Pending(1, "flip")
    assert sum(state.hoards[0].values()) == 0
    assert state.events[-2].data["reason"] == "not_dragon"
    assert [state.grid[i] for i in range(3)] == ["dragon", "dragon", "diamond"]


def test_a_spider_ends_the_turn_at_once_and_everything_goes_back(make_state):
    state = make_state({(0, 0): "diamond", (0, 1): "diamond", (0, 2): "spider"})
    for square in [(0, 0), (0, 1), (0, 2)]:
        flip(state, square)
    # No square is empty yet, so there is nowhere to move the Spider: the next player is up.
    assert state.pending() == Pending(1, "flip")
    assert sum(state.hoards[0].values()) == 0
    assert state.events[-2].data == {"seat": 0, "reason": "spider", "returned": [[0, 0], [0, 1], [0, 2]]}
    assert all(cell(state, sq) == "down" for sq in [(0, 0), (0, 1), (0, 2)])


def test_a_spider_in_a_dragon_run_also_ends_the_turn(make_state):
    state = make_state({(0, 0): "dragon", (0, 1): "spider"})
    flip(state, (0, 0))
    flip(state, (0, 1))
    assert state.pending() == Pending(1, "flip") and state.hoards[0]["dragon"] == 0


def _spider_after_a_win(make_state):
    """Seat 0 wins the Diamond on (1, 1); seat 1 then flips the Spider on (5, 5)."""
    state = make_state({(1, 1): "diamond", (5, 5): "spider", (2, 2): "diamond"})
    flip(state, (1, 1))
    stop(state)
    flip(state, (2, 2))
    flip(state, (5, 5))
    return state


def test_after_a_spider_the_player_may_move_it_face_down_to_an_empty_square(make_state):
    state = _spider_after_a_win(make_state)
    assert state.pending() == Pending(1, "move_spider")
    request = state.observation(1)["request"]
    assert request == {"kind": "move_spider", "spider": [5, 5], "squares": [[1, 1]], "may_leave": True}
    assert "not empty" in state.validate(1, {"square": [2, 2]})
    state.apply(1, {"square": [1, 1]})
    assert state.grid[1 * 7 + 1] == "spider" and state.grid[5 * 7 + 5] is None
    assert cell(state, (1, 1)) == "down" and cell(state, (5, 5)) == "empty"
    assert state.events[-2].data == {"seat": 1, "from": [5, 5], "to": [1, 1]}
    assert state.pending() == Pending(0, "flip")


def test_the_player_may_leave_the_spider_where_it_is(make_state):
    state = _spider_after_a_win(make_state)
    state.apply(1, {"square": None})
    assert state.grid[5 * 7 + 5] == "spider" and state.grid[1 * 7 + 1] is None
    assert state.events[-2].data == {"seat": 1, "from": [5, 5], "to": None}
    assert state.pending() == Pending(0, "flip")


def test_each_decision_is_checked_once(monkeypatch):
    """The play loop validates, then applies without a second check (base State.apply_validated)."""
    from ladder.games.treasure.rules.state import TreasureState
    from ladder.play import play_builtin

    calls = []
    check = TreasureState._check
    monkeypatch.setattr(TreasureState, "_check", lambda self, *args: calls.append(1) or check(self, *args))
    played = play_builtin("treasure", ["careful", "random"], seed=4)
    assert len(calls) == played.decisions > 0
