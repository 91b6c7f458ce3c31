"""The staged SDK carries the pure rules: a bot using the forward model plays in the strict sandbox,
and what it imports there is the game engine only, read-only."""

import textwrap

from match_support import run_specs

from ladder.games import get_game
from ladder.replay import verify_replay
from workers.build.sdk import sdk_tree
from workers.match.protocol import TimeControl

GAME = "treasure"
# The ladder's default time control for ranked matches (1 s per decision, 10 s bank).
DEFAULT = TimeControl()


def test_the_forward_model_bot_plays_a_strict_match_within_the_default_clock(strict_sandbox):
    names = ["search", "memory", "careful", "random"]
    result = run_specs([f"builtin:{n}" for n in names], game=GAME, seed=5, sandbox=strict_sandbox, clock=DEFAULT)
    assert result.sandbox == "strict" and verify_replay(result.replay).ok
    for r, seat in zip(result.results, result.replay.to_json()["seats"], strict=True):
        # no strike, no timeout, no takeover: every decision came in time and was legal
        assert (r["status"], r["reason"], seat["forfeit"], seat["strikes"]) == ("ok", None, False, []), seat
        assert seat["clean"] is True
    search = [e for e in result.replay.to_json()["log"] if e.get("seat") == 0 and "decision" in e]
    assert search and not any("fault" in e for e in search)


PROBE = textwrap.dedent('''
    import os, random
    from bots.forward import ForwardBot
    from bots.sdk import run


    class Probe(ForwardBot):
        probed = False

        def flip(self, observation):
            if self.probed:  # once is enough; then short turns, so the game is quick
                request = observation["request"]
                return {"stop": True} if request["can_stop"] else {"square": request["squares"][0]}
            self.probed = True
            state = self.model.sample(observation, random.Random(1))
            assert state.observation(self.seat) == observation
            import ladder.games.base as base
            folder = os.path.dirname(base.__file__)
            try:
                open(os.path.join(folder, "base.py"), "a").close()
                wrote = "yes"
            except OSError:
                wrote = "no"
            for name in ("ladder.config", "ladder.web", "workers"):
                try:
                    __import__(name)
                    self.log("IMPORTED", name)
                except ImportError:
                    pass
            self.log("PROBE", folder, "wrote", wrote)
            return {"square": observation["request"]["squares"][0]}

        def move_spider(self, observation):
            return {"square": None}


    run(Probe)
''')


def test_a_sandboxed_bot_imports_the_rules_read_only_and_nothing_else(tmp_path, strict_sandbox):
    bot = tmp_path / "probe.py"
    bot.write_text(PROBE)
    result = run_specs([str(bot), "builtin:careful"], game=GAME, seed=2, sandbox=strict_sandbox, clock=DEFAULT)
    seat = result.replay.to_json()["seats"][0]
    assert result.results[0]["status"] == "ok", seat
    log = seat["stderr"]
    assert "PROBE /sdk/ladder/games wrote no" in log
    assert "IMPORTED" not in log


def test_the_staged_tree_is_the_sdk_and_every_game_s_rules():
    tree = sdk_tree()
    assert {"bots/sdk.py", "bots/forward.py", "ladder/__init__.py", "ladder/games/base.py"} <= set(tree)
    assert "create_app" not in tree["ladder/__init__.py"].decode()  # a stub, not the web app's package
    game = get_game(GAME)
    package = game.package().replace(".", "/")
    assert f"{package}/{game.forward.replace('.', '/')}.py" in tree  # the forward model's sampler
    assert any(name.startswith(package) and name.endswith(".json") for name in tree)  # the rules' data
    assert not any(name.endswith(("render.py", "viewer.py")) or "/static/" in name for name in tree)
    assert not any(name.startswith(("workers/", "ladder/web", "ladder/services")) for name in tree)


def test_a_sandbox_gets_exactly_the_rules_each_game_declares():
    # By inclusion (Game.rules_files): no page, viewer helper or protocol schema reaches a bot.
    from ladder.games import available_games

    tree = {name for name in sdk_tree() if "__pycache__" not in name}
    staged = {"bots/__init__.py", "bots/sdk.py", "bots/forward.py", "ladder/__init__.py",
              "ladder/games/__init__.py", "ladder/games/base.py"}
    for name in available_games():
        game = get_game(name)
        package = game.package().replace(".", "/")
        staged |= {f"{package}/{rel}" for rel in game.rules_files}
        assert f"{package}/schema.json" not in tree and f"{package}/rules.md" not in tree
        for part in ("renderer", "view"):  # declared parts that are not rules stay out
            assert f"{package}/{getattr(game, part).replace('.', '/')}.py" not in tree
        folder = game.files()
        if folder is not None and (folder / "rules").is_dir():  # a game in the rules/ + view/ shape
            pure = {f"rules/{p.name}" for p in (folder / "rules").iterdir() if p.name != "__pycache__"}
            assert set(game.rules_files) == {"__init__.py", *pure}, name  # every pure file, nothing else
    assert tree == staged

