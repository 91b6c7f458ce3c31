"""The forward model: a determinization agrees with everything the seat saw, at every kind of
decision, and its hidden parts are drawn at random (ladder/games/drachengold/rules/forward.py)."""

import random
from collections import Counter
from itertools import islice

import pytest

from bots.drachengold.greedy import GreedyBot
from bots.drachengold.random import RandomBot
from ladder.games.base import Pending
from ladder.games.drachengold import Drachengold
from ladder.games.drachengold.rules.forward import determinize, public_takes

PER_KIND = 4  # decisions checked per kind and game: rare kinds are all checked, common ones bounded


def seen_by(state, seat: int) -> list[dict]:
    return [e.as_json() for e in state.events if e.to is None or seat in e.to]


def hello_for(state, seat: int) -> dict:
    return {"game": "drachengold", "seat": seat, "players": state.num_players, "options": state.options}


def new_game(options: dict, players: int, seed: int):
    """A seeded game and its bots: greedy at odd seats, random at even ones."""
    state = Drachengold().new_state(options, seed, players)
    bots = []
    for s in range(players):
        bot = (GreedyBot if s % 2 else RandomBot)()
        bot.setup({**hello_for(state, s), "bot_seed": seed})
        bots.append(bot)
    return state, bots


def decide(state, bots) -> dict:
    """The decision the pending seat's bot makes (its default when the bot errs)."""
    pending = state.pending()
    decision = bots[pending.seat].decide(pending.kind, state.observation(pending.seat))
    return decision if state.validate(pending.seat, decision) is None else state.default_decision()


def play(options: dict, players: int, seed: int, kinds: tuple[str, ...] | None = None, per_kind: int = PER_KIND):
    """Play a seeded game; before the first `per_kind` decisions of each kind (of `kinds`, or all),
    yield (state, seat, the decision the seat then makes)."""
    state, bots = new_game(options, players, seed)
    seen: Counter = Counter()
    while (pending := state.pending()) is not None:
        decision = decide(state, bots)
        if (kinds is None or pending.kind in kinds) and seen[pending.kind] < per_kind:
            seen[pending.kind] += 1
            yield state, pending.seat, decision
        state.apply(pending.seat, decision)


def sample(state, seat: int, k: int):
    return determinize(hello_for(state, seat), state.observation(seat), seen_by(state, seat), random.Random(k))


def hidden(state) -> tuple:
    return (tuple(state.bag), tuple(d["id"] for d in state.pile), tuple(map(tuple, state.hoards)),
            tuple(map(tuple, state.hands)))


def play_out(state, seed: int) -> None:
    """Random legal decisions to the end: a determinization is a real game."""
    bot = RandomBot()
    bot.setup({"game": "drachengold", "seat": 0, "bot_seed": seed})
    for _ in range(20000):
        if (pending := state.pending()) is None:
            assert len(state.scores()) == state.num_players
            return
        decision = bot.decide(pending.kind, state.observation(pending.seat))
        if state.validate(pending.seat, decision) is not None:
            decision = state.default_decision()
        state.apply(pending.seat, decision)
    raise AssertionError("a determinization did not end")


TURN, MARKET, THEFT = {"attack"}, {"market_offer", "market_answer"}, {"theft_victim", "theft_pick"}
NEGOTIATION, STRATEGIC = {"propose", "vote"}, {"divide", "choose"}


# (options, players, the kinds of decision three seeded games of them hold)
CASES = [
    ({}, 4, TURN | NEGOTIATION | MARKET | THEFT),
    ({"rules": "advanced-a", "market_rounds": 5}, 3, TURN | {"magic"} | NEGOTIATION | MARKET | THEFT),
    ({"rules": "advanced-b", "split": "strategic"}, 5, TURN | {"magic"} | STRATEGIC | MARKET | THEFT),
    ({"split": "strategic", "negotiation_rounds": 3}, 6, TURN | STRATEGIC | MARKET | THEFT),
]


