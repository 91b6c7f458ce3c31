"""The end: once the bag is empty (or the pile is used up) dead dragons are not replaced and no hidden
treasure is drawn; the game ends with the last dragon; the retreat when nobody can play and the turn cap; the reveal."""

from __future__ import annotations

from ladder.games.base import Pending

OTHERS = ["D12", "D16", "D17"]


def test_once_the_bag_is_empty_a_dead_dragon_is_not_replaced(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "tokens": ["gold"], "attackers": [(0, "k4")]}, *OTHERS],
                    bag=[], pile=["D1", "D2"])
    dg.attack(st, "k3", "D6")
    assert st.table[0] is None and [d["id"] for d in st.pile] == ["D1", "D2"]
    assert st.observation(1)["request"]["dragons"] == OTHERS  # only the dragons already on the table
    assert not dg.events(st, "dragon")


def test_once_the_bag_is_empty_only_the_known_treasure_is_shared(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "tokens": ["gold", "silver"], "attackers": [(0, "k4")]},
                                        *OTHERS], bag=[])
    dg.attack(st, "k3", "D6")
    assert dg.hoard(st, 0) == {"gold": 1, "silver": 1}
    assert dg.events(st, "kill")[0].data["hidden"] == []


def test_a_short_bag_gives_only_what_is_left_of_the_hidden_treasure(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D16", "tokens": ["gold"], "attackers": [(0, "k4"), (0, "k3")]},
                                        "D9", "D12", "D17"], bag=["white", "blue"], pile=["D1"])
    dg.attack(st, "thief", "D16")  # 9 < 10
    dg.attack(st, "k4", "D9", seat=1)
    dg.attack(st, "k4", "D9", seat=2)  # 8: kill D9 (hidden 4) with two tokens in the bag
    assert len(dg.events(st, "kill")[0].data["hidden"]) == 2 and st.bag == []
    dg.fail_negotiation(st)
    assert st.table[1] is None and st.slot_of("D1") is None  # the bag ran dry on this kill: not replaced


def test_a_new_dragon_gets_what_is_left_when_the_bag_runs_short(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "attackers": [(0, "k4")]}, *OTHERS],
                    bag=["silver", "silver", "gold"], pile=["D14", "D1"])
    dg.attack(st, "k3", "D6")  # hidden 2 silver; D14 wants 8 known, gets the last gold
    assert dg.colours(dg.slot(st, "D14").tokens) == {"gold": 1} and st.bag == []


def test_the_game_ends_when_the_last_dragon_is_dead_and_its_treasure_divided(dg):
    st = dg.arrange(dg.new(3), dragons=[None, {"id": "D6", "tokens": ["gold"], "attackers": [(0, "k4"), (1, "k4")]},
                                        None, None], bag=[], pile=["D1", "D2"])
    assert st.pending() == Pending(0, "attack")
    dg.attack(st, "wizard", "D6")  # 9 >= 7
    assert st.pending().kind == "propose"  # not over before the treasure is divided
    dg.agree(st, {1: dg.ids(dg.slot(st, "D6").tokens)})
    assert st.pending() is None and st.is_terminal()
    assert st.end_reason == "bag_empty" and dg.events(st, "game_over")[0].data["reason"] == "bag_empty"


def test_the_game_goes_on_while_a_dragon_is_alive_after_the_bag_empties(dg):
    st = dg.arrange(dg.new(3), dragons=[{"id": "D6", "attackers": [(0, "k4")]}, "D17", None, None], bag=[])
    dg.attack(st, "k3", "D6")
    assert st.pending() == Pending(1, "attack") and st.observation(1)["request"]["dragons"] == ["D17"]


def test_the_game_ends_when_the_pile_is_used_up_and_the_last_dragon_dies(dg):
    st = dg.arrange(dg.new(3), dragons=[{"id": "D6", "attackers": [(0, "k4")]}, None, None, None], pile=[])
    assert st.bag
    dg.attack(st, "k3", "D6")
    assert st.pending() is None and st.end_reason == "pile_empty"


def test_a_kill_with_an_empty_pile_is_not_replaced(dg):
    st = dg.arrange(dg.new(3), dragons=[{"id": "D6", "attackers": [(0, "k4")]}, *OTHERS], pile=[])
    dg.attack(st, "k3", "D6")
    assert st.table[0] is None and st.pending() == Pending(1, "attack")


DEADLOCK = [
    {"id": "D17", "tokens": ["gold"], "attackers": [(0, "k4"), (1, "k4")]},  # 8 < 11
    {"id": "D18", "tokens": ["silver", "blue"], "attackers": [(2, "k4"), (0, "k3")]},  # 7 < 11
    {"id": "D15", "attackers": [(1, "k3"), (2, "k3"), (0, "thief")]},  # 8 < 10
    {"id": "D16", "tokens": ["red"], "attackers": [(1, "thief"), (2, "thief"), (0, "wizard"), (1, "wizard"),
                                                   (2, "wizard")]},  # 7 < 10
]


