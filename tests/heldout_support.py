"""What the tests of the outside authors' Drachengold bots (tests/bots/heldout/test_outsiders_dg*.py)
share: the tables every bot plays through, the house bots that fill them, and a negotiation's
observation built by hand. Each bot's `ladder match` as a process is test_heldout.py's, for every
held-out file."""

from __future__ import annotations

from bots import load_builtin
from ladder.play import PlayedGame, play_game

FILLERS = ["strong", "greedy", "trader", "bargainer", "greedy"]
TABLES = [
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (4, {"rules": "advanced-a"}),
    (4, {"rules": "advanced-b", "split": "strategic"}),
    (5, {"rules": "advanced-a", "split": "strategic", "negotiation_rounds": 3, "market_rounds": 2}),
]
TOKENS = [{"id": f"t{i}", "colour": "silver"} for i in range(6)] + [{"id": f"t{35 + i}", "colour": "gold"}
                                                                      for i in range(4)]
WORTH = {t["id"]: 3 if t["colour"] == "gold" else 1 for t in TOKENS}


def play(bot_class, players: int, options: dict, seed: int) -> PlayedGame:
    """A whole game of the bot in seat 0 against house bots."""
    bots = [bot_class()] + [load_builtin("drachengold", n)() for n in FILLERS[: players - 1]]
    return play_game("drachengold", bots, seed=seed, options=options)


def made(bot_class):
    """A bot set up in seat 0 of a basic four-player game."""
    bot = bot_class()
    bot.setup({"game": "drachengold", "seat": 0, "players": 4, "options": {"rules": "basic"}, "seed": 1})
    return bot


def negotiation(seat_attack: dict[str, int], tokens, round_=1, rounds=8, standing=(), step="vote") -> dict:
    return {"dragon": "D9", "involved": sorted(int(s) for s in seat_attack), "order": [0, 1],
            "tokens": tokens, "rounds": rounds, "round": round_, "step": step,
            "standing": list(standing), "last_votes": {}, "attack": seat_attack}


def observation(neg: dict, proposals=(), kind="vote") -> dict:
    request = {"kind": kind, "proposals": [p["id"] for p in proposals]} if kind == "vote" else {"kind": kind}
    return {"seat": 0, "players": 4, "hoard": [], "hoard_sizes": [0, 0, 0, 0], "dragons": [], "bag": 80,
            "negotiation": neg, "request": request}
