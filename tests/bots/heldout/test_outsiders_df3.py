"""Two more DragonFlame outsiders (bots/heldout/dragonflame_induction.py, dragonflame_playout.py):
whole in-process games at every table size without a fault, and one check each of what it must do.
The time boxes are cut (module constants) so the file runs in well under a minute."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest

from ladder.games import get_game
from ladder.games.dragonflame.rules.data import CARD_BY_ID
from ladder.play import play_game

ROOT = Path(__file__).resolve().parents[3]


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"df3_{name}", ROOT / "bots" / "heldout" / f"dragonflame_{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.TIME_BOX = 0.02
    return mod


INDUCTION = _module("induction")
PLAYOUT = _module("playout")
BOTS = {"induction": INDUCTION.Induction, "playout": PLAYOUT.Playout}


def _timed(cls, times: list[float]):
    class Timed(cls):
        def decide(self, kind, observation):
            t0 = time.thread_time()  # CPU: a loaded machine stretches the wall clock, not this
            try:
                return super().decide(kind, observation)
            finally:
                times.append(time.thread_time() - t0)
    return Timed


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_games_without_a_fault(name: str, players: int) -> None:
    times: list[float] = []
    cls = _timed(BOTS[name], times)
    other = _timed(BOTS["playout" if name == "induction" else "induction"], [])
    bots = [cls() if seat % 2 == 0 or players == 2 else other() for seat in range(players)]
    played = play_game("dragonflame", bots, seed=40 + players)
    assert played.faults == []
    assert all(r.status == "ok" for r in played.replay.seats)
    assert played.state.pending() is None
    assert max(times) < 0.5


def _card(name: str, taken: set[str]) -> dict:
    cid = next(c for c, card in CARD_BY_ID.items() if card.name == name and c not in taken)
    taken.add(cid)
    return CARD_BY_ID[cid].as_json()


def _two_player_attack_observation(bot) -> dict:
    """Seed 11, two seats: the first attack's observation with the castles refilled by hand:
    castle 1 three Knights, castle 2 the Dragon Crown and a Ruby Amulet, castle 3 a Copper Bracelet."""
    state = get_game("dragonflame").new_state({}, 11, 2)
    while state.pending().kind != "attack":
        state.apply(state.pending().seat, state.default_decision())
    seat = state.pending().seat
    obs = state.observation(seat)
    bot.setup({"game": "dragonflame", "seat": seat, "players": 2, "options": {}, "seed": 3})
    taken = {c["id"] for c in obs["hand"]} | {c["id"] for h in obs["hoards"] for c in h}
    other = 1 - seat
    fill = {1: ["Knight", "Knight", "Knight"], 2: ["Dragon Crown", "Ruby Amulet"], 3: ["Copper Bracelet"]}
    for castle in obs["castles"]:
        castle["cards"] = [{"face": "up", "by": other, "card": _card(n, taken)} for n in fill[castle["number"]]]
    obs["request"] = {"kind": "attack", "castles": [1, 2, 3]}
    return obs


def test_induction_loots_the_jewels_and_knows_its_own_hidden_knight() -> None:
    bot = INDUCTION.Induction()
    obs = _two_player_attack_observation(bot)
    assert bot.attack(obs) == {"castle": 2}
    # a Knight it hid face down on castle 3: it sees the Knight, its rival sees an average card
    me, rival = bot.seat, 1 - bot.seat
    knight = next(c for c in CARD_BY_ID.values() if c.name == "Knight" and all(
        e.get("card", {}).get("id") != c.id for k in obs["castles"] for e in k["cards"]))
    castle3 = next(c for c in obs["castles"] if c["number"] == 3)
    castle3["cards"].append({"face": "down", "by": me, "card": knight.as_json()})
    mine = bot.gains(obs, me)[3][me][me]
    theirs = bot.gains(obs, rival)[3][me][me]
    assert mine < theirs - 3


def test_playout_deals_only_unseen_cards_and_loots_the_jewels() -> None:
    bot = PLAYOUT.Playout()
    obs = _two_player_attack_observation(bot)
    assert bot.attack(obs) == {"castle": 2}
    assert bot.worlds >= PLAYOUT.MIN_WORLDS
    # a play decision of a real game: every sampled world deals each rival exactly its hand size,
    # never a card this seat has seen, and keeps every face-down card it knows
    state = get_game("dragonflame").new_state({}, 12, 3)
    state.apply(state.pending().seat, state.default_decision())
    seat = state.pending().seat
    obs = state.observation(seat)
    bot = PLAYOUT.Playout()
    bot.setup({"game": "dragonflame", "seat": seat, "players": 3, "options": {}, "seed": 5})
    bot.absorb(obs)
    import random
    for i in range(20):
        hands, castles = bot.sample_world(obs, random.Random(i))
        dealt = [c for s, h in enumerate(hands) if s != seat for c in h]
        assert [len(h) for h in hands] == obs["hand_sizes"]
        assert hands[seat] == [c["id"] for c in obs["hand"]]
        assert not set(dealt) & bot.seen
        hidden = [c for k in castles.values() for c, up, by in k if not up and by != seat]
        assert len(set(dealt + hidden)) == len(dealt) + len(hidden)
    decision = bot.play(obs)
    assert decision["card"] in obs["request"]["cards"] and decision["castle"] in obs["request"]["castles"]
