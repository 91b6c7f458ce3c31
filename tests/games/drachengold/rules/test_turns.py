"""A turn: the refresh, losing a turn, sending one adventurer, the kill check, and what follows a kill."""

from __future__ import annotations

from ladder.games.base import Pending

TABLE = ["D9", "D12", "D16", "D17"]  # strengths 8, 9, 10, 11: no single adventurer kills


def test_players_take_turns_clockwise(dg):
    st = dg.arrange(dg.new(4), dragons=TABLE)
    seats = [dg.attack(st, "wizard" if i < 4 else "thief", TABLE[i % 4]) for i in range(6)]
    assert seats == [0, 1, 2, 3, 0, 1]


def test_each_turn_sends_exactly_one_adventurer(dg):
    st = dg.arrange(dg.new(3), dragons=TABLE)
    dg.attack(st, "k3", "D17")
    assert st.pending() == Pending(1, "attack")
    assert [a for a, adv in st.advs[0].items() if adv.dragon] == ["k3"]


def test_only_face_up_adventurers_in_front_of_the_player_can_be_sent(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D17", "attackers": [(0, "k4")]}, "D9", "D12", "D16"],
                    down={0: ["k3"]})
    assert st.observation(0)["request"]["adventurers"] == ["thief", "wizard"]
    assert "not one of your face-up adventurers" in st.validate(0, {"adventurer": "k3", "dragon": "D9"})
    assert st.validate(0, {"adventurer": "k4", "dragon": "D9"}) is not None  # already attacking
    assert st.validate(0, {"adventurer": "thief", "dragon": "D9"}) is None


def test_any_face_up_dragon_may_be_attacked_whoever_already_attacks_it(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D17", "attackers": [(0, "k4"), (2, "k3")]}, "D9", "D12", "D16"])
    assert st.observation(0)["request"]["dragons"] == ["D17", "D9", "D12", "D16"]
    dg.attack(st, "wizard", "D17", seat=0)  # same colour already there: allowed
    assert [(s, a) for s, a, _ in dg.slot(st, "D17").attackers] == [(0, "k4"), (2, "k3"), (0, "wizard")]


def test_a_dragon_not_face_up_cannot_be_attacked(dg):
    st = dg.arrange(dg.new(4), dragons=TABLE, pile=["D1", "D2"])
    assert "not on the table" in st.validate(0, {"adventurer": "k4", "dragon": "D1"})


def test_attackers_are_visible_to_everyone_with_colour_and_attack(dg):
    st = dg.arrange(dg.new(4), dragons=TABLE)
    dg.attack(st, "k3", "D16")
    dg.attack(st, "thief", "D16")
    for seat in range(4):
        d = next(d for d in st.observation(seat)["dragons"] if d["id"] == "D16")
        assert d["attackers"] == [{"seat": 0, "adventurer": "k3", "attack": 3},
                                  {"seat": 1, "adventurer": "thief", "attack": 2}]
        assert d["total"] == 5 and d["strength"] == 10


def test_a_total_below_the_strength_does_nothing_and_the_next_player_plays(dg):
    st = dg.arrange(dg.new(4), dragons=TABLE)
    before = list(dg.slot(st, "D9").tokens)
    dg.attack(st, "k4", "D9")
    dg.attack(st, "k3", "D9")  # 7 < 8
    assert st.slot_of("D9") is not None and dg.slot(st, "D9").tokens == before
    assert st.pending() == Pending(2, "attack") and not dg.events(st, "kill")


def test_a_total_equal_to_the_strength_kills(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D9", "attackers": [(1, "k4"), (2, "thief")]}, "D12", "D16", "D17"])
    dg.attack(st, "thief", "D9")  # 4 + 2 + 2 = 8
    assert dg.events(st, "kill")[0].data["dragon"] == "D9"


def test_a_total_above_the_strength_kills(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D9", "attackers": [(1, "k4"), (2, "k3")]}, "D12", "D16", "D17"])
    dg.attack(st, "k4", "D9", seat=0)  # 4 + 3 + 4 = 11 > 8
    assert [e.data["dragon"] for e in dg.events(st, "kill")] == ["D9"]


def test_one_plus_two_plus_three_beats_six(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D3", "attackers": [(1, "wizard"), (2, "thief")]}, "D12", "D16",
                                        "D17"])
    dg.attack(st, "k3", "D3")
    assert dg.events(st, "kill")[0].data["dragon"] == "D3"


def test_the_sum_counts_every_adventurer_on_that_dragon_only(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D9", "attackers": [(1, "k4")]},
                                        {"id": "D12", "attackers": [(2, "k4"), (3, "k4")]}, "D16", "D17"])
    dg.attack(st, "k3", "D9")  # 7 on D9: the 8 on D12 does not help
    assert not dg.events(st, "kill")
    assert dg.events(st, "attack")[0].data["total"] == 7


def test_when_no_adventurer_is_face_up_all_face_down_ones_turn_face_up(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D17", "attackers": [(0, "k4")]}, "D9", "D12", "D16"],
                    down={0: ["k3", "thief", "wizard"]})
    assert st.observation(0)["request"]["adventurers"] == ["k3", "thief", "wizard"]
    assert dg.events(st, "refresh")[0].data == {"seat": 0, "adventurers": ["k3", "thief", "wizard"]}
    assert st.advs[0]["k4"].dragon == "D17"  # the attacker stays on its dragon


def test_no_refresh_while_one_adventurer_is_still_face_up(dg):
    st = dg.arrange(dg.new(4), dragons=TABLE, down={0: ["k4", "k3", "thief"]})
    assert st.observation(0)["request"]["adventurers"] == ["wizard"]
    assert not dg.events(st, "refresh")
    assert [a["face"] for a in st.observation(1)["adventurers"][0]] == ["down", "down", "down", "up"]


def test_the_refresh_happens_at_the_beginning_of_that_players_turn_only(dg):
    st = dg.arrange(dg.new(4), dragons=TABLE, down={1: ["k4", "k3", "thief", "wizard"]})
    assert all(not a.up for a in st.advs[1].values())  # seat 0's turn: seat 1 still face down
    dg.attack(st, "k4", "D17")
    assert st.pending() == Pending(1, "attack") and all(a.up for a in st.advs[1].values())


def test_a_player_whose_adventurers_all_attack_loses_the_turn(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D17", "attackers": [(0, "k4"), (0, "k3")]},
                                        {"id": "D16", "attackers": [(0, "thief"), (0, "wizard")]}, "D9", "D12"])
    assert st.pending() == Pending(1, "attack")
    assert dg.events(st, "turn_lost")[0].data["seat"] == 0


