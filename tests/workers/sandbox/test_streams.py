"""Pipe I/O of the sandbox: the capped line reader, the deadline writer and the stderr drain."""

from __future__ import annotations

import os
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from workers.sandbox.streams import LineReader, StderrDrain, write_all

CAP = 16


def expected_lines(data: bytes, cap: int) -> list[tuple[bytes | None, str]]:
    """What a reader must return for `data` then EOF: an unfinished last line is dropped, unless it
    is already too long (a flood without newline is reported as soon as it passes the cap)."""
    *complete, partial = data.split(b"\n")
    out = [(seg, "ok") if len(seg) <= cap else (None, "oversized") for seg in complete]
    return out + [(None, "oversized")] * (len(partial) > cap) + [(None, "eof")]


def pipe() -> tuple[int, int]:
    r, w = os.pipe()
    os.set_blocking(r, False)
    os.set_blocking(w, False)
    return r, w


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=40), st.sampled_from([b"\n", b"\n\n", b"x" * 17 + b"\n"])),
                max_size=30))
def test_reader_returns_exactly_the_capped_lines_whatever_the_chunking(chunks):
    r, w = pipe()
    reader = LineReader(r, CAP)
    got = []
    try:
        for chunk in chunks:
            os.write(w, chunk)
            while True:  # take what is complete now; a timeout means "need more bytes"
                line, reason = reader.read(time.monotonic())
                if reason == "timeout":
                    break
                got.append((line, reason))
        os.close(w)
        w = -1
        while not got or got[-1][1] != "eof":
            got.append(reader.read(time.monotonic() + 1))
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)
    assert got == expected_lines(b"".join(chunks), CAP)
    assert all(line is None or (b"\n" not in line and len(line) <= CAP) for line, _ in got)


def test_reader_times_out_at_the_deadline():
    r, w = pipe()
    reader = LineReader(r, CAP)
    start = time.monotonic()
    assert reader.read(start + 0.2) == (None, "timeout")
    assert 0.2 <= time.monotonic() - start < 1.0
    os.close(r)
    os.close(w)


def test_oversized_flood_keeps_memory_bounded():
    r, w = pipe()
    reader = LineReader(r, 1024)
    os.write(w, b"y" * 60000)
    assert reader.read(time.monotonic() + 1) == (None, "oversized")
    os.write(w, b"y" * 60000 + b"\nnext\n")
    assert reader.read(time.monotonic() + 1) == (b"next", "ok")
    assert len(reader._buf) <= 1024 + 65536
    os.close(r)
    os.close(w)


def test_write_all_times_out_when_nobody_reads_and_reports_a_closed_reader():
    r, w = pipe()
    start = time.monotonic()
    assert write_all(w, b"z" * (1 << 20), start + 0.2) == "timeout"
    assert time.monotonic() - start < 1.0
    os.close(r)
    assert write_all(w, b"more\n", time.monotonic() + 1) == "closed"
    os.close(w)


def test_write_all_delivers_everything_to_a_reader():
    r, w = pipe()
    assert write_all(w, b"hello\n", time.monotonic() + 1) == "ok"
    assert os.read(r, 100) == b"hello\n"
    os.close(r)
    os.close(w)


def test_stderr_drain_keeps_only_the_tail_and_counts_everything():
    r, w = os.pipe()
    drain = StderrDrain(r, cap=1000)
    drain.start()
    for i in range(200):
        os.write(w, (b"%04d" % i) * 250)  # 1000 bytes each
    os.close(w)
    drain.finish(grace=5)
    assert drain.total == 200_000
    assert drain.tail() == b"0199" * 250
    os.close(r)


def test_one_drainer_reads_many_pipes_each_into_its_own_tail():
    pipes = [os.pipe() for _ in range(6)]
    drains = [StderrDrain(r, cap=100) for r, _ in pipes]
    for drain in drains:
        drain.start()
    for round_ in range(50):
        for i, (_, w) in enumerate(pipes):
            os.write(w, b"%d:%02d;" % (i, round_))
    for i, (r, w) in enumerate(pipes):
        os.close(w)
        drains[i].finish(grace=5)
        assert drains[i].total == 50 * 5
        assert drains[i].tail() == b"".join(b"%d:%02d;" % (i, n) for n in range(30, 50))
        os.close(r)


def test_a_drain_stopped_before_eof_closes_its_pipe_and_the_others_go_on():
    (r1, w1), (r2, w2) = os.pipe(), os.pipe()
    owner = open(r1, "rb", buffering=0)  # noqa: SIM115 - the drain closes it
    held, other = StderrDrain(r1, cap=10, owner=owner), StderrDrain(r2, cap=10)
    held.start()
    other.start()
    os.write(w1, b"still open")
    held.finish(grace=0.05)  # the writer never closes: stopped after the grace
    assert owner.closed and held.tail() == b"still open"
    os.write(w2, b"after")
    os.close(w2)
    other.finish(grace=5)
    assert other.tail() == b"after"
    os.close(w1)
    os.close(r2)


def test_a_forked_child_starts_a_drainer_of_its_own():
    r, w = os.pipe()
    StderrDrain(r, cap=10).start()  # the parent's drainer runs
    pid = os.fork()
    if pid == 0:  # the child's drains would never be read by the parent's thread
        code = 1
        try:
            cr, cw = os.pipe()
            drain = StderrDrain(cr, cap=10)
            drain.start()
            os.write(cw, b"child")
            os.close(cw)
            drain.finish(grace=5)
            code = 0 if drain.tail() == b"child" else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    os.close(w)
    os.close(r)
