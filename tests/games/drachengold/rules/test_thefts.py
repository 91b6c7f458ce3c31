"""Thieves: after the split (agreed or not), each thief's owner takes one token from another involved
player's screen, at random, or chosen when the same owner's wizard fought too; in the thieves' play order."""

from __future__ import annotations

from ladder.games.base import Pending
from ladder.games.drachengold.rules.data import TOKEN_COLOURS, token_id

OTHERS = ["D12", "D16", "D17"]
LOOT = ["gold", "gold", "silver"]


def kill(dg, attackers, last, hoards=None, players=4, seed=1, **options):
    """D15: strength 10, no hidden treasure. `last` = (seat, adventurer) that strikes the killing blow."""
    st = dg.arrange(dg.new(players, seed=seed, **options),
                    dragons=[{"id": "D15", "tokens": LOOT, "attackers": attackers}, *OTHERS],
                    hoards=hoards or {}, current=last[0],
                    hands={} if options.get("rules", "basic") != "basic" else None)
    dg.attack(st, last[1], "D15", seat=last[0])
    return st


def test_a_thief_takes_a_random_token_from_another_involved_players_screen(dg):
    st = kill(dg, [(1, "k4"), (1, "wizard"), (2, "k3")], (0, "thief"), hoards={1: ["blue", "white"]})
    dg.fail_negotiation(st)
    assert st.pending() == Pending(0, "theft_victim")
    assert st.observation(0)["request"] == {"kind": "theft_victim", "candidates": [1],
                                            "hoard_sizes": {"1": 2}, "chosen": False}
    dg.act(st, "theft_victim", victim=1)
    assert len(st.hoards[0]) == 1 and len(st.hoards[1]) == 1
    assert dg.hoard(st, 0) + dg.hoard(st, 1) == {"blue": 1, "white": 1}
    assert st.pending() == Pending(1, "attack")


def test_the_random_token_comes_from_the_games_rng(dg):
    stolen = set()
    for seed in range(12):
        st = kill(dg, [(1, "k4"), (1, "wizard"), (2, "k3")], (0, "thief"), seed=seed,
                  hoards={1: ["blue", "white", "gold", "silver"]})
        dg.fail_negotiation(st)
        dg.act(st, "theft_victim", victim=1)
        stolen.add(TOKEN_COLOURS[st.hoards[0][0]])
    assert len(stolen) >= 3


def test_only_other_involved_players_holding_a_token_can_be_robbed(dg):
    st = kill(dg, [(1, "k4"), (1, "wizard"), (2, "k3")], (0, "thief"),
              hoards={0: ["gold"], 2: [], 3: ["gold", "gold"], 1: ["silver"]})
    dg.fail_negotiation(st)
    candidates = st.observation(0)["request"]["candidates"]
    assert candidates == [1]  # not itself, not seat 3 (not in the fight), not seat 2 (empty screen)
    assert "victim must be one of [1]" in st.validate(0, {"victim": 3})
    assert st.validate(0, {"victim": 0}) is not None and st.validate(0, {"victim": 2}) is not None


def test_the_victims_hoard_is_counted_after_the_split(dg):
    st = kill(dg, [(1, "k4"), (1, "wizard"), (2, "k3")], (0, "thief"))
    loot = [t["id"] for t in st.negotiation["tokens"]]
    dg.agree(st, {2: loot})
    assert st.observation(0)["request"]["candidates"] == [2]
    dg.act(st, "theft_victim", victim=2)
    assert len(st.hoards[0]) == 1 and len(st.hoards[2]) == 2


def test_the_whole_screen_can_be_robbed_not_only_this_dragons_share(dg):
    st = kill(dg, [(1, "k4"), (1, "wizard"), (2, "k3")], (0, "thief"), hoards={1: ["black"]})
    dg.fail_negotiation(st)
    dg.act(st, "theft_victim", victim=1)
    assert dg.hoard(st, 0) == {"black": 1}


def test_no_victim_no_theft_and_no_question(dg):
    st = kill(dg, [(1, "k4"), (1, "wizard"), (2, "k3")], (0, "thief"))
    dg.fail_negotiation(st)
    assert st.pending() == Pending(1, "attack")
    assert dg.events(st, "theft_skipped")[0].data == {"seat": 0, "dragon": "D15"}


def test_a_thief_in_a_solo_kill_has_nobody_to_rob(dg):
    st = kill(dg, [(0, "k4"), (0, "k3"), (0, "wizard")], (0, "thief"), hoards={1: ["gold"], 3: ["gold"]})
    assert st.pending() == Pending(1, "attack") and len(st.hoards[0]) == 3 and len(st.hoards[1]) == 1


