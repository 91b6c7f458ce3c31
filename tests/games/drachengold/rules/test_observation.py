"""An observation is the seat's own value (issue #29: faster observations, but in-process bots still
get values they cannot alter): at every decision of seeded games, under every rules option and
split, no list or dict of any seat's observation is reachable from the state, nor shared with
another seat's observation. The state's reach is followed everywhere it keeps values: its fields,
its events, the pending request (its info and its checker's closure) and the running flow's frames.

The behaviour this guards is checked end to end in tests/games/test_random_play.py
(`test_what_a_bot_is_handed_is_its_own`): a bot that wrecks what it is handed changes nothing.
"""

from __future__ import annotations

import types
from typing import Any

import pytest

from bots.drachengold.greedy import GreedyBot
from bots.drachengold.random import RandomBot
from ladder.games.drachengold import Drachengold

CONTAINERS = (list, dict)


def reachable(root: Any) -> dict[int, Any]:
    """id -> object, for every list and dict the object reaches: through containers, object fields
    (slots too), Mappings such as an event's data, closures, and generator frames."""
    found: dict[int, Any] = {}
    seen: set[int] = set()
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, str | bytes | int | float | bool | type(None) | type | types.ModuleType):
            continue
        seen.add(id(obj))
        if isinstance(obj, CONTAINERS):
            found[id(obj)] = obj
        if isinstance(obj, dict):
            todo += list(obj.keys()) + list(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            todo += list(obj)
        elif isinstance(obj, types.GeneratorType):
            if obj.gi_frame is not None:
                todo += list(obj.gi_frame.f_locals.values())
            todo.append(obj.gi_yieldfrom)
        elif isinstance(obj, types.FunctionType):
            todo += [cell.cell_contents for cell in (obj.__closure__ or ()) if _has_contents(cell)]
            todo += list(obj.__defaults__ or ())
        elif isinstance(obj, types.MethodType):
            todo += [obj.__self__, obj.__func__]
        else:
            todo += list(getattr(obj, "__dict__", {}).values())
            for klass in type(obj).__mro__:
                for name in getattr(klass, "__slots__", ()):
                    if hasattr(obj, name):
                        todo.append(getattr(obj, name))
            if hasattr(obj, "items") and callable(obj.items):  # a read-only Mapping (an event's data)
                todo += [v for kv in obj.items() for v in kv]
    return found


def _has_contents(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (an empty cell raises)
    except ValueError:
        return False
    return True


def test_the_reach_follows_fields_closures_and_flows():
    """The walk itself: a list kept only in a closure, or only in a suspended flow, is found."""
    kept, local = [1], {"a": [2]}

    def check():
        return kept

    def flow():
        mine = local
        yield mine

    running = flow()
    next(running)
    holder = types.SimpleNamespace(check=check, flow=running)
    ids = reachable(holder)
    assert id(kept) in ids and id(local) in ids and id(local["a"]) in ids


CASES = [
    ({"rules": "basic"}, 3, 1),
    ({"rules": "basic"}, 4, 2),
    ({"rules": "advanced-a"}, 5, 3),
    ({"rules": "advanced-b", "negotiation_rounds": 3}, 4, 4),
    ({"rules": "advanced-a", "split": "strategic"}, 6, 5),
    ({"rules": "advanced-b", "split": "strategic"}, 3, 6),
]


def play(options: dict, players: int, seed: int):
    """A seeded game (greedy at odd seats, random at even ones): yields the state before each
    decision and at the end."""
    state = Drachengold().new_state(options, seed, players)
    bots = [(GreedyBot if s % 2 else RandomBot)() for s in range(players)]
    for s, bot in enumerate(bots):
        bot.setup({"game": "drachengold", "seat": s, "players": players, "options": dict(state.options),
                   "bot_seed": seed})
    while (pending := state.pending()) is not None:
        yield state
        decision = bots[pending.seat].decide(pending.kind, state.observation(pending.seat))
        if state.validate(pending.seat, decision) is not None:
            decision = state.default_decision()
        state.apply(pending.seat, decision)
    yield state  # the end, with every hoard shown


def test_the_games_reach_every_decision_kind():
    kinds = {state.pending().kind for case in CASES for state in play(*case) if state.pending() is not None}
    assert kinds == set(Drachengold.decision_kinds)


@pytest.mark.parametrize(("options", "players", "seed"), CASES)
def test_no_observation_shares_a_list_or_dict_with_the_state_or_another_seat(options, players, seed):
    for state in play(options, players, seed):
        held = reachable(state)  # keeps what it found alive, so no id is reused while compared
        observations = [state.observation(s) for s in range(players)]
        owners: dict[int, int] = {}
        for s, observation in enumerate(observations):
            for key, obj in reachable(observation).items():
                assert key not in held, f"seat {s}'s observation shares {obj!r:.80} with the state ({state.pending()})"
                assert owners.setdefault(key, s) == s, f"seats {owners[key]} and {s} share {obj!r:.80}"


def _uncached(state, seat: int) -> dict:
    """The seat's observation with every kept JSON dropped first, so made from the state alone."""
    for slot in state.table:
        if slot is not None:
            slot.shown = None
    state.sorted_hoards[:] = [None] * len(state.sorted_hoards)
    return state.observation(seat)


@pytest.mark.parametrize(("options", "players", "seed"), CASES)
def test_what_the_state_keeps_for_observations_is_never_stale(options, players, seed):
    """Each dragon's JSON is kept while its tokens and attackers stay (state.shown_dragon), each
    seat's sorted hoard while the hoard stays (observation.SortedHoards): at every decision every
    seat's observation equals one made without anything kept, before and after."""
    for state in play(options, players, seed):
        kept = [state.observation(s) for s in range(players)]
        assert kept == [_uncached(state, s) for s in range(players)]
        assert kept == [state.observation(s) for s in range(players)]


def test_a_dragon_changed_in_place_is_shown_changed():
    """The kept JSON is checked against the slot's lists by value: tokens added to a slot, or an
    attacker appended, in place, show at once."""
    state = Drachengold().new_state({}, 3, 4)
    slot = next(s for s in state.table if s is not None)
    before = state.observation(0)
    slot.tokens.append(state.bag.pop())
    slot.attackers.append((1, "thief", 2))
    after = state.observation(0)
    index = state.table.index(slot)
    assert len(after["dragons"][index]["tokens"]) == len(before["dragons"][index]["tokens"]) + 1
    attack = state.advs[1]["thief"].attack + 2
    assert after["dragons"][index]["attackers"][-1] == {"seat": 1, "adventurer": "thief", "attack": attack}
    assert after == _uncached(state, 0)


def test_a_negotiation_of_another_shape_is_still_copied_whole():
    """observation._negotiation copies the context key by key when it has the keys it knows; a
    context with another key (a list here) is deep-copied, so nothing in it is shared."""
    from ladder.games.drachengold.rules.observation import _negotiation

    known = {
        "dragon": "D1",
        "involved": [0, 1],
        "order": [1, 0],
        "tokens": [{"id": "t1", "colour": "red"}],
        "rounds": 2,
        "round": 1,
        "step": "vote",
        "standing": [{"id": "p1", "proposer": 1, "round": 1, "shares": {"0": ["t1"], "1": []}}],
        "last_votes": {"0": ["p1"]},
        "attack": {"0": 3, "1": 4},
    }
    for ctx in (known, {**known, "extra": [[1], {"a": [2]}]}):
        copied = _negotiation(ctx)
        assert copied == ctx
        ids = reachable(ctx)
        assert not set(reachable(copied)) & set(ids)


def test_a_hoard_changed_in_place_is_shown_changed_and_only_to_its_seat():
    state = Drachengold().new_state({}, 3, 4)
    assert [state.observation(s)["hoard"] for s in range(4)] == [[]] * 4
    state.hoards[2].extend([state.bag.pop(), state.bag.pop()])
    shown = state.observation(2)["hoard"]
    assert [t["id"] for t in shown] == [f"t{t}" for t in sorted(state.hoards[2])]
    assert [state.observation(s)["hoard"] for s in (0, 1, 3)] == [[]] * 3
    state.hoards[2].append(state.bag.pop())  # in place again, after it was kept
    assert len(state.observation(2)["hoard"]) == 3


def test_what_the_state_keeps_survives_a_copy_and_a_pickle():
    """The kept JSON is plain data: deep-copied or pickled (as the forward model may do with a
    state), the copies serve the same observations."""
    import copy
    import pickle

    state = Drachengold().new_state({}, 5, 3)
    state.hoards[0].extend([state.bag.pop(), state.bag.pop()])
    seen = state.observation(0)
    assert state.sorted_hoards[0] is not None and all(s.shown for s in state.table if s)
    kept = (state.table, state.sorted_hoards)
    for table, hoards in (copy.deepcopy(kept), pickle.loads(pickle.dumps(kept))):
        state.table, state.sorted_hoards = table, hoards
        assert state.observation(0) == seen
    assert repr(state.sorted_hoards) == repr(Drachengold().new_state({}, 5, 3).sorted_hoards)  # not state
