"""The forward model of every game that has one: at every kind of decision, a determinization agrees
with everything the seat saw (its observation, field by field, and the events it was sent), varies
with the rng where the seat cannot know, is built from the seat's own knowledge only, and plays on
to the end."""

import copy
import random
import re

import pytest

from bots import load_builtin
from bots.forward import ForwardModel
from ladder.games import available_games, get_game
from ladder.play import bot_seed

GAMES = [name for name in available_games() if ForwardModel.available(name)]
SEEDS = range(2)
SAMPLES = 3  # rng seeds per checked decision
EVERY = 3  # check every third decision of each seat (every decision makes the test slow)
CHECKS = 40  # per game: the later decisions of a long random game add time, not coverage


def hidden_parts(state):
    """Everything the state holds beyond its log, its rng and its game object: what may vary."""
    skip = {"events", "rng", "game", "seed"}
    # An engine's flow (a generator, a checker closure) prints with its address, which differs
    # between two equal states: the address is dropped, the rest of its repr is compared.
    return re.sub(r" at 0x[0-9a-f]+", "", repr(sorted((k, repr(v)) for k, v in vars(state).items() if k not in skip)))


def play_and_check(name, players, seed):
    game = get_game(name)
    state = game.new_state({}, seed, players)
    bot_class = load_builtin(name, "random")
    hellos, bots, models, seen = [], [], [], []
    for seat in range(players):
        # the hello a bot gets: its own seed, never the game's
        hello = {"game": name, "seat": seat, "players": players, "options": game.resolve_options({}),
                 "bot_seed": bot_seed(seed, seat)}
        bot = bot_class()
        bot.setup(dict(hello, seed=hello["bot_seed"]))
        hellos.append(hello)
        bots.append(bot)
        models.append(ForwardModel(hello))
        seen.append([])
    delivered = 0
    decisions = [0] * players
    checked = 0
    varied = []
    resumed: set[str] = set()

    def deliver():
        nonlocal delivered
        while delivered < len(state.events):
            event = state.events[delivered]
            delivered += 1
            for seat in range(players):
                if event.visible_to(seat):
                    seen[seat].append(event.as_json())
                    models[seat].observe(event.as_json())
                    bots[seat].on_event(event.as_json())

    deliver()
    while (pending := state.pending()) is not None:
        seat = pending.seat
        observation = state.observation(seat)
        if pending.kind not in resumed:
            # every kind of decision resumes, the first of each kind checked however rare it is
            sample = models[seat].sample(copy.deepcopy(observation), random.Random(0))
            assert sample.observation(seat) == observation
            assert ForwardModel.pending(sample) == (seat, pending.kind)
            resumed.add(pending.kind)
        if decisions[seat] % EVERY == 0 and checked < CHECKS:
            true_rng_state = state.rng.getstate()
            samples = []
            for k in range(SAMPLES):
                # a copy of what the seat knows, so a sampler that changed it could not hide it
                model = ForwardModel(hellos[seat])
                model.events = copy.deepcopy(seen[seat])
                sample = model.sample(copy.deepcopy(observation), random.Random(k))
                assert sample is not state
                assert sample.observation(seat) == observation
                assert [e.as_json() for e in sample.events if e.visible_to(seat)] == seen[seat]
                assert ForwardModel.pending(sample) == (seat, pending.kind)
                assert sample.rng.getstate() != true_rng_state  # reseeded, not the game's own rng
                samples.append(sample)
            # the same rng gives the same determinization; the true state was not touched
            again = models[seat].sample(copy.deepcopy(observation), random.Random(0))
            assert hidden_parts(again) == hidden_parts(samples[0])
            assert state.rng.getstate() == true_rng_state and state.observation(seat) == observation
            varied.append(len({hidden_parts(s) for s in samples}) > 1)
            if checked % 10 == 0:
                play_out(samples[0])
            checked += 1
        decisions[seat] += 1
        decision = bots[seat].decide(pending.kind, observation)
        state.apply(seat, decision)
        deliver()
    return checked, varied, resumed


def play_out(state):
    """A determinization is a real game: it plays on to the end under the rules."""
    for _ in range(20000):
        if ForwardModel.is_over(state):
            assert len(ForwardModel.scores(state)) == len(ForwardModel.ranks(state)) == state.num_players
            return
        ForwardModel.apply(state, state.default_decision())
    raise AssertionError("a determinization did not end")


@pytest.mark.parametrize("name", GAMES)
def test_determinizations_agree_with_what_the_seat_saw(name):
    game = get_game(name)
    for players in sorted({game.min_players, game.default_players}):
        for seed in SEEDS:
            checked, varied, resumed = play_and_check(name, players, seed)
            assert checked > 0
            assert resumed and resumed <= set(game.decision_kinds)
            # hidden parts are drawn: at each seat's first decisions little is known, so other
            # rngs give other states (later on a seat may have seen everything)
            assert all(varied[:players]), varied


