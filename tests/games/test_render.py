"""The shared renderer pieces: the scoring table every match page shows."""

from __future__ import annotations

from types import SimpleNamespace

from ladder.games.render import score_table
from ladder.replay import Result


def test_score_table_puts_rows_in_rank_order_with_labels_and_the_total_last():
    game = SimpleNamespace(renderer="")  # the generic renderer: keys as labels
    results = [
        Result(0, "a", 5, 2, {"seat": 0, "hoard_size": 5, "cursed": False, "total": 5}),
        Result(1, "b", 9, 1, {"seat": 1, "hoard_size": 7, "cursed": True, "bonus": {"a": 2, "b": 0}, "total": 9}),
        Result(2, "c", 0, None, None),
    ]
    columns, rows = score_table(game, results)
    assert columns == ["Hoard size", "Cursed", "Bonus", "Total"]
    assert [(r.seat, cells) for r, cells in rows] == [
        (1, ["7", "yes", "a 2", "9"]), (0, ["5", "—", "—", "5"]), (2, ["—", "—", "—", "0"])]