def test_when_every_player_loses_a_turn_in_one_round_the_fights_are_broken_off(dg):
    st = dg.arrange(dg.new(3), dragons=DEADLOCK)
    assert [e.data["seat"] for e in dg.events(st, "turn_lost")] == [0, 1, 2]
    (retreat,) = dg.events(st, "retreat")
    assert retreat.to is None and len(retreat.data["adventurers"]) == 12
    assert {"seat": 0, "adventurer": "k4", "dragon": "D17"} in retreat.data["adventurers"]
    assert all(s.attackers == [] for s in st.table if s)
    assert all(a.up and a.dragon is None for advs in st.advs for a in advs.values())  # home, face up
    assert st.pending() == Pending(0, "attack") and st.end_reason is None  # the game goes on


def test_after_the_retreat_the_dragons_keep_their_treasure_and_nothing_is_lost(dg):
    st = dg.arrange(dg.new(3), dragons=DEADLOCK)
    assert [dg.colours(s.tokens) for s in st.table] == [{"gold": 1}, {"silver": 1, "blue": 1}, {}, {"red": 1}]
    assert st.box == [] and st.hoards == [[], [], []]
    dg.check_tokens(st)


def test_a_new_fight_after_the_retreat_starts_the_placement_order_afresh(dg):
    st = dg.arrange(dg.new(3, split="strategic"), dragons=DEADLOCK)
    dg.attack(st, "k4", "D15", seat=0)
    slot = st.table[st.slot_of("D15")]
    assert slot.first_placed == [0] and [s for s, _, _ in slot.attackers] == [0]


def test_fewer_lost_turns_than_players_do_not_end_the_game(dg):
    dragons = [dict(d) for d in DEADLOCK]
    dragons[3] = {"id": "D16", "attackers": [(1, "thief"), (2, "thief"), (1, "wizard"), (2, "wizard")]}
    st = dg.arrange(dg.new(3), dragons=dragons, current=1)  # seat 0's wizard is free
    assert [e.data["seat"] for e in dg.events(st, "turn_lost")] == [1, 2]
    assert st.pending() == Pending(0, "attack")


def test_the_turn_cap_ends_the_game_after_1000_turns(dg):
    st = dg.arrange(dg.new(3), dragons=["D17", "D18", "D15", "D16"], turn=998)
    dg.attack(st, "wizard", "D17")
    dg.attack(st, "wizard", "D17")  # turn 1000
    assert st.pending() is None and st.end_reason == "turn_cap"
    assert st.turn == 1000 and all(s.tokens == [] for s in st.table if s)
    dg.check_tokens(st)


def test_at_the_end_every_screen_is_revealed_and_scored(dg):
    st = dg.arrange(dg.new(3), dragons=[{"id": "D6", "attackers": [(0, "k4")]}, None, None, None], pile=[],
                    hoards={1: ["gold", "blue"], 2: ["white"]})
    assert "hoards" not in st.observation(0)
    dg.attack(st, "k3", "D6")
    for seat in range(3):
        obs = st.observation(seat)
        assert [dg.colours(h) for h in obs["hoards"]] == [dg.hoard(st, s) for s in range(3)]
        assert obs["scores"] == st.scores() and obs["phase"] == "over"
    (over,) = dg.events(st, "game_over")
    assert over.to is None and over.data["scores"] == st.scores() and over.data["ranks"] == st.ranks()
    assert [dg.colours(h) for h in over.data["hoards"]] == [dg.hoard(st, s) for s in range(3)]


def test_random_games_end_by_the_bag_or_the_pile(dg):
    for seed in range(3):
        st = dg.new(4, seed=seed)
        dg.run_bots(st, ["random", "greedy", "random", "greedy"], seed=seed)
        assert st.end_reason in ("bag_empty", "pile_empty", "turn_cap")
        assert all(s is None for s in st.table) or st.end_reason == "turn_cap"
        dg.check_tokens(st)


def test_a_sweep_game_that_used_to_deadlock_plays_on_to_the_empty_bag():
    """Sweep seed 902769 (3 players, advanced-b) ended in a deadlock with 105 of 126 tokens still in
    the bag before issue 10; now its adventurers retreat once and the game ends the printed way."""
    from games.drachengold.sweep import play_checked

    st = play_checked("advanced-b", "negotiation", 3, 902769, check_hidden=False)
    assert [e.type for e in st.events].count("retreat") == 1
    assert st.end_reason == "bag_empty" and st.bag == []
