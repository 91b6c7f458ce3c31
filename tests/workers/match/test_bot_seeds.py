"""A sandboxed bot cannot work back from its hello to the game seed (and so to the hidden cards).

The attack of #23: the seed in hello used to be a public function of the game seed, so a bot in a
match with a small or structured seed (`ladder match --seed 1`, a tournament's deals) could search
seeds until the derivation matched, then replay the engine to every hidden card. Every sandboxed
match now keys the bots' seeds with a fresh secret (ladder.play.bot_seed), recorded in the replay.
"""

import random
import textwrap
from pathlib import Path

import pytest
from match_support import run_specs

from ladder.play import bot_seed
from workers.match.protocol import TimeControl
from workers.match.runner import choose_mode

CLOCK = TimeControl(decision_ms=2000, bank_ms=2000, startup_ms=8000)

# Plays Treasure's starter moves, but first searches the game seeds 0..SEARCH for the one whose
# public derivation gives its own seed, exactly as the attacker did; it reports on stderr.
ATTACKER = textwrap.dedent('''
    import random, sys
    sys.path.insert(0, "/bot")
    from bots.sdk import run
    from starter import StarterBot

    SEARCH = 20000

    class Attacker(StarterBot):
        def setup(self, hello):
            super().setup(hello)
            mine, seat = hello["bot_seed"], hello["seat"]
            found = next((s for s in range(SEARCH)
                          if random.Random(f"bot:{s}:{seat}").getrandbits(63) == mine), None)
            self.log(f"ATTACK {'found ' + str(found) if found is not None else 'nothing'}")

    run(Attacker)
''')


@pytest.fixture
def attacker(tmp_path):
    root = Path(__file__).parents[3]
    bot = tmp_path / "attacker"
    bot.mkdir()
    # the entry point is main.py: the attacker, with the starter bot beside it to import
    (bot / "starter.py").write_text((root / "bots/examples/python/main.py").read_text())
    (bot / "main.py").write_text(ATTACKER)
    return bot


def test_a_sandboxed_bot_cannot_search_back_to_a_small_game_seed(attacker):
    mode = choose_mode("auto", require_strict=False)
    seen = []
    for _ in range(2):
        result = run_specs([str(attacker), "builtin:random", "builtin:careful"], game="treasure", seed=1,
                           sandbox=mode, clock=CLOCK, require_strict=False)
        seat = result.replay.to_json()["seats"][0]
        assert seat["status"] == "ok", seat
        assert "ATTACK nothing" in seat["stderr"], seat["stderr"]
        key = bytes.fromhex(result.replay.to_json()["seed_key"])
        assert [s["bot_seed"] for s in result.replay.to_json()["seats"]] == [bot_seed(1, i, key) for i in range(3)]
        seen.append(seat["bot_seed"])
    assert seen[0] != seen[1]  # a fresh key per match, the game seed the same


def test_a_recorded_seed_key_repeats_the_bots_seeds(attacker):
    mode = choose_mode("auto", require_strict=False)
    key = bytes(range(16))
    result = run_specs([str(attacker), "builtin:random"], game="treasure", seed=1, sandbox=mode, clock=CLOCK,
                       require_strict=False, seed_key=key)
    assert result.replay.to_json()["seed_key"] == key.hex()
    assert [s["bot_seed"] for s in result.replay.to_json()["seats"]] == [bot_seed(1, 0, key), bot_seed(1, 1, key)]
    # the control: handed the unkeyed derivation, the same search finds the seed at once
    mine = bot_seed(1, 0)
    assert next(s for s in range(20000) if random.Random(f"bot:{s}:0").getrandbits(63) == mine) == 1
