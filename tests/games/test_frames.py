"""The games' frames as a stream (ladder/games/frames.py), for every game: a long match's log fed in
batches draws, after every batch, what one pass over the log so far draws, in every view; a frame
once drawn changes only while it is the last (the live viewer keeps the rest); and every entry is
drawn once, however many batches came before it (what keeps a live batch's cost flat)."""

from __future__ import annotations

import pytest
from frames_support import Flaky

from ladder.games import GAMES, get_game
from ladder.games.frames import Heading, drawn
from ladder.play import default_bot_names, make_bots, play_game
from ladder.replay.public import public_log, typed_public_entry

BATCHES = (1, 7, 40)  # entries per batch: one at a time, the publisher's small and large batches


def long_match(game: str):
    obj = get_game(game)
    names = default_bot_names(game, obj.max_players)  # the most seats: the longest log
    bots = make_bots(game, names)
    bots[0] = Flaky(bots[0], 3)
    return play_game(game, bots, seed=3, names=names).replay


def views(players: int):
    return [(None, False), (0, False), (players - 1, False), (None, True)]


class Counting:
    """A stream that counts the entries it was fed."""

    def __init__(self, stream):
        self.stream, self.pushed = stream, 0

    def push(self, index, entry):
        self.pushed += 1
        self.stream.push(index, entry)


def fed_in_batches(view, heading, log, seat, reveal, size):
    """Feed `log` `size` entries at a time the way the live viewer does: after each batch, ask for
    the frames from the client's last one on and put them in place of it. Yields (entries fed so
    far, the client's frames)."""
    stream = view.stream(heading, seat, reveal=reveal)
    counting = Counting(stream)
    client: list[dict] = []
    for first in range(0, len(log), size):
        for offset, entry in enumerate(log[first:first + size]):
            counting.push(first + offset, entry)
        start = max(0, len(client) - 1)
        before = list(client[:start])
        client = client[:start] + stream.frames_from(start)
        assert client[:start] == before  # the frames sent before the last never change
        assert stream.count() == len(client)
        yield first + len(log[first:first + size]), client
    assert counting.pushed == len(log)  # every entry drawn once: no batch redraws the match


@pytest.mark.parametrize("size", BATCHES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_long_match_fed_in_batches_draws_the_one_pass_frames_in_every_view(game, size):
    replay = long_match(game)
    assert len(replay.log) > 200 and any(getattr(e, "fault", None) for e in replay.log)
    view, heading = get_game(game).part("view"), Heading.of(replay)
    for seat, reveal in views(heading.players):
        checks = checkpoints(len(replay.log))
        for fed, client in fed_in_batches(view, heading, replay.log, seat, reveal, size):
            if checks and fed >= checks[0]:  # a one-pass draw per check: a few, spread over the match
                checks = [c for c in checks if c > fed]
                assert client == drawn(view.stream(heading, seat, reveal=reveal), replay.log[:fed]), (seat, fed)
        assert client == view.frames(replay, seat, reveal=reveal)


def checkpoints(length: int) -> list[int]:
    return [length * k // 6 for k in range(1, 7)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_spectators_log_fed_in_batches_draws_the_one_pass_public_frames(game):
    replay = long_match(game)
    log = [typed_public_entry(e) for e in public_log(replay.log)]
    view, heading = get_game(game).part("view"), Heading.of(replay)
    checks = checkpoints(len(log))
    for fed, client in fed_in_batches(view, heading, log, None, False, 7):
        if checks and fed >= checks[0]:
            checks = [c for c in checks if c > fed]
            assert client == drawn(view.stream(heading, None, reveal=False), log[:fed])
    assert len(client) > 20
