"""`ladder bench sandbox` prints its medians (no timing assertions: speed is read, not tested)."""

from __future__ import annotations

import re

from click.testing import CliRunner

from ladder.cli import main
from ladder.cli.bench import sandbox as bench
from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import spawn_helper

NUMBER = r"([0-9]+\.[0-9]+)"


def figures(output: str) -> dict[str, float]:
    rt = re.search(rf"round trip +sandboxed +{NUMBER} µs +plain pipe +{NUMBER} µs +ratio {NUMBER}", output)
    st = re.search(rf"start to reply sandboxed +{NUMBER} ms +bare python3 -I -c pass {NUMBER} ms +ratio {NUMBER}",
                   output)
    assert rt and st, output
    return {"rt": float(rt[1]), "rt_plain": float(rt[2]), "rt_ratio": float(rt[3]),
            "start": float(st[1]), "bare": float(st[2]), "start_ratio": float(st[3])}


def test_cli_prints_round_trip_and_start_medians_with_ratios(strict_sandbox):
    result = CliRunner().invoke(main, ["bench", "sandbox", "--mode", strict_sandbox, "--round-trips", "60",
                                       "--starts", "2", "--matches", "1"])
    assert result.exit_code == 0, result.output
    f = figures(result.output)
    assert f["rt"] > 0 and f["rt_plain"] > 0 and f["start"] > 0 and f["bare"] > 0
    assert abs(f["rt_ratio"] - f["rt"] / f["rt_plain"]) < 0.02
    assert abs(f["start_ratio"] - f["start"] / f["bare"]) < 0.02
    assert "mode strict, 60 round trips, 2 starts" in result.output
    assert re.search(r"freeze \+ thaw +[0-9.]+ ms", result.output)
    assert re.search(r"cgroup join +[0-9.]+ ms", result.output)
    parts = re.search(rf"of a start +worker before Popen {NUMBER} ms +Popen {NUMBER} ms +then bwrap and the bot "
                      rf"to its first line {NUMBER} ms \(the worker waits {NUMBER} ms of it", result.output)
    assert parts, result.output
    before, popen, after, waited = (float(parts[i]) for i in range(1, 5))
    # medians of each part over the same starts as the total's: they add up to about it
    assert before > 0 and popen > 0 and 0 < waited < after and before + popen < f["start"]
    assert abs(before + popen + after - f["start"]) < 0.25 * f["start"]
    window = "the start helper after a vfork" if spawn_helper.path() else "Python after a fork"
    assert f"start window   {window}" in result.output
    assert re.search(rf"cgroup +{sandbox_cgroup.backend()} \(workers/sandbox_cgroup_v[12].py\)", result.output)
    match = re.search(rf"4-greedy match sandboxed +{NUMBER} s +none {NUMBER} s +ratio {NUMBER}", result.output)
    assert match, result.output
    assert abs(float(match[3]) - float(match[1]) / float(match[2])) < 0.02


def test_function_returns_what_it_prints(user_sandbox):
    printed = []
    result = bench.run_sandbox_bench(mode=user_sandbox, round_trips=60, starts=1, echo=printed.append, matches=0)
    f = figures(printed[0])
    assert result.mode == "user"
    assert f["rt"] == round(result.round_trip_us, 1) and f["bare"] == round(result.bare_start_ms, 2)
    assert result.freeze_thaw_ms is None and result.cgroup_join_ms is None and result.cgroup is None  # no cgroups
    assert result.match_ratio is None and "4-greedy match" not in printed[0]  # matches=0 skips it
