"""The market: it opens once, when the 7th dragon drawn from the pile has been placed; players trade
tokens only, in rounds of private offers and answers; then the game continues normally."""

from __future__ import annotations

import pytest

from ladder.games.base import Pending

OTHERS = ["D12", "D16", "D17"]
HOARDS = {0: ["gold", "gold", "red"], 1: ["blue", "blue", "silver"], 2: ["white", "green"], 3: ["purple"]}


def open_market(dg, drawn=6, hoards=None, players=4, **options):
    """Seat 0 kills D6 alone (hidden: 2 silver); D1 is drawn next with 2 gold as known treasure."""
    st = dg.arrange(dg.new(players, **options), dragons=[{"id": "D6", "attackers": [(0, "k4")]}, *OTHERS],
                    pile=["D1", "D2", "D3"], hoards=HOARDS if hoards is None else hoards, drawn=drawn,
                    bag=["silver", "silver", "gold", "gold", "yellow", "yellow", "yellow"],
                    hands={} if options.get("rules", "basic") != "basic" else None)
    dg.attack(st, "k3", "D6", seat=0)
    return st


def offer(st, seat, offers):
    assert st.pending() == Pending(seat, "market_offer")
    st.apply(seat, {"offers": offers})


def tid(st, seat, colour, n=1):
    return [t["id"] for t in st.observation(seat)["hoard"] if t["colour"] == colour][:n]


def test_the_market_opens_when_the_7th_drawn_dragon_has_been_placed(dg):
    st = open_market(dg)
    types = [e.type for e in st.events]
    assert types.index("dragon") < types.index("market_open")
    assert dg.colours(dg.slot(st, "D1").tokens) == {"gold": 2}  # placed with its known treasure first
    assert st.pending() == Pending(0, "market_offer") and st.observation(2)["market"] == "open"


def test_the_6th_drawn_dragon_opens_no_market(dg):
    st = open_market(dg, drawn=5)
    assert st.pending() == Pending(1, "attack") and not dg.events(st, "market_open")
    assert st.observation(0)["market"] == "closed-pending"


def test_in_a_real_game_the_market_follows_exactly_the_7th_dragon_drawn_from_the_pile(dg):
    for seed in (1, 2):
        st = dg.new(4, seed=seed)
        dg.run_bots(st, ["greedy", "random", "greedy", "random"], seed=seed)
        types = [e.type for e in st.events]
        if "market_open" not in types:
            continue
        opened = types.index("market_open")
        assert types[:opened].count("dragon") == 7 and types[opened - 1] == "dragon"
        assert types.count("market_open") == 1
        return
    pytest.fail("no market in these games")


def test_the_market_opens_only_once(dg):
    st = open_market(dg, market_rounds=1)
    for seat in range(4):
        offer(st, seat, [])
    assert st.observation(0)["market"] == "closed"
    dg.attack(st, "k4", "D12", seat=1)
    dg.attack(st, "k4", "D12", seat=2)  # 8 < 9
    dg.attack(st, "k3", "D12", seat=3)  # 11: kill, 8th dragon drawn
    dg.fail_negotiation(st)
    assert len(dg.events(st, "market_open")) == 1 and st.pending().kind == "attack"


def test_every_seat_is_asked_for_offers_in_seat_order(dg):
    st = open_market(dg)
    assert [offer(st, s, []) or s for s in range(4)] == [0, 1, 2, 3]


def test_a_round_without_any_offer_closes_the_market(dg):
    st = open_market(dg)
    for seat in range(4):
        offer(st, seat, [])
    assert dg.events(st, "market_close") and st.pending() == Pending(1, "attack")
    assert len(dg.events(st, "market_round")) == 1


