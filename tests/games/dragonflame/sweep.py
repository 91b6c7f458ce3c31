"""Seeded DragonFlame games with every invariant checked after every decision.

`play_checked` raises AssertionError naming the seed on the first broken invariant: every card in
exactly one place, every fire token in a supply or on a village, scores equal to their breakdown,
no observation or event showing a card its seat may not know.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from bots.dragonflame.looter import LooterBot
from bots.dragonflame.random import RandomBot
from ladder.games.dragonflame import DragonFlame
from ladder.games.dragonflame.rules.data import CARD_BY_ID, FIRE_PER_PLAYER

GAME = DragonFlame()
ALL_CARDS = sorted(CARD_BY_ID, key=lambda c: int(c[1:]))
CARD_ID = re.compile(r"^c\d+$")
PRIVATE = {"hand", "spied"}  # events only their own seat may see


def sweep_games() -> int:
    """Games per table size. Its own variable: CI's LADDER_SWEEP_GAMES is sized for Drachengold,
    and checked DragonFlame games run about 10 a second (.ci/run sets CI's: 300, ~2 CPU minutes)."""
    return int(os.environ.get("LADDER_DRAGONFLAME_SWEEP_GAMES", "25"))


def ids_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if CARD_ID.match(value):
            yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from ids_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from ids_in(v)


def allowed(state, seat: int, public: set[str]) -> set[str]:
    """The card ids `seat` may know now: public ones, its hand, face-down cards it played or spied."""
    ids = set(public) | set(state.hands[seat]) | state.spied[seat]
    for castle in state.castles:
        ids |= {cid for cid, up, by in castle.cards if by == seat}
    return ids


def check_state(state, seed: int) -> None:
    assert sorted(state.cards_accounted(), key=lambda c: int(c[1:])) == ALL_CARDS, f"seed {seed}: cards"
    for seat in range(state.num_players):
        assert state.fire[seat] + state.grid.tokens_of(seat) == FIRE_PER_PLAYER, f"seed {seed}: fire"
        assert state.fire[seat] >= 0
    for row, score in zip(state.breakdown(), state.scores(), strict=True):
        assert sum(v for k, v in row.items() if k != "total") == row["total"] == score


def play_checked(players: int, seed: int, check_hidden: bool = True):
    state = GAME.new_state(None, seed, players)
    bots = []
    for seat in range(players):
        bot = (LooterBot if (seed + seat) % 3 == 0 else RandomBot)()
        bot.setup({"game": "dragonflame", "seat": seat, "players": players, "options": {}, "seed": seed})
        bots.append(bot)
    public: set[str] = set()
    seen = 0
    decisions = 0
    while True:
        for event in state.events[seen:]:
            ids = set(ids_in(event.data))
            if event.type in PRIVATE:
                assert event.to == (event.data["seat"],), f"{event.type} must go to its seat only"
            else:
                assert event.to is None, f"unexpected private {event.type}"
                if event.type == "attack" or (event.type == "play" and event.data["face"] == "up"):
                    public |= ids
                assert ids <= public, f"seed {seed}: public {event.type} names hidden cards {ids - public}"
            for seat, bot in enumerate(bots):
                if event.visible_to(seat):
                    bot.on_event(event.as_json())
        seen = len(state.events)
        check_state(state, seed)
        pending = state.pending()
        if pending is None:
            break
        if check_hidden:
            for seat in range(players):
                shown = set(ids_in(state.observation(seat)))
                assert shown <= allowed(state, seat, public), f"seed {seed}: seat {seat} sees hidden cards"
        decision = bots[pending.seat].decide(pending.kind, state.observation(pending.seat))
        reason = state.validate(pending.seat, decision)
        assert reason is None, f"seed {seed}: illegal {pending.kind}: {reason}"
        state.apply(pending.seat, decision)
        decisions += 1
        assert decisions < 1000, f"seed {seed}: the game does not end"
    assert state.end_reason == "deck" and len(state.deck) == 1
    assert len(state.ranks()) == players and min(state.ranks()) == 1
    return state
