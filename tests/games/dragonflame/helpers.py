"""Helpers for DragonFlame tests: real games from a seed, then cards moved where a test needs them.

Cards are only ever moved, never made: `fetch` takes a card of a given name out of the deck (or
the box) so every test state still holds each card of the game exactly once.
"""

from __future__ import annotations

from ladder.games.dragonflame import DragonFlame, DragonFlameState
from ladder.games.dragonflame.rules.data import CARD_BY_ID

GAME = DragonFlame()


def new(players: int = 3, seed: int = 1) -> DragonFlameState:
    return GAME.new_state(None, seed, players)


def fetch(state: DragonFlameState, name: str, **attrs) -> str:
    """A card of this name (and e.g. fire=2) taken out of the deck."""
    for cid in reversed(state.deck):
        card = CARD_BY_ID[cid]
        if card.name == name and all(getattr(card, k) == v for k, v in attrs.items()):
            state.deck.remove(cid)
            return cid
    raise AssertionError(f"no {name} {attrs} left in the deck")


def give(state: DragonFlameState, seat: int, names: list[str]) -> list[str]:
    """Replace `seat`'s hand by cards of these names (the old hand goes back into the deck)."""
    state.deck[:0] = state.hands[seat]
    state.hands[seat] = [fetch(state, name) for name in names]
    return list(state.hands[seat])


def set_banners(state: DragonFlameState, numbers: list[int]) -> None:
    """At the very start of a round: seat s holds banner numbers[s] (same colour as before)."""
    colour = state.banners[0][0]
    state.banners = [(colour, n) for n in numbers]
    if state.set_aside is not None:  # the banner nobody holds waits beside the table
        state.set_aside = (colour, min(set(range(1, state.num_players + 2)) - set(numbers)))
    state.order = sorted(range(state.num_players), key=lambda s: numbers[s])
    state.turn = 0
    state._pending = type(state._pending)(state.order[0], "play")


def put(state: DragonFlameState, number: int, names: list[str], up: bool = True, by: int = 0) -> list[str]:
    """Cards of these names onto castle `number` (straight from the deck)."""
    castle = state.castle(number)
    ids = [fetch(state, name) for name in names]
    castle.cards += [(cid, up, by) for cid in ids]
    return ids


def play_out(state: DragonFlameState) -> None:
    """Every remaining play of the round by default decisions (first card, lowest castle)."""
    while state.pending() is not None and state.pending().kind == "play":
        state.apply(state.pending().seat, state.default_decision())


def to_attacks(state: DragonFlameState) -> None:
    """Play the round's cards on the castles with the most room, so no card lands where a test
    puts its own, then stop at the first attack; tests then arrange the castles."""
    while state.pending().kind == "play":
        seat = state.pending().seat
        roomiest = max(state.castles, key=lambda c: (c.limit - len(c.cards), c.number))
        state.apply(seat, {"card": state.hands[seat][0], "castle": roomiest.number})


def clear_castles(state: DragonFlameState) -> None:
    """Back into the deck with every card on the castles (to lay out a position from scratch)."""
    for castle in state.castles:
        state.deck[:0] = [cid for cid, _up, _by in castle.cards]
        castle.cards = []


def attack(state: DragonFlameState, number: int) -> int:
    seat = state.pending().seat
    if state.pending().kind == "spy":
        state.apply(seat, {"castle": None})
    state.apply(seat, {"castle": number})
    return seat


def all_cards(state: DragonFlameState) -> list[str]:
    return sorted(state.cards_accounted(), key=lambda c: int(c[1:]))


def treasure_castle_position(state: DragonFlameState) -> None:
    """Seat 0 attacks first (3 players); castle 2 holds a Golden Ring and the Dragon Crown, castles
    1 and 3 Knights and a Curse, castle 4 a face-down card of seat 2: castle 2 is clearly best."""
    set_banners(state, [1, 2, 3])
    to_attacks(state)
    clear_castles(state)
    put(state, 1, ["Knight", "Knight"], by=1)
    put(state, 2, ["Golden Ring", "Dragon Crown"], by=1)
    put(state, 3, ["Curse"], by=1)
    put(state, 4, ["Copper Bracelet"], up=False, by=2)


def village_to_finish_position(state: DragonFlameState) -> None:
    """Seat 0 (3 players) has looted a 1-fire Dragonflame; Greymoor (row 2, column 0) has one
    space left and seat 0 leads it: burning left row 2 or bottom column 0 destroys it."""
    from ladder.games.dragonflame.rules.village import Cell, Grid

    set_banners(state, [1, 2, 3])
    to_attacks(state)
    clear_castles(state)
    state.grid = Grid(3, 3, [Cell(n, s) for n, s in [("Ashton", 3), ("Brightwater", 4), ("Dunmore", 5),
                                                      ("Elmstead", 3), ("Field", 0), ("Fernhill", 4),
                                                      ("Greymoor", 5), ("Kindleton", 4), ("Field", 0)]])
    state.grid.cell(2, 0).fire = [0, 0, 0, 1]
    state.castle(2).cards.append((fetch(state, "Dragonflame", fire=1), True, 1))
    attack(state, 2)
