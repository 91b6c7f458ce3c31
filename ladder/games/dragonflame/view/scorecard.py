"""DragonFlame's scorecard (ladder/games/scorecard.py): what decides the game.

One pass over the replay's public events: each attack (the castle looted and every card on it,
revealed), each Dragonflame's fire, each round's banners, each Spyglass look, and the end's grid
(which villages were destroyed, who burnt them). The formulas: docs/scorecard.md, "dragonflame".
"""

from __future__ import annotations

from ladder.games.dragonflame.rules.decisions import SPY
from ladder.games.scorecard import Measure, Tally
from ladder.replay import Decision, Replay

MEASURES: tuple[Measure, ...] = (
    Measure("castles_looted", "castles looted", "castles the seat attacked and looted, per match", "total", "",
            "dragonflame-castles"),
    Measure("castle_number", "castle number", "the number of the castle looted (its size and the next round's "
            "banner), per attack", "mean", "", "dragonflame-castles"),
    Measure("cards_looted", "cards per loot", "cards taken per castle looted", "mean", "", "dragonflame-castles"),
    Measure("knights_looted", "Knights looted", "Knights (-3 each) taken per match", "total", "",
            "dragonflame-castles"),
    Measure("villages_burnt", "villages burnt", "villages destroyed by the end that the seat put fire on, per match",
            "total", "", "dragonflame-villages"),
    Measure("villages_led", "villages led", "destroyed villages where the seat did the most damage, per match",
            "total", "", "dragonflame-villages"),
    Measure("fire_placed", "fire placed", "fire tokens placed on villages, per match", "total", "",
            "dragonflame-villages"),
    Measure("fire_wasted", "fire wasted", "fire of its Dragonflames that landed on a Field, a full village or an "
            "empty supply, of all the fire they carried", "rate", "%", "dragonflame-villages"),
    Measure("banner", "banner held", "the number of the banner held in each round (turn order; the last one "
            "scores), per round", "mean", "", "dragonflame-banners"),
    Measure("final_banner", "final banner", "the number of the banner held at the end (its Glory Points)", "total",
            "", "dragonflame-banners"),
    Measure("princesses", "Princesses", "Princesses looted per match (a second one is discarded)", "total", "",
            "dragonflame-princesses"),
    Measure("princess_kept", "with a Princess", "matches ended with a Princess in the hoard", "rate", "%",
            "dragonflame-princesses"),
    Measure("spy_uses", "spy uses", "Spyglass looks at a castle's face-down cards, per match", "total", "",
            "dragonflame-spy"),
    Measure("spy_rate", "Spyglass used", "Spyglass chances taken, of those the rules offered", "rate", "%",
            "dragonflame-spy"),
)


def measure(replay: Replay) -> dict[int, dict[str, Tally]]:
    n = replay.header.players
    attacks, numbers, cards, knights = [0] * n, [0] * n, [0] * n, [0] * n
    carried, wasted, placed = [0] * n, [0] * n, [0] * n
    banner_sum, rounds, final_banner = [0] * n, [0] * n, [0] * n
    princesses, spies, offers = [0] * n, [0] * n, [0] * n
    kept_princess = [False] * n
    burnt, led = [0] * n, [0] * n
    for entry in replay.log:
        if isinstance(entry, Decision):
            if entry.kind == SPY:
                offers[entry.seat] += 1
            continue
        data, kind = entry.data, entry.type
        if kind == "attack":
            seat = data["seat"]
            attacks[seat] += 1
            numbers[seat] += data["castle"]["number"]
            cards[seat] += len(data["cards"])
            for card in data["cards"]:
                knights[seat] += card["category"] == "knight"
                if card["category"] == "princess":
                    princesses[seat] += 1
                    kept_princess[seat] = True  # the first stays; a second is discarded
        elif kind == "flame":
            seat = data["seat"]
            carried[seat] += data["tokens"]
            wasted[seat] += data["wasted"]
            placed[seat] += len(data["placed"])
        elif kind == "flame_fizzle":  # a Dragonflame that burns nothing: its fire is all wasted
            seat = data["seat"]
            fire = int(data["card"].get("fire", 0))
            carried[seat] += fire
            wasted[seat] += fire
        elif kind == "round":
            for seat, banner in enumerate(data["banners"]):
                banner_sum[seat] += banner["number"]
                rounds[seat] += 1
        elif kind == "round_end":
            final_banner = [banner["number"] for banner in data["banners"]]
        elif kind == "spy":
            spies[data["seat"]] += 1
        elif kind == "game_end":
            for row in data["grid"]:
                for cell in row:
                    fire = cell["fire"]
                    if not cell["spaces"] or len(fire) < cell["spaces"]:
                        continue  # a Field, or a village still standing
                    top = sorted(set(fire), key=lambda s: (-fire.count(s), fire.index(s)))[0]
                    led[top] += 1
                    for seat in set(fire):
                        burnt[seat] += 1
    out: dict[int, dict[str, Tally]] = {}
    for s in range(n):
        row: dict[str, Tally] = {
            "castles_looted": (attacks[s], 1), "knights_looted": (knights[s], 1), "villages_burnt": (burnt[s], 1),
            "villages_led": (led[s], 1), "fire_placed": (placed[s], 1), "final_banner": (final_banner[s], 1),
            "princesses": (princesses[s], 1), "princess_kept": (int(kept_princess[s]), 1), "spy_uses": (spies[s], 1),
        }
        if attacks[s]:
            row["castle_number"] = (numbers[s], attacks[s])
            row["cards_looted"] = (cards[s], attacks[s])
        if carried[s]:
            row["fire_wasted"] = (wasted[s], carried[s])
        if rounds[s]:
            row["banner"] = (banner_sum[s], rounds[s])
        if offers[s]:
            row["spy_rate"] = (spies[s], offers[s])
        out[s] = row
    return out
