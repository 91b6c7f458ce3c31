"""The end of a DragonFlame game: end-of-game Relics in banner order, then every score category.

The edition resolves the three "at the end of the game" Relics for their holder, in turn order of
the banners held after the last round, each at its best (they can only help their holder):
Knight's Bane discards up to two of the holder's Knights, Curse Breaker discards the holder's
Curse, Lucky Chest lets the holder's next-largest Chest name score as a set too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ladder.games.base import JSON
from ladder.games.dragonflame.rules.data import CARD_BY_ID, CURSE, CURSE_BREAKER, KNIGHT, KNIGHTS_BANE, LUCKY_CHEST
from ladder.games.dragonflame.rules.scoring import hoard_points
from ladder.games.dragonflame.rules.village import village_glory

if TYPE_CHECKING:
    from ladder.games.dragonflame.rules.state import DragonFlameState

END_RELICS = (KNIGHTS_BANE, CURSE_BREAKER, LUCKY_CHEST)
CATEGORIES = ("villages", "banner", "statues", "chests", "jewelry", "princess", "knights", "curse")


def finish(state: DragonFlameState) -> None:
    state._pending = None
    state.phase = "over"
    state.end_reason = "deck"
    order = sorted(range(state.num_players), key=lambda s: state.banners[s][1])
    for seat in order:
        hoard = state.hoards[seat]
        for relic in [c for c in hoard if CARD_BY_ID[c].name in END_RELICS]:
            name = CARD_BY_ID[relic].name
            if name == KNIGHTS_BANE:
                gone = [c for c in hoard if CARD_BY_ID[c].category == KNIGHT][:2]
            elif name == CURSE_BREAKER:
                gone = [c for c in hoard if CARD_BY_ID[c].category == CURSE][:1]
            else:
                gone = []
                state.lucky[seat] += 1
            for c in gone:
                hoard.remove(c)
                state.discard.append(c)
            state._emit("relic", seat=seat, relic=name, discarded=[CARD_BY_ID[c].as_json() for c in gone])
    state.final = breakdown(state)
    state._emit("game_end", reason=state.end_reason, deck=len(state.deck), scores=state.scores(),
                ranks=state.ranks(), breakdown=state.final, grid=state.grid.as_json())


def breakdown(state: DragonFlameState) -> list[dict[str, JSON]]:
    villages = [0] * state.num_players
    for cell in state.grid.cells:
        for seat, glory in enumerate(village_glory(cell, state.num_players)):
            villages[seat] += glory
    rows = []
    for seat in range(state.num_players):
        row: dict[str, JSON] = {"villages": villages[seat], "banner": state.banners[seat][1]}
        row.update(hoard_points(state.hoards[seat], 1 + state.lucky[seat]))
        row["total"] = sum(row[k] for k in CATEGORIES)
        rows.append(row)
    return rows
