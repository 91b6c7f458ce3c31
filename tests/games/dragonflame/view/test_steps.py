"""The renderer: every event reads as a sentence, sections per round, and drawings that match the game."""

from __future__ import annotations

from ladder.games.dragonflame.rules.data import COLOURS
from ladder.games.dragonflame.view.steps import event_line, sections
from ladder.play import play_builtin
from ladder.replay import Replay

NAMES = ["ann", "bob", "cy"]


def replay(seed=5):
    return play_builtin("dragonflame", ["looter", "random", "looter"], seed=seed)


def who(seat):
    return f"{NAMES[seat]} (seat {seat})" if isinstance(seat, int) and seat < 3 else f"seat {seat}"


def test_every_event_reads_as_a_sentence():
    played = replay()
    for entry in played.replay.to_json()["log"]:
        line = event_line(entry, who)
        if "type" in entry:
            assert not line.startswith(f"{entry['type']}:"), line  # never the generic fallback
        assert "{" not in line and "None" not in line, line


def test_sections_per_round_with_castles_then_the_village_grid():
    played = replay()
    out = sections(played.replay, NAMES)
    titles = [s.title for s in out]
    rounds = played.state.round
    assert titles == ["Setup"] + [f"Round {r}: {p}" for r in range(1, rounds + 1)
                                  for p in ("cards played", "attacks")] + ["End"]
    first_play = out[1].drawing
    dealt = next(e for e in played.replay.to_json()["log"] if e.get("type") == "round")["data"]
    assert [c["number"] for c in first_play["castles"]] == [c["number"] for c in dealt["castles"]]
    plays = [e["data"] for e in played.replay.to_json()["log"] if e.get("type") == "play"][:9]
    for castle in first_play["castles"]:
        faces = [p["face"] for p in plays if p["castle"] == castle["number"]]
        assert [c["face"] for c in castle["cards"]] == faces
        assert all(c["text"] != "face down" for c in castle["cards"])  # the replay names them


def test_the_last_drawing_matches_the_final_table_and_scores():
    played = replay(8)
    end = sections(played.replay, NAMES)[-1].drawing
    state = played.state
    assert end["scores"] == state.scores()
    assert [[len(c["fire"]) for c in row] for row in end["grid"]] == [
        [len(state.grid.cell(r, c).fire) for c in range(state.grid.cols)] for r in range(state.grid.rows)]
    assert end["grid"][0][0]["fire"] == [COLOURS[s] for s in state.grid.cell(0, 0).fire]
    assert [len(h["cards"]) for h in end["hoards"]] == [len(h) for h in state.hoards]
    assert [b["number"] for b in end["banners"]] == [n for _c, n in state.banners]
    assert [row["total"] for row in end["breakdown"]] == state.scores()


def test_faults_show_in_the_section_where_they_happened():
    played = replay()
    data = played.replay.to_json()
    log = data["log"]
    index = next(i for i, e in enumerate(log) if e.get("kind") == "attack")
    log[index] = {**log[index], "fault": {"status": "timeout", "reason": "too slow"}}
    text = "\n".join(line for s in sections(Replay.from_json(data), NAMES) for line in s.lines)
    assert "timeout on attack (too slow); the default decision was played" in text


def test_two_player_attacks_keep_the_green_banner():
    played = play_builtin("dragonflame", ["looter", "random"], seed=2)
    attacks = [event_line(e, who) for e in played.replay.to_json()["log"] if e.get("type") == "attack"]
    assert attacks and all("holds its green banner" in line and "returns" not in line for line in attacks)