def test_after_a_kill_the_adventurers_go_back_face_down_to_their_owners(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D9", "tokens": ["gold"], "attackers": [(0, "k4"), (1, "wizard")]},
                                        "D12", "D16", "D17"])
    dg.attack(st, "k3", "D9", seat=0)  # 4 + 1 + 3 = 8
    dg.fail_negotiation(st)
    for seat, adv in ((0, "k4"), (0, "k3"), (1, "wizard")):
        assert st.advs[seat][adv].dragon is None and not st.advs[seat][adv].up
    assert [a["face"] for a in st.observation(2)["adventurers"][0]] == ["down", "down", "up", "up"]
    assert [a["face"] for a in st.observation(2)["adventurers"][1]] == ["up", "up", "up", "down"]


def test_after_a_kill_the_dragon_leaves_the_game_and_the_top_of_the_pile_replaces_it(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "attackers": [(0, "k4")]}, "D12", "D16", "D17"],
                    pile=["D5", "D1", "D2"])
    dg.attack(st, "k3", "D6")  # 7: solo kill
    assert [s.dragon["id"] for s in st.table] == ["D5", "D12", "D16", "D17"]
    assert st.dead[-1] == "D6" and [d["id"] for d in st.pile] == ["D1", "D2"]
    assert st.observation(1)["dead"][-1] == "D6" and st.observation(1)["pile"] == 2


def test_the_new_dragon_gets_its_known_treasure_when_it_is_placed(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "attackers": [(0, "k4")]}, "D12", "D16", "D17"],
                    pile=["D14", "D1"])
    bag = len(st.bag)
    dg.attack(st, "k3", "D6")
    assert len(dg.slot(st, "D14").tokens) == 8
    assert len(st.bag) == bag - 2 - 8  # D6's hidden 2, then D14's known 8
    assert dg.events(st, "dragon")[0].data["id"] == "D14"


def test_four_dragons_stay_face_up_while_the_pile_lasts(dg):
    st = dg.new(4, seed=4)
    st.pile = st.pile[:3]  # a short pile, so the game runs it out
    dg.run_bots(st, ["greedy"] * 4)
    kills = [e.data["dragon"] for e in st.events if e.type == "kill"]
    placed = [e.data["id"] for e in st.events if e.type == "dragon"]
    assert len(placed) == 3 and len(kills) == 7
    # Each of the first three kills was followed by a new dragon before anything else was attacked.
    types = [e.type for e in st.events if e.type in ("kill", "dragon", "attack")]
    for i in range(3):
        k = [j for j, t in enumerate(types) if t == "kill"][i]
        assert "dragon" in types[k + 1 : types.index("attack", k + 1) if "attack" in types[k + 1 :] else None]


def test_the_next_player_after_the_killer_plays_next(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D9", "attackers": [(0, "k4")]}, "D12", "D16", "D17"], current=2)
    dg.attack(st, "k4", "D9", seat=2)
    dg.agree(st, {0: [t["id"] for t in st.negotiation["tokens"]]})
    assert st.pending() == Pending(3, "attack")


def test_a_turn_event_announces_whose_turn_it_is(dg):
    st = dg.arrange(dg.new(3), dragons=TABLE, current=1, turn=5)
    assert [e.data for e in dg.events(st, "turn")] == [{"seat": 1, "turn": 6}]
    assert st.observation(0)["current"] == 1
