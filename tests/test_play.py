import json
from dataclasses import replace
from pathlib import Path

import pytest

from ladder.games.base import OptionError
from ladder.play import BotFault, bot_seed, default_bot_names, make_bots, play_builtin, play_game
from ladder.replay import Decision, dumps_replay, verify_replay


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent))  # tests/ holds the toygame package
    import toygame
    import toygame.starters

    toygame.register(monkeypatch)
    return toygame


def test_a_game_ends_with_results_for_every_seat(toy):
    played = play_builtin("toy", ["random", "fixed", "random"], seed=5)
    assert played.state.is_terminal()
    assert [r.seat for r in played.results] == [0, 1, 2]
    assert [r.bot for r in played.results] == ["random", "fixed", "random"]
    assert [r.score for r in played.results] == played.state.scores()
    assert [r.rank for r in played.results] == played.state.ranks()
    assert all(s.status == "ok" and s.faults == 0 for s in played.seats)
    assert played.decisions == played.replay.decisions() == sum("decision" in e for e in played.replay.to_json()["log"])
    assert played.engine_ns > 0 and played.observation_ns > 0


def test_the_log_holds_every_decision_and_event_in_order(toy):
    played = play_builtin("toy", ["fixed", "fixed"], seed=1, options={"pile": 7})
    log = played.replay.to_json()["log"]
    assert [e["type"] for e in log[:3]] == ["start", "secret", "secret"]
    assert log[1]["to"] == [0] and log[2]["to"] == [1]
    # fixed bots take the most they may: 3, 3, then 1 from a pile of 7
    takes = [(e["seat"], e["decision"]) for e in log if e.get("kind") == "take"]
    assert takes == [(0, {"n": 3}), (1, {"n": 3}), (0, {"n": 1})]
    assert [e["type"] for e in log if "type" in e] == [ev.type for ev in played.state.events]


def test_same_seed_same_bytes_other_seed_other_game(toy):
    a = play_builtin("toy", ["random"] * 4, seed=11)
    b = play_builtin("toy", ["random"] * 4, seed=11)
    c = play_builtin("toy", ["random"] * 4, seed=12)
    assert dumps_replay(a.replay) == dumps_replay(b.replay)
    assert a.replay.log != c.replay.log


def test_bots_see_only_events_addressed_to_them(toy):
    bots = make_bots("toy", ["random", "random", "random"])
    play_game("toy", bots, seed=2)
    for seat, bot in enumerate(bots):
        secrets = [e for e in bot.events if e["type"] == "secret"]
        assert [e["data"]["seat"] for e in secrets] == [seat]
        assert bot.seat == seat and bot.num_players == 3
        assert bot.options == {"pile": 12, "bonus": 2, "style": "plain"}


def test_bots_get_their_own_seed_not_the_game_seed(toy):
    bots = make_bots("toy", ["random", "random"])
    seen = []
    for bot in bots:
        bot.setup = seen.append
    play_game("toy", bots, seed=2)
    assert [h["seed"] for h in seen] == [bot_seed(2, 0), bot_seed(2, 1)]
    assert [h["bot_seed"] for h in seen] == [h["seed"] for h in seen]
    assert 2 not in {h["seed"] for h in seen} and bot_seed(2, 0) != bot_seed(2, 1)


@pytest.mark.parametrize(
    ("bad", "status", "reason"),
    [
        ("crash", "crash", "RuntimeError: boom"),
        ("illegal", "illegal", "counters, not 99"),
        ("notjson", "illegal", "not a JSON value"),
    ],
)
def test_a_faulty_bot_gets_the_default_decision_and_a_status(toy, bad, status, reason):
    played = play_builtin("toy", ["fixed", bad], seed=4, options={"pile": 9})
    faulted = [e for e in played.replay.log if isinstance(e, Decision) and e.fault is not None]
    assert faulted and all(e.seat == 1 and e.kind == "take" for e in faulted)
    assert all(e.decision == {"n": 1} for e in faulted)  # toy's default_decision
    assert all(e.fault.status == status and reason in e.fault.reason for e in faulted)
    seat = played.seats[1]
    assert (seat.status, seat.faults, seat.forfeit) == (status, len(faulted), False)
    assert reason in seat.reason
    assert played.seats[0].status == "ok"
    assert verify_replay(played.replay).ok


