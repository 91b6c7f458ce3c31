"""The forward model: a determinization agrees with everything the seat saw, and its hidden parts
are drawn at random (ladder/games/drachengold/forward.py)."""

import random
from itertools import islice

import pytest

from bots.drachengold_greedy import GreedyBot
from bots.drachengold_random import RandomBot
from ladder.games.drachengold import Drachengold
from ladder.games.drachengold.forward import determinize, public_takes


def seen_by(state, seat: int) -> list[dict]:
    return [{"type": e.type, "data": dict(e.data)} for e in state.events if e.to is None or seat in e.to]


def decisions(options: dict, players: int, seed: int, every: int = 3):
    """Play a seeded game with greedy and random bots; yield (state, seat, hello) at every
    `every`-th turn-phase decision (magic and attack)."""
    state = Drachengold().new_state(options, seed, players)
    bots = []
    for s in range(players):
        bot = (GreedyBot if s % 2 else RandomBot)()
        bot.setup({"game": "drachengold", "seat": s, "players": players, "options": state.options, "bot_seed": seed})
        bots.append(bot)
    count = 0
    while (pending := state.pending()) is not None:
        obs = state.observation(pending.seat)
        if pending.kind in ("magic", "attack"):
            count += 1
            if count % every == 0:
                yield state, pending.seat, {"game": "drachengold", "seat": pending.seat, "players": players,
                                            "options": state.options}
        decision = bots[pending.seat].decide(pending.kind, obs)
        if state.validate(pending.seat, decision) is not None:
            decision = state.default_decision()
        state.apply(pending.seat, decision)


@pytest.mark.parametrize(("options", "players"), [({}, 4), ({"rules": "advanced-a"}, 3),
                                                   ({"rules": "advanced-b", "split": "strategic"}, 5), ({}, 6)])
def test_sampled_states_show_the_seat_exactly_what_it_sees(options, players):
    checked = 0
    for seed in range(3):
        for state, seat, hello in decisions(options, players, seed):
            truth = state.observation(seat)
            events = seen_by(state, seat)
            for k in range(2):
                sample = determinize(hello, truth, events, random.Random(k))
                assert sample.observation(seat) == truth
                assert sample.pending() == state.pending()
            checked += 1
    assert checked > 20


def test_every_token_and_card_is_in_exactly_one_place():
    for state, seat, hello in decisions({"rules": "advanced-a"}, 4, seed=5):
        sample = determinize(hello, state.observation(seat), seen_by(state, seat), random.Random(1))
        tokens = sample.bag + sample.box + [t for h in sample.hoards for t in h] + \
            [t for slot in sample.table if slot for t in slot.tokens]
        assert sorted(tokens) == list(range(126))
        cards = sample.magic_deck + sample.magic_discard + [c for h in sample.hands for c in h]
        assert sorted(cards) == list(range(len(sample.card_kinds)))


def test_the_hidden_parts_vary_with_the_rng_and_the_known_ones_do_not():
    # The generator plays on once resumed: take the position while it is paused there.
    state, seat, hello = next(islice(decisions({"rules": "advanced-a"}, 4, seed=2), 3, None))
    truth, events = state.observation(seat), seen_by(state, seat)
    samples = [determinize(hello, truth, events, random.Random(k)) for k in range(6)]
    # The bag's order and contents, the pile and the other hands differ between samples...
    assert len({tuple(x.bag) for x in samples}) > 1
    assert len({tuple(d["id"] for d in x.pile) for x in samples}) > 1
    others = [s for s in range(4) if s != seat and truth["hand_sizes"][s] > 0]
    assert others
    assert len({tuple(tuple(x.hands[s]) for s in others) for x in samples}) > 1
    # ...and none of them is the true seed's engine RNG.
    assert all(x.rng.getstate() != state.rng.getstate() for x in samples)
    # What the seat knows is the same in all: its own hoard and hand, and the tokens it saw others
    # take in public (no theft or trade moved any of them in this game)...
    assert all(sorted(x.hoards[seat]) == sorted(state.hoards[seat]) for x in samples)
    assert all(x.hands[seat] == state.hands[seat] for x in samples)
    assert not [e for e in events if e["type"] in ("theft", "trade")]
    taken = public_takes(events, 4)
    assert any(taken[s] for s in range(4) if s != seat)
    assert all(set(taken[s]) <= set(x.hoards[s]) for x in samples for s in range(4))
    # ...while a Windfall's two tokens, drawn in private, are anyone's guess.
    assert [e for e in events if e["type"] == "card_played" and e["data"]["kind"] == "windfall"]
    assert len({tuple(sorted(x.hoards[1])) for x in samples}) > 1


def test_a_sampled_state_plays_on_to_the_end():
    state, seat, hello = next(islice(decisions({"rules": "advanced-b"}, 4, seed=1), 5, None))
    sample = determinize(hello, state.observation(seat), seen_by(state, seat), random.Random(3))
    steps = 0
    while sample.pending() is not None and steps < 5000:
        sample.apply(sample.pending().seat, sample.default_decision())
        steps += 1
    assert sample.pending() is None and len(sample.scores()) == 4