@pytest.mark.parametrize(("options", "players", "kinds"), CASES)
def test_every_decision_resumes_with_the_seats_own_view(options, players, kinds):
    """At decisions of every kind the sample shows the seat exactly its observation, waits for the
    same decision, takes the decision the seat really made, varies with the rng and plays on."""
    checked: Counter = Counter()
    varied: Counter = Counter()
    for seed in range(3):
        for state, seat, decision in play(options, players, seed):
            truth = state.observation(seat)
            samples = [sample(state, seat, k) for k in range(3)]
            taken = {t for takes in public_takes(seen_by(state, seat), players) for t in takes}
            for x in samples:
                assert x.observation(seat) == truth
                assert not taken & set(x.bag + x.box)  # a token seen going to a hoard stays in one
                assert x.pending() == state.pending()
                assert x.validate(seat, decision) is None, (state.pending(), decision)
            varied[state.pending().kind] += len({hidden(x) for x in samples}) > 1
            if sum(checked.values()) % 5 == 0:
                play_out(samples[0], seed)
            checked[state.pending().kind] += 1
    assert set(checked) == kinds
    assert set(varied) == kinds and all(varied.values()), varied


def test_every_kind_of_decision_is_covered():
    """The cases above hold between them every kind of decision the game has."""
    covered = set().union(*(kinds for _, _, kinds in CASES))
    assert covered == set(Drachengold.decision_kinds)


def test_every_token_and_card_is_in_exactly_one_place():
    for state, seat, _ in play({"rules": "advanced-a"}, 4, seed=5):
        x = sample(state, seat, 1)
        tokens = x.bag + x.box + [t for h in x.hoards for t in h] + [t for slot in x.table if slot for t in slot.tokens]
        assert sorted(tokens) == list(range(126))
        cards = x.magic_deck + x.magic_discard + [c for h in x.hands for c in h]
        assert sorted(cards) == list(range(len(x.card_kinds)))


def test_the_hidden_parts_vary_with_the_rng_and_the_known_ones_do_not():
    # The generator plays on once resumed: take the position while it is paused there.
    turns = play({"rules": "advanced-a"}, 4, seed=2, kinds=("magic", "attack"), per_kind=1000)
    state, seat, _ = next(islice(turns, 11, None))
    truth, events = state.observation(seat), seen_by(state, seat)
    samples = [sample(state, seat, k) for k in range(6)]
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


def last(state, kind: str) -> dict:
    return next(e.data for e in reversed(state.events) if e.type == kind)


def card_this_turn(state) -> str | None:
    """The Magic Object card the current seat played this turn, if any."""
    turn = max(i for i, e in enumerate(state.events) if e.type == "turn")
    played = [e.data["kind"] for e in state.events[turn:] if e.type == "card_played"]
    return played[0] if played else None


def test_a_card_played_this_turn_carries_into_the_resumed_attack():
    """Might's bonus and Double Strike's second attack live in the running flow, not on the table:
    a sample taken at an attack after either card keeps them."""
    found: Counter = Counter()
    for seed in range(6):
        state, bots = new_game({"rules": "advanced-a"}, 4, seed)
        while (pending := state.pending()) is not None:
            decision, card = decide(state, bots), card_this_turn(state)
            if pending.kind != "attack" or card not in ("might", "double_strike"):
                state.apply(pending.seat, decision)
                continue
            x = sample(state, pending.seat, seed)
            for game in (x, state):
                game.apply(pending.seat, decision)
            assert last(x, "attack") == last(state, "attack")  # Might's bonus included
            if state.events[-1].type != "kill":  # without a kill, what comes next is public
                again = Pending(pending.seat, "attack")
                assert (x.pending() == again) == (state.pending() == again)
            found[card] += 1
    assert found["might"] and found["double_strike"], found