def test_an_illegal_answer_is_kept_as_attempted(toy):
    played = play_builtin("toy", ["illegal", "fixed"], seed=4)
    fault = next(e["fault"] for e in played.replay.to_json()["log"] if "fault" in e)
    assert fault["attempted"] == {"n": 99}


class Proxy:
    """What the sandbox runner will pass: a seat that reports its own faults."""

    def __init__(self, forfeit_after):
        self.calls = 0
        self.forfeit_after = forfeit_after

    def setup(self, hello):
        pass

    def on_event(self, event):
        raise OSError("pipe closed")

    def decide(self, kind, observation):
        self.calls += 1
        forfeit = self.calls >= self.forfeit_after
        raise BotFault("timeout", f"no answer in time (call {self.calls})", forfeit=forfeit)


def test_a_proxy_fault_keeps_its_status_and_a_forfeit_ranks_last(toy):
    bots = [*make_bots("toy", ["fixed", "fixed"]), Proxy(forfeit_after=2)]
    played = play_game("toy", bots, seed=3, names=["a", "b", "proxy"], options={"pile": 30})
    seat = played.seats[2]
    assert seat.forfeit is True and seat.status == "timeout"
    assert seat.reason == "no answer in time (call 2)"  # the fault that forfeited
    assert played.results[2].rank == 3
    assert sorted(r.rank for r in played.results[:2]) in ([1, 1], [1, 2])
    # on_event failures are faults too, outside the log
    assert any(f["during"] == "event" and f["status"] == "crash" for f in played.faults)
    assert verify_replay(played.replay).ok


class Winner(Proxy):
    """Takes the whole pile, then forfeits (e.g. its process died) when asked to bet."""

    def on_event(self, event):
        pass

    def decide(self, kind, observation):
        if kind == "take":
            return {"n": observation["request"]["max"]}
        raise BotFault("crash", "exit 1", forfeit=True)


def test_forfeit_ranks_a_higher_score_last(toy):
    bots = [Winner(forfeit_after=1), *make_bots("toy", ["fixed"])]
    played = play_game("toy", bots, seed=0, names=["winner", "fixed"], options={"pile": 3, "bonus": 0})
    assert [r.score for r in played.results] == [3, 0]
    assert [r.rank for r in played.results] == [2, 1]
    assert verify_replay(played.replay).ok
    unforfeited = replace(played.replay, seats=(replace(played.seats[0], forfeit=False), played.seats[1]))
    assert "results[0].rank: expected 1, found 2" in verify_replay(unforfeited).difference


def test_errors_are_option_errors(toy):
    with pytest.raises(OptionError, match="unknown game"):
        play_builtin("nope", ["random"], seed=0)
    with pytest.raises(OptionError, match="takes 2-5 players, not 1"):
        play_builtin("toy", ["random"], seed=0)
    with pytest.raises(OptionError, match="unknown option 'size'"):
        play_builtin("toy", ["random", "random"], seed=0, options={"size": 3})
    with pytest.raises(OptionError, match=r"allowed range is 3\.\.60"):
        play_builtin("toy", ["random", "random"], seed=0, options={"pile": "2"})
    with pytest.raises(KeyError, match="no built-in bot 'smart' for toy"):
        make_bots("toy", ["smart"])


def test_a_game_that_never_ends_is_stopped(toy):
    with pytest.raises(RuntimeError, match="did not end after 5 decisions"):
        play_builtin("toy", ["fixed", "fixed"], seed=0, options={"pile": 60}, max_decisions=5)


def test_on_entry_sees_the_log_as_it_grows(toy):
    seen = []
    played = play_builtin("toy", ["random", "random"], seed=8, on_entry=seen.append)
    assert seen == played.replay.to_json()["log"]


def test_default_bot_names_mix_the_builtins_with_random(toy):
    names = default_bot_names("toy", 4)
    assert len(names) == 4 and names[1] == names[3] == "random" and names[0] != "random"


