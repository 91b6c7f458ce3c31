"""A looter bot for DragonFlame: values every castle for its own hoard and plans its attack.

- What a card is worth to this bot is how much its end score would change with the card in its
  hoard (`worth`: the rules' scoring, a second Princess or Curse worth nothing, Relics and
  Dragonflames at rough values). A face-down card it cannot see counts UNKNOWN.
- Attack: the castle worth most to it now (in the last round the castle's number counts too: it
  becomes the Banner that scores).
- Play: for each card and castle it may play onto, it predicts the attack that follows (the others
  take, in banner order, the castle that looks best to anyone from what they can see; it takes the
  one best for itself) and plays where it ends up with the most; a bad card goes where others will
  take it.
- Dragonflame: the line that adds most to its expected village glory, less half what it gives the
  others on average.
- Spyglass: always, on the castle with the most face-down cards it has not seen.
"""

from __future__ import annotations

from collections import Counter

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

UNKNOWN = -0.5  # a face-down card nobody showed us: often a Knight or a Curse someone dumped
FIRE_VALUE = 1.5  # one fire token placed, in Glory Points
RELIC_VALUE = {"Spyglass": 1.0, "Ring of Fire": 2.0, "Lucky Chest": 1.0}
GLORY = {3: (6, 3), 4: (8, 4, 2), 5: (10, 6, 3, 1)}
TREASURES = ("chest", "statue", "jewelry")


def hoard_value(cards: list[dict[str, Any]], fire_left: int) -> float:
    """The bot's estimate of what a hoard scores at the end (villages and banner aside)."""
    names = Counter(c["name"] for c in cards)
    cats = Counter(c["category"] for c in cards)
    statues = Counter(c["name"] for c in cards if c["category"] == "statue")
    chests = sorted(Counter(c["name"] for c in cards if c["category"] == "chest").values(), reverse=True)
    sets = 1 + names["Lucky Chest"]
    value = sum(5 for n in statues.values() if n == 1)
    value += sum(n * n for n in chests[:sets]) - sum(chests[sets:])
    value += sum(c.get("value", 0) for c in cards if c["category"] == "jewelry")
    if cats["princess"]:
        value += len({c["name"] for c in cards if c["category"] in TREASURES}) + 2  # more to come
    knights = max(0, cats["knight"] - 2 * names["Knight's Bane"])
    value -= 3 * knights
    value += 1.5 * names["Knight's Bane"]  # knights it may still take
    if cats["curse"] and not names["Curse Breaker"]:
        value -= 2 * max(1, len(chests))
    value += names["Curse Breaker"] * (0.5 if not cats["curse"] else 0)
    value += sum(RELIC_VALUE.get(name, 0) * n for name, n in names.items())
    fire = sum(c.get("fire", 0) for c in cards if c["category"] == "dragonflame")
    return value + FIRE_VALUE * min(fire, fire_left)


def village_value(grid: list[list[dict[str, Any]]], players: int) -> list[float]:
    """Each seat's expected glory from the villages: its award by current damage, scaled by how
    full the village is (a full one is destroyed and pays in full)."""
    out = [0.0] * players
    for row in grid:
        for cell in row:
            fire, spaces = cell["fire"], cell["spaces"]
            if not spaces or not fire:
                continue
            burners = sorted(set(fire), key=lambda s: (-fire.count(s), fire.index(s)))
            share = (len(fire) / spaces) ** 2
            for rank, seat in enumerate(burners[: len(GLORY[spaces])]):
                out[seat] += GLORY[spaces][rank] * share
    return out


def burn(grid: list[list[dict[str, Any]]], seat: int, side: str, index: int, tokens: int, supply: int):
    """The grid after a Dragonflame along one line (the rules' placement, on a copy)."""
    grid = [[{**cell, "fire": list(cell["fire"])} for cell in row] for row in grid]
    rows, cols = len(grid), len(grid[0])
    path = [(index, c) for c in range(cols)] if side in ("left", "right") else [(r, index) for r in range(rows)]
    if side in ("right", "bottom"):
        path.reverse()
    for r, c in path[:tokens]:
        cell = grid[r][c]
        if cell["spaces"] and len(cell["fire"]) < cell["spaces"] and supply > 0:
            cell["fire"].append(seat)
            supply -= 1
    return grid


class LooterBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self._base: tuple[Any, float] = (None, 0.0)
        self._memo: tuple[Any, dict] = (None, {})

    # ---- valuing ---------------------------------------------------------------------------

    def worth(self, obs: dict[str, Any], cards: list[dict[str, Any]]) -> float:
        mine = obs["hoards"][self.seat]
        fire = obs["fire"][self.seat]
        if self._base[0] is not obs:  # the hoard's own value, once per decision
            self._base = (obs, hoard_value(mine, fire))
        return hoard_value(mine + cards, fire) - self._base[1]

    def castle_worth(self, obs: dict[str, Any], castle: dict[str, Any], extra=None) -> float:
        if self._memo[0] is not obs:  # the same castles are weighed for every card and target
            self._memo = (obs, {})
        key = (castle["number"], extra["id"] if extra else None)
        if key not in self._memo[1]:
            self._memo[1][key] = self._castle_worth(obs, castle, extra)
        return self._memo[1][key]

    def _castle_worth(self, obs: dict[str, Any], castle: dict[str, Any], extra=None) -> float:
        cards = [e["card"] for e in castle["cards"] if "card" in e]
        hidden = sum("card" not in e for e in castle["cards"])
        if extra is not None:
            cards = [*cards, extra]
        value = self.worth(obs, cards) + UNKNOWN * hidden
        players = obs["players"]
        if obs["deck"] < (4 if players == 2 else 3) * players:  # the last round: the banner scores
            value += castle["number"] if players > 2 else 0.5 * castle["number"]
        return value

    @staticmethod
    def public_worth(castle: dict[str, Any], extra_up=None, extra_down: int = 0) -> float:
        """How good a castle looks to a dragon that sees only its face-up cards."""
        rough = {"knight": -3, "curse": -3, "princess": 3, "statue": 4, "chest": 2, "relic": 1}
        cards = [e["card"] for e in castle["cards"] if e["face"] == "up"]
        if extra_up is not None:
            cards.append(extra_up)
        down = sum(e["face"] == "down" for e in castle["cards"]) + extra_down
        total = sum(c.get("value", 0) or 2 * c.get("fire", 0) or rough.get(c["category"], 0) for c in cards)
        return total + UNKNOWN * down

    def predicted_haul(self, obs: dict[str, Any], castles: list[dict[str, Any]], target: int | None,
                       card: dict[str, Any] | None, face_up: bool) -> float:
        """What this bot ends with if `card` goes onto castle `target` and everyone attacks now."""
        left = {c["number"]: c for c in castles if c["attacker"] is None}
        for seat in obs["order"]:
            if not left:
                break
            if seat == self.seat:
                best = max(left, key=lambda n: self.castle_worth(obs, left[n], card if n == target else None))
                return self.castle_worth(obs, left[best], card if n_is(best, target) else None)
            best = max(left, key=lambda n: self.public_worth(
                left[n], card if (n == target and face_up) else None, int(n == target and not face_up)))
            del left[best]
        return 0.0

    # ---- decisions -------------------------------------------------------------------------

    def play(self, obs: dict[str, Any]) -> dict[str, Any]:
        request = obs["request"]
        face_up = request["face"] == "up"
        if not request["castles"]:
            hand = {c["id"]: c for c in obs["hand"]}
            return {"card": min(request["cards"], key=lambda c: self.worth(obs, [hand[c]])), "castle": None}
        hand = {c["id"]: c for c in obs["hand"]}
        best, choice = None, None
        for cid in request["cards"]:
            card = hand[cid]
            for number in request["castles"]:
                haul = self.predicted_haul(obs, obs["castles"], number, card, face_up)
                if best is None or haul > best:
                    best, choice = haul, {"card": cid, "castle": number}
        return choice

    def spy(self, obs: dict[str, Any]) -> dict[str, Any]:
        unseen = {c["number"]: sum("card" not in e for e in c["cards"]) for c in obs["castles"]}
        targets = obs["request"]["castles"]
        return {"castle": max(targets, key=lambda n: unseen.get(n, 0)) if targets else None}

    def attack(self, obs: dict[str, Any]) -> dict[str, Any]:
        castles = {c["number"]: c for c in obs["castles"]}
        options = obs["request"]["castles"]
        return {"castle": max(options, key=lambda n: self.castle_worth(obs, castles[n]))}

    def flame(self, obs: dict[str, Any]) -> dict[str, Any]:
        request, players = obs["request"], obs["players"]
        supply = obs["fire"][self.seat]

        def gain(line: dict[str, Any]) -> float:
            grid = burn(obs["grid"], self.seat, line["side"], line["index"], request["tokens"], supply)
            values = village_value(grid, players)
            others = sum(v for s, v in enumerate(values) if s != self.seat) / max(1, players - 1)
            return values[self.seat] - 0.5 * others

        return dict(max(request["lines"], key=gain))


def n_is(a: int, b: int | None) -> bool:
    return b is not None and a == b


if __name__ == "__main__":
    run(LooterBot)