def test_several_thieves_steal_in_the_order_they_were_played(dg):
    st = kill(dg, [(2, "thief"), (1, "k4"), (1, "k3")], (0, "thief"), hoards={1: ["gold"], 2: ["white"],
                                                                                  0: ["blue"]})
    dg.fail_negotiation(st)
    assert st.pending() == Pending(2, "theft_victim")  # seat 2's thief came first
    assert st.observation(2)["request"]["candidates"] == [0, 1]
    dg.act(st, "theft_victim", victim=0)
    assert dg.hoard(st, 2) == {"white": 1, "blue": 1}
    assert st.pending() == Pending(0, "theft_victim")
    assert st.observation(0)["request"]["candidates"] == [1, 2]  # seat 0's screen is empty now: it may still rob
    dg.act(st, "theft_victim", victim=2)
    assert len(st.hoards[0]) == 1 and len(st.hoards[2]) == 1


def test_thefts_happen_after_the_negotiation_whatever_its_outcome(dg):
    for agreed in (True, False):
        st = kill(dg, [(1, "k4"), (1, "wizard"), (2, "k3")], (0, "thief"), hoards={1: ["white"]})
        assert st.pending().kind == "propose"
        if agreed:
            dg.agree(st, {1: [t["id"] for t in st.negotiation["tokens"]]})
        else:
            dg.fail_negotiation(st)
        assert st.pending() == Pending(0, "theft_victim")
        types = [e.type for e in st.events]
        assert ("split" if agreed else "split_failed") in types and "theft" not in types
        dg.act(st, "theft_victim", victim=1)
        assert len(st.hoards[0]) == 1


def test_a_thief_helped_by_its_own_wizard_looks_and_chooses(dg):
    st = kill(dg, [(1, "k4"), (0, "wizard"), (2, "k3")], (0, "thief"),
              hoards={1: ["silver", "silver", "black", "gold"]})
    dg.fail_negotiation(st)
    assert st.observation(0)["request"]["chosen"] is True
    dg.act(st, "theft_victim", victim=1)
    request = st.observation(0)["request"]
    assert request["kind"] == "theft_pick" and request["victim"] == 1
    assert sorted(t["colour"] for t in request["hoard"]) == ["black", "gold", "silver", "silver"]
    black = next(t["id"] for t in request["hoard"] if t["colour"] == "black")
    dg.act(st, "theft_pick", token=black)
    assert dg.hoard(st, 0) == {"black": 1} and "black" not in dg.hoard(st, 1)
    assert dg.events(st, "theft")[0].data == {"seat": 0, "victim": 1, "chosen": True}


def test_another_players_wizard_does_not_help_the_thief(dg):
    st = kill(dg, [(1, "k4"), (1, "wizard"), (2, "k3")], (0, "thief"), hoards={1: ["silver", "black"]})
    dg.fail_negotiation(st)
    assert st.observation(0)["request"]["chosen"] is False
    dg.act(st, "theft_victim", victim=1)
    assert st.pending().kind != "theft_pick"
    assert dg.events(st, "theft")[0].data["chosen"] is False


def test_the_theft_is_public_but_the_random_token_is_known_to_thief_and_victim_only(dg):
    st = kill(dg, [(1, "k4"), (1, "wizard"), (2, "k3")], (0, "thief"), hoards={1: ["white"]})
    dg.fail_negotiation(st)
    dg.act(st, "theft_victim", victim=1)
    (theft,) = dg.events(st, "theft")
    (stolen,) = dg.events(st, "stolen")
    assert theft.to is None and "token" not in theft.data
    assert stolen.to == (0, 1) and stolen.data["colour"] == "white"
    assert stolen.data["token"] == token_id(st.hoards[0][0])


def test_the_default_victim_is_the_first_candidate(dg):
    st = kill(dg, [(1, "k4"), (1, "wizard"), (2, "k3")], (0, "thief"), hoards={1: ["white"], 2: ["gold"]})
    dg.fail_negotiation(st)
    assert st.default_decision() == {"victim": 1}


def test_thefts_come_before_the_adventurers_go_home(dg):
    st = kill(dg, [(1, "k4"), (1, "wizard"), (2, "k3")], (0, "thief"), hoards={1: ["white"]})
    dg.fail_negotiation(st)
    assert st.advs[0]["thief"].dragon == "D15"
    dg.act(st, "theft_victim", victim=1)
    assert st.advs[0]["thief"].dragon is None and not st.advs[0]["thief"].up


def test_advanced_a_stolen_red_token_draws_no_card(dg):
    st = kill(dg, [(1, "k4"), (0, "wizard"), (2, "k3")], (0, "thief"), hoards={1: ["red"]}, rules="advanced-a")
    dg.fail_negotiation(st)
    dg.act(st, "theft_victim", victim=1)
    dg.act(st, "theft_pick", token=token_id(st.hoards[1][0]))
    assert dg.hoard(st, 0) == {"red": 1} and st.hands[0] == []
    assert not dg.events(st, "card_drawn")