def test_a_game_without_a_forward_model_says_so():
    model = ForwardModel({"game": "no-such-game", "seat": 0})
    assert not ForwardModel.available("no-such-game")
    with pytest.raises(LookupError):
        model.sample({}, random.Random(0))


def test_forward_games_are_found():
    assert GAMES  # at least one game ships a forward model, or this file tests nothing


def test_the_docs_example_plays_a_whole_game():
    from pathlib import Path

    from ladder.play import play_game

    docs = (Path(__file__).parents[2] / "docs" / "bots.md").read_text()
    section = docs[docs.index("## The forward model (Python)"):]
    source = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace = {"__name__": "docs_example"}
    exec(compile(source, "docs/bots.md", "exec"), namespace)
    played = play_game("treasure", [namespace["LookAhead"](), load_builtin("treasure", "careful")()], seed=2)
    assert played.state.is_terminal()
    assert [seat.status for seat in played.seats] == ["ok", "ok"]


def test_the_drachengold_docs_example_plays_a_whole_game():
    from pathlib import Path

    from ladder.play import play_game

    docs = (Path(__file__).parents[2] / "docs" / "bots.md").read_text()
    section = docs[docs.index("## House bots: Drachengold"):docs.index("## House bots: Treasure")]
    source = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace = {"__name__": "docs_example"}
    exec(compile(source, "docs/bots.md", "exec"), namespace)
    bots = [namespace["SplitSearch"]()] + [load_builtin("drachengold", "greedy")() for _ in range(3)]
    played = play_game("drachengold", bots, seed=4)
    assert played.state.is_terminal()
    assert [seat.status for seat in played.seats] == ["ok"] * 4
    seat = [s.bot for s in played.seats].index("SplitSearch")
    proposed = [p for e in played.state.events if e.type == "proposals" for p in e.data["proposals"]]
    assert [p for p in proposed if p["proposer"] == seat]  # its searched splits were put up


def advance(state, steps, rng):
    """`steps` random legal decisions through the model (or fewer if the game ends): their list."""
    played = []
    for _ in range(steps):
        if ForwardModel.is_over(state):
            break
        seat, kind = ForwardModel.pending(state)
        decision = state.default_decision() if rng.random() < 0.5 else random_choice(state, seat, kind, rng)
        ForwardModel.apply(state, decision)
        played.append(decision)
    return played


def random_choice(state, seat, kind, rng):
    bot = load_builtin(state.game.name, "random")()
    bot.setup({"game": state.game.name, "seat": seat, "players": state.num_players,
               "options": state.options, "bot_seed": rng.getrandbits(32)})
    return bot.decide(kind, state.observation(seat))


def snapshot(state):
    return ([state.observation(s) for s in range(state.num_players)], ForwardModel.pending(state),
            [e.as_json() for e in state.events], state.rng.getstate())


@pytest.mark.parametrize("name", GAMES)
def test_a_sample_played_on_can_be_copied_and_the_copy_is_independent(name):
    """Searching bots branch: copy() gives the same state (observations, log, engine rng) however
    the game keeps its flow (Drachengold's running generator cannot be deep-copied), and playing
    the copy leaves the original as it was."""
    game = get_game(name)
    state = game.new_state({}, 5, game.default_players)
    model = ForwardModel({"game": name, "seat": 0, "players": game.default_players,
                          "options": game.resolve_options({}), "bot_seed": 1})
    delivered, copied = 0, 0
    rng = random.Random(3)
    while state.pending() is not None and copied < 4:
        for event in state.events[delivered:]:
            if event.visible_to(0):
                model.observe(event.as_json())
        delivered = len(state.events)
        if state.pending().seat == 0 and rng.random() < 0.5:
            sample = model.sample(state.observation(0), random.Random(copied))
            advance(sample, 15, rng)
            before = snapshot(sample)
            twin = ForwardModel.copy(sample)
            assert snapshot(twin) == before
            # the copy plays on its own: the original is untouched, and the same decisions from
            # the same state end in the same place
            more = advance(twin, 40, random.Random(copied))
            assert snapshot(sample) == before
            for decision in more:
                ForwardModel.apply(sample, decision)
            assert snapshot(sample) == snapshot(twin)
            assert snapshot(ForwardModel.copy(twin)) == snapshot(twin)  # a copy of a copy too
            copied += 1
        state.apply(state.pending().seat, state.default_decision())
    assert copied == 4


def test_a_drachengold_state_played_outside_the_model_is_not_copied_wrongly():
    state = get_game("drachengold").new_state({}, 1, 4)
    with pytest.raises(TypeError, match="sample"):
        ForwardModel.copy(state)
