"""DragonFlame's replay-viewer frames: checked against the game itself, re-run decision by decision
from the replay (castles and their stacks, fire on the grid, hoards, hands, scores), and for what
each view may show (no face-down card's identity nor another seat's hand in the public view; a
seat's own face-down cards and hand in its own view; everything once revealed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ladder.games.dragonflame import DragonFlame
from ladder.games.dragonflame.rules.data import CARD_BY_ID
from ladder.games.dragonflame.view.frames import frames, score_label
from ladder.games.dragonflame.view.lines import card_text
from ladder.play import play_builtin
from ladder.replay import Replay
from ladder.services.viewer import replay_frames

GOLDEN = sorted(Path(__file__).parents[3].joinpath("golden").glob("dragonflame-*.json"))
HIDDEN = card_text(None)


def golden(path: Path) -> dict:
    return json.loads(path.read_text())


def fresh(players: int, seed: int) -> dict:
    bots = ["looter", "random", "looter", "random", "looter"][:players]
    return play_builtin("dragonflame", bots, seed=seed).replay.to_json()


REPLAYS = [pytest.param(lambda p=p: golden(p), id=p.stem) for p in GOLDEN] + [
    pytest.param(lambda: fresh(3, 4), id="fresh-3p"), pytest.param(lambda: fresh(5, 9), id="fresh-5p")]


def rerun(replay: dict):
    """The game re-played from the replay's decisions: after each one, the state and how many
    public events it has emitted (the public view makes one frame per public event)."""
    state = DragonFlame().new_state(replay.get("options"), replay["seed"], replay["players"])
    public = lambda: sum(e.to is None for e in state.events)  # noqa: E731
    yield state, public()
    for entry in replay["log"]:
        if "decision" in entry:
            state.apply(entry["seat"], entry["decision"])
            yield state, public()


def test_golden_replays_are_there():
    assert len(GOLDEN) >= 2


@pytest.mark.parametrize("make", REPLAYS)
def test_public_frames_agree_with_the_game_at_every_decision(make):
    replay = make()
    public = frames(Replay.from_json(replay), None)
    assert len(public) == sum(e.get("to") is None for e in replay["log"] if "type" in e)
    checked = 0
    for state, n in rerun(replay):
        t = public[n - 1]["table"]
        if state.castles and t["castles"] and state.phase == "play":
            assert [c["number"] for c in t["castles"]] == [c.number for c in state.castles]
            for drawn, castle in zip(t["castles"], state.castles, strict=True):
                assert len(drawn["cards"]) == len(castle.cards) <= drawn["limit"]
                for card, (cid, up, _by) in zip(drawn["cards"], castle.cards, strict=True):
                    assert card["face"] == ("up" if up else "down")
                    assert card["text"] == (card_text(CARD_BY_ID[cid].as_json()) if up else HIDDEN)
        grid = state.grid
        assert [[len(cell["fire"]) for cell in row] for row in t["grid"]] == [
            [len(grid.cell(r, c).fire) for c in range(grid.cols)] for r in range(grid.rows)]
        assert [len(h["cards"]) for h in t["hoards"]] == [len(h) for h in state.hoards]
        assert [h["fire"] for h in t["hoards"]] == state.fire
        assert [h["size"] for h in t["hands"]] == [len(h) for h in state.hands]
        assert all(h["cards"] is None for h in t["hands"])
        checked += 1
    assert checked > 30
    assert public[-1]["title"] == "End"
    assert public[-1]["scores"] == [r["score"] for r in sorted(replay["results"], key=lambda r: r["seat"])]
    assert [row["total"] for row in public[-1]["table"]["breakdown"]] == public[-1]["scores"]


@pytest.mark.parametrize("make", REPLAYS)
def test_the_public_view_never_names_a_face_down_card_nor_a_hand(make):
    replay = make()
    hidden_ids = {e["decision"]["card"] for e in replay["log"] if e.get("kind") == "play"} - {
        e["data"]["card"]["id"] for e in replay["log"] if e.get("type") == "play" and e["data"].get("card")}
    looted = {c["id"] for e in replay["log"] if e.get("type") == "attack" for c in e["data"]["cards"]}
    never_seen = hidden_ids - looted  # face-down cards discarded with an unattacked castle
    assert hidden_ids and never_seen
    public = frames(Replay.from_json(replay), None)
    text = json.dumps(public)
    assert "is dealt" not in text and " sees " not in text
    for frame in public:
        for castle in frame["table"]["castles"]:
            for card in castle["cards"]:
                if card["face"] == "down":
                    assert card["text"] == HIDDEN and card["category"] == "" and not card.get("spied")
        assert all(h["cards"] is None for h in frame["table"]["hands"])
    # A card nobody looted was never seen by the table; if its name is unique it must not appear.
    names = [CARD_BY_ID[c].name for c in CARD_BY_ID]
    unique = [c for c in never_seen if names.count(CARD_BY_ID[c].name) == 1]
    for cid in unique:
        assert CARD_BY_ID[cid].name not in text


@pytest.mark.parametrize("make", REPLAYS)
def test_a_seat_sees_its_own_face_down_cards_and_hand_only(make):
    replay = make()
    players = replay["players"]
    for seat in range(players):
        mine = frames(Replay.from_json(replay), seat)
        assert len(mine) == len(frames(Replay.from_json(replay), None))  # private news joins the frame before it
        own_down = own_hand = 0
        for state, n in rerun(replay):
            t = mine[n - 1]["table"]
            hands = t["hands"]
            assert hands[seat]["cards"] is not None or state.round == 0
            if hands[seat]["cards"] is not None:
                assert [c["text"] for c in hands[seat]["cards"]] == [
                    card_text(CARD_BY_ID[c].as_json()) for c in state.hands[seat]]
                own_hand += bool(state.hands[seat])
            assert all(hands[k]["cards"] is None for k in range(players) if k != seat)
            if state.phase != "play":
                continue
            for drawn, castle in zip(t["castles"], state.castles, strict=True):
                for card, (cid, up, by) in zip(drawn["cards"], castle.cards, strict=True):
                    if up or by == seat or cid in state.spied[seat]:
                        assert card["text"] == card_text(CARD_BY_ID[cid].as_json())
                        own_down += not up and by == seat
                    else:
                        assert card["text"] == HIDDEN
        assert own_down > 0 and own_hand > 0


@pytest.mark.parametrize("make", REPLAYS[:1])
def test_reveal_shows_every_face_down_card_and_hand(make):
    replay = make()
    everything = frames(Replay.from_json(replay), None, reveal=True)
    downs = [c for f in everything for castle in f["table"]["castles"] for c in castle["cards"] if c["face"] == "down"]
    assert downs and all(c["text"] != HIDDEN and c["category"] for c in downs)
    assert all(h["cards"] is not None for f in everything if f["round"] for h in f["table"]["hands"])
    assert any("is dealt" in line for f in everything for line in f["lines"])


def test_a_spyglass_shows_its_user_the_castle_it_spied():
    for seed in range(1, 40):
        replay = fresh(4, seed)
        spied = [e for e in replay["log"] if e.get("type") == "spied" and e["data"]["cards"]]
        if spied:
            break
    else:
        pytest.fail("no Spyglass was used in 39 games")
    news = spied[0]["data"]
    mine = frames(Replay.from_json(replay), news["seat"])
    frame = next(f for f in mine if any(" sees " in line for line in f["lines"]))
    castle = next(c for c in frame["table"]["castles"] if c["number"] == news["castle"])
    shown = [c["text"] for c in castle["cards"] if c["face"] == "down"]
    assert shown == [card_text(c) for c in news["cards"]]
    public = frames(Replay.from_json(replay), None)[mine.index(frame)]
    assert all(c["text"] == HIDDEN for k in public["table"]["castles"] for c in k["cards"] if c["face"] == "down")


def test_steps_mark_where_they_happened_and_the_service_serves_the_frames():
    replay = golden(GOLDEN[0])
    public = frames(Replay.from_json(replay), None)
    plays = [f for f in public if " plays " in f["lines"][-1] and "discards" not in f["lines"][-1]]
    assert plays and all(f["table"]["mark"]["castle"] is not None for f in plays)
    flames = [f for f in public if " breathes " in f["lines"][-1]]
    assert all(len(f["table"]["mark"]["cells"]) == f["lines"][-1].count(" space ") for f in flames)
    served = replay_frames(Replay.from_json(replay), view="public")
    assert served["score_label"] == score_label() == "glory"
    assert served["frames"] == json.loads(json.dumps(public))
    assert replay_frames(Replay.from_json(replay), view="seat", seat=1)["frames"][-1]["scores"] == public[-1]["scores"]


@pytest.mark.parametrize("make", REPLAYS[:1] + REPLAYS[-1:])
def test_each_frame_carries_the_log_index_of_the_last_event_it_shows(make):
    """The owner's decisions (keyed by log index) follow the viewer's steps by this field: the
    public view's frames are the public events; a seat's own hand and spy news join the frame
    before them, which then stands for the log up to that news."""
    replay = make()
    log = replay["log"]
    assert [f["entry"] for f in frames(Replay.from_json(replay), None)] == [
        i for i, e in enumerate(log) if "type" in e and e.get("to") is None]
    seat_frames = frames(Replay.from_json(replay), 1)
    got = [f["entry"] for f in seat_frames]
    assert got == sorted(set(got)) and len(got) == len(frames(Replay.from_json(replay), None))
    for before, frame in zip([-1, *got], seat_frames, strict=False):
        between = [e for e in log[before + 1:frame["entry"] + 1] if "type" in e]
        assert between and between[-1] is log[frame["entry"]]  # it ends on an event the seat sees
        assert all(e["to"] is None or 1 in e["to"] for e in between[-1:])
        assert len([e for e in between if e["to"] is None]) == 1  # one public moment per step
