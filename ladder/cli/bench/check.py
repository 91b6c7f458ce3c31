"""`ladder bench check`: the benches' key figures against a baseline committed in the repository
(bench/baseline.json); exit 1 when one is more than `tolerance` (25%) worse.

Run by hand before a release or from a scheduled job on a quiet machine, never in CI: a loaded CI
host moves every figure. The figures are the engine bench's µs per decision (engine and
observation, per game, greedy-style play: ladder/cli/bench/engine.py) and the sandbox bench's start,
round trip and whole-match figures with their ratios to the bare program (ladder/cli/bench/sandbox.py).
Ratios travel between machines better than absolute times; the baseline records the machine it was
taken on, and a check on another machine says so. `--update` writes the figures as the new
baseline (commit it with the change that moved them, and say why in the commit).
"""

from __future__ import annotations

import json
import os
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

TOLERANCE = 0.25
BASELINE = Path(__file__).resolve().parents[3] / "bench" / "baseline.json"


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    lower_is_better: bool = True


@dataclass(frozen=True)
class Verdict:
    name: str
    unit: str
    baseline: float | None
    now: float | None
    change: float | None  # now / baseline - 1, signed so that positive is worse
    status: str  # "ok", "regressed", "improved", "new" (not in the baseline), "missing" (no longer measured)

    @property
    def failed(self) -> bool:
        return self.status in ("regressed", "missing")


def compare(baseline: dict[str, dict], figures: Sequence[Figure], tolerance: float = TOLERANCE) -> list[Verdict]:
    """Each figure against its baseline value; a figure the baseline has that was not measured
    fails too (a bench that stops measuring something must not pass silently)."""
    out = []
    measured = {f.name: f for f in figures}
    for f in figures:
        base = baseline.get(f.name)
        if base is None:
            out.append(Verdict(f.name, f.unit, None, f.value, None, "new"))
            continue
        ratio = f.value / base["value"] if base["value"] else float("inf")
        change = (ratio - 1) if f.lower_is_better else (1 / ratio - 1 if ratio else float("inf"))
        status = "regressed" if change > tolerance else "improved" if change < -tolerance else "ok"
        out.append(Verdict(f.name, f.unit, base["value"], f.value, change, status))
    for name, base in baseline.items():
        if name not in measured:
            out.append(Verdict(name, base.get("unit", ""), base["value"], None, None, "missing"))
    return out


def machine() -> dict[str, str | int]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count() or 0, "python": platform.python_version()}


def load_baseline(path: Path) -> tuple[dict[str, dict], dict]:
    """(figures by name, the machine it was taken on); ValueError when the file is not a baseline."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        figures = {f["name"]: f for f in data["figures"]}
        return figures, data.get("machine", {})
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a bench baseline ({type(exc).__name__}: {exc})") from None


def write_baseline(path: Path, figures: Sequence[Figure]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "taken": datetime.now(UTC).strftime("%Y-%m-%d"),
        "machine": machine(),
        "figures": [{"name": f.name, "value": round(f.value, 4), "unit": f.unit,
                     "lower_is_better": f.lower_is_better} for f in figures],
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def measure(progress: Callable[[str], None] = lambda message: None, *, sandbox: str | None = "strict",
            games: int = 20, repeats: int = 5, starts: int = 30) -> list[Figure]:
    """The figures the check compares (sandbox None: the engine's only)."""
    from ladder.cli.bench.engine import run_engine_bench
    from ladder.cli.bench.sandbox import run_sandbox_bench

    figures = []
    progress(f"engine bench: {games} games x {repeats} repeats per game and lineup")
    for row in run_engine_bench(games=games, repeats=repeats):
        key = f"engine.{row.game}.{row.bots.replace(' ', '')}"
        figures += [Figure(f"{key}.engine_us", row.engine_us, "µs/decision"),
                    Figure(f"{key}.observation_us", row.observation_us, "µs/decision")]
    if sandbox is not None:
        progress(f"sandbox bench: mode {sandbox}, {starts} starts")
        r = run_sandbox_bench(mode=sandbox, starts=starts, echo=lambda text: None)
        figures += [Figure("sandbox.start_ms", r.start_ms, "ms"),
                    Figure("sandbox.start_ratio", r.start_ratio, "x bare"),
                    Figure("sandbox.round_trip_us", r.round_trip_us, "µs"),
                    Figure("sandbox.round_trip_ratio", r.round_trip_ratio, "x pipe")]
        if r.match_ratio is not None:
            figures += [Figure("sandbox.match_s", r.match_s, "s"),
                        Figure("sandbox.match_ratio", r.match_ratio, "x none")]
    return figures
