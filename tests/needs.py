"""What a test needs from the machine: a service, a sandbox mode, a browser.

A missing need skips the test on a laptop, and fails it when LADDER_REQUIRE_SERVICES=1 (CI), so a
green CI run never hides a service that was not there.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

REQUIRE_SERVICES = os.environ.get("LADDER_REQUIRE_SERVICES") == "1"


def unavailable(reason: str) -> NoReturn:
    if REQUIRE_SERVICES:
        pytest.fail(f"{reason} (LADDER_REQUIRE_SERVICES=1: it is required)")
    pytest.skip(reason)


def sandbox_mode(mode: str) -> str:
    """`mode` when the sandbox can run it here, else skip or fail with the reason."""
    from workers.sandbox.process import sandbox_available

    ok, why = sandbox_available(mode)
    if not ok:
        unavailable(f"sandbox mode {mode!r} unavailable: {why}")
    return mode
