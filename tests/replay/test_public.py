"""The spectator's form of a replay (ladder/replay/public.py): for every game, what a spectator has
by the end of a match draws exactly the finished replay's public view (but for refused decisions'
reasons, held back while it runs); a prefix of it draws a prefix of that view (the live viewer
appends frames); and nothing addressed to some seats only, nor any decision's content, is in it."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from frames_support import Flaky, drawings, spectators_frames

from ladder.games import GAMES, get_game
from ladder.games.frames import Heading
from ladder.play import default_bot_names, make_bots, play_game
from ladder.replay import Decision, Fault, Replay
from ladder.replay.public import HELD_BACK, public_entry, public_log


def played(game: str, seed: int) -> Replay:
    names = default_bot_names(game, get_game(game).default_players)
    bots = make_bots(game, names)
    bots[0] = Flaky(bots[0], seed)
    return play_game(game, bots, seed=seed, names=names).replay


def spectators_view(replay: Replay, log: list) -> list:
    return spectators_frames(Heading.of(replay), log)


def held_back(replay: Replay) -> Replay:
    """The replay with every refused decision's reason held back and its content dropped."""
    log = tuple(replace(e, fault=Fault(e.fault.status, HELD_BACK)) if isinstance(e, Decision) and e.fault else e
                for e in replay.log)
    return replace(replay, log=log)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_spectators_log_draws_the_finished_public_view(game, seed):
    replay = played(game, seed)
    assert any(isinstance(e, Decision) and e.fault for e in replay.log)  # the flaky seat was refused
    view = get_game(game).part("view")
    log = public_log(replay.log)
    live = spectators_view(replay, log)
    assert drawings(live) == drawings(view.frames(held_back(replay), None, reveal=False))
    assert len(live) > 10
    # The viewer appends: every prefix draws the same frames as the whole, but for its last one
    # (which may still change: a fault line waits for the next event's frame).
    for cut in random.Random(seed).sample(range(1, len(log)), 12):
        prefix = spectators_view(replay, log[:cut])
        assert prefix[:-1] == live[:len(prefix) - 1]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_nothing_private_and_no_decision_content_is_in_it(game):
    replay = played(game, 4)
    log = public_log(replay.log)
    private = [e.to_json() for e in replay.log if not isinstance(e, Decision) and e.to is not None]
    # (Treasure has none: every flip is public.)
    text = [json.dumps(e, sort_keys=True) for e in log]
    assert not any(json.dumps(p, sort_keys=True) in text for p in private)
    assert all(e["to"] is None for e in log if "type" in e)
    decisions = [e for e in log if "kind" in e]
    assert decisions and all(set(e) == {"seat", "kind", "fault"} for e in decisions)
    assert all(e["fault"] == {"status": "illegal", "reason": HELD_BACK} for e in decisions)
    assert "nonsense" not in json.dumps(log)  # the refused content waits for the end


def test_entries_one_by_one():
    event = {"type": "flip", "data": {"square": [0, 1]}, "to": None}
    assert public_entry(event) is event  # published as the log holds it, not copied
    assert public_entry({"type": "hand", "data": {"cards": [1]}, "to": [2]}) is None
    assert public_entry({"seat": 1, "kind": "play", "decision": {"card": "c17"}}) is None
    refused = {"seat": 1, "kind": "play", "decision": {"card": "c3"},
               "fault": {"status": "timeout", "reason": "2000 ms", "attempted": {"card": "c17"}}}
    assert public_entry(refused) == {"seat": 1, "kind": "play", "fault": {"status": "timeout", "reason": HELD_BACK}}
    typed = Decision(1, "play", {"card": "c3"}, Fault("illegal", "c17 is not in your hand", {"card": "c17"}))
    assert public_entry(typed) == {"seat": 1, "kind": "play", "fault": {"status": "illegal", "reason": HELD_BACK}}
