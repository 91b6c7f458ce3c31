"""A careful bot for Treasure of the Dragons: remembers the board and weighs each flip.

Every flip is public, so the bot keeps a map of where the tiles it has seen lie face down
(`self.known`, updated from events). From the tiles still in the cave it works out what an unseen
square may hold, and before each flip it compares:

    gain  the expected extra tiles the flip would let it keep
    risk  the chance the flip ends the turn (a Spider, or a Dragon at the wrong moment)
          times what it would then lose

Tiles it knows are safe to flip (a known Diamond, the second Scroll of a pair) are counted as
already won: it flips them at the end without risk. It stops when the risk outweighs the gain.
"""

from __future__ import annotations

from collections import Counter

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

DRAGON, SPIDER = "dragon", "spider"
# The most Dragons at the end takes the 3 Spiders, so a Dragon is worth a little more than a tile.
DRAGON_WEIGHT = 1.25

Square = tuple[int, int]


class CarefulBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.known: dict[Square, str] = {}  # square -> kind, for tiles seen and still in the cave

    # ---- memory ----------------------------------------------------------------------------

    def on_event(self, event: dict[str, Any]) -> None:
        data = event["data"]
        if event["type"] == "game_start":
            self.known = {}
        elif event["type"] == "flip":
            self.known[tuple(data["square"])] = data["kind"]
        elif event["type"] == "keep":
            for square in data["squares"]:
                self.known.pop(tuple(square), None)
        elif event["type"] == "spider_move" and data["to"] is not None:
            self.known.pop(tuple(data["from"]), None)
            self.known[tuple(data["to"])] = SPIDER

    # ---- decisions -------------------------------------------------------------------------

    def flip(self, observation: dict[str, Any]) -> dict[str, Any]:
        sets = observation["set_sizes"]
        down = [tuple(sq) for sq in observation["request"]["squares"]]
        known = {sq: self.known[sq] for sq in down if sq in self.known}
        unknown = [sq for sq in down if sq not in known]
        odds = self.unknown_odds(observation, known, len(unknown))
        flipped = Counter(f["kind"] for f in observation["flipped"])
        known_kinds = Counter(known.values())

        def sure(hand: Counter) -> float:
            """Tiles kept by stopping after also flipping every known tile that completes a set."""
            return sum((hand[k] + known_kinds[k]) // s * s for k, s in sets.items())

        def flip_unknown() -> dict[str, Any]:
            return {"square": list(self.rng.choice(unknown))}

        if not flipped:  # the first flip decides between a Dragon run and a treasure hunt
            run = known_kinds[DRAGON] * DRAGON_WEIGHT
            hunt = sure(Counter())
            gamble = odds[DRAGON] * (1 + known_kinds[DRAGON]) * DRAGON_WEIGHT + sum(
                odds[k] * sure(Counter({k: 1})) for k in sets
            )
            # With nothing sure to take, an unseen square costs nothing to try.
            if unknown and (gamble > max(run, hunt) or max(run, hunt) == 0):
                return flip_unknown()
            if run >= hunt and known_kinds[DRAGON]:
                return self.flip_known(known, DRAGON)
            helpful = [k for k in sets if known_kinds[k] >= sets[k]]
            if helpful:
                return self.flip_known(known, helpful[0])
            return self.least_harm(known, unknown)

        if observation["dragon_run"]:
            have = flipped[DRAGON] + known_kinds[DRAGON]
            gain = odds[DRAGON] * DRAGON_WEIGHT
            risk = (1 - odds[DRAGON]) * have * DRAGON_WEIGHT
            if unknown and gain > risk:
                return flip_unknown()
            if known_kinds[DRAGON]:
                return self.flip_known(known, DRAGON)
            return {"stop": True}

        now = sure(flipped)
        gain = sum(odds[k] * (sure(flipped + Counter({k: 1})) - now) for k in sets)
        risk = (odds[DRAGON] + odds[SPIDER]) * now
        if unknown and (gain > risk or now == 0):
            return flip_unknown()
        for kind, size in sets.items():  # collect the known tiles that finish a set
            if flipped[kind] < (flipped[kind] + known_kinds[kind]) // size * size:
                return self.flip_known(known, kind)
        return {"stop": True}

    def move_spider(self, observation: dict[str, Any]) -> dict[str, Any]:
        # Where the Spider goes is public, so moving it hides nothing: leave it.
        return {"square": None}

    # ---- helpers ---------------------------------------------------------------------------

    def unknown_odds(self, observation: dict[str, Any], known: dict[Square, str], unseen: int) -> Counter:
        """For each kind, the chance that an unseen face-down square holds it."""
        left = Counter(observation["tile_counts"])
        for hoard in observation["hoards"]:
            left.subtract(hoard)
        left.subtract(f["kind"] for f in observation["flipped"])
        left.subtract(known.values())
        if unseen == 0:
            return Counter()
        return Counter({k: max(n, 0) / unseen for k, n in left.items()})

    def flip_known(self, known: dict[Square, str], kind: str) -> dict[str, Any]:
        return {"square": list(min(sq for sq, k in known.items() if k == kind))}

    def least_harm(self, known: dict[Square, str], unknown: list[Square]) -> dict[str, Any]:
        """A forced first flip with nothing worth taking: prefer what cannot end in a Spider."""
        safe = sorted(sq for sq, k in known.items() if k != SPIDER)
        if safe:
            return {"square": list(safe[0])}
        return {"square": list(self.rng.choice(unknown or sorted(known)))}


if __name__ == "__main__":
    run(CarefulBot)
