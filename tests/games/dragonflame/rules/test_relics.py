"""Relics: no points, kept in the hoard, each used as the edition says; end-of-game ones in banner order."""

from __future__ import annotations

from games.dragonflame.helpers import attack, clear_castles, fetch, new, put, set_banners, to_attacks

from ladder.games.dragonflame.rules import end
from ladder.games.dragonflame.rules.data import CARD_BY_ID


def at_attack(players=3):
    state = new(players)
    set_banners(state, list(range(1, players + 1)))
    to_attacks(state)
    clear_castles(state)
    return state


def test_relics_score_nothing_and_stay_in_the_hoard():
    state = at_attack()
    relics = put(state, 3, ["Spyglass", "Ring of Fire", "Lucky Chest"], by=1)
    attack(state, 3)
    assert all(r in state.hoards[0] for r in relics)
    row = state.breakdown()[0]
    assert row["total"] == row["banner"] + row["villages"] and row["chests"] == 0


def test_spyglass_lets_its_holder_look_at_one_castles_face_down_cards_before_attacking():
    state = new(3)
    set_banners(state, [2, 1, 3])
    state.hoards[0].append(fetch(state, "Spyglass"))
    to_attacks(state)
    clear_castles(state)
    hidden = put(state, 4, ["Knight", "Curse"], up=False, by=2)
    put(state, 4, ["Golden Ring"], up=True, by=2)
    attack(state, 1)  # seat 1 (banner 1) has no Spyglass: it just attacks
    assert state.pending().kind == "spy" and state.pending().seat == 0
    assert state.observation(0)["request"]["castles"] == [4]
    assert all("card" not in e for e in state.observation(0)["castles"][3]["cards"] if e["face"] == "down")
    state.apply(0, {"castle": 4})
    spied = next(e for e in state.events if e.type == "spied")
    assert spied.to == (0,) and [c["id"] for c in spied.data["cards"]] == hidden
    public = next(e for e in state.events if e.type == "spy")
    assert public.to is None and public.data == {"seat": 0, "castle": 4}
    seen = state.observation(0)["castles"][3]["cards"]
    assert [e["card"]["id"] for e in seen if e["face"] == "down"] == hidden
    assert all("card" not in e for e in state.observation(1)["castles"][3]["cards"] if e["face"] == "down")
    assert state.pending().kind == "attack" and state.spy_used[0]


def test_spyglass_may_be_left_unused_and_works_once_a_round():
    state = new(5)
    set_banners(state, [1, 2, 3, 4, 5])
    state.hoards[0] += [fetch(state, "Spyglass"), fetch(state, "Spyglass")]
    to_attacks(state)
    assert state.pending().kind == "spy"
    state.apply(0, {"castle": None})
    assert state.pending().kind == "attack" and state.spy_used[0]  # two Spyglasses: still one look


def test_a_look_is_only_at_a_castle_the_request_lists():
    # docs/rules.md, What the ladder fixed: a castle with nothing unseen is no look to take
    state = new(3)
    set_banners(state, [2, 1, 3])
    state.hoards[0].append(fetch(state, "Spyglass"))
    to_attacks(state)
    clear_castles(state)
    put(state, 4, ["Knight"], up=False, by=2)
    put(state, 2, ["Curse"], up=False, by=0)  # played by the holder itself: nothing unseen
    put(state, 3, ["Golden Ring"], up=True, by=2)  # face up only
    attack(state, 1)
    assert state.observation(0)["request"]["castles"] == [4]
    for castle in (2, 3):
        reason = state.validate(0, {"castle": castle})
        assert reason is not None and "no face-down card you have not seen" in reason and "[4]" in reason
    assert state.validate(0, {"castle": 4}) is None and state.validate(0, {"castle": None}) is None


def test_a_second_spyglass_adds_no_look_after_the_first():
    state = new(5)
    set_banners(state, [1, 2, 3, 4, 5])
    state.hoards[0] += [fetch(state, "Spyglass"), fetch(state, "Spyglass")]
    to_attacks(state)
    clear_castles(state)
    put(state, 3, ["Knight"], up=False, by=2)
    put(state, 4, ["Curse"], up=False, by=2)
    assert state.pending().kind == "spy" and state.observation(0)["request"]["castles"] == [3, 4]
    state.apply(0, {"castle": 3})
    assert state.pending().kind == "attack"  # castle 4 still unseen, yet no second look
    assert state.pending().seat == 0


def test_ring_of_fire_adds_one_token_to_each_dragonflame():
    state = at_attack()
    state.hoards[0].append(fetch(state, "Ring of Fire"))
    flame = fetch(state, "Dragonflame", fire=1)
    state.castle(2).cards.append((flame, True, 1))
    attack(state, 2)
    assert state.observation(0)["request"]["tokens"] == 2
    state.apply(0, {"side": "top", "index": 0})
    placed = next(e for e in state.events if e.type == "flame").data["placed"]
    assert len(placed) == 2


def test_a_ring_looted_with_the_flame_already_counts():
    state = at_attack()
    state.castle(2).cards += [(fetch(state, "Dragonflame", fire=2), True, 1), (fetch(state, "Ring of Fire"), True, 1)]
    attack(state, 2)
    assert state.flame_tokens(0, state.flames[0]) == 3


def test_knights_bane_discards_up_to_two_knights_at_the_end():
    state = new(3)
    state.hoards[0] += [fetch(state, "Knight's Bane")] + [fetch(state, "Knight") for _ in range(3)]
    end.finish(state)
    assert [CARD_BY_ID[c].name for c in state.hoards[0]] == ["Knight's Bane", "Knight"]
    assert state.breakdown()[0]["knights"] == -3


def test_curse_breaker_discards_the_curse_at_the_end():
    state = new(3)
    state.hoards[1] += [fetch(state, "Curse Breaker"), fetch(state, "Curse"), fetch(state, "Coffer of Gems")]
    end.finish(state)
    assert state.breakdown()[1]["curse"] == 0 and not any(CARD_BY_ID[c].name == "Curse" for c in state.hoards[1])


def test_lucky_chest_scores_a_second_chest_set():
    state = new(3)
    state.hoards[2] += [fetch(state, "Lucky Chest")] + [fetch(state, "Coffer of Gems") for _ in range(3)] + [
        fetch(state, "Casket of Pearls") for _ in range(2)] + [fetch(state, "Chest of Gold Coins")]
    assert state.breakdown()[2]["chests"] == 9 - 2 - 1
    end.finish(state)
    assert state.breakdown()[2]["chests"] == 9 + 4 - 1


def test_end_of_game_relics_resolve_in_banner_order():
    state = new(3)
    state.banners = [("red", 3), ("red", 1), ("red", 2)]
    for seat in range(3):
        state.hoards[seat].append(fetch(state, "Lucky Chest" if seat != 1 else "Knight's Bane"))
    end.finish(state)
    assert [e.data["seat"] for e in state.events if e.type == "relic"] == [1, 2, 0]