@pytest.mark.parametrize("rounds", [1, 2, 4])
def test_the_market_lasts_market_rounds_rounds(dg, rounds):
    st = open_market(dg, market_rounds=rounds)
    asked = 0
    while st.pending().kind in ("market_offer", "market_answer"):
        if st.pending().kind == "market_offer":
            gift = [{"to": 1, "give": [], "want": {"silver": 1}}] if st.pending().seat == 0 else []
            st.apply(st.pending().seat, {"offers": gift})
            asked += 1
        else:
            st.apply(st.pending().seat, {"accept": []})
    assert asked == 4 * rounds and len(dg.events(st, "market_round")) == rounds
    assert st.market_state is None and st.observation(0)["market"] == "closed"


def test_an_accepted_offer_swaps_the_tokens(dg):
    st = open_market(dg)
    offer(st, 0, [{"to": 1, "give": tid(st, 0, "gold"), "want": {"blue": 2}}])
    for seat in (1, 2, 3):
        offer(st, seat, [])
    assert st.pending() == Pending(1, "market_answer")
    (shown,) = st.observation(1)["request"]["offers"]
    assert shown["from"] == 0 and shown["want"] == {"blue": 2} and [t["colour"] for t in shown["give"]] == ["gold"]
    st.apply(1, {"accept": [{"offer": shown["id"], "pay": tid(st, 1, "blue", 2)}]})
    assert dg.hoard(st, 0) == {"gold": 1, "red": 1, "silver": 2, "blue": 2}
    assert dg.hoard(st, 1) == {"gold": 1, "silver": 1}
    dg.check_tokens(st)


def test_an_offer_that_is_not_accepted_changes_nothing(dg):
    st = open_market(dg, market_rounds=1)
    before = [sorted(h) for h in st.hoards]
    offer(st, 0, [{"to": 1, "give": tid(st, 0, "gold"), "want": {"blue": 1}}])
    for seat in (1, 2, 3):
        offer(st, seat, [])
    st.apply(1, {"accept": []})
    assert [sorted(h) for h in st.hoards] == before


def test_a_gift_wants_nothing_back(dg):
    st = open_market(dg)
    offer(st, 0, [{"to": 3, "give": tid(st, 0, "red")}])
    for seat in (1, 2, 3):
        offer(st, seat, [])
    st.apply(3, {"accept": [{"offer": st.observation(3)["request"]["offers"][0]["id"], "pay": []}]})
    assert dg.hoard(st, 3) == {"purple": 1, "red": 1}


def test_an_offer_may_ask_without_giving(dg):
    st = open_market(dg)
    offer(st, 0, [{"to": 2, "want": {"white": 1}}])
    for seat in (1, 2, 3):
        offer(st, seat, [])
    st.apply(2, {"accept": [{"offer": st.observation(2)["request"]["offers"][0]["id"],
                             "pay": tid(st, 2, "white")}]})
    assert dg.hoard(st, 0)["white"] == 1 and dg.hoard(st, 2) == {"green": 1}


def test_up_to_three_offers_each_to_another_player(dg):
    st = open_market(dg)
    three = [{"to": s, "want": {"silver": 1}} for s in (1, 2, 3)]
    assert st.validate(0, {"offers": three}) is None
    assert "at most 3" in st.validate(0, {"offers": [*three, three[0]]})
    assert "another player's seat" in st.validate(0, {"offers": [{"to": 0, "want": {"silver": 1}}]})


def test_only_treasure_tokens_are_traded(dg):
    st = open_market(dg, rules="advanced-a")
    st.hands[0].append(st.magic_deck.pop())
    assert "not a token id" in st.validate(0, {"offers": [{"to": 1, "give": [f"m{st.hands[0][0]}"]}]})
    assert "not a colour" in st.validate(0, {"offers": [{"to": 1, "want": {"recall": 1}}]})


def test_a_red_token_bought_at_the_market_draws_no_magic_object_card(dg):
    st = open_market(dg, rules="advanced-a")
    offer(st, 0, [{"to": 1, "give": tid(st, 0, "red"), "want": {"silver": 1}}])
    for seat in (1, 2, 3):
        offer(st, seat, [])
    hands = [len(h) for h in st.hands]
    st.apply(1, {"accept": [{"offer": st.observation(1)["request"]["offers"][0]["id"], "pay": tid(st, 1, "silver")}]})
    assert dg.hoard(st, 1)["red"] == 1 and [len(h) for h in st.hands] == hands
    assert not dg.events(st, "card_drawn")


