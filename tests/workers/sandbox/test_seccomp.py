"""The seccomp program: built once, handed to bwrap through a fresh fd each time."""

from __future__ import annotations

import os

from workers.sandbox.seccomp import DENIED, filter_bpf, filter_fd


def test_program_is_whole_bpf_instructions():
    program = filter_bpf()
    assert len(program) > 8 * len(DENIED)  # at least one compare-and-return per denied call
    assert len(program) % 8 == 0  # struct sock_filter is 8 bytes


def test_each_fd_reads_the_whole_program_from_the_start():
    for _ in range(2):
        fd = filter_fd()
        try:
            assert os.read(fd, 1 << 20) == filter_bpf()
            assert os.get_inheritable(fd) is False  # only pass_fds hands it to bwrap
        finally:
            os.close(fd)