def finish_step(state, event: str, answer: dict) -> dict:
    """Answer every request with `answer` until the step's `event` is emitted; its data."""
    start = len(state.events)
    while not any(e.type == event for e in state.events[start:]):
        state.apply(state.pending().seat, answer)
    return next(e.data for e in state.events[start:] if e.type == event)


def test_proposals_and_votes_not_yet_public_are_sampled_not_read():
    """Earlier proposers this round keep their standing proposals in the sample, though in truth
    some proposed anew; earlier voters accept their own proposal and others at random."""
    kept, renewed, votes_vary = 0, 0, 0
    for seed in range(4):
        state, bots = new_game({}, 4, seed)
        guesses = []
        while (pending := state.pending()) is not None:
            decision, obs = decide(state, bots), state.observation(pending.seat)
            ctx = obs.get("negotiation")
            earlier = ctx["order"][: ctx["order"].index(pending.seat)] if ctx else []
            if pending.kind == "propose" and earlier:
                published = finish_step(sample(state, pending.seat, seed), "proposals", {})["proposals"]
                assert published == ctx["standing"]
                guesses.append((ctx["dragon"], ctx["round"], earlier, published))
                kept += 1
            elif pending.kind == "vote" and earlier and len(ctx["standing"]) > 1:
                own = {p["proposer"]: p["id"] for p in ctx["standing"]}
                sampled = set()
                for k in range(8):
                    votes = finish_step(sample(state, pending.seat, k), "votes", {"accept": []})["votes"]
                    assert all(own[v] in votes[str(v)] for v in earlier if v in own)
                    sampled.add(tuple(tuple(votes[str(v)]) for v in earlier))
                votes_vary += len(sampled) > 1
            state.apply(pending.seat, decision)
        truth = {(e.data["dragon"], e.data["round"]): e.data["proposals"] for e in state.events
                 if e.type == "proposals"}
        for dragon, r, earlier, published in guesses:
            mine = {p["proposer"]: p for p in published if p["proposer"] in earlier}
            real = {p["proposer"]: p for p in truth[(dragon, r)] if p["proposer"] in earlier}
            renewed += mine != real
    assert kept and renewed and votes_vary, (kept, renewed, votes_vary)


def test_offers_the_seat_did_not_see_are_not_in_the_sample():
    """At a market answer the sample holds only the offers this seat made or received this round,
    though in truth other seats traded offers it never saw."""
    checked, unseen = 0, 0
    for seed in range(4):
        state, bots = new_game({"market_rounds": 5}, 4, seed)
        while (pending := state.pending()) is not None:
            decision = decide(state, bots)
            if pending.kind == "market_answer":
                seat = pending.seat
                seen = {e["data"]["id"] for e in seen_by(state, seat) if e["type"] == "offer"}
                truth = {e.data["id"] for e in state.events if e.type == "offer"}
                unseen += bool(truth - seen)
                x = sample(state, seat, seed)
                x.apply(seat, {"accept": []})
                while (later := x.pending()) is not None and later.kind == "market_answer":
                    assert {o["id"] for o in x.observation(later.seat)["request"]["offers"]} <= seen
                    x.apply(later.seat, {"accept": []})
                checked += 1
            state.apply(pending.seat, decision)
    assert checked and unseen, (checked, unseen)


def test_the_dragons_a_scry_showed_stay_on_top_of_the_pile():
    checked = 0
    for seed in range(6):
        for state, seat, _ in play({"rules": "advanced-b"}, 4, seed, kinds=("attack",), per_kind=1000):
            events = seen_by(state, seat)
            scried = [e["data"]["dragons"] for e in events if e["type"] == "scry"]
            table = {slot.dragon["id"] for slot in state.table if slot} | set(state.dead)
            top = [d for d in (scried[-1] if scried else []) if d not in table]
            if top:
                assert [d["id"] for d in state.pile[: len(top)]] == top  # what the seat saw is true
                for k in range(3):
                    assert [d["id"] for d in sample(state, seat, k).pile[: len(top)]] == top
                checked += 1
    assert checked