def test_offers_are_seen_only_by_their_two_parties(dg):
    st = open_market(dg)
    offer(st, 0, [{"to": 1, "give": tid(st, 0, "gold"), "want": {"blue": 1}}])
    for seat in (1, 2, 3):
        offer(st, seat, [])
    (event,) = dg.events(st, "offer")
    assert event.to == (0, 1)
    # the round is public, not how many offers it held: only the parties see an offer
    assert dg.events(st, "market_round")[0].data == {"round": 1} and dg.events(st, "market_round")[0].to is None
    assert "request" not in st.observation(2) and "offers" not in str(st.observation(2).get("market_round"))


def test_a_trade_is_public_only_as_its_size(dg):
    st = open_market(dg)
    offer(st, 0, [{"to": 1, "give": tid(st, 0, "gold", 2), "want": {"blue": 1}}])
    for seat in (1, 2, 3):
        offer(st, seat, [])
    st.apply(1, {"accept": [{"offer": st.observation(1)["request"]["offers"][0]["id"], "pay": tid(st, 1, "blue")}]})
    (public,) = dg.events(st, "trade")
    assert public.to is None and public.data == {"from": 0, "to": 1, "given": 2, "paid": 1}
    (private,) = dg.events(st, "trade_done")
    assert private.to == (0, 1) and [t["colour"] for t in private.data["pay"]] == ["blue"]


def test_hoards_stay_behind_the_screens_during_the_market(dg):
    st = open_market(dg)
    obs = st.observation(2)
    assert obs["hoard_sizes"] == [5, 3, 2, 1]
    assert "hoards" not in obs and [t["colour"] for t in obs["hoard"]] == ["green", "white"]


def test_offers_run_in_proposer_seat_order_and_a_stale_one_is_skipped(dg):
    st = open_market(dg)
    gold = tid(st, 0, "gold")
    offer(st, 0, [{"to": 2, "give": gold, "want": {"green": 1}}])
    offer(st, 1, [{"to": 0, "give": tid(st, 1, "silver"), "want": {"gold": 1}}])
    offer(st, 2, [])
    offer(st, 3, [])
    st.apply(0, {"accept": [{"offer": "o1.1.0", "pay": gold}]})  # seat 0 answers first...
    st.apply(2, {"accept": [{"offer": "o1.0.0", "pay": tid(st, 2, "green")}]})
    # ...but seat 0's own offer (proposer seat 0) runs first, so its gold has gone to seat 2
    assert dg.hoard(st, 2)["gold"] == 1 and dg.hoard(st, 0)["green"] == 1
    (skipped,) = dg.events(st, "trade_skipped")
    assert skipped.data == {"offer": "o1.1.0", "from": 1, "to": 0} and skipped.to == (1, 0)
    assert dg.hoard(st, 1)["silver"] == 1  # seat 1 kept its silver


def test_only_players_with_offers_addressed_to_them_answer(dg):
    st = open_market(dg)
    offer(st, 0, [{"to": 3, "want": {"purple": 1}}])
    offer(st, 1, [{"to": 3, "want": {"purple": 1}}])
    offer(st, 2, [])
    offer(st, 3, [])
    assert st.pending() == Pending(3, "market_answer")
    assert [o["id"] for o in st.observation(3)["request"]["offers"]] == ["o1.0.0", "o1.1.0"]
    st.apply(3, {"accept": []})
    assert st.pending() == Pending(0, "market_offer")  # round 2


def test_after_the_market_the_next_player_after_the_killer_plays(dg):
    st = open_market(dg)
    for seat in range(4):
        offer(st, seat, [])
    assert st.pending() == Pending(1, "attack") and dg.events(st, "market_close")