def _wreck(value) -> None:
    """What a careless in-process bot might do to what it was handed."""
    if isinstance(value, dict):
        for v in list(value.values()):
            _wreck(v)
        value.clear()
        value["wrecked"] = True
    elif isinstance(value, list):
        for v in value:
            _wreck(v)
        value.clear()


def test_an_in_process_bot_can_change_nothing_through_what_it_is_handed():
    """Observations and events are fresh JSON values per seat: a bot that wrecks them after use
    changes neither the game (options included), nor the log, nor what the other seats see."""
    from bots.drachengold.greedy import GreedyBot

    class Wrecker(GreedyBot):
        def on_event(self, event):
            super().on_event(event)
            _wreck(event)

        def decide(self, kind, observation):
            decision = super().decide(kind, observation)
            _wreck(observation)
            return decision

    class Recorder(GreedyBot):
        def __init__(self):
            super().__init__()
            self.seen = []

        def on_event(self, event):
            self.seen.append(json.dumps(event, sort_keys=True))
            super().on_event(event)

    options = {"rules": "advanced-a"}
    names = ["a", "b", "c"]
    clean = play_game("drachengold", [GreedyBot(), Recorder(), GreedyBot()], seed=4, options=options, names=names)
    recorder = Recorder()
    wrecked = play_game("drachengold", [Wrecker(), recorder, Wrecker()], seed=4, options=options, names=names)
    assert wrecked.state.options == clean.state.options == {**clean.replay.header.options}
    assert wrecked.replay.log == clean.replay.log
    assert wrecked.replay.results == clean.replay.results
    visible = [json.dumps(e, sort_keys=True) for e in wrecked.replay.to_json()["log"]
               if "type" in e and (e["to"] is None or 1 in e["to"])]
    assert recorder.seen == visible


def test_wire_seats_share_one_event_object_and_get_the_engines_observation(toy):
    """Seats that only serialise (the match runner's proxies) get one event object per event,
    so the runner encodes it once per match; in-process bots each get their own copy."""

    class WireSeat(toy.starters.FixedBot):
        wire = True

        def __init__(self):
            super().__init__()
            self.events = []

        def on_event(self, event):
            self.events.append(event)

    wire = [WireSeat(), WireSeat()]
    local = toy.starters.RandomBot()
    play_game("toy", [wire[0], local, wire[1]], seed=2)
    public = [i for i, e in enumerate(wire[0].events) if e["to"] is None]
    assert public and all(wire[0].events[i] is wire[1].events[i] for i in public)
    assert not any(e is w for e in local.events for w in wire[0].events)


def test_keyed_bot_seeds_are_recorded_and_repeat_under_the_same_key(toy):
    def hellos(key):
        bots = make_bots("toy", ["random", "random", "random"])
        seen = []
        for bot in bots:
            bot.setup = seen.append
        played = play_game("toy", bots, seed=2, seed_key=key)
        return [h["bot_seed"] for h in seen], played.replay

    seeds, replay = hellos(b"k1")
    assert seeds == [bot_seed(2, seat, b"k1") for seat in range(3)]
    assert [s.bot_seed for s in replay.seats] == seeds and replay.header.seed_key == b"k1".hex()
    assert hellos(b"k1")[0] == seeds  # a recorded key repeats the match
    assert not set(seeds) & (set(hellos(b"k2")[0]) | {bot_seed(2, seat) for seat in range(3)})
    unkeyed = play_game("toy", make_bots("toy", ["random", "random"]), seed=2).replay.to_json()
    assert "seed_key" not in unkeyed and "bot_seed" not in unkeyed["seats"][0]  # the goldens keep their shape


def test_a_keyed_bot_seed_cannot_be_searched_back_to_a_small_game_seed():
    # The attack of #23: search small game seeds for one whose public derivation gives the seed the
    # bot was handed. Unkeyed it finds the game seed at once; keyed it finds nothing.
    def search(handed: int, seat: int) -> int | None:
        return next((s for s in range(5000) if bot_seed(s, seat) == handed), None)

    assert search(bot_seed(1, 2), 2) == 1
    assert search(bot_seed(1, 2, b"\x07" * 16), 2) is None
