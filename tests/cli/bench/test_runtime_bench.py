"""`ladder bench sandbox --runtimes`: each runtime's starter kit, start to ready sandboxed against
bare, and the compile step (no timing assertions: speed is read, not tested)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from needs import unavailable

from ladder.bot import runtimes
from ladder.cli import main
from ladder.cli.bench import runtimes as bench
from workers.build import packaging

NUMBER = r"([0-9]+\.[0-9]+)"


def row(output: str, runtime: str) -> dict[str, float | None]:
    found = re.search(rf"^{runtime} +{NUMBER} ms +{NUMBER} ms +{NUMBER} +([+-][0-9]+\.[0-9]+) ms +(?:{NUMBER} s|-)$",
                      output, re.MULTILINE)
    assert found, output
    return {"boxed": float(found[1]), "bare": float(found[2]), "ratio": float(found[3]),
            "difference": float(found[4]), "compile": float(found[5]) if found[5] else None}


def need(*names: str) -> None:
    for name in names:
        ok, why = runtimes.available(runtimes.BY_NAME[name])
        if not ok:
            unavailable(f"the {name} runtime is unavailable here: {why}")


def test_names_are_all_or_a_list_of_the_table():
    assert bench.parse_names(None) is None and bench.parse_names("all") is None
    assert bench.parse_names(" c, python,c ") == ("c", "python")
    with pytest.raises(ValueError, match="cobol: give 'all' or some of python,python-ml,node,c"):
        bench.parse_names("c,cobol")


def test_cli_refuses_an_unknown_runtime_before_measuring_anything():
    result = CliRunner().invoke(main, ["bench", "sandbox", "--runtimes", "pyth"])
    assert result.exit_code == 2
    assert "Invalid value for '--runtimes': pyth: give 'all' or some of" in result.output
    assert "round trip" not in result.output


def test_bare_command_is_the_same_program_with_host_paths(tmp_path):
    bot = packaging.StagedBot(tmp_path / "bot", "Main.java", ["/usr/bin/java", "-cp", "/bot", "/bot/x", "Main"])
    argv, env = bench.bare_command(bot, tmp_path / "sdk", tmp_path / "home")
    assert argv == ["/usr/bin/java", "-cp", str(tmp_path / "bot"), str(tmp_path / "bot" / "x"), "Main"]
    assert env["PYTHONPATH"] == str(tmp_path / "sdk") and env["LADDER_BOT"] == "1"
    assert env["HOME"] == env["TMPDIR"] == str(tmp_path / "home")


def test_an_unavailable_runtime_is_a_row_not_dropped(monkeypatch):
    real = runtimes.available

    def available(runtime):
        if runtime.name == "node":
            return False, "missing Debian packages: apt-get install nodejs"
        return real(runtime)

    monkeypatch.setattr(runtimes, "available", available)
    printed = []
    rows = bench.run_runtime_bench(["node"], mode="none", starts=1, echo=printed.append)
    assert [(r.runtime, r.status, r.detail) for r in rows] == [
        ("node", "unavailable", "missing Debian packages: apt-get install nodejs")]
    assert rows[0].start_ratio is None
    assert re.search(r"^node +unavailable: missing Debian packages: apt-get install nodejs$", printed[0], re.MULTILINE)


def test_a_kit_that_does_not_answer_ready_is_reported_failed(strict_sandbox, tmp_path):
    need("python")
    (tmp_path / "python").mkdir()
    (tmp_path / "python" / "main.py").write_text("import sys\nsys.stdin.readline()\nprint('hi', flush=True)\n")
    printed = []
    rows = bench.run_runtime_bench(["python"], mode=strict_sandbox, starts=1, echo=printed.append, kits=tmp_path)
    assert rows[0].status == "failed" and rows[0].start_ms is None
    assert rows[0].detail.startswith("the python kit in the sandbox: expected ready, got not JSON")
    assert re.search(r"^python +failed: ", printed[0], re.MULTILINE)


def test_a_kit_that_does_not_build_is_reported_failed_with_the_compiler(strict_sandbox, tmp_path):
    need("c")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "main.c").write_text("int main(void) { return nope; }\n")
    rows = bench.run_runtime_bench(["c"], mode=strict_sandbox, starts=1, echo=lambda _text: None, kits=tmp_path)
    assert rows[0].status == "failed" and rows[0].compile_s is None
    assert rows[0].detail.startswith("the c kit did not build: ")


def test_interpreted_and_compiled_kits_measured_against_bare(strict_sandbox):
    need("python", "c")
    printed, steps = [], []
    rows = bench.run_runtime_bench(["c", "python"], mode=strict_sandbox, starts=1, compiles=2, echo=printed.append,
                                   progress=steps.append)
    assert [r.runtime for r in rows] == ["python", "c"]  # the table's order
    for r in rows:
        assert r.status == "ok", r.detail
        assert r.start_ms > 0 and r.bare_start_ms > 0 and r.starts == 1
        assert r.start_ratio == r.start_ms / r.bare_start_ms
        shown = row(printed[0], r.runtime)
        assert shown["boxed"] == round(r.start_ms, 2) and shown["bare"] == round(r.bare_start_ms, 2)
        assert abs(shown["ratio"] - r.start_ratio) <= 0.006  # printed with two decimals
        assert abs(shown["difference"] - (shown["boxed"] - shown["bare"])) < 0.02
    python, c = rows
    assert python.compile_s is None and python.compiles == 0 and row(printed[0], "python")["compile"] is None
    assert c.compile_s > 0 and c.compiles == 2 and row(printed[0], "c")["compile"] == round(c.compile_s, 2)
    assert "mode strict, start to ready 1x sandboxed and bare, 2 compile(s) each" in printed[0]
    assert steps == ["python: 1 starts to ready, sandboxed and bare (+1 warm-up each)",
                     "c: compiling the kit in sandbox mode strict (1/2)",
                     "c: compiling the kit in sandbox mode strict (2/2)",
                     "c: 1 starts to ready, sandboxed and bare (+1 warm-up each)"]


def test_the_static_kit_is_made_on_the_host_then_run_with_no_system_files(strict_sandbox):
    need("static")
    if not (shutil.which("make") and Path("/usr/lib/x86_64-linux-gnu/libc.a").exists()):
        unavailable("the static kit needs make and a static libc (libc6-dev)")
    rows = bench.run_runtime_bench(["static"], mode=strict_sandbox, starts=1, echo=lambda _text: None)
    assert rows[0].status == "ok", rows[0].detail
    assert rows[0].compile_s is None and rows[0].start_ms > 0 and rows[0].bare_start_ms > 0


def test_cli_runtimes_only_prints_the_table_alone(strict_sandbox):
    need("python")
    result = CliRunner().invoke(main, ["bench", "sandbox", "--mode", strict_sandbox, "--runtimes", "python",
                                       "--runtimes-only", "--kit-starts", "1"])
    assert result.exit_code == 0, result.output
    assert "round trip" not in result.output  # the echo bot's figures were skipped
    shown = row(result.output, "python")
    assert shown["boxed"] > 0 and shown["bare"] > 0
    assert "mode strict, start to ready 1x" in result.output
