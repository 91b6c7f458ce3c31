"""The compact form (ladder/replay/compact.py): for every game, store compactly, rebuild, compare
with the original replay byte for byte, verify; and what it refuses."""

from __future__ import annotations

import gzip
from dataclasses import replace

import pytest

from ladder.games import available_games, get_game
from ladder.play import BotFault, default_bot_names, make_bots, play_builtin, play_game
from ladder.replay import Replay, SandboxRun, dumps_replay, loads_replay, verify_replay
from ladder.replay.compact import MAGIC, CompactError, compact, is_compact, rebuild, stored_digest

GAMES = sorted(available_games())


def _sandboxed(replay: Replay) -> Replay:
    """The replay as a strict worker completes it: per seat what the sandbox saw (timings of each
    answered request, the clock, stderr marks, a strike, a takeover on the last seat)."""
    counts = {s: 0 for s in range(replay.header.players)}
    for entry in replay.log:
        if hasattr(entry, "decision"):
            counts[entry.seat] += 1
    seats = []
    for seat in replay.seats:
        n = counts[seat.seat]
        run = SandboxRun(
            sandbox="strict", ready={"name": f"bot{seat.seat}"},
            strikes=({"request": 2, "kind": "x", "code": "timeout", "reason": "slow"},) if seat.seat == 0 else (),
            takeover={"code": "crash", "reason": "exit 1", "request": n} if seat.seat == replay.header.players - 1
            else None,
            timings=tuple([round(0.37 + 1.3 * i % 7, 2), round(0.01 * (i % 3), 2)] for i in range(n)),
            bank_left_ms=9876.5, stderr_bytes=12 * n, exit={"code": 0, "signal": None}, clean=True,
            clock={"bank_ms": 10000, "decision_ms": 1000}, stderr_marks=tuple(12 * i for i in range(1, n + 1)))
        seats.append(replace(seat, run=run, bot_seed=1234567890123 + seat.seat))
    return replace(replay, header=replace(replay.header, sandbox="strict", seed_key="ab" * 16), seats=tuple(seats))


class _Faulty:
    """A house bot that fails every third request: the log holds faults with attempted answers."""

    def __init__(self, bot):
        self.bot, self.calls = bot, 0

    def setup(self, hello):
        self.bot.setup(hello)

    def on_event(self, event):
        self.bot.on_event(event)

    def decide(self, kind, observation):
        self.calls += 1
        if self.calls % 3 == 0:
            raise BotFault("timeout", f"request {self.calls}: no answer in time")
        return self.bot.decide(kind, observation)


def _cases(game: str) -> list[Replay]:
    players = get_game(game).min_players, get_game(game).max_players
    plain = [play_builtin(game, default_bot_names(game, n), seed=seed).replay
             for n, seed in ((players[0], 3), (players[1], 11))]
    names = default_bot_names(game, players[1])
    bots = make_bots(game, names)
    faulty = play_game(game, [_Faulty(bots[0]), *bots[1:]], seed=5, names=names).replay
    return [*plain, _sandboxed(plain[1]), faulty]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_rebuilds_byte_for_byte_and_verifies(game):
    for replay in _cases(game):
        original = dumps_replay(replay)
        data = compact(replay)
        assert is_compact(data) and data.startswith(MAGIC)
        assert len(data) < len(gzip.compress(original)) / 2
        rebuilt = dumps_replay(rebuild(data))
        assert rebuilt == original
        assert verify_replay(loads_replay(rebuilt)).ok


def test_the_faulted_answers_survive():
    replay = _cases("treasure")[-1]
    assert any(getattr(e, "fault", None) is not None for e in replay.log)
    assert rebuild(compact(replay)).log == replay.log


def test_timings_that_are_not_hundredths_are_kept_as_they_are():
    replay = _sandboxed(play_builtin("treasure", ["careful", "random"], seed=1).replay)
    seat = replay.seats[0]
    odd = replace(seat, run=replace(seat.run, timings=((0.123456, 1), *seat.run.timings[1:])))
    replay = replace(replay, seats=(odd, *replay.seats[1:]))
    assert dumps_replay(rebuild(compact(replay))) == dumps_replay(replay)


def test_a_replay_the_engine_does_not_reproduce_has_no_compact_form():
    replay = play_builtin("treasure", ["careful", "random"], seed=2).replay
    wrong = replace(replay, results=(replace(replay.results[0], score=replay.results[0].score + 1),
                                     *replay.results[1:]))
    with pytest.raises(CompactError):
        compact(wrong)
    with pytest.raises(CompactError, match="stderr"):
        compact(replace(replay, seats=(replace(replay.seats[0], stderr="hi"), *replay.seats[1:])))


def test_a_compact_form_that_rebuilds_differently_is_refused_not_served():
    replay = play_builtin("treasure", ["careful", "random"], seed=2).replay
    data = compact(replay)
    other = compact(play_builtin("treasure", ["careful", "random"], seed=3).replay)
    assert stored_digest(data) != stored_digest(other)
    with pytest.raises(CompactError):
        rebuild(MAGIC + b"not zlib")
    with pytest.raises(CompactError):
        rebuild(b"\x1f\x8b" + data[2:])
    with pytest.raises(CompactError, match="layout"):
        rebuild(MAGIC + b"\x07" + data[len(MAGIC) + 1:])
    with pytest.raises(CompactError):
        rebuild(data[:-5])
    # the same decisions under another seed: they no longer play through, or give other bytes
    import json
    import zlib

    from ladder.replay import canonical
    from ladder.replay.compact import GAME_DICTIONARY, _dictionary

    assert data[len(MAGIC)] == GAME_DICTIONARY  # in-process: no sandbox numbers; the game's dictionary
    head = data[:len(MAGIC) + 2 + data[len(MAGIC) + 1]]
    assert head.endswith(b"treasure")
    unpacker = zlib.decompressobj(-15, _dictionary("treasure"))
    document = json.loads(unpacker.decompress(data[len(head):]) + unpacker.flush())
    document["h"]["seed"] += 1
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, _dictionary("treasure"))
    tampered = head + packer.compress(canonical(document).encode()) + packer.flush()
    with pytest.raises(CompactError):
        rebuild(tampered)
