"""Every decision kind refuses malformed input with a reason, and nothing but a reason.

validate() returns a one-line reason (never raises) and apply() raises IllegalDecision with that
reason, leaving the game exactly where it was. Wrong types, unknown ids, floats and bools where an
integer is due, and missing required fields are all refused.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from ladder.games.base import IllegalDecision, Pending
from ladder.games.drachengold.rules.data import token_id

OTHERS = ["D12", "D16", "D17"]


def reach(dg, kind):
    """A fresh state whose pending decision is of `kind`."""
    if kind == "attack":
        return dg.arrange(dg.new(4), dragons=["D9", *OTHERS])
    if kind == "magic":
        st = dg.new(4, rules="advanced-a")
        return dg.arrange(st, dragons=[{"id": "D17", "attackers": [(0, "k4")]},
                                       {"id": "D16", "attackers": [(1, "k3")]}, "D9", "D12"],
                          hands={0: ["recall", "banish", "might", "ward"]})
    if kind in ("propose", "vote"):
        st = dg.arrange(dg.new(4), dragons=[{"id": "D9", "tokens": ["gold", "silver"],
                                             "attackers": [(1, "k4"), (2, "k3")]}, *OTHERS])
        dg.attack(st, "wizard", "D9")
        if kind == "vote":
            first = st.pending().seat
            pool = [t["id"] for t in st.negotiation["tokens"]]
            dg.act(st, "propose", shares={str(first): pool})
            while st.pending().kind == "propose":
                dg.act(st, "propose")
        return st
    if kind in ("theft_victim", "theft_pick"):
        helper = "wizard" if kind == "theft_pick" else "k3"
        st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "tokens": ["gold"],
                                             "attackers": [(0, helper), (1, "k4")]}, *OTHERS],
                        hoards={1: ["blue", "silver"]})
        dg.attack(st, "thief", "D6")
        dg.fail_negotiation(st)
        if kind == "theft_pick":
            dg.act(st, "theft_victim", victim=1)
        return st
    if kind in ("divide", "choose"):
        st = dg.arrange(dg.new(4, split="strategic"), dragons=[
            {"id": "D9", "tokens": ["gold", "silver", "red"], "attackers": [(1, "k4"), (2, "k3")]}, *OTHERS])
        dg.attack(st, "wizard", "D9")
        if kind == "choose":
            pool = [t["id"] for t in st.strategic["tokens"]]
            dg.act(st, "divide", shares=[[p] for p in pool[:2]] + [pool[2:]])
        return st
    if kind in ("market_offer", "market_answer"):
        st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "attackers": [(0, "k4")]}, *OTHERS], pile=["D1", "D2"],
                        hoards={0: ["gold", "gold"], 1: ["blue", "silver"]}, drawn=6)
        dg.attack(st, "k3", "D6")
        if kind == "market_answer":
            dg.act(st, "market_offer", offers=[{"to": 1, "give": dg.ids(st.hoards[0][:1]), "want": {"blue": 1}}])
            while st.pending().kind == "market_offer":
                dg.act(st, "market_offer", offers=[])
        return st
    raise AssertionError(kind)


KINDS = ["attack", "magic", "propose", "vote", "theft_victim", "theft_pick", "divide", "choose", "market_offer",
         "market_answer"]


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_can_be_reached_and_its_default_is_legal(dg, kind):
    st = reach(dg, kind)
    assert st.pending().kind == kind
    assert st.validate(st.pending().seat, st.default_decision()) is None


def refuses(st, decision, match=None):
    """The decision is refused with a reason, by validate and by apply, and nothing moves."""
    pending = st.pending()
    reason = st.validate(pending.seat, decision)
    assert isinstance(reason, str) and reason.strip(), f"{decision!r} was accepted"
    if match:
        assert match in reason
    events = len(st.events)
    with pytest.raises(IllegalDecision) as err:
        st.apply(pending.seat, decision)
    assert str(err.value) == reason
    assert st.pending() == pending and len(st.events) == events


DOCUMENTED_DEFAULTS = {  # docs/protocol.md, "Decisions"
    "magic": {"card": None},
    "attack": {"adventurer": "k4", "dragon": "D9"},
    "propose": {},
    "vote": {"accept": []},
    "theft_victim": {"victim": 1},
    "choose": {"share": 0},
    "market_offer": {"offers": []},
    "market_answer": {"accept": []},
}


@pytest.mark.parametrize("kind", sorted(DOCUMENTED_DEFAULTS))
def test_each_default_is_the_documented_one(dg, kind):
    assert reach(dg, kind).default_decision() == DOCUMENTED_DEFAULTS[kind]


def test_the_theft_pick_default_is_the_first_token_of_the_victims_hoard(dg):
    st = reach(dg, "theft_pick")
    assert st.default_decision() == {"token": st.observation(0)["request"]["hoard"][0]["id"]}


def test_the_division_default_deals_the_tokens_round_robin_in_id_order(dg):
    st = reach(dg, "divide")
    ids = sorted((t["id"] for t in st.strategic["tokens"]), key=lambda t: int(t[1:]))
    assert st.default_decision() == {"shares": [ids[0::3], ids[1::3], ids[2::3]]}


NOT_OBJECTS = [None, [], "attack", 3, 1.5, True, [{"adventurer": "k4", "dragon": "D9"}]]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("decision", NOT_OBJECTS, ids=repr)
def test_a_decision_must_be_a_json_object(dg, kind, decision):
    refuses(reach(dg, kind), decision, "JSON object")


@pytest.mark.parametrize("kind", KINDS)
def test_only_the_pending_seat_may_decide(dg, kind):
    st = reach(dg, kind)
    seat = st.pending().seat
    other = (seat + 1) % st.num_players
    assert "not seat" in st.validate(other, st.default_decision())
    with pytest.raises(IllegalDecision):
        st.apply(other, st.default_decision())


def test_no_decision_is_taken_once_the_game_is_over(dg):
    st = dg.new(3, seed=2)
    dg.run_bots(st, ["random"] * 3)
    assert st.validate(0, {"adventurer": "k4", "dragon": "D1"}) == "the game is over"
    with pytest.raises(IllegalDecision):
        st.apply(0, {})
    with pytest.raises(IllegalDecision):
        st.default_decision()


BAD = {
    "attack": [{}, {"adventurer": "k4"}, {"dragon": "D9"}, {"adventurer": "k9", "dragon": "D9"},
               {"adventurer": "k4", "dragon": "D99"}, {"adventurer": 4, "dragon": "D9"},
               {"adventurer": ["k4"], "dragon": "D9"}, {"adventurer": {"id": "k4"}, "dragon": "D9"},
               {"adventurer": "k4", "dragon": ["D9"]}, {"adventurer": "k4", "dragon": {"id": "D9"}},
               {"adventurer": None, "dragon": None}, {"adventurer": "K4", "dragon": "d9"}],
    "magic": [{"card": "m999"}, {"card": 0}, {"card": True}, {"card": 1.0}, {"card": ["m0"]},
              {"card": {"id": "m0"}}, {"card": False}],
    "propose": [{"shares": []}, {"shares": "all"}, {"shares": {"1": "t0"}}, {"shares": {"9": []}},
                {"shares": {"x": []}}, {"shares": {"1": [1, 2]}}, {"shares": {"1": [1.0]}}, {"shares": {"1": [True]}},
                {"shares": {"1": [["t0"]]}}, {"shares": {"1": [{"id": "t0"}]}}, {"withdraw": 1},
                {"withdraw": "yes"}, {"withdraw": None}, {"shares": {"3": []}}, {"shares": {}},
                {"shares": 5}, {"shares": {"²": []}}],
    "vote": [{}, {"accept": "p1"}, {"accept": None}, {"accept": ["p99"]}, {"accept": [1]}, {"accept": [True]},
             {"accept": [["p1"]]}, {"accept": [{"id": "p1"}]}, {"accept": {"p1": True}}],
    "theft_victim": [{}, {"victim": None}, {"victim": 1.0}, {"victim": True}, {"victim": "1"}, {"victim": [1]},
                     {"victim": 0}, {"victim": 2}, {"victim": 3}, {"victim": 99}, {"victim": -1}],
    "theft_pick": [{}, {"token": None}, {"token": 3}, {"token": "t999"}, {"token": ["t1"]}, {"token": {"id": "t1"}},
                   {"token": True}],
    "divide": [{}, {"shares": None}, {"shares": "abc"}, {"shares": [[], [], []]}, {"shares": [["t0"]]},
               {"shares": {"0": []}}, {"shares": [1, 2, 3]}, {"shares": [[1], [2], [3]]},
               {"shares": [[True], [], []]}, {"shares": [None, None, None]}],
    "choose": [{}, {"share": None}, {"share": 1.0}, {"share": True}, {"share": "0"}, {"share": [0]}, {"share": 9},
               {"share": -1}],
    "market_offer": [{}, {"offers": None}, {"offers": {}}, {"offers": [1]}, {"offers": [{}]},
                     {"offers": [{"to": 0, "want": {"blue": 1}}]}, {"offers": [{"to": 1.0, "want": {"blue": 1}}]},
                     {"offers": [{"to": True, "want": {"blue": 1}}]}, {"offers": [{"to": 9, "want": {"blue": 1}}]},
                     {"offers": [{"to": "1", "want": {"blue": 1}}]},
                     {"offers": [{"to": 1, "want": {"blue": 1.0}}]}, {"offers": [{"to": 1, "want": {"blue": True}}]},
                     {"offers": [{"to": 1, "want": {"blue": -1}}]}, {"offers": [{"to": 1, "want": {"pink": 1}}]},
                     {"offers": [{"to": 1, "want": ["blue"]}]}, {"offers": [{"to": 1, "give": "t0"}]},
                     {"offers": [{"to": 1, "give": [0]}]}, {"offers": [{"to": 1, "give": None}]},
                     {"offers": [{"to": 1}]}, {"offers": [{"to": 1, "give": [], "want": {}}]},
                     {"offers": [{"to": 1, "want": {"blue": 1}}] * 4}],
    "market_answer": [{}, {"accept": None}, {"accept": "o1.0.0"}, {"accept": [1]}, {"accept": ["o1.0.0"]},
                      {"accept": [{"offer": "o9.9.9"}]}, {"accept": [{"offer": 0}]}, {"accept": [{"offer": None}]},
                      {"accept": [{"offer": ["o1.0.0"]}]}, {"accept": [{"offer": "o1.0.0"}]},
                      {"accept": [{"offer": "o1.0.0", "pay": "t1"}]}, {"accept": [{"offer": "o1.0.0", "pay": [1]}]},
                      {"accept": [{"offer": "o1.0.0", "pay": None}]}],
}


@pytest.mark.parametrize(("kind", "decision"), [(k, d) for k, ds in BAD.items() for d in ds], ids=repr)
def test_malformed_decisions_are_refused_with_a_reason(dg, kind, decision):
    refuses(reach(dg, kind), decision)


def test_an_adventurer_is_named_by_its_id_not_its_attack(dg):
    refuses(reach(dg, "attack"), {"adventurer": 4, "dragon": "D9"}, "not one of your face-up adventurers")


@pytest.mark.parametrize("key", ["\u00b2", "\uff11", " 1", "1 ", "+1", "01x", "1.0", "", "\u0661"])
def test_a_share_is_keyed_by_a_plain_seat_number(dg, key):
    st = reach(dg, "propose")
    tokens = [t["id"] for t in st.negotiation["tokens"]]
    assert st.validate(0, {"shares": {"1": tokens}}) is None
    refuses(st, {"shares": {key: tokens}}, "not an involved seat")


def test_magic_object_targets_must_be_named(dg):
    st = reach(dg, "magic")
    card = {st.card_kinds[c]: f"m{c}" for c in st.hands[0]}
    refuses(st, {"card": card["recall"]}, "Recall needs")
    refuses(st, {"card": card["recall"], "adventurer": "k3"}, "Recall needs")  # not attacking
    refuses(st, {"card": card["recall"], "adventurer": ["k4"]}, "Recall needs")
    refuses(st, {"card": card["banish"], "adventurer": "k3"}, "Banish needs")  # seat missing
    refuses(st, {"card": card["banish"], "seat": 1.0, "adventurer": "k3"}, "Banish needs")
    refuses(st, {"card": card["banish"], "seat": True, "adventurer": "k3"}, "Banish needs")
    refuses(st, {"card": card["banish"], "seat": "1", "adventurer": "k3"}, "Banish needs")
    refuses(st, {"card": card["banish"], "seat": 2, "adventurer": "k3"}, "Banish needs")
    refuses(st, {"card": card["ward"]}, "Ward is not played")
    assert st.validate(0, {"card": card["banish"], "seat": 1, "adventurer": "k3"}) is None
    assert st.validate(0, {"card": card["might"]}) is None


def test_a_card_in_another_hand_cannot_be_played(dg):
    st = reach(dg, "magic")
    st.hands[1].append(st.magic_deck.pop())
    refuses(st, {"card": f"m{st.hands[1][-1]}"}, "not in your hand")


def test_theft_pick_names_a_token_in_the_victims_hoard_only(dg):
    st = reach(dg, "theft_pick")
    assert [t["colour"] for t in st.observation(0)["request"]["hoard"]] == ["silver", "blue"]
    refuses(st, {"token": token_id(st.bag[0])}, "is not in seat 1's hoard")
    refuses(st, {"token": token_id(st.box[0])})  # the lost treasure, now in the box lid
    refuses(st, {"token": ["t1"]}, "is not in seat 1's hoard")


def test_a_market_answer_must_pay_exactly_what_is_wanted(dg):
    st = reach(dg, "market_answer")
    offer = st.observation(1)["request"]["offers"][0]["id"]
    hoard = {t["colour"]: t["id"] for t in st.observation(1)["hoard"]}
    refuses(st, {"accept": [{"offer": offer, "pay": [hoard["silver"]]}]}, "must be exactly")
    refuses(st, {"accept": [{"offer": offer, "pay": [hoard["blue"], hoard["silver"]]}]}, "must be exactly")
    refuses(st, {"accept": [{"offer": offer, "pay": []}]}, "must be exactly")
    refuses(st, {"accept": [{"offer": offer, "pay": [hoard["blue"]]}, {"offer": offer, "pay": [hoard["blue"]]}]})
    refuses(st, {"accept": [{"offer": offer, "pay": [token_id(st.bag[0])]}]}, "must be yours")
    assert st.validate(1, {"accept": [{"offer": offer, "pay": [hoard["blue"]]}]}) is None


def test_a_market_offer_gives_only_tokens_from_the_own_hoard(dg):
    st = reach(dg, "market_offer")
    refuses(st, {"offers": [{"to": 1, "give": [token_id(st.hoards[1][0])]}]}, "not in your hoard")
    refuses(st, {"offers": [{"to": 1, "give": ["m0"]}]}, "not a token id")  # a Magic Object card is no token


JSON_LEAVES = hs.one_of(hs.none(), hs.booleans(), hs.integers(-3, 130), hs.floats(allow_nan=False),
                        hs.sampled_from(["k4", "k3", "thief", "wizard", "D9", "D6", "t0", "t1", "p1", "o1.0.0", "0",
                                         "1", "m0", "red", "blue", ""]), hs.text(max_size=3))
JSON = hs.recursive(JSON_LEAVES, lambda inner: hs.one_of(hs.lists(inner, max_size=4),
                                                          hs.dictionaries(hs.text(max_size=8), inner, max_size=4)),
                    max_leaves=12)
FIELDS = ["adventurer", "dragon", "card", "seat", "shares", "withdraw", "accept", "victim", "token", "share",
          "offers", "to", "give", "want", "offer", "pay"]
DECISIONS = hs.one_of(JSON, hs.dictionaries(hs.sampled_from(FIELDS), JSON, max_size=4))


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(decision=DECISIONS)
def test_fuzzed_decisions_get_a_reason_or_apply_cleanly(dg, kind, decision):
    st = reach(dg, kind)
    pending = st.pending()
    reason = st.validate(pending.seat, decision)
    assert reason is None or (isinstance(reason, str) and reason)
    if reason is None:
        st.apply(pending.seat, decision)
    else:
        with pytest.raises(IllegalDecision):
            st.apply(pending.seat, decision)
        assert st.pending() == pending


def test_a_refused_decision_does_not_move_the_game(dg):
    st = reach(dg, "attack")
    refuses(st, {"adventurer": "k4", "dragon": "D1"})
    assert st.pending() == Pending(0, "attack")
    dg.attack(st, "k4", "D9")
    assert st.pending() == Pending(1, "attack")
