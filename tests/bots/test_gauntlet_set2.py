"""The second set of gauntlet bots (bots/gauntlet/: modeller, merchant, planner for Drachengold,
dragonflame_outsider for DragonFlame) play whole games in the strict sandbox on the default
clock without a fault: no strike, no takeover, every decision legal. Drachengold at 3 to 6 seats,
with the basic and advanced rules, the negotiation and the strategic split; DragonFlame at 2 to 5.

They are outside bots: one file each that needs only the SDK (and the forward model for the
planner), so each is also checked to import nothing of the house bots."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from match_support import run_specs

GAUNTLET = Path(__file__).parents[2] / "bots" / "gauntlet"

# (seed, seats, options): every table size, both splits and all three rule sets across the bots'
# games; house bots fill the other seats.
DRACHENGOLD = [
    (11, ["builtin:greedy", "builtin:trader"], {}),
    (12, ["builtin:strong", "builtin:greedy", "builtin:trader"], {"rules": "advanced-a", "split": "strategic"}),
    (13, ["builtin:trader", "builtin:bargainer", "builtin:greedy", "builtin:strong"], {"rules": "advanced-b"}),
    (14, ["builtin:greedy", "builtin:trader", "builtin:strong", "builtin:greedy", "builtin:random"],
     {"split": "strategic"}),
]
DRAGONFLAME = [
    (21, ["builtin:looter"]),
    (22, ["builtin:heuristic", "builtin:looter"]),
    (23, ["builtin:looter", "builtin:heuristic", "builtin:random"]),
    (24, ["builtin:looter", "builtin:heuristic", "builtin:looter", "builtin:random"]),
]


def play(bot: Path, others: list[str], seed: int, game: str, options: dict, sandbox: str) -> tuple[dict, set]:
    """One match with `bot` in seat seed % seats; its seat's replay entry and the kinds it decided."""
    lineup = list(others)
    seat = seed % (len(others) + 1)
    lineup.insert(seat, str(bot))
    result = run_specs(lineup, game=game, seed=seed, options=options, sandbox=sandbox)
    replay = result.replay.to_json()
    entry = replay["seats"][seat]
    kinds = {e["kind"] for e in replay["log"] if e.get("seat") == seat and "decision" in e}
    return entry, kinds


def assert_clean(entry: dict, where: str) -> None:
    why = f"{where}: {entry.get('reason')} {entry.get('strikes')} {entry.get('stderr', '')[-1500:]}"
    assert entry["status"] == "ok" and entry["takeover"] is None, why
    assert not entry.get("strikes"), why
    assert not entry.get("faults"), why


@pytest.mark.parametrize("name", ["modeller", "merchant", "planner"])
def test_each_drachengold_gauntlet_bot_plays_3_to_6_seats_and_every_option_without_a_fault(name, strict_sandbox):
    asked: set = set()
    for seed, others, options in DRACHENGOLD:
        entry, kinds = play(GAUNTLET / f"{name}.py", others, seed, "drachengold", options, strict_sandbox)
        assert_clean(entry, f"{name}, seed {seed}, {len(others) + 1} seats, {options}")
        asked |= kinds
    # the games reach the style's own decisions: negotiation, the market, the strategic split, magic
    assert {"attack", "propose", "vote", "market_offer", "magic"} <= asked, asked
    assert asked & {"divide", "choose"}, asked


def test_the_dragonflame_outsider_plays_2_to_5_seats_without_a_fault(strict_sandbox):
    asked: set = set()
    for seed, others in DRAGONFLAME:
        entry, kinds = play(GAUNTLET / "dragonflame_outsider.py", others, seed, "dragonflame", {}, strict_sandbox)
        assert_clean(entry, f"dragonflame_outsider, seed {seed}, {len(others) + 1} seats")
        asked |= kinds
    assert {"play", "attack", "flame"} <= asked, asked


@pytest.mark.parametrize("name", ["modeller", "merchant", "planner", "dragonflame_outsider"])
def test_each_is_one_file_that_says_who_wrote_it_and_uses_only_the_sdk(name):
    source = (GAUNTLET / f"{name}.py").read_text()
    tree = ast.parse(source)
    doc = ast.get_docstring(tree) or ""
    assert "outside author" in doc and "style" in doc.lower(), doc[:200]
    imports = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imports |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    ours = {m for m in imports if m and m.split(".")[0] in ("bots", "ladder", "workers")}
    assert ours <= {"bots.sdk", "bots.forward"}, ours
    assert 'if __name__ == "__main__":\n    run(' in source
