"""The forward model: sampled states agree with all a seat saw, hide the rest at random, and play on."""

from __future__ import annotations

import random

import pytest
from games.dragonflame.helpers import new

from ladder.games.dragonflame.rules.forward import clone, determinize


def random_decision(state, rng: random.Random) -> dict:
    """A uniformly random legal decision for the pending request (from the seat's own request)."""
    seat = state.pending().seat
    request = state.observation(seat)["request"]
    if request["kind"] == "play":
        return {"card": rng.choice(request["cards"]), "castle": rng.choice(request["castles"] or [None])}
    if request["kind"] == "spy":
        return {"castle": rng.choice([*request["castles"], None])}
    if request["kind"] == "attack":
        return {"castle": rng.choice(request["castles"])}
    return dict(rng.choice(request["lines"]))


def seen_events(state, seat: int) -> list[dict]:
    return [e.as_json() for e in state.events if e.visible_to(seat)]


def where(state, card: str) -> str:
    """The place of a card in a state, by kind and owner."""
    for s, hand in enumerate(state.hands):
        if card in hand:
            return f"hand {s}"
    for s, hoard in enumerate(state.hoards):
        if card in hoard:
            return f"hoard {s}"
    for castle in state.castles:
        for i, (cid, up, by) in enumerate(castle.cards):
            if cid == card:
                return f"castle {castle.number} #{i} {up} {by}"
    if card in state.flames:
        return f"flames #{state.flames.index(card)}"
    if card in state.discard:
        return "discard"
    if card in state.deck:
        return "deck"
    return "box"


def hidden_of(state, seat: int) -> tuple:
    """What `seat` cannot see: the other hands, the unseen face-down cards, the deck order."""
    others = tuple(tuple(h) for s, h in enumerate(state.hands) if s != seat)
    down = tuple(cid for c in state.castles for cid, up, by in c.cards if not up and by != seat)
    return others, down, tuple(state.deck)


def play_to_end(state, rng: random.Random) -> list[int]:
    while state.pending() is not None:
        state.apply(state.pending().seat, random_decision(state, rng))
    return state.scores()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_sampled_states_agree_with_everything_the_seat_saw(players):
    checked = varied = 0
    for seed in range(3):
        state = new(players, seed=100 + seed)
        play = random.Random(seed)
        step = 0
        while state.pending() is not None:
            step += 1
            deciding = state.pending().seat
            # every 3rd decision: the seat that decides, and one that waits (it determinizes too)
            for seat in ({deciding, step % players} if step % 3 == 0 else ()):
                events = seen_events(state, seat)
                true_obs = state.observation(seat)
                samples = [determinize({"game": "dragonflame", "seat": seat, "players": players, "options": {}},
                                       true_obs, events, random.Random(k)) for k in range(3)]
                for sampled in samples:
                    assert sampled.observation(seat) == true_obs
                    assert sampled.pending().seat == deciding
                    if seat == deciding:  # a waiting seat cannot tell a declined Spyglass from none
                        assert sampled.pending() == state.pending()
                    assert sorted(sampled.cards_accounted()) == sorted(state.cards_accounted())
                    for event in events:  # every card an event named is where the true state has it
                        for card in _ids(event["data"]):
                            assert where(sampled, card) == where(state, card), (event, card)
                    assert sampled.seed != state.seed
                checked += 1
                varied += len({hidden_of(s, seat) for s in samples}) > 1
            state.apply(deciding, random_decision(state, play))
    assert checked > 50
    assert varied > checked * 0.8  # the hidden cards differ between samples (nearly always)


def _ids(value) -> list[str]:
    if isinstance(value, dict):
        own = [value["id"]] if "id" in value and "category" in value else []
        return own + [c for v in value.values() for c in _ids(v)]
    if isinstance(value, list):
        return [c for v in value for c in _ids(v)]
    return []


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_play_continues_from_a_sampled_state_to_the_end(players):
    state = new(players, seed=7)
    play = random.Random(1)
    for step in range(200):
        if state.pending() is None:
            break
        if step % 25 == 0:
            seat = state.pending().seat
            sampled = determinize({"players": players}, state.observation(seat), seen_events(state, seat),
                                  random.Random(step))
            scores = play_to_end(sampled, random.Random(step))
            assert len(scores) == players and sampled.pending() is None
            assert scores == [row["total"] for row in sampled.breakdown()]
            assert len(sampled.deck) < sampled.per_round * players
        state.apply(state.pending().seat, random_decision(state, play))


def test_a_flame_request_keeps_the_flames_still_to_resolve():
    for seed in range(40):
        state = new(4, seed=seed)
        play = random.Random(seed)
        while state.pending() is not None:
            pending = state.pending()
            if pending.kind == "flame":
                obs = state.observation(pending.seat)
                sampled = determinize({}, obs, seen_events(state, pending.seat), random.Random(0))
                assert sampled.flames == state.flames
                assert sampled.observation(pending.seat)["request"] == obs["request"]
                return
            state.apply(pending.seat, random_decision(state, play))
    raise AssertionError("no Dragonflame was looted in 40 games")


def test_a_finished_game_cannot_be_determinized():
    state = new(3, seed=2)
    play_to_end(state, random.Random(0))
    with pytest.raises(ValueError, match="over"):
        determinize({}, state.observation(0), seen_events(state, 0), random.Random(0))


def test_a_clone_plays_on_without_touching_the_original():
    state = new(4, seed=3)
    play = random.Random(3)
    for _ in range(30):
        state.apply(state.pending().seat, random_decision(state, play))
    before = [state.observation(s) for s in range(4)], sorted(state.cards_accounted()), list(state.deck)
    copy = clone(state)
    assert [copy.observation(s) for s in range(4)] == before[0]
    play_to_end(copy, random.Random(0))
    assert copy.pending() is None
    assert ([state.observation(s) for s in range(4)], sorted(state.cards_accounted()), list(state.deck)) == before
    assert sorted(copy.cards_accounted()) == before[1]
