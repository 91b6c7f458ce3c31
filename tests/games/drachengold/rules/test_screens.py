"""The treasure screens: a player sees its own hoard; the others see only how many tokens it holds."""

from __future__ import annotations

from ladder.games.drachengold.rules.data import token_id

TABLE = ["D9", "D12", "D16", "D17"]


def test_a_players_own_hoard_is_shown_to_it(dg):
    st = dg.arrange(dg.new(4), dragons=TABLE, hoards={2: ["black", "gold", "white"]})
    assert sorted(t["colour"] for t in st.observation(2)["hoard"]) == ["black", "gold", "white"]


def test_other_players_see_only_the_size_of_a_hoard(dg):
    st = dg.arrange(dg.new(4), dragons=TABLE, hoards={2: ["black", "gold", "white"]})
    secret = [token_id(t) for t in st.hoards[2]]
    for seat in (0, 1, 3):
        obs = st.observation(seat)
        assert obs["hoard_sizes"] == [0, 0, 3, 0] and obs["hoard"] == []
        text = str(obs)
        assert "black" not in text and not any(f"'{t}'" in text for t in secret)


def test_a_solo_killer_hides_the_treasure_behind_its_screen(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "tokens": ["gold"], "attackers": [(0, "k4")]}, *TABLE[1:]],
                    bag=["white", "blue", "silver"])
    dg.attack(st, "k3", "D6")
    assert dg.colours(st.observation(0)["hoard"]) == {"gold": 1, "white": 1, "blue": 1}
    assert st.observation(1)["hoard"] == [] and st.observation(1)["hoard_sizes"][0] == 3
    assert all(s is None or s.dragon["id"] != "D6" for s in st.table)
