"""Seeded random Drachengold games with every invariant checked after every decision.

Shared by the property tests and `ladder check`-style sweeps: `play_checked` raises
AssertionError with the seed and the decision index on the first broken invariant.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from bots.drachengold.greedy import GreedyBot
from bots.drachengold.random import RandomBot
from ladder.games import get_game
from ladder.games.drachengold.rules.data import TOKEN_COLOURS

GAME = get_game("drachengold")
RULES = ("basic", "advanced-a", "advanced-b")
SPLITS = ("negotiation", "strategic")
PLAYERS = (3, 4, 5, 6)
COMBOS = [(r, s, n) for r in RULES for s in SPLITS for n in PLAYERS]
ALL_TOKENS = list(range(len(TOKEN_COLOURS)))

# Events that carry private information, and who alone may see each.
PRIVATE = {
    "card": lambda d: {d["seat"]},
    "scry": lambda d: {d["seat"]},
    "windfall": lambda d: {d["seat"]},
    "stolen": lambda d: {d["seat"], d["victim"]},
    "offer": lambda d: {d["from"], d["to"]},
    "trade_done": lambda d: {d["from"], d["to"]},
    "trade_skipped": lambda d: {d["from"], d["to"]},
}
TOKEN_ID = re.compile(r"^t\d+$")
DRAGON_ID = re.compile(r"^D\d+$")
CARD_ID = re.compile(r"^m\d+$")


def sweep_games() -> int:
    """Games per option combination: CI sets LADDER_SWEEP_GAMES (.ci/run says how many and why)."""
    return int(os.environ.get("LADDER_SWEEP_GAMES", "150"))


def options_for(rules: str, split: str, seed: int) -> dict[str, Any]:
    return {"rules": rules, "split": split, "negotiation_rounds": (1, 2, 8)[seed % 3],
            "market_rounds": (1, 3)[seed % 2]}


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def token_locations(state) -> list[int]:
    tokens = list(state.bag) + list(state.box)
    for hoard in state.hoards:
        tokens += hoard
    for slot in state.table:
        if slot is not None:
            tokens += slot.tokens
    return tokens


def allowed_tokens(state, seat: int, request) -> set[str]:
    """Token ids `seat` may legitimately see right now."""
    ids = {f"t{t}" for slot in state.table if slot for t in slot.tokens}
    ids |= {f"t{t}" for t in state.hoards[seat]}
    for ctx in (state.negotiation, state.strategic):
        if ctx:
            ids |= {t["id"] for t in ctx["tokens"]}
    if request is not None and request.seat == seat:
        ids |= {s for s in strings(request.info) if TOKEN_ID.match(s)}
    return ids


def check_observation(state, seat: int, request, known_dragons: set[str]) -> None:
    obs = state.observation(seat)
    if state.phase == "over":
        return
    allowed = allowed_tokens(state, seat, request)
    own_cards = {f"m{c}" for c in state.hands[seat]}
    for s in strings(obs):
        assert not TOKEN_ID.match(s) or s in allowed, f"seat {seat} sees token {s} it may not"
        assert not DRAGON_ID.match(s) or s in known_dragons, f"seat {seat} sees pile dragon {s}"
        assert not CARD_ID.match(s) or s in own_cards, f"seat {seat} sees card {s} not in its hand"
    assert "hoards" not in obs, "other hoards' colours before the end"
    for key in ("bag", "pile"):
        assert isinstance(obs[key], int), f"{key} must be a count, not its order"


def check_event(event, public_tokens: set[str]) -> None:
    data = event.data
    if event.type in PRIVATE:
        assert event.to is not None and set(event.to) == PRIVATE[event.type](data), (
            f"{event.type} must go only to {PRIVATE[event.type](data)}, went to {event.to}"
        )
        return
    assert event.to is None, f"unexpected private event {event.type}"
    if event.type == "game_over":
        return
    for s in strings(data):
        assert not TOKEN_ID.match(s) or s in public_tokens, f"public {event.type} names hidden token {s}"


def play_checked(rules: str, split: str, players: int, seed: int, check_hidden: bool = True) -> Any:
    options = options_for(rules, split, seed)
    state = GAME.new_state(options, seed, players)
    bots = []
    for seat in range(players):
        bot = (GreedyBot if (seed + seat) % 3 == 0 else RandomBot)()
        bot.setup({"game": "drachengold", "seat": seat, "players": players, "options": state.options, "seed": seed})
        bots.append(bot)
    public_tokens: set[str] = set()
    seen = 0
    decisions = 0
    while True:
        for event in state.events[seen:]:
            if event.to is None and event.type in ("setup", "dragon", "kill"):
                public_tokens |= {s for s in strings(event.data) if TOKEN_ID.match(s)}
            if check_hidden:
                check_event(event, public_tokens)
        seen = len(state.events)
        assert sorted(token_locations(state)) == ALL_TOKENS, f"seed {seed}: tokens not conserved"
        pending = state.pending()
        if pending is None:
            break
        request = state._request
        if check_hidden:
            known = {s.dragon["id"] for s in state.table if s} | set(state.dead)
            check_observation(state, pending.seat, request, known)
        decision = bots[pending.seat].decide(pending.kind, state.observation(pending.seat))
        reason = state.validate(pending.seat, decision)
        assert reason is None, f"seed {seed}: bot made an illegal {pending.kind}: {reason}"
        state.apply(pending.seat, decision)
        decisions += 1
        assert decisions < 20_000, f"seed {seed}: game does not end"
    assert state.end_reason in ("bag_empty", "pile_empty", "turn_cap")
    assert len(state.ranks()) == players and min(state.ranks()) == 1
    return state
