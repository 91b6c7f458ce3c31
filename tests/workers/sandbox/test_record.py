"""workers/sandbox/record.py: one frozen record of how a bot process ended, as isolate's meta file."""

from __future__ import annotations

from dataclasses import replace

import pytest

from workers.sandbox.record import EXIT, OK, SIGNAL, STOPPED, RunRecord, status_of


def test_the_status_says_how_the_process_ended():
    assert [status_of(0, None, False), status_of(3, None, False), status_of(None, 9, False),
            status_of(None, 9, True)] == [OK, EXIT, SIGNAL, STOPPED]


def test_only_an_exit_of_its_own_that_left_nothing_behind_ended_cleanly():
    ended = RunRecord(OK, 0.1, 0.5, None, 0, None, True, False)
    assert ended.ended_cleanly and ended.exit_json() == {"code": 0, "signal": None}
    assert not replace(ended, clean=False).ended_cleanly  # something of it was left running
    assert not replace(ended, status=STOPPED, exit_code=None, signal=9, running=True).ended_cleanly
    with pytest.raises(AttributeError):
        ended.clean = False  # frozen: what the process did is reported once
