"""Playing cards onto castles: banner order, face up or down by the pattern, within the limits."""

from __future__ import annotations

from games.dragonflame.helpers import fetch, give, new, play_out, set_banners

from ladder.games.dragonflame.rules.data import CARD_BY_ID


def test_cards_are_played_from_hand_onto_castles():
    state = new(3)
    set_banners(state, [1, 2, 3])
    card = state.hands[0][1]
    state.apply(0, {"card": card, "castle": 4})
    assert card not in state.hands[0] and state.castle(4).cards == [(card, True, 0)]
    assert state.events[-1].type == "play" and state.events[-1].data["card"]["id"] == card


def test_play_order_follows_banner_numbers():
    state = new(4)
    set_banners(state, [3, 1, 4, 2])
    seen = []
    while state.pending().kind == "play":
        seen.append(state.pending().seat)
        state.apply(seen[-1], state.default_decision())
    assert seen == [1, 3, 0, 2] * 3  # one card at a time, lowest banner first, until hands are empty


def test_cards_go_face_up_or_down_as_the_banner_pattern_says():
    state = new(4)
    set_banners(state, [1, 2, 3, 4])  # UUU, UUD, UDD, DDD
    faces = {s: [] for s in range(4)}
    while state.pending().kind == "play":
        seat = state.pending().seat
        want = state.observation(seat)["request"]["face"]
        state.apply(seat, state.default_decision())
        faces[seat].append("U" if state.events[-1].type == "play" and state.events[-1].data["face"] == "up"
                           else "D")
        assert faces[seat][-1] == want[0].upper()
    assert faces == {0: list("UUU"), 1: list("UUD"), 2: list("UDD"), 3: list("DDD")}


def test_two_player_green_patterns_cover_four_cards():
    state = new(2)
    set_banners(state, [2, 1])
    faces = {0: "", 1: ""}
    while state.pending().kind == "play":
        seat = state.pending().seat
        faces[seat] += state.observation(seat)["request"]["face"][0].upper()
        state.apply(seat, state.default_decision())
    assert faces == {1: "UUUD", 0: "UDDD"}


def test_playing_goes_on_until_every_hand_is_empty():
    state = new(5)
    play_out(state)
    assert all(h == [] for h in state.hands) and state.phase == "attack"
    assert sum(len(c.cards) for c in state.castles) == 15 and state.pending().kind == "attack"


def test_a_full_castle_takes_no_more_cards():
    state = new(3)
    set_banners(state, [1, 2, 3])
    castle = state.castle(1)
    castle.cards = [(fetch(state, "Knight"), True, 1) for _ in range(3)]  # castle 1 holds 3
    reason = state.validate(0, {"card": state.hands[0][0], "castle": 1})
    assert reason == "castle 1 is full: it holds 3 cards"
    assert 1 not in state.observation(0)["request"]["castles"]


def test_a_card_that_fits_no_castle_is_discarded_face_down():
    state = new(3)
    set_banners(state, [1, 2, 3])
    for castle in state.castles:
        castle.cards = [(state.deck.pop(), True, 1) for _ in range(castle.limit)]
    card = state.hands[0][0]
    assert state.observation(0)["request"]["castles"] == []
    assert state.validate(0, {"card": card, "castle": 1}) == "castle 1 is full: it holds 3 cards"
    state.apply(0, {"card": card, "castle": None})
    assert state.discard[-1] == card and state.events[-1].data == {"seat": 0, "castle": None, "face": "down"}


def test_a_discard_is_refused_while_a_castle_has_room():
    state = new(3)
    set_banners(state, [1, 2, 3])
    assert "only when no castle has room" in state.validate(0, {"card": state.hands[0][0], "castle": None})


def test_only_cards_in_hand_and_real_castles_can_be_played():
    state = new(3)
    set_banners(state, [1, 2, 3])
    other = state.hands[1][0]
    assert state.validate(0, {"card": other, "castle": 1}) == f"card {other!r} is not in your hand"
    assert state.validate(0, {"card": state.hands[0][0], "castle": 9}).startswith("there is no castle 9")
    assert state.validate(1, {"card": other, "castle": 1}).startswith("it is seat 0's decision")


def test_give_puts_named_cards_in_a_hand():
    state = new(3)
    hand = give(state, 0, ["Princess", "Knight", "Curse"])
    assert [CARD_BY_ID[c].name for c in hand] == ["Princess", "Knight", "Curse"]
