"""`ladder bench live` on one match: it runs end to end on every relay it is given (Redis too),
prints a figure for each and leaves nothing on the relay. No timing is asserted."""

from __future__ import annotations

import re

import redis
from click.testing import CliRunner
from service_support import redis_url  # noqa: F401 (fixture)

from ladder.cli import main


def test_bench_live_prints_each_relay_and_the_web_side(redis_url):  # noqa: F811
    result = CliRunner().invoke(main, ["bench", "live", "--game", "treasure", "--matches", "1",
                                       "--redis-url", redis_url])
    assert result.exit_code == 0, result.output
    for relay in ("none", "memory", "sqlite", "redis"):
        assert re.search(rf"relay {relay} +[\d.]+ ms", result.output), result.output
    # the web side: a batch's cost early and late in the match, against a whole redraw
    assert re.search(r"per live batch of \d+ public entries .*early [\d.]+ ms, late [\d.]+ ms.*redrawing the whole "
                     r"match would cost [\d.]+ ms", result.output), result.output
    assert redis.Redis.from_url(redis_url).keys("*public*") == []  # every topic it wrote is gone
