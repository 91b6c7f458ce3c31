"""Drachengold's viewer frames (ladder/games/drachengold/view/frames.py): the dragons on the table per
the events, negotiation rounds as proposed and voted, and no hidden information in the public
view (hands, stolen colours, private trades) until the end."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from ladder.games.drachengold.view.frames import frames
from ladder.play import play_builtin
from ladder.replay import Replay

GOLDEN = Path(__file__).parents[3] / "golden"
FILES = ["drachengold-basic-seed7.json", "drachengold-advanced-a-strategic-seed11.json",
         "drachengold-advanced-b-seed3.json"]


def _load(name):
    return json.loads((GOLDEN / name).read_text())


@pytest.fixture(params=FILES)
def replay(request):
    return _load(request.param)


def _public_events(replay):
    return [e for e in replay["log"] if "type" in e and e["to"] is None]


def test_one_public_frame_per_public_event_and_the_dragons_on_the_table(replay):
    got = frames(Replay.from_json(replay), None)
    events = [e for e in _public_events(replay) if e["type"] != "turn"]
    assert len(got) == len(events)
    table: dict[int, str] = {}
    slain: set[str] = set()
    for frame, event in zip(got, events, strict=True):
        kind, d = event["type"], event["data"]
        if kind == "setup":
            table = {i: x["id"] for i, x in enumerate(d["dragons"])}
        elif kind == "dragon":
            table[d["slot"]] = d["id"]
            shown = frame["board"]["slots"][d["slot"]]  # its hidden treasure stays hidden until the kill
            assert sum(shown["tokens"].values()) == len(d["tokens"]) and shown["hidden"] == d["hidden"]
        elif kind == "kill":
            slain.add(d["dragon"])
        standing = {s["id"] for s in frame["board"]["slots"] if s and not s["slain"]}
        assert standing == set(table.values()) - slain, frame["lines"]
        if kind == "attack":
            [slot] = [s for s in frame["board"]["slots"] if s and s["id"] == d["dragon"]]
            assert slot["total"] == d["total"] and slot["strength"] == d["strength"]
            assert [d["seat"], d["adventurer"]] in [a[:2] for a in slot["attackers"]]
            assert frame["board"]["adventurers"][d["seat"]][d["adventurer"]] == d["dragon"]
            assert frame["board"]["marks"]["dragons"] == {d["dragon"]: f"{d['adventurer']} attacks"}
        if kind == "theft":  # shown where it happens: on the thief's and the victim's panels
            assert set(frame["board"]["marks"]["seats"]) == {str(d["seat"]), str(d["victim"])}


def test_negotiation_rounds_show_the_proposals_and_votes():
    replay = _load("drachengold-basic-seed7.json")
    events = [e for e in _public_events(replay) if e["type"] != "turn"]
    got = frames(Replay.from_json(replay), None)
    seen = 0
    for frame, event in zip(got, events, strict=True):
        negotiation = frame["board"]["negotiation"]
        if event["type"] == "proposals":
            last = negotiation["history"][-1]
            assert last["round"] == event["data"]["round"] and last["votes"] is None
            assert [(p["id"], p["proposer"]) for p in last["proposals"]] == [
                (p["id"], p["proposer"]) for p in event["data"]["proposals"]]
            for shown, p in zip(last["proposals"], event["data"]["proposals"], strict=True):
                assert {k: sum(v.values()) for k, v in shown["shares"].items()} == {
                    k: len(ids) for k, ids in p["shares"].items()}
            seen += 1
        elif event["type"] == "votes":
            assert negotiation["history"][-1]["votes"] == event["data"]["votes"]
        elif event["type"] == "agreement":
            assert negotiation["outcome"] == {"proposal": event["data"]["proposal"], "round": event["data"]["round"]}
    assert seen > 0


def test_the_public_view_never_shows_hidden_information(replay):
    private = [e for e in replay["log"] if "type" in e and e["to"] is not None]
    assert private  # these goldens have thefts, cards or trades
    got = frames(Replay.from_json(replay), None)
    text = json.dumps(got[:-1])  # the last frame is the end, where every hoard is public
    for frame in got:
        for hand in frame["board"].get("hands", []):
            assert hand["cards"] == []  # card kinds are private until played
        market = frame["board"]["market"]
        assert market is None or market["offers"] == []  # offers are private
    assert "steals a" not in text and "'s windfall:" not in text and "sees the next dragons" not in text
    # hoards shown in public only hold tokens the table saw arrive
    for frame in got[:-1]:
        for hoard in frame["board"]["hoards"]:
            assert sum(hoard["colours"].values()) + hoard["unseen"] - hoard["lost"] == hoard["size"]


def test_public_hoards_hold_exactly_the_tokens_the_table_saw_arrive(replay):
    """Only the public shares (split, treasure taken alone, the wizard's reds) show colours in the
    public view; a theft, trade or windfall moves a count, never a colour."""
    events = [e for e in _public_events(replay) if e["type"] != "turn"]
    seen = [Counter() for _ in range(replay["players"])]
    for frame, event in zip(frames(Replay.from_json(replay), None), events, strict=True):
        d = event["data"]
        if event["type"] in ("treasure_taken", "wizard_seizes"):
            seen[d["seat"]].update(t["colour"] for t in d["tokens"])
        elif event["type"] == "split":
            for seat, tokens in d["shares"].items():
                seen[int(seat)].update(t["colour"] for t in tokens)
        elif event["type"] == "game_over":
            break
        assert [h["colours"] for h in frame["board"]["hoards"]] == [dict(sorted(c.items())) for c in seen]


def test_hoard_sizes_agree_in_every_view_and_the_full_view_is_exact(replay):
    over = next(e["data"] for e in replay["log"] if e.get("type") == "game_over")
    typed = Replay.from_json(replay)
    views = [frames(typed, None), frames(typed, 0), frames(typed, 1), frames(typed, None, reveal=True)]
    sizes = [[h["size"] for h in f[-2]["board"]["hoards"]] for f in views]
    assert sizes == [sizes[0]] * len(views)
    assert sizes[0] == [len(h) for h in over["hoards"]]
    everything = views[-1]
    exact = [dict(Counter(t["colour"] for t in h)) for h in over["hoards"]]
    assert [h["colours"] for h in everything[-2]["board"]["hoards"]] == [dict(sorted(c.items())) for c in exact]
    assert all(h["unseen"] == h["lost"] == 0 for h in everything[-2]["board"]["hoards"])
    assert everything[-1]["scores"] == over["scores"] == [r["score"] for r in replay["results"]]
    for f in views:  # the end shows every hoard in every view
        assert [h["colours"] for h in f[-1]["board"]["hoards"]] == [dict(sorted(c.items())) for c in exact]


def test_a_seat_sees_its_own_cards_and_thefts_but_not_the_others():
    replay = _load("drachengold-advanced-b-seed3.json")
    mine = frames(Replay.from_json(replay), 0)
    assert any(f["board"]["hands"][0]["cards"] for f in mine)
    assert all(not f["board"]["hands"][s]["cards"] for f in mine for s in (1, 2))
    thefts = [e["data"] for e in replay["log"] if e.get("type") == "stolen"]
    visible = [t for t in thefts if 0 in (t["seat"], t["victim"])]
    lines = [line for f in mine for line in f["lines"] if "steals a" in line]
    assert len(lines) == len(visible)
    everything = frames(Replay.from_json(replay), None, reveal=True)
    assert len([line for f in everything for line in f["lines"] if "steals a" in line]) == len(thefts)


def test_a_freshly_played_game_with_trades_frames_in_every_view():
    played = play_builtin("drachengold", ["trader", "bargainer", "greedy", "random"], seed=5,
                          options={"rules": "advanced-a"})
    replay = played.replay.to_json()
    assert any(e.get("type") == "trade_done" for e in replay["log"])
    for seat in (None, 0, 3):
        got = frames(Replay.from_json(replay), seat)
        assert got and got[-1]["title"] == "End"
    assert frames(Replay.from_json(replay), None, reveal=True)[-1]["scores"] == [r["score"] for r in replay["results"]]


@pytest.mark.parametrize("seat", [None, 0, 2])
def test_each_frame_carries_the_log_index_of_the_event_it_shows(replay, seat):
    """The owner's decisions (keyed by log index) follow the viewer's steps by this field: a frame
    per event the view sees (a turn's opening makes none), in the log's order."""
    shown = [i for i, e in enumerate(replay["log"]) if "type" in e and e["type"] != "turn"
             and (e["to"] is None or seat in e["to"])]
    got = [f["entry"] for f in frames(Replay.from_json(replay), seat)]
    assert got == shown and got == sorted(set(got))
